/*
 * The K=1 baseline check of app bzip2, fed synthetic timings through its
 * seam (app_bzip2_baseline_check with a stub re-time): the stored Zen 4
 * run's figures (77 ns per row whole, a 68.5 ns walk, against a 16 ns
 * chase at the table's footprint) fire it; a walk within the chase plus
 * its own work does not; a re-time that comes back fast clears the mark.
 */
#include "../harness.h"

#include "exp/app/bzip2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 2097187u

/* K=1 reused, K=1 fresh, K=8: walk seconds per variant. */
static void planted(struct app_bzip2_result *r, double k1_walk_s, double fresh_walk_s)
{
	static const unsigned k[3] = {1, 1, 8};
	const double walk[3] = {k1_walk_s, fresh_walk_s, 0.008340767};

	memset(r, 0, sizeof(*r));
	r->rows = ROWS;
	r->chase.ran = true;
	r->chase.latency_ns = 16.00199;
	r->chase.noise_floor_pct = 12.82286;
	r->chase.npoints = 2;
	r->chase.k[0] = 1, r->chase.speedup[0] = 1;
	r->chase.k[1] = 8, r->chase.speedup[1] = 8.192059;
	r->nvariants = 3;
	for (unsigned i = 0; i < 3; i++) {
		struct app_bzip2_variant *v = &r->variants[i];

		v->k = k[i];
		v->fresh_output = i == 1;
		v->stages.traversal = walk[i];
		v->walk_seconds = walk[i];
		v->warm_seconds = walk[i] + 0.0185;
		v->mb_per_s = 8e6 / 1e6 / v->warm_seconds;
	}
	app_bzip2_derive(r);
	app_bzip2_chase_ratios(r);
}

struct stub {
	double walk_s[3];   /* what the re-time of each variant returns */
	unsigned calls;
};

static int stub_retime(void *ctx, const struct app_bzip2_result *r, unsigned i, struct app_bzip2_variant *v)
{
	struct stub *s = ctx;

	(void)r;
	s->calls++;
	v->stages.traversal = v->walk_seconds = s->walk_s[i];
	v->warm_seconds = s->walk_s[i] + 0.0185;
	return 0;
}

TEST(bzip2_baseline_fires_on_a_planted_slow_k1_walk)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct stub still_slow = {.walk_s = {0.1400, 0.0520, 0}};
	const struct app_bzip2_baseline *b = &r->baseline;

	CHECK(r, "calloc");
	planted(r, 0.1437178, 0.05238239);
	CHECK(r->variants[1].walk_ratio > 2.7, "planted R(1) fresh %.2f", r->variants[1].walk_ratio);
	CHECK(app_bzip2_baseline_check(r, stub_retime, &still_slow) == 0, "check");
	/* (16.0 + 3.98) x 1.128 = 22.5 ns: the K=8 walk's 3.98 ns per row is the work bound. */
	CHECK(fabs(b->bound_ns_per_row - 22.54) < 0.05, "bound %.2f ns", b->bound_ns_per_row);
	CHECK(b->checked && b->nrows == 2 && b->nslow == 2 && still_slow.calls == 2, "%u rows, %u slow, %u re-times",
	      b->nrows, b->nslow, still_slow.calls);
	CHECK(b->rows[0].retimed && b->rows[0].slow && fabs(b->rows[0].walk_ns_per_row - 66.76) < 0.05,
	      "K=1 reused: %.2f ns, adopted the faster re-time", b->rows[0].walk_ns_per_row);
	CHECK(fabs(b->rows[0].first_ns_per_row - 68.53) < 0.05, "first %.2f ns", b->rows[0].first_ns_per_row);
	free(r);
}

TEST(bzip2_baseline_a_fast_retime_clears_the_mark_and_rederives)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct stub fast = {.walk_s = {0.0360, 0.0400, 0}};
	const struct app_bzip2_baseline *b = &r->baseline;
	double s8_before;

	CHECK(r, "calloc");
	planted(r, 0.1437178, 0.05238239);
	s8_before = r->variants[2].walk_speedup;
	CHECK(app_bzip2_baseline_check(r, stub_retime, &fast) == 0, "check");
	CHECK(b->nslow == 0 && b->rows[0].retimed && !b->rows[0].slow && b->rows[1].retimed, "%u slow", b->nslow);
	/* s = K=1's walk / this walk: the re-timed baseline lowers K=8's. */
	CHECK(r->variants[2].walk_speedup < s8_before / 3, "K=8 s %.2f, before %.2f", r->variants[2].walk_speedup,
	      s8_before);
	CHECK(fabs(r->variants[2].walk_ratio - r->variants[2].walk_speedup / 8.192059) < 1e-9, "R re-derived");
	free(r);
}

TEST(bzip2_baseline_quiet_on_a_walk_within_the_bound)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct stub never = {.walk_s = {0, 0, 0}};

	CHECK(r, "calloc");
	planted(r, 0.0400, 0.0410);  /* 19.1 and 19.5 ns per row */
	CHECK(app_bzip2_baseline_check(r, stub_retime, &never) == 0, "check");
	CHECK(r->baseline.checked && r->baseline.nslow == 0 && never.calls == 0, "%u slow, %u re-times",
	      r->baseline.nslow, never.calls);
	/* No chase: nothing to judge against, and said so. */
	r->chase.ran = false;
	CHECK(app_bzip2_baseline_check(r, stub_retime, &never) == 0 && !r->baseline.checked, "judged without a chase");
	free(r);
}

/* The real re-time, end to end: a small generated input decoded at K=1
 * with its input kept, a planted absurd K=1 walk (1000 s) against a planted
 * chase, and the check re-times it with the decoder itself. Asserts only
 * that the re-time ran and replaced the planted walk, never its speed. */
TEST(bzip2_baseline_retimes_with_the_decoder, NEEDS_LIBBZ2 | NEEDS_HOST)
{
	struct app_bzip2_params p = {
		.default_text_bytes = 60000, .max_k = 1, .trials = 2, .max_workers = 1, .only_k = 1, .layout = -1,
		.prefetch = -1, .output_fresh = -1, .seed = 1, .clock = test_stub_clock(), .keep_input = true,
	};
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	const struct app_bzip2_baseline *b = &r->baseline;
	char err[256] = "";
	int rc;

	CHECK(r, "calloc");
	CHECK(app_bzip2_run(&p, r, err, sizeof(err)) == 0 && r->kept_input, "%s", err);
	r->chase.ran = true;
	r->chase.latency_ns = 1;
	r->chase.noise_floor_pct = 10;
	for (unsigned i = 0; i < r->nvariants; i++)
		if (r->variants[i].k == 1)
			r->variants[i].walk_seconds = 1000;
	rc = app_bzip2_baseline_run(&p, r, err, sizeof(err));
	app_bzip2_release_input(r);
	CHECK(rc == 0, "%s", err);
	CHECK(b->checked && b->nrows >= 1 && b->rows[0].retimed, "%u rows, retimed %d", b->nrows, b->rows[0].retimed);
	CHECK(b->rows[0].first_ns_per_row > 1e6 && b->rows[0].walk_ns_per_row < 1e5 &&
	      r->variants[b->rows[0].variant].ntrials >= 2, "first %.3g ns, now %.3g ns", b->rows[0].first_ns_per_row,
	      b->rows[0].walk_ns_per_row);
	CHECK(!r->kept_input, "input not released");
	free(r);
}
