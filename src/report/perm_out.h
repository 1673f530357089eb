/*
 * The permutation line and object every chasing result carries: the
 * algorithm, the seed and the FNV-1a hash of the cycle(s), so a figure can be
 * tied to the exact layout it timed and a rerun shown to have built the same.
 */
#ifndef MLPSCOPE_REPORT_PERM_OUT_H
#define MLPSCOPE_REPORT_PERM_OUT_H

#include "core/chain.h"
#include "util/jsonw.h"

#include <stdint.h>
#include <stdio.h>

/* "  permutation: Sattolo, seed S, hash H" and, when how_seeded is not
 * NULL, "(how_seeded)" after it: how each chain's seed derives from S. */
void perm_write_text(FILE *f, uint64_t seed, uint64_t hash, const char *how_seeded);

/* "permutation": {algorithm, seed, hash_fnv1a64[, chain_seeds]}, the keys
 * mlp writes, so one reader serves every section. */
void perm_write_json(struct jsonw *w, uint64_t seed, uint64_t hash, const char *how_seeded);

/* "layout_check": what the walk over the built cycle saw against what the
 * layout claims; with_closed adds whether it came back to its start (the
 * sections that write it; the others' readers do not expect the key). */
void perm_write_layout_check_json(struct jsonw *w, const struct layout_check *l, bool with_closed);

#endif
