/*
 * Hardware check (make validate) of the lanes section's loaded probe: a
 * short real sweep with the probe, asserting that the probe's dependent
 * load at the largest K is no faster than the idle probe's, within the
 * ratio's floor the run measured. It assumes a memory system whose
 * latency does not fall as load rises (no uncore clock the load itself
 * raises) and two CPUs; with one it skips and says so.
 */
#include "harness.h"

#include "core/bounds.h"
#include "core/clock.h"
#include "core/topo.h"
#include "exp/mlp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t never_stop;
static struct clock_info probe_clock;
static struct mlp_result probe_result;

VALIDATE(shape_loaded_probe_at_the_largest_k_is_no_faster_than_idle)
{
	struct topo t;
	size_t ws = 256u << 20;
	const struct mlp_probe *pr = &probe_result.probe;
	const struct mlp_probe_point *max;
	double floor_pct;
	int rc;

	topo_read(&t);
	/* DRAM-sized: at least 4x the largest cache the OS reports. */
	while (ws < 4 * topo_largest_cache_bytes(&t))
		ws *= 2;
	if (probe_clock.ticks_per_ns == 0)
		clock_init(&probe_clock);
	struct mlp_params p = {
		.working_set_bytes = ws, .spacing_bytes = 64, .line_bytes = 64, .pages = PAGES_HUGE,
		.max_lanes = 8, .repeats = 1, .trials = 3, .accesses = 1u << 16, .seed = 3,
		.clock = &probe_clock, .stop = &never_stop, .loaded_probe = true,
	};
	rc = mlp_run(&p, &probe_result);
	CHECK(rc == 0, "mlp_run: %s", strerror(-rc));
	if (pr->state == MLP_PROBE_SKIPPED) {
		mlp_result_free(&probe_result);
		SKIP("%s", pr->why);
	}
	CHECK(pr->state == MLP_PROBE_MEASURED && pr->npoints >= 1, "probe %s: %s", mlp_probe_state_name(pr->state),
	      pr->why);
	max = &pr->points[pr->npoints - 1];
	floor_pct = bounds_ratio_floor_pct(pr->noise_floor_pct);
	CHECK(!bounds_exceeded(pr->idle.t_loaded_ns, max->t_loaded_ns, floor_pct),
	      "t_loaded(K = %u) %.1f ns below idle %.1f ns beyond the floor %.1f%%", max->lanes, max->t_loaded_ns,
	      pr->idle.t_loaded_ns, floor_pct);
	snprintf(tctx->message, sizeof(tctx->message),
		 "idle %.1f ns, t_loaded(K = %u) %.1f ns (x%.2f), N = %.1f (%s), floor %.1f%%; %s", pr->idle.t_loaded_ns,
		 max->lanes, max->t_loaded_ns, max->ratio_to_idle, max->littles_law_concurrency,
		 mlp_probe_little_name(max->little), floor_pct, pr->sharing);
	mlp_result_free(&probe_result);
}
