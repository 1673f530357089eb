/*
 * The corpus of real CPUs replayed through the analyses: each entry's
 * recorded timings (tests/data/cpus/<m>/report.json, window.json) go
 * through the same seams a run uses (latency_analyse, tlb_analyse,
 * mlp_analyse, the mlp level verdicts, the bandwidth overlap and preemption
 * rules, app_finish, window_fit_steps, window_summarise) and the
 * conclusions must be the entry's answers.txt. Logic only: nothing here
 * times the machine it runs on. Also the loader's own rules (refusal
 * without answers, unknown files ignored).
 */
#include "../harness.h"
#include "../corpus.h"

#include "exp/app/app.h"
#include "exp/bandwidth.h"
#include "exp/cache_sizes.h"
#include "analyse/latency_levels.h"
#include "exp/latency.h"
#include "exp/mlp.h"
#include "exp/mlp_levels.h"
#include "exp/tlb.h"
#include "exp/window.h"
#include "exp/window_ramp.h"
#include "util/jsonw.h"
#include "report/latency_out.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The curve the other sections read of lat: a copy, taken afresh at each
 * call. */
static const struct latency_curve *curve_of(const struct latency_result *lat)
{
	static struct latency_curve c;

	return latency_curve_of(lat, &c);
}

/* The Intel guest every replay must include (the first entry). */
#define CORPUS_ANCHOR "intel-xeon-f6-m207"

static struct corpus_cpu cpus[CORPUS_CPUS_MAX];
static unsigned ncpus;
static int corpus_rc = 1;
static char corpus_err[512];

static int corpus_ready(void)
{
	if (corpus_rc == 1)
		corpus_rc = corpus_list(CORPUS_ROOT, cpus, CORPUS_CPUS_MAX, &ncpus, corpus_err, sizeof(corpus_err));
	return corpus_rc;
}

/* Relative agreement: the replay reads the same rounded JSON numbers the
 * answers were taken from, so only the writer's 7 digits separate them. */
static bool near(double got, double want, double rel)
{
	if (isnan(want))
		return isnan(got);
	return fabs(got - want) <= rel * fmax(fabs(want), 1e-12);
}

static double num_or(const struct jsonr_value *v, const char *path, double dflt)
{
	double x;

	return jsonr_get_number(v, path, &x) ? x : dflt;
}

/* Copy a JSON array of numbers into out (at most cap); returns how many. */
static unsigned numbers(const struct jsonr_value *v, const char *path, double *out, unsigned cap)
{
	const struct jsonr_value *a = jsonr_get(v, path);
	size_t n = jsonr_get_count(v, path);
	unsigned k = 0;

	for (size_t i = 0; a && i < n && k < cap; i++)
		if (jsonr_get_number(jsonr_index(a, i), "", &out[k]))
			k++;
	return k;
}

/* ---- the loader ---- */

