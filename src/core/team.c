/*
 * Teams of pinned threads. Each thread is created with its CPU already in
 * its attributes, so it never runs a single instruction elsewhere (a thread
 * that starts on the creator's CPU and migrates drags cold caches and TLBs
 * into its first timed region). The start gate is a spin on an atomic flag,
 * with sched_yield so a waiter sharing a CPU with the creating thread does
 * not starve it; a condition variable would wake threads one by one, tens of
 * microseconds apart. Topology-aware placement is deliberately not here.
 */
#include "core/team.h"

#include "core/host.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

int team_allowed_cpus(int *cpus, int max)
{
	/* The mask at start-up (main.c pins the main thread before the
	 * experiments run), through the host seam. */
	return host_allowed_cpus(cpus, max);
}

int team_resolve_threads(unsigned requested, unsigned *nthreads, char *err, size_t errlen)
{
	int cpus[1], allowed = team_allowed_cpus(cpus, 1);

	if (allowed < 0) {
		snprintf(err, errlen, "cannot read the CPU affinity mask: %s", strerror(-allowed));
		return allowed;
	}
	*nthreads = requested ? requested : (unsigned)allowed;
	if (!requested && *nthreads > TEAM_MAX_THREADS)
		*nthreads = TEAM_MAX_THREADS;
	if (*nthreads > TEAM_MAX_THREADS) {
		snprintf(err, errlen, "--threads: %u threads requested but mlpscope runs at most %d", *nthreads,
			 TEAM_MAX_THREADS);
		return -EINVAL;
	}
	if (*nthreads > (unsigned)allowed) {
		snprintf(err, errlen, "--threads: %u threads requested but %d CPU%s allowed (one pinned thread per CPU)",
			 *nthreads, allowed, allowed == 1 ? " is" : "s are");
		return -EINVAL;
	}
	return 0;
}

int team_resolve_timed(const char *who, const struct clock_info *clock, unsigned requested, unsigned *nthreads,
		       char *err, size_t errlen)
{
	if (!clock || !clock->ticks_per_ns) {
		snprintf(err, errlen, "%s: the clock is not initialised", who);
		return -EINVAL;
	}
	return team_resolve_threads(requested, nthreads, err, errlen);
}

unsigned team_thread_counts(unsigned n, unsigned *out, unsigned max)
{
	unsigned c = 0;

	for (unsigned t = 1; t < n && c + 1 < max; t *= 2)
		out[c++] = t;
	if (c < max && n > 0)
		out[c++] = n;
	return c;
}

int team_plan(struct team_placement *pl, unsigned nthreads, char *err, size_t errlen)
{
	int cpus[TEAM_MAX_THREADS], n = team_allowed_cpus(cpus, TEAM_MAX_THREADS);
	char dummy[1];

	if (!err) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	memset(pl, 0, sizeof(*pl));
	if (n < 0) {
		snprintf(err, errlen, "cannot read the CPU affinity mask: %s", strerror(-n));
		return n;
	}
	if (n > TEAM_MAX_THREADS)
		n = TEAM_MAX_THREADS;
	if (nthreads == 0 || nthreads > (unsigned)n) {
		snprintf(err, errlen, "%u threads requested but %d CPU%s allowed (one pinned thread per CPU)",
			 nthreads, n, n == 1 ? " is" : "s are");
		return -EINVAL;
	}
	pl->nthreads = nthreads;
	for (unsigned i = 0; i < nthreads; i++) {
		pl->cpu[i] = cpus[i];
		pl->observed_cpu[i] = -1;
	}
	return 0;
}

struct gate {
	unsigned nthreads;
	unsigned ready;             /* atomic: threads pinned and waiting */
	int go;                     /* atomic: 1 run, -1 abort */
};

struct member {
	struct gate *gate;
	team_fn fn;
	void *ctx;
	void *slot;
	unsigned index;
	int cpu;
	int observed_cpu;
	int rc;
	unsigned calls;
};

static void *member_main(void *arg)
{
	struct member *m = arg;
	struct gate *g = m->gate;
	int go;

	m->observed_cpu = sched_getcpu();
	/* The last thread to arrive opens the gate: nobody starts while a team
	 * mate is still being created. */
	if (__atomic_add_fetch(&g->ready, 1, __ATOMIC_ACQ_REL) == g->nthreads)
		__atomic_store_n(&g->go, 1, __ATOMIC_RELEASE);
	while (!(go = __atomic_load_n(&g->go, __ATOMIC_ACQUIRE)))
		sched_yield();
	if (go < 0)
		return NULL;
	m->calls++;
	m->rc = m->fn(m->ctx, m->index, m->cpu, m->slot);
	return NULL;
}

int team_run(struct team_placement *pl, team_fn fn, void *ctx, void *slots, size_t slot_bytes)
{
	static struct member members[TEAM_MAX_THREADS];
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_t tids[TEAM_MAX_THREADS];
	struct gate gate = {.nthreads = pl->nthreads};
	pthread_attr_t attr;
	unsigned started = 0;
	int rc = 0;

	if (pl->nthreads == 0 || pl->nthreads > TEAM_MAX_THREADS)
		return -EINVAL;
	/* members[] is static (256 of them would be a large stack frame); one
	 * team at a time owns it. */
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < pl->nthreads; i++) {
		cpu_set_t set;

		members[i] = (struct member){
			.gate = &gate, .fn = fn, .ctx = ctx, .index = i, .cpu = pl->cpu[i], .observed_cpu = -1,
			.slot = slots ? (char *)slots + (size_t)i * slot_bytes : NULL,
		};
		CPU_ZERO(&set);
		CPU_SET(pl->cpu[i], &set);
		if ((rc = -pthread_attr_init(&attr)))
			break;
		rc = -pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (!rc)
			rc = -pthread_create(&tids[i], &attr, member_main, &members[i]);
		pthread_attr_destroy(&attr);
		if (rc)
			break;
		started++;
	}
	if (rc)
		__atomic_store_n(&gate.go, -1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	for (unsigned i = 0; i < started; i++) {
		pl->observed_cpu[i] = members[i].observed_cpu;
		if (!rc && members[i].rc)
			rc = members[i].rc;
		if (!rc && members[i].calls != 1)
			rc = -EPROTO;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

void team_format_placement(const struct team_placement *pl, char *out, size_t len)
{
	size_t used = 0;

	if (len)
		out[0] = 0;
	for (unsigned i = 0; i < pl->nthreads && used + 12 < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%d", i ? "," : "", pl->cpu[i]);
}
