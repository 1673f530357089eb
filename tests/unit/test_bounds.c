/*
 * Physical bounds on derived figures: the rule (core/bounds.h) and, per
 * section, a planted impossible timing fed through the section's analysis
 * seam (synthetic trials, no run) seen marked, written with its flag and
 * left out of the fit, and a possible curve seen plain.
 */
#include "../harness.h"
#include "../memout.h"

#include "core/bounds.h"
#include "exp/app/app.h"
#include "exp/bandwidth.h"
#include "exp/loaded.h"
#include "exp/mlp.h"
#include "exp/multicore.h"
#include "exp/tlb.h"
#include "report/app_out.h"
#include "report/bandwidth_out.h"
#include "report/loaded_out.h"
#include "report/mlp_out.h"
#include "report/multicore_out.h"
#include "report/tlb_out.h"
#include "report/summary.h"
#include "frame/registry.h"
#include "util/jsonr.h"
#include "util/jsonw.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

TEST(bounds_rule_allows_the_floor_and_no_more)
{
	CHECK(!bounds_exceeded(8.0, 8.0, 2.0) && !bounds_exceeded(8.15, 8.0, 2.0), "within the floor marked");
	CHECK(bounds_exceeded(8.2, 8.0, 2.0), "8.2 above 8 + 2%% not marked");
	CHECK(!bounds_exceeded(8.0 * (1 + BOUNDS_UNKNOWN_FLOOR_PCT / 100) - 1e-9, 8.0, NAN) &&
		      bounds_exceeded(8.0 * (1 + BOUNDS_UNKNOWN_FLOOR_PCT / 100) + 1e-9, 8.0, NAN),
	      "no floor measured: not the assumed one");
	CHECK(bounds_exceeded(8.01, 8.0, -5.0), "a negative floor widened the bound");
	CHECK(!bounds_exceeded(NAN, 8.0, 2.0) && !bounds_exceeded(INFINITY, 8.0, 2.0) &&
		      !bounds_exceeded(9.0, NAN, 2.0) && !bounds_exceeded(9.0, 0.0, 2.0),
	      "a figure that cannot be judged was marked");
	CHECK(fabs(bounds_limit(8.0, 2.0) - 8.16) < 1e-12 && bounds_limit(8.0, -1) == 8.0, "limit %g",
	      bounds_limit(8.0, 2.0));
}

/* A lanes curve t(K) = max(L/K, L/Ks) with a small alternating jitter, two
 * groups of three trials per point so the floor is measured. */
#define SYN_L_NS 100.0
#define SYN_KS 10.0
#define SYN_POINTS 24
#define SYN_TRIALS 6

static void synthetic_sweep(struct mlp_result *r)
{
	memset(r, 0, sizeof(*r));
	r->npoints = SYN_POINTS;
	r->line_bytes = 64;
	for (unsigned i = 0; i < SYN_POINTS; i++) {
		double k = i + 1, t = fmax(SYN_L_NS / k, SYN_L_NS / SYN_KS);

		r->sweep[i].trials_ns = calloc(SYN_TRIALS, sizeof(double));
		for (unsigned j = 0; j < SYN_TRIALS; j++)
			r->sweep[i].trials_ns[j] = t * (1.0 + 0.002 * (double)((i + j) % 3));
		r->sweep[i].ntrials = SYN_TRIALS;
	}
}

/* Every trial of point K (1-based) times ns. */
static void plant(struct mlp_result *r, unsigned k, double ns)
{
	for (unsigned j = 0; j < SYN_TRIALS; j++)
		r->sweep[k - 1].trials_ns[j] = ns * (1.0 + 0.001 * j);
}

static char *mlp_outputs(const struct mlp_result *r, char **json)
{
	struct mlp_arms *a = calloc(1, sizeof(*a));
	char *text;

	a->n = 1;
	a->arm[0] = *r;
	text = SECTION_OUTPUTS(mlp_write_text, mlp_write_json, a, "mlp", json);
	free(a);
	return text;
}

/* "nan" or "inf" as a word (not "inference"), any case. */
static bool has_nan(const char *s)
{
	for (const char *p = s; *p; p++)
		if ((!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3)) && (p == s || !isalpha((unsigned char)p[-1])) &&
		    !isalpha((unsigned char)p[3]))
			return true;
	return false;
}

