/*
 * The trace command: the checked-in lackey excerpts (tests/data/lackey_*.trace,
 * cut by hand from real valgrind 3.19 runs of tests/data/trace_*.c, so the
 * parser is tested without valgrind), reuse distances against a naive LRU
 * stack on a synthetic trace long enough to renumber the Fenwick tree,
 * damaged and foreign files, the --from bound, and, where valgrind is
 * installed, fresh traces of the two test programs.
 */
#include "../harness.h"

#include "sections/trace.h"
#include "analyse/trace_analyse.h"
#include "util/jsonr.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Beside the default build directory, else relative to the working
 * directory (a BUILD=elsewhere run from the repository root). */
static void data_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/../tests/data/%s", test_bin_dir(), name);
	if (access(buf, R_OK))
		snprintf(buf, len, "tests/data/%s", name);
}

static int analyse_path(const char *path, const struct trace_params *p, struct trace_result *r)
{
	char err[256];
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return -errno;
	rc = trace_analyse(f, p, r, err, sizeof(err));
	fclose(f);
	return rc;
}

/* The trace as text and JSON through the command, with --queue Q (0: none)
 * and --from json_from (NULL: none); the caller frees *text. */
static int run_trace(const char *fixture, uint64_t queue, const char *json_from, const char *json_out, char **text,
		     char *err, size_t errlen)
{
	char tpath[4096];
	size_t len = 0;
	FILE *out = open_memstream(text, &len);
	struct trace_request rq = {.trace_path = tpath, .json_out = json_out, .queue_cap = queue, .from_path = json_from};
	int rc;

	data_path(tpath, sizeof(tpath), fixture);
	rc = trace_cmd_run_request(&rq, out, err, errlen);
	fclose(out);
	return rc;
}

static double hit_rate(const struct trace_result *r, size_t i)
{
	return (double)r->cache_hits[i] / (double)r->touches;
}

static double useful_per_line(const struct trace_result *r)
{
	return (double)r->bytes_touched / (double)r->distinct_lines;
}

TEST(trace_fixtures_show_irregular_chase_and_regular_stream)
{
	static struct trace_result chase, stream;
	char path[4096];

	data_path(path, sizeof(path), "lackey_chase.trace");
	CHECK(analyse_path(path, NULL, &chase) == 0, "%s", path);
	data_path(path, sizeof(path), "lackey_stream.trace");
	CHECK(analyse_path(path, NULL, &stream) == 0, "%s", path);
	CHECK(chase.malformed == 0 && stream.malformed == 0, "malformed %llu %llu", (unsigned long long)chase.malformed,
	      (unsigned long long)stream.malformed);
	CHECK(chase.valgrind_lines == 25 && chase.lines == 2525, "valgrind lines %llu of %llu",
	      (unsigned long long)chase.valgrind_lines, (unsigned long long)chase.lines);
	CHECK(chase.loads == 625 && chase.instr == 1875 && !chase.stores, "chase records");
	CHECK(stream.loads == 500 && stream.instr == 2000, "stream records");
	/* every hop lands on a new node's next pointer: 8 of 64 bytes */
	CHECK(useful_per_line(&chase) == 8.0, "chase useful %g", useful_per_line(&chase));
	CHECK(useful_per_line(&stream) > 60, "stream useful %g", useful_per_line(&stream));
	CHECK(chase.requests.stride_regular_fraction < 0.05, "chase strides %g", chase.requests.stride_regular_fraction);
	CHECK(stream.requests.stride_regular_fraction > 0.95, "stream strides %g", stream.requests.stride_regular_fraction);
	/* the stream's eight loads per line reuse at distance 0; the chase's
	 * excerpt is shorter than its cycle, so every hop is a first touch */
	CHECK((double)stream.reuse_hist[0] / (double)stream.touches > 0.8, "stream distance-0 share");
	CHECK(chase.cold == chase.touches, "chase cold %llu of %llu", (unsigned long long)chase.cold,
	      (unsigned long long)chase.touches);
}

/* A naive LRU stack: the position of a line in most-recent-first order is
 * its reuse distance. O(lines) per touch, written independently of the
 * Fenwick method. */
struct lru_ref {
	uint64_t stack[512];
	size_t n;
};

