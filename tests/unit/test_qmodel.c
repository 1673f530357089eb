/*
 * The queue model: the textbook figures exactly, the pointer-chase vs
 * streaming table, the bound t(K) >= max(L/K, L/Q, bytes/B) holding on
 * random configurations, the binding term's name, and the `model` command
 * on small hand-written result files (valid, newer, truncated, foreign).
 */
#include "../harness.h"

#include "sections/model.h"
#include "sections/qmodel.h"
#include "analyse/qmodel.h"
#include "util/jsonr.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(qmodel_textbook_64_misses_at_200_cycles)
{
	struct qmodel_memory m = {.latency = 200, .request_bytes = 64};
	static const uint64_t k[] = {1, 8, 16};
	static const double want[] = {12800, 1600, 800};
	struct qmodel_result r;

	for (int i = 0; i < 3; i++) {
		struct qmodel_workload chains = {.feed = QMODEL_FEED_CHAINS, .chains = k[i], .requests = 64};
		struct qmodel_workload stream = {.feed = QMODEL_FEED_STREAM, .requests = 64};

		CHECK(qmodel_run(&m, &chains, &r) == 0, "run");
		CHECK(r.makespan == want[i], "%llu chains: %g cycles, want %g", (unsigned long long)k[i], r.makespan,
		      want[i]);
		CHECK(r.seen.mean_outstanding == (double)k[i] && r.seen.high_water == k[i],
		      "%llu chains: mean %g hwm %llu", (unsigned long long)k[i], r.seen.mean_outstanding,
		      (unsigned long long)r.seen.high_water);
		/* the same figures from a stream limited to k in flight */
		m.queue_cap = (double)k[i];
		CHECK(qmodel_run(&m, &stream, &r) == 0, "run");
		CHECK(r.makespan == want[i], "stream, Q = %llu: %g cycles", (unsigned long long)k[i], r.makespan);
		CHECK(r.seen.flags == 0 && r.seen.requests == 64 && r.seen.completions == 64, "clean stream");
		m.queue_cap = 0;
	}
}

/* The command with no option answers the textbook case: each row's
 * makespan read back from the text is the figure the model gives. */
TEST(qmodel_command_answers_the_textbook_case_by_default)
{
	static const unsigned long long want_k[] = {1, 8, 16}, want_ticks[] = {12800, 1600, 800};
	struct options o;
	struct qmodel_cmd_args a;
	char err[256], *text = NULL, *at;
	size_t len = 0;
	FILE *out;

	memset(&o, 0, sizeof(o));
	CHECK(qmodel_cmd_parse(&o, &a, err, sizeof(err)) == 0, "parse: %s", err);
	CHECK(a.latency == 200 && a.requests == 64 && a.nlanes == 3 && a.queue_cap == 0, "defaults");
	CHECK((out = open_memstream(&text, &len)), "memstream");
	CHECK(qmodel_cmd_run(&a, out, err, sizeof(err)) == 0, "run: %s", err);
	fclose(out);
	at = text;
	for (int i = 0; i < 3; i++) {
		unsigned long long k, ticks;

		at = strstr(at, "  K = ");
		CHECK(at && sscanf(at, "  K = %llu %llu", &k, &ticks) == 2, "row %d in: %s", i, text);
		CHECK(k == want_k[i] && ticks == want_ticks[i], "K = %llu: %llu ticks, want %llu", k, ticks,
		      want_ticks[i]);
		at++;
	}
	free(text);
	options_put(&o, "latency", 0, "nan");
	CHECK(qmodel_cmd_parse(&o, &a, err, sizeof(err)) == 2 && strstr(err, "--latency: 'nan'"), "nan: %s", err);
	memset(&o, 0, sizeof(o));
	options_put(&o, "chains", 0, "8,");
	CHECK(qmodel_cmd_parse(&o, &a, err, sizeof(err)) == 2 && strstr(err, "--chains: '8,'"), "8,: %s", err);
}

