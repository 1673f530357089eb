/*
 * compare's fleet table over checked-in results: one row per file, a
 * directory read as its *.json files, best first by the chosen figure, and
 * an unknown figure refused as a usage error. JSON only: no measuring.
 */
#include "../harness.h"

#include "report/view.h"
#include "sections/fleet.h"
#include "frame/registry.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *fixture(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/../%s", test_bin_dir(), rel);
	if (access(buf, R_OK))
		snprintf(buf, len, "%s", rel);
	return buf;
}

/* The table's data rows: the lines after the "result" header, up to the
 * blank line before the outliers. */
static size_t table_rows(const char *text, const char *first_label, double *col, size_t col_index)
{
	const char *p = strstr(text, "\nresult ");
	size_t n = 0;

	if (!p)
		return 0;
	p = strchr(p + 1, '\n');
	while (p && p[1] && p[1] != '\n') {
		char label[128];
		double v[12];
		int got;

		p++;
		got = sscanf(p, "%127s %lf %lf %lf %lf %lf %lf %lf %lf", label, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			     &v[6], &v[7]);
		if (n == 0 && first_label && strcmp(label, first_label))
			return 0;
		if (col)
			col[n] = got > (int)col_index + 1 ? v[col_index] : NAN;
		n++;
		p = strchr(p, '\n');
	}
	return n;
}

TEST(fleet_table_over_three_files_has_three_rows)
{
	char a[4096], b[4096], c[4096], err[256] = "", *buf = NULL;
	size_t len = 0;
	struct options o;
	const char *sort_by = NULL;
	FILE *f;
	int rc;

	memset(&o, 0, sizeof(o));
	o.paths[0] = fixture(a, sizeof(a), "tests/data/report_a.json");
	o.paths[1] = fixture(b, sizeof(b), "tests/data/report_b.json");
	o.paths[2] = fixture(c, sizeof(c), "tests/data/window.json");
	o.npaths = 3;
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	rc = fleet_run(&o, sort_by, f, false, err, sizeof(err));
	fclose(f);
	CHECK(rc == 0, "fleet_run: %d %s", rc, err);
	/* Memory latency, lowest first: b (152.2 ns) before a (157.3), window.json (none) last. */
	CHECK(table_rows(buf, "report_b.json", NULL, 0) == 3, "rows:\n%s", buf);
	CHECK(strstr(buf, "\nwindow.json "), "the result without the figure is a row too:\n%s", buf);
	free(buf);
}

TEST(fleet_reads_a_directory_and_sorts_by_the_chosen_figure, NEEDS_PROGRAMS)
{
	char dir[64], cmd[16384], a[2048], b[2048], err[256] = "", *buf = NULL;
	double col[8];
	size_t len = 0, n;
	struct options o;
	const char *sort_by = NULL;
	FILE *f;
	int rc;

	snprintf(dir, sizeof(dir), "/tmp/mlpscope-fleet-XXXXXX");
	CHECK(mkdtemp(dir), "mkdtemp");
	fixture(a, sizeof(a), "tests/data/report_a.json");
	fixture(b, sizeof(b), "tests/data/report_b.json");
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/h1.json' && cp '%s' '%s/h2.json' && cp '%s' '%s/h3.json' && echo x > '%s/notes.txt'",
		 a, dir, b, dir, a, dir, dir);
	CHECK(system(cmd) == 0, "setup");
	memset(&o, 0, sizeof(o));
	o.paths[0] = dir;
	o.npaths = 1;
	sort_by = "read_gbps_all_threads";
	CHECK(fleet_wanted(&o, sort_by), "a directory asks for the fleet table");
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	rc = fleet_run(&o, sort_by, f, false, err, sizeof(err));
	fclose(f);
	n = table_rows(buf, NULL, col, 7);
	CHECK(rc == 0 && n == 3, "rc %d, %zu rows:\n%s%s", rc, n, buf, err);
	CHECK(col[0] >= col[1] && col[1] >= col[2], "not highest first: %g %g %g", col[0], col[1], col[2]);
	/* h1 and h3 are one file copied: equal, they keep file order */
	CHECK(strstr(buf, "\nh1.json ") && strstr(buf, "\nh1.json ") < strstr(buf, "\nh3.json "), "a tie out of file order:\n%s",
	      buf);
	free(buf);
	buf = NULL;
	sort_by = "no_such_figure";
	f = open_memstream(&buf, &len);
	rc = fleet_run(&o, sort_by, f, false, err, sizeof(err));
	fclose(f);
	free(buf);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
		/* a scratch folder left behind fails nothing */
	}
	CHECK(rc == 2 && strstr(err, "--sort"), "unknown figure: %d %s", rc, err);
}

