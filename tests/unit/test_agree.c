/*
 * The "sections agree" block on results built by hand: figures within the
 * floor agree; a difference beyond it is flagged, and the reason named is
 * the one the test broke (page backing, warm-up, working set). A test that
 * never breaks anything would pass a block that flags nothing.
 */
#include "../harness.h"

#include "exp/latency.h"
#include "report/agreement_out.h"

#include <math.h>
#include <string.h>

/* The curve the other sections read of lat: a copy, taken afresh at each
 * call. */
static const struct latency_curve *curve_of(const struct latency_result *lat)
{
	static struct latency_curve c;

	return latency_curve_of(lat, &c);
}

/* The three results the block reads, and the run's floor. */
static struct {
	double floor_pct;
	struct latency_result latency;
	struct mlp_result mlp[1];
	unsigned nmlp;
	struct loaded_result loaded;
} rep;

static void setup(void)
{
	static struct latency_point *p;

	memset(&rep, 0, sizeof(rep));
	rep.floor_pct = 5.0;
	rep.latency.npoints = rep.latency.ncurve = 2;
	p = rep.latency.points;
	p[0] = (struct latency_point){.size_bytes = (size_t)128 << 20, .pages = PAGES_HUGE, .huge_fraction = 1.0,
				      .chase_ns = 150.0, .ntrials = 1, .chase_trials_ns = {150.0}};
	p[1] = (struct latency_point){.size_bytes = (size_t)1 << 30, .pages = PAGES_HUGE, .huge_fraction = 1.0,
				      .chase_ns = 170.0, .ntrials = 1, .chase_trials_ns = {170.0}};
	rep.nmlp = 1;
	rep.mlp[0].pages_requested = "huge";
	rep.mlp[0].working_set_bytes = (size_t)1 << 30;
	rep.mlp[0].total_bytes = rep.mlp[0].huge_bytes_obtained = (size_t)1 << 30;
	rep.mlp[0].accesses_per_point = 262144;
	rep.mlp[0].npoints = 1;
	rep.mlp[0].sweep[0].lanes = 1;
	rep.mlp[0].sweep[0].ns_per_access = 172.0;
	rep.loaded.chase_bytes = (size_t)128 << 20;
	rep.loaded.gen_bytes = (size_t)256 << 20;
	rep.loaded.huge_bytes_obtained = (size_t)384 << 20;
	rep.loaded.hops = 4 * 32768;
	rep.loaded.idle_latency_ns = 152.0;
}

TEST(agree_figures_within_the_floor_are_one_line_each_and_agree)
{
	static struct agreement_result a;

	setup();
	agreement_compute(curve_of(&rep.latency), rep.mlp, rep.nmlp, &rep.loaded, rep.floor_pct, &a);
	CHECK(a.nlines == 2, "%u lines", a.nlines);
	CHECK(a.lines[0].set_bytes == (size_t)1 << 30 && a.lines[0].nfig == 2 && !strcmp(a.lines[0].fig[1].section, "mlp K=1"),
	      "line 1: %zu, %u figures", a.lines[0].set_bytes, a.lines[0].nfig);
	CHECK(a.lines[1].set_bytes == (size_t)128 << 20 && !strcmp(a.lines[1].fig[1].section, "loaded idle"), "line 2");
	for (unsigned i = 0; i < a.nlines; i++)
		for (unsigned j = 0; j < a.lines[i].nfig; j++)
			CHECK(!a.lines[i].fig[j].differs && !a.lines[i].fig[j].reason[0], "line %u figure %u flagged", i, j);
}

TEST(agree_a_difference_beyond_the_floor_names_the_reason_broken)
{
	static struct agreement_result a;

	/* mlp on small pages obtained: the page backing. */
	setup();
	rep.mlp[0].sweep[0].ns_per_access = 230.0;
	rep.mlp[0].huge_bytes_obtained = 0;
	agreement_compute(curve_of(&rep.latency), rep.mlp, rep.nmlp, &rep.loaded, rep.floor_pct, &a);
	CHECK(a.lines[0].fig[1].differs && strstr(a.lines[0].fig[1].reason, "page backing"), "reason '%s'",
	      a.lines[0].fig[1].reason);
	/* loaded's lead-in: 2048 untimed loads over 128 MiB is warm-up. */
	setup();
	rep.loaded.hops = 8192;
	rep.loaded.idle_latency_ns = 190.0;
	agreement_compute(curve_of(&rep.latency), rep.mlp, rep.nmlp, &rep.loaded, rep.floor_pct, &a);
	CHECK(a.lines[1].fig[1].differs && strstr(a.lines[1].fig[1].reason, "warm-up"), "reason '%s'",
	      a.lines[1].fig[1].reason);
	CHECK(strstr(a.lines[1].fig[1].reason, "load:") == NULL, "no generators, yet 'load' named");
	/* A set latency did not measure: the nearest, and the reason says so. */
	setup();
	rep.loaded.chase_bytes = (size_t)512 << 20;
	rep.loaded.idle_latency_ns = 120.0;
	agreement_compute(curve_of(&rep.latency), rep.mlp, rep.nmlp, &rep.loaded, rep.floor_pct, &a);
	CHECK(a.nlines >= 1 && a.lines[0].nfig == 3 && a.lines[0].fig[2].differs &&
	      strstr(a.lines[0].fig[2].reason, "different working set"), "nearest set: %u figures, '%s'",
	      a.lines[0].nfig, a.lines[0].nfig == 3 ? a.lines[0].fig[2].reason : "");
}

