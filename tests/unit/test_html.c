/*
 * Report files drawn from JSON: SVG plots, the HTML page, tidy CSV and
 * compare. Fixtures are real runs on an AMD EPYC VM, trimmed of raw
 * per-trial arrays: tests/data/report_a.json (report --quick),
 * report_b.json (report --quick --pages both --seed 2), window.json
 * (window --quick --fillers nop,int_add,store --max-n 256) and
 * mlp_small_set.json (mlp --quick --size 256M --max-lanes 24 --trials 3);
 * app_bzip2.json is `app bzip2 --json` on the Ice Lake guest, whole.
 * Parsing is checked with real parsers (python3's xml.etree, html.parser,
 * csv via tests/check_report_files.py); without python3 those tests SKIP.
 */
#include "../harness.h"

#include "util/jsonr.h"
#include "sections/compare.h"
#include "analyse/load.h"
#include "analyse/vet.h"
#include "frame/registry.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/plots.h"
#include "report/svg.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void repo_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/../%s", test_bin_dir(), rel);
	if (access(buf, R_OK))
		snprintf(buf, len, "%s", rel);
}

static bool have_python(void)
{
	return system("python3 -c 'import xml.etree.ElementTree, html.parser, csv' >/dev/null 2>&1") == 0;
}

/* Run the checker; 0 when it is content. */
static int check_files(const char *args)
{
	char script[4096], cmd[16384];

	repo_path(script, sizeof(script), "tests/check_report_files.py");
	snprintf(cmd, sizeof(cmd), "python3 '%s' %s", script, args);
	return system(cmd);
}

struct fixtures {
	struct jsonr_doc doc[4];
	const struct jsonr_value *root[4];
	const char *label[4];
	size_t n;
};

static int load(struct fixtures *fx, const char *const *names, size_t n)
{
	char path[4096], err[256];

	memset(fx, 0, sizeof(*fx));
	for (size_t i = 0; i < n; i++) {
		repo_path(path, sizeof(path), names[i]);
		if (jsonr_parse_file(path, 0, &fx->doc[i], err, sizeof(err)))
			return -1;
		fx->root[i] = fx->doc[i].root;
		fx->label[i] = strrchr(names[i], '/') + 1;
		fx->n++;
	}
	return 0;
}

static void unload(struct fixtures *fx)
{
	for (size_t i = 0; i < fx->n; i++)
		jsonr_free(&fx->doc[i]);
}

/* Draw the plot named name as the page does: through its view. */
static int draw(const char *name, struct svg_plot *p, const struct jsonr_value *const *docs,
		const char *const *labels, size_t n)
{
	const struct view_plot *v = plots_find(registry_views(), name);

	if (v)
		return v->build(p, docs, labels, n);
	svg_plot_init(p, name, "no such plot", "", SVG_LINEAR, "", SVG_LINEAR);
	return -EINVAL;
}

static const char *const three[] = { "tests/data/report_a.json", "tests/data/report_b.json", "tests/data/window.json" };

