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
 */
#include "exp/window.h"

#include "arena.h"
#include "clock.h"
#include "jit/enc.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
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
	size_t ws = (size_t)256 << 20;

	while (ws < 8 * largest_cache_bytes)
		ws *= 2;
	*p = (struct window_params){
		.working_set_bytes = ws, .trials = 15, .iters = 16384, .max_n = 1024,
		.seed = 7, .clock = clock, .stop = stop,
	};
}

/* ---- the fit (pure) ---- */

/* Flat then ramp over points [0, s): t = t0 + m * max(0, n - n[a]).
 * Ordinary least squares in (t0, m); false when the slope comes out
 * negative (a falling "ramp" is the flat model with a worse onset). */
static bool fit_ramp(const unsigned *n, const double *t, size_t a, size_t s, double *t0, double *m,
		     double *sse)
{
	double s0 = 0, sx = 0, sxx = 0, st = 0, sxt = 0, det;

	for (size_t i = 0; i < s; i++) {
		double x = n[i] > n[a] ? (double)(n[i] - n[a]) : 0.0;

		s0 += 1;
		sx += x;
		sxx += x * x;
		st += t[i];
		sxt += x * t[i];
	}
	det = s0 * sxx - sx * sx;
	if (det <= 0) {
		*m = 0;
		*t0 = st / s0;
	} else {
		*m = (s0 * sxt - sx * st) / det;
		*t0 = (st - *m * sx) / s0;
	}
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
	double s0 = 0, sx = 0, sxx = 0, st = 0, sxt = 0, b = 0, a, det;

	for (size_t i = s; i < count; i++) {
		double x = (double)(n[i] - n[s]);

		s0 += 1;
		sx += x;
		sxx += x * x;
		st += t[i];
		sxt += x * t[i];
	}
	det = s0 * sxx - sx * sx;
	if (k >= 4 && det > 0)
		b = (s0 * sxt - sx * st) / det;
	a = (st - b * sx) / s0;
	*sse = 0;
	for (size_t i = s; i < count; i++) {
		double e = t[i] - (a + b * (double)(n[i] - n[s]));

		*sse += e * e;
	}
	return a;
}

/* Best (onset, step) with the step either at s (>= 2 points each side) or
 * absent (s == count). */
static void fit_search(const unsigned *n, const double *t, size_t count, bool allow_step,
		       struct window_fit *fit)
{
	double best = INFINITY;

	for (size_t s = allow_step ? 2 : count; s <= count; s++) {
		double up_sse = 0, serial = NAN;

		if (s < count) {
			if (count - s < 2)
				continue;
			serial = fit_serial(n, t, s, count, &up_sse);
		}
		for (size_t a = 0; a < s; a++) {
			double t0, m, sse;

			if (!fit_ramp(n, t, a, s, &t0, &m, &sse) || sse + up_sse >= best)
				continue;
			best = sse + up_sse;
			fit->step_index = s;
			fit->onset_index = a;
			fit->flat_ns = t0;
			fit->ramp_slope_ns = m;
			fit->ramp_top_ns = t0 + m * (double)(n[s - 1] - n[a]);
			fit->serial_ns = serial;
		}
	}
	fit->rms_rel_residual = sqrt(best / (double)count) / fit->flat_ns;
	fit->jump_ratio = fit->step_index < count ? fit->serial_ns / fit->ramp_top_ns : NAN;
}

int window_fit_steps(const unsigned *n, const double *t_ns, size_t count, double tol_frac,
		     struct window_fit *fit)
{
	/* A jump is real when it clears three noise floors (it is read off two
	 * neighbouring points); a ramp is a trend fitted over many points, so one
	 * floor suffices. Never below 5% and 3%: a floor measured as zero on a
	 * lucky run must not turn every wiggle into a step. */
	double jump_min = 1.0 + fmax(3.0 * tol_frac, 0.05), rise_min = fmax(tol_frac, 0.03);