TEST(mlp_planted_speedup_above_k_is_marked_and_left_out_of_the_fit)
{
	static struct mlp_result clean, r;
	char *json = NULL, *text;

	synthetic_sweep(&clean);
	mlp_analyse(&clean, 1, SYN_TRIALS, NAN);
	/* K = 8 at a third of the plateau's time: t(1)/t(8) = 30, nearly 4x
	 * what 8 lanes can overlap, and faster than every other K. */
	synthetic_sweep(&r);
	plant(&r, 8, SYN_L_NS / 30.0);
	mlp_analyse(&r, 1, SYN_TRIALS, NAN);
	CHECK(isfinite(r.noise_floor_pct) && r.noise_floor_pct < 5, "floor %g", r.noise_floor_pct);
	CHECK(r.sweep[7].impossible && r.nimpossible == 1, "K=8 speedup %.2f: marked %d, %u marked",
	      r.sweep[7].speedup, r.sweep[7].impossible, r.nimpossible);
	CHECK(!clean.nimpossible, "the clean curve had %u marked", clean.nimpossible);
	/* Left out: peak, plateau and the fit are the clean curve's. */
	CHECK(r.estimate.peak_lanes != 8 && r.estimate.peak_concurrency <= r.estimate.peak_lanes * 1.05,
	      "peak %.2f at K=%u", r.estimate.peak_concurrency, r.estimate.peak_lanes);
	CHECK(r.estimate.plateau_from_lanes == clean.estimate.plateau_from_lanes,
	      "plateau from K=%u, clean %u", r.estimate.plateau_from_lanes, clean.estimate.plateau_from_lanes);
	CHECK(fabs(r.estimate.fit_saturation_lanes - clean.estimate.fit_saturation_lanes) < 0.5 &&
		      fabs(r.estimate.fit_saturation_lanes - SYN_KS) < 0.5,
	      "Ks %.2f, clean %.2f", r.estimate.fit_saturation_lanes, clean.estimate.fit_saturation_lanes);
	text = mlp_outputs(&r, &json);
	CHECK(strstr(text, "IMPOSSIBLE: t1/tK above K = 8"), "the row is not marked:\n%s", text);
	CHECK(strstr(text, "from 23 of the 24 K"), "the estimate does not say what it left out");
	CHECK(strstr(json, "\"impossible\": true") && strstr(json, "\"speedup_bound\": 8") &&
		      strstr(json, "\"impossible_points\": 1"),
	      "the JSON has no flag");
	CHECK(!has_nan(text) && !has_nan(json), "NaN or inf written");
	free(text);
	free(json);
	mlp_result_free(&r);
	mlp_result_free(&clean);
}

TEST(mlp_possible_curve_stays_plain)
{
	static struct mlp_result r;
	char *json = NULL, *text;

	/* At the bound: t(1)/t(K) = K exactly up to Ks, with the jitter. */
	synthetic_sweep(&r);
	mlp_analyse(&r, 1, SYN_TRIALS, NAN);
	CHECK(r.nimpossible == 0, "%u marked", r.nimpossible);
	for (unsigned i = 0; i < r.npoints; i++)
		CHECK(!r.sweep[i].impossible, "K=%u (speedup %.3f) marked", i + 1, r.sweep[i].speedup);
	text = mlp_outputs(&r, &json);
	CHECK(!strstr(text, "IMPOSSIBLE") && !strstr(json, "\"impossible\": true") &&
		      strstr(json, "\"impossible_points\": 0"),
	      "a possible curve printed marked");
	free(text);
	free(json);
	mlp_result_free(&r);
}

/* The control arm at K = 1, 2, 4 ... 32: one chain, each trial ns at K = 1
 * and ns / faster after each lanes point. */
static void synthetic_control(struct mlp_result *r, double ns, double faster)
{
	r->ncontrol = 6;
	for (unsigned c = 0; c < r->ncontrol; c++) {
		r->control[c].trials_ns = calloc(SYN_TRIALS, sizeof(double));
		for (unsigned j = 0; j < SYN_TRIALS; j++)
			r->control[c].trials_ns[j] = (c ? ns / faster : ns) * (1.0 + 0.001 * j);
		r->control[c].ntrials = SYN_TRIALS;
	}
}