/* app.bzip2's decoded MB/s are fleet columns and sort keys: the recorded
 * run (best single thread 47.6, libbz2 21.2, workers' best 52.2 of 43.3
 * and 52.2) comes first by bzip2_mbps, the results without it after. */
TEST(fleet_shows_and_sorts_by_decoded_mb_per_s)
{
	char a[4096], b[4096], err[256] = "", *buf = NULL;
	const char *row;
	size_t len = 0;
	struct options o;
	const char *sort_by = NULL;
	FILE *f;
	int rc;

	memset(&o, 0, sizeof(o));
	o.paths[0] = fixture(a, sizeof(a), "tests/data/report_a.json");
	o.paths[1] = fixture(b, sizeof(b), "tests/data/app_bzip2.json");
	o.npaths = 2;
	sort_by = "bzip2_mbps";
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	rc = fleet_run(&o, sort_by, f, false, err, sizeof(err));
	fclose(f);
	CHECK(rc == 0, "fleet_run: %d %s", rc, err);
	CHECK(strstr(buf, "bz2 MB/s") && strstr(buf, "ref MB/s") && strstr(buf, "bz2N MB/s"), "no bzip2 columns:\n%s", buf);
	row = strstr(buf, "\napp_bzip2.json ");
	CHECK(row && row < strstr(buf, "\nreport_a.json "), "the bzip2 run is not first:\n%s", buf);
	CHECK(row && strstr(row, "  47.6      21.2      52.2  "), "figures of the bzip2 run:\n%s", buf);
	CHECK(strstr(strstr(buf, "\nreport_a.json "), "         -         -         -  "), "report_a shows bzip2 figures:\n%s",
	      buf);
	free(buf);
}

/* A generated fleet (tests/fleet/gen_results.py) in a scratch folder: N
 * copies of a recorded result, each within a quarter of its floor of the
 * others, with plants. 0 when written; why holds the reason otherwise. */
static int gen_fleet(char *dir, size_t dirlen, const char *args, char *why, size_t whylen)
{
	char script[4096], tmpl[4096], cmd[16384];

	if (system("command -v python3 >/dev/null 2>&1") != 0) {
		snprintf(why, whylen, "python3 is not installed: the fleet cannot be generated");
		return -1;
	}
	test_scratch_make(dir, dirlen, "fleetgen");
	if (!dir[0]) {
		snprintf(why, whylen, "mkdtemp failed");
		return -1;
	}
	fixture(script, sizeof(script), "tests/fleet/gen_results.py");
	fixture(tmpl, sizeof(tmpl), "tests/data/report_b.json");
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s' '%s' %s > '%s/planted.txt'", script, tmpl, dir, args, dir);
	if (system(cmd) != 0) {
		snprintf(why, whylen, "%.400s failed", cmd);
		return -1;
	}
	return 0;
}

/* fleet_run over dir sorted by sort (NULL: the default), with html (NULL:
 * none); its text in *buf (free it). */
static int run_fleet(const char *dir, const char *sort, const char *html, char **buf, char *err, size_t errlen)
{
	struct options o;
	const char *sort_by = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	memset(&o, 0, sizeof(o));
	o.paths[0] = dir;
	o.npaths = 1;
	sort_by = sort;
	o.html_path = html;
	*buf = NULL;
	if (!(f = open_memstream(buf, &len)))
		return -1;
	rc = fleet_run(&o, sort_by, f, html != NULL, err, errlen);
	fclose(f);
	return rc;
}

/* The outlier lines: those after "groups:" or the rule's text, two spaces
 * in, naming a result. */
static size_t outlier_lines(const char *text, char lines[][256], size_t max)
{
	const char *p = strstr(text, "\noutliers: ");
	size_t n = 0;

	while (p && (p = strchr(p + 1, '\n')) && n < max)
		if (!strncmp(p + 1, "  node", 6))
			sscanf(p + 3, "%255[^\n]", lines[n++]);
	return n;
}