static long lru_touch(struct lru_ref *s, uint64_t line)
{
	size_t i;

	for (i = 0; i < s->n && s->stack[i] != line; i++)
		;
	long d = i < s->n ? (long)i : -1;

	if (i == s->n)
		s->n++;
	memmove(&s->stack[1], &s->stack[0], i * sizeof(s->stack[0]));
	s->stack[0] = line;
	return d;
}

TEST(trace_reuse_distances_match_a_naive_lru_stack)
{
	static const uint64_t caches[] = {64 * 4, 64 * 32, 64 * 100, 64 * 256};
	struct trace_params p = {.cache_bytes = caches, .ncaches = 4};
	static struct lru_ref ref;
	static struct trace_result r;
	uint64_t want_hist[TRACE_HIST_BUCKETS] = {0}, want_hits[4] = {0}, want_touches = 0, want_cold = 0;
	char path[] = "/tmp/mlpscope-trace-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	uint64_t x = 7;

	CHECK(fd >= 0, "mkstemp");
	f = fdopen(fd, "w");
	CHECK(f, "fdopen");
	fprintf(f, "==1== Lackey, an example Valgrind tool\n");
	ref.n = 0;
	/* 150,000 accesses: more than the tree's first 65,536 slots, so the
	 * renumbering runs several times */
	for (int i = 0; i < 150000; i++) {
		uint64_t line, off, size, addr;
		static const char kinds[] = "LLLSM";

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* mostly a hot set, sometimes any of 400 lines */
		line = x % 5 ? (x >> 8) % 24 : (x >> 8) % 400;
		off = (x >> 20) % 64;
		size = 1 + (x >> 30) % 16;
		addr = 0x10000 + line * 64 + off;
		if ((x >> 40) % 7 == 0)
			fprintf(f, "I  %08llx,%llu\n", (unsigned long long)addr, (unsigned long long)size);
		fprintf(f, " %c %08llx,%llu\n", kinds[(x >> 44) % 5], (unsigned long long)addr, (unsigned long long)size);
		for (uint64_t l = addr / 64; l <= (addr + size - 1) / 64; l++) {
			long d = lru_touch(&ref, l);

			want_touches++;
			if (d < 0) {
				want_cold++;
				continue;
			}
			want_hist[d ? 64 - __builtin_clzll((uint64_t)d) : 0]++;
			for (int c = 0; c < 4; c++)
				if ((uint64_t)d < caches[c] / 64)
					want_hits[c]++;
		}
	}
	fclose(f);
	CHECK(analyse_path(path, &p, &r) == 0, "analyse");
	unlink(path);
	CHECK(r.touches == want_touches && r.cold == want_cold, "touches %llu/%llu cold %llu/%llu",
	      (unsigned long long)r.touches, (unsigned long long)want_touches, (unsigned long long)r.cold,
	      (unsigned long long)want_cold);
	for (int b = 0; b < TRACE_HIST_BUCKETS; b++)
		CHECK(r.reuse_hist[b] == want_hist[b], "bucket %d: %llu, reference %llu", b,
		      (unsigned long long)r.reuse_hist[b], (unsigned long long)want_hist[b]);
	for (int c = 0; c < 4; c++)
		CHECK(r.cache_hits[c] == want_hits[c], "cache %d: %llu hits, reference %llu", c,
		      (unsigned long long)r.cache_hits[c], (unsigned long long)want_hits[c]);
	CHECK(r.distinct_lines == ref.n, "distinct %llu vs %zu", (unsigned long long)r.distinct_lines, ref.n);
	CHECK(r.malformed == 0 && r.valgrind_lines == 1, "clean synthetic trace");
}

/* Copy the stream fixture with damage at known lines and a cut-off end. */
static int write_damaged(const char *path)
{
	char src[4096], line[512];
	FILE *in, *out;
	int n = 0;

	data_path(src, sizeof(src), "lackey_stream.trace");
	in = fopen(src, "r");
	out = fopen(path, "w");
	if (!in || !out) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (++n == 11) {
			fputs("garbage here\n", out);                 /* line 11 */
			fputs(" L zz,8\n", out);                      /* 12: not hex */
			fputs(" L 04000,0\n", out);                   /* 13: size 0 */
			for (int i = 0; i < 300; i++)                 /* 14: far too long */
				fputc('7', out);
			fputc('\n', out);
			fputs(" L \x01\x02,8\n", out);                /* 15: binary */
			fputs(" L 12345678123456781,8\n", out);       /* 16: 17 hex digits */
		}
		fputs(line, out);
	}
	fputs(" L 004d7", out);                               /* cut off */
	fclose(in);
	return fclose(out);
}

