/* The permutation line and object (perm_out.h). */
#include "report/perm_out.h"

#include <inttypes.h>

void perm_write_text(FILE *f, uint64_t seed, uint64_t hash, const char *how_seeded)
{
	fprintf(f, "  permutation: Sattolo, seed %" PRIu64 ", hash %016" PRIx64 "%s%s%s\n", seed, hash,
		how_seeded ? " (" : "", how_seeded ? how_seeded : "", how_seeded ? ")" : "");
}

void perm_write_json(struct jsonw *w, uint64_t seed, uint64_t hash, const char *how_seeded)
{
	jsonw_object_begin(w, "permutation");
	jsonw_string(w, "algorithm", "sattolo/xoshiro256**");
	jsonw_uint(w, "seed", seed);
	jsonw_hex64(w, "hash_fnv1a64", hash);
	if (how_seeded)
		jsonw_string(w, "chain_seeds", how_seeded);
	jsonw_object_end(w);
}