/* The Zen 5 guest's state: a load got faster after traffic, so every
 * loaded K ran 1.2x faster than K lanes of the idle latency overlap. The
 * marks stand and the report names the state, from the control arm; with
 * a control that ran alike at every K, a planted point is marked and no
 * state named; nor with one that ran faster after one K and slower after
 * another. */
TEST(mlp_latency_falling_after_traffic_is_named_beside_the_marks)
{
	static struct mlp_result r, plain;
	char *json = NULL, *text;
	double fall;
	unsigned at;

	synthetic_sweep(&r);
	for (unsigned k = 2; k < SYN_KS; k++)
		plant(&r, k, SYN_L_NS / (1.2 * k));
	synthetic_control(&r, SYN_L_NS, 1.2);
	mlp_analyse(&r, 1, SYN_TRIALS, NAN);
	CHECK(r.nimpossible >= 6, "%u marked", r.nimpossible);
	CHECK(mlp_latency_falls_after_traffic(&r, &fall, &at) && fabs(fall - 1.2) < 0.01 && at == 2,
	      "the fall %.3f after K = %u not found", fall, at);
	text = mlp_outputs(&r, &json);
	CHECK(strstr(text, "the state: the control ran 1.20x its K = 1 speed right after K = 2 lanes"),
	      "the state is not named:\n%s", text);
	free(text);
	free(json);
	synthetic_sweep(&plain);
	plant(&plain, 8, SYN_L_NS / 30.0);
	synthetic_control(&plain, SYN_L_NS, 1.0);
	mlp_analyse(&plain, 1, SYN_TRIALS, NAN);
	CHECK(plain.nimpossible == 1 && !mlp_latency_falls_after_traffic(&plain, &fall, &at),
	      "%u marked, a fall of %.3f named", plain.nimpossible, fall);
	text = mlp_outputs(&plain, &json);
	CHECK(strstr(text, "IMPOSSIBLE: 1 speedup") && !strstr(text, "the state:"), "a state named:\n%s", text);
	free(text);
	free(json);
	/* A control that ran 1.2x faster after K = 2 but 2.6x slower after K = 4
	 * (a neighbour, a translation edge): erratic, no state named. */
	for (unsigned j = 0; j < SYN_TRIALS; j++)
		r.control[2].trials_ns[j] = SYN_L_NS * 2.6 * (1.0 + 0.001 * j);
	mlp_analyse(&r, 1, SYN_TRIALS, NAN);
	CHECK(!mlp_latency_falls_after_traffic(&r, &fall, &at), "an erratic control named a fall of %.3f after K = %u",
	      fall, at);
	mlp_result_free(&r);
	mlp_result_free(&plain);
}

/* One variant of K in {1, 2, 4, 8} against a chase, its trials given. */
static void synthetic_app(struct app_kernel_result *k, const double *ns, bool chase_impossible_at_8)
{
	static const unsigned ks[] = {1, 2, 4, 8};
	struct app_chase *c = &k->chase;
	struct app_variant *v;

	memset(k, 0, sizeof(*k));
	k->kernel = "hash";
	k->trials = 3;
	k->warmth = "warm";
	k->check.ok = true;
	k->check.what = "synthetic";
	k->nvariants = 1;
	v = &k->variants[0];
	v->name = "lanes";
	v->what = "synthetic";
	v->npoints = 4;
	c->ran = true;
	c->latency_ns = 100;
	c->noise_floor_pct = 2.0;
	c->knee_k = 4;
	c->npoints = 4;
	for (unsigned i = 0; i < 4; i++) {
		struct app_point *pt = &v->points[i];

		pt->k = ks[i];
		pt->loads_per_item = 1;
		pt->dependent_loads_per_item = 1;
		pt->ntrials = 3;
		for (unsigned j = 0; j < 3; j++)
			pt->trials_ns[j] = ns[i] * (1.0 + 0.001 * j);
		c->k[i] = ks[i];
		c->ns_per_access[i] = 100.0 / ks[i];
		c->speedup[i] = ks[i];
	}
	if (chase_impossible_at_8) {
		c->speedup[3] = 30.75;
		c->impossible[3] = true;
		c->nimpossible = 1;
	}
}

static char *app_outputs(const struct app_kernel_result *k, char **json)
{
	static struct app_result res;

	res.nkernels = 1;
	res.kernels[0] = *k;
	return SECTION_OUTPUTS(app_write_text, app_write_json, &res, "app", json);
}