TEST(svg_escapes_text_and_parses_as_xml, NEEDS_PROGRAMS)
{
	struct svg_plot p;
	char dir[64], path[128], args[256], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len), *g;
	int s;

	CHECK(f, "open_memstream");
	svg_plot_init(&p, "t1", "a <b> & \"c\" 'd'", "size (bytes)", SVG_LOG2, "time (ns)", SVG_LOG10);
	p.x.ticks = SVG_TICKS_BYTES;
	s = svg_plot_series(&p, "x<y & \x01z", SVG_POINTS | SVG_LINES, SVG_AUTO, SVG_AUTO);
	CHECK(s == 0, "first series index %d", s);
	CHECK(svg_plot_point(&p, s, 4096, 1.2, 0.1) == 0, "point");
	CHECK(svg_plot_point(&p, s, 1 << 20, 30, NAN) == 0, "point");
	CHECK(svg_plot_point(&p, s, -1, 5, NAN) == 0, "a point a log axis cannot draw is kept, not drawn");
	CHECK(svg_plot_point(&p, 7, 1, 1, NAN) == -EINVAL, "a series that does not exist");
	CHECK(svg_plot_vline(&p, 32768, "L1d 32 KiB (OS) <&>", SVG_GREY, true) == 0, "vline");
	CHECK(svg_plot_hline(&p, 10, "idle", 0, true) == 0, "hline");
	CHECK(svg_plot_write(&p, f, true) == 0, "write");
	fclose(f);
	svg_plot_free(&p);
	CHECK(strstr(buf, "a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;"), "title escaped: %.300s", buf);
	CHECK(strstr(buf, "x&lt;y &amp; z"), "control character dropped, text escaped");
	CHECK(!strstr(buf, "<b>") && !strstr(buf, "\x01"), "raw markup leaked");
	CHECK(strstr(buf, "32 KiB") && strstr(buf, "1 MiB"), "byte ticks in binary units");
	if (!have_python()) {
		free(buf);
		SKIP("python3 with xml.etree is not installed");
	}
	test_scratch_make(dir, sizeof(dir), "html");
	CHECK(dir[0], "mkdtemp");
	snprintf(path, sizeof(path), "%s/t.svg", dir);
	g = fopen(path, "w");
	CHECK(g, "fopen");
	fputs(buf, g);
	fclose(g);
	free(buf);
	snprintf(args, sizeof(args), "svg '%s'", path);
	s = check_files(args);
	/* The checker must be able to fail: a broken file is refused. */
	g = fopen(path, "w");
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><text>a & b</text></svg>", g);
	fclose(g);
	snprintf(args, sizeof(args), "svg '%s' 2>/dev/null", path);
	int broken = check_files(args);
	test_scratch_remove(dir, "html");
	CHECK(s == 0, "the plot does not parse as XML");
	CHECK(broken != 0, "the checker accepted an unescaped '&'");
}

TEST(svg_write_dir_writes_every_plot_with_data, NEEDS_PROGRAMS)
{
	struct fixtures fx;
	char dir[64], args[1024];
	static const char *const want[] = { "latency", "lanes_time", "lanes_concurrency", "window", "loaded" };
	struct stat st;
	int rc;

	CHECK(load(&fx, three, 3) == 0, "fixtures");
	test_scratch_make(dir, sizeof(dir), "html");
	CHECK(dir[0], "mkdtemp");
	rc = svg_write_dir(dir, registry_views(), fx.root, fx.label, fx.n);
	unload(&fx);
	CHECK(rc == 0, "svg_write_dir: %s", strerror(-rc));
	snprintf(args, sizeof(args), "svg");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char path[128];

		snprintf(path, sizeof(path), "%s/%s.svg", dir, want[i]);
		CHECK(stat(path, &st) == 0 && st.st_size > 1000, "%s missing or tiny", path);
		snprintf(args + strlen(args), sizeof(args) - strlen(args), " '%s'", path);
	}
	rc = have_python() ? check_files(args) : 0;
	CHECK(rc == 0, "an SVG file does not parse");
	/* Rewriting the directory from runs without a window section removes the
	 * window plot: a stale file must not pass for one of these runs. */
	char window_path[128];

	snprintf(window_path, sizeof(window_path), "%s/window.svg", dir);
	CHECK(load(&fx, three, 2) == 0, "fixtures");
	rc = svg_write_dir(dir, registry_views(), fx.root, fx.label, fx.n);
	unload(&fx);
	int stale = stat(window_path, &st) == 0;

	test_scratch_remove(dir, "html");
	CHECK(rc == 0 && !stale, "rewrite: rc %d, stale window.svg left: %d", rc, stale);
	if (!have_python())
		SKIP("python3 is not installed: the SVG files were not parsed");
}

