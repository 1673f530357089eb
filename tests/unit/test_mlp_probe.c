/*
 * The lanes section's loaded probe through its seams, on synthetic timings
 * (no run): which K it picks, t_loaded and the ratio to idle, Little's law
 * against K, a planted time below idle marked (and one within the floor
 * left plain), and its text and JSON accepted by the result vetting.
 */
#include "../harness.h"

#include "analyse/vet.h"
#include "exp/mlp.h"
#include "report/mlp_out.h"
#include "util/jsonr.h"
#include "util/jsonw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Trials around base_ns, within spread_pct of it, the minimum exactly base. */
static void fill_trials(struct mlp_probe_point *pt, unsigned lanes, double base_ns, double lanes_ns)
{
	static const double wobble[MLP_PROBE_TRIALS] = {1.01, 1.0, 1.02, 1.015, 1.005, 1.01, 1.02, 1.0, 1.01};

	pt->lanes = lanes;
	pt->chosen_as = lanes ? "knee" : "idle";
	pt->ntrials = MLP_PROBE_TRIALS;
	for (unsigned t = 0; t < MLP_PROBE_TRIALS; t++) {
		pt->trials_ns[t] = base_ns * wobble[t];
		/* The lanes' rate read in the same window: slower where the probe was. */
		pt->trials_lanes_ns[t] = lanes ? lanes_ns * wobble[t] : NAN;
	}
}

/* Idle 100 ns; K = 1 at 104 ns, its lanes at 104 ns per access (N = 1);
 * K = 8 at 160 ns, lanes 20 ns (N = 8); K = 32 at 200 ns, lanes 10 ns
 * (N = 20: twelve lanes wait inside their own core). */
static void plant_curve(struct mlp_probe *pr)
{
	memset(pr, 0, sizeof(*pr));
	pr->state = MLP_PROBE_MEASURED;
	pr->sharing = "separate cores";
	pr->sweep_t1_ns = 101;
	fill_trials(&pr->idle, 0, 100, NAN);
	fill_trials(&pr->points[0], 1, 104, 104);
	fill_trials(&pr->points[1], 8, 160, 20);
	fill_trials(&pr->points[2], 32, 200, 10);
	pr->npoints = 3;
}

TEST(mlp_probe_picks_one_lane_the_knee_and_the_largest_once_each)
{
	unsigned k[MLP_PROBE_KS];
	const char *why[MLP_PROBE_KS];

	CHECK(mlp_probe_pick_lanes(24, 16, k, why) == 3 && k[0] == 1 && k[1] == 16 && k[2] == 24, "1, 16, 24");
	CHECK(!strcmp(why[1], "knee") && !strcmp(why[2], "max"), "named %s, %s", why[1], why[2]);
	CHECK(mlp_probe_pick_lanes(8, 8, k, why) == 2 && k[1] == 8 && !strcmp(why[1], "knee"), "knee at the max once");
	CHECK(mlp_probe_pick_lanes(8, 0, k, why) == 2 && k[0] == 1 && k[1] == 8, "no knee: 1 and the max");
	CHECK(mlp_probe_pick_lanes(1, 1, k, why) == 1 && k[0] == 1, "one point swept: K = 1 alone");
	CHECK(mlp_probe_pick_lanes(0, 0, k, why) == 0, "nothing swept: nothing probed");
}

TEST(mlp_probe_ratio_and_littles_law_from_synthetic_timings)
{
	static struct mlp_probe pr;

	plant_curve(&pr);
	mlp_probe_analyse(&pr, NAN);
	CHECK(!pr.floor_from_run && pr.noise_floor_pct > 0 && pr.noise_floor_pct < 3, "own floor %.2f%%",
	      pr.noise_floor_pct);
	CHECK(pr.idle.t_loaded_ns == 100 && pr.points[2].t_loaded_ns == 200, "minima %.1f %.1f", pr.idle.t_loaded_ns,
	      pr.points[2].t_loaded_ns);
	CHECK(fabs(pr.points[1].ratio_to_idle - 1.6) < 1e-9, "ratio %.3f", pr.points[1].ratio_to_idle);
	CHECK(pr.points[0].little == MLP_PROBE_LITTLE_AGREES && pr.points[1].little == MLP_PROBE_LITTLE_AGREES,
	      "N = K below the knee: %s, %s", mlp_probe_little_name(pr.points[0].little),
	      mlp_probe_little_name(pr.points[1].little));
	CHECK(fabs(pr.points[2].littles_law_concurrency - 20) < 1e-9 && pr.points[2].little == MLP_PROBE_LITTLE_BELOW,
	      "N %.1f at K = 32: %s", pr.points[2].littles_law_concurrency, mlp_probe_little_name(pr.points[2].little));
	CHECK(pr.nimpossible == 0, "%u marked on a possible curve", pr.nimpossible);
}