TEST(app_planted_speedup_above_k_is_marked_and_left_out_of_the_knee)
{
	static struct app_kernel_result k, clean;
	/* K = 4 at 100/9: S_app = 9 from 4 lanes. */
	const double planted[] = {100, 50, 100.0 / 9, 12.5}, possible[] = {100, 50, 25, 25};
	struct app_params p = {0};
	char *json = NULL, *text;

	synthetic_app(&clean, possible, false);
	app_finish(&p, &clean);
	synthetic_app(&k, planted, true);
	k.chase.control_fall = 1.2;
	k.chase.control_fall_k = 2;
	app_finish(&p, &k);
	CHECK(k.variants[0].points[2].impossible && k.variants[0].nimpossible == 1, "S_app %.2f at K=4 not marked",
	      k.variants[0].points[2].speedup);
	CHECK(k.variants[0].points[3].chase_impossible && k.headline_impossible, "the chase's mark did not reach "
	      "the point and the headline");
	/* Without K = 4 the plateau starts at K = 8 (12.5 ns), not at the planted 11.1. */
	CHECK(k.variants[0].plateau_k == 8, "plateau from K=%u", k.variants[0].plateau_k);
	CHECK(isfinite(k.variants[0].knee_k) && k.variants[0].knee_k <= 8.0, "knee %g", k.variants[0].knee_k);
	text = app_outputs(&k, &json);
	CHECK(strstr(text, "IMPOSSIBLE: S_app above K") && strstr(text, "IMPOSSIBLE: S_chase above K") &&
		      strstr(text, "[IMPOSSIBLE: a speedup above K = 8]"),
	      "not marked in the text:\n%s", text);
	CHECK(strstr(json, "\"impossible\": true") && strstr(json, "\"chase_impossible\": true") &&
		      strstr(json, "\"speedup_bound\": 4"),
	      "no flag in the JSON");
	/* The cause the chase's control arm showed, named beside the marks. */
	CHECK(strstr(text, "the state: the chase's control ran 1.20x its K = 1 speed right after K = 2 lanes") &&
		      strstr(json, "\"control_speedup\": 1.2") && strstr(json, "\"after_k\": 2"),
	      "the state is not named:\n%s", text);
	free(text);
	free(json);
	CHECK(!clean.variants[0].nimpossible && !clean.headline_impossible && clean.variants[0].plateau_k == 4,
	      "the possible curve: %u marked, plateau from K=%u", clean.variants[0].nimpossible,
	      clean.variants[0].plateau_k);
	text = app_outputs(&clean, &json);
	CHECK(!strstr(text, "IMPOSSIBLE") && !strstr(json, "impossible\": true"), "a possible curve printed marked");
	CHECK(!strstr(text, "the state:") && strstr(json, "\"latency_falls_after_traffic\": null"),
	      "a state named where the control showed none");
	free(text);
	free(json);
}

/* One kernel at 1 and 2 threads, the 2-thread figure given; the JSON the
 * section writes, and the summary read from it. */
static void synthetic_bandwidth(struct bandwidth_result *r, struct bandwidth_point *pts, double two_gbps)
{
	const struct stream_kernel *all[64];
	const struct stream_kernel *read = NULL;
	size_t n = stream_kernels(all, 64);
	static double per_thread[2][2];

	for (size_t i = 0; i < n && !read; i++)
		if (all[i]->op == STREAM_READ)
			read = all[i];
	memset(r, 0, sizeof(*r));
	memset(pts, 0, 2 * sizeof(*pts));
	r->nkernels = 1;
	r->kernels[0] = read;
	r->ncounts = 2;
	r->thread_counts[0] = 1;
	r->thread_counts[1] = 2;
	r->npoints = 2;
	r->points = pts;
	r->trials = 3;
	r->noise_floor_pct = 2.0;
	r->overlap_min_pct = 99.0;
	r->overlap_ok = true;
	r->read_scaling = NAN;
	for (unsigned i = 0; i < 2; i++) {
		pts[i].kernel = read;
		pts[i].threads = i + 1;
		pts[i].gbps = i ? two_gbps : 7.75;
		pts[i].per_thread_gbps = per_thread[i];
		pts[i].ntrials = 3;
		for (unsigned t = 0; t < 3; t++)
			pts[i].trials_gbps[t] = pts[i].gbps * (1.0 - 0.001 * t);
	}
}

