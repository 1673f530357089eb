/*
 * c2c: a short real run on this machine's allowed CPUs (shape only: a row
 * and a column per CPU, nothing on the diagonal, finite positive values
 * elsewhere, min <= median, and the JSON matrix the same shape), the
 * estimate that bounds the time per pair on 256 CPUs, and the heat map
 * drawn from a parsed result (one cell per pair). Needs 2 allowed CPUs for
 * the run (SKIP otherwise).
 */
#include "../harness.h"

#include "core/clock.h"
#include "exp/c2c.h"
#include "util/jsonr.h"
#include "report/c2c_out.h"
#include "util/jsonw.h"
#include "core/team.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t never;

TEST(c2c_matrix_has_a_row_and_column_per_allowed_cpu, NEEDS_HOST)
{
	static struct clock_info clk;
	struct c2c_params p;
	struct c2c_result r;
	struct jsonr_doc doc;
	struct jsonw w;
	char err[256] = "", *buf = NULL;
	size_t len = 0, n;
	int ncpu = team_allowed_cpus(NULL, 0), rc;
	const struct jsonr_value *m;
	FILE *f;

	if (ncpu < 2)
		SKIP("one allowed CPU: a line needs two cores to bounce between");
	clock_init(&clk);
	c2c_params_default(&p, &clk, 1);
	p.total_budget_s = 0.05;
	p.pair_max_ms = 5;
	p.max_cpus = 8;  /* bounded test time on a large machine */
	p.stop = &never;
	memset(&r, 0, sizeof(r));
	rc = c2c_run(&p, &r, err, sizeof(err));
	CHECK(rc == 0, "c2c_run: %d %s", rc, err);
	n = r.ncpus;
	CHECK(n == (size_t)(ncpu < 8 ? ncpu : 8), "%zu rows for %d allowed CPUs", n, ncpu);
	CHECK(r.pairs == n * (n - 1), "pairs %zu", r.pairs);
	for (size_t a = 0; a < n; a++)
		for (size_t b = 0; b < n; b++) {
			double mn = r.min_ns[a * n + b], md = r.median_ns[a * n + b];

			if (a == b) {
				CHECK(isnan(mn) && isnan(md), "diagonal %zu holds a value", a);
				continue;
			}
			if (r.pairs_timed_out)
				continue;  /* a descheduled partner: the cell is honestly empty */
			CHECK(isfinite(mn) && isfinite(md) && mn > 0 && mn <= md, "cpu%d -> cpu%d: min %g median %g",
			      r.cpu[a], r.cpu[b], mn, md);
		}
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	c2c_write_json(&r, &w, "c2c");
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(f);
	c2c_result_free(&r);
	CHECK(jsonr_parse(buf, len, 0, &doc, err, sizeof(err)) == 0, "JSON: %s", err);
	free(buf);
	m = jsonr_get(doc.root, "c2c.matrix_median_ns");
	CHECK(m && m->u.children.count == n && jsonr_get_count(doc.root, "c2c.cpus") == n, "JSON rows");
	for (const struct jsonr_value *row = m->u.children.first; row; row = row->next)
		CHECK(row->type == JSONR_ARRAY && row->u.children.count == n, "a JSON row of %zu, not %zu",
		      row->u.children.count, n);
	CHECK(jsonr_get(doc.root, "c2c.matrix_median_ns[0][0]")->type == JSONR_NULL, "diagonal is not null");
	jsonr_free(&doc);
}

TEST(c2c_time_per_pair_is_bounded_at_256_cpus)
{
	struct c2c_params p;
	double ms, s256, s2;

	c2c_params_default(&p, NULL, 0);
	s256 = c2c_estimate_s(&p, 256, &ms);
	CHECK(ms >= p.pair_min_ms && ms <= p.pair_max_ms, "pair budget %g ms", ms);
	CHECK(s256 < 256.0 * 255 * (p.pair_min_ms + 1) / 1000 && s256 > 0, "256 CPUs: %g s", s256);
	s2 = c2c_estimate_s(&p, 2, &ms);
	CHECK(ms == p.pair_max_ms && s2 < 1, "2 CPUs: %g ms per pair, %g s", ms, s2);
}

TEST(c2c_heat_map_draws_one_cell_per_pair)
{
	static const char text[] = "{\"c2c\":{\"cpus\":[0,1,2],\"matrix_median_ns\":"
				   "[[null,40.5,90],[41,null,88.5],[91,87,null]]}}";
	struct jsonr_doc doc;
	char err[128], *buf = NULL, *p;
	size_t len = 0, rects = 0;
	FILE *f;

	CHECK(jsonr_parse(text, sizeof(text) - 1, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	CHECK(c2c_write_heatmap(f, doc.root, "c2c-heat", false) == 0, "drawn");
	fclose(f);
	for (p = buf; (p = strstr(p, "<rect")); p++)
		rects++;
	CHECK(rects == 9, "%zu cells for 3 CPUs", rects);
	CHECK(strstr(buf, "cpu2 -&gt; cpu0: 91.0 ns") && strstr(buf, "not measured"), "cell titles:\n%s", buf);
	CHECK(strstr(buf, "fastest 40.5 ns") && strstr(buf, "slowest 91.0 ns"), "scale");
	free(buf);
	jsonr_free(&doc);
	CHECK(jsonr_parse("{}", 2, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	CHECK(c2c_write_heatmap(stdout, doc.root, "x", false) < 0, "drew a map without a c2c section");
	jsonr_free(&doc);
}