TEST(trace_damaged_trace_is_reported_not_fatal)
{
	char path[] = "/tmp/mlpscope-trace-XXXXXX", err[256], *text = NULL;
	size_t len = 0;
	int fd = mkstemp(path), rc;
	static struct trace_result r;
	FILE *out;

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	CHECK(write_damaged(path) == 0, "write");
	CHECK(analyse_path(path, NULL, &r) == 0, "analyse");
	CHECK(r.malformed == 7, "malformed %llu", (unsigned long long)r.malformed);
	CHECK(r.bad[0].line_no == 11 && r.bad[1].line_no == 12 && r.bad[4].line_no == 15,
	      "line numbers %llu %llu %llu", (unsigned long long)r.bad[0].line_no, (unsigned long long)r.bad[1].line_no,
	      (unsigned long long)r.bad[4].line_no);
	CHECK(!strcmp(r.bad[4].text, " L ??,8"), "non-printables masked: '%s'", r.bad[4].text);
	CHECK(r.ends_without_newline, "cut-off end noticed");
	CHECK(r.loads == 500, "the good records all counted: %llu", (unsigned long long)r.loads);
	out = open_memstream(&text, &len);
	rc = trace_cmd_run(path, NULL, out, err, sizeof(err));
	fclose(out);
	unlink(path);
	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(text, "malformed: 7 of 2532 lines") && strstr(text, "line 11: \"garbage here\"") &&
	      strstr(text, "truncated"), "report: %s", text);
	free(text);
}

TEST(trace_refuses_a_file_without_records)
{
	char path[] = "/tmp/mlpscope-trace-XXXXXX", err[256];
	int fd = mkstemp(path), rc;
	FILE *out = fopen("/dev/null", "w");

	CHECK(fd >= 0 && out, "mkstemp");
	CHECK(write(fd, "{\"tool\": \"mlpscope\"}\nhello\n", 27) == 27, "write");
	close(fd);
	rc = trace_cmd_run(path, NULL, out, err, sizeof(err));
	CHECK(rc == 2 && strstr(err, "no lackey records (2 lines, 2 malformed)"), "rc %d '%s'", rc, err);
	unlink(path);
	rc = trace_cmd_run(path, NULL, out, err, sizeof(err));
	CHECK(rc == 1 && strstr(err, "No such file"), "missing: rc %d '%s'", rc, err);
	fclose(out);
}

/* The bound's terms come from the sections that measure them (bandwidth's
 * reads, window's load queue), never from the lanes sweep it would explain:
 * the sweep's plateau (20) and line rate (6.4 GB/s) here are decoys. */
