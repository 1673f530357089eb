/*
 * The lanes experiment. Method, and the pitfalls each line answers:
 * - Every timed region walks H = K * floor(accesses / K) hops, so adding a
 *   lane reschedules the same work instead of adding work.
 * - A region's lanes start evenly spaced along a stretch of the cycle that no
 *   recent region touched: the stretch advances round the whole cycle, so a
 *   repeated trial never finds its lines still in the last-level cache (H lines
 *   can be a large fraction of an L3).
 * - Points are visited round-robin across trials, so warm-up and clock drift
 *   land on every K alike; the estimate per K is the minimum over trials.
 * - The control arm hops one chain K times per iteration: the same loop
 *   overhead per access as K lanes, and no overlap at all.
 */
#include "exp/mlp.h"

#include "core/bounds.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_BLOCK_LANES 32
#define BLOCK_LANES 16
#define FLAT_SPAN 8

struct slot {
	struct mlp_point *point;
	lanes_kernel_fn fn;
	unsigned k;
	bool control;
};

/* The untimed first run's share of a region (warm). */
#define MLP_WARM_SHARE 8
/* The control arm's share of a region (visit). */
#define MLP_CONTROL_SHARE 4

struct sweep {
	const struct mlp_params *p;
	struct mlp_result *r;
	struct chain chain;
	size_t cursor;
	uintptr_t starts[LANES_MAX];
	uintptr_t sink;
	struct slot slots[LANES_MAX + 8];
	unsigned nslots;
};

/* One region of `total` accesses from the cursor; returns ns per access. */
static double walk(struct sweep *s, const struct slot *slot, size_t total)
{
	size_t steps = total / slot->k;
	size_t accesses = steps * slot->k;
	uint64_t t0, t1;

	if (slot->control)
		s->starts[0] = chain_node_at(&s->chain, s->cursor);
	else
		for (unsigned i = 0; i < slot->k; i++)
			s->starts[i] = chain_node_at(&s->chain, s->cursor + i * steps);
	s->cursor += accesses;
	t0 = clock_now();
	s->sink ^= slot->fn(s->starts, steps);
	t1 = clock_now();
	return clock_ticks_to_ns(s->p->clock, t1 - t0) / (double)accesses;
}

/* One timed region; returns ns per access. The control arm's is a
 * quarter as long: its K hops an iteration are one dependent chain, each a
 * whole miss, so a full region cost what K = 1 costs at every unroll (six
 * arms: half of each round at 256 MiB); 64 Ki misses are still tens of
 * milliseconds a region. */
static double visit(struct sweep *s, const struct slot *slot)
{
	size_t total = slot->control ? s->p->accesses / MLP_CONTROL_SHARE : s->p->accesses;
	double ns = walk(s, slot, total > slot->k ? total : slot->k);

	slot->point->steps_per_lane = (total > slot->k ? total : slot->k) / slot->k;
	return ns;
}

/* The untimed first run of a slot's kernel: its code and the page walks
 * to the arena. An eighth of a region (32 Ki accesses by default) lands on
 * every 2 MiB page of a 256 MiB set many times over; a whole region more
 * bought nothing and cost a full sweep round (0.7 s at a 285 ns miss). */
static void warm(struct sweep *s, const struct slot *slot)
{
	size_t total = s->p->accesses / MLP_WARM_SHARE;

	walk(s, slot, total > slot->k ? total : slot->k);
}

static bool is_power_of_two(unsigned k)
{
	return (k & (k - 1)) == 0;
}

/* Slots for lanes K in [lo, hi] and the control arm at powers of two. */
static void plan_slots(struct sweep *s, unsigned lo, unsigned hi)
{
	s->nslots = 0;
	for (unsigned k = lo; k <= hi; k++) {
		s->slots[s->nslots++] = (struct slot){&s->r->sweep[k - 1], lanes_kernel(k), k, false};
		if (is_power_of_two(k)) {
			unsigned c = 0;

			while ((1u << c) < k)
				c++;
			s->slots[s->nslots++] = (struct slot){&s->r->control[c], unrolled_kernel(k), k, true};
		}
	}
}