static void write_entry(const char *root, const char *name, const char *answers, struct test_ctx *tctx, bool *ok)
{
	char path[512];

	*ok = false;
	snprintf(path, sizeof(path), "%s/%s", root, name);
	CHECK(mkdir(path, 0700) == 0, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/%s/report.json", root, name);
	CHECK(test_write_text(path, "{\"tool\": \"mlpscope\", \"schema_version\": 1}\n") == 0, "write %s", path);
	if (answers) {
		snprintf(path, sizeof(path), "%s/%s/answers.txt", root, name);
		CHECK(test_write_text(path, answers) == 0, "write %s", path);
	}
	*ok = true;
}

TEST(corpus_loader_refuses_an_entry_without_answers)
{
	char root[256], dir[512], err[512];
	static struct corpus_cpu c, list[4];
	unsigned n;
	bool ok;
	int rc;

	test_scratch_make(root, sizeof(root), "corpus");
	CHECK(root[0], "no scratch folder");
	write_entry(root, "intel-test-f6-m1", NULL, tctx, &ok);
	if (!ok)
		return;
	snprintf(dir, sizeof(dir), "%s/intel-test-f6-m1", root);
	rc = corpus_cpu_load(dir, &c, err, sizeof(err));
	CHECK(rc == -ENOENT && strstr(err, "intel-test-f6-m1") && strstr(err, "no answers.txt"),
	      "an entry without answers loaded: rc %d, '%s'", rc, err);
	/* The listing refuses the whole corpus for it, naming the entry. */
	rc = corpus_list(root, list, 4, &n, err, sizeof(err));
	CHECK(rc == -ENOENT && strstr(err, "intel-test-f6-m1"), "the listing took it: rc %d, '%s'", rc, err);
	/* An answers file with no answers is no better. */
	snprintf(dir, sizeof(dir), "%s/intel-test-f6-m1/answers.txt", root);
	CHECK(test_write_text(dir, "# nothing yet\ncpu intel 6 1\n") == 0, "write");
	snprintf(dir, sizeof(dir), "%s/intel-test-f6-m1", root);
	rc = corpus_cpu_load(dir, &c, err, sizeof(err));
	CHECK(rc == -EPROTO && strstr(err, "no answers"), "an empty answers file loaded: rc %d, '%s'", rc, err);
	test_scratch_remove(root, "corpus");
}

TEST(corpus_loader_checks_identity_and_lines_and_ignores_unknown_files)
{
	char root[256], dir[512], err[512];
	static struct corpus_cpu c;
	bool ok;
	double v;
	int rc;

	test_scratch_make(root, sizeof(root), "corpus");
	CHECK(root[0], "no scratch folder");
	write_entry(root, "amd-test-f25-m17",
		    "cpu amd 25 17\nwindow.rob 317   public: 320 (SOG Zen 4)\nlatency.levels 3 # a comment\n"
		    "tlb.huge_reach_effective no\nlatency.level3.capacity_bytes none\n",
		    tctx, &ok);
	if (!ok)
		return;
	/* Another tool's facts beside the results: never read. */
	snprintf(dir, sizeof(dir), "%s/amd-test-f25-m17/plan-facts.json", root);
	CHECK(test_write_text(dir, "not even JSON") == 0, "write");
	snprintf(dir, sizeof(dir), "%s/amd-test-f25-m17", root);
	rc = corpus_cpu_load(dir, &c, err, sizeof(err));
	CHECK(rc == 0, "a good entry refused: %s", err);
	CHECK(c.family == 25 && c.model == 17 && !strcmp(c.vendor, "amd") && c.nanswers == 4, "identity %s %d %d, %u answers",
	      c.vendor, c.family, c.model, c.nanswers);
	CHECK(corpus_answer_get(&c, "window.rob", &v) && v == 317 &&
		      !strcmp(corpus_answer_find(&c, "window.rob")->public_figure, "320 (SOG Zen 4)"),
	      "window.rob %g, public '%s'", v, corpus_answer_find(&c, "window.rob")->public_figure);
	CHECK(corpus_answer_get(&c, "tlb.huge_reach_effective", &v) && v == 0, "no -> %g", v);
	CHECK(corpus_answer_get(&c, "latency.level3.capacity_bytes", &v) && isnan(v), "none -> %g", v);
	/* The CPU line must be the one the folder names. */
	snprintf(dir, sizeof(dir), "%s/amd-test-f25-m17/answers.txt", root);
	CHECK(test_write_text(dir, "cpu amd 25 1\nlatency.levels 3\n") == 0, "write");
	snprintf(dir, sizeof(dir), "%s/amd-test-f25-m17", root);
	rc = corpus_cpu_load(dir, &c, err, sizeof(err));
	CHECK(rc == -EPROTO && strstr(err, "line 1") && strstr(err, "folder"), "another CPU's answers loaded: '%s'", err);
	/* A value that is not one, with the line named. */
	snprintf(dir, sizeof(dir), "%s/amd-test-f25-m17/answers.txt", root);
	CHECK(test_write_text(dir, "cpu amd 25 17\nlatency.levels three\n") == 0, "write");
	snprintf(dir, sizeof(dir), "%s/amd-test-f25-m17", root);
	rc = corpus_cpu_load(dir, &c, err, sizeof(err));
	CHECK(rc == -EPROTO && strstr(err, "line 2") && strstr(err, "'three'"), "a bad value loaded: '%s'", err);
	/* After the value only a public figure: a second value is a typo. */
	snprintf(dir, sizeof(dir), "%s/amd-test-f25-m17/answers.txt", root);
	CHECK(test_write_text(dir, "cpu amd 25 17\nlatency.levels 3 4\n") == 0, "write");
	snprintf(dir, sizeof(dir), "%s/amd-test-f25-m17", root);
	rc = corpus_cpu_load(dir, &c, err, sizeof(err));
	CHECK(rc == -EPROTO && strstr(err, "line 2") && strstr(err, "public"), "a second value loaded: '%s'", err);
	test_scratch_remove(root, "corpus");
}

TEST(corpus_every_entry_loads_and_names_its_raw_results)
{
	static const char *files[] = {"report.json", "window.json"};
	unsigned with_report = 0;
	bool anchor = false;

	CHECK(corpus_ready() == 0, "%s", corpus_err);
	CHECK(ncpus >= 3, "%u corpus entries", ncpus);
	for (unsigned i = 0; i < ncpus; i++) {
		anchor |= !strcmp(cpus[i].name, CORPUS_ANCHOR);
		for (unsigned f = 0; f < 2; f++) {
			struct jsonr_doc doc;
			char err[512];
			int rc = corpus_open(&cpus[i], files[f], &doc, err, sizeof(err));

			CHECK(rc == 0 || rc == -ENOENT, "%s", err);
			if (rc == 0) {
				double family = -1, model = -1;

				/* A report's machine section must be the CPU the folder names. */
				if (jsonr_get_number(doc.root, "machine.family", &family) &&
				    jsonr_get_number(doc.root, "machine.model", &model))
					CHECK(family == cpus[i].family && model == cpus[i].model,
					      "%s/%s is family %g model %g", cpus[i].name, files[f], family, model);
				with_report += f == 0;
			}
			jsonr_free(&doc);
		}
	}
	CHECK(anchor && with_report >= 3, "anchor %d, %u reports", anchor, with_report);
	snprintf(tctx->message, sizeof(tctx->message), "%u entries", ncpus);
}

/* ---- latency ---- */

static struct latency_result lat;
static struct latency_params lat_params;

/* The report's caches as the run's topology gave them: the first source
 * listed (sysfs before CPUID), data and unified only, L1 first. */
static void reported_caches(const struct jsonr_value *root, size_t *out, unsigned cap)
{
	const struct jsonr_value *list = jsonr_get(root, "machine.caches_reported");
	size_t n = jsonr_get_count(root, "machine.caches_reported");
	const char *first = list && n ? jsonr_get_string(jsonr_index(list, 0), "source") : NULL;
	unsigned k = 0;

	for (int level = 1; level <= 4; level++)
		for (size_t i = 0; i < n && k + 1 < cap; i++) {
			const struct jsonr_value *c = jsonr_index(list, i);
			const char *src = jsonr_get_string(c, "source"), *type = jsonr_get_string(c, "type");

			if (num_or(c, "level", 0) == level && type && strcmp(type, "Instruction") &&
			    (!first || (src && !strcmp(src, first))))
				out[k++] = (size_t)num_or(c, "size_bytes", 0);
		}
	out[k] = 0;
}

/* The latency section of a report into lat and lat_params, as latency_run
 * leaves them before its derivation: trials (the recorded minimum where a
 * report kept no trials), the re-timed and second-allocation trials,
 * steady long regions, the huge-page TLB steps. */
static int latency_load(const struct jsonr_value *root)
{
	const struct jsonr_value *L = jsonr_get(root, "latency"), *pts = jsonr_get(root, "latency.points");
	size_t n = jsonr_get_count(root, "latency.points"), ntlb = jsonr_get_count(root, "tlb.levels");

	memset(&lat, 0, sizeof(lat));
	memset(&lat_params, 0, sizeof(lat_params));
	if (!L || !n || n > LATENCY_POINTS_MAX)
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		const struct jsonr_value *j = jsonr_index(pts, (unsigned)i);
		struct latency_point *pt = &lat.points[i];
		const char *pages = jsonr_get_string(j, "pages");
		bool ok = true;

		pt->size_bytes = (size_t)num_or(j, "size_bytes", 0);
		pt->pages = pages && !strcmp(pages, "small") ? PAGES_SMALL : PAGES_HUGE;
		if (pt->pages == PAGES_HUGE) {
			if (lat.ncurve != i)
				return -EPROTO;
			lat.ncurve++;
		}
		pt->ntrials = numbers(j, "chase_trials_ns", pt->chase_trials_ns, LATENCY_TRIALS_MAX);
		if (numbers(j, "stream_trials_ns", pt->stream_trials_ns, LATENCY_TRIALS_MAX) != pt->ntrials)
			return -EPROTO;
		if (!pt->ntrials) {
			pt->ntrials = 1;
			pt->chase_trials_ns[0] = num_or(j, "chase_ns", NAN);
			pt->stream_trials_ns[0] = num_or(j, "stream_ns", NAN);
		}
		/* A re-timed point keeps its second look: its figure is the minimum over both. */
		pt->nretime = numbers(j, "retime_trials_ns", pt->retime_trials_ns, LATENCY_RETIME_TRIALS);
		lat.nretimed += pt->nretime > 0;
		/* A point timed on a second allocation: its figure is the minimum over both. */
		pt->nalloc_trials = numbers(j, "placement.arena_trials_ns", pt->alloc_trials_ns[0],
					    LATENCY_PLACEMENT_TRIALS);
		if (numbers(j, "placement.own_allocation_trials_ns", pt->alloc_trials_ns[1], LATENCY_PLACEMENT_TRIALS) !=
		    pt->nalloc_trials)
			return -EPROTO;
		lat.nplaced += pt->nalloc_trials > 0;
		pt->steady_checked = jsonr_get_number(j, "steady_long_ns", &pt->steady_long_ns);
		jsonr_get_bool(j, "layout_ok", &ok);
		pt->chase_layout.ok = pt->stream_layout.ok = ok;
	}
	lat.npoints = (unsigned)n;
	lat.nfalls_sweep = (size_t)num_or(L, "non_monotonic_found_in_sweep", 0);
	lat.noise_floor_pct = num_or(L, "noise_floor_pct", NAN);
	lat.arena_huge_bytes = (size_t)num_or(L, "arena_huge_bytes", 0);
	lat.arena_huge_obtained_bytes = (size_t)num_or(L, "arena_huge_obtained_bytes", 0);
	lat.arena_small_bytes = (size_t)num_or(L, "arena_small_bytes", 0);
	lat_params.core_mhz_min = num_or(L, "core_mhz_min", 0);
	lat_params.core_mhz_max = num_or(L, "core_mhz_max", 0);
	reported_caches(root, lat_params.reported_cache_bytes, LATENCY_CACHES_MAX);
	for (size_t k = 0; k < ntlb && lat_params.ntlb < LATENCY_TLB_MAX; k++) {
		const struct jsonr_value *l = jsonr_index(jsonr_get(root, "tlb.levels"), (unsigned)k);

		if (num_or(l, "page_bytes", 0) != 2097152)
			continue;
		lat_params.tlb_reach_bytes[lat_params.ntlb] = (size_t)num_or(l, "reach_bytes", 0);
		lat_params.tlb_extra_ns[lat_params.ntlb++] = num_or(l, "extra_ns", 0);
	}
	latency_analyse(&lat, &lat_params);
	return 0;
}

