/*
 * Runs the mlpscope binary on every case in tests/cli_cases.txt and checks
 * the exit status, the message, that an error is exactly one line, and that
 * refusals come before measurement (well under the seconds a run takes).
 */
#include "harness.h"

#include <spawn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_ARGS 16

struct outcome {
	int status;
	char output[4096];
	double seconds;
};

/* Run bin with args; capture stdout+stderr together. */
static int run_binary(char *const argv[], struct outcome *out)
{
	int fds[2], st;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	size_t used = 0;
	ssize_t n;
	struct timespec a, b;

	if (pipe(fds))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	while ((n = read(fds[0], out->output + used, sizeof(out->output) - 1 - used)) > 0)
		used += (size_t)n;
	out->output[used] = 0;
	/* Keep only the first 4 KiB, but read the rest: a child whose pipe
	 * closed early dies of SIGPIPE (--help outgrew the buffer once). */
	for (char sink[4096]; read(fds[0], sink, sizeof(sink)) > 0;)
		;
	close(fds[0]);
	waitpid(pid, &st, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	out->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	out->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

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
	snprintf(bin, sizeof(bin), "%s/mlpscope", test_bin_dir());
	f = fopen("tests/cli_cases.txt", "r");
	CHECK(f, "tests/cli_cases.txt not found (run from the repository root)");
	while (fgets(line, sizeof(line), f)) {
		char *exit_s, *want, *args, *argv[MAX_ARGS + 2], *save = NULL;
		struct outcome o;
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
		if (run_binary(argv, &o)) {
			fclose(f);
			CHECK(0, "cannot run %s", bin);
		}
		cases++;
		if (o.status != expect || !strstr(o.output, want) ||
		    (expect == 2 && count_lines(o.output) != 1) || (expect == 2 && o.seconds > 3.0)) {
			fclose(f);
			CHECK(0, "case '%s': exit %d (want %d) after %.1f s, output: %s", want, o.status, expect,
			      o.seconds, o.output);
		}
	}
	fclose(f);
	CHECK(cases >= 20, "only %d cases read", cases);
	snprintf(tctx->message, sizeof(tctx->message), "%d cases", cases);
}
