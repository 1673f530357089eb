/*
 * The output sink both bzip2 fuzz targets decode into: a decoder's blocks
 * appended to one buffer of CAP_BYTES, refusing (1) past it, so a run-length
 * bomb in the input stops at the cap instead of exhausting memory.
 */
#ifndef MLPSCOPE_FUZZ_BZIP2_SINK_H
#define MLPSCOPE_FUZZ_BZIP2_SINK_H

#include "bzip2/bz2.h"

#include <stdint.h>
#include <string.h>

#define CAP_BYTES ((size_t)1 << 20)

struct acc {
	uint8_t *p;
	size_t n;
};

static inline int keep(void *ctx, unsigned block, const uint8_t *out, size_t bytes, const struct bz2_stage_ticks *t)
{
	struct acc *a = ctx;

	(void)block, (void)t;
	if (bytes > CAP_BYTES - a->n)
		return 1;
	memcpy(a->p + a->n, out, bytes);
	a->n += bytes;
	return 0;
}

#endif