static int run_rounds(struct sweep *s, unsigned repeat, double done, double share)
{
	const struct mlp_params *p = s->p;

	for (unsigned t = 0; t < p->trials; t++) {
		for (unsigned i = 0; i < s->nslots; i++) {
			struct mlp_point *pt = s->slots[i].point;

			if (*p->stop)
				return -EINTR;
			pt->trials_ns[repeat * p->trials + t] = visit(s, &s->slots[i]);
			pt->ntrials = (repeat + 1) * p->trials;
		}
		if (p->progress)
			p->progress(p->progress_ctx, done + share * (t + 1) / p->trials);
	}
	return 0;
}

/* This section's own floor, on its own points (stats_floor: the estimator
 * every section shares): the run's floor from the noise section is an
 * L1-resident chase, far quieter than DRAM misses overlapped K ways. */
static double noise_floor_pct(const struct mlp_point *pts, unsigned n, double run_floor_pct, bool *from_run)
{
	struct stats_floor fl = {0};

	for (unsigned i = 0; i < n; i++)
		stats_floor_add(&fl, pts[i].trials_ns, pts[i].ntrials, MLP_TRIAL_GROUP, false);
	return stats_floor_or_run(stats_floor_take_pct(&fl), run_floor_pct, from_run);
}

/* The floor as a tolerance: none known is none granted (a NaN would make
 * every comparison false, and no K would be "within the floor"). */
static double tolerance_frac(double floor_pct)
{
	return isfinite(floor_pct) && floor_pct > 0 ? floor_pct / 100.0 : 0.0;
}

/* Minimum over the trials of one repeat (repeat < 0: all repeats). */
static double point_min(const struct mlp_point *pt, int repeat, unsigned trials)
{
	if (repeat < 0)
		return stats_min(pt->trials_ns, pt->ntrials);
	return stats_min(pt->trials_ns + (size_t)repeat * trials, trials);
}

/* Flat: the best of the last FLAT_SPAN lane counts beats the best before
 * them by less than the floor. */
static bool curve_flat(const double *t, unsigned n, double floor_pct)
{
	if (n < 2 * FLAT_SPAN)
		return false;
	return stats_min(t + n - FLAT_SPAN, FLAT_SPAN) >=
	       stats_min(t, n - FLAT_SPAN) * (1.0 - tolerance_frac(floor_pct));
}

static void fill_derived(struct mlp_point *pt, unsigned k, double t1, size_t line_bytes)
{
	pt->lanes = k;
	pt->ns_per_access = stats_min(pt->trials_ns, pt->ntrials);
	pt->speedup = t1 / pt->ns_per_access;
	pt->concurrency = t1 / pt->ns_per_access;
	pt->useful_gbps = (double)sizeof(uintptr_t) / pt->ns_per_access;
	pt->line_gbps = (double)line_bytes / pt->ns_per_access;
}

/* The K and time of each point the estimate may use: every lanes point
 * but those marked impossible. Returns how many. */
static unsigned possible_points(const struct mlp_result *r, double *k, double *t)
{
	unsigned m = 0;

	for (unsigned i = 0; i < r->npoints; i++)
		if (!r->sweep[i].impossible) {
			k[m] = i + 1;
			t[m++] = r->sweep[i].ns_per_access;
		}
	return m;
}

/* An older tool's rule on the possible points, as a lane count. */
static size_t rule_lanes(const double *k, const double *t, unsigned m, double frac)
{
	size_t j = stats_rule_first_gain_below(t, m, frac);

	return j ? (size_t)k[j - 1] : 0;
}

