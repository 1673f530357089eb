/*
 * The whole holds: what a writer emits, every reader takes. Two shapes of
 * result: each section's own writer over a result that measured nothing
 * (the shape of a section the budget cut short: zero counts, no points),
 * and every real result recorded in the corpus (tests/data/cpus/), fed to
 * compare (a pair and a directory), model --from and plan --from as a user
 * would. A reader that refuses what the binary wrote fails here.
 */
#include "../harness.h"
#include "../spawn.h"
#include "bzip2_fixture.h"

#include "analyse/vet.h"
#include "frame/document.h"
#include "frame/registry.h"
#include "util/jsonr.h"
#include "util/jsonw.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Section name's writer over result, inside the document envelope the
 * loader expects; 0 and the text in *out (free it), or -1. */
static int write_section(const struct section *s, const void *result, char **out, size_t *len)
{
	struct jsonw w;
	FILE *f = open_memstream(out, len);

	if (!f)
		return -1;
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	jsonw_int(&w, "schema_version", REPORT_SCHEMA_VERSION);
	s->write_json(result, &w, s->name);
	jsonw_object_end(&w);
	jsonw_finish(&w);
	return fclose(f) ? -1 : 0;
}

/* The vetting verdict on text: 0, or the refusal in err. */
static int vet_text(const char *text, size_t len, const char *label, char *err, size_t errlen)
{
	struct jsonr_doc doc = {0};
	char jerr[256];
	int rc = jsonr_parse(text, len, 0, &doc, jerr, sizeof(jerr));

	if (rc) {
		snprintf(err, errlen, "%s: not JSON: %s", label, jerr);
		return rc;
	}
	rc = vet_result(doc.root, label, err, errlen);
	jsonr_free(&doc);
	return rc;
}

TEST(roundtrip_every_section_writer_over_an_empty_result_passes_the_readers)
{
	unsigned checked = 0;

	for (size_t i = 0; i < registry_count; i++) {
		const struct section *s = registry[i];
		char *text = NULL, err[400] = "";
		size_t len = 0;
		void *result;

		if (s->kind != SECTION_MEASURE || !s->write_json || !s->result_bytes)
			continue;
		result = calloc(1, s->result_bytes);
		CHECK(result, "calloc %zu", s->result_bytes);
		CHECK(write_section(s, result, &text, &len) == 0, "%s: writing failed", s->name);
		CHECK(vet_text(text, len, s->name, err, sizeof(err)) == 0, "a writer emits what its readers refuse: %s", err);
		free(text);
		free(result);
		checked++;
	}
	CHECK(checked >= 10, "only %u section writers found", checked);
	snprintf(tctx->message, sizeof(tctx->message), "%u section writers", checked);
}

/* The vetting must still refuse: the probe above is no test if it cannot. */
TEST(roundtrip_vetting_still_refuses_a_lane_count_of_zero)
{
	static const char doc[] = "{\"tool\":\"mlpscope\",\"schema_version\":1,\"mlp\":{\"sweep\":[{\"lanes\":0}]}}";
	static const char unit[] = "{\"tool\":\"mlpscope\",\"schema_version\":1,\"app\":{\"probe_seconds\":{\"lanes\":0}}}";
	char err[300] = "";

	CHECK(vet_text(doc, sizeof(doc) - 1, "planted", err, sizeof(err)) == -EDOM, "lanes 0 passed");
	CHECK(strstr(err, "mlp.sweep[0].lanes"), "%s", err);
	CHECK(vet_text(unit, sizeof(unit) - 1, "planted", err, sizeof(err)) == 0,
	      "seconds under a key named for its unit read as lanes: %s", err);
}

/* Whether path holds key (a dotted path) at the top of an mlpscope result. */
static bool has_key(const char *path, const char *key)
{
	struct jsonr_doc doc = {0};
	char err[256];
	bool yes;

	if (jsonr_parse_file(path, 0, &doc, err, sizeof(err)))
		return false;
	yes = jsonr_get(doc.root, key) != NULL;
	jsonr_free(&doc);
	return yes;
}

static bool is_result(const char *path)
{
	struct jsonr_doc doc = {0};
	char err[256];
	const char *tool;
	bool yes;

	if (jsonr_parse_file(path, 0, &doc, err, sizeof(err)))
		return false;
	tool = jsonr_get_string(doc.root, "tool");
	yes = tool && !strcmp(tool, "mlpscope");
	jsonr_free(&doc);
	return yes;
}

/* Run the binary with args; its status, the last line of its output in why. */
static int run_reader(const char *a1, const char *a2, const char *a3, char *why, size_t whylen)
{
	char bin[4096];
	char *argv[] = {bin, (char *)a1, (char *)a2, (char *)a3, NULL};
	struct test_run r;
	char *last;

	test_binary(bin, sizeof(bin));
	if (test_run(argv, true, &r))
		return -1;
	while (r.len && r.out[r.len - 1] == '\n')
		r.out[--r.len] = 0;
	last = strrchr(r.out, '\n');
	snprintf(why, whylen, "%s", last ? last + 1 : r.out);
	free(r.out);
	return r.status;
}

