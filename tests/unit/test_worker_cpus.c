/*
 * A decode's workers bound one to a CPU (src/bzip2/worker_cpus.h and
 * bunzip2.h's bind_cpus): only where there are as many workers as CPUs
 * given; each worker then runs on its own CPU and nowhere else until it
 * is let go, after which it may run on all of them; a decode whose
 * coordinator waits past bunzip2_bound_wait_ms lets its workers go, and
 * its bytes stay libbz2's either way.
 */
#include "../harness.h"
#include "bzip2_fixture.h"
#include "../grow_buf.h"

#include "bzip2/bunzip2.h"
#include "bzip2/bz2.h"
#include "bzip2/worker_cpus.h"
#include "core/host.h"
#include "exp/app/textgen.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct sink {
	uint8_t *p;
	size_t n, cap;
};

static int sink_write(void *ctx, const uint8_t *buf, size_t len)
{
	struct sink *s = ctx;

	return grow_buf_append(&s->p, &s->n, &s->cap, buf, len);
}

/* Three blocks of text at level 1, and the text. */
static uint8_t *three_blocks(uint8_t **text, size_t *n, size_t *len)
{
	*n = 250000;
	*text = malloc(*n);
	if (!*text)
		return NULL;
	textgen_fill(*text, *n, TEXTGEN_MARKOV, 17);
	return bzip2_fixture_compress(*text, *n, 1, len);
}

/* No worker is bound unless each has a CPU of the list and the list has
 * no other: a longer or shorter list, none, one worker, a CPU number no
 * machine has. Nothing here binds a thread: a plan that is not made
 * touches no CPU. */
TEST(bunzip2_binds_workers_only_one_to_each_cpu_given, NEEDS_LIBBZ2)
{
	static const int three[] = {0, 1, 2}, bad[] = {0, -1}, far[] = {0, 1 << 20};
	static const struct {
		const char *what;
		const int *cpus;
		unsigned ncpus, threads;
	} cases[] = {
		{"three CPUs for two workers", three, 3, 2}, {"two CPUs for three workers", three, 2, 3},
		{"no list", NULL, 0, 2},                     {"one worker", three, 1, 1},
		{"a negative CPU", bad, 2, 2},               {"a CPU past any set", far, 2, 2},
	};
	size_t n = 0, len = 0;
	uint8_t *text = NULL, *z = three_blocks(&text, &n, &len);

	CHECK(z, "libbz2 or memory");
	for (size_t i = 0; z && i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bunzip2_opts o = {.threads = cases[i].threads, .bind_cpus = cases[i].cpus,
					 .nbind_cpus = cases[i].ncpus};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc = bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);

		CHECK(!rc && s.n == n && !memcmp(s.p, text, n), "%s: rc %d, %zu of %zu bytes: %s", cases[i].what, rc,
		      s.n, n, e.what);
		CHECK(!sum.workers_bound && !sum.workers_let_go, "%s: bound %d, let go %d", cases[i].what,
		      sum.workers_bound, sum.workers_let_go);
		free(s.p);
	}
	CHECK(!worker_cpus_plan(three, 2, 3) && !worker_cpus_plan(three, 1, 1) && !worker_cpus_plan(NULL, 2, 2),
	      "a plan made without one CPU for each of several workers");
	free(z);
	free(text);
}

/* This machine's first two CPUs of those the process may run on; SKIPs
 * where it has fewer. */
static int two_cpus(struct test_ctx *tctx, int cpus[2])
{
	int all[HOST_CPUS_MAX];
	int n = host_self_cpu_list(all, HOST_CPUS_MAX);

	if (n < 2) {
		test_skip(tctx, "the process may run on %d CPU(s) here; binding needs two", n);
		return -1;
	}
	cpus[0] = all[0];
	cpus[1] = all[1];
	return 0;
}

struct probe {
	pthread_barrier_t *bound, *released;
	int cpus_bound, cpus_released;   /* CPUs in the thread's mask at each point */
	int only;                        /* the CPU when the mask held one, else -1 */
};