TEST(mlp_probe_planted_time_below_idle_is_marked_and_one_within_the_floor_is_not)
{
	static struct mlp_probe pr;

	plant_curve(&pr);
	fill_trials(&pr.points[1], 8, 60, 7.5);     /* 40% under idle: no busier memory answers sooner */
	fill_trials(&pr.points[2], 32, 99.5, 5);    /* half a percent under: within the floor */
	mlp_probe_analyse(&pr, NAN);
	CHECK(pr.points[1].impossible && pr.nimpossible == 1, "planted 60 ns under idle 100 ns: marked %d, count %u",
	      pr.points[1].impossible, pr.nimpossible);
	CHECK(pr.points[1].little == MLP_PROBE_LITTLE_NOT_JUDGED, "an impossible time judged by Little's law");
	CHECK(!pr.points[2].impossible, "99.5 ns against 100 ns marked with a %.2f%% floor", pr.noise_floor_pct);
}

TEST(mlp_probe_one_group_takes_the_runs_floor)
{
	static struct mlp_probe pr;

	plant_curve(&pr);
	pr.idle.ntrials = 3;
	for (unsigned i = 0; i < pr.npoints; i++)
		pr.points[i].ntrials = 3;
	mlp_probe_analyse(&pr, 7.0);
	CHECK(pr.floor_from_run && pr.noise_floor_pct == 7.0, "floor %.2f from run %d", pr.noise_floor_pct,
	      pr.floor_from_run);
}

/* The arm's text and JSON with pr as its probe; the JSON vetted. */
static int write_arm(const struct mlp_probe *pr, char **text, char *err, size_t errlen)
{
	struct mlp_arms *a = calloc(1, sizeof(*a));
	struct jsonr_doc doc = {0};
	char *json = NULL;
	size_t len = 0;
	struct jsonw w;
	FILE *f;
	int rc;

	if (!a)
		return -1;
	a->n = 1;
	a->arm[0].probe = *pr;
	a->arm[0].estimate.repeats = 1;   /* a sweep ran: the probe follows one */
	f = open_memstream(text, &len);
	mlp_write_text(a, f);
	fclose(f);
	f = open_memstream(&json, &len);
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	mlp_write_json(a, &w, "mlp");
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(f);
	rc = jsonr_parse(json, strlen(json), 0, &doc, err, errlen);
	if (!rc) {
		const struct jsonr_value *lp = jsonr_get(jsonr_get(doc.root, "mlp"), "loaded_probe");

		rc = vet_result(doc.root, "mlp", err, errlen);
		if (!rc && !lp) {
			snprintf(err, errlen, "no loaded_probe object");
			rc = -1;
		}
	}
	jsonr_free(&doc);
	free(json);
	free(a);
	return rc;
}

TEST(mlp_probe_text_and_json_pass_the_readers_with_the_mark)
{
	static struct mlp_probe pr;
	char *text = NULL, err[256] = "";

	plant_curve(&pr);
	fill_trials(&pr.points[1], 8, 60, 7.5);
	pr.probe_cpu = 0;
	pr.lanes_cpu = 1;
	mlp_probe_analyse(&pr, NAN);
	CHECK(write_arm(&pr, &text, err, sizeof(err)) == 0, "vetting refused: %s", err);
	CHECK(strstr(text, "IMPOSSIBLE") && strstr(text, "separate cores") && strstr(text, "below K"),
	      "text lacks the mark, the sharing or the verdict:\n%s", text);
	free(text);
	text = NULL;
	memset(&pr, 0, sizeof(pr));
	pr.state = MLP_PROBE_SKIPPED;
	snprintf(pr.why, sizeof(pr.why), "one CPU allowed");
	CHECK(write_arm(&pr, &text, err, sizeof(err)) == 0, "vetting refused the skipped probe: %s", err);
	CHECK(strstr(text, "skipped: one CPU allowed"), "skip not said:\n%s", text);
	free(text);
}

TEST(mlp_probe_a_window_with_the_lanes_descheduled_is_not_the_loaded_time)
{
	static struct mlp_probe pr;

	plant_curve(&pr);
	/* One window where another process took the lanes' CPU: the probe ran
	 * alone (idle speed), the lanes did a tenth of their work. */
	pr.points[2].trials_ns[4] = 100;
	pr.points[2].trials_lanes_ns[4] = 100;
	mlp_probe_analyse(&pr, NAN);
	CHECK(pr.points[2].t_loaded_ns == 200 && pr.points[2].lanes_ns_per_access == 10,
	      "took the unloaded window: %.1f ns, lanes %.1f ns", pr.points[2].t_loaded_ns,
	      pr.points[2].lanes_ns_per_access);
}
