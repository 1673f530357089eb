/*
 * Vetting a parsed result for meaning, not syntax: a file can be valid JSON
 * from "tool": "mlpscope" and still say lanes = 1e300 or level = 1e10.
 * Everything drawn or computed from a saved result (compare, model, trace
 * --from, the fuzz targets) passes through here first, so a writer never
 * sees a value outside the range a measurement can produce. It does not
 * judge whether runs are comparable (compare does) or repair anything.
 */
#ifndef MLPSCOPE_ANALYSE_VET_H
#define MLPSCOPE_ANALYSE_VET_H

#include <stddef.h>

#include "util/jsonr.h"

/* The largest size any *_bytes key may hold: 1 PiB, far above any machine
 * this measures, far below where a double stops holding whole bytes. */
#define VET_MAX_BYTES ((double)(1ULL << 50))
/* Cache levels a result may name (the OS reports 1..4 today). */
#define VET_MAX_LEVEL 8

/* Check every number in root against the range its key allows (lanes
 * 1..LANES_MAX, *_bytes 0..2^50, level 1..8, times within +-1e15 ns, counts
 * whole and bounded) and the arrays whose lengths must agree with other keys.
 * 0, or -EDOM with err one line naming path (the file), the key's path in
 * the document, the value and what was expected. */
int vet_result(const struct jsonr_value *root, const char *path, char *err, size_t errlen);

#endif
