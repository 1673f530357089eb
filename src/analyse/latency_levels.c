/*
 * What the latency curve says: its levels (plateaus of the chase curve, each
 * set against the OS-reported caches), the knees between them and at the
 * TLB's reaches, the falls where it must rise, each point's minima and
 * steady-state verdict, and the figures at the largest size. Pure: every
 * figure comes from the timings in the result and the tolerance (the run's
 * noise floor, at least LATENCY_LEVEL_MIN_STEP_PCT); nothing here maps
 * memory or times anything (exp/latency.c measures, and calls
 * latency_derive through its parameters mid-run, to pick each level's warm
 * reference and the points above a fall to time again).
 */
#include "analyse/latency_levels.h"

#include "core/stats.h"
#include "exp/curve_falls.h"

#include <math.h>
#include <string.h>

bool latency_steady_agrees(double short_ns, double long_ns, double tol_pct)
{
	double tol = (isfinite(tol_pct) && tol_pct > 0 ? tol_pct : 0.0) / 100.0;

	/* One-sided: a cold start (lines or page-walk state evicted) only ever
	 * makes the blocks slower; a long region read slower is the weaker
	 * estimator (the minimum of fewer visits) and says nothing about it. */
	return isfinite(short_ns) && isfinite(long_ns) && long_ns > 0 && short_ns / long_ns - 1.0 <= tol;
}

const struct latency_point *latency_next_unsteady(const struct latency_result *r, unsigned *from)
{
	while (*from < r->npoints) {
		const struct latency_point *p = &r->points[(*from)++];

		if (p->steady_checked && !p->steady_ok)
			return p;
	}
	return NULL;
}

bool latency_on_a_rise(const struct latency_result *r, const struct latency_point *p)
{
	size_t size_bytes = p->size_bytes;

	if (p->pages != PAGES_HUGE || !r->nlevels || size_bytes < r->levels[0].first_bytes)
		return false;
	for (unsigned k = 0; k < r->nlevels; k++)
		if (size_bytes >= r->levels[k].first_bytes &&
		    (size_bytes <= r->levels[k].size_bytes || r->levels[k].reaches_max))
			return false;
	return true;
}

static double median_of(const double *v, size_t n)
{
	return n ? stats_median(v, n) : NAN;
}

/* A level's capacity: where, past its last plateau point, the latency
 * first reaches the geometric mean of its own and the next level's, read
 * between the two points around it on log-log axes. The plateau's end
 * undercounts a level whose edge is soft (replacement, a shared cache);
 * the half-way point of the rise is where half the working set misses. */
static void level_capacities(const double *sizes, const double *ns, size_t n, struct latency_level *l,
			     unsigned nlevels)
{
	for (unsigned i = 0; i + 1 < nlevels; i++) {
		double target = sqrt(l[i].latency_ns * l[i + 1].latency_ns);
		size_t j = 0;

		l[i].capacity_bytes = 0;
		while (j < n && sizes[j] <= (double)l[i].size_bytes)
			j++;
		while (j < n && ns[j] < target)
			j++;
		if (j == 0 || j == n || ns[j] <= ns[j - 1])
			continue;
		double f = (log(target) - log(ns[j - 1])) / (log(ns[j]) - log(ns[j - 1]));

		f = f < 0 ? 0 : f;
		l[i].capacity_bytes = (size_t)(sizes[j - 1] * pow(sizes[j] / sizes[j - 1], f));
	}
	if (nlevels)
		l[nlevels - 1].capacity_bytes = 0;
}

/* The TLB's cumulative extra per load at working set s: every measured
 * step whose reach s exceeds. */
static double tlb_extra_at(double s, const size_t *reach, const double *extra, unsigned ntlb)
{
	double e = 0;

	for (unsigned k = 0; k < ntlb; k++)
		if (s > (double)reach[k] && extra[k] > e)
			e = extra[k];
	return e;
}

unsigned latency_detect_levels_tlb(const double *sizes, const double *ns, size_t n, double tol_pct,
				   const size_t *tlb_reach, const double *tlb_extra, unsigned ntlb,
				   struct latency_level *out, unsigned cap)
{
	double tol = tol_pct / 100.0;
	size_t first = 0, lo[LATENCY_POINTS_MAX], hi[LATENCY_POINTS_MAX], level_lo[LATENCY_LEVELS_MAX + 1];
	unsigned nraw = 0, nlevels = 0;

