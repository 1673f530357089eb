/*
 * The distribution behind the latency minima: for a few chosen sizes (the
 * middle of each detected level's plateau, and the largest size) the
 * percentiles of the chase's per-region times, so a noisy run shows as a
 * wide spread above its minimum. Pure: reads a finished latency_result and
 * times nothing; with the default 6 trials p99 is in effect the maximum.
 */
#ifndef MLPSCOPE_EXP_LATENCY_DIST_H
#define MLPSCOPE_EXP_LATENCY_DIST_H

#include "exp/latency.h"
#include "core/stats.h"

/* One per level, plus the largest size. */
#define LATENCY_DIST_MAX (LATENCY_LEVELS_MAX + 1)

struct latency_dist {
	unsigned point;              /* index into r->points (the huge-page curve) */
	size_t size_bytes;
	unsigned level;              /* 1-based level whose plateau it is in; 0: the largest size alone */
	struct stats_pcts pct;       /* of chase_trials_ns, ns per load */
	double min_ns;               /* the point's chase_ns, for the spread above it */
};

/* Choose the sizes and take their percentiles, ascending size, no size
 * twice. Returns how many (at most cap); 0 for an empty curve. */
unsigned latency_dist_select(const struct latency_result *r, struct latency_dist *out, unsigned cap);

#endif
