/*
 * The window experiment. Method, and the pitfalls each part answers:
 * - Both chase lanes walk fresh stretches of one Sattolo cycle in huge
 *   pages far larger than the last-level cache, so every chase load misses
 *   to DRAM and no TLB walk rides along (2 MiB pages).
 * - N is swept coarsely (about 12% apart) until the curve has been past the
 *   serialised level for a few points, then refined around the step to the
 *   filler unit, and around the ramp onset to half the coarse spacing.
 *   Points of a phase are visited round-robin across trials, so warm-up and
 *   clock drift land on all of them alike; each point is the min over trials.
 * - Tolerances come from this run's noise floor (min-of-3 group spreads, as
 *   the mlp experiment does); nothing is tuned to any published size.
 * - Each step is measured again at the end (a structure shared with an
 *   active sibling thread halves), and every structure's figure is checked
 *   against the other fillers bounding it (docs/METHODOLOGY.md).
 */
#include "exp/window.h"
#include "exp/policy.h"

#include "core/arena.h"
#include "core/clock.h"
#include "jit/enc.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COARSE_BLOCK 8      /* coarse points per round-robin block */
#define SERIAL_RATIO 1.5    /* "serialised": well past the flat level, short of 2x */
#define SERIAL_SPAN 4       /* ...for this many coarse points in a row */
#define REFINE_POINTS 16    /* new points per refinement pass */
#define PHASE_MAX 40

void window_params_default(struct window_params *p, size_t largest_cache_bytes,
			   const struct clock_info *clock, volatile sig_atomic_t *stop)
{
	size_t ws = policy_memory_set_bytes(largest_cache_bytes);

	*p = (struct window_params){
		.working_set_bytes = ws, .trials = 15, .iters = 8192, .max_n = 1024,
		.filler_mask = PROBE_FILLERS_DEFAULT, .seed = 7, .run_floor_pct = NAN, .clock = clock, .stop = stop,
	};
}

/* ---- the fit (pure) ---- */

/* The running sums of an ordinary least-squares line t = a + b x, shared by
 * the ramp and the serialised segment. */
struct line_sums {
	double s0, sx, sxx, st, sxt;
};

static void line_sums_add(struct line_sums *q, double x, double t)
{
	q->s0 += 1;
	q->sx += x;
	q->sxx += x * x;
	q->st += t;
	q->sxt += x * t;
}

/* The slope; 0 when the x do not spread (no slope can be told). */
static double line_slope(const struct line_sums *q)
{
	double det = q->s0 * q->sxx - q->sx * q->sx;

	return det > 0 ? (q->s0 * q->sxt - q->sx * q->st) / det : 0;
}

static double line_intercept(const struct line_sums *q, double slope)
{
	return (q->st - slope * q->sx) / q->s0;
}

/* Flat then ramp over points [0, s): t = t0 + m * max(0, n - n[a]).
 * Ordinary least squares in (t0, m); false when the slope comes out
 * negative (a falling "ramp" is the flat model with a worse onset). */
static bool fit_ramp(const unsigned *n, const double *t, size_t a, size_t s, double *t0, double *m,
		     double *sse)
{
	struct line_sums q = {0};

	for (size_t i = 0; i < s; i++)
		line_sums_add(&q, n[i] > n[a] ? (double)(n[i] - n[a]) : 0.0, t[i]);
	*m = line_slope(&q);
	*t0 = line_intercept(&q, *m);
	if (*m < 0)
		return false;
	*sse = 0;
	for (size_t i = 0; i < s; i++) {
		double x = n[i] > n[a] ? (double)(n[i] - n[a]) : 0.0, e = t[i] - (*t0 + *m * x);

		*sse += e * e;
	}
	return true;
}

/* The serialised segment [s, count): a line in n (it rises as the fillers'
 * own issue time grows) when there are enough points to tell a slope from
 * noise, else a constant. Returns its value at n[s]. */
static double fit_serial(const unsigned *n, const double *t, size_t s, size_t count, double *sse)
{
	size_t k = count - s;
	struct line_sums q = {0};
	double a, b;

	for (size_t i = s; i < count; i++)
		line_sums_add(&q, (double)(n[i] - n[s]), t[i]);
	b = k >= 4 ? line_slope(&q) : 0;
	a = line_intercept(&q, b);
	*sse = 0;
	for (size_t i = s; i < count; i++) {
		double e = t[i] - (a + b * (double)(n[i] - n[s]));

		*sse += e * e;
	}
	return a;
}

/* Best (onset, step) with the serialised segment starting at sf (>= 2
 * points each side) or absent (sf == count). Up to WINDOW_FIT_GAP_MAX
 * points just before sf may be set aside as transitional, each at a cost
 * of pen_ns2 and only when it lies strictly between the ramp's top and the
 * serialised level. */
static void fit_search(const unsigned *n, const double *t, size_t count, bool allow_step, double pen_ns2,
		       double rise_min_ns, struct window_fit *fit)
{
	double best = INFINITY;

	for (size_t sf = allow_step ? 2 : count; sf <= count; sf++) {
		double up_sse = 0, serial = NAN;
		size_t gmax = 0;

		if (sf < count) {
			if (count - sf < 2)
				continue;
			serial = fit_serial(n, t, sf, count, &up_sse);
			gmax = WINDOW_FIT_GAP_MAX;
		}
		for (size_t g = 0; g <= gmax && sf >= g + 2; g++) {
			size_t s = sf - g;

			for (size_t a = 0; a < s; a++) {
				double t0, m, sse, top, total;
				bool between = true;

				if (!fit_ramp(n, t, a, s, &t0, &m, &sse))
					continue;
				top = t0 + m * (double)(n[s - 1] - n[a]);
				if (allow_step && top - t0 > rise_min_ns && 8 * (n[s - 1] - n[a]) < n[s - 1])
					continue;
				for (size_t i = s; i < sf; i++)
					between = between && t[i] > top && t[i] < serial;
				total = sse + up_sse + (double)g * pen_ns2;
				if (!between || total >= best)
					continue;
				best = total;
				fit->step_index = sf;
				fit->fits_index = s - 1;
				fit->transition_points = g;
				fit->onset_index = a;
				fit->flat_ns = t0;
				fit->ramp_slope_ns = m;
				fit->ramp_top_ns = top;
				fit->serial_ns = serial;
			}
		}
	}
	fit->rms_rel_residual = sqrt(best / (double)count) / fit->flat_ns;
	fit->jump_ratio = fit->step_index < count ? fit->serial_ns / fit->ramp_top_ns : NAN;
}

double window_jump_needed(double tol_frac)
{
	return 1.0 + fmax(3.0 * tol_frac, 0.05);
}

int window_fit_steps(const unsigned *n, const double *t_ns, size_t count, double tol_frac,
		     struct window_fit *fit)
{
	/* A jump is real when it clears three noise floors (it is read off two
	 * neighbouring points); a ramp is a trend fitted over many points, so one
	 * floor suffices. Never below 5% and 3%: a floor measured as zero on a
	 * lucky run must not turn every wiggle into a step. */
	double jump_min = window_jump_needed(tol_frac), rise_min = fmax(tol_frac, 0.03);

	memset(fit, 0, sizeof(*fit));
	if (!n || !t_ns || count < 3 || !(tol_frac >= 0))
		return -EINVAL;
	double scale = INFINITY, pen;

	for (size_t i = 1; i < count; i++)
		if (n[i] <= n[i - 1])
			return -EINVAL;
	for (size_t i = 0; i < count; i++)
		scale = fmin(scale, t_ns[i]);
	pen = 2 * fmax(tol_frac, 0.025) * scale;
	fit_search(n, t_ns, count, true, pen * pen, rise_min * scale, fit);
	fit->step_found = fit->step_index < count && fit->jump_ratio >= jump_min;
	if (!fit->step_found)
		fit_search(n, t_ns, count, false, pen * pen, rise_min * scale, fit);
	fit->ramp_found = fit->onset_index < fit->fits_index &&
			  fit->ramp_top_ns - fit->flat_ns >= rise_min * fit->flat_ns;
	return 0;
}

/* ---- the sweep ---- */

