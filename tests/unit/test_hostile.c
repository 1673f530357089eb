/*
 * Hostile inputs and output paths (issue 17): results that parse but say
 * nonsense (lanes = 1e300, level = 1e10), inputs that would block (a FIFO),
 * outputs that are not regular files or name one file twice, and a signal
 * in the middle of a write. Every test here failed before its fix; those
 * that could hang run in a child under an alarm so a regression fails
 * instead of stopping the suite.
 */
#include "../harness.h"

#include "cli.h"
#include "sections/compare.h"
#include "analyse/load.h"
#include "sections/trace.h"
#include "util/jsonr.h"
#include "kern/lanes.h"
#include "util/atomic.h"
#include "report/plots.h"
#include "report/view.h"
#include "frame/registry.h"
#include "report/svg.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Run fn(arg) in a child with an alarm: its exit status, or 128 + signal
 * (SIGALRM: it hung). */
static int in_child(int (*fn)(const void *), const void *arg, unsigned seconds)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
#ifndef __SANITIZE_ADDRESS__
		/* A regression that loops while allocating must not take the
		 * machine's memory with it (ASan reserves far more address
		 * space than this, so it runs without the cap). */
		struct rlimit cap = { (rlim_t)1 << 30, (rlim_t)1 << 30 };

		setrlimit(RLIMIT_AS, &cap);
#endif
		alarm(seconds);
		_exit(fn(arg));
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define HEAD "{\"tool\": \"mlpscope\", \"schema_version\": 1, "

TEST(hostile_values_refused_naming_key_and_file)
{
	static const struct {
		const char *json, *says;
	} cases[] = {
		{ HEAD "\"mlp\": {\"sweep\": [{\"lanes\": 1e300, \"ns_per_access\": 100}]}}", "mlp.sweep[0].lanes = 1e+300" },
		{ HEAD "\"mlp\": {\"sweep\": [{\"lanes\": 2.5, \"ns_per_access\": 100}]}}", "mlp.sweep[0].lanes = 2.5" },
		{ HEAD "\"mlp\": {\"sweep\": [{\"lanes\": 0, \"ns_per_access\": 100}]}}", "lanes = 0" },
		{ HEAD "\"machine\": {\"caches_reported\": [{\"level\": 1e10, \"size_bytes\": 32768}]}}",
		  "machine.caches_reported[0].level = 1e+10" },
		{ HEAD "\"machine\": {\"caches_reported\": [{\"level\": 0}]}}", "level = 0" },
		{ HEAD "\"latency\": {\"points\": [{\"size_bytes\": 1e18}]}}", "latency.points[0].size_bytes" },
		{ HEAD "\"latency\": {\"points\": [{\"size_bytes\": -4096}]}}", "size_bytes = -4096" },
		{ HEAD "\"latency\": {\"chase_ns_at_max\": 1e300}}", "latency.chase_ns_at_max" },
		{ HEAD "\"mlp\": {\"sweep\": [{\"lanes\": 1, \"ns_per_access\": -5}]}}", "ns_per_access = -5" },
		{ HEAD "\"bandwidth\": {\"kernels\": [{\"threads\": 1e9}]}}", "bandwidth.kernels[0].threads" },
		{ HEAD "\"mlp\": {\"estimate\": {\"repeats\": 3, \"repeat_saturation_lanes\": [4]}}}",
		  "repeat_saturation_lanes has 1 values but repeats is 3" },
		{ HEAD "\"latency\": {\"levels_detected\": [{},{},{},{},{},{},{},{},{}]}}",
		  "latency.levels_detected has 9 levels" },
	};
	char dir[64], path[128], err[512];

	test_scratch_make(dir, sizeof(dir), "hostile");
	CHECK(dir[0], "mkdtemp");
	snprintf(path, sizeof(path), "%s/hostile.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jsonr_doc doc;
		int rc;

		CHECK(test_write_text(path, cases[i].json) == 0, "write");
		err[0] = 0;
		rc = result_load(path, &doc, err, sizeof(err));
		if (!rc)
			jsonr_free(&doc);
		CHECK(rc < 0 && result_load_usage_error(rc), "case %zu accepted (rc %d): %s", i, rc, cases[i].json);
		CHECK(strstr(err, cases[i].says) && strstr(err, path) && !strchr(err, '\n'),
		      "case %zu: '%s' does not say '%s' and name the file", i, err, cases[i].says);
	}
	/* The checked-in real runs pass: the ranges fit what is measured. */
	static const char *const real[] = { "tests/data/report_a.json", "tests/data/report_b.json",
					    "tests/data/window.json", "tests/data/mlp_small_set.json" };

	for (size_t i = 0; i < sizeof(real) / sizeof(real[0]); i++) {
		struct jsonr_doc doc;

		CHECK(result_load(real[i], &doc, err, sizeof(err)) == 0, "%s refused: %s", real[i], err);
		jsonr_free(&doc);
	}
	test_scratch_remove(dir, "hostile");
}

