/*
 * worker_cpus.h on Linux: a thread attribute to start each worker on its
 * own CPU, pthread_setaffinity_np to let them go. Elsewhere no plan is
 * made and workers start unbound.
 */
#include "bzip2/worker_cpus.h"

#include <stdlib.h>

#if defined(__linux__)
#include <sched.h>

struct worker_cpus {
	cpu_set_t allowed;
	unsigned n;
	int *cpu;        /* worker i's CPU: the i-th allowed one */
	bool bound;
};

struct worker_cpus *worker_cpus_plan(const int *cpus, unsigned ncpus, unsigned workers)
{
	struct worker_cpus *wc;

	if (!cpus || workers < 2 || ncpus != workers)
		return NULL;
	wc = calloc(1, sizeof(*wc));
	if (!wc || !(wc->cpu = calloc(workers, sizeof(*wc->cpu)))) {
		free(wc);
		return NULL;
	}
	CPU_ZERO(&wc->allowed);
	for (unsigned i = 0; i < workers; i++) {
		if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE) {
			worker_cpus_free(wc);
			return NULL;
		}
		wc->cpu[i] = cpus[i];
		CPU_SET(cpus[i], &wc->allowed);
	}
	wc->n = workers;
	wc->bound = true;
	return wc;
}

int worker_cpus_start(const struct worker_cpus *wc, unsigned i, pthread_t *th, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t one;
	int rc;

	if (!wc || i >= wc->n || pthread_attr_init(&attr))
		return pthread_create(th, NULL, fn, arg);
	CPU_ZERO(&one);
	CPU_SET(wc->cpu[i], &one);
	rc = pthread_attr_setaffinity_np(&attr, sizeof(one), &one) ? -1 : pthread_create(th, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return rc ? pthread_create(th, NULL, fn, arg) : 0;
}

void worker_cpus_unbind(const struct worker_cpus *wc, pthread_t th)
{
	if (wc)
		pthread_setaffinity_np(th, sizeof(wc->allowed), &wc->allowed);
}

void worker_cpus_let_go(struct worker_cpus *wc)
{
	if (wc)
		wc->bound = false;
}

bool worker_cpus_bound(const struct worker_cpus *wc)
{
	return wc && wc->bound;
}

void worker_cpus_free(struct worker_cpus *wc)
{
	if (wc)
		free(wc->cpu);
	free(wc);
}

#else

struct worker_cpus *worker_cpus_plan(const int *cpus, unsigned ncpus, unsigned workers)
{
	(void)cpus, (void)ncpus, (void)workers;
	return NULL;
}

int worker_cpus_start(const struct worker_cpus *wc, unsigned i, pthread_t *th, void *(*fn)(void *), void *arg)
{
	(void)wc, (void)i;
	return pthread_create(th, NULL, fn, arg);
}

void worker_cpus_unbind(const struct worker_cpus *wc, pthread_t th)
{
	(void)wc, (void)th;
}

void worker_cpus_let_go(struct worker_cpus *wc)
{
	(void)wc;
}

bool worker_cpus_bound(const struct worker_cpus *wc)
{
	(void)wc;
	return false;
}

void worker_cpus_free(struct worker_cpus *wc)
{
	(void)wc;
}

#endif