TEST(trace_with_from_prices_the_misses_under_each_bound)
{
	static const char json[] =
		"{\"tool\": \"mlpscope\", \"schema_version\": 1,"
		" \"machine\": {\"core_clock_mhz\": {\"min\": 1900, \"max\": 2100}},"
		" \"bandwidth\": {\"kernels\": [{\"op\": \"read\", \"kernel\": \"read_x\", \"threads\": 1, \"gbps\": 6.4},"
		" {\"op\": \"read\", \"kernel\": \"read_x\", \"threads\": 2, \"gbps\": 12.8}]},"
		" \"window\": {\"summary\": {\"load_queue\": {\"measured\": true, \"capacity\": 40, \"from\": \"load\"}}},"
		" \"mlp\": {\"line_bytes\": 64,"
		" \"sweep\": [{\"lanes\": 1, \"ns_per_access\": 100, \"line_gbps\": 0.64},"
		" {\"lanes\": 16, \"ns_per_access\": 10, \"line_gbps\": 6.4}],"
		" \"estimate\": {\"fit_latency_ns\": 100, \"fit_plateau_concurrency\": 20}}}";
	static const char bare[] =
		"{\"tool\": \"mlpscope\", \"schema_version\": 1, \"mlp\": {\"line_bytes\": 64,"
		" \"sweep\": [{\"lanes\": 1, \"ns_per_access\": 100, \"line_gbps\": 0.64},"
		" {\"lanes\": 16, \"ns_per_access\": 10, \"line_gbps\": 6.4}],"
		" \"estimate\": {\"fit_latency_ns\": 100, \"fit_plateau_concurrency\": 20}}}";
	char jpath[] = "/tmp/mlpscope-trace-json-XXXXXX", tpath[4096], err[256], *text = NULL;
	size_t len = 0;
	int fd = mkstemp(jpath), rc;
	FILE *out;

	CHECK(fd >= 0, "mkstemp");
	CHECK(write(fd, json, sizeof(json) - 1) == (ssize_t)sizeof(json) - 1, "write");
	close(fd);
	data_path(tpath, sizeof(tpath), "lackey_chase.trace");
	out = open_memstream(&text, &len);
	rc = trace_cmd_run(tpath, jpath, out, err, sizeof(err));
	fclose(out);
	CHECK(rc == 0, "rc %d: %s", rc, err);
	/* 625 cold misses; L = 100 ns: all dependent 62500 ns; at the request
	 * model's C = 625 x 200 / 2073 (L = 100 ns x 2 GHz = 200 cycles, the
	 * last request at tick 1873), M L / C = 100 x 2073 / 200 = 1036.5 ns;
	 * L/Q_lq = 2.5 ns -> 1562; 64 B / 6.4 B/ns = 10 ns -> 6250 (one core
	 * binds); 64 / 12.8 -> 3125. (1036.5 sits on a rounding edge: the
	 * JSON below checks it exactly.) */
	CHECK(strstr(text, "32 KiB              625            62500             103") &&
	      strstr(text, "             1562             6250             3125             6250  bandwidth_core"),
	      "bound row: %s", text);
	CHECK(strstr(text, "C = 60.30, the request model's mean outstanding"), "C named: %s", text);
	free(text);
	/* the JSON carries the prediction beside M x L, and the C it used */
	{
		char jout[] = "/tmp/mlpscope-trace-pred-XXXXXX";
		struct jsonr_doc doc;
		double v, c;

		CHECK((fd = mkstemp(jout)) >= 0, "mkstemp");
		close(fd);
		CHECK(run_trace("lackey_chase.trace", 0, jpath, jout, &text, err, sizeof(err)) == 0, "%s", err);
		CHECK(jsonr_parse_file(jout, 0, &doc, err, sizeof(err)) == 0, "%s", err);
		unlink(jout);
		CHECK(jsonr_get_number(doc.root, "trace.bounds_from.concurrency", &c) &&
		      fabs(c - 625.0 * 200 / 2073) < 1e-4, "C %g", c);
		CHECK(jsonr_get_number(jsonr_index(jsonr_get(doc.root, "trace.caches"), 0), "concurrency_ns", &v) &&
		      fabs(v - 100.0 * 2073 / 200) < 1e-3, "M L / C %g", v);
		jsonr_free(&doc);
	}
	CHECK(strstr(text, "L = 200 ticks"), "L from t(1) and the core clock: %s", text);
	free(text);
	/* without the bandwidth and window sections nothing bounds it: the
	 * sweep's own 6.4 GB/s and plateau of 20 must not stand in */
	CHECK((fd = open(jpath, O_WRONLY | O_TRUNC)) >= 0, "reopen");
	CHECK(write(fd, bare, sizeof(bare) - 1) == (ssize_t)sizeof(bare) - 1, "write");
	close(fd);
	text = NULL;
	out = open_memstream(&text, &len);
	rc = trace_cmd_run(tpath, jpath, out, err, sizeof(err));
	fclose(out);
	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(text, "32 KiB              625            62500             103") &&
	      strstr(text, "                -                -                -                -  unknown"),
	      "circular bound: %s", text);
	CHECK(strstr(text, "L = 200 ticks"), "no core clock: the default L: %s", text);
	free(text);
	out = fopen("/dev/null", "w");
	rc = trace_cmd_run(tpath, "/nonexistent/run.json", out, err, sizeof(err));
	fclose(out);
	unlink(jpath);
	CHECK(rc == 1 && strstr(err, "/nonexistent/run.json"), "missing --from: rc %d '%s'", rc, err);
}

