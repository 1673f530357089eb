/*
 * The noise floor of the estimator, not of one run. On a guest whose core
 * clock and neighbours move, single runs scatter widely; what later sections
 * compare are min-of-3 estimates, so the tolerance is how far such a minimum
 * moves between repetitions. Two arms (L1, L2) timed back to back also give
 * the paired ratio: dividing inside one iteration cancels a clock change
 * slower than an iteration, which a ratio of separately taken minima cannot
 * do (its two minima may come from different clock states). Which estimator
 * is steadier depends on how the clock moves today, so none is asserted.
 */
#include "exp/noise.h"

#include "core/arena.h"
#include "core/chain.h"
#include "kern/lanes.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define DEFAULT_GROUPS 14
#define DEFAULT_REGION_NS 500000.0
#define ARM_B_OFFSET_BYTES ((size_t)1 << 20)
#define LINE_BYTES 64
#define CALIBRATION_HOPS 4096

struct arm {
	struct chain chain;
	uintptr_t cursor;
	size_t hops;
};

/* One timed region after an untimed lap: the lap puts the chain back in its
 * cache level, which the other arm's region may have disturbed. */
static double arm_time(const struct clock_info *clk, struct arm *a, size_t hops)
{
	lanes_kernel_fn fn = lanes_kernel(1);
	uintptr_t start = fn(&a->cursor, a->chain.nodes);
	uint64_t t0, t1;

	t0 = clock_now();
	a->cursor = fn(&start, hops);
	t1 = clock_now();
	return clock_ticks_to_ns(clk, t1 - t0) / (double)hops;
}

/* Hops for a region of target_ns, from a short calibration run. */
static size_t arm_hops_for(const struct clock_info *clk, struct arm *a, double target_ns)
{
	double ns = arm_time(clk, a, CALIBRATION_HOPS);

	ns = fmin(ns, arm_time(clk, a, CALIBRATION_HOPS));
	if (!(ns > 0))
		ns = 0.1;
	return (size_t)ceil(target_ns / ns);
}

static int arm_setup(struct arm *a, char *base, size_t bytes, uint64_t seed, bool *layout_ok)
{
	struct layout_check check;
	int rc;

	if ((rc = chain_build(&a->chain, base, bytes, LINE_BYTES, LINE_BYTES, seed, chain_offset_linear)))
		return rc;
	if ((rc = chain_verify(&a->chain, &check)))
		return rc;
	*layout_ok = *layout_ok && check.ok;
	a->cursor = (uintptr_t)base;
	return 0;
}

static void fill_estimators(struct noise_result *r)
{
	static const char *names[NOISE_ESTIMATORS] = {"arm_a_min", "arm_b_min", "ratio_of_minima",
						     "paired_ratio"};
	size_t runs = NOISE_GROUP_RUNS;

	for (unsigned e = 0; e < NOISE_ESTIMATORS; e++) {
		r->estimators[e].name = names[e];
		r->estimators[e].unit = e <= NOISE_EST_ARM_B ? "ns/load" : "ratio";
	}
	for (unsigned g = 0; g < r->groups; g++) {
		const double *a = r->arm_a_runs_ns + g * runs, *b = r->arm_b_runs_ns + g * runs;
		double min_a = stats_min(a, runs), min_b = stats_min(b, runs);

		r->estimators[NOISE_EST_ARM_A].values[g] = min_a;
		r->estimators[NOISE_EST_ARM_B].values[g] = min_b;
		r->estimators[NOISE_EST_RATIO_OF_MINIMA].values[g] = min_b / min_a;
		r->estimators[NOISE_EST_PAIRED_RATIO].values[g] = stats_paired_min_ratio(b, a, runs);
	}
	r->floor_pct = r->probe_minima_spread_pct;
	r->floor_from = "probe_min_of_3";
	for (unsigned e = 0; e < NOISE_ESTIMATORS; e++) {
		r->estimators[e].spread_pct = stats_spread_pct(r->estimators[e].values, r->groups);
		if (r->estimators[e].spread_pct > r->floor_pct) {
			r->floor_pct = r->estimators[e].spread_pct;
			r->floor_from = r->estimators[e].name;
		}
	}
}

int noise_run(const struct noise_params *p, struct noise_result *r)
{
	struct arena arena = {0};
	struct arm a = {0}, b = {0};
	unsigned groups = p->groups ? p->groups : DEFAULT_GROUPS;
	size_t a_bytes = p->arm_a_bytes ? p->arm_a_bytes : (size_t)16 << 10;
	size_t b_bytes = p->arm_b_bytes ? p->arm_b_bytes : (size_t)256 << 10;
	double target = p->region_ns > 0 ? p->region_ns : DEFAULT_REGION_NS;
	uint64_t w0 = clock_wall_ns();
	size_t runs;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!p->clock || groups < 2 || groups > NOISE_GROUPS_MAX || a_bytes > ARM_B_OFFSET_BYTES ||
	    b_bytes > ARENA_HUGE_BYTES - ARM_B_OFFSET_BYTES)
		return -EINVAL;
	/* A region shorter than this is dominated by the timer's own step and
	 * cost (see clock.c), not by the loads. */
	if (target < p->clock->min_region_ns)
		target = p->clock->min_region_ns;
	r->groups = groups;
	r->arm_a_bytes = a_bytes;
	r->arm_b_bytes = b_bytes;
	r->region_ns = target;
	r->layout_ok = true;
	/* Huge pages: both arms then sit in one TLB entry, so the L2 arm's
	 * figure is the cache's, not the data TLB's. */
	if ((rc = arena_map(&arena, ARENA_HUGE_BYTES, PAGES_HUGE)))
		goto out;
	r->huge_bytes_obtained = arena.huge_bytes_obtained;
	if ((rc = arm_setup(&a, arena.base, a_bytes, p->seed, &r->layout_ok)) ||
	    (rc = arm_setup(&b, arena.base + ARM_B_OFFSET_BYTES, b_bytes, p->seed + 1, &r->layout_ok)))
		goto out;
	if (!r->layout_ok) {
		rc = -EPROTO;
		goto out;
	}
	r->arm_a_hops = arm_hops_for(p->clock, &a, target);
	r->arm_b_hops = arm_hops_for(p->clock, &b, target);
	runs = (size_t)groups * NOISE_GROUP_RUNS;
	for (size_t i = 0; i < runs; i++) {
		if (p->stop && *p->stop) {
			rc = -EINTR;
			goto out;
		}
		r->probe_runs_ns[i] = arm_time(p->clock, &a, r->arm_a_hops);
	}
	for (size_t i = 0; i < runs; i++) {
		if (p->stop && *p->stop) {
			rc = -EINTR;
			goto out;
		}
		r->arm_a_runs_ns[i] = arm_time(p->clock, &a, r->arm_a_hops);
		r->arm_b_runs_ns[i] = arm_time(p->clock, &b, r->arm_b_hops);
	}
	stats_group_minima(r->probe_runs_ns, runs, NOISE_GROUP_RUNS, r->probe_minima_ns);
	r->probe_minima_spread_pct = stats_spread_pct(r->probe_minima_ns, groups);
	r->probe_runs_spread_pct = stats_spread_pct(r->probe_runs_ns, runs);
	fill_estimators(r);
	r->seconds = (double)(clock_wall_ns() - w0) / 1e9;
out:
	chain_free(&a.chain);
	chain_free(&b.chain);
	arena_unmap(&arena);
	return rc;
}