static void fill_estimate(struct mlp_result *r, unsigned repeats, unsigned trials)
{
	struct mlp_estimate *e = &r->estimate;
	double k[LANES_MAX], t[LANES_MAX], ks[POLICY_REPEAT_MAX], median;
	unsigned n = possible_points(r, k, t);
	struct saturation_fit fit;

	e->rule_5pct_lanes = rule_lanes(k, t, n, 0.05);
	e->rule_1pct_lanes = rule_lanes(k, t, n, 0.01);
	stats_fit_saturation(k, t, n, &fit);
	e->fit_latency_ns = fit.latency_ns;
	e->fit_saturation_lanes = fit.saturation_lanes;
	e->fit_plateau_concurrency = t[0] / fit.floor_ns;
	e->fit_rms_log_residual = fit.rms_log_residual;
	/* Ks = L / t_floor, and each of L and t_floor is a min-of-N estimate
	 * known to within the floor: their ratio to within about sqrt(2) of it. */
	e->fit_uncertainty = isfinite(r->noise_floor_pct) ? fit.saturation_lanes * sqrt(2.0) * r->noise_floor_pct / 100.0
							  : NAN;
	e->peak_concurrency = 0;
	for (unsigned i = 0; i < r->npoints; i++)
		if (!r->sweep[i].impossible && r->sweep[i].concurrency > e->peak_concurrency) {
			e->peak_concurrency = r->sweep[i].concurrency;
			e->peak_lanes = i + 1;
		}
	double best = stats_min(t, n);

	for (unsigned i = 0; i < n; i++)
		if (t[i] <= best * (1.0 + tolerance_frac(r->noise_floor_pct))) {
			e->plateau_from_lanes = (unsigned)k[i];
			break;
		}
	e->flat_at_end = curve_flat(t, n, r->noise_floor_pct);
	e->repeats = repeats;
	for (unsigned rep = 0; rep < repeats; rep++) {
		for (unsigned i = 0; i < n; i++)
			t[i] = point_min(&r->sweep[(unsigned)k[i] - 1], (int)rep, trials);
		stats_fit_saturation(k, t, n, &fit);
		ks[rep] = e->repeat_saturation_lanes[rep] = fit.saturation_lanes;
	}
	median = stats_median(ks, repeats);
	e->repeats_agreeing = 0;
	for (unsigned rep = 0; rep < repeats; rep++)
		if (fabs(ks[rep] - median) <= fmax(1.0, 0.1 * median))
			e->repeats_agreeing++;
}

/* K lanes keep at most K misses in flight, so t(1)/t(K) cannot exceed K:
 * beyond the ratio's floor, one of the two timings is wrong (a t(1) taken
 * while another CPU loaded memory, a t(K) the timer misread). */
static void mark_impossible(struct mlp_result *r)
{
	r->nimpossible = 0;
	for (unsigned i = 0; i < r->npoints; i++) {
		struct mlp_point *pt = &r->sweep[i];

		pt->impossible = bounds_exceeded(pt->speedup, pt->lanes, bounds_ratio_floor_pct(r->noise_floor_pct));
		r->nimpossible += pt->impossible;
	}
}

static int alloc_trials(struct mlp_result *r, size_t per_point)
{
	for (unsigned i = 0; i < LANES_MAX; i++)
		if (!(r->sweep[i].trials_ns = calloc(per_point, sizeof(double))))
			return -ENOMEM;
	for (unsigned i = 0; i < MLP_CONTROL_ARMS; i++)
		if (!(r->control[i].trials_ns = calloc(per_point, sizeof(double))))
			return -ENOMEM;
	return 0;
}

static int sweep_all(struct sweep *s)
{
	const struct mlp_params *p = s->p;
	struct mlp_result *r = s->r;
	unsigned lo = 1, hi = p->max_lanes < FIRST_BLOCK_LANES ? p->max_lanes : FIRST_BLOCK_LANES;
	double share = 1.0 / (p->repeats + 1), t[LANES_MAX];
	bool from_run;
	int rc;

	for (;;) {
		/* One untimed pass over each new block: the first run of a kernel
		 * (its code, the page walks to a fresh stretch) belongs to no point. */
		plan_slots(s, lo, hi);
		for (unsigned i = 0; i < s->nslots; i++) {
			if (*p->stop)  /* a visit of a memory-sized set is ~0.2 s: Ctrl-C waits for none */
				return -EINTR;
			warm(s, &s->slots[i]);
		}
		if ((rc = run_rounds(s, 0, 0.0, share)))
			return rc;
		for (unsigned i = 0; i < hi; i++)
			t[i] = point_min(&r->sweep[i], 0, p->trials);
		if (hi == p->max_lanes || curve_flat(t, hi, noise_floor_pct(r->sweep, hi, p->run_floor_pct, &from_run)))
			break;
		lo = hi + 1;
		hi = hi + BLOCK_LANES < p->max_lanes ? hi + BLOCK_LANES : p->max_lanes;
	}
	r->npoints = hi;
	plan_slots(s, 1, hi);
	for (unsigned rep = 1; rep < p->repeats; rep++)
		if ((rc = run_rounds(s, rep, share * rep, share)))
			return rc;
	r->ncontrol = 0;
	while (r->ncontrol < MLP_CONTROL_ARMS && (1u << r->ncontrol) <= hi)
		r->ncontrol++;
	return 0;
}

