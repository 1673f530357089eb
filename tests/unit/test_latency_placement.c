/*
 * Latency's placement check (issue 31), logic only: which curve points are
 * timed on a second allocation, the verdict over two allocations' timings
 * (synthetic, in alternated blocks), that the curve keeps the minimum over
 * both, and that the sweep runs the round against a region model (no
 * memory, no clock reading). Nothing here asserts what a CPU does.
 */
#include "../harness.h"

#include "analyse/latency_levels.h"
#include "core/clock.h"
#include "exp/latency.h"

#include <math.h>
#include <string.h>

#define PER (LATENCY_PLACEMENT_TRIALS / LATENCY_PLACEMENT_BLOCKS)

/* Fill v with one value per block (every region of block k reads blk[k]). */
static void blocks(double *v, const double *blk)
{
	for (unsigned k = 0; k < LATENCY_PLACEMENT_BLOCKS; k++)
		for (unsigned t = 0; t < PER; t++)
			v[k * PER + t] = blk[k];
}

TEST(latency_placement_flags_an_allocation_slower_in_every_block)
{
	double a[LATENCY_PLACEMENT_TRIALS], b[LATENCY_PLACEMENT_TRIALS], min[2], spread;
	const double fast[] = {20, 21, 22}, slow[] = {95, 90, 110};

	blocks(a, fast);
	blocks(b, slow);
	CHECK(latency_placement_judge(a, b, LATENCY_PLACEMENT_TRIALS, PER, 10.0, min, &spread),
	      "the own allocation read 90-110 ns in every block, the arena 20-22: not flagged");
	CHECK(min[0] == 20 && min[1] == 90, "minima %.1f / %.1f", min[0], min[1]);
	CHECK(fabs(spread - 350.0) < 1e-9, "spread %.2f%%, expected 350%%", spread);
	/* Either way round. */
	CHECK(latency_placement_judge(b, a, LATENCY_PLACEMENT_TRIALS, PER, 10.0, min, &spread),
	      "the arena slower in every block: not flagged");
}

TEST(latency_placement_does_not_flag_what_one_block_s_moment_explains)
{
	double a[LATENCY_PLACEMENT_TRIALS], b[LATENCY_PLACEMENT_TRIALS], min[2], spread;
	/* The arena caught the share in one block only; the own allocation
	 * never did, but the arena's other blocks read what it read. */
	const double moment[] = {100, 30, 104}, steady[] = {102, 98, 101};

	blocks(a, moment);
	blocks(b, steady);
	CHECK(!latency_placement_judge(a, b, LATENCY_PLACEMENT_TRIALS, PER, 10.0, min, &spread),
	      "flagged a spread (%.0f%%) that one block of the faster allocation explains", spread);
	CHECK(min[0] == 30 && min[1] == 98 && spread > 200, "minima %.1f / %.1f, spread %.1f%%", min[0], min[1],
	      spread);
}

TEST(latency_placement_holds_a_spread_within_the_tolerance)
{
	double a[LATENCY_PLACEMENT_TRIALS], b[LATENCY_PLACEMENT_TRIALS], min[2], spread;
	const double x[] = {20, 20.5, 20.2}, y[] = {21.5, 21.8, 21.6};

	blocks(a, x);
	blocks(b, y);
	CHECK(!latency_placement_judge(a, b, LATENCY_PLACEMENT_TRIALS, PER, 10.0, min, &spread),
	      "7.5%% apart flagged at a 10%% tolerance");
	CHECK(latency_placement_judge(a, b, LATENCY_PLACEMENT_TRIALS, PER, 2.0, min, &spread),
	      "every block 5%% apart not flagged at a 2%% tolerance");
	CHECK(!latency_placement_judge(a, b, 0, PER, 2.0, min, &spread) && isnan(spread) && isnan(min[0]),
	      "no timings: flagged, or figures given");
}

/* A curve of levels as analyse/ leaves them: L1 to 32 KiB, L2 to 1 MiB,
 * the L3 share to 6 MiB, memory past it; a TLB step inside the L2. */
static void picked_curve(struct latency_result *r)
{
	static const size_t kib[] = {16, 32, 48, 64, 512, 1024, 1536, 4096, 6144, 8192, 65536};

	memset(r, 0, sizeof(*r));
	r->ncurve = r->npoints = sizeof(kib) / sizeof(kib[0]);
	for (unsigned i = 0; i < r->ncurve; i++)
		r->points[i] = (struct latency_point){.size_bytes = kib[i] << 10, .pages = PAGES_HUGE};
	r->warm_max_bytes = 32u << 20;
	r->nlevels = 5;
	r->levels[0] = (struct latency_level){.level = 1, .first_bytes = 16u << 10, .size_bytes = 32u << 10};
	r->levels[1] = (struct latency_level){.level = 2, .first_bytes = 48u << 10, .size_bytes = 512u << 10,
					     .tlb = true};
	r->levels[2] = (struct latency_level){.level = 3, .first_bytes = 512u << 10, .size_bytes = 1u << 20};
	r->levels[3] = (struct latency_level){.level = 4, .first_bytes = 1536u << 10, .size_bytes = 6u << 20};
	r->levels[4] = (struct latency_level){.level = 5, .first_bytes = 64u << 20, .size_bytes = 64u << 20,
					     .reaches_max = true};
}

