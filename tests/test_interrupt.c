/*
 * Ctrl-C stops a run cleanly: exit status 130, and neither the result file
 * nor its temporary is left behind (outputs are whole or absent).
 */
#include "harness.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Reads the child's stderr until its "planned" line; false at end of file. */
static bool wait_for_plan_line(int fd)
{
	char buf[4096];
	size_t used = 0;
	ssize_t n;

	while (used < sizeof(buf) - 1 && (n = read(fd, buf + used, sizeof(buf) - 1 - used)) > 0) {
		used += (size_t)n;
		buf[used] = 0;
		if (strstr(buf, "planned"))
			return true;
	}
	return false;
}

static void drain(int fd)
{
	char buf[4096];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

TEST(interrupt_exits_130_and_writes_nothing, NEEDS_BINARY | NEEDS_HOST)
{
	char dir[] = "/tmp/mlpscope-int-XXXXXX", json[256], bin[4200];
	struct timespec pause = {0, 500000000};
	pid_t pid;
	int st, left, err[2];
	bool saw_plan;

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(json, sizeof(json), "%s/out.json", dir);
	snprintf(bin, sizeof(bin), "%s/mlpscope", test_bin_dir());
	CHECK(pipe(err) == 0, "pipe");
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		/* Long enough that the signal lands mid-run: 128 MiB, 8 repeats. */
		close(err[0]);
		if (!freopen("/dev/null", "w", stdout) || dup2(err[1], STDERR_FILENO) < 0)
			_exit(127);
		/* A budget the planner cannot refuse under load: its rates, measured
		 * on a busy machine, once priced the run past 15 s and ran nothing. */
		execl(bin, bin, "mlp", "--size", "128M", "--repeat", "8", "--budget", "600", "--json", json,
		      (char *)NULL);
		_exit(127);
	}
	close(err[1]);
	/* The plan line is printed once the handlers are in place: a signal
	 * sent at a fixed delay could land before them on a loaded machine. */
	saw_plan = wait_for_plan_line(err[0]);
	nanosleep(&pause, NULL);
	kill(pid, SIGINT);
	drain(err[0]);  /* closing it early would kill the child's last line with SIGPIPE */
	close(err[0]);
	waitpid(pid, &st, 0);
	left = test_count_entries(dir);
	if (left == 0)
		rmdir(dir);
	CHECK(saw_plan, "no \"planned\" line on stderr before the interrupt");
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d (want exit 130)", st);
	CHECK(left == 0, "%d file(s) left in %s after the interrupt", left, dir);
}