struct sweep {
	const struct window_params *p;
	struct window_result *r;
	struct chain chain;
	size_t cursor;
	uint64_t iters;
	void *scratch;
	uintptr_t sink;
	struct window_miss_table miss;  /* the missing-load filler's lines, built on its first visit */
	double floor_frac;          /* the floor so far, for decisions mid-run */
	enum window_phase phase;
	uint64_t t0_ns;             /* the sweeps' start (clock_wall_ns) */
};

static double since_start_s(const struct sweep *s)
{
	return (double)(clock_wall_ns() - s->t0_ns) / 1e9;
}

/* One timed region on fresh stretches of the cycle: lane A walks iters
 * nodes from the cursor, lane B the next iters, so the lanes never share a
 * line and no region finds lines a recent one left in the cache. */
static double visit(struct sweep *s, const struct probe *pr)
{
	uintptr_t ptrs[2];
	double ns;

	if (s->p->synthetic_ns)
		return s->p->synthetic_ns(s->p->synthetic_ctx, pr->filler, pr->n, s->phase);
	ptrs[0] = chain_node_at(&s->chain, s->cursor);
	ptrs[1] = chain_node_at(&s->chain, s->cursor + s->iters + 1);
	s->cursor += 2 * s->iters + 2;
	ns = probe_run_ns_per_iter(pr, ptrs, s->iters,
				   pr->filler == PROBE_FILLER_MISS ? (void *)window_miss_table_take(&s->miss, s->iters)
								   : s->scratch,
				   s->p->clock);
	s->sink ^= ptrs[0] ^ ptrs[1];
	return ns;
}

/* The untimed first run of a probe: its code page fetched and its TLB
 * walk taken; an eighth of a region does both (a whole one cost a seventh
 * of the sweep at six trials). */
static void visit_warm(struct sweep *s, const struct probe *pr)
{
	uint64_t iters = s->iters;

	s->iters = iters / 8 > 16 ? iters / 8 : 16;
	visit(s, pr);
	s->iters = iters;
}

static struct window_point *point_find(struct window_filler_result *fr, unsigned n)
{
	for (unsigned i = 0; i < fr->npoints; i++)
		if (fr->points[i].n == n)
			return &fr->points[i];
	return NULL;
}

/* Insert n keeping points ascending; false when full. */
static bool point_add(struct window_filler_result *fr, unsigned n)
{
	unsigned i = 0;

	if (point_find(fr, n))
		return true;
	if (fr->npoints == WINDOW_MAX_POINTS)
		return false;
	while (i < fr->npoints && fr->points[i].n < n)
		i++;
	memmove(&fr->points[i + 1], &fr->points[i], (fr->npoints - i) * sizeof(fr->points[0]));
	memset(&fr->points[i], 0, sizeof(fr->points[i]));
	fr->points[i].n = n;
	fr->npoints++;
	return true;
}

/* The missing-load filler's table over the chase arena (its lines far
 * past the last-level cache, like the chase's), laid out and checked on the
 * filler's first visit, so runs without it pay nothing. */
static int miss_prepare(struct sweep *s)
{
	int rc;

	if (s->p->synthetic_ns || s->miss.entries)
		return 0;
	if ((rc = window_miss_table_build(&s->miss, s->chain.base, s->chain.nodes * s->chain.spacing_bytes, s->p->seed)))
		return rc;
	return window_miss_table_check(&s->miss, &s->r->miss_buffer);
}

/* The largest N a filler is swept to: the missing loads stop where their
 * table's groups end. */
static unsigned max_n_of(const struct sweep *s, enum probe_filler f)
{
	return f == PROBE_FILLER_MISS && s->p->max_n > WINDOW_MISS_N_MAX ? WINDOW_MISS_N_MAX : s->p->max_n;
}

/* Build the probes for ns[0..k), then visit them round-robin for p->trials
 * rounds, appending one trial to each point per round. */
static int measure(struct sweep *s, struct window_filler_result *fr, const unsigned *ns, size_t k)
{
	struct probe pr[PHASE_MAX];
	size_t built = 0;
	int rc = 0;

	if (fr->filler == PROBE_FILLER_MISS && (rc = miss_prepare(s)))
		return rc;
	for (size_t i = 0; i < k; i++)
		if (ns[i] > max_n_of(s, fr->filler) || !point_add(fr, ns[i]))
			k = i;
	for (; built < k; built++) {
		if (s->p->synthetic_ns) {
			memset(&pr[built], 0, sizeof(pr[built]));
			pr[built].filler = fr->filler;
			pr[built].n = ns[built];
		} else if ((rc = probe_build(&pr[built], fr->filler, ns[built]))) {
			goto out;
		}
	}
	if (k == 0)
		goto out;
	/* Untimed, once per probe: each fresh code page's first fetch and TLB
	 * walk belong to no point, and would otherwise widen the first trial's
	 * spread and with it the floor used to find the step. */
	for (size_t i = 0; i < k; i++)
		visit_warm(s, &pr[i]);
	for (unsigned t = 0; t < s->p->trials; t++)
		for (size_t i = 0; i < k; i++) {
			struct window_point *pt = point_find(fr, ns[i]);
			double ns_iter;

			if (*s->p->stop) {
				rc = -EINTR;
				goto out;
			}
			ns_iter = visit(s, &pr[i]);
			if (pt->ntrials < WINDOW_MAX_TRIALS)
				pt->trials_ns[pt->ntrials++] = ns_iter;
			pt->ns_per_iter = stats_min(pt->trials_ns, pt->ntrials);
		}
out:
	while (built)
		probe_free(&pr[--built]);
	return rc;
}

static unsigned coarse_next(unsigned n)
{
	unsigned d = n / 8;

	return n + (d < 4 ? 4 : (d + 3) / 4 * 4);
}

/* A filler's points as the fits take them: filler counts and ns. */
static void points_of(const struct window_filler_result *fr, unsigned *n, double *t)
{
	for (unsigned i = 0; i < fr->npoints; i++) {
		n[i] = fr->points[i].n;
		t[i] = fr->points[i].ns_per_iter;
	}
}

static int fit_points(const struct window_filler_result *fr, double tol, struct window_fit *fit)
{
	unsigned n[WINDOW_MAX_POINTS];
	double t[WINDOW_MAX_POINTS];

	points_of(fr, n, t);
	return window_fit_steps(n, t, fr->npoints, tol, fit);
}

static bool serialised(const struct window_filler_result *fr)
{
	double lo = INFINITY;

	if (fr->npoints < SERIAL_SPAN + 2)
		return false;
	for (unsigned i = 0; i < fr->npoints; i++)
		lo = fmin(lo, fr->points[i].ns_per_iter);
	for (unsigned i = fr->npoints - SERIAL_SPAN; i < fr->npoints; i++)
		if (fr->points[i].ns_per_iter < SERIAL_RATIO * lo)
			return false;
	return true;
}

/* Refine between points lo and hi (values of n) at the given stride, and
 * re-measure the existing neighbours so the new points and the old meet
 * under the same conditions. */
static int refine(struct sweep *s, struct window_filler_result *fr, unsigned lo, unsigned hi,
		  unsigned stride, bool with_neighbours)
{
	unsigned ns[PHASE_MAX];
	size_t k = 0;

	for (unsigned n = lo + stride; n < hi && k < PHASE_MAX - 6; n += stride)
		if (!point_find(fr, n))
			ns[k++] = n;
	if (k == 0)
		return 0;
	if (with_neighbours)
		for (unsigned i = 0; i < fr->npoints && k < PHASE_MAX; i++) {
			unsigned n = fr->points[i].n;

			if ((n == lo || n == hi || (i + 1 < fr->npoints && fr->points[i + 1].n == lo) ||
			     (i > 0 && fr->points[i - 1].n == hi)) && fr->points[i].ntrials + s->p->trials <= WINDOW_MAX_TRIALS)
				ns[k++] = n;
		}
	return measure(s, fr, ns, k);
}

static unsigned round_up(unsigned v, unsigned unit)
{
	return (v + unit - 1) / unit * unit;
}

/* The missing loads' knee from the points so far, then every N between
 * the last flat point and the first past it (re-measuring both), so the
 * bracket on M is two buffers wide; twice, since the finer points can
 * move the knee into a gap of the coarse grid. */
