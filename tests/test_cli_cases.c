/*
 * Runs the mlpscope binary on every case in tests/cli_cases.txt and checks
 * the exit status, the message, that an error is exactly one line, and that
 * refusals come before measurement (well under the seconds a run takes).
 */
#include "harness.h"
#include "spawn.h"

#include "util/jsonr.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 16

static char *trim(char *s)
{
	char *e;

	while (*s == ' ')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\n'))
		*--e = 0;
	return s;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The cases name CPU counts (`--threads 1000` is more than the machine
 * has, `--cpu 1023` one it lacks): they hold for the default recorded host
 * (2 CPUs), which the binary reads whatever host the runner substitutes
 * (the runner sets MLPSCOPE_HOST again before the next test). */
TEST(cli_cases_exit_codes_and_messages, NEEDS_BINARY)
{
	char bin[4200], line[512], host[PATH_MAX];
	FILE *f;
	int cases = 0;

	CHECK(realpath(TEST_HOST_DEFAULT, host), "no %s", TEST_HOST_DEFAULT);
	setenv("MLPSCOPE_HOST", host, 1);
	test_binary(bin, sizeof(bin));
	f = fopen("tests/cli_cases.txt", "r");
	CHECK(f, "tests/cli_cases.txt not found (run from the repository root)");
	while (fgets(line, sizeof(line), f)) {
		char *exit_s, *want, *args, *argv[MAX_ARGS + 2], *save = NULL;
		struct test_run o;
		int argc = 0, expect;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		/* exit | fragment | args, where the fragment may itself hold '|' */
		exit_s = line;
		want = strchr(line, '|');
		args = strrchr(line, '|');
		if (!want || want == args) {
			fclose(f);
			CHECK(0, "malformed case line");
		}
		*want++ = 0;
		*args++ = 0;
		expect = atoi(trim(exit_s));
		want = trim(want);
		argv[argc++] = bin;
		for (char *tok = strtok_r(trim(args), " ", &save); tok && argc <= MAX_ARGS;
		     tok = strtok_r(NULL, " ", &save))
			argv[argc++] = tok;
		argv[argc] = NULL;
		if (test_run(argv, true, &o)) {
			free(o.out);
			fclose(f);
			CHECK(0, "cannot run %s", bin);
		}
		cases++;
		if (o.status != expect || !strstr(o.out, want) ||
		    (expect == 2 && count_lines(o.out) != 1) || (expect == 2 && o.seconds > 3.0)) {
			char shown[400];

			fclose(f);
			snprintf(shown, sizeof(shown), "%s", o.out);
			free(o.out);
			CHECK(0, "case '%s': exit %d (want %d) after %.1f s, output: %s", want, o.status, expect,
			      o.seconds, shown);
		}
		free(o.out);
	}
	fclose(f);
	CHECK(cases >= 20, "only %d cases read", cases);
	snprintf(tctx->message, sizeof(tctx->message), "%d cases", cases);
}

/* `--json -` is stdout, in place of the text: what comes out must be one
 * JSON document and nothing else, for every command that takes it. */
TEST(json_dash_prints_one_json_document_alone, NEEDS_BINARY)
{
	static const char *const cases[][6] = {
		{"trace", "tests/data/lackey_chase.trace", "--json", "-", NULL},
		{"trace", "tests/data/lackey_stream.trace", "--queue", "4", "--json", "-"},
		{"qmodel", "--json", "-", NULL},
		{"qmodel", "--chase-vs-stream", "--queue", "15", "--json", "-"},
		{"model", "--from", "tests/data/report_a.json", "--json", "-", NULL},
	};
	char bin[4200];

	test_binary(bin, sizeof(bin));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[8] = {bin}, err[256];
		struct test_run o;
		struct jsonr_doc doc;
		int rc;

		for (int k = 0; k < 6 && cases[i][k]; k++)
			argv[k + 1] = (char *)cases[i][k];
		CHECK(test_run(argv, false, &o) == 0, "cannot run %s", bin);
		rc = o.status == 0 ? jsonr_parse(o.out, o.len, 0, &doc, err, sizeof(err)) : -1;
		if (rc) {
			char shown[200];

			snprintf(shown, sizeof(shown), "%s", o.out);
			free(o.out);
			CHECK(0, "%s %s: exit %d, not one JSON document (%s): %s", cases[i][0], cases[i][1], o.status,
			      rc == -1 ? "no output" : err, shown);
		}
		free(o.out);
		CHECK(jsonr_get_string(doc.root, "tool") && jsonr_get(doc.root, cases[i][0]), "%s: no '%s' object",
		      cases[i][0], cases[i][0]);
		jsonr_free(&doc);
	}
}
