/*
 * Prefetch over-fetch in the trace's traffic efficiency: a six-touch trace
 * worked by hand (docs/MODEL.md) for degrees 1, 2 and 4; a sequential walk
 * whose prefetches are all used but the last D; the recorded chase and
 * stream fixtures, where the prefetcher halves the chase's efficiency and
 * barely touches the stream's; and the JSON through the result vetter.
 */
#include "../harness.h"

#include "analyse/prefetch.h"
#include "analyse/trace_analyse.h"
#include "analyse/vet.h"
#include "report/trace_out.h"
#include "util/jsonr.h"
#include "util/jsonw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines 0, 1, 2, 3, then 100 and 200, 8 bytes of each. */
static const char six_touches[] =
	"I  400000,4\n L 0,8\n L 40,8\n L 80,8\n L c0,8\n L 1900,8\n L 3200,8\n";

static int analyse_text(const char *text, struct trace_result *r)
{
	char err[256];
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f)
		return -1;
	rc = trace_analyse(f, NULL, r, err, sizeof(err));
	fclose(f);
	return rc;
}

/* By hand, degree 1: 0 misses and fetches 1; 1, 2, 3 are first uses of
 * prefetched lines and fetch 2, 3, 4; 100 and 200 miss and fetch 101 and
 * 201. Demand 3, prefetched 6, used 3, never used 3 (4, 101, 201); 9 lines
 * delivered for 48 useful bytes: 48 / 576 = 8.3%, against 48 / 384 = 12.5%
 * without. Degree 2: prefetched 1..5, 101, 102, 201, 202 (9), 6 unused, 12
 * delivered, 6.25%. Degree 4: 1..7, 101..104, 201..204 (15), 12 unused, 18
 * delivered, 4.17%. */
TEST(prefetch_six_touches_worked_by_hand)
{
	static const struct {
		unsigned degree;
		uint64_t demand, prefetched, used, delivered;
	} want[PREFETCH_NDEGREES] = {{1, 3, 6, 3, 9}, {2, 3, 9, 3, 12}, {4, 3, 15, 3, 18}};
	struct trace_result *r = calloc(1, sizeof(*r));

	CHECK(r && analyse_text(six_touches, r) == 0, "analyse");
	CHECK(r->distinct_lines == 6 && r->bytes_touched == 48, "%llu lines, %llu bytes",
	      (unsigned long long)r->distinct_lines, (unsigned long long)r->bytes_touched);
	for (int d = 0; d < PREFETCH_NDEGREES; d++) {
		const struct prefetch_figures *f = &r->prefetch[d];

		CHECK(f->degree == want[d].degree && f->demand_lines == want[d].demand &&
		      f->prefetched == want[d].prefetched && f->used == want[d].used &&
		      prefetch_delivered_lines(f) == want[d].delivered &&
		      prefetch_unused(f) == want[d].prefetched - want[d].used,
		      "degree %u: demand %llu, prefetched %llu, used %llu", f->degree,
		      (unsigned long long)f->demand_lines, (unsigned long long)f->prefetched,
		      (unsigned long long)f->used);
		CHECK(fabs(prefetch_efficiency(f, 48, 64) - 48.0 / (64.0 * (double)want[d].delivered)) < 1e-12,
		      "degree %u: efficiency %g", f->degree, prefetch_efficiency(f, 48, 64));
	}
	CHECK(prefetch_accuracy(&r->prefetch[0]) == 0.5, "accuracy %g", prefetch_accuracy(&r->prefetch[0]));
	free(r);
}

/* A walk of 1000 consecutive lines: one demand miss, every prefetch used
 * but the D past the end. */
TEST(prefetch_sequential_walk_misses_once_and_overfetches_d)
{
	struct prefetch_model m;
	struct prefetch_figures none = {0};

	CHECK(prefetch_init(&m) == 0, "init");
	for (uint64_t line = 5000; line < 6000; line++)
		CHECK(prefetch_touch(&m, line) == 0, "touch");
	for (int d = 0; d < PREFETCH_NDEGREES; d++)
		CHECK(m.f[d].demand_lines == 1 && m.f[d].used == 999 && prefetch_unused(&m.f[d]) == m.f[d].degree,
		      "degree %u: demand %llu, unused %llu", m.f[d].degree, (unsigned long long)m.f[d].demand_lines,
		      (unsigned long long)prefetch_unused(&m.f[d]));
	prefetch_free(&m);
	CHECK(isnan(prefetch_accuracy(&none)) && isnan(prefetch_efficiency(&none, 0, 64)), "nothing: NaN, not 0");
}

static int fixture(const char *name, struct trace_result *r)
{
	char path[256], err[256];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "tests/data/%s", name);
	if (!(f = fopen(path, "r")))
		return -1;
	rc = trace_analyse(f, NULL, r, err, sizeof(err));
	fclose(f);
	return rc;
}

/* The recorded fixtures: the chase uses 8 bytes of each line and its next
 * lines are mostly not its own, so degree 1 nearly halves its efficiency;
 * the stream's prefetches are used. The JSON passes the vetter. */
TEST(prefetch_on_recorded_chase_and_stream_and_its_json)
{
	struct trace_result *r = calloc(1, sizeof(*r));
	char *text = NULL, err[256];
	size_t len = 0;
	struct jsonw w;
	struct jsonr_doc doc;
	FILE *out;
	double v;

	CHECK(r && fixture("lackey_chase.trace", r) == 0, "chase");
	CHECK(r->prefetch[0].demand_lines == 570 && r->prefetch[0].prefetched == 574 && r->prefetch[0].used == 55,
	      "chase, degree 1: %llu %llu %llu", (unsigned long long)r->prefetch[0].demand_lines,
	      (unsigned long long)r->prefetch[0].prefetched, (unsigned long long)r->prefetch[0].used);
	CHECK(prefetch_efficiency(&r->prefetch[0], r->bytes_touched, 64) < 0.55 * 0.125, "chase: %g",
	      prefetch_efficiency(&r->prefetch[0], r->bytes_touched, 64));
	CHECK((out = open_memstream(&text, &len)), "memstream");
	jsonw_init(&w, out);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	jsonw_int(&w, "schema_version", 1);
	trace_write_json(&w, "chase", r, NULL, NULL);
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(out);
	CHECK(jsonr_parse(text, len, 0, &doc, err, sizeof(err)) == 0, "json: %s", err);
	CHECK(vet_result(doc.root, "chase", err, sizeof(err)) == 0, "vet: %s", err);
	CHECK(jsonr_get_number(jsonr_index(jsonr_get(doc.root, "trace.prefetch.degrees"), 0), "prefetch_unused_lines",
			       &v) && v == 519, "unused %g", v);
	jsonr_free(&doc);
	free(text);
	CHECK(fixture("lackey_stream.trace", r) == 0, "stream");
	CHECK(r->prefetch[0].demand_lines == 1 && prefetch_unused(&r->prefetch[0]) == 1 &&
	      prefetch_efficiency(&r->prefetch[0], r->bytes_touched, 64) > 0.97, "stream, degree 1");
	free(r);
}