/* The request model by hand: one tick per instruction record, a request per
 * change of line at the tick it is reached, each outstanding L ticks; no
 * request is dropped, so the area is requests x L and the window ends L
 * after the last request: mean = R L / (t_last + L). */
static void hand_mean(const char *path, double latency, uint64_t *requests, double *mean)
{
	char line[256];
	uint64_t instr = 0, prev_line = UINT64_MAX, last_t = 0;
	FILE *f = fopen(path, "r");

	*requests = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		unsigned size;

		if (line[0] == 'I') {
			instr++;
			continue;
		}
		if (sscanf(line, " %*[LSM] %llx,%u", &addr, &size) != 2)
			continue;
		/* the fixture's accesses never cross a line */
		if (addr / 64 != prev_line) {
			(*requests)++;
			last_t = instr;
			prev_line = addr / 64;
		}
	}
	if (f)
		fclose(f);
	*mean = (double)*requests * latency / ((double)last_t + latency);
}

TEST(trace_request_model_mean_outstanding_matches_a_hand_computation)
{
	char tpath[4096], jout[] = "/tmp/mlpscope-trace-out-XXXXXX", err[256];
	static const double latencies[] = {200, 7};
	int fd = mkstemp(jout);

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	data_path(tpath, sizeof(tpath), "lackey_chase.trace");
	for (size_t i = 0; i < 2; i++) {
		struct trace_params p = {.latency_ticks = latencies[i]};
		struct trace_result *r = calloc(1, sizeof(*r));
		uint64_t requests;
		double want;

		CHECK(r, "calloc");
		hand_mean(tpath, latencies[i], &requests, &want);
		CHECK(requests == 625 && want > 0, "fixture: %llu requests", (unsigned long long)requests);
		CHECK(analyse_path(tpath, &p, r) == 0, "analyse");
		CHECK(r->requests.requests == requests && r->requests.completions == requests && !r->requests.dropped,
		      "requests %llu, completed %llu", (unsigned long long)r->requests.requests,
		      (unsigned long long)r->requests.completions);
		CHECK(fabs(r->requests.mean_outstanding - want) < 1e-9 * want, "L = %g: mean %.6f, by hand %.6f",
		      latencies[i], r->requests.mean_outstanding, want);
		CHECK(r->requests.flags == 0 && r->requests.used_reported && r->requests.used_bytes == 625 * 8,
		      "flags %#x, used %llu", r->requests.flags, (unsigned long long)r->requests.used_bytes);
		free(r);
	}
	/* trace --json carries every figure and flag of the characteriser */
	{
		struct trace_request rq = {.trace_path = tpath, .json_out = jout, .latency_text = "200"};
		static const char *keys[] = {
			"trace.requests.mean_outstanding", "trace.requests.high_water", "trace.requests.outstanding_at_end",
			"trace.requests.requests", "trace.requests.reads", "trace.requests.writes",
			"trace.requests.completions", "trace.requests.dropped", "trace.requests.unmatched",
			"trace.requests.stride_classified", "trace.requests.stride_regular",
			"trace.requests.stride_regular_fraction", "trace.requests.delivered_bytes",
			"trace.requests.used_bytes", "trace.requests.used_fraction", "trace.requests.window_ticks",
			"trace.timing_model.latency_ticks",
		};
		static const char *flags[] = {"overflow", "completion_idle", "time_backwards", "used_exceeds"};
		struct jsonr_doc doc;
		uint64_t requests;
		double v, want;
		bool b;
		FILE *out = fopen("/dev/null", "w");
		int rc = trace_cmd_run_request(&rq, out, err, sizeof(err));

		fclose(out);
		CHECK(rc == 0, "rc %d: %s", rc, err);
		CHECK(jsonr_parse_file(jout, 0, &doc, err, sizeof(err)) == 0, "trace json: %s", err);
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			CHECK(jsonr_get_number(doc.root, keys[i], &v), "missing %s", keys[i]);
		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
			char key[64];

			snprintf(key, sizeof(key), "trace.requests.flags.%s", flags[i]);
			CHECK(jsonr_get_bool(doc.root, key, &b) && !b, "flag %s", key);
		}
		hand_mean(tpath, 200, &requests, &want);
		CHECK(jsonr_get_number(doc.root, "trace.requests.mean_outstanding", &v) && fabs(v - want) < 1e-6 * want,
		      "json mean %g, by hand %g", v, want);
		jsonr_free(&doc);

	}
	unlink(jout);
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Build and trace one test program; 0, or why not in why. */
static int trace_program(const char *dir, const char *name, struct trace_result *r, char *why, size_t whylen)
{
	char src[4096];

	data_path(src, sizeof(src), name);
	snprintf(src + strlen(src), sizeof(src) - strlen(src), ".c");
	/* static when the toolchain can: ld.so's start-up is then not most of
	 * the trace */
	if (sh("cc -O1 -static -o '%s/prog' '%s' >/dev/null 2>&1 || cc -O1 -o '%s/prog' '%s' >/dev/null 2>&1", dir,
	       src, dir, src)) {
		snprintf(why, whylen, "cannot compile %s with cc", src);
		return -2;
	}
	if (sh("valgrind --tool=lackey --trace-mem=yes --log-file='%s/out.trace' '%s/prog' >/dev/null 2>&1", dir, dir)) {
		snprintf(why, whylen, "valgrind failed on %s", name);
		return -1;
	}
	snprintf(src, sizeof(src), "%s/out.trace", dir);
	if (analyse_path(src, NULL, r)) {
		snprintf(why, whylen, "analysing %s failed", src);
		return -2;
	}
	unlink(src);
	snprintf(src, sizeof(src), "%s/prog", dir);
	unlink(src);
	return 0;
}