static const char lanes_1e300[] = HEAD "\"mlp\": {\"sweep\": [{\"lanes\": 1, \"ns_per_access\": 100},"
	"{\"lanes\": 1e300, \"ns_per_access\": 10}], \"estimate\": {\"fit_latency_ns\": 100, "
	"\"fit_saturation_lanes\": 4}}}";

/* Child: draw both lanes plots of an unvetted document; 0 when every
 * series stays within the points a real sweep can give. */
static int draw_lanes(const void *text)
{
	struct jsonr_doc doc;
	struct svg_plot p;
	const char *label = "x";
	char err[256];
	int bad = 0;

	if (jsonr_parse(text, strlen(text), 0, &doc, err, sizeof(err)))
		return 3;
	for (int k = 0; k < 2; k++) {
		const struct jsonr_value *root = doc.root;
		const struct view_plot *v = plots_find(registry_views(), k ? "lanes_concurrency" : "lanes_time");

		if (!v)
			return 5;
		if (v->build(&p, &root, &label, 1))
			bad = 4;
		for (size_t i = 0; i < p.nseries; i++)
			bad |= p.series[i].n > 4 * LANES_MAX + 2 ? 2 : 0;
		svg_plot_free(&p);
	}
	jsonr_free(&doc);
	return bad;
}

TEST(hostile_lanes_plot_is_bounded_by_construction)
{
	int rc = in_child(draw_lanes, lanes_1e300, 10);

	CHECK(rc == 0, "drawing a sweep with lanes = 1e300: %s (status %d)",
	      rc == 128 + SIGALRM ? "hung" : rc == 2 ? "unbounded model series" : "failed", rc);
}

TEST(hostile_cache_level_is_never_cast_out_of_range)
{
	static const char text[] = HEAD "\"latency\": {\"points\": [{\"pages\": \"small\", \"size_bytes\": 4096, "
		"\"chase_ns\": 1, \"stream_ns\": 1}]}, \"machine\": {\"caches_reported\": ["
		"{\"level\": 1e10, \"type\": \"Data\", \"size_bytes\": 32768},"
		"{\"type\": \"Unified\", \"size_bytes\": 1048576},"
		"{\"level\": -1e10, \"type\": \"Unified\", \"size_bytes\": 2097152}]}}";
	struct jsonr_doc doc;
	struct svg_plot p;
	const char *label = "x";
	const struct jsonr_value *root;
	char err[256];
	int marks = 0, odd = 0;

	CHECK(jsonr_parse(text, sizeof(text) - 1, 0, &doc, err, sizeof(err)) == 0, "parse: %s", err);
	root = doc.root;
	CHECK(plots_find(registry_views(), "latency")->build(&p, &root, &label, 1) == 0, "latency plot");
	for (size_t i = 0; i < p.nmarks; i++) {
		marks++;
		/* (int)1e10 on x86-64 is INT_MIN: "L-2147483648d" */
		odd |= strstr(p.marks[i].label, "2147483648") != NULL || strstr(p.marks[i].label, "L-") != NULL;
	}
	svg_plot_free(&p);
	jsonr_free(&doc);
	CHECK(marks == 3, "%d cache marks, want 3", marks);
	CHECK(!odd, "a level outside 1..8 reached the label as an int");
}