static int refine_knee(struct sweep *s, struct window_filler_result *fr)
{
	unsigned n[WINDOW_MAX_POINTS];
	double t[WINDOW_MAX_POINTS];
	struct window_miss_fit fit;
	int rc;

	for (int pass = 0; pass < 2; pass++) {
		points_of(fr, n, t);
		if (window_miss_fit(n, t, fr->npoints, probe_filler_info(fr->filler)->chase_entries,
				    window_jump_needed(s->floor_frac), &fit) ||
		    !fit.knee_found || fit.n_fails - fit.n_fits <= 1)
			return 0;
		if ((rc = refine(s, fr, fit.n_fits, fit.n_fails, 1, true)))
			return rc;
	}
	return 0;
}

static int sweep_filler(struct sweep *s, struct window_filler_result *fr)
{
	unsigned unit = probe_filler_info(fr->filler)->fillers_per_entry, n = 0, ns[COARSE_BLOCK];
	unsigned max_n = max_n_of(s, fr->filler);
	struct window_fit fit;
	int rc;

	/* Coarse blocks until the curve has stayed serialised for a while or
	 * max_n is reached. */
	while (n <= max_n && !serialised(fr)) {
		size_t k = 0;

		for (; k < COARSE_BLOCK && n <= max_n; n = coarse_next(n))
			ns[k++] = n;
		if ((rc = measure(s, fr, ns, k)))
			return rc;
	}
	if (fr->filler == PROBE_FILLER_MISS)
		return refine_knee(s, fr);
	if ((rc = fit_points(fr, s->floor_frac, &fit)))
		return rc;
	/* Serialised but no step: the coarse grid may have put more transitional
	 * points on the edge than the fit sets aside. Sample the steepest rise
	 * between neighbours finely so a step there can show. */
	if (!fit.step_found && serialised(fr)) {
		unsigned at = 1;

		for (unsigned i = 2; i < fr->npoints; i++)
			if (fr->points[i].ns_per_iter / fr->points[i - 1].ns_per_iter >
			    fr->points[at].ns_per_iter / fr->points[at - 1].ns_per_iter)
				at = i;
		unsigned nlo = fr->points[at >= 2 ? at - 2 : 0].n;
		unsigned nhi = fr->points[at + 1 < fr->npoints ? at + 1 : at].n;

		if ((rc = refine(s, fr, nlo, nhi, round_up((nhi - nlo + REFINE_POINTS - 1) / REFINE_POINTS, unit),
				 true)) ||
		    (rc = fit_points(fr, s->floor_frac, &fit)))
			return rc;
	}
	/* Around the onset: halve the coarse spacing over the neighbours. */
	if (fit.ramp_found) {
		unsigned a = (unsigned)fit.onset_index, lo = a >= 2 ? a - 2 : 0;
		unsigned hi = a + 2 < fr->npoints ? a + 2 : fr->npoints - 1, nlo = fr->points[lo].n;
		unsigned nhi = fr->points[hi].n, stride = round_up((nhi - nlo) / 8 ? (nhi - nlo) / 8 : 1, unit);

		if ((rc = refine(s, fr, nlo, nhi, stride, false)))
			return rc;
	}
	/* Around the step: two passes, the last at the filler unit. */
	for (int pass = 0; pass < 2; pass++) {
		unsigned lo, hi, stride;

		if ((rc = fit_points(fr, s->floor_frac, &fit)) || !fit.step_found)
			return rc;
		lo = fr->points[fit.fits_index].n;
		hi = fr->points[fit.step_index].n;
		if (hi - lo <= unit)
			return 0;
		stride = pass ? unit : round_up((hi - lo + REFINE_POINTS - 1) / REFINE_POINTS, unit);
		if ((rc = refine(s, fr, lo, hi, stride, true)))
			return rc;
	}
	return 0;
}

/* This section's own floor on its own points (stats_floor, the estimator
 * every section shares), as a fraction. */
static double noise_floor_frac(const struct window_result *r)
{
	struct stats_floor fl = {0};

	for (unsigned f = 0; f < r->nfillers; f++)
		for (unsigned i = 0; i < r->fillers[f].npoints; i++) {
			const struct window_point *pt = &r->fillers[f].points[i];

			stats_floor_add(&fl, pt->trials_ns, pt->ntrials, WINDOW_TRIAL_GROUP, false);
		}
	return stats_floor_take_pct(&fl) / 100.0;
}

/* Append to a note, truncating quietly: notes are words for a person. */
__attribute__((format(printf, 3, 4)))
static void note_add(char *note, size_t cap, const char *fmt, ...)
{
	size_t len = strnlen(note, cap);
	va_list ap;

	if (len + 1 >= cap)
		return;
	va_start(ap, fmt);
	vsnprintf(note + len, cap - len, fmt, ap);
	va_end(ap);
}

static double entries_at(const struct probe_filler_info *info, unsigned n)
{
	return (double)((n + info->fillers_per_entry - 1) / info->fillers_per_entry + info->chase_entries);
}

/* The missing-load filler's result from its points: fr->miss, and the step
 * fields set to the knee's bracket and M, so the summary and the writers
 * treat it as every other filler; the note says how the figure was read. */
static void fill_miss(struct window_filler_result *fr, double tol_frac)
{
	unsigned n[WINDOW_MAX_POINTS];
	double t[WINDOW_MAX_POINTS];
	struct window_miss_fit *m = &fr->miss;
	unsigned c = probe_filler_info(fr->filler)->chase_entries;

	points_of(fr, n, t);
	fr->step_found = fr->ramp_found = false;
	if (window_miss_fit(n, t, fr->npoints, c, window_jump_needed(tol_frac), m)) {
		snprintf(fr->note, sizeof(fr->note), "too few points to fit");
		return;
	}
	if (!m->knee_found) {
		snprintf(fr->note, sizeof(fr->note), "no knee up to N=%u (rms residual %.1f%%, floor %.1f%%): %s",
			 fr->npoints ? fr->points[fr->npoints - 1].n : 0, 100 * m->rms_rel_residual, 100 * tol_frac,
			 fr->npoints && 2.0 * fr->points[0].n + c > m->buffers
				 ? "it rises from the first point, so no figure can be read"
				 : "the misses never queued for buffers in the range swept");
		return;
	}
	fr->step_found = true;
	fr->step_n_fits = m->n_fits;
	fr->step_n_fails = m->n_fails;
	fr->capacity = m->buffers;
	fr->capacity_low = m->buffers_low;
	fr->capacity_high = m->buffers_high;
	fr->whole_capacity = fr->capacity;
	fr->whole_capacity_low = fr->capacity_low;
	fr->whole_capacity_high = fr->capacity_high;
	snprintf(fr->note, sizeof(fr->note),
		 "knee: flat at %.1f ns to N=%u, rising from N=%u; t = L max(1, (2N + %u) / M) fits M = %.1f misses in "
		 "flight (%.0f..%.0f), rms residual %.1f%%, floor %.1f%%; the slope past it gives M = %.1f: %s",
		 m->flat_ns, m->n_fits, m->n_fails, c, m->buffers, m->buffers_low, m->buffers_high,
		 100 * m->rms_rel_residual, 100 * tol_frac, m->slope_buffers,
		 m->plausible ? "agrees" : "DISAGREES (another limit shapes the curve; re-timed at the end)");
}