TEST(roundtrip_every_recorded_result_is_read_by_every_reader, NEEDS_BINARY)
{
	char pattern[4096], dir[] = "/tmp/mlpscope-roundtrip-XXXXXX", why[600];
	unsigned results = 0, model = 0, plan = 0;
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/../tests/data/cpus/*/*.json", test_bin_dir());
	if (glob(pattern, 0, NULL, &g))
		CHECK(glob("tests/data/cpus/*/*.json", 0, NULL, &g) == 0, "no recorded results under tests/data/cpus");
	CHECK(mkdtemp(dir), "mkdtemp");
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *f = g.gl_pathv[i];
		char link[4200], abs[4096];

		if (!is_result(f))
			continue;
		results++;
		CHECK(run_reader("compare", f, f, why, sizeof(why)) == 0, "compare refuses %s: %s", f, why);
		if (has_key(f, "mlp")) {
			model++;
			CHECK(run_reader("model", "--from", f, why, sizeof(why)) == 0, "model --from refuses %s: %s", f, why);
		}
		/* An older result has no plan.facts: its machine section stands in. */
		if (has_key(f, "plan.facts") || has_key(f, "machine")) {
			plan++;
			CHECK(run_reader("plan", "--from", f, why, sizeof(why)) == 0, "plan --from refuses %s: %s", f, why);
		}
		CHECK(realpath(f, abs), "realpath %s", f);
		snprintf(link, sizeof(link), "%s/%zu-%s", dir, i, strrchr(f, '/') + 1);
		CHECK(symlink(abs, link) == 0, "symlink %s", link);
	}
	CHECK(run_reader("compare", dir, NULL, why, sizeof(why)) == 0, "compare over the directory refuses: %s", why);
	CHECK(results >= 8 && model >= 4 && plan >= 6, "too few recorded results: %u (%u with mlp, %u with plan facts)",
	      results, model, plan);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char link[4200];

		snprintf(link, sizeof(link), "%s/%zu-%s", dir, i, strrchr(g.gl_pathv[i], '/') + 1);
		unlink(link);
	}
	rmdir(dir);
	globfree(&g);
	snprintf(tctx->message, sizeof(tctx->message), "%u results: compare each and all, model --from %u, plan --from %u",
		 results, model, plan);
}

/* The one real result the binary writes without measuring anything: `app
 * bzip2` over two empty streams (no block: checked against libbz2, nothing
 * timed). Written fresh by this build, it must pass the schema check and
 * every reader, as a user's would. */
TEST(roundtrip_app_bzip2_of_no_block_is_read_by_every_reader, NEEDS_BINARY | NEEDS_LIBBZ2 | NEEDS_PROGRAMS)
{
	char dir[] = "/tmp/mlpscope-empty-XXXXXX", in[64], out[64], html[64], cmd[4400], bin[4096], why[600];
	char script[4200];
	char *argv[8];
	struct test_run r;
	int st;

	if (system("command -v python3 >/dev/null 2>&1") != 0)
		SKIP("python3 is not installed: no real JSON parser to check the schema with");
	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(in, sizeof(in), "%s/e.bz2", dir);
	snprintf(out, sizeof(out), "%s/e.json", dir);
	snprintf(html, sizeof(html), "%s/e.html", dir);
	CHECK(bzip2_fixture_empty_streams(in, 2) == 0, "%s", in);
	test_binary(bin, sizeof(bin));
	argv[0] = bin, argv[1] = (char *)"app", argv[2] = (char *)"bzip2", argv[3] = in, argv[4] = (char *)"--json";
	argv[5] = out, argv[6] = NULL;
	CHECK(test_run(argv, true, &r) == 0, "could not run %s", bin);
	CHECK(r.status == 0 && strstr(r.out, "nothing to time"), "app bzip2 over empty streams: status %d:\n%.2000s",
	      r.status, r.out);
	free(r.out);
	/* Beside a build folder in the checkout, or (a nested one: the
	 * sanitizers' build/san) from the checkout's root, where tests run. */
	snprintf(script, sizeof(script), "%s/../tests/check_json.py", test_bin_dir());
	if (access(script, R_OK))
		snprintf(script, sizeof(script), "tests/check_json.py");
	snprintf(cmd, sizeof(cmd), "python3 %s %s app", script, out);
	st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the schema check refuses what the binary wrote (%s)", cmd);
	CHECK(run_reader("compare", out, out, why, sizeof(why)) == 0, "compare refuses it: %s", why);
	CHECK(run_reader("plan", "--from", out, why, sizeof(why)) == 0, "plan --from refuses it: %s", why);
	argv[1] = (char *)"compare", argv[2] = out, argv[3] = out, argv[4] = (char *)"--html", argv[5] = html;
	CHECK(test_run(argv, true, &r) == 0 && r.status == 0, "compare --html refuses it: %.500s", r.out);
	free(r.out);
	unlink(html);
	unlink(out);
	unlink(in);
	rmdir(dir);
}