/* A replay over every entry that answers `key`: its file opened, load()
 * run on it (lrc: its result), then the test's checks; REPLAY_END demands
 * at least two CPUs, the anchor among them. */
#define REPLAY_BEGIN(key, file, load)                                                                     \
	struct jsonr_doc doc = {0};                                                                       \
	char err[512];                                                                                    \
	unsigned replayed = 0;                                                                            \
	bool anchor = false;                                                                              \
	CHECK(corpus_ready() == 0, "%s", corpus_err);                                                     \
	for (unsigned ci = 0; ci < ncpus; ci++) {                                                         \
		int lrc;                                                                                  \
		if (!corpus_answer_find(&cpus[ci], key))                                                  \
			continue;                                                                         \
		CHECK(corpus_open(&cpus[ci], file, &doc, err, sizeof(err)) == 0, "%s answers %s but: %s", \
		      cpus[ci].name, key, err);                                                           \
		lrc = load(doc.root);

#define REPLAY_END(what)                                                                                  \
		jsonr_free(&doc);                                                                         \
		replayed++;                                                                               \
		anchor |= !strcmp(cpus[ci].name, CORPUS_ANCHOR);                                          \
	}                                                                                                 \
	CHECK(replayed >= 2 && anchor, "%s replayed on %u corpus CPUs (%s %s)", what, replayed,          \
	      CORPUS_ANCHOR, anchor ? "among them" : "missing");                                          \
	snprintf(tctx->message, sizeof(tctx->message), "%u CPUs", replayed)

/* The answer to the key fmt names; an absent key reads as -1e300, which
 * no conclusion equals, so the failing check names it. */
__attribute__((format(printf, 2, 3))) static double answer(const struct corpus_cpu *c, const char *fmt, ...)
{
	char key[64];
	double v = NAN;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	if (!corpus_answer_get(c, key, &v))
		return -1e300;
	return v;
}

TEST(corpus_latency_levels_and_their_ends)
{
	REPLAY_BEGIN("latency.levels", "report.json", latency_load)
	{
		CHECK(lrc == 0, "%s: latency section unreadable (%d)", cpus[ci].name, lrc);
		CHECK(lat.nlevels == answer(&cpus[ci], "latency.levels"), "%s: %u levels, answer %g",
		      cpus[ci].name, lat.nlevels, answer(&cpus[ci], "latency.levels"));
		for (unsigned i = 0; i < lat.nlevels; i++) {
			const struct latency_level *l = &lat.levels[i];

			CHECK(near(l->latency_ns, answer(&cpus[ci], "latency.level%u.latency_ns", i + 1), 1e-3),
			      "%s: level %u %.4g ns, answer %g", cpus[ci].name, i + 1, l->latency_ns,
			      answer(&cpus[ci], "latency.level%u.latency_ns", i + 1));
			CHECK(l->first_bytes == answer(&cpus[ci], "latency.level%u.first_bytes", i + 1) &&
				      l->size_bytes == answer(&cpus[ci], "latency.level%u.end_bytes", i + 1),
			      "%s: level %u %zu..%zu, answer %g..%g", cpus[ci].name, i + 1, l->first_bytes,
			      l->size_bytes, answer(&cpus[ci], "latency.level%u.first_bytes", i + 1),
			      answer(&cpus[ci], "latency.level%u.end_bytes", i + 1));
			CHECK(l->reported_bytes == answer(&cpus[ci], "latency.level%u.reported_bytes", i + 1) &&
				      l->disagrees == answer(&cpus[ci], "latency.level%u.disagrees", i + 1),
			      "%s: level %u matched %zu (disagrees %d), answer %g (%g)", cpus[ci].name, i + 1,
			      l->reported_bytes, l->disagrees,
			      answer(&cpus[ci], "latency.level%u.reported_bytes", i + 1),
			      answer(&cpus[ci], "latency.level%u.disagrees", i + 1));
		}
		CHECK(lat.nmissing == answer(&cpus[ci], "latency.missing_caches"), "%s: %u caches without a plateau",
		      cpus[ci].name, lat.nmissing);
	}
	REPLAY_END("levels");
}

TEST(corpus_latency_knees)
{
	REPLAY_BEGIN("latency.knees", "report.json", latency_load)
	{
		unsigned tlb = 0;

		CHECK(lrc == 0, "%s: latency section unreadable (%d)", cpus[ci].name, lrc);
		for (unsigned i = 0; i < lat.nknees; i++)
			tlb += lat.knees[i].tlb;
		CHECK(lat.nknees == answer(&cpus[ci], "latency.knees") &&
			      tlb == answer(&cpus[ci], "latency.knees_tlb"),
		      "%s: %u knees (%u TLB), answer %g (%g)", cpus[ci].name, lat.nknees, tlb,
		      answer(&cpus[ci], "latency.knees"), answer(&cpus[ci], "latency.knees_tlb"));
	}
	REPLAY_END("knees");
}

TEST(corpus_latency_steady_check)
{
	REPLAY_BEGIN("latency.steady_checked", "report.json", latency_load)
	{
		CHECK(lrc == 0, "%s: latency section unreadable (%d)", cpus[ci].name, lrc);
		CHECK(lat.steady_checked == answer(&cpus[ci], "latency.steady_checked") &&
			      lat.steady_failed == answer(&cpus[ci], "latency.steady_failed"),
		      "%s: %u checked, %u failed; answer %g, %g", cpus[ci].name, lat.steady_checked,
		      lat.steady_failed, answer(&cpus[ci], "latency.steady_checked"),
		      answer(&cpus[ci], "latency.steady_failed"));
	}
	REPLAY_END("steady check");
}

TEST(corpus_latency_non_monotonic)
{
	REPLAY_BEGIN("latency.non_monotonic", "report.json", latency_load)
	{
		CHECK(lrc == 0, "%s: latency section unreadable (%d)", cpus[ci].name, lrc);
		CHECK(lat.nfalls_found == answer(&cpus[ci], "latency.non_monotonic"), "%s: %zu falls, answer %g",
		      cpus[ci].name, lat.nfalls_found, answer(&cpus[ci], "latency.non_monotonic"));
	}
	REPLAY_END("non-monotonic");
}

/* The writers on a replayed curve: every key the schema promises, from a
 * real machine's points (the shared real run this replaces is a VALIDATE
 * check now). */
