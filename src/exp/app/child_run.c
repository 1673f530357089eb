/*
 * child_run.h: a timed command's child. A child's ru_maxrss starts at what
 * it held when it called exec: a forked copy of its parent's anonymous
 * pages, which exec folds into the child's high-water mark (vfork too:
 * the old mm is the parent's). This program, holding a decoder's input
 * and figures, forks at 20 MiB or more, past a one-thread decoder's whole
 * peak. So a measured command is forked by a fresh exec of this program:
 * a constructor, run before main when TRAMPOLINE_ENV names the pipe it
 * reports on, forks and execs the command, waits for it and writes its
 * wall time, rusage and its own anonymous pages (the floor left) to the
 * pipe, all before this program's main or anything else of it runs.
 */
#include "exp/app/child_run.h"

#include "core/clock.h"
#include "core/host.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRAMPOLINE_ENV "MLPSCOPE_CHILD_RUN_FD"

extern char **environ;

/* One measured run; what the trampoline sends back: one write of a few
 * dozen bytes, within PIPE_BUF, so it arrives whole or not at all. */
struct run_record {
	uint64_t wall_ns;
	int64_t user_us, sys_us, maxrss_kib, floor_kib;
	int32_t status;
};

/* This process's anonymous resident KiB (RssAnon), 0 when unreadable. */
static int64_t anon_rss_kib(void)
{
	FILE *f = host_self_fopen("status");
	char line[128];
	int64_t kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "RssAnon:", 8))
			kib = strtoll(line + 8, NULL, 10);
	fclose(f);
	return kib;
}

/* argv run by a fork of this process and measured into r, the floor
 * included: pinned with its streams set first when cpus is given (the
 * trampoline's command inherits both). 0, or -1 with errno. */