TEST(latency_placement_picks_each_cache_level_s_end_and_the_point_past_it)
{
	static struct latency_result r;
	unsigned pick[LATENCY_PLACEMENT_POINTS_MAX], n;
	const unsigned want[] = {1, 2, 5, 6, 8, 9};

	picked_curve(&r);
	n = latency_placement_pick(&r, pick, LATENCY_PLACEMENT_POINTS_MAX);
	CHECK(n == 6, "%u points picked, expected 6 (a TLB step and memory take none)", n);
	for (unsigned i = 0; i < n && i < 6; i++)
		CHECK(pick[i] == want[i], "pick %u: point %u, expected %u", i, pick[i], want[i]);
	n = latency_placement_pick(&r, pick, 3);
	CHECK(n == 3 && pick[2] == 5, "a cap of 3 keeps the first three ascending (%u)", n);
	/* A point placed already is not picked again (the next round's). */
	r.points[5].nalloc_trials = LATENCY_PLACEMENT_TRIALS;
	n = latency_placement_pick(&r, pick, LATENCY_PLACEMENT_POINTS_MAX);
	CHECK(n == 5 && pick[2] == 6, "with 1 MiB placed: %u points, the third %u", n, n > 2 ? pick[2] : 0);
	r.points[5].nalloc_trials = 0;
	/* A set past the largest warmed (past the caches) takes none. */
	r.warm_max_bytes = 6u << 20;
	n = latency_placement_pick(&r, pick, LATENCY_PLACEMENT_POINTS_MAX);
	CHECK(n == 5 && pick[4] == 8, "with warm_max 6 MiB: %u points, the last %u", n, n ? pick[n - 1] : 0);
}

TEST(latency_placement_keeps_the_minimum_over_both_allocations_in_the_curve)
{
	static struct latency_result r;
	struct clock_info c = {.ticks_per_ns = 1};
	struct latency_params p = {.clock = &c, .noise_floor_pct = 5.0};
	const double sweep[] = {100, 104, 98}, own[] = {24, 23, 25};
	const size_t mib[] = {1, 2, 4, 6, 8, 16, 32, 64};
	const double ns[] = {20, 20, 21, 22, 100, 130, 140, 150};

	memset(&r, 0, sizeof(r));
	r.ncurve = r.npoints = 8;
	r.trials = 2;
	for (unsigned i = 0; i < 8; i++) {
		struct latency_point *pt = &r.points[i];

		*pt = (struct latency_point){.size_bytes = mib[i] << 20, .pages = PAGES_HUGE, .ntrials = 2,
					      .chase_layout.ok = true, .stream_layout.ok = true};
		pt->chase_trials_ns[0] = pt->chase_trials_ns[1] = ns[i];
		pt->stream_trials_ns[0] = pt->stream_trials_ns[1] = 1.0;
	}
	/* 8 MiB: the sweep's arena read 98-104 ns in every placement block, the
	 * set's own allocation 23-25 ns: the curve's share runs to 8 MiB. */
	blocks(r.points[4].alloc_trials_ns[0], sweep);
	blocks(r.points[4].alloc_trials_ns[1], own);
	r.points[4].nalloc_trials = LATENCY_PLACEMENT_TRIALS;
	latency_analyse(&r, &p);
	CHECK(r.points[4].chase_ns == 23, "8 MiB kept %.1f ns, expected the minimum 23", r.points[4].chase_ns);
	CHECK(r.points[4].placement_sensitive && r.placement_sensitive == 1, "8 MiB not flagged (%u flagged)",
	      r.placement_sensitive);
	CHECK(r.nlevels >= 2 && r.levels[0].size_bytes == (8u << 20), "the first level ends at %zu B, expected 8 MiB",
	      r.nlevels ? r.levels[0].size_bytes : 0);
	CHECK(isnan(r.points[3].placement_spread_pct) && !r.points[3].placement_sensitive,
	      "6 MiB, not placed, carries a placement verdict");
}

/* A model with no memory: both allocations read the same, so the round
 * runs, keeps the figures, and flags nothing; --quick's switch skips it. */
static double flat_model(void *ctx, size_t size, bool stream, size_t loads, size_t warm_loads)
{
	(void)ctx;
	(void)loads;
	(void)warm_loads;
	return stream ? 1.0 : size <= (32u << 10) ? 1.5 : size <= (1u << 20) ? 5.0 : size <= (8u << 20) ? 30.0 : 150.0;
}