TEST(corpus_latency_writer_emits_the_schema_keys)
{
	static const char *keys[] = {"\"latency\"", "\"points\"", "\"size_bytes\"", "\"pages\"", "\"chase_ns\"",
		"\"stream_ns\"", "\"layout_ok\"", "\"levels_detected\"", "\"latency_ns\"", "\"knees\"",
		"\"steady_long_ns\"", "\"prefetch_ratio_at_max\"", "\"translation_ns_at_max\"", "\"non_monotonic\""};
	static struct corpus_cpu c;
	struct jsonr_doc doc, back;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *mem;
	struct jsonw w;
	int rc;

	CHECK(corpus_cpu_load(CORPUS_ROOT "/" CORPUS_ANCHOR, &c, err, sizeof(err)) == 0, "%s", err);
	CHECK(corpus_open(&c, "report.json", &doc, err, sizeof(err)) == 0, "%s", err);
	rc = latency_load(doc.root);
	jsonr_free(&doc);
	CHECK(rc == 0, "latency section unreadable (%d)", rc);
	CHECK((mem = open_memstream(&buf, &len)), "open_memstream");
	jsonw_init(&w, mem);
	jsonw_object_begin(&w, NULL);
	latency_write_json(&lat, &w, "latency");
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(mem);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strstr(buf, keys[i])) {
			free(buf);
			CHECK(0, "key %s missing", keys[i]);
		}
	/* ... and it reads back as JSON with the replayed levels. */
	rc = jsonr_parse(buf, len, 0, &back, err, sizeof(err));
	free(buf);
	CHECK(rc == 0, "the written JSON does not parse: %s", err);
	rc = (int)jsonr_get_count(back.root, "latency.levels_detected");
	jsonr_free(&back);
	CHECK(rc == (int)lat.nlevels, "%d levels written, %u replayed", rc, lat.nlevels);
}

/* A recorded `mlpscope latency` run (latency_retimed.json, this guest,
 * 14:27 UTC 2026-12-01, floor 9.3%) whose sweep fell at 7 points below one
 * point caught slow, 53.8 MiB at 125.0 ns, re-timed at 101.5 ns. Replayed,
 * the re-timed figure leaves no fall; without the second look the 7 come
 * back. The re-timing's analysis on a real curve, through the seam. */
TEST(corpus_latency_retimed_point_clears_the_falls_it_stood_above)
{
	static struct corpus_cpu c;
	struct jsonr_doc doc;
	char err[512];
	int rc;

	CHECK(corpus_cpu_load(CORPUS_ROOT "/intel-xeon-f6-m106", &c, err, sizeof(err)) == 0, "%s", err);
	CHECK(corpus_open(&c, "latency_retimed.json", &doc, err, sizeof(err)) == 0, "%s", err);
	rc = latency_load(doc.root);
	jsonr_free(&doc);
	CHECK(rc == 0, "latency section unreadable (%d)", rc);
	CHECK(lat.nretimed == 1 && lat.nfalls_sweep == 7 && lat.nfalls_found == 0,
	      "%u re-timed, %zu falls in the sweep, %zu after", lat.nretimed, lat.nfalls_sweep, lat.nfalls_found);
	for (unsigned i = 0; i < lat.npoints; i++)
		lat.points[i].nretime = 0;
	lat.nretimed = 0;
	latency_analyse(&lat, &lat_params);
	CHECK(lat.nfalls_found == 7, "%zu falls without the second look, the sweep had 7", lat.nfalls_found);
}

/* ---- tlb ---- */

static struct tlb_result tlbr;

static int tlb_load(const struct jsonr_value *root)
{
	const struct jsonr_value *T = jsonr_get(root, "tlb"), *pts = jsonr_get(root, "tlb.points");
	size_t n = jsonr_get_count(root, "tlb.points");

	memset(&tlbr, 0, sizeof(tlbr));
	if (!T || !n)
		return -ENOENT;
	tlbr.series[0].page_bytes = 4096;
	tlbr.series[1].page_bytes = 2097152;
	for (size_t i = 0; i < n; i++) {
		const struct jsonr_value *j = jsonr_index(pts, (unsigned)i);
		struct tlb_series *s = &tlbr.series[num_or(j, "page_bytes", 0) == 4096 ? 0 : 1];
		struct tlb_point *pt;

		if (s->npoints >= TLB_POINTS_MAX)
			return -EPROTO;
		pt = &s->points[s->npoints++];
		pt->pages = (unsigned)num_or(j, "pages", 0);
		pt->page_bytes = s->page_bytes;
		pt->control_ns = num_or(j, "control_ns", NAN);
		pt->ntrials = numbers(j, "trials_ns", pt->trials_ns, TLB_TRIALS_MAX);
	}
	tlbr.nseries = tlbr.series[1].npoints ? 2 : 1;
	tlbr.noise_floor_pct = num_or(T, "noise_floor_pct", NAN);
	tlbr.tolerance_pct = num_or(T, "step_tolerance_pct", NAN);
	tlb_analyse(&tlbr);
	return 0;
}

TEST(corpus_tlb_steps)
{
	static const char *series[] = {"small", "huge"};

	REPLAY_BEGIN("tlb.small.steps", "report.json", tlb_load)
	{
		CHECK(lrc == 0, "%s: tlb section unreadable (%d)", cpus[ci].name, lrc);
		for (unsigned s = 0; s < tlbr.nseries; s++) {
			const struct tlb_series *se = &tlbr.series[s];
			char key[64];

			snprintf(key, sizeof(key), "tlb.%s.steps", series[s]);
			CHECK(se->nlevels == answer(&cpus[ci], "%s", key), "%s: %s pages %u steps, answer %g",
			      cpus[ci].name, series[s], se->nlevels, answer(&cpus[ci], "%s", key));
			for (unsigned k = 0; k < se->nlevels; k++) {
				char ke[64], kx[64];

				snprintf(ke, sizeof(ke), "tlb.%s.step%u.entries", series[s], k + 1);
				snprintf(kx, sizeof(kx), "tlb.%s.step%u.extra_ns", series[s], k + 1);
				CHECK(se->levels[k].entries == answer(&cpus[ci], "%s", ke) &&
					      near(se->levels[k].extra_ns, answer(&cpus[ci], "%s", kx), 1e-3),
				      "%s: %s step %u at %u pages +%.3f ns, answer %g +%g", cpus[ci].name, series[s],
				      k + 1, se->levels[k].entries, se->levels[k].extra_ns, answer(&cpus[ci], "%s", ke),
				      answer(&cpus[ci], "%s", kx));
			}
		}
		for (unsigned s = 0; s < tlbr.nseries; s++) {
			const struct tlb_series *se = &tlbr.series[s];
			const struct curve_fall *c = &se->falls[0];

			CHECK(se->nfalls == answer(&cpus[ci], "tlb.%s.non_monotonic", series[s]),
			      "%s: %s pages %u falls past the floor, answer %g", cpus[ci].name, series[s], se->nfalls,
			      answer(&cpus[ci], "tlb.%s.non_monotonic", series[s]));
			CHECK(!se->nfalls || c->x == answer(&cpus[ci], "tlb.%s.fall1.pages", series[s]),
			      "%s: %s pages first fall %.1f -> %.1f ns at %.0f pages, answer %g", cpus[ci].name,
			      series[s], c->ref_y, c->y, c->x, answer(&cpus[ci], "tlb.%s.fall1.pages", series[s]));
		}
		CHECK(tlbr.nseries == 2 && tlbr.huge_reach_effective == answer(&cpus[ci], "tlb.huge_reach_effective"),
		      "%s: huge reach effective %d, answer %g", cpus[ci].name, tlbr.huge_reach_effective,
		      answer(&cpus[ci], "tlb.huge_reach_effective"));
	}
	REPLAY_END("tlb steps");
}