static char *bandwidth_outputs(const struct bandwidth_result *r, char **json)
{
	return SECTION_OUTPUTS(bandwidth_write_text, bandwidth_write_json, r, "bandwidth", json);
}

/* The summary's 2-thread read figure from the JSON, NaN when it has none. */
static double summary_two_thread_read(const char *json)
{
	static struct summary s;
	struct jsonr_doc doc = {0};
	char err[128];
	const struct summary_figure *g;
	double v = NAN;

	if (jsonr_parse(json, strlen(json), 0, &doc, err, sizeof(err)))
		return -1;
	summary_build(registry_views(), doc.root, &s);
	if ((g = summary_find(&s, "read_gbps_all_threads")))
		v = g->value;
	jsonr_free(&doc);
	return v;
}

TEST(bandwidth_planted_figure_above_threads_times_one_is_marked_and_left_out)
{
	static struct bandwidth_result r;
	static struct bandwidth_point pts[2];
	char *json = NULL, *text;

	/* 64.1 GB/s on two threads where one streams 7.75: 8.3x from 2x. */
	synthetic_bandwidth(&r, pts, 64.1);
	CHECK(r.kernels[0], "no read kernel in this build");
	CHECK(bandwidth_check_bounds(&r) == 1 && pts[1].impossible && !pts[0].impossible, "not marked");
	CHECK(fabs(pts[1].bound_gbps - 15.5) < 1e-9, "bound %g", pts[1].bound_gbps);
	text = bandwidth_outputs(&r, &json);
	CHECK(strstr(text, "IMPOSSIBLE: above 2 x 1 thread (bound 15.50 GB/s)"), "not marked in the text:\n%s", text);
	CHECK(strstr(json, "\"impossible\": true") && strstr(json, "\"bound_gbps\": 15.5"), "no flag in the JSON");
	CHECK(isnan(summary_two_thread_read(json)), "the summary took the impossible figure");
	free(text);
	free(json);

	synthetic_bandwidth(&r, pts, 14.9);
	CHECK(bandwidth_check_bounds(&r) == 0 && !pts[1].impossible, "a possible 2-thread figure was marked");
	text = bandwidth_outputs(&r, &json);
	CHECK(!strstr(text, "IMPOSSIBLE") && !strstr(json, "\"impossible\""), "a possible figure printed marked");
	CHECK(summary_two_thread_read(json) == 14.9, "the summary lost the possible figure");
	free(text);
	free(json);
}

/* One read curve: full load (delay 0) delivering delivered_gbps where the
 * generators alone offered 1.88, two lighter points and idle. */
static void synthetic_loaded(struct loaded_result *r, double delivered_gbps)
{
	struct loaded_curve *c = &r->curves[0];

	memset(r, 0, sizeof(*r));
	r->generators = 1;
	r->ncurves = 1;
	r->noise_floor_pct = 2.0;
	r->idle_latency_ns = 100;
	r->bw_definition = "synthetic";
	c->name = "read";
	c->npoints = 4;
	c->idle_latency_ns = 100;
	c->points[0] = (struct loaded_point){.delay_ns = 0, .offered_gbps = 1.88, .bw_gbps = delivered_gbps,
					     .latency_ns = 300};
	c->points[1] = (struct loaded_point){.delay_ns = 10, .offered_gbps = 1.5, .bw_gbps = 1.4, .latency_ns = 150};
	c->points[2] = (struct loaded_point){.delay_ns = 100, .offered_gbps = 0.3, .bw_gbps = 0.3, .latency_ns = 110};
	c->points[3] = (struct loaded_point){.idle = true, .delay_ns = NAN, .latency_ns = 100};
	for (unsigned i = 0; i < 4; i++) {
		c->points[i].ntrials = 1;
		c->points[i].trials_latency_ns[0] = c->points[i].latency_ns;
		c->points[i].trials_bw_gbps[0] = c->points[i].bw_gbps;
	}
}

static char *loaded_outputs(const struct loaded_result *r, char **json)
{
	return SECTION_OUTPUTS(loaded_write_text, loaded_write_json, r, "loaded", json);
}

