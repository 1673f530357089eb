/* The permutation line and object (perm_out.h). */
#include "report/perm_out.h"

#include <inttypes.h>

static const struct jsonw_field walk_fields[] = {
	JSONW_FIELD(UINT, "nodes", struct layout_check, nodes),
	JSONW_FIELD(UINT, "expected_lines", struct layout_check, expected_lines),
	JSONW_FIELD(UINT, "steps_walked", struct layout_check, steps_walked),
	JSONW_FIELD(UINT, "distinct_nodes_walked", struct layout_check, distinct_nodes_walked),
	JSONW_FIELD(UINT, "distinct_lines_walked", struct layout_check, distinct_lines_walked),
};

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

void perm_write_layout_check_json(struct jsonw *w, const struct layout_check *l, bool with_closed)
{
	jsonw_object_begin(w, "layout_check");
	JSONW_FIELDS(w, l, walk_fields);
	if (with_closed)
		jsonw_bool(w, "closed", l->closed);
	jsonw_bool(w, "ok", l->ok);
	jsonw_object_end(w);
}