/* ---- mlp ---- */

static struct mlp_result mlpr;
static unsigned mlp_repeats;

static int mlp_points(const struct jsonr_value *arr, size_t n, struct mlp_point *out, unsigned per_point)
{
	for (size_t i = 0; i < n; i++) {
		const struct jsonr_value *j = jsonr_index(arr, (unsigned)i);
		struct mlp_point *pt = &out[i];

		if (!(pt->trials_ns = calloc(per_point, sizeof(double))))
			return -ENOMEM;
		pt->ntrials = numbers(j, "trials_ns", pt->trials_ns, per_point);
		/* An older report kept the minimum only: one trial. */
		if (!pt->ntrials) {
			pt->trials_ns[0] = num_or(j, "ns_per_access", NAN);
			pt->ntrials = 1;
		}
	}
	return 0;
}

/* The lanes arm of a report (the huge-page arm of a --pages both run). */
static int mlp_load(const struct jsonr_value *root)
{
	const struct jsonr_value *M = jsonr_get(root, "mlp.sweep") ? jsonr_get(root, "mlp")
									     : jsonr_get(root, "mlp.huge");
	size_t n = jsonr_get_count(M, "sweep"), nc = jsonr_get_count(M, "control_unrolled");
	unsigned trials, per_point;
	int rc;

	mlp_result_free(&mlpr);
	memset(&mlpr, 0, sizeof(mlpr));
	if (!M || !n || n > LANES_MAX || nc > MLP_CONTROL_ARMS)
		return -ENOENT;
	mlp_repeats = (unsigned)num_or(M, "estimate.repeats", 1);
	trials = (unsigned)num_or(M, "trials_per_repeat", 1);
	per_point = mlp_repeats * trials;
	if (!mlp_repeats || mlp_repeats > POLICY_REPEAT_MAX || !per_point)
		return -EPROTO;
	if ((rc = mlp_points(jsonr_get(M, "sweep"), n, mlpr.sweep, per_point)) ||
	    (rc = mlp_points(jsonr_get(M, "control_unrolled"), nc, mlpr.control, per_point)))
		return rc;
	/* Without the trials a report has one value per point: one repeat of one. */
	if (mlpr.sweep[0].ntrials == 1)
		mlp_repeats = trials = 1;
	mlpr.npoints = (unsigned)n;
	mlpr.ncontrol = (unsigned)nc;
	mlpr.line_bytes = (size_t)num_or(M, "line_bytes", 64);
	/* Recorded sweeps had two groups a point: their own floor, none borrowed. */
	mlp_analyse(&mlpr, mlp_repeats, trials, NAN);
	return 0;
}

TEST(corpus_mlp_fit_within_its_uncertainty)
{
	REPLAY_BEGIN("mlp.ks", "report.json", mlp_load)
	{
		double ks = answer(&cpus[ci], "mlp.ks"), unc = answer(&cpus[ci], "mlp.ks_uncertainty");
		const struct mlp_estimate *e = &mlpr.estimate;

		CHECK(lrc == 0, "%s: mlp section unreadable (%d)", cpus[ci].name, lrc);
		CHECK(unc > 0 && fabs(e->fit_saturation_lanes - ks) <= unc, "%s: Ks %.2f, answer %g +/- %g",
		      cpus[ci].name, e->fit_saturation_lanes, ks, unc);
		CHECK(near(e->fit_latency_ns, answer(&cpus[ci], "mlp.fit_latency_ns"), 1e-3) &&
			      e->peak_lanes == answer(&cpus[ci], "mlp.peak_lanes"),
		      "%s: L %.2f ns, peak at K=%u; answer %g, %g", cpus[ci].name, e->fit_latency_ns, e->peak_lanes,
		      answer(&cpus[ci], "mlp.fit_latency_ns"), answer(&cpus[ci], "mlp.peak_lanes"));
	}
	mlp_result_free(&mlpr);
	REPLAY_END("mlp fit");
}

TEST(corpus_mlp_repeats_agree)
{
	REPLAY_BEGIN("mlp.repeats_agreeing", "report.json", mlp_load)
	{
		const struct mlp_estimate *e = &mlpr.estimate;

		CHECK(lrc == 0, "%s: mlp section unreadable (%d)", cpus[ci].name, lrc);
		CHECK(e->repeats == answer(&cpus[ci], "mlp.repeats") &&
			      e->repeats_agreeing == answer(&cpus[ci], "mlp.repeats_agreeing"),
		      "%s: %u of %u repeats agree; answer %g of %g", cpus[ci].name, e->repeats_agreeing, e->repeats,
		      answer(&cpus[ci], "mlp.repeats_agreeing"), answer(&cpus[ci], "mlp.repeats"));
		CHECK(e->plateau_from_lanes == answer(&cpus[ci], "mlp.plateau_from_lanes"),
		      "%s: plateau from K=%u, answer %g", cpus[ci].name, e->plateau_from_lanes,
		      answer(&cpus[ci], "mlp.plateau_from_lanes"));
	}
	mlp_result_free(&mlpr);
	REPLAY_END("mlp repeats");
}

static struct mlp_level levels[MLP_LEVELS];
static unsigned nlevels;

static int mlp_levels_load(const struct jsonr_value *root)
{
	const struct jsonr_value *arr = jsonr_get(root, "mlp.levels");
	size_t n = jsonr_get_count(root, "mlp.levels");

	memset(levels, 0, sizeof(levels));
	nlevels = 0;
	if (!arr || !n || n > MLP_LEVELS)
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		const struct jsonr_value *j = jsonr_index(arr, (unsigned)i);
		struct mlp_level *lv = &levels[i];

		jsonr_get_bool(j, "measured", &lv->measured);
		jsonr_get_bool(j, "from_main_sweep", &lv->from_main_sweep);
		lv->t1_ns = num_or(j, "t1_ns", NAN);
		lv->plateau_concurrency = num_or(j, "plateau_concurrency", 0);
		lv->peak_concurrency = num_or(j, "peak_concurrency", 0);
		lv->noise_floor_pct = num_or(j, "noise_floor_pct", NAN);
	}
	nlevels = (unsigned)n;
	mlp_levels_mark_resident(levels, nlevels);
	return 0;
}

TEST(corpus_mlp_levels_resident_and_saturated)
{
	REPLAY_BEGIN("mlp.levels", "report.json", mlp_levels_load)
	{
		CHECK(lrc == 0, "%s: mlp levels unreadable (%d)", cpus[ci].name, lrc);
		CHECK(nlevels == answer(&cpus[ci], "mlp.levels"), "%s: %u levels", cpus[ci].name, nlevels);
		for (unsigned i = 0; i < nlevels; i++)
			CHECK(levels[i].resident == answer(&cpus[ci], "mlp.level%u.resident", i + 1) &&
				      mlp_level_saturated(&levels[i]) == answer(&cpus[ci], "mlp.level%u.saturated", i + 1),
			      "%s: level %u resident %d saturated %d; answer %g, %g", cpus[ci].name, i + 1,
			      levels[i].resident, mlp_level_saturated(&levels[i]),
			      answer(&cpus[ci], "mlp.level%u.resident", i + 1),
			      answer(&cpus[ci], "mlp.level%u.saturated", i + 1));
	}
	REPLAY_END("mlp levels");
}

