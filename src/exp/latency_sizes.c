/*
 * latency's working sets (latency_sizes.h): a geometric ladder of sizes,
 * thinned past the dense limit, with a closer look around each cache size
 * the OS reports. Holds no timing and no analysis; the sweep that walks
 * these sizes is exp/latency.c.
 */
#include "exp/latency_sizes.h"

#include <math.h>
#include <stdlib.h>

/* The ladder's rungs before the 4% thinning, at most. */
#define LADDER_MAX 256

static size_t round_to(size_t v, size_t to)
{
	return (v + to / 2) / to * to;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

size_t latency_largest_cache(const size_t *cache_bytes, unsigned n)
{
	size_t m = 0;

	for (unsigned i = 0; i < n && cache_bytes[i]; i++)
		if (cache_bytes[i] > m)
			m = cache_bytes[i];
	return m;
}

unsigned latency_plan_sizes(const struct latency_ladder *l, size_t *out, unsigned cap)
{
	static const double near[] = {0.75, 0.875, 1.125, 1.25, 1.5};
	size_t largest = latency_largest_cache(l->cache_bytes, l->ncaches), max = l->max_bytes, line = l->line_bytes;
	size_t min = l->min_bytes ? l->min_bytes : LATENCY_MIN_BYTES_DEFAULT;
	size_t dense_max = l->dense_max_bytes ? l->dense_max_bytes
			   : largest ? 4 * largest : LATENCY_DENSE_MAX_BYTES_DEFAULT;
	unsigned ppo = l->points_per_octave ? l->points_per_octave : 4, n = 0, m = 0;
	size_t tmp[2 * LADDER_MAX];

	for (unsigned k = 0; n < LADDER_MAX; k++) {
		double s = (double)min * pow(2.0, (double)k / ppo);

		if (s > (double)max * 1.001)
			break;
		if (s > (double)dense_max * 1.001 && k % ppo)
			continue;
		tmp[n++] = round_to((size_t)s, line);
	}
	tmp[n++] = max;
	for (unsigned i = 0; l->near_caches && i < l->ncaches && l->cache_bytes[i]; i++)
		for (unsigned j = 0; j < sizeof(near) / sizeof(near[0]); j++) {
			double s = (double)l->cache_bytes[i] * near[j];

			if (s >= (double)min && s <= (double)max && n < sizeof(tmp) / sizeof(tmp[0]))
				tmp[n++] = round_to((size_t)s, line);
		}
	qsort(tmp, n, sizeof(tmp[0]), cmp_size);
	/* Points closer than 4% add a chain to build and nothing to see. */
	for (unsigned i = 0; i < n && m < cap; i++)
		if (tmp[i] >= 2 * line && (m == 0 || (double)tmp[i] > (double)out[m - 1] * 1.04))
			out[m++] = tmp[i];
	if (m && out[m - 1] != max) {
		if (m == cap || (double)out[m - 1] * 1.04 >= (double)max)
			m--;
		out[m++] = max;
	}
	return m;
}
