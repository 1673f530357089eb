/*
 * Noise floors where a section has too few groups for its own: a --quick
 * sweep (one min-of-3 group per point) takes the run's floor and says so,
 * and nothing it writes, text or JSON, carries a NaN. Synthetic sweeps fed
 * through mlp_analyse and the mlp writers; no hardware.
 */
#include "../harness.h"
#include "../memout.h"

#include "core/stats.h"
#include "exp/mlp.h"
#include "report/mlp_out.h"
#include "report/summary.h"
#include "frame/registry.h"
#include "util/format.h"
#include "util/jsonr.h"
#include "util/jsonw.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "nan" or "inf" as a word of its own (not inside "nanoseconds"). */
static bool has_non_finite_word(const char *s)
{
	static const char *const words[] = {"nan", "inf"};

	for (unsigned w = 0; w < 2; w++)
		for (const char *p = s; (p = strcasestr(p, words[w])); p += 3) {
			bool before = p > s && isalpha((unsigned char)p[-1]);
			bool after = isalpha((unsigned char)p[3]);

			if (!before && !after)
				return true;
		}
	return false;
}

/* A --quick-shaped sweep: 3 trials x 1 repeat per K, t(K) = max(L/K, L/Ks)
 * with L = 200 ns and Ks = 20, the trials 1-3% apart. */
static void quick_sweep(struct mlp_arms *a, double *trials)
{
	struct mlp_result *m = &a->arm[0];
	unsigned n = 32;

	memset(a, 0, sizeof(*a));
	a->n = 1;
	m->pages_requested = "huge";
	m->working_set_bytes = m->total_bytes = m->huge_bytes_obtained = (size_t)256 << 20;
	m->spacing_bytes = m->line_bytes = 64;
	m->accesses_per_point = 65536;
	m->trials_per_repeat = 3;
	m->npoints = n;
	for (unsigned i = 0; i < n; i++) {
		double t = fmax(200.0 / (i + 1), 200.0 / 20);

		m->sweep[i].trials_ns = trials + 3 * i;
		m->sweep[i].ntrials = 3;
		for (unsigned j = 0; j < 3; j++)
			m->sweep[i].trials_ns[j] = t * (1.01 + 0.01 * j);
	}
}

static char *write_text(const struct mlp_arms *a)
{
	struct memout m;

	mlp_write_text(a, memout_open(&m));
	return memout_close(&m);
}

static char *write_json(const struct mlp_arms *a, size_t *len)
{
	struct memout m;
	char *json;

	mlp_write_json(a, memout_json_open(&m), "mlp");
	json = memout_json_close(&m);
	*len = m.len;
	return json;
}

TEST(floor_taken_from_the_run_only_without_two_groups)
{
	bool from_run;

	CHECK(stats_floor_or_run(3.0, 15.0, &from_run) == 3.0 && !from_run, "own floor kept");
	CHECK(stats_floor_or_run(NAN, 15.0, &from_run) == 15.0 && from_run, "the run's not taken");
	CHECK(isnan(stats_floor_or_run(NAN, NAN, &from_run)) && !from_run, "a floor made up from none");
	CHECK(isnan(stats_floor_or_run(NAN, 0.0, &from_run)) && !from_run, "a zero run floor taken");
}

TEST(floor_words_never_say_nan)
{
	char buf[128];

	CHECK(strstr(report_format_floor(buf, sizeof(buf), 15.4, true), REPORT_FLOOR_RUN_FALLBACK), "%s", buf);
	CHECK(strstr(report_format_floor(buf, sizeof(buf), 2.0, false), REPORT_FLOOR_OWN), "%s", buf);
	CHECK(!has_non_finite_word(report_format_floor(buf, sizeof(buf), NAN, false)), "%s", buf);
	CHECK(!strcmp(report_floor_source(NAN, false), "none") && !strcmp(report_floor_source(1, true), "run") &&
		      !strcmp(report_floor_source(1, false), "own"), "sources");
}

/* The --quick shape: one group per point, the run's floor 4%: the sweep
 * judges by 4%, Ks has its +/-, the plateau starts at a real K, and the
 * text and JSON carry no NaN. */