/* The levels mlp --levels plans on a recorded curve, with the caches the
 * run's OS reported (none on the Zen 5 guest): each row, its size and where
 * the size came from (issue 30: the Zen 5 run planned one row). */
static struct topo plan_topo;
static size_t plan_past_bytes;

static int plan_load(const struct jsonr_value *root)
{
	const struct jsonr_value *list = jsonr_get(root, "machine.caches_reported");
	size_t n = jsonr_get_count(root, "machine.caches_reported");
	const char *first = list && n ? jsonr_get_string(jsonr_index(list, 0), "source") : NULL;
	int rc = latency_load(root);

	memset(&plan_topo, 0, sizeof(plan_topo));
	for (size_t i = 0; i < n && plan_topo.ncaches < TOPO_MAX_CACHES; i++) {
		const struct jsonr_value *c = jsonr_index(list, (unsigned)i);
		const char *src = jsonr_get_string(c, "source"), *type = jsonr_get_string(c, "type");
		struct cache_desc *d = &plan_topo.caches[plan_topo.ncaches];

		if (!src || strcmp(src, first) || !type)
			continue;
		d->level = (int)num_or(c, "level", 0);
		snprintf(d->type, sizeof(d->type), "%s", type);
		d->size_bytes = (size_t)num_or(c, "size_bytes", 0);
		plan_topo.ncaches++;
	}
	plan_past_bytes = (size_t)num_or(root, "mlp.working_set_bytes", 0);
	return rc;
}

TEST(corpus_mlp_levels_planned_from_the_curve)
{
	REPLAY_BEGIN("mlp.plan_levels", "report.json", plan_load)
	{
		struct mlp_level lv[MLP_LEVELS];
		unsigned n;

		CHECK(lrc == 0 && plan_past_bytes, "%s: latency or mlp unreadable (%d)", cpus[ci].name, lrc);
		n = mlp_levels_plan_curve(&plan_topo, curve_of(&lat), plan_past_bytes, lv);
		CHECK(n == answer(&cpus[ci], "mlp.plan_levels"), "%s: %u rows, answer %g", cpus[ci].name, n,
		      answer(&cpus[ci], "mlp.plan_levels"));
		for (unsigned i = 0; i < n; i++) {
			bool curve = !strcmp(lv[i].size_source, CACHE_FROM_CURVE);

			CHECK(lv[i].working_set_bytes == answer(&cpus[ci], "mlp.plan.level%u.working_set_bytes", i + 1) &&
				      curve == answer(&cpus[ci], "mlp.plan.level%u.from_curve", i + 1),
			      "%s: row %u (%s) %zu B from %s (%s); answer %g, from_curve %g", cpus[ci].name, i + 1,
			      lv[i].name, lv[i].working_set_bytes, lv[i].size_source, lv[i].size_from,
			      answer(&cpus[ci], "mlp.plan.level%u.working_set_bytes", i + 1),
			      answer(&cpus[ci], "mlp.plan.level%u.from_curve", i + 1));
		}
	}
	REPLAY_END("mlp levels planned");
}

/* ---- bandwidth ---- */

static struct bandwidth_result bwr;
static struct bandwidth_point bw_points[64];
static struct stream_kernel bw_kernels[64];
static unsigned bw_unpreempted, bw_picked_right;

static int bandwidth_load(const struct jsonr_value *root)
{
	const struct jsonr_value *arr = jsonr_get(root, "bandwidth.kernels");
	size_t n = jsonr_get_count(root, "bandwidth.kernels");

	memset(&bwr, 0, sizeof(bwr));
	memset(bw_points, 0, sizeof(bw_points));
	bw_unpreempted = bw_picked_right = 0;
	if (!arr || !n || n > 64 || !jsonr_get(root, "bandwidth.overlap_ok"))
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		const struct jsonr_value *j = jsonr_index(arr, (unsigned)i);
		struct bandwidth_point *pt = &bw_points[i];
		bool preempted[BANDWIDTH_MAX_TRIALS] = {0};
		unsigned nt, best;

		bw_kernels[i].name = jsonr_get_string(j, "kernel");
		pt->kernel = &bw_kernels[i];
		pt->threads = (unsigned)num_or(j, "threads", 0);
		pt->overlap_pct = num_or(j, "overlap_pct", NAN);
		pt->gbps = num_or(j, "gbps", NAN);
		nt = numbers(j, "trials_gbps", pt->trials_gbps, BANDWIDTH_MAX_TRIALS);
		pt->ntrials = nt;
		/* The per-trial flags are not in the report, only their count:
		 * where none was preempted the rule must pick the fastest trial. */
		if (num_or(j, "preempted_trials", 1) != 0)
			continue;
		best = bandwidth_pick_trial(pt->trials_gbps, preempted, nt);
		bw_unpreempted++;
		bw_picked_right += nt && near(pt->trials_gbps[best], pt->gbps, 1e-6);
	}
	bwr.points = bw_points;
	bwr.npoints = (unsigned)n;
	bandwidth_check_overlap(&bwr);
	return 0;
}

TEST(corpus_bandwidth_overlap_check)
{
	REPLAY_BEGIN("bandwidth.overlap_ok", "report.json", bandwidth_load)
	{
		CHECK(lrc == 0, "%s: bandwidth section unreadable (%d)", cpus[ci].name, lrc);
		CHECK(bwr.overlap_ok == answer(&cpus[ci], "bandwidth.overlap_ok") &&
			      near(bwr.overlap_min_pct, answer(&cpus[ci], "bandwidth.overlap_min_pct"), 1e-4),
		      "%s: overlap ok %d, min %.2f%%; answer %g, %g", cpus[ci].name, bwr.overlap_ok,
		      bwr.overlap_min_pct, answer(&cpus[ci], "bandwidth.overlap_ok"),
		      answer(&cpus[ci], "bandwidth.overlap_min_pct"));
	}
	REPLAY_END("bandwidth overlap");
}