	/* Raw plateaus [lo, hi): a level holds its latency over a range of
	 * sizes, so points that agree over less than LATENCY_LEVEL_MIN_SPAN (or
	 * a lone point) are the knee between two levels, a working set partly
	 * in each; a lone last point is where the curve ended, still a level. */
	for (size_t i = 1; i <= n && n; i++) {
		bool joins = i < n && ns[i] <= ns[i - 1] * (1.0 + tol) && ns[i] <= ns[first] * (1.0 + 2.0 * tol);
		bool wide = i - first >= 2 && sizes[i - 1] >= sizes[first] * LATENCY_LEVEL_MIN_SPAN;

		if (joins)
			continue;
		if ((wide || i == n) && nraw < LATENCY_POINTS_MAX) {
			lo[nraw] = first;
			hi[nraw++] = i;
		}
		first = i;
	}
	/* A gradual rise (a shared last-level cache, replacement) cuts into
	 * many short plateaus; levels of a hierarchy differ by 2x or more, so
	 * a plateau under LATENCY_LEVEL_MIN_RATIO of the level it follows is
	 * part of that level. */
	for (unsigned j = 0; j < nraw; j++) {
		struct latency_level *l;

		if (nlevels && ns[lo[j]] < out[nlevels - 1].latency_ns * LATENCY_LEVEL_MIN_RATIO) {
			l = &out[nlevels - 1];
			l->npoints += (unsigned)(hi[j] - lo[j]);
			l->reaches_max = hi[j] == n;
			continue;
		}
		if (nlevels == cap)
			break;
		l = &out[nlevels];
		level_lo[nlevels++] = lo[j];
		memset(l, 0, sizeof(*l));
		l->level = nlevels;
		l->first_bytes = (size_t)sizes[lo[j]];
		/* The first plateau's median: the level's own latency, before
		 * the rise that merged into it. */
		l->latency_ns = median_of(ns + lo[j], hi[j] - lo[j]);
		l->npoints = (unsigned)(hi[j] - lo[j]);
		l->reaches_max = hi[j] == n;
	}
	/* A level ends where its latency leaves the plateau for good: the last
	 * size, before the next level starts, within the tolerance of the
	 * level's latency plus what the TLB adds past each reach it measured
	 * (a TLB step inside a cache is not the cache's end). */
	level_lo[nlevels] = n;
	for (unsigned k = 0; k < nlevels; k++) {
		size_t end = level_lo[k];

		for (size_t i = level_lo[k]; i < level_lo[k + 1]; i++)
			if (ns[i] <= (out[k].latency_ns + tlb_extra_at(sizes[i], tlb_reach, tlb_extra, ntlb)) * (1.0 + tol))
				end = i;
		out[k].size_bytes = (size_t)sizes[end];
		if (!out[k].reaches_max || k + 1 < nlevels)
			out[k].reaches_max = false;
	}
	if (nlevels && out[nlevels - 1].reaches_max)
		out[nlevels - 1].size_bytes = (size_t)sizes[n - 1];
	level_capacities(sizes, ns, n, out, nlevels);
	return nlevels;
}

unsigned latency_detect_levels(const double *sizes, const double *ns, size_t n, double tol_pct,
			       struct latency_level *out, unsigned cap)
{
	return latency_detect_levels_tlb(sizes, ns, n, tol_pct, NULL, NULL, 0, out, cap);
}

/* The latency at the largest size at or under s (the first point if none). */
static double ns_at(const double *sizes, const double *ns, size_t n, double s)
{
	size_t i = 0;

	while (i + 1 < n && sizes[i + 1] <= s)
		i++;
	return ns[i];
}

unsigned latency_match_reported(struct latency_level *levels, unsigned nlevels, const size_t *reported,
				const double *sizes, const double *ns, size_t n, double tol_pct,
				const size_t *tlb_reach, const double *tlb_extra, unsigned ntlb,
				struct latency_missing *missing, unsigned cap)
{
	bool used[LATENCY_CACHES_MAX] = {false};
	unsigned nrep = 0, nmissing = 0, rank = 0;
	double tol = tol_pct / 100.0;