/* Re-time, once, every point marked impossible and K = 1 with it (the
 * speedup is their ratio, and a t(1) slowed by a busy moment is the usual
 * culprit): fresh trials, visited round-robin as the sweep was, take the
 * place of each one's first repeat. At most one repeat of the sweep's
 * lanes arm, whatever the repeats. */
static int retime_impossible(struct sweep *s)
{
	const struct mlp_params *p = s->p;
	struct mlp_result *r = s->r;

	s->nslots = 0;
	for (unsigned k = 1; k <= r->npoints; k++)
		if (k == 1 || r->sweep[k - 1].impossible)
			s->slots[s->nslots++] = (struct slot){&r->sweep[k - 1], lanes_kernel(k), k, false};
	r->retimed_points = s->nslots;
	for (unsigned t = 0; t < p->trials; t++)
		for (unsigned i = 0; i < s->nslots; i++) {
			if (*p->stop)
				return -EINTR;
			s->slots[i].point->trials_ns[t] = visit(s, &s->slots[i]);
		}
	return 0;
}

/* The loaded probe (exp/mlp_probe.h): the lanes walk on past the sweep's
 * cursor, the probe half a cycle ahead of them. */
static int probe_after_sweep(const struct sweep *s)
{
	const struct mlp_params *p = s->p;
	const struct mlp_result *r = s->r;
	struct mlp_probe_params pp = {
		.clock = p->clock, .stop = p->stop, .chain = &s->chain, .cursor = s->cursor,
		.npoints = r->npoints, .knee = r->estimate.plateau_from_lanes,
		.sweep_t1_ns = r->npoints ? r->sweep[0].ns_per_access : NAN, .run_floor_pct = p->run_floor_pct,
	};

	return mlp_probe_run(&pp, &s->r->probe);
}

void mlp_analyse(struct mlp_result *r, unsigned repeats, unsigned trials, double run_floor_pct)
{
	r->noise_floor_pct = noise_floor_pct(r->sweep, r->npoints, run_floor_pct, &r->floor_from_run);
	double t1 = stats_min(r->sweep[0].trials_ns, r->sweep[0].ntrials);
	double control_t1 = r->ncontrol ? stats_min(r->control[0].trials_ns, r->control[0].ntrials) : NAN;

	for (unsigned i = 0; i < r->npoints; i++)
		fill_derived(&r->sweep[i], i + 1, t1, r->line_bytes);
	/* The control's concurrency is against the lanes arm's t(1), so it reads
	 * about 1 whatever the unroll: that is the point of the control. */
	for (unsigned c = 0; c < r->ncontrol; c++) {
		fill_derived(&r->control[c], 1u << c, t1, r->line_bytes);
		r->control[c].speedup = control_t1 / r->control[c].ns_per_access;
	}
	mark_impossible(r);
	fill_estimate(r, repeats, trials);
}

bool mlp_latency_falls_after_traffic(const struct mlp_result *r, double *speedup, unsigned *lanes)
{
	double floor_pct = bounds_ratio_floor_pct(r->noise_floor_pct);

	*speedup = NAN;
	*lanes = 0;
	for (unsigned c = 1; c < r->ncontrol; c++) {
		double s = r->control[c].speedup;

		if (!isfinite(s))
			continue;
		/* A control slower after traffic than before it, beyond the
		 * floor: the chain's time moved with something else (a
		 * neighbour, a translation edge), not with the traffic. */
		if (bounds_exceeded(1.0 / s, 1.0, floor_pct))
			return false;
		if (!(s <= *speedup)) {
			*speedup = s;
			*lanes = r->control[c].lanes;
		}
	}
	return *lanes && bounds_exceeded(*speedup, 1.0, floor_pct);
}

