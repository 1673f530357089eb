/*
 * A team: one function run on T pthreads at once, thread i pinned to the
 * i-th CPU of the affinity mask the process was started with, all released
 * together by a barrier once every thread is on its CPU. It does not choose
 * CPUs by topology (SMT siblings, sockets): it takes the mask's order, as
 * taskset or a cgroup gave it, and records the placement for provenance.
 * Relies on Linux CPU affinity (pthread_attr_setaffinity_np, sched_getcpu).
 */
#ifndef MLPSCOPE_CORE_TEAM_H
#define MLPSCOPE_CORE_TEAM_H

#include <stddef.h>

#include "core/clock.h"

#define TEAM_MAX_THREADS 256

struct team_placement {
	unsigned nthreads;
	int cpu[TEAM_MAX_THREADS];          /* thread i is pinned to cpu[i] */
	int observed_cpu[TEAM_MAX_THREADS]; /* sched_getcpu() after pinning, -1 before a run */
};

/*
 * The work of thread `index` (0-based) pinned to `cpu`. `slot` is that
 * thread's own slot_bytes of result memory: only this thread writes it, and
 * team_run checks that every thread ran the function exactly once. Returns
 * 0 or -errno; the first non-zero return of any thread is team_run's.
 */
typedef int (*team_fn)(void *ctx, unsigned index, int cpu, void *slot);

/* CPUs in the affinity mask the process had at start-up (captured before
 * main, so a later pin of the main thread does not shrink it), ascending.
 * Writes at most max, returns how many are allowed (may exceed max). */
int team_allowed_cpus(int *cpus, int max);

/* Resolve a --threads request: 0 means every allowed CPU (at most
 * TEAM_MAX_THREADS); more than are allowed is -EINVAL with err naming
 * --threads; an unreadable affinity mask is its -errno. */
int team_resolve_threads(unsigned requested, unsigned *nthreads, char *err, size_t errlen);

/* What every experiment that runs a team checks first: a calibrated clock to
 * time with (else -EINVAL, "WHO: the clock is not initialised"), then the
 * --threads request, resolved as team_resolve_threads does. */
int team_resolve_timed(const char *who, const struct clock_info *clock, unsigned requested, unsigned *nthreads,
		       char *err, size_t errlen);

/* The thread counts a team sweep visits: 1, 2, 4 ... below n, then n
 * (doubling, so a saturation knee is bracketed within a factor of two).
 * Returns how many it wrote (at most max). */
unsigned team_thread_counts(unsigned n, unsigned *out, unsigned max);

/* Place nthreads threads one per allowed CPU, in mask order. Returns 0;
 * -EINVAL when nthreads is 0, above TEAM_MAX_THREADS, or more than the
 * allowed CPUs (the message names both numbers); -errno when the mask
 * cannot be read. err may be NULL. */
int team_plan(struct team_placement *pl, unsigned nthreads, char *err, size_t errlen);

/* Run fn on pl->nthreads threads as placed, released together by a barrier
 * after each has pinned itself. slots is nthreads * slot_bytes bytes (may be
 * NULL with slot_bytes 0). Fills pl->observed_cpu. Returns 0, the first
 * thread error, -EPROTO when a thread did not run fn exactly once, or
 * -errno from thread creation (threads already started are joined). */
int team_run(struct team_placement *pl, team_fn fn, void *ctx, void *slots, size_t slot_bytes);

/* "0,1,2": placement as a CPU list, thread order; for text reports. */
void team_format_placement(const struct team_placement *pl, char *out, size_t len);

#endif