static int fork_measured(const char *const *argv, const int *cpus, unsigned ncpus, int out_fd, struct run_record *r)
{
	struct rusage ru;
	int status = 0;
	uint64_t t0;
	pid_t pid;

	r->floor_kib = anon_rss_kib();
	t0 = clock_wall_ns();
	if ((pid = fork()) < 0)
		return -1;
	if (!pid) {
		if (cpus)
			child_run_exec(argv, cpus, ncpus, out_fd);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	r->wall_ns = clock_wall_ns() - t0;
	r->user_us = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
	r->sys_us = (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	r->maxrss_kib = ru.ru_maxrss;
	r->status = status;
	return 0;
}

static void record_take(const struct run_record *r, struct child_run *out)
{
	out->status = r->status;
	out->wall_seconds = (double)r->wall_ns * 1e-9;
	out->user_seconds = (double)r->user_us * 1e-6;
	out->sys_seconds = (double)r->sys_us * 1e-6;
	out->peak_rss_bytes = (double)r->maxrss_kib * 1024;
	out->floor_bytes = (double)r->floor_kib * 1024;
}

/* The fresh copy's whole work, before its main: argv[1..] run and
 * measured, the record written, exit. glibc passes constructors the
 * program's argc, argv and environment. */
static void __attribute__((constructor)) trampoline(int argc, char **argv, char **envp)
{
	const char *v = getenv(TRAMPOLINE_ENV);
	struct run_record r = {0};
	struct stat st;
	long fd;
	char *end;

	(void)envp;
	if (!v)
		return;
	fd = strtol(v, &end, 10);
	unsetenv(TRAMPOLINE_ENV);
	/* Only child_run_measured's pipe makes this a trampoline: a stray
	 * variable leaves the program to its main. */
	if (end == v || *end || fd < 3 || fd > INT_MAX || fstat((int)fd, &st) || !S_ISFIFO(st.st_mode))
		return;
	if (argc < 2 || fcntl((int)fd, F_SETFD, FD_CLOEXEC) ||
	    fork_measured((const char *const *)argv + 1, NULL, 0, -1, &r))
		_exit(127);
	_exit(write((int)fd, &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 127);
}

void child_run_exec(const char *const *argv, const int *cpus, unsigned ncpus, int out_fd)
{
	cpu_set_t set;
	int null;

	/* A parent started with a standard stream closed hands out 0-2:
	 * moved past them before they are set. */
	if (out_fd >= 0 && out_fd < 3)
		out_fd = fcntl(out_fd, F_DUPFD, 3);
	null = open("/dev/null", O_RDWR);
	CPU_ZERO(&set);
	for (unsigned i = 0; i < ncpus; i++)
		if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE)
			CPU_SET(cpus[i], &set);
	/* Pinned before exec: pinned after, a program would have started
	 * its threads on whatever CPU it woke on. */
	if (sched_setaffinity(0, sizeof(set), &set) || null < 0)
		_exit(126);
	dup2(null, 0);
	dup2(out_fd >= 0 ? out_fd : null, 1);
	dup2(null, 2);
	signal(SIGPIPE, SIG_DFL);
	execv(argv[0], (char *const *)argv);
	_exit(127);
}

/* The trampoline's argv (this program, then the command's) and
 * environment (this one's and the pipe's fd), in one allocation the
 * caller frees; NULL when memory ran out. */
static char **trampoline_args(const char *self, const char *const *argv, int fd, char ***envp)
{
	size_t nargv = 0, nenv = 0;
	char **a, *fdvar;

	while (argv[nargv])
		nargv++;
	while (environ[nenv])
		nenv++;
	if (!(a = malloc((nargv + nenv + 4) * sizeof(*a) + 48)))
		return NULL;
	fdvar = (char *)(a + nargv + nenv + 4);
	snprintf(fdvar, 48, "%s=%d", TRAMPOLINE_ENV, fd);
	a[0] = (char *)self;
	memcpy(a + 1, argv, nargv * sizeof(*a));
	a[nargv + 1] = NULL;
	*envp = a + nargv + 2;
	memcpy(*envp, environ, nenv * sizeof(*a));
	(*envp)[nenv] = fdvar;
	(*envp)[nenv + 1] = NULL;
	return a;
}

/* The run forked here, measured by this process's own wait4. */
static int run_here(const char *const *argv, const int *cpus, unsigned ncpus, int out_fd, struct child_run *out,
		    char *why, size_t whylen)
{
	struct run_record r;

	if (fork_measured(argv, cpus, ncpus, out_fd, &r)) {
		snprintf(why, whylen, "fork or wait4: %s", strerror(errno));
		return -1;
	}
	record_take(&r, out);
	return 0;
}

int child_run_measured(const char *const *argv, const int *cpus, unsigned ncpus, int out_fd, struct child_run *out,
		       char *why, size_t whylen)
{
	char exe[64], self[PATH_MAX], **targv = NULL, **tenv;
	struct run_record r;
	int pfd[2], status = 0, rc = -1;
	ssize_t n;
	pid_t pid;

	host_self_path("exe", exe, sizeof(exe));
	n = readlink(exe, self, sizeof(self) - 1);
	if (n <= 0 || (size_t)n >= sizeof(self) - 1 || pipe2(pfd, O_CLOEXEC))
		return run_here(argv, cpus, ncpus, out_fd, out, why, whylen);
	self[n] = 0;
	/* Past the standard streams the child sets (child_run_exec). */
	if (pfd[1] < 3) {
		int fd = fcntl(pfd[1], F_DUPFD_CLOEXEC, 3);

		close(pfd[1]);
		pfd[1] = fd;
	}
	if (pfd[1] < 0 || !(targv = trampoline_args(self, argv, pfd[1], &tenv))) {
		snprintf(why, whylen, "out of memory or file descriptors");
		goto out;
	}
	if ((pid = fork()) < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		goto out;
	}
	if (!pid) {
		/* The trampoline keeps the pipe across its exec, the command
		 * does not (the trampoline marks it again). */
		fcntl(pfd[1], F_SETFD, 0);
		environ = tenv;
		child_run_exec((const char *const *)targv, cpus, ncpus, out_fd);
	}
	close(pfd[1]);
	pfd[1] = -1;
	while (wait4(pid, &status, 0, NULL) < 0)
		if (errno != EINTR) {
			snprintf(why, whylen, "wait4: %s", strerror(errno));
			goto out;
		}
	while ((n = read(pfd[0], &r, sizeof(r))) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(r)) {
		/* No record. This program could not be run again (replaced or
		 * deleted since it started: its exec failed, 127): the command
		 * forked here instead. Else its status says why (killed, or
		 * not pinned). */
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
			rc = run_here(argv, cpus, ncpus, out_fd, out, why, whylen);
			goto out;
		}
		out->status = WIFEXITED(status) && !WEXITSTATUS(status) ? 127 << 8 : status;
		rc = 0;
		goto out;
	}
	record_take(&r, out);
	rc = 0;
out:
	free(targv);
	close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	return rc;
}