static int load_fifo(const void *path)
{
	struct jsonr_doc doc;
	char err[512];
	int rc = result_load(path, &doc, err, sizeof(err));

	if (!rc)
		jsonr_free(&doc);
	return rc == -EINVAL && result_load_usage_error(rc) && strstr(err, path) && strstr(err, "FIFO") ? 0 : 1;
}

static int trace_fifo(const void *path)
{
	char err[512] = "";
	FILE *out = fopen("/dev/null", "w");
	int rc = trace_cmd_run(path, NULL, out, err, sizeof(err));

	fclose(out);
	return rc == 2 && strstr(err, path) && strstr(err, "FIFO") ? 0 : 1;
}

TEST(hostile_fifo_input_refused_without_blocking)
{
	char dir[64], fifo[128];
	int a, b;

	test_scratch_make(dir, sizeof(dir), "hostile");
	CHECK(dir[0], "mkdtemp");
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
	a = in_child(load_fifo, fifo, 5);
	b = in_child(trace_fifo, fifo, 5);
	test_scratch_remove(dir, "hostile");
	CHECK(a == 0, "a result that is a FIFO: %s", a == 128 + SIGALRM ? "blocked" : "not refused with its path");
	CHECK(b == 0, "a trace that is a FIFO: %s", b == 128 + SIGALRM ? "blocked" : "not refused with its path");
}

TEST(hostile_trace_directory_names_path_and_reason)
{
	char err[512] = "";
	FILE *out = fopen("/dev/null", "w");
	int rc = trace_cmd_run("tests", NULL, out, err, sizeof(err));

	fclose(out);
	CHECK(rc == 2, "rc %d, want 2 (a usage error, as for every reader)", rc);
	CHECK(strstr(err, "tests") && strstr(err, "Is a directory"), "'%s' names no path or reason", err);
}

TEST(hostile_schema_version_zero_or_negative_refused)
{
	static const char *const versions[] = { "0", "-1", "1.5" };
	char dir[64], path[128], text[128], err[512], *out = NULL;
	const char *paths[2] = { path, path };
	size_t len;

	test_scratch_make(dir, sizeof(dir), "hostile");
	CHECK(dir[0], "mkdtemp");
	snprintf(path, sizeof(path), "%s/v.json", dir);
	for (size_t i = 0; i < 3; i++) {
		FILE *f;
		int rc;

		snprintf(text, sizeof(text), "{\"tool\": \"mlpscope\", \"schema_version\": %s}", versions[i]);
		CHECK(test_write_text(path, text) == 0, "write");
		f = open_memstream(&out, &len);
		err[0] = 0;
		rc = compare_run(paths, 2, f, NULL, err, sizeof(err));
		fclose(f);
		free(out);
		out = NULL;
		CHECK(rc == 2 && strstr(err, "schema_version") && strstr(err, versions[i]) && strstr(err, path),
		      "schema_version %s: rc %d, '%s'", versions[i], rc, err);
	}
	test_scratch_remove(dir, "hostile");
}

TEST(hostile_output_never_replaces_a_non_regular_file)
{
	char dir[64], fifo[128], sub[128];
	struct atomic_file a;
	struct stat st;
	int rc_fifo, rc_dir, left;

	test_scratch_make(dir, sizeof(dir), "hostile");
	CHECK(dir[0], "mkdtemp");
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	CHECK(mkfifo(fifo, 0600) == 0 && mkdir(sub, 0700) == 0, "mkfifo, mkdir");
	rc_fifo = atomic_open(&a, fifo);
	if (!rc_fifo) {
		fputs("x", a.f);
		atomic_commit(&a);
	}
	rc_dir = atomic_open(&a, sub);
	if (!rc_dir)
		atomic_abort(&a);
	left = test_count_entries(dir);
	CHECK(lstat(fifo, &st) == 0, "the FIFO is gone");
	test_scratch_remove(dir, "hostile");
	CHECK(S_ISFIFO(st.st_mode), "the FIFO was replaced by a regular file");
	CHECK(rc_fifo == -EEXIST, "atomic_open on a FIFO: %d, want -EEXIST", rc_fifo);
	CHECK(rc_dir == -EISDIR, "atomic_open on a directory: %d, want -EISDIR before any work", rc_dir);
	CHECK(left == 2, "%d entries in the folder, want the FIFO and the directory only", left);
	CHECK(strstr(atomic_strerror(-EEXIST), "not a regular file"), "message");
}