static void fill_filler(struct window_filler_result *fr, double tol, unsigned max_n)
{
	const struct probe_filler_info *info = probe_filler_info(fr->filler);
	struct window_fit *fit = &fr->fit;
	const char *grade;
	int len;

	if (fr->filler == PROBE_FILLER_MISS) {
		fill_miss(fr, tol);
		return;
	}
	if (fr->npoints < 3 || fit_points(fr, tol, fit)) {
		snprintf(fr->note, sizeof(fr->note), "too few points to fit");
		return;
	}
	fr->step_found = fit->step_found;
	fr->ramp_found = fit->ramp_found;
	if (fr->ramp_found)
		fr->ramp_onset_n = fr->points[fit->onset_index].n;
	if (!fr->step_found) {
		double top = fr->points[fr->npoints - 1].ns_per_iter / fr->points[0].ns_per_iter;

		len = snprintf(fr->note, sizeof(fr->note), "no step up to N=%u (last/first %.2fx)",
			       fr->points[fr->npoints - 1].n, top);
		if (fr->filler == PROBE_FILLER_NOP && top < 1.0 + fmax(3 * tol, 0.05))
			snprintf(fr->note + len, sizeof(fr->note) - (size_t)len,
				 "; nops may be dropped before taking window entries on this core");
		else if (fr->ramp_found)
			snprintf(fr->note + len, sizeof(fr->note) - (size_t)len,
				 "; a ramp from N=%u reaches the serialised time with no sharp edge", fr->ramp_onset_n);
		(void)max_n;
		return;
	}
	fr->step_n_fits = fr->points[fit->fits_index].n;
	fr->step_n_fails = fr->points[fit->step_index].n;
	fr->capacity_low = entries_at(info, fr->step_n_fits);
	fr->capacity_high = entries_at(info, fr->step_n_fails) - 1;
	if (fr->capacity_high < fr->capacity_low)
		fr->capacity_high = fr->capacity_low;
	fr->capacity = (fr->capacity_low + fr->capacity_high) / 2;
	grade = fit->jump_ratio >= 1.3 && fit->rms_rel_residual <= fmax(2 * tol, 0.03) ? "clean"
		: fit->jump_ratio >= 1.15 ? "usable" : "weak";
	len = snprintf(fr->note, sizeof(fr->note), "%s step: fits at %u, not at %u (%.2fx jump, rms residual %.1f%%, floor %.1f%%)",
		       grade, fr->step_n_fits, fr->step_n_fails, fit->jump_ratio, 100 * fit->rms_rel_residual,
		       100 * tol);
	if (len > 0 && (size_t)len < sizeof(fr->note)) {
		if (fr->ramp_found)
			len += snprintf(fr->note + len, sizeof(fr->note) - (size_t)len,
					"; ramp from N=%u, +%.0f%% by the step", fr->ramp_onset_n,
					100 * (fit->ramp_top_ns / fit->flat_ns - 1));
		else
			len += snprintf(fr->note + len, sizeof(fr->note) - (size_t)len, "; no ramp above the floor");
	}
	fr->ntransition = (unsigned)fit->transition_points;
	for (unsigned i = 0; i < fr->ntransition; i++)
		fr->transition_n[i] = fr->points[fit->fits_index + 1 + i].n;
	if (fr->ntransition == 1)
		note_add(fr->note, sizeof(fr->note), "; N=%u between the two levels (some iterations overlap, some not)",
			 fr->transition_n[0]);
	else if (fr->ntransition > 1)
		note_add(fr->note, sizeof(fr->note),
			 "; %u points (N=%u..%u) between the two levels (some iterations overlap, some not)",
			 fr->ntransition, fr->transition_n[0], fr->transition_n[fr->ntransition - 1]);
	fr->whole_capacity = fr->capacity;
	fr->whole_capacity_low = fr->capacity_low;
	fr->whole_capacity_high = fr->capacity_high;
}

/* The check that names the structure: a limit that counts stores (loads)
 * moves to about twice N when each is followed by a nop; one that counts
 * instructions does not move. */
static void note_interleave_check(struct window_result *r, enum probe_filler plain, enum probe_filler inter)
{
	struct window_filler_result *a = NULL, *b = NULL;
	size_t len;

	for (unsigned i = 0; i < r->nfillers; i++) {
		if (r->fillers[i].filler == plain)
			a = &r->fillers[i];
		if (r->fillers[i].filler == inter)
			b = &r->fillers[i];
	}
	if (!a || !b || !a->step_found || !b->step_found)
		return;
	double ratio = ((double)b->step_n_fits + b->step_n_fails) / ((double)a->step_n_fits + a->step_n_fails);
	len = strlen(b->note);
	snprintf(b->note + len, sizeof(b->note) - len, "; step at %.2fx the plain %s N: %s", ratio, a->name,
		 ratio >= 1.7 && ratio <= 2.3 ? "the limit counts these accesses, not instructions"
		 : ratio <= 1.25 ? "the limit counts instructions, not these accesses"
		 : "neither 1x nor 2x: the structure is not named by this check");
}

static int resweep(struct sweep *s, struct window_filler_result *fr, struct window_filler_result *scratch);

/* A knee has no two sides a repeat could re-time as a step's: the missing
 * loads' figure is swept afresh only where its own slope contradicted it,
 * and stays marked when the fresh sweep's does too. */
static int repeat_miss(struct sweep *s, struct window_filler_result *fr, struct window_filler_result *scratch)
{
	int rc;

	if (fr->miss.plausible)
		return 0;
	fr->repeat.done = true;
	fr->repeat.fits_ns = fr->repeat.fails_ns = NAN;
	if ((rc = resweep(s, fr, scratch)))
		return rc;
	fr->miss.plausible = scratch->miss.knee_found && scratch->miss.plausible;
	if (!scratch->miss.knee_found)
		note_add(fr->note, sizeof(fr->note), "; MARKED: the fresh sweep found no knee to set against it");
	else
		note_add(fr->note, sizeof(fr->note), fr->miss.plausible ? "; the fresh sweep's slope agrees (M = %.1f)"
				 : "; MARKED: the fresh sweep's slope disagrees too (M = %.1f by the knee): not the miss "
				   "buffers' size alone", scratch->miss.buffers);
	return 0;
}

/* The repeat at the end: two points per stepping filler, one well inside
 * the overlap (0.9 x the N that fit) and one well past the step (1.1 x the
 * N that failed). A structure that halved since, because the other hardware
 * thread of this physical core became active and the core split it, fails
 * at the first; one that was halved during the sweep and is whole again
 * overlaps at the second. Either way the filler is swept afresh into
 * scratch and that step is kept beside the first. */
static int repeat_filler(struct sweep *s, struct window_filler_result *fr, struct window_filler_result *scratch)
{
	unsigned unit = probe_filler_info(fr->filler)->fillers_per_entry, ns[2];
	double mid;
	int rc;

	if (!fr->step_found)
		return 0;
	fr->repeat.begin_s = since_start_s(s);
	if (fr->filler == PROBE_FILLER_MISS)
		return repeat_miss(s, fr, scratch);
	ns[0] = round_up(fr->step_n_fits * 9 / 10, unit);
	ns[1] = round_up(fr->step_n_fails + (fr->step_n_fails / 10 > unit ? fr->step_n_fails / 10 : unit), unit);
	if (ns[0] >= ns[1])
		ns[0] = 0;
	memset(scratch, 0, sizeof(*scratch));
	scratch->filler = fr->filler;
	if ((rc = measure(s, scratch, ns, 2)))
		return rc;
	fr->repeat.done = true;
	fr->repeat.fits_ns = point_find(scratch, ns[0])->ns_per_iter;
	fr->repeat.fails_ns = point_find(scratch, ns[1])->ns_per_iter;
	/* Geometric midpoint of the first run's two levels at the step. */
	mid = sqrt(fr->fit.ramp_top_ns * fr->fit.serial_ns);
	fr->repeat.agrees = fr->repeat.fits_ns < mid && fr->repeat.fails_ns > mid;
	fr->repeat.end_s = since_start_s(s);
	if (fr->repeat.agrees)
		return 0;
	return resweep(s, fr, scratch);
}

/* The filler swept afresh into scratch, its step kept beside the first. */
static int resweep(struct sweep *s, struct window_filler_result *fr, struct window_filler_result *scratch)
{
	int rc;

	memset(scratch, 0, sizeof(*scratch));
	scratch->filler = fr->filler;
	scratch->name = fr->name;
	scratch->structure = fr->structure;
	if ((rc = sweep_filler(s, scratch)))
		return rc;
	fill_filler(scratch, s->floor_frac, s->p->max_n);
	fr->repeat.resweep = true;
	fr->repeat.step_found = scratch->step_found;
	fr->repeat.step_n_fits = scratch->step_n_fits;
	fr->repeat.step_n_fails = scratch->step_n_fails;
	fr->repeat.capacity = scratch->capacity;
	fr->repeat.capacity_low = scratch->capacity_low;
	fr->repeat.capacity_high = scratch->capacity_high;
	fr->repeat.jump_ratio = scratch->fit.jump_ratio;
	fr->repeat.end_s = since_start_s(s);
	return 0;
}

/* About half: the ratio of a split structure to the whole, allowing for
 * the bracket of each step and a few entries a core may reserve. */