	while (nrep < LATENCY_CACHES_MAX && reported[nrep])
		nrep++;
	for (unsigned k = 0; k < nlevels; k++) {
		struct latency_level *l = &levels[k];

		l->reported_bytes = 0;
		l->cache_level = 0;
		l->disagrees = false;
		l->tlb = false;
		/* A step that starts at a TLB reach and costs no more than the
		 * TLB adds there is translation, not a cache. */
		for (unsigned t = 0; k > 0 && t < ntlb; t++) {
			double r = (double)l->first_bytes / (double)tlb_reach[t];

			if (r >= 1.0 / 1.5 && r <= 2.0 &&
			    l->latency_ns <= (levels[k - 1].latency_ns + tlb_extra[t]) * (1.0 + tol))
				l->tlb = true;
		}
	}
	/* By size first: the closest reported size within 2x of a level's end. */
	for (unsigned k = 0; k < nlevels; k++) {
		struct latency_level *l = &levels[k];
		double best = INFINITY;
		int pick = -1;

		if (l->reaches_max || l->tlb)
			continue;
		for (unsigned c = 0; c < nrep; c++) {
			double d = fabs(log((double)l->size_bytes / (double)reported[c]));

			if (!used[c] && d <= log(2.0) && d < best) {
				best = d;
				pick = (int)c;
			}
		}
		if (pick >= 0) {
			used[pick] = true;
			l->reported_bytes = reported[pick];
			l->cache_level = (unsigned)pick + 1;
		}
	}
	/* A cache level left over is set against the reported cache of its
	 * rank, and disagrees. */
	for (unsigned k = 0; k < nlevels; k++) {
		struct latency_level *l = &levels[k];

		if (l->tlb)
			continue;
		if (!l->reaches_max && !l->reported_bytes && rank < nrep && !used[rank]) {
			used[rank] = true;
			l->reported_bytes = reported[rank];
			l->cache_level = rank + 1;
			l->disagrees = true;
		}
		rank++;
	}
	/* A reported cache left over has no plateau of its own: name the
	 * levels around it. */
	for (unsigned c = 0; c < nrep; c++) {
		struct latency_missing *m;
		int before = -1, after = -1;

		if (used[c])
			continue;
		for (unsigned k = 0; k < nlevels; k++)
			if (!levels[k].tlb && levels[k].size_bytes < reported[c] && !levels[k].reaches_max)
				before = (int)k;
		after = before + 1 < (int)nlevels ? before + 1 : -1;
		if (nmissing == cap)
			break;
		m = &missing[nmissing++];
		memset(m, 0, sizeof(*m));
		m->reported_bytes = reported[c];
		m->cache_index = c;
		if (before >= 0) {
			m->after_bytes = levels[before].size_bytes;
			m->after_ns = ns_at(sizes, ns, n, (double)m->after_bytes);
		}
		if (after >= 0) {
			m->before_bytes = levels[after].first_bytes;
			m->before_ns = ns_at(sizes, ns, n, (double)m->before_bytes);
		}
	}
	return nmissing;
}

unsigned latency_tlb_knees(const double *sizes, const double *ns, size_t n, double tol_pct,
			   const size_t *tlb_reach, const double *tlb_extra, unsigned ntlb, struct latency_knee *out,
			   unsigned cap)
{
	unsigned m = 0;

	for (unsigned t = 0; t < ntlb && m < cap; t++) {
		size_t a = 0, b = n;

		for (size_t i = 0; i < n; i++) {
			if (sizes[i] <= (double)tlb_reach[t])
				a = i;
			if (b == n && sizes[i] >= 2.0 * (double)tlb_reach[t])
				b = i;
		}
		if (b == n || sizes[a] > (double)tlb_reach[t] || ns[b] <= ns[a] * (1.0 + tol_pct / 100.0))
			continue;
		/* The TLB explains the knee when the rise is no more than its
		 * step (over the step before) adds, within the tolerance. */
		double step = tlb_extra[t] - (t ? tlb_extra[t - 1] : 0.0);

		out[m++] = (struct latency_knee){
			.from_bytes = (size_t)sizes[a], .to_bytes = (size_t)sizes[b], .from_ns = ns[a], .to_ns = ns[b],
			.tlb = ns[b] <= (ns[a] + step) * (1.0 + tol_pct / 100.0), .tlb_reach_bytes = tlb_reach[t],
			.tlb_step_ns = step,
		};
	}
	return m;
}

