/*
 * A command run as a child for timing: pinned before exec, its standard
 * streams set, and, where its peak memory counts, forked by a fresh copy
 * of this program so that its ru_maxrss is its own.
 */
#ifndef MLPSCOPE_EXP_APP_CHILD_RUN_H
#define MLPSCOPE_EXP_APP_CHILD_RUN_H

#include <stddef.h>

/* What one run of a command gave. */
struct child_run {
	int status;                  /* its wait status */
	double wall_seconds;         /* from before its fork to after its wait4 */
	double user_seconds, sys_seconds, peak_rss_bytes;  /* its rusage */
	/* The anonymous memory of the process that forked it: a child's
	 * ru_maxrss starts there (exec records the old mm's high-water mark),
	 * so a peak within it says only "this or less". */
	double floor_bytes;
};

/* In a forked child: pinned to cpus, stdin and stderr /dev/null, stdout
 * out_fd (-1: /dev/null), then argv[0] run with argv. Never returns: 126
 * when it could not be pinned, 127 when it could not be run. */
void child_run_exec(const char *const *argv, const int *cpus, unsigned ncpus, int out_fd) __attribute__((noreturn));

/* argv run once as above, forked by a fresh exec of this program (a few
 * hundred KiB where this process may hold tens of MiB), which times it
 * and sends its rusage back; without /proc/self/exe, forked here (the
 * floor is then this process's). 0 with out filled (the command's own
 * status in out->status), or -1 with why. */
int child_run_measured(const char *const *argv, const int *cpus, unsigned ncpus, int out_fd, struct child_run *out,
		       char *why, size_t whylen);

#endif