	memset(fit, 0, sizeof(*fit));
	if (!n || !t_ns || count < 3 || !(tol_frac >= 0))
		return -EINVAL;
	for (size_t i = 1; i < count; i++)
		if (n[i] <= n[i - 1])
			return -EINVAL;
	fit_search(n, t_ns, count, true, fit);
	fit->step_found = fit->step_index < count && fit->jump_ratio >= jump_min;
	if (!fit->step_found)
		fit_search(n, t_ns, count, false, fit);
	fit->ramp_found = fit->onset_index + 1 < fit->step_index &&
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
	double floor_frac;          /* the floor so far, for decisions mid-run */
};

/* One timed region on fresh stretches of the cycle: lane A walks iters
 * nodes from the cursor, lane B the next iters, so the lanes never share a
 * line and no region finds lines a recent one left in the cache. */
static double visit(struct sweep *s, const struct probe *pr)
{
	uintptr_t ptrs[2] = {chain_node_at(&s->chain, s->cursor),
			     chain_node_at(&s->chain, s->cursor + s->iters + 1)};
	double ns;

	s->cursor += 2 * s->iters + 2;
	ns = probe_run_ns_per_iter(pr, ptrs, s->iters, s->scratch, s->p->clock);
	s->sink ^= ptrs[0] ^ ptrs[1];
	return ns;
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

/* Build the probes for ns[0..k), then visit them round-robin for p->trials
 * rounds, appending one trial to each point per round. */
static int measure(struct sweep *s, struct window_filler_result *fr, const unsigned *ns, size_t k)
{
	struct probe pr[PHASE_MAX];
	size_t built = 0;
	int rc = 0;

	for (size_t i = 0; i < k; i++)
		if (!point_add(fr, ns[i]))
			k = i;
	for (; built < k; built++)
		if ((rc = probe_build(&pr[built], fr->filler, ns[built])))
			goto out;
	if (k == 0)
		goto out;
	/* Untimed, once per probe: each fresh code page's first fetch and TLB
	 * walk belong to no point, and would otherwise widen the first trial's
	 * spread and with it the floor used to find the step. */
	for (size_t i = 0; i < k; i++)
		visit(s, &pr[i]);
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

static int fit_points(const struct window_filler_result *fr, double tol, struct window_fit *fit)
{
	unsigned n[WINDOW_MAX_POINTS];
	double t[WINDOW_MAX_POINTS];

	for (unsigned i = 0; i < fr->npoints; i++) {
		n[i] = fr->points[i].n;
		t[i] = fr->points[i].ns_per_iter;
	}
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

static int sweep_filler(struct sweep *s, struct window_filler_result *fr)
{
	const struct window_params *p = s->p;
	unsigned unit = probe_filler_info(fr->filler)->fillers_per_entry, n = 0, ns[COARSE_BLOCK];
	struct window_fit fit;
	int rc;

	/* Coarse blocks until the curve has stayed serialised for a while or
	 * max_n is reached. */
	while (n <= p->max_n && !serialised(fr)) {
		size_t k = 0;

		for (; k < COARSE_BLOCK && n <= p->max_n; n = coarse_next(n))
			ns[k++] = n;
		if ((rc = measure(s, fr, ns, k)))
			return rc;
	}
	if ((rc = fit_points(fr, s->floor_frac, &fit)))
		return rc;
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
		lo = fr->points[fit.step_index - 1].n;
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

static double entries_at(const struct probe_filler_info *info, unsigned n)
{
	return (double)((n + info->fillers_per_entry - 1) / info->fillers_per_entry + info->chase_entries);
}

static void fill_filler(struct window_filler_result *fr, double tol, unsigned max_n)
{
	const struct probe_filler_info *info = probe_filler_info(fr->filler);
	struct window_fit *fit = &fr->fit;
	const char *grade;
	int len;

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
	fr->step_n_fits = fr->points[fit->step_index - 1].n;
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

int window_run(const struct window_params *p, struct window_result *r)
{
	struct sweep s = {.p = p, .r = r};
	struct arena arena = {0};
	uint64_t w0 = clock_wall_ns(), w1;
	unsigned total = 0, done = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!enc_host_ops())
		return -ENOTSUP;
	r->isa = enc_host_ops()->isa;
	if (p->trials < 3 || p->trials % 3 || p->trials > WINDOW_MAX_TRIALS / 3 || p->iters < 16 ||
	    p->max_n < 16 || p->max_n > 4096 || p->working_set_bytes < WINDOW_MIN_BYTES || !p->clock || !p->stop)
		return -EINVAL;
	for (unsigned f = 0; f < PROBE_FILLER_COUNT; f++)
		if (!p->filler_mask || (p->filler_mask & (1u << f)))
			total++;
	r->working_set_bytes = p->working_set_bytes;
	r->trials = p->trials;
	r->perm_seed = p->seed;
	s.scratch = aligned_alloc(ENC_LINE_BYTES, ENC_SCRATCH_LINES * ENC_LINE_BYTES);
	if (!s.scratch) {
		rc = -ENOMEM;
		goto out;
	}
	/* Touch the scratch lines so the fillers find them in L1 from the first
	 * trial, not faulting. */
	memset(s.scratch, 0, ENC_SCRATCH_LINES * ENC_LINE_BYTES);
	if ((rc = arena_map(&arena, p->working_set_bytes, PAGES_HUGE)))
		goto out;
	r->total_bytes = arena.bytes;
	r->huge_bytes_obtained = arena.huge_bytes_obtained;
	if ((rc = chain_build(&s.chain, arena.base, p->working_set_bytes, ENC_LINE_BYTES, ENC_LINE_BYTES,
			      p->seed, chain_offset_linear)))
		goto out;
	r->perm_hash = s.chain.perm_hash;
	if ((rc = chain_verify(&s.chain, &r->layout)))
		goto out;
	if (!r->layout.ok) {
		rc = -EPROTO;
		goto out;
	}
	/* Keep every timed region above the clock's minimum: at least two
	 * misses per iteration, so 2 x 50 ns is a safe lower bound on a region's
	 * cost per iteration on any machine with DRAM behind it. */
	s.iters = p->iters;
	while (p->clock->min_region_ns > 0 && (double)s.iters * 100.0 < p->clock->min_region_ns)
		s.iters *= 2;
	r->iters = s.iters;
	s.floor_frac = 0.02;
	w1 = clock_wall_ns();
	r->setup_seconds = (double)(w1 - w0) / 1e9;
	for (unsigned f = 0; f < PROBE_FILLER_COUNT; f++) {
		struct window_filler_result *fr;
		uint64_t t0 = clock_wall_ns();

		if (p->filler_mask && !(p->filler_mask & (1u << f)))
			continue;
		fr = &r->fillers[r->nfillers++];
		fr->filler = (enum probe_filler)f;
		fr->name = probe_filler_info(fr->filler)->name;
		fr->structure = probe_filler_info(fr->filler)->structure;
		if ((rc = sweep_filler(&s, fr)))
			goto out;
		fr->seconds = (double)(clock_wall_ns() - t0) / 1e9;
		/* Later fillers decide refinements with the floor measured so far. */
		double fl = noise_floor_frac(r);

		if (isfinite(fl))
			s.floor_frac = fl;
		if (p->progress)
			p->progress(p->progress_ctx, (double)++done / total);
	}
	r->noise_floor_pct = 100 * s.floor_frac;
	for (unsigned i = 0; i < r->nfillers; i++)
		fill_filler(&r->fillers[i], s.floor_frac, p->max_n);
	note_interleave_check(r, PROBE_FILLER_STORE, PROBE_FILLER_STORE_NOP);
	note_interleave_check(r, PROBE_FILLER_LOAD_FP, PROBE_FILLER_LOAD_FP_NOP);
	r->sweep_seconds = (double)(clock_wall_ns() - w1) / 1e9;
	size_t huge_after;

	if (!arena_backing_obtained(&arena, &huge_after) && huge_after < r->huge_bytes_obtained)
		r->huge_bytes_obtained = huge_after;
	if (r->huge_bytes_obtained < r->total_bytes / 10 * 9)
		snprintf(r->note, sizeof(r->note),
			 "only %zu of %zu bytes in huge pages: TLB misses ride along with the chase loads",
			 r->huge_bytes_obtained, r->total_bytes);
out:
	if (s.sink == 1)
		r->note[0] = '\0'; /* keeps the chase results observable */
	chain_free(&s.chain);
	arena_unmap(&arena);
	free(s.scratch);
	return rc;
}