TEST(svg_plots_draw_the_fitted_model_and_knee)
{
	struct fixtures fx;
	struct svg_plot p;
	static const char *const one[] = { "tests/data/report_a.json" };
	bool knee = false, model = false;
	double L = 0, Ks = 0;

	CHECK(load(&fx, one, 1) == 0, "fixture");
	CHECK(jsonr_get_number(fx.root[0], "mlp.estimate.fit_latency_ns", &L), "L");
	CHECK(jsonr_get_number(fx.root[0], "mlp.estimate.fit_saturation_lanes", &Ks), "Ks");
	CHECK(draw("lanes_time", &p, fx.root, fx.label, 1) == 0, "lanes plot");
	for (size_t i = 0; i < p.nmarks; i++)
		knee |= p.marks[i].kind == SVG_MARK_VLINE && fabs(p.marks[i].x0 - Ks) < 1e-9;
	for (size_t i = 0; i < p.nseries; i++) {
		const struct svg_series *s = &p.series[i];

		if (!(s->style & SVG_DASHED) || !strstr(s->label, "model"))
			continue;
		/* On the model, t(1) = L and every K past the knee gives L/Ks. */
		model = s->n > 10 && fabs(s->y[0] - L) < 1e-9 && fabs(s->y[s->n - 1] - L / Ks) < 1e-9;
	}
	svg_plot_free(&p);
	CHECK(draw("window", &p, fx.root, fx.label, 1) == -ENOENT, "no window section: no plot");
	svg_plot_free(&p);
	unload(&fx);
	CHECK(knee, "no marker line at Ks = %g", Ks);
	CHECK(model, "model curve does not run from L to L/Ks");
}

TEST(html_parses_and_holds_nothing_external, NEEDS_PROGRAMS)
{
	struct fixtures fx;
	char dir[64], path[128], args[256], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	CHECK(load(&fx, three, 3) == 0, "fixtures");
	f = open_memstream(&buf, &len);
	CHECK(f, "open_memstream");
	rc = html_write(f, registry_views(), fx.root, fx.label, fx.n);
	fclose(f);
	CHECK(html_write(stdout, registry_views(), fx.root, fx.label, 0) == -EINVAL, "no documents");
	unload(&fx);
	CHECK(rc == 0, "html_write: %d", rc);
	CHECK(strstr(buf, "Ks = 22.3 +/- 1.5"), "knee label of run A missing");
	CHECK(strstr(buf, "<td class=\"n\">22.3</td>"), "estimate table of run A missing");
	CHECK(strstr(buf, "int_add") && strstr(buf, "integer register file"), "window table missing");
	/* The envelope beside the measurement, naming the binding term; B
	 * never from the sweep it explains. */
	CHECK(strstr(buf, "envelope: t(K) &gt;= max(L/K, u/P") && strstr(buf, "<td>latency</td>") &&
	      strstr(buf, "never this sweep"), "envelope table missing or names no binding term");
	CHECK(!strstr(buf, "<script"), "a script in the page");
	if (!have_python()) {
		free(buf);
		SKIP("python3 is not installed");
	}
	test_scratch_make(dir, sizeof(dir), "html");
	CHECK(dir[0], "mkdtemp");
	snprintf(path, sizeof(path), "%s/r.html", dir);
	f = fopen(path, "w");
	CHECK(f, "fopen");
	fputs(buf, f);
	fclose(f);
	snprintf(args, sizeof(args), "html '%s' 7", path);
	rc = check_files(args);
	/* And the checker fails on a page that loads something. */
	f = fopen(path, "w");
	fprintf(f, "%s", buf);
	fputs("<img src=\"http://example.com/x.png\">", f);
	fclose(f);
	snprintf(args, sizeof(args), "html '%s' 5 2>/dev/null", path);
	int external = check_files(args);
	free(buf);
	test_scratch_remove(dir, "html");
	CHECK(rc == 0, "the HTML or an inline SVG does not parse, or it refers outside itself");
	CHECK(external != 0, "the checker accepted an external image");
}

TEST(csv_quotes_fields_as_rfc4180_asks)
{
	char buf[256] = { 0 };
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	CHECK(f, "fmemopen");
	csv_write_field(f, "plain");
	fputc('|', f);
	csv_write_field(f, "a,b");
	fputc('|', f);
	csv_write_field(f, "say \"hi\"");
	fputc('|', f);
	csv_write_field(f, "two\nlines");
	fclose(f);
	CHECK(!strcmp(buf, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\""), "got %s", buf);
}