#define PLANTS "--plant 7:mem:1.6 --plant 13:rd:0.5 --plant 21:ks:0.3 --plant 3:floor:3"
#define GROUPS "--cpu '31:Other CPU' --cpu '32:Other CPU' --cpu '33:Other CPU' --cpu '34:Lone CPU' --cpu '35:Lone CPU'"

/* The planted ones, and only they, are named with the figure that made
 * them so: a slow memory (mem ns, above), a slow read stream (rd1 and rdN
 * GB/s, below), a low MLP (Ks, below). A noisy run (its floor tripled) is
 * not one: the floor is context. Three runs of another CPU model, with
 * their own median, are no outliers of the first; two of a third model
 * are too few to judge. */
TEST(fleet_names_the_planted_outliers_and_only_them, NEEDS_PROGRAMS)
{
	char dir[64], why[512], err[512] = "", lines[16][256], *buf = NULL;
	size_t n;
	int rc;

	if (gen_fleet(dir, sizeof(dir), "35 " PLANTS " " GROUPS, why, sizeof(why)))
		SKIP("%s", why);
	rc = run_fleet(dir, NULL, NULL, &buf, err, sizeof(err));
	test_scratch_remove(dir, "fleetgen");
	CHECK(rc == 0 && buf, "fleet_run: %d %s", rc, err);
	CHECK(strstr(buf, "\noutliers: 3 of 35 results"), "not 3 of 35:\n%s", buf);
	n = outlier_lines(buf, lines, 16);
	CHECK(n == 3, "%zu outlier lines:\n%s", n, buf);
	for (size_t i = 0; i < n; i++) {
		bool mem = strstr(lines[i], "node0007.json (A): mem ns ") && strstr(lines[i], "(+");
		bool rd = strstr(lines[i], "node0013.json (A): rd1 GB/s ") && strstr(lines[i], "rdN GB/s ") &&
			  !strstr(lines[i], "(+");
		bool ks = strstr(lines[i], "node0021.json (A): Ks ") && strstr(lines[i], "(-");

		CHECK(mem || rd || ks, "not a planted outlier, or not its figure: '%s'", lines[i]);
	}
	CHECK(strstr(buf, "groups: A AMD EPYC (30), ") && strstr(buf, " Other CPU (3)") && strstr(buf, " Lone CPU (2)"),
	      "groups:\n%s", strstr(buf, "groups:"));
	CHECK(strstr(buf, "not judged: 2 results in groups of fewer than 3"), "the small group:\n%s", buf);
	CHECK(strstr(buf, "xlat ns is a difference"), "the difference's scale is not said:\n%s", buf);
	/* the table marks the cell */
	CHECK(strstr(buf, "\nnode0007.json ") && strchr(strstr(buf, "\nnode0007.json "), '*') <
							strchr(strstr(buf, "\nnode0007.json ") + 1, '\n'),
	      "node0007's row has no mark:\n%s", buf);
	free(buf);
}

/* Every column sorts: best first (lowest times and floor, highest
 * bandwidth, lanes and MB/s), results without the figure last. */