/* The largest of the per-block minima of v (n regions, per to a block):
 * the allocation's worst moment. */
static double worst_block_min(const double *v, unsigned n, unsigned per)
{
	double worst = -INFINITY;

	for (unsigned at = 0; at < n; at += per)
		worst = fmax(worst, stats_min(v + at, at + per <= n ? per : n - at));
	return worst;
}

bool latency_placement_judge(const double *a, const double *b, unsigned n, unsigned per, double tol_pct,
			     double *min_ns, double *spread_pct)
{
	double tol = (isfinite(tol_pct) && tol_pct > 0 ? tol_pct : 0.0) / 100.0;
	const double *fast;

	min_ns[0] = n ? stats_min(a, n) : NAN;
	min_ns[1] = n ? stats_min(b, n) : NAN;
	*spread_pct = n && fmin(min_ns[0], min_ns[1]) > 0
			      ? 100.0 * (fmax(min_ns[0], min_ns[1]) / fmin(min_ns[0], min_ns[1]) - 1.0) : NAN;
	if (!isfinite(*spread_pct))
		return false;
	/* Either way round: either allocation may hold the pages the cache
	 * favours. At a shared cache's edge the host's moment alone moves a set
	 * by 4x within a second, so one block each proves nothing:
	 * the slower allocation's best must stay beyond the tolerance above
	 * the faster one's worst block, every block of one apart from every
	 * block of the other. */
	fast = min_ns[0] <= min_ns[1] ? a : b;
	return fmax(min_ns[0], min_ns[1]) > worst_block_min(fast, n, per ? per : n) * (1.0 + tol);
}

static void fill_point(struct latency_point *pt, const struct latency_params *p, double huge_fraction,
		       double tol_pct)
{
	pt->sweep_chase_ns = stats_min(pt->chase_trials_ns, pt->ntrials);
	pt->chase_ns = pt->nretime ? fmin(pt->sweep_chase_ns, stats_min(pt->retime_trials_ns, pt->nretime))
				   : pt->sweep_chase_ns;
	pt->alloc_ns[0] = pt->alloc_ns[1] = pt->placement_spread_pct = NAN;
	pt->placement_sensitive = false;
	/* Both allocations are warm timings of the same set: the figure is the
	 * minimum over them, the spread says how much the pages decided. */
	if (pt->nalloc_trials) {
		pt->placement_sensitive = latency_placement_judge(pt->alloc_trials_ns[0], pt->alloc_trials_ns[1],
								  pt->nalloc_trials, pt->nalloc_trials / LATENCY_PLACEMENT_BLOCKS,
								  tol_pct, pt->alloc_ns, &pt->placement_spread_pct);
		pt->chase_ns = fmin(pt->chase_ns, fmin(pt->alloc_ns[0], pt->alloc_ns[1]));
	}
	pt->stream_ns = stats_min(pt->stream_trials_ns, pt->ntrials);
	pt->prefetch_ratio = pt->chase_ns / pt->stream_ns;
	pt->huge_fraction = huge_fraction;
	pt->layout_ok = pt->chase_layout.ok && pt->stream_layout.ok;
	/* ns * MHz / 1000 = cycles; the clock's range gives the cycles' range,
	 * and a clock that moved between its samples gives none. */
	pt->chase_cycles_min = p->core_mhz_min > 0 && !p->core_clock_unsteady ? pt->chase_ns * p->core_mhz_min / 1000.0 : NAN;
	pt->chase_cycles_max = p->core_mhz_max > 0 && !p->core_clock_unsteady ? pt->chase_ns * p->core_mhz_max / 1000.0 : NAN;
}