TEST(corpus_bandwidth_preemption_rule_picks_the_recorded_trial)
{
	REPLAY_BEGIN("bandwidth.points_unpreempted", "report.json", bandwidth_load)
	{
		struct bandwidth_point *pt = &bw_points[0];
		bool flags[BANDWIDTH_MAX_TRIALS] = {0}, rev_flags[BANDWIDTH_MAX_TRIALS];
		double rev_gbps[BANDWIDTH_MAX_TRIALS];
		unsigned nt = pt->ntrials, best, again, rev, clean = nt;

		CHECK(lrc == 0, "%s: bandwidth section unreadable (%d)", cpus[ci].name, lrc);
		CHECK(bw_unpreempted == answer(&cpus[ci], "bandwidth.points_unpreempted") &&
			      bw_picked_right == bw_unpreempted,
		      "%s: %u of %u unpreempted points pick the recorded trial; answer %g points", cpus[ci].name,
		      bw_picked_right, bw_unpreempted, answer(&cpus[ci], "bandwidth.points_unpreempted"));
		/* The same recorded trials with the fastest one's thread off its
		 * CPU: the estimate moves to the best of the others, in either
		 * order of the trials (a rule that let a preempted trial stand
		 * until the next clean one would pass in one order only). */
		CHECK(nt >= 2, "%s: %u trials", cpus[ci].name, nt);
		best = bandwidth_pick_trial(pt->trials_gbps, flags, nt);
		flags[best] = true;
		for (unsigned t = 0; t < nt; t++)
			if (t != best && (clean == nt || pt->trials_gbps[t] > pt->trials_gbps[clean]))
				clean = t;
		again = bandwidth_pick_trial(pt->trials_gbps, flags, nt);
		for (unsigned t = 0; t < nt; t++) {
			rev_gbps[t] = pt->trials_gbps[nt - 1 - t];
			rev_flags[t] = flags[nt - 1 - t];
		}
		rev = nt - 1 - bandwidth_pick_trial(rev_gbps, rev_flags, nt);
		CHECK(again == clean && rev == clean, "%s: picked trial %u (reversed: %u), the best clean one is %u",
		      cpus[ci].name, again, rev, clean);
		/* ... and when the preempted one came first, before any clean one. */
		for (unsigned t = 0; t < nt; t++) {
			rev_gbps[t] = pt->trials_gbps[(best + t) % nt];
			rev_flags[t] = flags[(best + t) % nt];
		}
		rev = (best + bandwidth_pick_trial(rev_gbps, rev_flags, nt)) % nt;
		CHECK(rev == clean, "%s: preempted trial first: picked %u, the best clean one is %u", cpus[ci].name, rev,
		      clean);
		/* Every trial preempted: the best of all stands. */
		for (unsigned t = 0; t < nt; t++)
			flags[t] = true;
		CHECK(bandwidth_pick_trial(pt->trials_gbps, flags, nt) == best, "%s: all preempted, not the best kept",
		      cpus[ci].name);
	}
	REPLAY_END("bandwidth preemption");
}

/* ---- app ---- */

static struct app_kernel_result appr;

static int app_load(const struct jsonr_value *root)
{
	const struct jsonr_value *A = jsonr_get(root, "app.bwt"), *vars = jsonr_get(root, "app.bwt.variants");
	const struct jsonr_value *cp = jsonr_get(root, "app.bwt.chase.points");
	size_t nv = jsonr_get_count(root, "app.bwt.variants"), nc = jsonr_get_count(root, "app.bwt.chase.points");

	memset(&appr, 0, sizeof(appr));
	if (!A || !nv || nv > APP_VARIANTS_MAX || nc > APP_NLANE_SET)
		return -ENOENT;
	for (size_t v = 0; v < nv; v++) {
		const struct jsonr_value *jv = jsonr_index(vars, (unsigned)v);
		const struct jsonr_value *pts = jsonr_get(jv, "points");
		struct app_variant *var = &appr.variants[v];
		size_t np = jsonr_get_count(jv, "points");

		if (np > APP_NLANE_SET)
			return -EPROTO;
		var->name = jsonr_get_string(jv, "name");
		for (size_t i = 0; i < np; i++) {
			const struct jsonr_value *j = jsonr_index(pts, (unsigned)i);
			struct app_point *pt = &var->points[i];

			pt->k = (unsigned)num_or(j, "k", 0);
			pt->dependent_loads_per_item = num_or(j, "dependent_loads_per_item", 0);
			pt->loads_per_item = num_or(j, "loads_per_item", 0);
			pt->ntrials = numbers(j, "trials_ns_per_item", pt->trials_ns, APP_TRIALS_MAX);
		}
		var->npoints = (unsigned)np;
	}
	appr.nvariants = (unsigned)nv;
	jsonr_get_bool(A, "chase.ran", &appr.chase.ran);
	appr.chase.latency_ns = num_or(A, "chase.latency_ns", NAN);
	appr.chase.noise_floor_pct = num_or(A, "chase.noise_floor_pct", NAN);
	for (size_t i = 0; i < nc; i++) {
		appr.chase.k[i] = (unsigned)num_or(jsonr_index(cp, (unsigned)i), "k", 0);
		appr.chase.speedup[i] = num_or(jsonr_index(cp, (unsigned)i), "speedup", NAN);
	}
	appr.chase.npoints = (unsigned)nc;
	/* The kernel's own choice of the variant its headline reads. */
	appr.headline_want = jsonr_get_string(A, "headline.variant");
	app_finish(NULL, &appr);
	return 0;
}

TEST(corpus_app_bwt_knees_and_headline)
{
	REPLAY_BEGIN("app.bwt.headline_ratio", "report.json", app_load)
	{
		CHECK(lrc == 0, "%s: app section unreadable (%d)", cpus[ci].name, lrc);
		CHECK(appr.headline_k == answer(&cpus[ci], "app.bwt.headline_k") &&
			      near(appr.headline_speedup, answer(&cpus[ci], "app.bwt.headline_speedup"), 1e-3) &&
			      near(appr.headline_ratio, answer(&cpus[ci], "app.bwt.headline_ratio"), 1e-3),
		      "%s: S %.3f at K=%u, R %.3f; answer %g at %g, %g", cpus[ci].name, appr.headline_speedup,
		      appr.headline_k, appr.headline_ratio, answer(&cpus[ci], "app.bwt.headline_speedup"),
		      answer(&cpus[ci], "app.bwt.headline_k"), answer(&cpus[ci], "app.bwt.headline_ratio"));
		for (unsigned v = 0; v < appr.nvariants; v++)
			CHECK(near(appr.variants[v].knee_k, answer(&cpus[ci], "app.bwt.variant%u.knee_k", v + 1), 1e-3) &&
				      appr.variants[v].plateau_k == answer(&cpus[ci], "app.bwt.variant%u.plateau_k", v + 1),
			      "%s: %s knee %.2f plateau %u; answer %g, %g", cpus[ci].name, appr.variants[v].name,
			      appr.variants[v].knee_k, appr.variants[v].plateau_k,
			      answer(&cpus[ci], "app.bwt.variant%u.knee_k", v + 1),
			      answer(&cpus[ci], "app.bwt.variant%u.plateau_k", v + 1));
	}
	REPLAY_END("app bwt");
}

/* ---- window ---- */

static unsigned win_checked, win_agree;
static char win_first_bad[160];

/* Each filler's first sweep through the step fit: where it steps. */
static int window_load(const struct jsonr_value *root)
{
	const struct jsonr_value *fl = jsonr_get(root, "window.fillers");
	size_t nf = jsonr_get_count(root, "window.fillers");
	double tol = num_or(root, "window.noise_floor_pct", NAN) / 100.0;

	win_checked = win_agree = 0;
	win_first_bad[0] = 0;
	if (!fl || !nf)
		return -ENOENT;
	for (size_t f = 0; f < nf; f++) {
		const struct jsonr_value *jf = jsonr_index(fl, (unsigned)f), *pts = jsonr_get(jf, "points");
		size_t np = jsonr_get_count(jf, "points");
		unsigned n[WINDOW_MAX_POINTS];
		double t[WINDOW_MAX_POINTS], fits = NAN, fails = NAN;
		struct window_fit fit;

		if (np < 3 || np > WINDOW_MAX_POINTS)
			continue;
		for (size_t i = 0; i < np; i++) {
			n[i] = (unsigned)num_or(jsonr_index(pts, (unsigned)i), "n", 0);
			t[i] = num_or(jsonr_index(pts, (unsigned)i), "ns_per_iter", NAN);
		}
		if (window_fit_steps(n, t, np, tol, &fit))
			return -EPROTO;
		jsonr_get_number(jf, "step_n_fits", &fits);
		jsonr_get_number(jf, "step_n_fails", &fails);
		win_checked++;
		if (fit.step_found ? n[fit.fits_index] == fits && n[fit.step_index] == fails : isnan(fits))
			win_agree++;
		else if (!win_first_bad[0])
			snprintf(win_first_bad, sizeof(win_first_bad), "%s: fit %s %u/%u, run %g/%g",
				 jsonr_get_string(jf, "filler"), fit.step_found ? "steps" : "no step",
				 fit.step_found ? n[fit.fits_index] : 0, fit.step_found ? n[fit.step_index] : 0, fits,
				 fails);
	}
	return 0;
}