static bool about_half(double small, double large)
{
	return small >= 0.4 * large && small <= 0.6 * large;
}

void window_judge_repeat(struct window_filler_result *fr)
{
	double first = fr->capacity, again = fr->repeat.capacity;

	fr->whole_capacity = fr->capacity;
	fr->whole_capacity_low = fr->capacity_low;
	fr->whole_capacity_high = fr->capacity_high;
	fr->partitioned = false;
	if (!fr->step_found || !fr->repeat.done)
		return;
	if (fr->repeat.agrees) {
		note_add(fr->note, sizeof(fr->note), "; the repeat at the end agrees");
		return;
	}
	if (!fr->repeat.step_found) {
		note_add(fr->note, sizeof(fr->note),
			 "; the repeat at the end no longer matched and its fresh sweep found no step: "
			 "the first figure stands alone");
		return;
	}
	if (about_half(again, first) || about_half(first, again)) {
		bool first_whole = first > again;

		fr->partitioned = true;
		if (!first_whole) {
			fr->whole_capacity = again;
			fr->whole_capacity_low = fr->repeat.capacity_low;
			fr->whole_capacity_high = fr->repeat.capacity_high;
		}
		note_add(fr->note, sizeof(fr->note),
			 "; PARTITIONED: the repeat at the end stepped at N=%u/%u (%.1f entries), %.2fx the first run's "
			 "%.1f. A core splits this structure between its two hardware threads when both are active, so "
			 "a neighbour on the same physical core was likely running during the %s run; the whole "
			 "structure is the %s run's %.1f entries (the two are not averaged)",
			 fr->repeat.step_n_fits, fr->repeat.step_n_fails, again, again / first, first,
			 first_whole ? "repeat" : "first", first_whole ? "first" : "repeat", fr->whole_capacity);
		return;
	}
	if (fabs(again - first) <= fmax(2.0, 0.05 * first)) {
		note_add(fr->note, sizeof(fr->note), "; the repeat at the end re-swept and stepped at N=%u/%u, the same",
			 fr->repeat.step_n_fits, fr->repeat.step_n_fails);
		return;
	}
	if (again > first) {
		fr->whole_capacity = again;
		fr->whole_capacity_low = fr->repeat.capacity_low;
		fr->whole_capacity_high = fr->repeat.capacity_high;
	}
	note_add(fr->note, sizeof(fr->note),
		 "; UNSTABLE: the repeat at the end stepped at N=%u/%u (%.1f entries), %.2fx the first run: neither the "
		 "same nor half; the larger is kept as the whole",
		 fr->repeat.step_n_fits, fr->repeat.step_n_fails, again, again / first);
}

/* Two brackets agree when they overlap after widening each by a few
 * entries (a core may hold one or two entries for its own use, and the
 * chase loads are counted by assumption). */
static bool brackets_agree(const struct window_filler_result *a, const struct window_filler_result *b)
{
	double slack = fmax(2.0, 0.03 * fmax(a->whole_capacity, b->whole_capacity));

	return a->whole_capacity_low - slack <= b->whole_capacity_high + slack &&
	       b->whole_capacity_low - slack <= a->whole_capacity_high + slack;
}

/* The other fillers bounding the same structure that stepped, against the
 * one its figure comes from: agreeing, or disagreeing (noted on both). */
static void cross_check(struct window_result *r, struct window_summary *sm, struct window_filler_result *from)
{
	enum probe_structure st = sm->structure;

	for (unsigned i = 0; i < r->nfillers; i++) {
		struct window_filler_result *fr = &r->fillers[i];

		if (fr == from || !fr->step_found || fr->rob_bound || probe_filler_info(fr->filler)->bounds != st)
			continue;
		sm->partitioned = sm->partitioned || fr->partitioned;
		if (brackets_agree(fr, from)) {
			sm->agree[sm->nagree++] = i;
			continue;
		}
		sm->disagree[sm->ndisagree++] = i;
		fr->disagrees = from->disagrees = true;
		note_add(fr->note, sizeof(fr->note), "; CROSS-CHECK: disagrees with %s (%.1f vs %.1f entries of the %s)",
			 from->name, fr->whole_capacity, from->whole_capacity, probe_structure_name(st));
		note_add(from->note, sizeof(from->note), "; CROSS-CHECK: disagrees with %s (%.1f vs %.1f entries of the %s)",
			 fr->name, from->whole_capacity, fr->whole_capacity, probe_structure_name(st));
	}
}

static void summarise_one(struct window_result *r, struct window_summary *sm)
{
	struct window_filler_result *from = NULL;
	enum probe_structure st = sm->structure;
	unsigned last_n = 0;

	/* The largest figure is the structure's: any other limit a filler runs
	 * into can only stop it earlier, never later. */
	for (unsigned i = 0; i < r->nfillers; i++) {
		struct window_filler_result *fr = &r->fillers[i];

		if (probe_filler_info(fr->filler)->bounds != st)
			continue;
		if (fr->rob_bound && st != PROBE_STRUCT_ROB) {
			sm->rob_bound[sm->nrob_bound++] = i;
			continue;
		}
		if (!fr->step_found) {
			sm->nostep[sm->nnostep++] = i;
			if (fr->npoints)
				last_n = fr->points[fr->npoints - 1].n > last_n ? fr->points[fr->npoints - 1].n : last_n;
			continue;
		}
		if (!from || fr->whole_capacity > from->whole_capacity) {
			from = fr;
			sm->from = i;
		}
	}
	if (!from && sm->nrob_bound) {
		snprintf(sm->note, sizeof(sm->note), "not measured: every filler bounding it that stepped stepped where the "
			 "reorder buffer did, so the ROB bound them before the %s filled", probe_structure_name(st));
		for (unsigned k = 0; k < sm->nrob_bound; k++) {
			const struct window_filler_result *fr = &r->fillers[sm->rob_bound[k]];

			note_add(sm->note, sizeof(sm->note), "%s%s (N=%u/%u, ROB %s)", k ? ", " : ": ", fr->name,
				 fr->step_n_fits, fr->step_n_fails, window_rob_state_name(fr->rob_state));
		}
		return;
	}
	if (!from && window_jump_needed(r->noise_floor_pct / 100) >= WINDOW_CLEAN_JUMP) {
		/* Two misses overlapped against serialised differ by at most 2x, and
		 * clean steps jump about 1.7-1.8x; a floor that demands that much
		 * says nothing about the core, only about this run. */
		sm->noise_limited = true;
		if (st == PROBE_STRUCT_MISS) {
			snprintf(sm->note, sizeof(sm->note), "not resolved in this run: its noise floor (%.1f%%) needs a "
				 "rise above %.2fx to call a knee; rerun on a quiet machine", r->noise_floor_pct,
				 window_jump_needed(r->noise_floor_pct / 100));
			return;
		}
		snprintf(sm->note, sizeof(sm->note),
			 "not resolved in this run: its noise floor (%.1f%%) needs a jump above %.2fx to call a step, and "
			 "a clean step here is about %.1fx (two misses overlapped against serialised, at most 2x); rerun "
			 "on a quiet machine",
			 r->noise_floor_pct, window_jump_needed(r->noise_floor_pct / 100), WINDOW_CLEAN_JUMP);
		return;
	}
	if (!from) {
		snprintf(sm->note, sizeof(sm->note), "not measurable on this core: no filler bounding it stepped (up to N=%u)",
			 last_n);
		for (unsigned k = 0; k < sm->nnostep; k++)
			note_add(sm->note, sizeof(sm->note), "%s%s", k ? ", " : ": ", r->fillers[sm->nostep[k]].name);
		note_add(sm->note, sizeof(sm->note),
			 "; a flat curve means they take no entry in it here, a ramp that another limit binds first "
			 "(see their notes)");
		return;
	}
	sm->measured = true;
	sm->capacity = from->whole_capacity;
	sm->capacity_low = from->whole_capacity_low;
	sm->capacity_high = from->whole_capacity_high;
	sm->partitioned = from->partitioned;
	snprintf(sm->note, sizeof(sm->note), "%.1f entries from %s (fits at N=%u, not at %u)", sm->capacity, from->name,
		 from->step_n_fits, from->step_n_fails);
	cross_check(r, sm, from);
	for (unsigned k = 0; k < sm->nagree; k++)
		note_add(sm->note, sizeof(sm->note), "%s%s", k ? ", " : "; agrees: ", r->fillers[sm->agree[k]].name);
	for (unsigned k = 0; k < sm->ndisagree; k++)
		note_add(sm->note, sizeof(sm->note), "%s%s (%.1f)", k ? ", " : "; DISAGREES: ",
			 r->fillers[sm->disagree[k]].name, r->fillers[sm->disagree[k]].whole_capacity);
	for (unsigned k = 0; k < sm->nnostep; k++) {
		const struct window_filler_result *ns = &r->fillers[sm->nostep[k]];

		note_add(sm->note, sizeof(sm->note), "; %s never stepped up to N=%u while %s stepped at %u: %s", ns->name,
			 ns->npoints ? ns->points[ns->npoints - 1].n : 0, from->name, from->step_n_fails,
			 ns->filler == PROBE_FILLER_NOP ? "nops take no entry in it on this core (dropped or packed before it)"
							: "it takes no entry in it on this core, or another path frees it");
	}
	for (unsigned k = 0; k < sm->nrob_bound; k++)
		note_add(sm->note, sizeof(sm->note), "; %s left out: it stepped where the reorder buffer did (ROB-bound)",
			 r->fillers[sm->rob_bound[k]].name);
	if (sm->partitioned)
		note_add(sm->note, sizeof(sm->note), "; one run measured about half (see the filler's note)");
	if (from->filler == PROBE_FILLER_MISS && !from->miss.plausible)
		note_add(sm->note, sizeof(sm->note), "; MARKED: the slope past the knee gives %.1f, so another limit "
			 "shapes the curve too", from->miss.slope_buffers);
}