TEST(csv_round_trips_through_python_csv, NEEDS_PROGRAMS)
{
	struct fixtures fx;
	char dir[64], args[4400], jpath[4096];
	static const char *const docs[] = { "tests/data/report_b.json", "tests/data/window.json" };
	struct stat st;
	int rc;

	CHECK(load(&fx, docs, 2) == 0, "fixtures");
	test_scratch_make(dir, sizeof(dir), "html");
	CHECK(dir[0], "mkdtemp");
	rc = registry_write_csv(dir, fx.root[0]);
	unload(&fx);
	CHECK(rc == 0, "registry_write_csv: %s", strerror(-rc));
	snprintf(args, sizeof(args), "%s/mlp_sweep.csv", dir);
	CHECK(stat(args, &st) == 0 && st.st_size > 500, "mlp_sweep.csv missing");
	snprintf(args, sizeof(args), "%s/window_points.csv", dir);
	CHECK(stat(args, &st) != 0, "a window table from a run without one");
	if (!have_python()) {
		test_scratch_remove(dir, "html");
		SKIP("python3 is not installed");
	}
	repo_path(jpath, sizeof(jpath), "tests/data/report_b.json");
	snprintf(args, sizeof(args), "csv '%s' '%s'", dir, jpath);
	rc = check_files(args);
	/* Against another run's JSON, the round trip must fail. */
	repo_path(jpath, sizeof(jpath), "tests/data/report_a.json");
	snprintf(args, sizeof(args), "csv '%s' '%s' 2>/dev/null", dir, jpath);
	int other = check_files(args);
	test_scratch_remove(dir, "html");
	CHECK(rc == 0, "CSV does not read back as the JSON");
	CHECK(other != 0, "the checker accepted another run's values");

	/* The window run's tables, too. */
	CHECK(load(&fx, docs, 2) == 0, "fixtures");
	test_scratch_make(dir, sizeof(dir), "html");
	rc = registry_write_csv(dir, fx.root[1]);
	unload(&fx);
	CHECK(rc == 0, "registry_write_csv window: %s", strerror(-rc));
	repo_path(jpath, sizeof(jpath), "tests/data/window.json");
	snprintf(args, sizeof(args), "csv '%s' '%s'", dir, jpath);
	rc = check_files(args);
	test_scratch_remove(dir, "html");
	CHECK(rc == 0, "window CSV does not read back as the JSON");
}

static int compare_capture(const char *a, const char *b, char **out, char *err, size_t errlen)
{
	char pa[4096], pb[4096];
	const char *paths[2] = { pa, pb };
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	int rc;

	repo_path(pa, sizeof(pa), a);
	repo_path(pb, sizeof(pb), b);
	rc = compare_run(paths, 2, f, NULL, err, errlen);
	fclose(f);
	return rc;
}

TEST(compare_prints_ratios_of_two_runs)
{
	char *out = NULL, err[256] = "";
	int rc = compare_capture("tests/data/report_a.json", "tests/data/report_b.json", &out, err, sizeof(err));

	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(out, "B/A"), "no ratio column:\n%s", out);
	/* chase at max: 152.2 / 157.3 */
	CHECK(strstr(out, "latency at the largest working set") && strstr(out, "0.97"), "latency ratio:\n%s", out);
	CHECK(strstr(out, "MLP estimate Ks (huge pages)") && strstr(out, "22.26 +- 1.47"), "Ks with uncertainty:\n%s", out);
	CHECK(strstr(out, "best read bandwidth, 1 thread"), "bandwidth row:\n%s", out);
	/* B also swept small pages; A did not: said, not compared to nothing. */
	CHECK(strstr(out, "MLP estimate Ks (small pages): not measured in A"), "small-page arm:\n%s", out);
	CHECK(strstr(out, "levels detected"), "level counts differ (5 vs 4) and must be named:\n%s", out);
	free(out);
}