int mlp_run(const struct mlp_params *p, struct mlp_result *r)
{
	struct sweep s = {.p = p, .r = r};
	struct arena arena = {0};
	chain_offset_fn layout = p->layout ? p->layout : chain_offset_linear;
	/* A test layout may write past the claimed span; give it room. */
	size_t slack = p->layout ? ARENA_HUGE_BYTES : 0;
	uint64_t w0 = clock_wall_ns(), w1;
	int rc;

	memset(r, 0, sizeof(*r));
	r->pages_requested = arena_request_name(p->pages);
	r->working_set_bytes = p->working_set_bytes;
	r->spacing_bytes = p->spacing_bytes;
	r->line_bytes = p->line_bytes;
	r->accesses_per_point = p->accesses;
	r->trials_per_repeat = p->trials;
	r->perm_seed = p->seed;
	if ((rc = alloc_trials(r, (size_t)p->repeats * p->trials)))
		goto out;
	if ((rc = arena_map(&arena, p->working_set_bytes + slack, p->pages)))
		goto out;
	r->total_bytes = arena.bytes;
	r->huge_bytes_obtained = arena.huge_bytes_obtained;
	r->collapse_errno = arena.collapse_errno;
	rc = chain_build_verified(&s.chain, arena.base, p->working_set_bytes, p->spacing_bytes,
				  p->line_bytes, p->seed, layout, &r->layout);
	r->perm_hash = s.chain.perm_hash;
	if (rc)
		goto out;
	w1 = clock_wall_ns();
	r->setup_seconds = (double)(w1 - w0) / 1e9;
	if ((rc = sweep_all(&s)))
		goto out;
	mlp_analyse(r, p->repeats, p->trials, p->run_floor_pct);
	if (r->nimpossible) {
		if ((rc = retime_impossible(&s)))
			goto out;
		mlp_analyse(r, p->repeats, p->trials, p->run_floor_pct);
	}
	if (p->loaded_probe && (rc = probe_after_sweep(&s)))
		goto out;
	/* About 0.1 s: the core's rate for the same kernels, for the model's
	 * u/P term (a failure here costs that term, not the sweep). */
	if ((rc = mlp_core_run(r->npoints, 9, p->line_bytes, p->seed, p->clock, p->stop, &r->core)) == -EINTR)
		goto out;
	rc = 0;
	r->sweep_seconds = (double)(clock_wall_ns() - w1) / 1e9;
	/* Report the smaller of the backing before and after the sweep: the
	 * kernel may split huge pages while we measure. */
	size_t huge_after;

	if (!arena_backing_obtained(&arena, &huge_after) && huge_after < r->huge_bytes_obtained)
		r->huge_bytes_obtained = huge_after;
out:
	chain_free(&s.chain);
	arena_unmap(&arena);
	return rc;
}

void mlp_result_free(struct mlp_result *m)
{
	for (unsigned i = 0; i < LANES_MAX; i++) {
		free(m->sweep[i].trials_ns);
		m->sweep[i].trials_ns = NULL;
	}
	for (unsigned i = 0; i < MLP_CONTROL_ARMS; i++) {
		free(m->control[i].trials_ns);
		m->control[i].trials_ns = NULL;
	}
}

void mlp_arms_free(struct mlp_arms *a)
{
	for (int i = 0; i < 2; i++)
		mlp_result_free(&a->arm[i]);
}

void mlp_level_take(struct mlp_level *lv, const struct mlp_result *r)
{
	const struct mlp_estimate *e = &r->estimate;

	lv->measured = true;
	lv->t1_ns = r->npoints ? r->sweep[0].ns_per_access : 0;
	lv->ks = e->fit_saturation_lanes;
	lv->ks_uncertainty = e->fit_uncertainty;
	lv->plateau_concurrency = e->fit_plateau_concurrency;
	lv->peak_concurrency = e->peak_concurrency;
	lv->peak_lanes = e->peak_lanes;
	lv->plateau_from_lanes = e->plateau_from_lanes;
	lv->noise_floor_pct = r->noise_floor_pct;
	lv->layout_ok = r->layout.ok;
	lv->npoints = r->npoints;
	for (unsigned i = 0; i < r->npoints && i < LANES_MAX; i++) {
		lv->ns_per_access[i] = r->sweep[i].ns_per_access;
		lv->concurrency[i] = r->sweep[i].concurrency;
	}
	lv->seconds = r->setup_seconds + r->sweep_seconds;
}
