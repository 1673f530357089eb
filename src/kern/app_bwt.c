/*
 * The inverse-BWT walk as a runtime-K loop over a lane-state array: the row
 * and output pointer of every lane live in memory (L1), as they must when K
 * is a run-time value, so each step adds a state load and store per lane to
 * the walk's one dependent table load and one output store. The generated
 * register-lane kernels (app.gen.c) remove exactly that bookkeeping.
 */
#include "kern/app.h"

void app_bwt_walk_state32(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin,
			  unsigned k, size_t steps)
{
	const uint32_t *tt = table;
	uint32_t p[APP_K_MAX];
	uint8_t *o[APP_K_MAX];

	for (unsigned i = 0; i < k; i++) {
		p[i] = (uint32_t)pos[i];
		o[i] = out + seg_begin[i];
	}
	for (size_t s = 0; s < steps; s++)
		for (unsigned i = 0; i < k; i++) {
			uint32_t t = tt[p[i]];

			o[i][s] = (uint8_t)t;
			p[i] = t >> 8;
		}
	for (unsigned i = 0; i < k; i++)
		pos[i] = p[i];
}

void app_bwt_walk_state64(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin,
			  unsigned k, size_t steps)
{
	const uint64_t *tt = table;
	uint64_t p[APP_K_MAX];
	uint8_t *o[APP_K_MAX];

	for (unsigned i = 0; i < k; i++) {
		p[i] = pos[i];
		o[i] = out + seg_begin[i];
	}
	for (size_t s = 0; s < steps; s++)
		for (unsigned i = 0; i < k; i++) {
			uint64_t t = tt[p[i]];

			o[i][s] = (uint8_t)t;
			p[i] = t >> 8;
		}
	for (unsigned i = 0; i < k; i++)
		pos[i] = p[i];
}

void app_bwt_walk_tail(const void *table, int wide, uint8_t *out, uint64_t *pos, const size_t *seg_begin,
		       unsigned k, size_t done)
{
	for (unsigned i = 0; i < k; i++)
		for (size_t s = seg_begin[i] + done; s < seg_begin[i + 1]; s++) {
			uint64_t t = wide ? ((const uint64_t *)table)[pos[i]] : ((const uint32_t *)table)[pos[i]];

			out[s] = (uint8_t)t;
			pos[i] = t >> 8;
		}
}
