/*
 * compare's fleet table over checked-in results: one row per file, a
 * directory read as its *.json files, best first by the chosen figure, and
 * an unknown figure refused as a usage error. JSON only: no measuring.
 */
#include "../harness.h"

#include "sections/fleet.h"

#include <math.h>
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

/* The table's data rows: the lines after the "result" header. */
static size_t table_rows(const char *text, const char *first_label, double *col, size_t col_index)
{
	const char *p = strstr(text, "\nresult ");
	size_t n = 0;

	if (!p)
		return 0;
	p = strchr(p + 1, '\n');
	while (p && p[1]) {
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
	FILE *f;
	int rc;

	memset(&o, 0, sizeof(o));
	o.paths[0] = fixture(a, sizeof(a), "tests/data/report_a.json");
	o.paths[1] = fixture(b, sizeof(b), "tests/data/report_b.json");
	o.paths[2] = fixture(c, sizeof(c), "tests/data/window.json");
	o.npaths = 3;
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	rc = fleet_run(&o, f, false, err, sizeof(err));
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
	o.sort_by = "read_gbps_all_threads";
	CHECK(fleet_wanted(&o), "a directory asks for the fleet table");
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	rc = fleet_run(&o, f, false, err, sizeof(err));
	fclose(f);
	n = table_rows(buf, NULL, col, 7);
	CHECK(rc == 0 && n == 3, "rc %d, %zu rows:\n%s%s", rc, n, buf, err);
	CHECK(col[0] >= col[1] && col[1] >= col[2], "not highest first: %g %g %g", col[0], col[1], col[2]);
	free(buf);
	buf = NULL;
	o.sort_by = "no_such_figure";
	f = open_memstream(&buf, &len);
	rc = fleet_run(&o, f, false, err, sizeof(err));
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
	FILE *f;
	int rc;

	memset(&o, 0, sizeof(o));
	o.paths[0] = fixture(a, sizeof(a), "tests/data/report_a.json");
	o.paths[1] = fixture(b, sizeof(b), "tests/data/app_bzip2.json");
	o.npaths = 2;
	o.sort_by = "bzip2_mbps";
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	rc = fleet_run(&o, f, false, err, sizeof(err));
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