const char *window_rob_state_name(enum window_rob_state st)
{
	return st == WINDOW_ROB_WHOLE ? "whole" : st == WINDOW_ROB_PARTITIONED ? "partitioned" : "unknown";
}

static void rob_span_add(unsigned *lo, unsigned *hi, const struct window_rob_check *c)
{
	if (!*hi || c->step_n_fits < *lo)
		*lo = c->step_n_fits;
	if (c->step_n_fails > *hi)
		*hi = c->step_n_fails;
}

/* Each check whole (within 5% or 2 entries of the largest seen),
 * partitioned (about half of it) or unknown; the two states' figures. */
static void rob_classify(struct window_rob_timeline *t)
{
	const struct window_rob_check *big = NULL, *half = NULL;

	t->whole_n_min = t->whole_n_max = t->partitioned_n_min = t->partitioned_n_max = 0;
	for (unsigned i = 0; i < t->nchecks; i++)
		if (t->checks[i].step_found && (!big || t->checks[i].capacity > big->capacity))
			big = &t->checks[i];
	t->measured = big != NULL;
	for (unsigned i = 0; i < t->nchecks; i++) {
		struct window_rob_check *c = &t->checks[i];

		c->state = WINDOW_ROB_UNKNOWN;
		if (!c->step_found)
			continue;
		if (fabs(c->capacity - big->capacity) <= fmax(2.0, 0.05 * big->capacity)) {
			c->state = WINDOW_ROB_WHOLE;
			rob_span_add(&t->whole_n_min, &t->whole_n_max, c);
		} else if (about_half(c->capacity, big->capacity)) {
			c->state = WINDOW_ROB_PARTITIONED;
			rob_span_add(&t->partitioned_n_min, &t->partitioned_n_max, c);
			if (!half || c->capacity > half->capacity)
				half = c;
		}
	}
	if ((t->have_whole = big != NULL)) {
		t->whole_capacity = big->capacity;
		t->whole_capacity_low = big->capacity_low;
		t->whole_capacity_high = big->capacity_high;
		t->whole_n_fits = big->step_n_fits;
		t->whole_n_fails = big->step_n_fails;
	}
	if ((t->have_partitioned = half != NULL)) {
		t->partitioned_capacity = half->capacity;
		t->partitioned_n_fits = half->step_n_fits;
		t->partitioned_n_fails = half->step_n_fails;
	}
}

static double check_mid_s(const struct window_rob_check *c)
{
	return (c->begin_s + c->end_s) / 2;
}

/* The state at time x: a check's own up to its midpoint from the run's
 * start or end; between two checks' midpoints, theirs when they agree. */
static enum window_rob_state rob_state_at(const struct window_rob_timeline *t, double x)
{
	if (!t->nchecks)
		return WINDOW_ROB_UNKNOWN;
	if (x <= check_mid_s(&t->checks[0]))
		return t->checks[0].state;
	for (unsigned i = 0; i + 1 < t->nchecks; i++)
		if (x <= check_mid_s(&t->checks[i + 1]))
			return t->checks[i].state == t->checks[i + 1].state ? t->checks[i].state : WINDOW_ROB_UNKNOWN;
	return t->checks[t->nchecks - 1].state;
}

static void rob_add_span(struct window_rob_timeline *t, enum window_rob_state st, double span_s)
{
	span_s = fmax(span_s, 0);
	if (st == WINDOW_ROB_WHOLE)
		t->whole_s += span_s;
	else if (st == WINDOW_ROB_PARTITIONED)
		t->partitioned_s += span_s;
	else
		t->unknown_s += span_s;
}

static void rob_spans(struct window_rob_timeline *t)
{
	double at = 0;

	t->whole_s = t->partitioned_s = t->unknown_s = 0;
	for (unsigned i = 0; i < t->nchecks; i++) {
		double mid = check_mid_s(&t->checks[i]);

		rob_add_span(t, rob_state_at(t, mid), mid - at);
		at = mid;
	}
	rob_add_span(t, t->nchecks ? t->checks[t->nchecks - 1].state : WINDOW_ROB_UNKNOWN, t->run_s - at);
}

static enum window_rob_state rob_state_over(const struct window_rob_timeline *t, double begin_s, double end_s)
{
	enum window_rob_state a = rob_state_at(t, begin_s), b = rob_state_at(t, end_s);

	return a == b ? a : WINDOW_ROB_UNKNOWN;
}

/* A step at N=fits/fails is the ROB's in state st (either, when unknown):
 * its bracket meets the span of the ROB's own steps in that state, widened
 * by the floor of a step's position, 2% of N and at least 2 entries. Not
 * the timing floor: that measures time (14% on one recorded guest), and 14% of
 * 440 would take load_fp's step at 402 for the ROB's at 440-445. Words for
 * the note into which. */
static bool rob_step_matches(const struct window_rob_timeline *t, enum window_rob_state st, unsigned fits,
			     unsigned fails, char *which, size_t len)
{
	static const enum window_rob_state states[] = {WINDOW_ROB_WHOLE, WINDOW_ROB_PARTITIONED};

	for (unsigned k = 0; k < 2; k++) {
		bool whole = states[k] == WINDOW_ROB_WHOLE;
		bool have = whole ? t->have_whole : t->have_partitioned;
		unsigned lo = whole ? t->whole_n_min : t->partitioned_n_min;
		unsigned hi = whole ? t->whole_n_max : t->partitioned_n_max;
		double slack = fmax(2.0, 0.02 * hi);

		if (!have || (st != WINDOW_ROB_UNKNOWN && st != states[k]))
			continue;
		if (fits <= hi + slack && lo <= fails + slack) {
			snprintf(which, len, "%s, N=%u..%u over its checks", window_rob_state_name(states[k]), lo, hi);
			return true;
		}
	}
	return false;
}