/* A neighbour that streams memory on every allowed CPU but the first (the
 * one the measured commands pin to), as a user's busy machine does: its
 * pid, or -1 where there is no other CPU. */
static pid_t start_streamers(void)
{
	cpu_set_t all;
	pid_t pid;
	int first = -1, others = 0;

	if (sched_getaffinity(0, sizeof(all), &all))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all)) {
			if (first < 0)
				first = c;
			else
				others++;
		}
	if (!others)
		return -1;
	pid = fork();
	if (pid != 0)
		return pid;
	/* A 256 MiB buffer rewritten without end: past any last cache, so
	 * every pass takes memory bandwidth and the shared cache's lines. */
	setpgid(0, 0);
	CPU_CLR(first, &all);
	sched_setaffinity(0, sizeof(all), &all);
	for (unsigned i = 1; i < (unsigned)others; i++)
		if (fork() == 0)
			break;
	{
		size_t len = (size_t)256 << 20;
		volatile char *buf = malloc(len);

		for (unsigned char v = 0; buf; v++)
			memset((char *)buf, v, len);
	}
	_exit(0);
}

static void stop_streamers(pid_t pid)
{
	if (pid > 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* "nan" or "inf" as a word of its own (not "provenance", "info"): what
 * printf makes of a NaN or an infinity, in text or in JSON. */
static const char *non_finite_word(const char *text)
{
	static const char *const words[] = {"nan", "inf"};

	for (size_t w = 0; w < 2; w++)
		for (const char *at = strcasestr(text, words[w]); at; at = strcasestr(at + 1, words[w])) {
			char before = at == text ? ' ' : at[-1], after = at[3];

			if (!isalnum((unsigned char)before) && before != '_' && !isalnum((unsigned char)after) &&
			    after != '_')
				return at;
		}
	return NULL;
}

/* One real command: it exits 0, prints no NaN, writes no NaN, and every
 * reader takes its result. why: the first thing that failed, "" if none. */
static void run_and_read(const char *const args[], const char *json, char *why, size_t whylen)
{
	char bin[4096], *argv[16];
	struct test_run r;
	const char *bad;
	size_t n = 0;
	char *text;

	why[0] = 0;
	test_binary(bin, sizeof(bin));
	argv[n++] = bin;
	for (size_t i = 0; args[i] && n < 13; i++)
		argv[n++] = (char *)args[i];
	argv[n++] = (char *)"--json";
	argv[n++] = (char *)json;
	argv[n] = NULL;
	if (test_run(argv, true, &r) || r.status) {
		snprintf(why, whylen, "%s exited %d: %.300s", args[0], r.status, r.out ? r.out : "");
		free(r.out);
		return;
	}
	if ((bad = non_finite_word(r.out))) {
		snprintf(why, whylen, "%s printed a non-finite figure: ...%.120s", args[0], bad > r.out + 60 ? bad - 60 : r.out);
		free(r.out);
		return;
	}
	/* The section a user runs the tool for is never the one a busy
	 * machine's budget drops. */
	if (!strcmp(args[0], "--quick") && strstr(r.out, "cache latency    not run")) {
		snprintf(why, whylen, "--quick ran without the latency curve");
		free(r.out);
		return;
	}
	free(r.out);
	text = test_read_text(json);
	if (!text || (bad = non_finite_word(text))) {
		snprintf(why, whylen, "%s: its JSON is unreadable or holds a non-finite number: ...%.120s", args[0],
			 !text ? "" : bad > text + 60 ? bad - 60 : text);
		free(text);
		return;
	}
	free(text);
	if (run_reader("compare", json, json, why, whylen)) {
		snprintf(why + strlen(why), whylen - strlen(why), " (compare of %s)", args[0]);
		return;
	}
	if (has_key(json, "mlp") && run_reader("model", "--from", json, why, whylen))
		return;
	if (has_key(json, "plan.facts") && run_reader("plan", "--from", json, why, whylen))
		return;
	why[0] = 0;
}

/* The commands a user runs first, each quick, quiet and then with the
 * other CPUs streaming memory: what they write, every reader takes. */
VALIDATE(roundtrip_quick_commands_quiet_and_loaded_are_read_by_every_reader)
{
	static const char *const cmds[][6] = {
		{"--quick", NULL}, {"latency", "--quick", NULL}, {"mlp", "--quick", NULL},
		{"window", "--quick", NULL}, {"app", "hash", "--quick", NULL},
	};
	char dir[256], json[300], why[700];
	pid_t load;

	test_scratch_make(dir, sizeof(dir), "roundtrip");
	snprintf(json, sizeof(json), "%s/r.json", dir);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run_and_read(cmds[i], json, why, sizeof(why));
		CHECK(!why[0], "quiet: %s", why);
	}
	load = start_streamers();
	if (load < 0) {
		test_scratch_remove(dir, "roundtrip");
		SKIP("one allowed CPU: no other CPU to load");
	}
	run_and_read(cmds[0], json, why, sizeof(why));
	stop_streamers(load);
	test_scratch_remove(dir, "roundtrip");
	CHECK(!why[0], "with the other CPUs streaming memory: %s", why);
}
