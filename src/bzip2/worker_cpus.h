/*
 * Which CPU each of a decode's workers starts bound to, and letting them
 * go. With as many workers as the CPUs the caller may run on, Linux
 * balances counts, not shares: with another program busy on one of two
 * CPUs it may keep both workers on the other, each at half of it, for
 * tens of milliseconds (the Zen 5 guest, a spinning neighbour on CPU 1:
 * both workers on CPU 0 for 70 of a decode's 133 ms), so two workers
 * got one CPU where one on each gets one and a half. Bound one to a CPU,
 * a worker loses only its own CPU's share to such work. A CPU that some
 * higher-priority work takes whole would hold its worker's block, which
 * every later block waits behind: the caller lets the workers go (each
 * free to run on any of the CPUs again) once the block whose turn it is
 * has kept it waiting too long.
 */
#ifndef MLPSCOPE_BZIP2_WORKER_CPUS_H
#define MLPSCOPE_BZIP2_WORKER_CPUS_H

#include <pthread.h>
#include <stdbool.h>

struct worker_cpus;

/* Worker i on cpus[i], where there are as many workers as CPUs (the
 * ones the caller may run on) and more than one: NULL otherwise, where
 * this system cannot bind a thread to a CPU, or memory ran out. */
struct worker_cpus *worker_cpus_plan(const int *cpus, unsigned ncpus, unsigned workers);
/* Worker i started on its CPU: pthread_create's result (a CPU that cannot
 * be had, say taken from the process meanwhile, starts it unbound). */
int worker_cpus_start(const struct worker_cpus *wc, unsigned i, pthread_t *th, void *(*fn)(void *), void *arg);
/* Thread th free to run on any of the planned CPUs again. th must still
 * be running: the id of a thread that has returned may be another's. */
void worker_cpus_unbind(const struct worker_cpus *wc, pthread_t th);
/* Marks the plan's threads let go (each running one unbound first). */
void worker_cpus_let_go(struct worker_cpus *wc);
/* Whether the workers are still bound (false for NULL). */
bool worker_cpus_bound(const struct worker_cpus *wc);
void worker_cpus_free(struct worker_cpus *wc);

#endif