static void rob_note(struct window_rob_timeline *t, double tol_frac)
{
	double run = t->run_s > 0 ? t->run_s : 1;

	t->note[0] = 0;
	if (!t->measured && window_jump_needed(tol_frac) >= WINDOW_CLEAN_JUMP) {
		snprintf(t->note, sizeof(t->note), "no check stepped: this run's floor (%.1f%%) hides a clean step, so "
			 "no ROB state can be named; rerun on a quiet machine", 100 * tol_frac);
		return;
	}
	if (!t->measured) {
		snprintf(t->note, sizeof(t->note), "no check stepped (nops may be dropped before the ROB on this core): "
			 "no ROB state to name");
		return;
	}
	t->one_state = t->nchecks > 1;
	for (unsigned i = 0; i < t->nchecks; i++)
		t->one_state = t->one_state && t->checks[i].state == WINDOW_ROB_WHOLE;
	if (t->one_state) {
		note_add(t->note, sizeof(t->note),
			 "one state all run: %.1f entries (N=%u/%u) at every check; the whole ROB, or half of it if the "
			 "other hardware thread of this core was busy throughout (no check saw another size)",
			 t->whole_capacity, t->whole_n_fits, t->whole_n_fails);
		return;
	}
	if (!t->have_partitioned) {
		/* "Whole" is relative to the checks: one size seen, not the whole
		 * ROB shown (one recorded guest's start look stepped at 212/218 in one
		 * run, at 440/442 in another). */
		note_add(t->note, sizeof(t->note),
			 "one size seen, %.1f entries (N=%u/%u), for %.0f%% of the run, unknown for %.0f%% (a check found "
			 "no step): the whole ROB, or half of it if the other hardware thread of this core was busy then",
			 t->whole_capacity, t->whole_n_fits, t->whole_n_fails, 100 * t->whole_s / run,
			 100 * t->unknown_s / run);
		return;
	}
	note_add(t->note, sizeof(t->note), "whole %.1f entries (N=%u/%u) for %.0f%% of the run", t->whole_capacity,
		 t->whole_n_fits, t->whole_n_fails, 100 * t->whole_s / run);
	if (t->have_partitioned)
		note_add(t->note, sizeof(t->note), ", partitioned %.1f (N=%u/%u) for %.0f%%: the other hardware thread "
			 "of this core was active then", t->partitioned_capacity, t->partitioned_n_fits,
			 t->partitioned_n_fails, 100 * t->partitioned_s / run);
	if (t->unknown_s > 0)
		note_add(t->note, sizeof(t->note), ", unknown for %.0f%% (the state changed between two checks, or a "
			 "check found neither size)", 100 * t->unknown_s / run);
}

void window_rob_judge(struct window_result *r, double tol_frac)
{
	struct window_rob_timeline *t = &r->rob;

	rob_classify(t);
	rob_spans(t);
	rob_note(t, tol_frac);
	for (unsigned i = 0; i < r->nfillers; i++) {
		struct window_filler_result *fr = &r->fillers[i];
		char which[80];

		fr->rob_bound = false;
		fr->rob_state = rob_state_over(t, fr->begin_s, fr->end_s);
		if (!t->measured)
			continue;
		if (fr->filler == PROBE_FILLER_NOP) {
			/* A later check saw more than the nop filler's own sweep:
			 * that sweep ran partitioned. */
			if (fr->step_found && t->whole_capacity > fr->whole_capacity + fmax(2.0, 0.05 * t->whole_capacity)) {
				fr->whole_capacity = t->whole_capacity;
				fr->whole_capacity_low = t->whole_capacity_low;
				fr->whole_capacity_high = t->whole_capacity_high;
				fr->partitioned = true;
				note_add(fr->note, sizeof(fr->note), "; PARTITIONED: a later ROB check saw the whole at %.1f "
					 "entries (N=%u/%u)", t->whole_capacity, t->whole_n_fits, t->whole_n_fails);
			}
			continue;
		}
		if (probe_filler_info(fr->filler)->bounds == PROBE_STRUCT_ROB)
			continue;
		if (fr->step_found &&
		    rob_step_matches(t, fr->rob_state, fr->step_n_fits, fr->step_n_fails, which, sizeof(which))) {
			fr->rob_bound = true;
			note_add(fr->note, sizeof(fr->note),
				 "; ROB-BOUND: N=%u/%u is the reorder buffer's step (%s; the ROB %s while this ran), "
				 "not the %s's size",
				 fr->step_n_fits, fr->step_n_fails, which, window_rob_state_name(fr->rob_state),
				 probe_structure_name(probe_filler_info(fr->filler)->bounds));
		}
		if (fr->repeat.resweep && fr->repeat.step_found) {
			enum window_rob_state st = rob_state_over(t, fr->repeat.begin_s, fr->repeat.end_s);

			if (rob_step_matches(t, st, fr->repeat.step_n_fits, fr->repeat.step_n_fails, which, sizeof(which))) {
				fr->rob_bound = true;
				note_add(fr->note, sizeof(fr->note),
					 "; ROB-BOUND: the repeat's N=%u/%u is the reorder buffer's step (%s)",
					 fr->repeat.step_n_fits, fr->repeat.step_n_fails, which);
			}
		}
	}
}

void window_summarise(struct window_result *r)
{
	r->nsummary = 0;
	memset(r->summary, 0, sizeof(r->summary));
	for (unsigned i = 0; i < r->nfillers; i++)
		r->fillers[i].disagrees = false;
	for (unsigned st = 0; st < PROBE_STRUCT_COUNT; st++) {
		bool any = false;

		for (unsigned i = 0; i < r->nfillers; i++)
			any = any || probe_filler_info(r->fillers[i].filler)->bounds == (enum probe_structure)st;
		if (!any)
			continue;
		r->summary[r->nsummary].structure = (enum probe_structure)st;
		summarise_one(r, &r->summary[r->nsummary++]);
	}
}

/* ---- the reorder buffer over the run ---- */

/* The start's check is the nop filler's own sweep. */
static void rob_check_start(struct window_result *r, const struct window_filler_result *nop)
{
	struct window_rob_check *c = &r->rob.checks[0];

	r->rob.nchecks = 1;
	c->when = "start";
	c->begin_s = nop->begin_s;
	c->end_s = nop->end_s;
}

static struct window_filler_result *rob_start_filler(struct window_result *r)
{
	for (unsigned i = 0; i < r->nfillers; i++)
		if (r->fillers[i].filler == PROBE_FILLER_NOP)
			return &r->fillers[i];
	return NULL;
}

/* The nop filler swept whole again into fr, as check when of the run. */
static int rob_check(struct sweep *s, struct window_filler_result *fr, const char *when, enum window_phase phase)
{
	struct window_rob_check *c = &s->r->rob.checks[s->r->rob.nchecks];
	enum window_phase was = s->phase;
	int rc;

	if (s->r->rob.nchecks >= WINDOW_ROB_CHECKS)
		return 0;
	memset(fr, 0, sizeof(*fr));
	fr->filler = PROBE_FILLER_NOP;
	fr->name = probe_filler_info(fr->filler)->name;
	fr->structure = probe_filler_info(fr->filler)->structure;
	c->when = when;
	c->begin_s = since_start_s(s);
	s->phase = phase;
	rc = sweep_filler(s, fr);
	s->phase = was;
	c->end_s = since_start_s(s);
	s->r->rob.nchecks++;
	return rc;
}

/* The check's step from its sweep (fitted at the run's final floor). */
static void rob_check_fill(struct window_rob_check *c, const struct window_filler_result *fr)
{
	if (!fr)
		return;
	c->step_found = fr->step_found;
	c->step_n_fits = fr->step_n_fits;
	c->step_n_fails = fr->step_n_fails;
	c->capacity = fr->capacity;
	c->capacity_low = fr->capacity_low;
	c->capacity_high = fr->capacity_high;
}

static bool filler_wanted(const struct window_params *p, unsigned f)
{
	return !p->filler_mask || (p->filler_mask & (1u << f));
}

static bool params_valid(const struct window_params *p)
{
	return !(p->trials < 3 || p->trials % 3 || p->trials > WINDOW_MAX_TRIALS / 3 || p->iters < 16 ||
		 p->max_n < 16 || p->max_n > 4096 || p->working_set_bytes < WINDOW_MIN_BYTES || !p->clock || !p->stop);
}

/* The chase's cycle over huge pages, its layout verified, and iters raised
 * until a timed region is above the clock's minimum. */
static int map_chain(struct sweep *s, struct arena *arena)
{
	const struct window_params *p = s->p;
	struct window_result *r = s->r;
	int rc;

	if ((rc = arena_map(arena, p->working_set_bytes, PAGES_HUGE)))
		return rc;
	r->total_bytes = arena->bytes;
	r->huge_bytes_obtained = arena->huge_bytes_obtained;
	rc = chain_build_verified(&s->chain, arena->base, p->working_set_bytes, ENC_LINE_BYTES, ENC_LINE_BYTES,
				  p->seed, chain_offset_linear, &r->layout);
	r->perm_hash = s->chain.perm_hash;
	if (rc)
		return rc;
	/* Keep every timed region above the clock's minimum: at least two
	 * misses per iteration, so 2 x 50 ns is a safe lower bound on a
	 * region's cost per iteration on any machine with DRAM behind it. */
	while (p->clock->min_region_ns > 0 && (double)s->iters * 100.0 < p->clock->min_region_ns)
		s->iters *= 2;
	return 0;
}

