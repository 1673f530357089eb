/*
 * Ctrl-C stops a run cleanly: exit status 130, and neither the result file
 * nor its temporary is left behind (outputs are whole or absent).
 */
#include "harness.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

TEST(interrupt_exits_130_and_writes_nothing, NEEDS_BINARY | NEEDS_HOST)
{
	char dir[] = "/tmp/mlpscope-int-XXXXXX", json[256], bin[4200];
	struct timespec pause = {1, 500000000};
	pid_t pid;
	int st, left;

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(json, sizeof(json), "%s/out.json", dir);
	snprintf(bin, sizeof(bin), "%s/mlpscope", test_bin_dir());
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		/* Long enough that 1.5 s lands mid-run: 512 MiB, 8 repeats. */
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execl(bin, bin, "mlp", "--size", "512M", "--repeat", "8", "--json", json, (char *)NULL);
		_exit(127);
	}
	nanosleep(&pause, NULL);
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	left = test_count_entries(dir);
	if (left == 0)
		rmdir(dir);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d (want exit 130)", st);
	CHECK(left == 0, "%d file(s) left in %s after the interrupt", left, dir);
}