TEST(loaded_planted_delivery_above_the_offer_is_marked_and_left_out_of_the_knee)
{
	static struct loaded_result r;
	char *json = NULL, *text;

	/* 5.62 GB/s delivered where the generators alone offered 1.88. */
	synthetic_loaded(&r, 5.62);
	CHECK(loaded_check_bounds(&r) == 1 && r.curves[0].points[0].impossible, "not marked");
	loaded_find_double(&r.curves[0]);
	/* Its 300 ns would be the doubling; without it the curve reaches 1.5x. */
	CHECK(!r.curves[0].double_reached && fabs(r.curves[0].max_latency_ratio - 1.5) < 1e-9,
	      "the impossible point made the knee: reached %d at %.2f, max x%.2f", r.curves[0].double_reached,
	      r.curves[0].bw_at_double_latency_gbps, r.curves[0].max_latency_ratio);
	text = loaded_outputs(&r, &json);
	CHECK(strstr(text, "IMPOSSIBLE: delivered above offered (bound 1.88 GB/s)"), "not marked:\n%s", text);
	CHECK(strstr(json, "\"impossible\": true") && strstr(json, "\"bound_gbps\": 1.88"), "no flag in the JSON");
	free(text);
	free(json);

	/* Within its offer, above what the run's streams ever drew. */
	synthetic_loaded(&r, 1.85);
	r.stream_peak_gbps = 1.6;
	CHECK(loaded_check_bounds(&r) == 1 && r.curves[0].points[0].bound_gbps == 1.6, "the stream peak bounds nothing");
	text = loaded_outputs(&r, &json);
	CHECK(strstr(text, "IMPOSSIBLE: delivered above the run's stream peak (bound 1.60 GB/s)"), "not marked:\n%s", text);
	free(text);
	free(json);

	synthetic_loaded(&r, 1.85);
	CHECK(loaded_check_bounds(&r) == 0, "a delivery within its offer was marked");
	loaded_find_double(&r.curves[0]);
	CHECK(r.curves[0].double_reached, "the possible full-load point is not the knee");
	text = loaded_outputs(&r, &json);
	CHECK(!strstr(text, "IMPOSSIBLE") && !strstr(json, "\"impossible\""), "a possible point printed marked");
	free(text);
	free(json);
}

/* A small-page series of two steps, the second extra_ns given. */
static void synthetic_tlb(struct tlb_result *r, double second_extra_ns)
{
	struct tlb_series *s = &r->series[0];

	memset(r, 0, sizeof(*r));
	r->nseries = 1;
	r->stride_bytes = TLB_STRIDE_BYTES;
	r->noise_floor_pct = 2.0;
	r->tolerance_pct = 10.0;
	r->trials = 3;
	s->page_bytes = TLB_STRIDE_BYTES;
	s->npoints = 3;
	for (unsigned i = 0; i < 3; i++) {
		s->points[i].pages = 32u << (5 * i);
		s->points[i].page_bytes = TLB_STRIDE_BYTES;
		s->points[i].control_ns = 1.5;
		s->points[i].extra_ns = i == 0 ? 0 : i == 1 ? 2.0 : second_extra_ns;
		s->points[i].ns_per_load = s->points[i].control_ns + s->points[i].extra_ns;
	}
	s->nlevels = 2;
	s->levels[0] = (struct tlb_level){.entries = 64, .reach_bytes = 64 * 4096, .page_bytes = 4096, .extra_ns = 2.0};
	s->levels[1] = (struct tlb_level){.entries = 1448, .reach_bytes = 1448 * 4096, .page_bytes = 4096,
					  .extra_ns = second_extra_ns};
	s->walk_ns = second_extra_ns;
	s->max_extra_ns = second_extra_ns;
	s->walk_on_plateau = true;
}

static char *tlb_outputs(const struct tlb_result *r, char **json)
{
	return SECTION_OUTPUTS(tlb_write_text, tlb_write_json, r, "tlb", json);
}

/* Whether the summary read from the JSON shows the TLB level of that name. */
static bool summary_has(const char *json, const char *name)
{
	static struct summary s;
	struct jsonr_doc doc = {0};
	char err[128];
	bool has;

	if (jsonr_parse(json, strlen(json), 0, &doc, err, sizeof(err)))
		return false;
	summary_build(registry_views(), doc.root, &s);
	has = summary_find(&s, name) != NULL;
	jsonr_free(&doc);
	return has;
}