TEST(latency_placement_round_runs_in_the_sweep_and_flags_nothing_when_pages_do_not_matter)
{
	static struct latency_result r;
	struct clock_info c = {.ticks_per_ns = 1};
	struct latency_params p = {.min_bytes = 16u << 10, .max_bytes = 64u << 20, .points_per_octave = 2,
				   .trials = 4, .noise_floor_pct = 2.0, .seed = 1, .clock = &c, .region_hops = 1024,
				   .region_model = flat_model, .derive = latency_derive};
	int rc = latency_run(&p, &r);

	CHECK(rc == 0, "latency_run: %d", rc);
	CHECK(r.nplaced >= 4 && r.placement_sensitive == 0, "%u placed, %u flagged", r.nplaced, r.placement_sensitive);
	for (unsigned i = 0; i < r.ncurve; i++)
		if (r.points[i].nalloc_trials)
			CHECK(r.points[i].placement_spread_pct == 0 && r.points[i].chase_ns == r.points[i].alloc_ns[1],
			      "%zu B: spread %.1f%%", r.points[i].size_bytes, r.points[i].placement_spread_pct);
	p.no_placement = true;
	rc = latency_run(&p, &r);
	CHECK(rc == 0 && r.nplaced == 0 && r.placement_skipped == 0, "no_placement: %u placed", r.nplaced);
}

/* A 2 MiB share (small, so the round's priced cost stays inside its 0.5 s
 * floor when the model takes no time) whose 1.41 and 2 MiB points read memory latency for
 * their first bump[] regions (caught at moments the share did not hold
 * them), then warm. */
struct edge_model {
	unsigned bump[2];
};

static double edge_model(void *ctx, size_t size, bool stream, size_t loads, size_t warm_loads)
{
	struct edge_model *m = ctx;
	unsigned *b = size == 1482880 ? &m->bump[0] : size == (2u << 20) ? &m->bump[1] : NULL;

	(void)loads;
	(void)warm_loads;
	if (stream)
		return 1.0;
	if (b && *b) {
		(*b)--;
		return 150.0;
	}
	return size <= (32u << 10) ? 1.5 : size <= (256u << 10) ? 5.0 : size <= (2u << 20) ? 30.0 : 150.0;
}

static const struct latency_point *point_of(const struct latency_result *r, size_t size)
{
	for (unsigned i = 0; i < r->ncurve; i++)
		if (r->points[i].size_bytes == size)
			return &r->points[i];
	return NULL;
}

/* The sweep ends the share at 1 MiB; the second look holds 1.41 MiB, which
 * moves the end, so 2 MiB is placed in the next round, holds too, and the
 * round after places 2.83 MiB: the level ends where the share does. */
TEST(latency_placement_follows_a_level_end_that_it_moves)
{
	static struct latency_result r;
	struct clock_info c = {.ticks_per_ns = 1};
	struct edge_model m = {.bump = {1u << 30, 1u << 30}};
	struct latency_params p = {.min_bytes = 16u << 10, .max_bytes = 64u << 20, .points_per_octave = 2,
				   .trials = 4, .noise_floor_pct = 2.0, .seed = 1, .clock = &c, .region_hops = 1024,
				   .region_model = edge_model, .region_model_ctx = &m, .derive = latency_derive,
				   .no_retime = true, .no_placement = true};
	const struct latency_point *x, *y, *z;
	int rc = latency_run(&p, &r);

	CHECK(rc == 0 && point_of(&r, 1482880), "latency_run: %d, or no 1.41 MiB point", rc);
	CHECK(r.nlevels >= 3 && r.levels[2].size_bytes == (1u << 20), "the sweep's share ends at %zu B, not 1 MiB",
	      r.nlevels >= 3 ? r.levels[2].size_bytes : 0);
	/* The sweep's own regions (and its steady check's) read 150 ns. */
	m.bump[0] = (1u << 30) - m.bump[0];
	m.bump[1] = (1u << 30) - m.bump[1];
	p.no_placement = false;
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %d", rc);
	x = point_of(&r, 1482880);
	y = point_of(&r, 2u << 20);
	z = point_of(&r, 2965824);
	CHECK(x && x->sweep_chase_ns == 150.0 && x->chase_ns == 30.0, "1.41 MiB: sweep %.1f, kept %.1f ns",
	      x ? x->sweep_chase_ns : NAN, x ? x->chase_ns : NAN);
	CHECK(y && y->nalloc_trials > 0 && y->chase_ns == 30.0, "2 MiB, the end once 1.41 MiB held: placed %u, %.1f ns",
	      y ? y->nalloc_trials : 0, y ? y->chase_ns : NAN);
	CHECK(z && z->nalloc_trials > 0 && z->chase_ns == 150.0, "2.83 MiB, past the new end, not placed");
	CHECK(r.nlevels >= 3 && r.levels[2].size_bytes == (2u << 20), "the share ends at %zu B, not 2 MiB",
	      r.nlevels >= 3 ? r.levels[2].size_bytes : 0);
	CHECK(r.placement_skipped == 0, "%u skipped", r.placement_skipped);
}