TEST(fleet_sort_holds_for_every_figure, NEEDS_PROGRAMS)
{
	static struct fleet_layout l;
	char dir[64], why[512], err[512] = "", *buf = NULL;
	const struct view *const *views = registry_views();

	if (gen_fleet(dir, sizeof(dir), "12 --plant 5:mem:1.6 --plant 2:rd:0.5", why, sizeof(why)))
		SKIP("%s", why);
	fleet_layout(views, &l);
	for (size_t c = 0; c < l.ncol; c++) {
		const char *p;
		double prev = NAN;
		bool seen_absent = false;
		size_t rows = 0;
		int rc = run_fleet(dir, l.col[c]->figure, NULL, &buf, err, sizeof(err));

		CHECK(rc == 0 && buf, "--sort %s: %d %s", l.col[c]->figure, rc, err);
		p = strstr(buf, "\nresult ");
		CHECK(p, "no table:\n%s", buf);
		for (p = strchr(p + 1, '\n'); p && p[1] && p[1] != '\n'; p = strchr(p + 1, '\n')) {
			char label[64], cell[32];
			const char *q = p + 1;
			double v;

			CHECK(sscanf(q, "%63s", label) == 1, "row: %.80s", q);
			q += strlen(label);
			for (size_t k = 0; k <= c; k++)
				CHECK(sscanf(q, "%31s", cell) == 1 && (q = strstr(q, cell) + strlen(cell)), "cells");
			rows++;
			if (!strcmp(cell, "-")) {
				seen_absent = true;
				continue;
			}
			CHECK(!seen_absent, "--sort %s: a value after a result without one", l.col[c]->figure);
			v = strtod(cell, NULL);
			if (!isnan(prev)) {
				bool ordered = l.col[c]->higher_is_better ? v <= prev : v >= prev;

				CHECK(ordered, "--sort %s: %s %g after %g", l.col[c]->figure, label, v, prev);
			}
			prev = v;
		}
		CHECK(rows == 12, "--sort %s: %zu rows", l.col[c]->figure, rows);
		free(buf);
		buf = NULL;
	}
	test_scratch_remove(dir, "fleetgen");
}

/* The page: the outliers' cells shaded with their median, one figure per
 * judged figure that has values, well-formed with inline SVG only (tests/check_report_files.py). */
TEST(fleet_page_marks_outliers_and_draws_each_figure, NEEDS_PROGRAMS)
{
	char dir[64], why[512], err[512] = "", html[128], cmd[4096 + 256], script[4096], *buf = NULL, *page;
	int rc;

	if (gen_fleet(dir, sizeof(dir), "9 --plant 4:mem:1.6", why, sizeof(why)))
		SKIP("%s", why);
	snprintf(html, sizeof(html), "%s/fleet.html", dir);
	rc = run_fleet(dir, NULL, html, &buf, err, sizeof(err));
	free(buf);
	CHECK(rc == 0, "fleet_run: %d %s", rc, err);
	page = test_read_text(html);
	CHECK(page, "no page at %s", html);
	CHECK(strstr(page, "<td class=\"n out\" title=\"median "), "no shaded cell");
	CHECK(strstr(page, "<li>node0004.json: mem ns "), "the outlier is not listed");
	CHECK(strstr(page, "<figure id=\"plot-memory_latency_ns\">") && strstr(page, "<figure id=\"plot-l1_latency_ns\">"),
	      "a figure's distribution is missing");
	CHECK(!strstr(page, "plot-noise_floor_pct") && !strstr(page, "plot-warnings_count"), "the floor was drawn as judged");
	CHECK(!strstr(page, "plot-c2c_median_ns"), "a figure no result holds was drawn");
	free(page);
	fixture(script, sizeof(script), "tests/check_report_files.py");
	snprintf(cmd, sizeof(cmd), "python3 '%s' html '%s'", script, html);
	CHECK(system(cmd) == 0, "%s", cmd);
	test_scratch_remove(dir, "fleetgen");
}

/* Loaded on several threads, the error is still the first bad file's in
 * file order, as one thread reading them in order would say. */
TEST(fleet_names_the_first_bad_file_in_order, NEEDS_PROGRAMS)
{
	char dir[64], why[512], err[512] = "", path[128], *buf = NULL;
	int rc;

	if (gen_fleet(dir, sizeof(dir), "24", why, sizeof(why)))
		SKIP("%s", why);
	snprintf(path, sizeof(path), "%s/node0010.json", dir);
	CHECK(test_write_text(path, "{\"tool\": \"mlpscope\", \"schema_version\": 1, \"latency\": {\"chase_ns_at_max\": -1e300}}") == 0,
	      "write");
	snprintf(path, sizeof(path), "%s/node0011.json", dir);
	CHECK(test_write_text(path, "{") == 0, "write");
	snprintf(path, sizeof(path), "%s/node0023.json", dir);
	CHECK(test_write_text(path, "not json") == 0, "write");
	rc = run_fleet(dir, NULL, NULL, &buf, err, sizeof(err));
	free(buf);
	test_scratch_remove(dir, "fleetgen");
	CHECK(rc == 2 && strstr(err, "node0010.json") && strstr(err, "chase_ns_at_max"), "%d: %s", rc, err);
}