TEST(tlb_planted_step_above_what_translation_can_cost_is_marked_and_left_out)
{
	static struct tlb_result r;
	char *json = NULL, *text;

	/* +700 ns per load where memory itself reads 160 ns: over four
	 * memory accesses for a translation. */
	synthetic_tlb(&r, 700);
	CHECK(tlb_check_bounds(&r, 160) == 1 && r.series[0].levels[1].impossible && !r.series[0].levels[0].impossible,
	      "not marked");
	text = tlb_outputs(&r, &json);
	CHECK(strstr(text, "IMPOSSIBLE: above what translation can add to a load, 3 memory accesses (480.0 ns)"),
	      "not marked:\n%s", text);
	CHECK(strstr(json, "\"impossible\": true") && strstr(json, "\"bound_ns\": 480"), "no flag in the JSON");
	CHECK(summary_has(json, "tlb_small_level1_entries") && !summary_has(json, "tlb_small_level2_entries"),
	      "the summary kept the impossible step or lost the possible one");
	free(text);
	free(json);

	/* +441 ns against 286 ns of memory: read on a 2-vCPU guest (nested
	 * paging), dear but possible. */
	synthetic_tlb(&r, 441);
	CHECK(tlb_check_bounds(&r, 286) == 0, "a 441 ns step under a 286 ns memory latency was marked");
	text = tlb_outputs(&r, &json);
	CHECK(!strstr(text, "IMPOSSIBLE") && !strstr(json, "\"impossible\"") && summary_has(json, "tlb_small_level2_entries"),
	      "a possible step printed marked");
	free(text);
	free(json);
	synthetic_tlb(&r, 700);
	CHECK(tlb_check_bounds(&r, NAN) == 0 && r.step_bound_ns == 0, "judged with no memory latency");
}

/* T = 1 and 2, K = 1..4, t1_single 100 ns, every point at its bound but
 * T = 2, K = 2, which takes rate_at_2_2 accesses per ns. */
static void synthetic_multicore(struct multicore_result *r, struct multicore_point *pts, double rate_at_2_2)
{
	memset(r, 0, sizeof(*r));
	memset(pts, 0, 8 * sizeof(*pts));
	r->ncounts = 2;
	r->thread_counts[0] = 1;
	r->thread_counts[1] = 2;
	r->max_lanes = 4;
	r->npoints = 8;
	r->points = pts;
	r->trials = 3;
	r->noise_floor_pct = 2.0;
	r->concurrency_definition = "synthetic";
	r->pages_requested = "small";
	for (unsigned i = 0; i < 8; i++) {
		struct multicore_point *pt = &pts[i];
		double rate;

		pt->threads = i / 4 + 1;
		pt->lanes = i % 4 + 1;
		rate = pt->threads == 2 && pt->lanes == 2 ? rate_at_2_2 : 0.01 * pt->threads * pt->lanes;
		pt->ntrials = 3;
		for (unsigned t = 0; t < 3; t++) {
			pt->trials_rate[t] = rate * (1.0 - 0.001 * t);
			pt->trials_slowest_ns[t] = pt->lanes / rate;
		}
	}
}

TEST(multicore_planted_concurrency_above_t_times_k_is_marked_and_left_out)
{
	static struct multicore_result r;
	static struct multicore_point pts[8];
	char *text, *json;

	/* 0.09 accesses/ns at T = 2, K = 2: concurrency 9 from 4 lanes. */
	synthetic_multicore(&r, pts, 0.09);
	CHECK(multicore_analyse(&r) == 1 && pts[5].impossible, "not marked (concurrency %.2f)", pts[5].concurrency_total);
	CHECK(r.sat[1].peak_lanes == 4 && fabs(r.sat[1].peak_accesses_per_ns - 0.08) < 1e-9,
	      "the impossible point is T = 2's peak: K = %u, %.4f/ns", r.sat[1].peak_lanes, r.sat[1].peak_accesses_per_ns);
	text = SECTION_OUTPUTS(multicore_write_text, multicore_write_json, &r, "multicore", &json);
	CHECK(strstr(text, "IMPOSSIBLE: above T x K = 4"), "not marked:\n%s", text);
	CHECK(strstr(json, "\"impossible\": true") && strstr(json, "\"concurrency_bound\": 4"), "no flag in the JSON");
	free(text);
	free(json);
	synthetic_multicore(&r, pts, 0.0405);
	CHECK(multicore_analyse(&r) == 0, "a concurrency within its floor was marked");
}