/* Every wanted filler swept in turn, the floor so far updated after each;
 * the nop filler's sweep is the ROB's start check and the middle check
 * runs halfway (rob_fr: the checks' sweeps). */
static int sweep_fillers(struct sweep *s, bool rob_checks, struct window_filler_result *rob_fr, unsigned total)
{
	const struct window_params *p = s->p;
	struct window_result *r = s->r;
	unsigned done = 0;
	int rc;

	for (unsigned f = 0; f < PROBE_FILLER_COUNT; f++) {
		struct window_filler_result *fr;
		uint64_t t0 = clock_wall_ns();

		if (!filler_wanted(p, f))
			continue;
		fr = &r->fillers[r->nfillers++];
		fr->filler = (enum probe_filler)f;
		fr->name = probe_filler_info(fr->filler)->name;
		fr->structure = probe_filler_info(fr->filler)->structure;
		fr->begin_s = since_start_s(s);
		if ((rc = sweep_filler(s, fr)))
			return rc;
		fr->end_s = since_start_s(s);
		fr->seconds = (double)(clock_wall_ns() - t0) / 1e9;
		if (rob_checks && fr->filler == PROBE_FILLER_NOP)
			rob_check_start(r, fr);
		/* Later fillers decide refinements with the floor measured so far. */
		double fl = noise_floor_frac(r);

		if (isfinite(fl))
			s->floor_frac = fl;
		done++;
		if (p->progress)
			p->progress(p->progress_ctx, (double)done / (total + 1));
		/* The middle check: at least one other filler after the start's. */
		if (rob_checks && done == (total + 1) / 2 + (total < 4) &&
		    (rc = rob_check(s, &rob_fr[1], "middle", WINDOW_PHASE_ROB_MIDDLE)))
			return rc;
	}
	return 0;
}

/* One min-of-3 group a point has no spread of its own: the run's floor
 * then; with neither, the decisions keep the 2% they started with and
 * the result says no floor was measured. Each filler fitted at it. */
static void fit_at_floor(struct sweep *s)
{
	struct window_result *r = s->r;

	r->noise_floor_pct = stats_floor_or_run(100 * noise_floor_frac(r), s->p->run_floor_pct, &r->floor_from_run);
	if (isfinite(r->noise_floor_pct))
		s->floor_frac = r->noise_floor_pct / 100;
	for (unsigned i = 0; i < r->nfillers; i++)
		fill_filler(&r->fillers[i], s->floor_frac, s->p->max_n);
}

/* The repeat, after every sweep, so it is minutes (not seconds) away
 * from the first run of the same filler when a neighbour comes or goes. */
static int repeat_fillers(struct sweep *s, struct window_filler_result *scratch_fr)
{
	struct window_result *r = s->r;
	uint64_t w2 = clock_wall_ns();
	int rc;

	s->phase = WINDOW_PHASE_REPEAT;
	for (unsigned i = 0; i < r->nfillers; i++) {
		if ((rc = repeat_filler(s, &r->fillers[i], scratch_fr)))
			return rc;
		window_judge_repeat(&r->fillers[i]);
	}
	r->repeat_seconds = (double)(clock_wall_ns() - w2) / 1e9;
	return 0;
}

/* The end check, then every check's step at the run's floor and the
 * verdict on the reorder buffer over the run. */
static int rob_finish(struct sweep *s, bool rob_checks, struct window_filler_result *rob_fr)
{
	struct window_result *r = s->r;
	int rc;

	if (rob_checks && (rc = rob_check(s, &rob_fr[2], "end", WINDOW_PHASE_ROB_END)))
		return rc;
	r->rob.run_s = since_start_s(s);
	for (unsigned k = 1; k < r->rob.nchecks; k++) {
		fill_filler(&rob_fr[k], s->floor_frac, s->p->max_n);
		rob_check_fill(&r->rob.checks[k], &rob_fr[k]);
	}
	if (r->rob.nchecks)
		rob_check_fill(&r->rob.checks[0], rob_start_filler(r));
	window_rob_judge(r, s->floor_frac);
	return 0;
}

/* Huge pages the kernel broke up during the run: too few, and TLB misses
 * ride along with the loads the run times. */
static void note_huge_backing(struct window_result *r, const struct arena *arena)
{
	size_t huge_after;

	if (!arena_backing_obtained(arena, &huge_after) && huge_after < r->huge_bytes_obtained)
		r->huge_bytes_obtained = huge_after;
	if (r->huge_bytes_obtained < r->total_bytes / 10 * 9)
		snprintf(r->note, sizeof(r->note),
			 "only %zu of %zu bytes in huge pages: TLB misses ride along with the chase loads",
			 r->huge_bytes_obtained, r->total_bytes);
}

int window_run(const struct window_params *p, struct window_result *r)
{
	struct sweep s = {.p = p, .r = r};
	struct arena arena = {0};
	struct window_filler_result *scratch_fr = NULL, *rob_fr = NULL;
	uint64_t w0 = clock_wall_ns(), w1;
	bool rob_checks;
	unsigned total = 0;
	bool synthetic = p->synthetic_ns != NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!enc_host_ops() && !synthetic)
		return -ENOTSUP;
	r->isa = enc_host_ops() ? enc_host_ops()->isa : "synthetic";
	if (!params_valid(p))
		return -EINVAL;
	for (unsigned f = 0; f < PROBE_FILLER_COUNT; f++)
		total += filler_wanted(p, f);
	r->working_set_bytes = p->working_set_bytes;
	r->trials = p->trials;
	r->perm_seed = p->seed;
	/* The ROB over the run needs the nop filler (its sweep is the start's
	 * check) and another to run beside it. */
	rob_checks = filler_wanted(p, PROBE_FILLER_NOP) && total >= 2;
	scratch_fr = malloc(sizeof(*scratch_fr));
	rob_fr = calloc(WINDOW_ROB_CHECKS, sizeof(*rob_fr));
	s.scratch = aligned_alloc(ENC_LINE_BYTES, ENC_SCRATCH_LINES * ENC_LINE_BYTES);
	if (!s.scratch || !scratch_fr || !rob_fr) {
		rc = -ENOMEM;
		goto out;
	}
	/* Touch the scratch lines so the fillers find them in L1 from the first
	 * trial, not faulting. */
	memset(s.scratch, 0, ENC_SCRATCH_LINES * ENC_LINE_BYTES);
	s.iters = p->iters;
	if (synthetic)
		r->layout.ok = true;
	else if ((rc = map_chain(&s, &arena)))
		goto out;
	r->iters = s.iters;
	s.floor_frac = 0.02;
	w1 = s.t0_ns = clock_wall_ns();
	r->setup_seconds = (double)(w1 - w0) / 1e9;
	if ((rc = sweep_fillers(&s, rob_checks, rob_fr, total)))
		goto out;
	fit_at_floor(&s);
	if ((rc = repeat_fillers(&s, scratch_fr)) || (rc = rob_finish(&s, rob_checks, rob_fr)))
		goto out;
	note_interleave_check(r, PROBE_FILLER_STORE, PROBE_FILLER_STORE_NOP);
	note_interleave_check(r, PROBE_FILLER_LOAD_FP, PROBE_FILLER_LOAD_FP_NOP);
	window_summarise(r);
	if (p->progress)
		p->progress(p->progress_ctx, 1.0);
	r->sweep_seconds = (double)(clock_wall_ns() - w1) / 1e9;
	if (!synthetic)
		note_huge_backing(r, &arena);
out:
	if (s.sink == 1)
		r->note[0] = '\0'; /* keeps the chase results observable */
	if (!synthetic)
		chain_free(&s.chain);
	window_miss_table_free(&s.miss);
	arena_unmap(&arena);
	free(s.scratch);
	free(scratch_fr);
	free(rob_fr);
	return rc;
}