/* The binary under test, with stdout on a pipe that is already full, so it
 * blocks printing the table while its --html temporary exists. */
TEST(hostile_sigterm_during_compare_html_leaves_nothing, NEEDS_BINARY)
{
	char dir[64], html[128], bin[4200], pa[4200], filler[4096], cmd[] = "compare", flag[] = "--html";
	/* Sixteen runs: a table over 4 KiB, so stdio writes (and blocks) while
	 * printing it, with the --html temporary open. */
	char *argv[] = { bin, cmd, pa, pa, pa, pa, pa, pa, pa, pa, pa, pa, pa, pa, pa, pa, pa, pa,
			 flag, html, NULL };
	posix_spawn_file_actions_t fa;
	struct timespec tick = { 0, 20000000 };
	int fds[2], st, left = -1;
	pid_t pid;

	test_scratch_make(dir, sizeof(dir), "hostile");
	CHECK(dir[0], "mkdtemp");
	snprintf(html, sizeof(html), "%s/out.html", dir);
	snprintf(bin, sizeof(bin), "%s/mlpscope", test_bin_dir());
	snprintf(pa, sizeof(pa), "tests/data/report_a.json");
	CHECK(pipe(fds) == 0, "pipe");
	CHECK(fcntl(fds[1], F_SETPIPE_SZ, 4096) >= 0, "F_SETPIPE_SZ");
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	memset(filler, 'x', sizeof(filler));
	while (write(fds[1], filler, sizeof(filler)) > 0)
		;
	fcntl(fds[1], F_SETFL, 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	CHECK(posix_spawn(&pid, bin, &fa, NULL, argv, environ) == 0, "spawn %s", bin);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	/* Wait (up to 10 s) until the temporary exists, then interrupt. */
	for (int i = 0; i < 500 && (left = test_count_entries(dir)) < 1; i++)
		nanosleep(&tick, NULL);
	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
	close(fds[0]);
	left = test_count_entries(dir);
	test_scratch_remove(dir, "hostile");
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d, want exit 130", st);
	CHECK(left == 0, "%d file(s) left after SIGTERM", left);
}

/* Found by fuzz_cli (tests/fuzz/regress/cli/newline-in-argument): an
 * error quotes the argument, and one holding a newline made the one-line
 * error several lines. */
TEST(hostile_cli_error_stays_one_line)
{
	char a0[] = "mlpscope", a1[] = "mlp", a2[] = "--\n\nsize", a3[] = "--size", a4[] = "1\n2\033[2J";
	char *one[] = { a0, a1, a2, NULL }, *two[] = { a0, a1, a3, a4, NULL };
	struct options o;
	char err[512];

	CHECK(cli_parse(3, one, &o, err, sizeof(err)) == 2, "accepted");
	CHECK(!strchr(err, '\n') && strstr(err, "size"), "'%s' is not one line naming the argument", err);
	CHECK(cli_parse(4, two, &o, err, sizeof(err)) == 2, "accepted");
	CHECK(!strchr(err, '\n') && !strchr(err, '\033'), "'%s' carries control characters", err);
}

/* Found by fuzz_load (tests/fuzz/regress/load/backslash-newline-escape.json):
 * the reader quoted the byte after a bad backslash as is, so a backslash
 * before a newline made the one-line error two lines. */
TEST(hostile_json_error_stays_one_line)
{
	static const char *const texts[] = { "[\"a\\\nb\"]", "[\"a\\\033\"]", "[\"a\\q\"]" };
	struct jsonr_doc doc;
	char err[256];

	for (size_t i = 0; i < 3; i++) {
		CHECK(jsonr_parse(texts[i], strlen(texts[i]), 0, &doc, err, sizeof(err)) == -EBADMSG, "accepted %zu", i);
		CHECK(strstr(err, "escape") && !strchr(err, '\n') && !strchr(err, '\033'), "case %zu: '%s'", i, err);
	}
}