TEST(floor_quick_mlp_takes_the_run_floor_and_writes_no_nan)
{
	static struct mlp_arms a;
	static double trials[3 * 32];
	struct jsonr_doc doc = {0};
	char *text, *json, jerr[256];
	size_t len = 0;
	double v;

	quick_sweep(&a, trials);
	mlp_analyse(&a.arm[0], 1, 3, 4.0);
	CHECK(a.arm[0].noise_floor_pct == 4.0 && a.arm[0].floor_from_run, "floor %g (from run %d)",
	      a.arm[0].noise_floor_pct, a.arm[0].floor_from_run);
	CHECK(isfinite(a.arm[0].estimate.fit_uncertainty) && a.arm[0].estimate.fit_uncertainty > 0, "Ks +/- %g",
	      a.arm[0].estimate.fit_uncertainty);
	CHECK(a.arm[0].estimate.plateau_from_lanes >= 18 && a.arm[0].estimate.plateau_from_lanes <= 22,
	      "plateau from K = %u", a.arm[0].estimate.plateau_from_lanes);
	CHECK(a.arm[0].estimate.flat_at_end, "a flat curve read as still falling");
	a.nlevels = 1;
	a.levels[0] = (struct mlp_level){.name = "past the last cache", .size_from = "test", .size_source = "memory set",
					 .working_set_bytes = a.arm[0].working_set_bytes, .from_main_sweep = true};
	mlp_level_take(&a.levels[0], &a.arm[0]);
	text = write_text(&a);
	CHECK(text, "text");
	CHECK(!has_non_finite_word(text), "NaN in the text:\n%s", text);
	CHECK(strstr(text, REPORT_FLOOR_RUN_FALLBACK), "the text does not say whose floor:\n%s", text);
	CHECK(!strstr(text, "K = 0 "), "plateau from K = 0:\n%s", text);
	free(text);
	json = write_json(&a, &len);
	CHECK(json, "json");
	CHECK(!has_non_finite_word(json), "NaN in the JSON");
	CHECK(jsonr_parse(json, len, 0, &doc, jerr, sizeof(jerr)) == 0, "JSON: %s", jerr);
	free(json);
	CHECK(jsonr_get_number(doc.root, "mlp.noise_floor_pct", &v) && v == 4.0, "noise_floor_pct not 4");
	CHECK(jsonr_get_number(doc.root, "mlp.estimate.fit_uncertainty", &v) && isfinite(v), "fit_uncertainty null");
	const char *src = jsonr_get_string(doc.root, "mlp.noise_floor_source");

	CHECK(src && !strcmp(src, "run"), "noise_floor_source");
	/* The headline read from that JSON: Ks with its +/-, no NaN. */
	{
		static struct summary s;
		const struct summary_figure *g;
		char *buf = NULL;
		size_t blen = 0;
		FILE *f;

		summary_build(registry_views(), doc.root, &s);
		CHECK((g = summary_find(&s, "mlp_saturation_lanes")) && isfinite(g->uncertainty), "Ks without its +/-");
		CHECK((f = open_memstream(&buf, &blen)), "memstream");
		summary_write_text(&s, f);
		fclose(f);
		CHECK(!has_non_finite_word(buf), "NaN in the summary:\n%s", buf);
		free(buf);
	}
	jsonr_free(&doc);
}

/* Neither its own nor the run's (mlp run with no noise section): the text
 * says the floor is not known, and still no NaN. */
TEST(floor_unknown_is_said_not_printed_as_nan)
{
	static struct mlp_arms a;
	static double trials[3 * 32];
	char *text;

	quick_sweep(&a, trials);
	mlp_analyse(&a.arm[0], 1, 3, NAN);
	CHECK(a.arm[0].estimate.plateau_from_lanes > 0, "plateau from K = 0");
	text = write_text(&a);
	CHECK(text && !has_non_finite_word(text), "NaN in the text:\n%s", text ? text : "");
	CHECK(text && strstr(text, "not known"), "the unknown floor is not said");
	free(text);
}