TEST(trace_valgrind_lackey_on_chase_and_stream_programs, NEEDS_PROGRAMS)
{
	static struct trace_result chase, stream;
	char dir[] = "/tmp/mlpscope-lackey-XXXXXX", why[4200];
	int rc;

	if (test_toolchain("valgrind", why, sizeof(why)))
		SKIP("%s; the checked-in lackey excerpts still test the parser", why);
	if (sh("cc --version >/dev/null 2>&1"))
		SKIP("no C compiler (cc) to build the programs to trace");
	CHECK(mkdtemp(dir), "mkdtemp");
	rc = trace_program(dir, "trace_chase", &chase, why, sizeof(why));
	if (!rc)
		rc = trace_program(dir, "trace_stream", &stream, why, sizeof(why));
	snprintf(why + 2048, 2048, "rm -f '%s/prog' '%s/out.trace'", dir, dir);
	sh("%s", why + 2048);
	rmdir(dir);
	if (rc == -1)
		SKIP("%s", why);
	CHECK(rc == 0, "%s", why);
	CHECK(chase.malformed == 0 && stream.malformed == 0, "malformed lines in valgrind's own output");
	/* strides: a chase follows data, a stream walks lines one by one */
	CHECK(chase.requests.stride_regular_fraction < 0.2, "chase strides %g", chase.requests.stride_regular_fraction);
	CHECK(stream.requests.stride_regular_fraction > 0.6, "stream strides %g", stream.requests.stride_regular_fraction);
	/* reuse: the stream's loads share lines (distance 0), the chase's do not;
	 * both revisit a 256 KiB set, which 512 KiB holds and 32 KiB does not */
	CHECK((double)stream.reuse_hist[0] / (double)stream.touches > 0.6, "stream distance-0 share");
	CHECK((double)chase.reuse_hist[0] / (double)chase.touches < 0.3, "chase distance-0 share");
	CHECK(hit_rate(&stream, 0) > hit_rate(&chase, 0) + 0.3, "32 KiB hit rates: stream %g chase %g",
	      hit_rate(&stream, 0), hit_rate(&chase, 0));
	CHECK(hit_rate(&chase, 1) > 0.9 && hit_rate(&stream, 1) > 0.9, "512 KiB hit rates %g %g", hit_rate(&chase, 1),
	      hit_rate(&stream, 1));
	CHECK(useful_per_line(&chase) < 24 && useful_per_line(&stream) > 56, "useful bytes per line %g %g",
	      useful_per_line(&chase), useful_per_line(&stream));
}

/* Seed 003's thirteen properties (P8 in two checks) are shown with their
 * armed counts in text and JSON, and each flag that cannot fire under the
 * request model says so; --queue gives the characteriser a capacity, which
 * arms overflow and, through the dropped requests' completions, P5. */
