/*
 * `app bzip2`'s chase reference: the lanes experiment at the footprint of
 * the decoder's table (bzip2's T-vector, one 4-byte word per row of the
 * largest block the streams' headers allow), its t(1)/t(K) beside the
 * walk's own speedup s, R(K) = s / S_chase, and whether that table is
 * cache-resident: by the chase's t(1) there against the same run's latency
 * curve at its largest set (measured), else by the caches the OS reports
 * (a claim, and named as one). A 900 kB block's table is 3.6 MB: inside an L3
 * share here, so R compares the walk with a chase in cache, not in memory.
 */
#include "exp/app/bzip2.h"

#include "exp/latency_curve.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The chase's t(1)/t(K) at K, NaN when the sweep did not reach it. */
static double chase_speedup_at(const struct app_chase *c, unsigned k)
{
	for (unsigned i = 0; i < c->npoints; i++)
		if (c->k[i] == k)
			return c->speedup[i];
	return NAN;
}

/* The measured verdict: the chase's own t(1) at the table's footprint
 * against the latency curve's at its largest set (memory, when that set is
 * at least 4x the table). A cache hit costs a third or less of a memory
 * access on the CPUs met so far, a table past the caches about a memory
 * access, so half of the memory latency divides the two. The curve's
 * detected levels are not used: on a guest that shows no L3 plateau the
 * last "level" starts inside the L3 and would call a cached table memory. */
static bool residency_from_curve(const struct latency_curve *lat, struct app_bzip2_result *r)
{
	const struct latency_curve_point *far;

	if (!lat || !lat->ncurve || !r->chase.ran || !(r->chase.latency_ns > 0))
		return false;
	far = &lat->points[lat->ncurve - 1];
	if (!(far->chase_ns > 0) || far->size_bytes / 4 < r->table_bytes)
		return false;
	r->resident_from = "latency curve";
	r->resident = r->chase.latency_ns < far->chase_ns / 2;
	snprintf(r->resident_where, sizeof(r->resident_where), "chase t(1) %.1f ns at the table against %.1f ns at %zu bytes",
		 r->chase.latency_ns, far->chase_ns, far->size_bytes);
	return true;
}

/* By the cache sizes: the OS's ("reported"), or the latency curve's levels
 * where the OS reports none or the curve disproves it ("measured"). */
static void residency_from_caches(const struct app_bzip2_cache_facts *c, size_t bytes, struct app_bzip2_result *r)
{
	bool curve = c->sizes_from && !strcmp(c->sizes_from, "latency curve");
	const char *how = curve ? "measured" : "reported";

	r->resident_from = curve ? "latency curve's levels" : "reported caches";
	if (!c->largest_cache_bytes) {
		r->resident_from = "unknown";
		snprintf(r->resident_where, sizeof(r->resident_where), "no cache sizes reported");
	} else if (c->l2_bytes && bytes <= c->l2_bytes) {
		r->resident = true;
		snprintf(r->resident_where, sizeof(r->resident_where), "within the %s L2 (%zu bytes)", how, c->l2_bytes);
	} else if (bytes <= c->largest_cache_bytes) {
		r->resident = true;
		snprintf(r->resident_where, sizeof(r->resident_where), "within the largest %s cache (%zu bytes)", how,
			 c->largest_cache_bytes);
	} else {
		snprintf(r->resident_where, sizeof(r->resident_where), "past the largest %s cache (%zu bytes)", how,
			 c->largest_cache_bytes);
	}
}

void app_bzip2_residency(const struct app_bzip2_cache_facts *c, struct app_bzip2_result *r)
{
	r->resident = false;
	r->resident_where[0] = 0;
	if (!residency_from_curve(c->latency, r))
		residency_from_caches(c, r->table_bytes, r);
}

void app_bzip2_chase_ratios(struct app_bzip2_result *r)
{
	for (unsigned i = 0; i < r->nvariants; i++) {
		struct app_bzip2_variant *v = &r->variants[i];

		v->chase_speedup = r->chase.ran ? chase_speedup_at(&r->chase, v->k) : NAN;
		v->walk_ratio = v->walk_speedup > 0 ? v->walk_speedup / v->chase_speedup : NAN;
	}
}

int app_bzip2_chase(const struct app_params *ap, const struct app_chase *reuse, const struct app_bzip2_cache_facts *c,
		    struct app_bzip2_result *r, char *err, size_t errlen)
{
	int rc = 0;

	memset(&r->chase, 0, sizeof(r->chase));
	r->chase_reused = false;
	/* The full report's bwt kernel already chased a 900,001-word table at
	 * the same page request: the same reference (within a line of the
	 * rounding), not measured twice. */
	if (reuse && reuse->ran && reuse->layout_ok && r->table_bytes &&
	    (reuse->working_set_bytes > r->table_bytes ? reuse->working_set_bytes - r->table_bytes
						       : r->table_bytes - reuse->working_set_bytes) <= 256 &&
	    reuse->pages_requested && !strcmp(reuse->pages_requested, arena_request_name(ap->pages))) {
		r->chase = *reuse;
		r->chase_reused = true;
	} else if (ap->chase && r->table_bytes) {
		rc = app_chase_run(ap, r->table_bytes, &r->chase);
		if (rc == -EPROTO || (!rc && !r->chase.layout_ok)) {
			snprintf(err, errlen, "the chase reference's layout check failed at %zu bytes", r->table_bytes);
			return -EPROTO;
		}
	}
	app_bzip2_residency(c, r);
	app_bzip2_chase_ratios(r);
	return rc;
}
