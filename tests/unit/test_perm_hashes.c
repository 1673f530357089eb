/*
 * Every result with a permutation records its seed and hash: the tlb,
 * multicore and loaded writers carry the permutation line and object that
 * latency and mlp carry, and the fold that makes one hash of many chains
 * changes when any one chain does.
 */
#include "../harness.h"

#include "exp/loaded.h"
#include "exp/multicore.h"
#include "exp/perm_fold.h"
#include "exp/tlb.h"
#include "report/loaded_out.h"
#include "report/multicore_out.h"
#include "report/tlb_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*text_fn)(const void *, FILE *);
typedef void (*json_fn)(const void *, struct jsonw *, const char *);

/* The writers' text and JSON of result, concatenated; the caller frees. */
static char *written(const void *result, text_fn text, json_fn json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw w;

	if (!f)
		return NULL;
	text(result, f);
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	json(result, &w, "r");
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(f);
	return buf;
}

static bool says_hash(const char *buf, const char *seed_text)
{
	return strstr(buf, "permutation: Sattolo, seed ") && strstr(buf, "hash 00000000deadbeef") &&
	       strstr(buf, "\"hash_fnv1a64\"") && strstr(buf, "\"algorithm\"") && strstr(buf, seed_text);
}

TEST(perm_hash_in_the_tlb_multicore_and_loaded_results)
{
	static struct tlb_result t;
	static struct multicore_result m;
	static struct loaded_result l;
	char *buf;
	bool ok;

	t.nseries = 1;
	t.series[0].npoints = 1;
	t.series[0].points[0].pages = 8;
	t.stride_bytes = 4096;
	t.seed = 7;
	t.perm_hash = 0xdeadbeef;
	buf = written(&t, tlb_write_text, tlb_write_json);
	ok = buf && says_hash(buf, "seed 7,");
	free(buf);
	CHECK(ok, "tlb: no permutation seed and hash in text and JSON");
	m.perm_seed = 11;
	m.perm_hash = 0xdeadbeef;
	m.pages_requested = "huge";
	m.concurrency_definition = "";
	buf = written(&m, multicore_write_text, multicore_write_json);
	ok = buf && says_hash(buf, "seed 11,");
	free(buf);
	CHECK(ok, "multicore: no permutation seed and hash in text and JSON");
	l.perm_seed = 21;
	l.perm_hash = 0xdeadbeef;
	l.bw_definition = "";
	buf = written(&l, loaded_write_text, loaded_write_json);
	ok = buf && says_hash(buf, "seed 21,");
	free(buf);
	CHECK(ok, "loaded: no permutation seed and hash in text and JSON");
}

TEST(perm_hash_fold_changes_with_any_chain_and_with_order)
{
	uint64_t a = perm_hash_fold(perm_hash_fold(PERM_FOLD_BASIS, 1), 2);
	uint64_t b = perm_hash_fold(perm_hash_fold(PERM_FOLD_BASIS, 1), 3);
	uint64_t c = perm_hash_fold(perm_hash_fold(PERM_FOLD_BASIS, 2), 1);

	CHECK(a != b && a != c && b != c, "fold %016llx %016llx %016llx", (unsigned long long)a,
	      (unsigned long long)b, (unsigned long long)c);
}
