/*
 * latency_curve_of: the copy of a latency result other sections read
 * (exp/latency_curve.h). The one place that knows both shapes.
 */
#include "exp/latency_curve.h"

#include "core/stats.h"
#include "exp/latency.h"

#include <math.h>
#include <string.h>

_Static_assert(LATENCY_CURVE_POINTS_MAX >= LATENCY_POINTS_MAX, "a curve holds every latency point");
_Static_assert(LATENCY_CURVE_LEVELS_MAX >= LATENCY_LEVELS_MAX, "a curve holds every level and reference");

static struct latency_curve_point point_of(const struct latency_point *p)
{
	return (struct latency_curve_point){
		.size_bytes = p->size_bytes, .huge = p->pages == PAGES_HUGE, .huge_fraction = p->huge_fraction,
		.chase_ns = p->chase_ns, .ntrials = p->ntrials,
		.trials_min_ns = p->ntrials ? stats_min(p->chase_trials_ns, p->ntrials) : NAN,
		.trials_max_ns = p->ntrials ? stats_max(p->chase_trials_ns, p->ntrials) : NAN,
		.steady_checked = p->steady_checked, .steady_ok = p->steady_ok, .steady_long_ns = p->steady_long_ns,
	};
}

const struct latency_curve *latency_curve_of(const struct latency_result *r, struct latency_curve *out)
{
	if (!r)
		return NULL;
	memset(out, 0, sizeof(*out));
	out->npoints = r->npoints;
	out->ncurve = r->ncurve;
	for (unsigned i = 0; i < r->npoints; i++)
		out->points[i] = point_of(&r->points[i]);
	out->nlevels = r->nlevels;
	for (unsigned k = 0; k < r->nlevels; k++) {
		const struct latency_level *l = &r->levels[k];

		out->levels[k] = (struct latency_curve_level){
			.first_bytes = l->first_bytes, .size_bytes = l->size_bytes, .cache_level = l->cache_level,
			.reaches_max = l->reaches_max, .disagrees = l->disagrees, .tlb = l->tlb,
		};
	}
	out->nrefs = r->nrefs;
	for (unsigned k = 0; k < r->nrefs; k++)
		out->refs[k] = (struct latency_curve_reference){
			.point = r->refs[k].point, .size_bytes = r->refs[k].size_bytes, .curve_ns = r->refs[k].curve_ns,
			.warm_ns = r->refs[k].warm_ns,
		};
	out->tolerance_pct = r->tolerance_pct;
	return out;
}
