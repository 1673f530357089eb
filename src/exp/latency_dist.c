/*
 * Percentiles of the chase's per-region times at chosen sizes. A level is
 * represented by the middle point of its plateau: its ends sit next to a
 * knee, where a region's time also depends on what the last region left in
 * the cache. The largest size is added because it is the DRAM figure users
 * compare. Nothing new is timed: the sweep's trials are the regions.
 */
#include "exp/latency_dist.h"

static unsigned add(const struct latency_result *r, struct latency_dist *out, unsigned n, unsigned cap,
		    unsigned point, unsigned level)
{
	const struct latency_point *p = &r->points[point];

	for (unsigned i = 0; i < n; i++)
		if (out[i].point == point)
			return n;
	if (n >= cap)
		return n;
	out[n] = (struct latency_dist){.point = point, .size_bytes = p->size_bytes, .level = level,
				       .min_ns = p->chase_ns};
	stats_percentiles(p->chase_trials_ns, p->ntrials, &out[n].pct);
	return n + 1;
}

unsigned latency_dist_select(const struct latency_result *r, struct latency_dist *out, unsigned cap)
{
	unsigned n = 0;

	if (!r->ncurve)
		return 0;
	for (unsigned l = 0; l < r->nlevels; l++) {
		unsigned lo = r->ncurve, hi = 0;

		for (unsigned i = 0; i < r->ncurve; i++)
			if (r->points[i].size_bytes >= r->levels[l].first_bytes &&
			    r->points[i].size_bytes <= r->levels[l].size_bytes) {
				lo = i < lo ? i : lo;
				hi = i;
			}
		if (lo < r->ncurve)
			n = add(r, out, n, cap, (lo + hi) / 2, r->levels[l].level);
	}
	/* Levels are ascending and the largest size comes last, so the list
	 * stays in size order. */
	return add(r, out, n, cap, r->ncurve - 1, 0);
}