static int mask_cpus(int *only)
{
	cpu_set_t set;
	int n = 0;

	*only = -1;
	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			*only = n ? -1 : c;
			n++;
		}
	return n;
}

static void *probe_main(void *arg)
{
	struct probe *p = arg;
	int ignored;

	p->cpus_bound = mask_cpus(&p->only);
	pthread_barrier_wait(p->bound);
	pthread_barrier_wait(p->released);
	p->cpus_released = mask_cpus(&ignored);
	return NULL;
}

/* Each worker starts with its CPU and no other, and after the release may
 * run on both; the release happens once. */
TEST(worker_cpus_start_each_worker_on_its_cpu_and_let_go, NEEDS_HOST)
{
	pthread_barrier_t bound, released;
	struct probe probes[2] = {{&bound, &released, 0, 0, -1}, {&bound, &released, 0, 0, -1}};
	pthread_t th[2];
	int cpus[2];
	struct worker_cpus *wc;
	unsigned started = 0;

	if (two_cpus(tctx, cpus))
		return;
	wc = worker_cpus_plan(cpus, 2, 2);
	CHECK(wc && worker_cpus_bound(wc), "no plan for two workers on CPUs %d and %d", cpus[0], cpus[1]);
	if (!wc)
		return;
	pthread_barrier_init(&bound, NULL, 3);
	pthread_barrier_init(&released, NULL, 3);
	for (unsigned i = 0; i < 2; i++)
		if (!worker_cpus_start(wc, i, &th[i], probe_main, &probes[i]))
			started++;
	CHECK(started == 2, "%u of 2 threads started", started);
	if (started == 2) {
		pthread_barrier_wait(&bound);
		for (unsigned i = 0; i < 2; i++)
			worker_cpus_unbind(wc, th[i]);
		worker_cpus_let_go(wc);
		CHECK(!worker_cpus_bound(wc), "still bound after the release");
		pthread_barrier_wait(&released);
		for (unsigned i = 0; i < 2; i++) {
			pthread_join(th[i], NULL);
			CHECK(probes[i].cpus_bound == 1 && probes[i].only == cpus[i] && probes[i].cpus_released == 2,
			      "worker %u: %d CPU(s) at start (CPU %d, want %d), %d after the release (want 2)", i,
			      probes[i].cpus_bound, probes[i].only, cpus[i], probes[i].cpus_released);
		}
	}
	worker_cpus_free(wc);
	pthread_barrier_destroy(&bound);
	pthread_barrier_destroy(&released);
}

/* A decode given two CPUs for two workers binds them; with no patience
 * at all its coordinator lets them go at its first wait (it waits at least
 * for the first block, which it hands out and does not decode), and the
 * bytes are libbz2's both ways. */
TEST(bunzip2_binds_its_workers_and_lets_them_go_when_kept_waiting, NEEDS_HOST | NEEDS_LIBBZ2)
{
	size_t n = 0, len = 0;
	uint8_t *text = NULL, *z = NULL;
	unsigned saved = bunzip2_bound_wait_ms;
	int cpus[2];

	if (two_cpus(tctx, cpus))
		return;
	z = three_blocks(&text, &n, &len);
	CHECK(z, "libbz2 or memory");
	for (unsigned patience = 0; z && patience < 2; patience++) {
		struct bunzip2_opts o = {.threads = 2, .bind_cpus = cpus, .nbind_cpus = 2};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc;

		bunzip2_bound_wait_ms = patience ? 60000 : 0;
		rc = bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);
		CHECK(!rc && s.n == n && !memcmp(s.p, text, n), "wait %u ms: rc %d, %zu of %zu bytes: %s",
		      bunzip2_bound_wait_ms, rc, s.n, n, e.what);
		CHECK(sum.threads == 2 && sum.workers_bound && sum.workers_let_go == !patience,
		      "wait %u ms: %u workers, bound %d, let go %d", bunzip2_bound_wait_ms, sum.threads, sum.workers_bound,
		      sum.workers_let_go);
		free(s.p);
	}
	bunzip2_bound_wait_ms = saved;
	free(z);
	free(text);
}