/* qmodel as a tool: --json with every row's characteriser (flags, why none
 * can fire in the model, properties armed, covers), and --chase-vs-stream,
 * seed 003's scenario B, in text and JSON. */
TEST(qmodel_json_and_chase_vs_stream_show_what_the_memory_saw)
{
	char jout[] = "/tmp/mlpscope-qmodel-XXXXXX", err[256], *text = NULL;
	int fd = mkstemp(jout);
	struct options o;
	struct qmodel_cmd_args a;
	struct jsonr_doc doc;
	const struct jsonr_value *rows, *k8;
	size_t len = 0;
	FILE *out;
	double v;
	bool b;

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	memset(&o, 0, sizeof(o));
	options_put(&o, "queue", 15, NULL);
	options_put(&o, "requests", 4096, NULL);
	options_put(&o, "chase-vs-stream", 1, NULL);
	o.json_path = jout;
	CHECK(qmodel_cmd_parse(&o, &a, err, sizeof(err)) == 0, "parse: %s", err);
	CHECK((out = open_memstream(&text, &len)), "memstream");
	CHECK(qmodel_cmd_run(&a, out, err, sizeof(err)) == 0, "run: %s", err);
	fclose(out);
	/* the same 4096 reads: the chase irregular, the stream regular, 15x apart */
	CHECK(strstr(text, "pointer chase      4096       0        1.00      1         0       4094       819200  "
			   "latency") &&
	      strstr(text, "stream             4096       0       14.95     15      4094          0        54800  "
			   "concurrency"),
	      "scenario B table: %s", text);
	free(text);
	CHECK(jsonr_parse_file(jout, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	unlink(jout);
	rows = jsonr_get(doc.root, "qmodel.rows");
	CHECK(rows && jsonr_get_count(doc.root, "qmodel.rows") == 4, "3 chain counts and the stream");
	k8 = jsonr_index(rows, 1);
	CHECK(jsonr_get_number(k8, "chains", &v) && v == 8 && jsonr_get_number(k8, "makespan_ticks", &v) && v == 102400,
	      "K = 8 makespan %g", v);
	/* a chain issues its next request in the tick its last completes: the
	 * eight complete together every L, so 4096 / 8 - 1 ticks arm P2 */
	CHECK(jsonr_get_number(jsonr_index(jsonr_get(k8, "seen.properties"), CHARZ_P2_SAME_TICK_NEUTRAL), "armed", &v) &&
	      v == 511, "P2 armed %g", v);
	CHECK(jsonr_get_number(k8, "seen.covers.same_tick", &v) && v == 511, "cover same_tick %g", v);
	CHECK(jsonr_get_bool(jsonr_index(jsonr_get(k8, "seen.flag_checks"), 0), "armable", &b) && !b &&
	      jsonr_get_string(jsonr_index(jsonr_get(k8, "seen.flag_checks"), 0), "why"), "overflow: why unarmable");
	CHECK(jsonr_get_number(doc.root, "qmodel.chase_vs_stream.slowdown", &v) && fabs(v - 819200.0 / 54800) < 1e-5,
	      "slowdown %g", v);
	CHECK(jsonr_get_number(doc.root, "qmodel.chase_vs_stream.chase.seen.stride_irregular", &v) && v == 4094 &&
	      jsonr_get_number(doc.root, "qmodel.chase_vs_stream.stream.seen.stride_regular", &v) && v == 4094 &&
	      jsonr_get_number(doc.root, "qmodel.chase_vs_stream.stream.seen.writes", &v) && v == 0, "strides, writes");
	jsonr_free(&doc);
	/* an unwritable --json is a usage error before the work */
	o.json_path = "/nonexistent/dir/q.json";
	CHECK(qmodel_cmd_parse(&o, &a, err, sizeof(err)) == 0, "parse");
	CHECK((out = fopen("/dev/null", "w")), "null");
	CHECK(qmodel_cmd_run(&a, out, err, sizeof(err)) == 2 && strstr(err, "--json: cannot write"), "bad path: %s", err);
	fclose(out);
}

TEST(qmodel_chase_vs_stream_names_the_binding_resource)
{
	/* L = 200 cycles and 15 request slots: the same 4096 reads as one
	 * dependent chain keep 1 request in flight, as a stream 15. */
	struct qmodel_memory m = {.latency = 200, .queue_cap = 15, .request_bytes = 64};
	struct qmodel_comparison c;

	CHECK(qmodel_compare_chase_stream(&m, 4096, &c) == 0, "run");
	CHECK(c.chase.seen.reads == c.stream.seen.reads && c.chase.seen.reads == 4096, "same reads");
	CHECK(c.chase.seen.mean_outstanding == 1, "chase mean %g", c.chase.seen.mean_outstanding);
	CHECK(fabs(c.stream.seen.mean_outstanding - 15) < 0.1, "stream mean %g", c.stream.seen.mean_outstanding);
	CHECK(c.chase_bound.binding == QMODEL_TERM_LATENCY, "chase bound by %s", qmodel_term_name(c.chase_bound.binding));
	CHECK(c.stream_bound.binding == QMODEL_TERM_CONCURRENCY, "stream bound by %s",
	      qmodel_term_name(c.stream_bound.binding));
	CHECK(fabs(c.slowdown - 15) < 0.1, "slowdown %g", c.slowdown);
	CHECK(c.chase.seen.stride_regular_fraction < 0.05 && c.stream.seen.stride_regular_fraction > 0.99,
	      "chase strides %g, stream %g", c.chase.seen.stride_regular_fraction, c.stream.seen.stride_regular_fraction);

	/* A data path of 10 lines per L: the stream still fills its 15 slots
	 * (requests wait for the data path while outstanding) but runs only
	 * 10x faster than the chase. The mean outstanding alone cannot say
	 * which resource binds; the bound's terms do. */
	m.bytes_per_tick = 64.0 * 10 / 200;
	CHECK(qmodel_compare_chase_stream(&m, 4096, &c) == 0, "run");
	CHECK(c.stream_bound.binding == QMODEL_TERM_BANDWIDTH, "stream bound by %s",
	      qmodel_term_name(c.stream_bound.binding));
	CHECK(c.chase_bound.binding == QMODEL_TERM_LATENCY, "chase still latency-bound");
	CHECK(fabs(c.stream.seen.mean_outstanding - 15) < 0.1, "B-bound mean %g", c.stream.seen.mean_outstanding);
	CHECK(fabs(c.slowdown - 10) < 0.05, "slowdown %g", c.slowdown);
}

TEST(qmodel_bound_names_the_binding_term_per_k)
{
	struct qmodel_memory m = {.latency = 100, .queue_cap = 10, .bytes_per_tick = 8, .request_bytes = 64};
	struct qmodel_bound b;
	char names[64];

	qmodel_bound_at(&m, 5, 0, &b);     /* 20, 10, 8 */
	CHECK(b.binding == QMODEL_TERM_LATENCY && b.bound == 20, "K=5: %s %g", qmodel_term_name(b.binding), b.bound);
	qmodel_bound_at(&m, 20, 0, &b);    /* 5, 10, 8 */
	CHECK(b.binding == QMODEL_TERM_CONCURRENCY && b.bound == 10, "K=20: %s", qmodel_term_name(b.binding));
	m.bytes_per_tick = 64.0 / 12;      /* 12 per request */
	qmodel_bound_at(&m, 20, 0, &b);
	CHECK(b.binding == QMODEL_TERM_BANDWIDTH && fabs(b.bound - 12) < 1e-12, "K=20: %s", qmodel_term_name(b.binding));
	m.bytes_per_tick = 64.0 / 9.8;
	qmodel_bound_at(&m, 20, 0.05, &b);
	qmodel_bound_names(&b, names, sizeof(names));
	CHECK(!strcmp(names, "concurrency+bandwidth"), "within 5%%: '%s'", names);
	qmodel_bound_at(&m, 20, 0.01, &b);
	qmodel_bound_names(&b, names, sizeof(names));
	CHECK(!strcmp(names, "concurrency"), "beyond 1%%: '%s'", names);
}

TEST(qmodel_never_beats_its_bound_on_random_configurations)
{
	uint64_t x = 12345;

	for (int i = 0; i < 2000; i++) {
		struct qmodel_memory m;
		struct qmodel_workload w;
		struct qmodel_result r;
		struct qmodel_bound b;
		uint64_t v[6];

		for (int j = 0; j < 6; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v[j] = x;
		}
		m = (struct qmodel_memory){.latency = 1 + (double)(v[0] % 400), .queue_cap = (double)(v[1] % 24),
					   .bytes_per_tick = v[2] % 3 ? 0.5 + (double)(v[2] % 64) : 0, .request_bytes = 64};
		w = (struct qmodel_workload){.feed = v[3] % 4 ? QMODEL_FEED_CHAINS : QMODEL_FEED_STREAM,
					     .chains = 1 + v[4] % 40, .requests = 1 + v[5] % 3000, .seed = v[5]};
		CHECK(qmodel_run(&m, &w, &r) == 0, "run %d", i);
		qmodel_bound_at(&m, w.feed == QMODEL_FEED_CHAINS ? (double)w.chains : 0, 0, &b);
		CHECK(r.per_request >= b.bound * (1 - 1e-12), "config %d: %g per request beats the bound %g (%s)", i,
		      r.per_request, b.bound, qmodel_term_name(b.binding));
		CHECK(r.seen.flags == 0, "config %d: characteriser flags %#x", i, r.seen.flags);
		CHECK(m.queue_cap == 0 || r.seen.high_water <= (uint64_t)m.queue_cap, "config %d: hwm over Q", i);
		CHECK(r.seen.requests == w.requests && r.seen.completions == w.requests, "config %d: counts", i);
		/* Little's law inside the model: mean outstanding = requests x L / makespan */
		CHECK(fabs(r.seen.mean_outstanding - (double)w.requests * m.latency / r.makespan) <
		      1e-9 * r.seen.mean_outstanding + 1e-9 || m.bytes_per_tick > 0,
		      "config %d: mean %g", i, r.seen.mean_outstanding);
	}
}

TEST(qmodel_rejects_bad_parameters)
{
	struct qmodel_memory m = {.latency = 0, .request_bytes = 64};
	struct qmodel_workload w = {.feed = QMODEL_FEED_CHAINS, .chains = 1, .requests = 1};
	struct qmodel_result r;

	CHECK(qmodel_run(&m, &w, &r) == -EINVAL, "L = 0");
	m.latency = 10;
	m.queue_cap = 2.5;
	CHECK(qmodel_run(&m, &w, &r) == -EINVAL, "fractional Q in a simulation");
	m.queue_cap = 0;
	w.chains = 0;
	CHECK(qmodel_run(&m, &w, &r) == -EINVAL, "no chains");
}

/* ---- the model command ---- */

static const char result_json[] =
	"{\n"
	"  \"tool\": \"mlpscope\",\n"
	"  \"version\": \"0.1.0\",\n"
	"  \"schema_version\": %d,\n"
	"  \"mlp\": {\n"
	"    \"%s\": {\n"
	"      \"line_bytes\": 64,\n"
	"      \"noise_floor_pct\": 2,\n"
	"      \"sweep\": [\n"
	"        {\"lanes\": 1, \"ns_per_access\": 100, \"line_gbps\": 0.64},\n"
	"        {\"lanes\": 2, \"ns_per_access\": 50.5, \"line_gbps\": 1.267},\n"
	"        {\"lanes\": 4, \"ns_per_access\": 25.2, \"line_gbps\": 2.54},\n"
	"        {\"lanes\": 8, \"ns_per_access\": 12.6, \"line_gbps\": 5.079},\n"
	"        {\"lanes\": 16, \"ns_per_access\": 10.1, \"line_gbps\": 6.337},\n"
	"        {\"lanes\": 32, \"ns_per_access\": 10.0, \"line_gbps\": 6.4}\n"
	"      ],\n"
	"      \"estimate\": {\"fit_latency_ns\": 100, \"fit_plateau_concurrency\": 10, \"peak_concurrency\": 10}\n"
	"    }\n"
	"  },\n"
	"  \"warnings\": []\n"
	"}\n";

static int write_result(const char *path, int schema, const char *section, size_t truncate_to)
{
	char buf[4096];
	FILE *f;
	int n = snprintf(buf, sizeof(buf), result_json, schema, section);

	if (n < 0)
		return -1;
	/* "mlp" directly: drop the section wrapper */
	if (!strcmp(section, "-")) {
		char *open = strstr(buf, "\"-\": {");
		char *close = strstr(buf, "    }\n  },");

		memset(open, ' ', 6);
		memcpy(close, "     ", 5);
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fwrite(buf, 1, truncate_to && truncate_to < (size_t)n ? truncate_to : (size_t)n, f);
	return fclose(f);
}

static char *model_output(const char *path, int *rc, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	*rc = model_cmd_run(path, NULL, NULL, out, err, errlen);
	fclose(out);
	return text;
}

TEST(qmodel_model_cmd_prints_envelope_and_binding_per_k)
{
	char path[] = "/tmp/mlpscope-model-XXXXXX", err[256];
	int fd = mkstemp(path), rc;
	char *text;

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	for (int variant = 0; variant < 2; variant++) {
		CHECK(write_result(path, 1, variant ? "small" : "-", 0) == 0, "write");
		text = model_output(path, &rc, err, sizeof(err));
		CHECK(rc == 0, "rc %d: %s", rc, err);
		CHECK(strstr(text, variant ? "\nmlp.small: the envelope" : "\nmlp: the envelope"), "section named: %s", text);
		CHECK(strstr(text, "L: mlp.sweep[0].ns_per_access = 100.0 ns"), "L source: %s", text);
		/* B is never the sweep's own best line rate (6.4 GB/s here) */
		CHECK(strstr(text, "B: unknown: no bandwidth section") && !strstr(text, "line_gbps"), "B: %s", text);
		/* only L/K is known: it binds at every K, with no next term */
		CHECK(strstr(text, "     1   100.000  100.000"), "K=1 row: %s", text);
		CHECK(strstr(text, "    32    10.000    3.125"), "K=32 row: %s", text);
		CHECK(strstr(text, "a saturation of this kernel's throughput"), "words: %s", text);
		free(text);
	}
	unlink(path);
}

TEST(qmodel_model_cmd_refuses_newer_truncated_and_foreign_files)
{
	char path[] = "/tmp/mlpscope-model-XXXXXX", err[256];
	int fd = mkstemp(path), rc;
	char *text;

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	write_result(path, 2, "small", 0);
	text = model_output(path, &rc, err, sizeof(err));
	free(text);
	CHECK(rc == 2 && strstr(err, "schema_version 2 is newer"), "newer: rc %d '%s'", rc, err);
	write_result(path, 1, "small", 300);
	text = model_output(path, &rc, err, sizeof(err));
	free(text);
	CHECK(rc == 2 && strstr(err, "truncated") && strstr(err, "line "), "truncated: rc %d '%s'", rc, err);
	CHECK(!strchr(err, '\n'), "one line: '%s'", err);
	FILE *f = fopen(path, "w");

	CHECK(f, "fopen");
	fputs("{\"tool\": \"other\", \"schema_version\": 1}", f);
	fclose(f);
	text = model_output(path, &rc, err, sizeof(err));
	free(text);
	CHECK(rc == 2 && strstr(err, "not an mlpscope result"), "foreign: rc %d '%s'", rc, err);
	unlink(path);
	text = model_output(path, &rc, err, sizeof(err));
	free(text);
	CHECK(rc == 1 && strstr(err, "No such file"), "missing: rc %d '%s'", rc, err);
}
