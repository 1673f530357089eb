/*
 * Spawning the binary under test. The output is read to its end whatever
 * its size: a child whose pipe closed early dies of SIGPIPE (--help outgrew
 * a fixed buffer once).
 */
#include "spawn.h"
#include "harness.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int read_all(int fd, struct test_run *r)
{
	size_t cap = 4096;
	ssize_t n;

	r->len = 0;
	if (!(r->out = malloc(cap)))
		return -1;
	while ((n = read(fd, r->out + r->len, cap - 1 - r->len)) > 0) {
		r->len += (size_t)n;
		if (r->len + 1 == cap) {
			char *more = realloc(r->out, cap * 2);

			if (!more)
				return -1;
			r->out = more;
			cap *= 2;
		}
	}
	r->out[r->len] = 0;
	return 0;
}

int test_run(char *const argv[], bool with_stderr, struct test_run *r)
{
	int fds[2], st, rc;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	struct timespec a, b;

	memset(r, 0, sizeof(*r));
	if (pipe(fds))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	if (with_stderr)
		posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	clock_gettime(CLOCK_MONOTONIC, &a);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return -1;
	}
	rc = read_all(fds[0], r);
	close(fds[0]);
	waitpid(pid, &st, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return rc;
}

void test_binary(char *buf, size_t len)
{
	snprintf(buf, len, "%s/mlpscope", test_bin_dir());
}