TEST(compare_names_mismatched_settings)
{
	char *out = NULL, err[256] = "";
	int rc = compare_capture("tests/data/report_a.json", "tests/data/mlp_small_set.json", &out, err, sizeof(err));

	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(out, "working set (bytes):  A 1073741824  B 268435456"), "working set mismatch:\n%s", out);
	CHECK(strstr(out, "trials per point:  A 6  B 3"), "trials mismatch:\n%s", out);
	CHECK(strstr(out, "MLP estimate Ks (huge pages): working set (bytes) differs"), "skipped row and reason:\n%s", out);
	CHECK(!strstr(out, "MLP estimate Ks (huge pages)        "), "a mismatched row was compared:\n%s", out);
	free(out);
}

TEST(compare_refuses_bad_input_with_2)
{
	static const struct {
		const char *file, *says;
		int rc;
	} cases[] = {
		{ "tests/data/not_mlpscope.json", "not an mlpscope result", 2 },
		{ "tests/data/truncated.json", "not a complete JSON document", 2 },
		{ "tests/data/newer_schema.json", "schema_version 99 is newer", 2 },
		{ "tests/data/no_such_file.json", "No such file", 1 },
	};
	char *out = NULL, err[512];
	const char *one[1] = { "tests/data/report_a.json" };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		err[0] = 0;
		rc = compare_capture("tests/data/report_a.json", cases[i].file, &out, err, sizeof(err));
		free(out);
		out = NULL;
		CHECK(rc == cases[i].rc, "%s: rc %d, want %d (%s)", cases[i].file, rc, cases[i].rc, err);
		CHECK(strstr(err, cases[i].says) && strstr(err, strrchr(cases[i].file, '/') + 1),
		      "%s: message '%s'", cases[i].file, err);
		CHECK(!strchr(err, '\n'), "one line: '%s'", err);
	}
	CHECK(compare_run(one, 1, stdout, NULL, err, sizeof(err)) == 2 && strstr(err, "2 to"), "one file: %s", err);
}

TEST(compare_writes_html_with_every_run)
{
	char dir[64], html[128], pa[4096], pb[4096], *out = NULL, err[256] = "", *page;
	const char *paths[2] = { pa, pb };
	size_t len = 0;
	FILE *f;
	long size;
	int rc;

	repo_path(pa, sizeof(pa), "tests/data/report_a.json");
	repo_path(pb, sizeof(pb), "tests/data/report_b.json");
	test_scratch_make(dir, sizeof(dir), "html");
	CHECK(dir[0], "mkdtemp");
	snprintf(html, sizeof(html), "%s/c.html", dir);
	f = open_memstream(&out, &len);
	rc = compare_run(paths, 2, f, html, err, sizeof(err));
	fclose(f);
	free(out);
	f = fopen(html, "r");
	CHECK(rc == 0 && f, "rc %d (%s), html %s", rc, err, f ? "written" : "absent");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	page = calloc(1, (size_t)size + 1);
	CHECK(page && fread(page, 1, (size_t)size, f) == (size_t)size, "read back");
	fclose(f);
	rc = strstr(page, "report_a.json: measured, huge pages") && strstr(page, "report_b.json: measured, small pages");
	free(page);
	test_scratch_remove(dir, "html");
	CHECK(rc, "both runs' series must share the lanes plots");
}

/* The histogram holds every region once: counts over a series' bins sum to
 * its regions (each bin is drawn as two points at the same height), and a
 * region 3x its minimum lands in the last bin, not off the axis. */