void latency_derive(struct latency_result *r, const struct latency_params *p)
{
	double sizes[LATENCY_POINTS_MAX], ns[LATENCY_POINTS_MAX];
	double huge_frac = r->arena_huge_bytes ? (double)r->arena_huge_obtained_bytes / (double)r->arena_huge_bytes : 0;
	double small_frac = r->arena_small_bytes ? (double)r->arena_small_obtained_bytes / (double)r->arena_small_bytes : 0;
	const struct latency_point *top;

	r->steady_checked = r->steady_failed = r->placement_sensitive = 0;
	r->tolerance_pct = fmax(isfinite(r->noise_floor_pct) ? r->noise_floor_pct : 0.0, LATENCY_LEVEL_MIN_STEP_PCT);
	for (unsigned i = 0; i < r->npoints; i++) {
		struct latency_point *pt = &r->points[i];

		fill_point(pt, p, pt->pages == PAGES_HUGE ? huge_frac : small_frac, r->tolerance_pct);
		r->placement_sensitive += pt->placement_sensitive;
		pt->steady_ok = true;
		pt->steady_diff_pct = NAN;
		if (!pt->steady_checked) {
			pt->steady_long_ns = NAN;
			continue;
		}
		pt->steady_diff_pct = 100.0 * (pt->chase_ns / pt->steady_long_ns - 1.0);
		pt->steady_ok = latency_steady_agrees(pt->chase_ns, pt->steady_long_ns, r->tolerance_pct);
		r->steady_checked++;
		r->steady_failed += !pt->steady_ok;
	}
	for (unsigned i = 0; i < r->ncurve; i++) {
		sizes[i] = (double)r->points[i].size_bytes;
		ns[i] = r->points[i].chase_ns;
	}
	r->nlevels = latency_detect_levels_tlb(sizes, ns, r->ncurve, r->tolerance_pct, p->tlb_reach_bytes,
					       p->tlb_extra_ns, p->ntlb, r->levels, LATENCY_LEVELS_MAX);
	r->nmissing = latency_match_reported(r->levels, r->nlevels, p->reported_cache_bytes, sizes, ns, r->ncurve,
					     r->tolerance_pct, p->tlb_reach_bytes, p->tlb_extra_ns, p->ntlb,
					     r->missing, LATENCY_CACHES_MAX);
	r->nknees = latency_tlb_knees(sizes, ns, r->ncurve, r->tolerance_pct, p->tlb_reach_bytes, p->tlb_extra_ns,
				      p->ntlb, r->knees, LATENCY_KNEES_MAX);
	/* The knees where a cache level ends, after the TLB's. */
	for (unsigned i = 0; i < r->nlevels && r->nknees < LATENCY_KNEES_MAX; i++) {
		const struct latency_level *l = &r->levels[i];
		unsigned j = 0;

		if (l->reaches_max || l->tlb)
			continue;
		while (j + 1 < r->ncurve && sizes[j] <= (double)l->size_bytes)
			j++;
		r->knees[r->nknees++] = (struct latency_knee){
			.from_bytes = l->size_bytes, .to_bytes = (size_t)sizes[j], .from_ns = ns_at(sizes, ns, r->ncurve,
			(double)l->size_bytes), .to_ns = ns[j],
		};
	}
	/* The rule every swept curve shares: a larger set never reads faster. */
	r->nfalls_found = curve_find_falls(sizes, ns, r->ncurve, r->noise_floor_pct, r->falls, LATENCY_FALLS_MAX);
	r->nfalls = r->nfalls_found < LATENCY_FALLS_MAX ? (unsigned)r->nfalls_found : LATENCY_FALLS_MAX;
	top = &r->points[r->ncurve - 1];
	r->chase_ns_at_max = top->chase_ns;
	r->stream_ns_at_max = top->stream_ns;
	r->prefetch_ratio_at_max = top->prefetch_ratio;
	r->small_chase_ns_at_max = NAN;
	r->translation_ns_at_max = NAN;
	for (unsigned i = r->ncurve; i < r->npoints; i++)
		if (r->points[i].size_bytes == top->size_bytes) {
			r->small_chase_ns_at_max = r->points[i].chase_ns;
			r->translation_ns_at_max = r->points[i].chase_ns - top->chase_ns;
		}
}

/* The seam for recorded and synthetic curves: the same derivation as a run. */
void latency_analyse(struct latency_result *r, const struct latency_params *p)
{
	latency_derive(r, p);
	if (!r->nretimed)
		r->nfalls_sweep = r->nfalls_found;
}