TEST(trace_shows_every_property_and_says_which_flags_cannot_fire)
{
	static const char *const ids[] = {"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P8b",
					  "P9", "P10", "P11", "P12", "P13"};
	char jout[] = "/tmp/mlpscope-trace-props-XXXXXX", err[256], line[64], *text = NULL;
	int fd = mkstemp(jout);
	struct jsonr_doc doc;
	const struct jsonr_value *props, *fc;
	double v;
	bool b;

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	CHECK(run_trace("lackey_chase.trace", 0, NULL, jout, &text, err, sizeof(err)) == 0, "%s", err);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		snprintf(line, sizeof(line), "\n      %-4s ", ids[i]);
		CHECK(strstr(text, line), "no line for %s in: %s", ids[i], text);
	}
	/* the chase fixture arms P3, P4 (increment, decrement), P7 and P8b */
	CHECK(strstr(text, "P3   held             625") && strstr(text, "P4   held             625") &&
	      strstr(text, "P8b  held             625"), "armed counts: %s", text);
	CHECK(strstr(text, "overflow         not raised; cannot fire here: the capacity is unlimited") &&
	      strstr(text, "time_backwards   not raised; cannot fire here") &&
	      strstr(text, "used_exceeds     not raised; cannot fire here") &&
	      strstr(text, "completion_idle  not raised; cannot fire here"), "flags: %s", text);
	CHECK(!strstr(text, "flags: none"), "the old claim: %s", text);
	free(text);
	CHECK(jsonr_parse_file(jout, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	props = jsonr_get(doc.root, "trace.requests.properties");
	CHECK(props && jsonr_get_count(doc.root, "trace.requests.properties") == sizeof(ids) / sizeof(ids[0]),
	      "properties array");
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct jsonr_value *p = jsonr_index(props, i);
		const char *id = jsonr_get_string(p, "id"), *verdict = jsonr_get_string(p, "verdict");

		CHECK(id && !strcmp(id, ids[i]) && verdict && jsonr_get_number(p, "armed", &v) &&
		      jsonr_get_number(p, "failed", &v) && v == 0, "property %zu: %s %s", i, id ? id : "?",
		      verdict ? verdict : "?");
	}
	CHECK(jsonr_get_number(jsonr_index(props, CHARZ_P2_SAME_TICK_NEUTRAL), "armed", &v), "P2 armed");
	CHECK(jsonr_get_number(jsonr_index(props, CHARZ_P7_AVERAGE_FEASIBLE), "armed", &v) && v > 0, "P7 armed %g", v);
	fc = jsonr_get(doc.root, "trace.requests.flag_checks");
	CHECK(fc && jsonr_get_bool(jsonr_index(fc, 0), "armable", &b) && !b &&
	      jsonr_get_string(jsonr_index(fc, 0), "why"), "overflow unarmable without --queue");
	CHECK(jsonr_get_number(doc.root, "trace.requests.covers.arrival", &v) && v == 625, "covers.arrival %g", v);
	jsonr_free(&doc);

	/* --queue 32: the chase's rate needs about 60 in flight at L = 200 */
	CHECK(run_trace("lackey_chase.trace", 32, NULL, jout, &text, err, sizeof(err)) == 0, "%s", err);
	CHECK(strstr(text, "overflow         RAISED\n") && strstr(text, "completion_idle  RAISED\n") &&
	      strstr(text, "35 requests were past the capacity"), "--queue 32: %s", text);
	free(text);
	CHECK(jsonr_parse_file(jout, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	fc = jsonr_get(doc.root, "trace.requests.flag_checks");
	props = jsonr_get(doc.root, "trace.requests.properties");
	CHECK(jsonr_get_bool(jsonr_index(fc, 0), "armable", &b) && b && jsonr_get_bool(jsonr_index(fc, 0), "raised", &b) &&
	      b, "overflow armed and raised");
	CHECK(jsonr_get_number(jsonr_index(props, CHARZ_P5_UNDERFLOW_RECORDED), "armed", &v) && v == 35, "P5 armed %g", v);
	CHECK(jsonr_get_number(jsonr_index(props, CHARZ_P13_FLAGS_STICKY), "armed", &v) && v > 0, "P13 armed %g", v);
	CHECK(jsonr_get_number(doc.root, "trace.timing_model.queue_cap", &v) && v == 32, "queue_cap %g", v);
	jsonr_free(&doc);
	unlink(jout);
}