TEST(latency_dist_plot_bins_every_region)
{
	static const char text[] =
		"{\"latency\":{\"percentiles\":[{\"size_bytes\":16384,\"level\":1,\"region_ns\":[1,1,1.01,1,3]},"
		"{\"size_bytes\":1073741824,\"level\":null,\"region_ns\":[100,110,105]}]},"
		"\"loaded\":{\"curve\":[{\"latency_region_ns\":[90,95]},{\"latency_region_ns\":[80,80,81]}]}}";
	const char *label[] = {"run"};
	const struct jsonr_value *root[1];
	struct jsonr_doc doc;
	struct svg_plot p;
	char err[128];
	double want[3] = {5, 3, 5};

	CHECK(jsonr_parse(text, sizeof(text) - 1, 0, &doc, err, sizeof(err)) == 0, "parse: %s", err);
	root[0] = doc.root;
	/* The keys as the writer emits them pass the reader of saved results. */
	CHECK(vet_result(doc.root, "t.json", err, sizeof(err)) == 0, "vet: %s", err);
	CHECK(draw("latency_dist", &p, root, label, 1) == 0, "no plot");
	CHECK(p.nseries == 3, "%zu series, want 2 chase sizes and loaded", p.nseries);
	for (size_t s = 0; s < p.nseries && s < 3; s++) {
		double sum = 0;

		for (size_t i = 0; i + 1 < p.series[s].n; i += 2)
			sum += p.series[s].y[i];
		CHECK(sum == want[s], "series %zu (%s): %g regions binned, want %g", s, p.series[s].label, sum, want[s]);
	}
	CHECK(p.series[0].y[p.series[0].n - 1] == 1, "the 3x region is not in the last bin");
	CHECK(p.series[0].y[0] == 4, "first bin holds %g, want the 4 regions within 1%%", p.series[0].y[0]);
	svg_plot_free(&p);
	jsonr_free(&doc);
	root[0] = NULL;
	/* A loaded curve saved before region times were kept: nothing to bin. */
	CHECK(jsonr_parse("{\"loaded\":{\"curve\":[{\"latency_ns\":90}]}}", 40, 0, &doc, err, sizeof(err)) == 0,
	      "parse: %s", err);
	root[0] = doc.root;
	CHECK(draw("latency_dist", &p, root, label, 1) == -ENOENT, "a plot from no data");
	svg_plot_free(&p);
	jsonr_free(&doc);
}

/* app.bzip2 (tests/data/app_bzip2.json: `app bzip2 --json` on the Ice Lake
 * guest, whole) gets its own tables, never the kernels' points table with
 * every cell "-", and its plot: decoded MB/s against K, one series per
 * layout and prefetch, libbz2 as a line. */
TEST(html_renders_app_bzip2_tables_and_plot, NEEDS_PROGRAMS)
{
	static const char *const one[] = { "tests/data/app_bzip2.json" };
	struct fixtures fx;
	struct svg_plot p;
	char dir[64], path[128], args[256], *buf = NULL;
	size_t len = 0;
	bool regs_off = false, libbz2_line = false;
	FILE *f;
	int rc;

	CHECK(load(&fx, one, 1) == 0, "fixture");
	CHECK(draw("app_bzip2", &p, fx.root, fx.label, 1) == 0, "no bzip2 plot");
	for (size_t s = 0; s < p.nseries; s++)
		if (!strcmp(p.series[s].label, "registers, prefetch off")) {
			/* K = 1, 2, 4, 8, 16, 32 with the reused buffer; the fresh one is its own series. */
			regs_off = p.series[s].n == 6 && p.series[s].x[0] == 1 && fabs(p.series[s].y[0] - 25.47) < 0.01;
		}
	for (size_t i = 0; i < p.nmarks; i++)
		libbz2_line |= p.marks[i].kind == SVG_MARK_HLINE && fabs(p.marks[i].y - 21.21) < 0.01;
	CHECK(regs_off, "the registers/off series is not K = 1..32 from 25.47 MB/s");
	CHECK(libbz2_line, "no libbz2 line at 21.21 MB/s");
	CHECK(p.nseries == 5, "%zu series, want registers and state off, registers next and two, fresh output",
	      p.nseries);
	svg_plot_free(&p);
	f = open_memstream(&buf, &len);
	CHECK(f, "open_memstream");
	rc = html_write(f, registry_views(), fx.root, fx.label, fx.n);
	fclose(f);
	unload(&fx);
	CHECK(rc == 0, "html_write: %d", rc);
	CHECK(strstr(buf, "id=\"plot-app_bzip2\""), "no bzip2 plot in the page");
	CHECK(strstr(buf, "bzip2 variants, one thread"), "no variants table");
	CHECK(strstr(buf, "<th>predicted 1/((1-f)+f/s)</th>") && strstr(buf, "<th>measured speedup</th>"),
	      "predicted and measured speedups not side by side");
	CHECK(strstr(buf, "<th>best / libbz2</th><td>2.25</td>"), "best / libbz2 missing");
	CHECK(strstr(buf, "bzip2 workers") && strstr(buf, "bzip2 tools"), "workers or tools table missing");
	/* K = 16 registers: s 5.16 against the chase's 12.77 at the 3.6 MB table. */
	CHECK(strstr(buf, "<th>R = s/S_chase</th>") && strstr(buf, "<td class=\"n\">12.77</td><td class=\"n\">0.40</td>"),
	      "S_chase and R not beside the variants");
	CHECK(strstr(buf, "<th>table cache-resident</th><td>yes</td>"), "the residency verdict is missing");
	if (!have_python()) {
		free(buf);
		SKIP("python3 is not installed");
	}
	test_scratch_make(dir, sizeof(dir), "html");
	CHECK(dir[0], "mkdtemp");
	snprintf(path, sizeof(path), "%s/b.html", dir);
	f = fopen(path, "w");
	CHECK(f, "fopen");
	fputs(buf, f);
	fclose(f);
	free(buf);
	snprintf(args, sizeof(args), "html '%s' 1", path);
	rc = check_files(args);
	test_scratch_remove(dir, "html");
	CHECK(rc == 0, "the page or its plot does not parse");
}