TEST(corpus_window_steps_where_the_run_found_them)
{
	REPLAY_BEGIN("window.fillers", "window.json", window_load)
	{
		CHECK(lrc == 0, "%s: window unreadable (%d)", cpus[ci].name, lrc);
		CHECK(win_checked == answer(&cpus[ci], "window.fillers") && win_agree == win_checked,
		      "%s: %u of %u fillers step where the run found (answer %g fillers); %s", cpus[ci].name,
		      win_agree, win_checked, answer(&cpus[ci], "window.fillers"), win_first_bad);
	}
	REPLAY_END("window steps");
}

/* Each filler's recorded capacities through the per-structure summary:
 * the figure a structure gets (the largest bracket among the fillers
 * bounding it), or none where no filler stepped. */
static struct window_result winr;
static const char *const win_answer_keys[PROBE_STRUCT_COUNT] = {"window.rob", "window.int_prf", "window.fp_prf",
								 "window.sq", "window.lq"};

/* A filler's points and its ramp onset, as the run recorded them. */
static void window_points_load(const struct jsonr_value *jf, struct window_filler_result *fr)
{
	const struct jsonr_value *pts = jsonr_get(jf, "points");
	size_t np = jsonr_get_count(jf, "points");
	double onset;

	fr->npoints = 0;
	for (size_t i = 0; i < np && i < WINDOW_MAX_POINTS; i++) {
		fr->points[i].n = (unsigned)num_or(jsonr_index(pts, (unsigned)i), "n", 0);
		fr->points[i].ns_per_iter = num_or(jsonr_index(pts, (unsigned)i), "ns_per_iter", NAN);
		fr->npoints++;
	}
	fr->ramp_found = jsonr_get_number(jf, "ramp_onset_n", &onset);
	fr->ramp_onset_n = fr->ramp_found ? (unsigned)onset : 0;
}

static int window_summary_load(const struct jsonr_value *root)
{
	const struct jsonr_value *fl = jsonr_get(root, "window.fillers");
	size_t nf = jsonr_get_count(root, "window.fillers");

	memset(&winr, 0, sizeof(winr));
	if (!fl || !nf || nf > PROBE_FILLER_COUNT)
		return -ENOENT;
	for (size_t f = 0; f < nf; f++) {
		const struct jsonr_value *jf = jsonr_index(fl, (unsigned)f);
		struct window_filler_result *fr = &winr.fillers[f];
		const char *name = jsonr_get_string(jf, "filler");
		double fits;

		if (!name || probe_filler_parse(name, &fr->filler))
			return -EPROTO;
		fr->name = probe_filler_info(fr->filler)->name;
		fr->step_found = jsonr_get_number(jf, "step_n_fits", &fits);
		fr->step_n_fits = fr->step_found ? (unsigned)fits : 0;
		fr->step_n_fails = (unsigned)num_or(jf, "step_n_fails", 0);
		/* An early schema has the one sweep's bracket only. */
		fr->whole_capacity = num_or(jf, "whole_capacity", num_or(jf, "capacity", NAN));
		fr->whole_capacity_low = num_or(jf, "whole_capacity_low", num_or(jf, "capacity_low", fr->whole_capacity));
		fr->whole_capacity_high = num_or(jf, "whole_capacity_high", num_or(jf, "capacity_high", fr->whole_capacity));
		jsonr_get_bool(jf, "partitioned", &fr->partitioned);
		window_points_load(jf, fr);
	}
	winr.nfillers = (unsigned)nf;
	winr.noise_floor_pct = num_or(root, "window.noise_floor_pct", NAN);
	window_summarise(&winr);
	return 0;
}

TEST(corpus_window_structures_rob_prf_sq_lq)
{
	REPLAY_BEGIN("window.fillers", "window.json", window_summary_load)
	{
		CHECK(lrc == 0, "%s: window unreadable (%d)", cpus[ci].name, lrc);
		for (unsigned i = 0; i < winr.nsummary; i++) {
			const struct window_summary *sm = &winr.summary[i];
			const char *key = win_answer_keys[sm->structure];
			double want = answer(&cpus[ci], "%s", key);

			CHECK(sm->measured ? near(sm->capacity, want, 1e-6) : isnan(want),
			      "%s: %s %s%.1f, answer %g", cpus[ci].name, probe_structure_name(sm->structure),
			      sm->measured ? "" : "not measured ", sm->capacity, want);
		}
	}
	REPLAY_END("window structures");
}

/* Seed 004's ramp from Q/2, checked per filler on the recorded runs and
 * per structure on the filler its figure comes from: the answers say where
 * it holds and where it does not (Emerald Rapids' load_fp ramps from N=32
 * with its step at 187). */
TEST(corpus_window_ramps_against_their_steps)
{
	REPLAY_BEGIN("window.ramps_stepped", "window.json", window_summary_load)
	{
		unsigned stepped = 0, at_half = 0, earlier = 0;

		CHECK(lrc == 0, "%s: window unreadable (%d)", cpus[ci].name, lrc);
		for (unsigned f = 0; f < winr.nfillers; f++) {
			struct window_ramp_check c;

			window_ramp_check(&winr.fillers[f], &c);
			stepped += c.verdict != WINDOW_RAMP_NO_STEP;
			at_half += c.verdict == WINDOW_RAMP_AT_HALF;
			earlier += c.verdict == WINDOW_RAMP_EARLIER;
		}
		CHECK(stepped == answer(&cpus[ci], "window.ramps_stepped") &&
		      at_half == answer(&cpus[ci], "window.ramps_at_half") &&
		      earlier == answer(&cpus[ci], "window.ramps_earlier"),
		      "%s: %u stepped, %u at Q/2, %u earlier; answers %g %g %g", cpus[ci].name, stepped, at_half, earlier,
		      answer(&cpus[ci], "window.ramps_stepped"), answer(&cpus[ci], "window.ramps_at_half"),
		      answer(&cpus[ci], "window.ramps_earlier"));
		for (unsigned i = 0; i < winr.nsummary; i++) {
			const struct window_summary *sm = &winr.summary[i];
			struct window_ramp_check c;
			double want;

			if (!sm->measured)
				continue;
			window_ramp_check(&winr.fillers[sm->from], &c);
			want = answer(&cpus[ci], "%s.ramp_at_half", win_answer_keys[sm->structure]);
			CHECK((c.verdict == WINDOW_RAMP_AT_HALF) == (want == 1) && (want == 0 || want == 1),
			      "%s: %s from %s: ramp %s (%.2f-%.2f of the step), answer %g", cpus[ci].name,
			      probe_structure_name(sm->structure), winr.fillers[sm->from].name,
			      window_ramp_verdict_key(c.verdict), c.ratio_low, c.ratio_high, want);
		}
	}
	REPLAY_END("window ramps");
}