/* Two-sided: a figure faster than latency's beyond the floor differs as
 * much as a slower one (a curve that reads too slow would otherwise hide
 * behind every other section reading "faster"); within the floor either
 * way agrees. Judged as the slower over the faster, so the verdict does not
 * depend on which figure is the reference. */
TEST(agree_is_two_sided_a_faster_figure_differs_too)
{
	static struct agreement_result a;
	static const struct {
		double mlp_ns;
		bool differs;
	} cases[] = {{170.0 * 1.20, true}, {170.0 / 1.20, true}, {170.0 * 1.04, false}, {170.0 / 1.04, false},
		     {170.0 / 1.06, true}};

	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		setup();
		rep.mlp[0].sweep[0].ns_per_access = cases[c].mlp_ns;
		agreement_compute(curve_of(&rep.latency), rep.mlp, rep.nmlp, &rep.loaded, rep.floor_pct, &a);
		CHECK(a.lines[0].fig[1].differs == cases[c].differs, "mlp K=1 at %.1f ns against 170: %s (diff %+.1f%%)",
		      cases[c].mlp_ns, a.lines[0].fig[1].differs ? "differs" : "agrees", a.lines[0].fig[1].diff_pct);
		CHECK(!cases[c].differs || a.lines[0].fig[1].reason[0], "a difference without a reason");
	}
}

/* The row chase makes beside setup()'s curve (no other section's
 * figures), NULL when none was made. */
static const struct agreement_figure *chase_row(struct agreement_result *a, const struct agreement_chase *chase)
{
	setup();
	agreement_compute(curve_of(&rep.latency), NULL, 0, NULL, rep.floor_pct, a);
	agreement_add_chases(a, curve_of(&rep.latency), chase, 1);
	for (unsigned i = 0; i < a->nlines; i++)
		for (unsigned j = 1; j < a->lines[i].nfig; j++)
			if (!strcmp(a->lines[i].fig[j].section, chase->section))
				return &a->lines[i].fig[j];
	return NULL;
}

/* The app's chase reference joins the block: its t(1) at the kernel's
 * footprint and pages beside latency's curve there, two-sided. A chase at
 * 289.8 ns where the curve reads 150 differs (as app hash read at 64 MiB);
 * one 25% faster differs too; one within the floor agrees. */
TEST(agree_app_chase_reference_is_compared_with_the_curve_both_ways)
{
	static struct agreement_result a;
	static const struct {
		double ns;
		bool differs;
	} cases[] = {{289.8, true}, {150.0 / 1.25, true}, {153.0, false}};

	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct agreement_chase chase = {.section = "app hash chase", .ns = cases[c].ns,
						      .set_bytes = (size_t)128 << 20, .huge = true, .huge_fraction = 1.0,
						      .lead_in_loads = (double)((size_t)128 << 20)};
		const struct agreement_figure *g = chase_row(&a, &chase);

		CHECK(g, "no app hash chase row");
		if (!g)
			continue;
		CHECK(g->differs == cases[c].differs, "chase %.1f ns against the curve's 150: %s", cases[c].ns,
		      g->differs ? "differs" : "agrees");
		CHECK(!g->differs || g->reason[0], "a difference without a reason");
	}
}

/* A figure timed right after traffic (multicore's T = 1, K = 1 follows the
 * sweep's largest point each trial) is set beside the curve like any chase;
 * the state it was timed in is named only where it could be the cause, when
 * the figure reads faster beyond the floor, never when it reads slower; a
 * lead-in under one load per 4 KiB of its set is named as a warm-up cause. */
TEST(agree_a_chase_timed_after_traffic_names_that_state_only_when_faster)
{
	static struct agreement_result a;
	static const struct {
		double ns, lead_in;
		bool differs, names_state, names_warm_up;
	} cases[] = {
		{150.0 / 1.15, 32768, true, true, false},
		{150.0 * 1.15, 32768, true, false, false},
		{150.0 / 1.02, 32768, false, false, false},
		{150.0 / 1.15, 1024, true, true, true},
	};

	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct agreement_chase chase = {
			.section = "multicore T=1 K=1", .ns = cases[c].ns, .set_bytes = (size_t)128 << 20, .huge = true,
			.huge_fraction = 1.0, .lead_in_loads = cases[c].lead_in,
			.faster_state = "each trial right after T = 2, K = 48's traffic"};
		const struct agreement_figure *g = chase_row(&a, &chase);

		CHECK(g, "case %u: no multicore row", c);
		if (!g)
			continue;
		CHECK(g->differs == cases[c].differs, "case %u: %.1f ns against 150: %s", c, cases[c].ns,
		      g->differs ? "differs" : "agrees");
		CHECK(!!strstr(g->reason, "right after T = 2") == cases[c].names_state,
		      "case %u: the state %s named: '%s'", c, cases[c].names_state ? "not" : "", g->reason);
		CHECK(!!strstr(g->reason, "untimed loads") == cases[c].names_warm_up, "case %u: warm-up: '%s'", c,
		      g->reason);
		CHECK(!g->differs || g->reason[0], "case %u: a difference without a reason", c);
	}
}