/* A copy of the bzip2 fixture with its best single thread doubled: that
 * row's ratio is 2.00, libbz2's 1.00; against a run without app bzip2 the
 * rows are named as not measured, and a different input withholds them. */
TEST(compare_reads_decoded_mb_per_s_of_app_bzip2)
{
	char src[4096], dir[64], twice[128], other[128], *text = NULL, *out = NULL, *p, err[256] = "";
	size_t len = 0;
	FILE *f;
	int rc;

	repo_path(src, sizeof(src), "tests/data/app_bzip2.json");
	f = fopen(src, "r");
	CHECK(f, "fixture");
	CHECK(getdelim(&text, &len, '\0', f) > 0, "read");
	fclose(f);
	test_scratch_make(dir, sizeof(dir), "cmpbz2");
	CHECK(dir[0], "mkdtemp");
	p = strstr(text, "\"best\": {");
	p = p ? strstr(p, "\"mb_per_s\": 47.6291") : NULL;
	CHECK(p, "the fixture's best figure moved");
	memcpy(p, "\"mb_per_s\": 95.2582", 19);
	snprintf(twice, sizeof(twice), "%s/twice.json", dir);
	f = fopen(twice, "w");
	fputs(text, f);
	fclose(f);
	p = strstr(text, "generated text (markov, seed 1)");
	CHECK(p, "the fixture's input moved");
	memcpy(p, "generated text (markov, seed 2)", 31);
	snprintf(other, sizeof(other), "%s/other.json", dir);
	f = fopen(other, "w");
	fputs(text, f);
	fclose(f);
	free(text);

	rc = compare_capture("tests/data/app_bzip2.json", twice, &out, err, sizeof(err));
	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(out, "bzip2 decoded, best single-thread K") && strstr(out, "47.63") && strstr(out, "95.26") &&
	      strstr(out, " 2.00 "), "best single thread and its ratio:\n%s", out);
	CHECK(strstr(out, "bzip2 decoded, libbz2 one thread") && strstr(out, "21.21"), "libbz2 row:\n%s", out);
	CHECK(strstr(out, "bzip2 decoded, workers' best") && strstr(out, "52.25"), "workers row:\n%s", out);
	free(out);
	out = NULL;
	rc = compare_capture("tests/data/report_a.json", "tests/data/app_bzip2.json", &out, err, sizeof(err));
	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(out, "bzip2 decoded, best single-thread K: not measured in A"), "missing in A not said:\n%s", out);
	free(out);
	out = NULL;
	rc = compare_capture("tests/data/app_bzip2.json", other, &out, err, sizeof(err));
	test_scratch_remove(dir, "cmpbz2");
	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(out, "bzip2 decoded, best single-thread K: input differs") &&
	      strstr(out, "bzip2 decoded, workers' best: input differs"), "another input compared:\n%s", out);
	free(out);
}
