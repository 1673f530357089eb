/*
 * latency's working sets: which sizes one sweep times. One function, called
 * by the sweep itself (exp/latency.c) and by the planner that prices it
 * (the latency section's budget hook), so the price counts the points that
 * are measured. Pure: no memory touched, no clock read.
 */
#ifndef MLPSCOPE_EXP_LATENCY_SIZES_H
#define MLPSCOPE_EXP_LATENCY_SIZES_H

#include <stdbool.h>
#include <stddef.h>

#define LATENCY_MIN_BYTES_DEFAULT ((size_t)4 << 10)
#define LATENCY_DENSE_MAX_BYTES_DEFAULT ((size_t)128 << 20)

/* What decides the sizes; 0 in a field: its default. */
struct latency_ladder {
	size_t min_bytes;             /* 0: LATENCY_MIN_BYTES_DEFAULT */
	size_t max_bytes;             /* always a point */
	size_t line_bytes;            /* every size a multiple of it */
	size_t dense_max_bytes;       /* 0: 4x the largest cache, else LATENCY_DENSE_MAX_BYTES_DEFAULT */
	unsigned points_per_octave;   /* 0: 4 */
	bool near_caches;             /* five more points from 3/4 to 3/2 of each cache */
	const size_t *cache_bytes;    /* the reported caches, ncaches at most, a 0 ends them */
	unsigned ncaches;
};

/* The largest of the first n sizes (a 0 ends them early); 0 when none. */
size_t latency_largest_cache(const size_t *cache_bytes, unsigned n);

/* The sweep's working sets, ascending: points_per_octave up to the dense
 * limit, one per octave above it, max_bytes always, and the points near the
 * caches; a point within 4% of the one below it is dropped. Writes at most
 * cap sizes to out, returns how many. */
unsigned latency_plan_sizes(const struct latency_ladder *l, size_t *out, unsigned cap);

#endif
