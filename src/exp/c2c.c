/*
 * Core-to-core ping-pong. The initiator (thread 0, on the row's CPU) maps a
 * page, touches it first and publishes the line; the responder (thread 1,
 * on the column's CPU) waits for an odd value and answers with the next
 * even one; the initiator waits for that and times round_trips of them.
 * Each store must fetch the line in the exclusive state from the other
 * core, so a round trip is two cache-to-cache transfers of one line (plus
 * the stores' own cost, a few cycles). Every spin gives up after
 * C2C_SPIN_TIMEOUT_NS so a descheduled partner (on a shared machine) costs
 * a pair, never the run.
 */
#include "exp/c2c.h"

#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define C2C_STOP UINT64_MAX
#define C2C_SPIN_TIMEOUT_NS 200000000ull  /* 0.2 s: far beyond any transfer */
#define C2C_WARMUP_ROUND_TRIPS 256
/* Creating, pinning and joining two threads, beyond the pair's budget. */
#define C2C_PAIR_OVERHEAD_MS 0.3

struct pair {
	const struct clock_info *clock;
	_Atomic(_Atomic uint64_t *) line;
	void *page;
	unsigned round_trips;
	uint64_t budget_ns;
	double sample_ns[C2C_MAX_SAMPLES];
	unsigned nsamples;
	volatile sig_atomic_t *stop;
};

/* Spin until *line holds a value that want() accepts; false on timeout. */
static bool wait_for(_Atomic uint64_t *line, uint64_t *v, bool odd)
{
	uint64_t start = 0;

	for (unsigned spins = 0;; spins++) {
		*v = atomic_load_explicit(line, memory_order_acquire);
		if (*v == C2C_STOP || ((*v & 1) != 0) == odd)
			return true;
		if ((spins & 4095) == 4095) {
			uint64_t now = clock_wall_ns();

			if (!start)
				start = now;
			else if (now - start > C2C_SPIN_TIMEOUT_NS)
				return false;
		}
	}
}

static int responder(struct pair *p)
{
	_Atomic uint64_t *line;
	uint64_t v, start = clock_wall_ns();

	while (!(line = atomic_load_explicit(&p->line, memory_order_acquire)))
		if (clock_wall_ns() - start > C2C_SPIN_TIMEOUT_NS)
			return -ETIMEDOUT;
	for (;;) {
		if (!wait_for(line, &v, true))
			return -ETIMEDOUT;
		if (v == C2C_STOP)
			return 0;
		atomic_store_explicit(line, v + 1, memory_order_release);
	}
}

/* n round trips from value *seq; false when the partner stopped answering. */
static bool bounce(_Atomic uint64_t *line, uint64_t *seq, unsigned n)
{
	uint64_t v;

	for (unsigned i = 0; i < n; i++) {
		atomic_store_explicit(line, *seq + 1, memory_order_release);
		if (!wait_for(line, &v, false))
			return false;
		*seq += 2;
	}
	return true;
}

static int initiator(struct pair *p)
{
	_Atomic uint64_t *line;
	uint64_t seq = 0, start;
	int rc = 0;

	/* First touch here, on the row's CPU: the page's memory is this node's. */
	p->page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->page == MAP_FAILED) {
		p->page = NULL;
		atomic_store_explicit(&p->line, NULL, memory_order_release);
		return -errno;
	}
	line = (_Atomic uint64_t *)p->page;
	atomic_store_explicit(line, 0, memory_order_relaxed);
	atomic_store_explicit(&p->line, line, memory_order_release);
	if (!bounce(line, &seq, C2C_WARMUP_ROUND_TRIPS)) {
		rc = -ETIMEDOUT;
		goto out;
	}
	start = clock_wall_ns();
	while (p->nsamples < C2C_MAX_SAMPLES && !*p->stop) {
		uint64_t t0 = clock_now(), t1;

		if (!bounce(line, &seq, p->round_trips)) {
			rc = -ETIMEDOUT;
			break;
		}
		t1 = clock_now();
		p->sample_ns[p->nsamples++] = clock_ticks_to_ns(p->clock, t1 - t0) / p->round_trips / 2.0;
		if (clock_wall_ns() - start >= p->budget_ns)
			break;
	}
out:
	atomic_store_explicit(line, C2C_STOP, memory_order_release);
	return rc;
}

static int member(void *ctx, unsigned index, int cpu, void *slot)
{
	(void)cpu;
	(void)slot;
	return index == 0 ? initiator(ctx) : responder(ctx);
}

void c2c_params_default(struct c2c_params *p, const struct clock_info *clock, int quick)
{
	memset(p, 0, sizeof(*p));
	p->clock = clock;
	p->total_budget_s = quick ? 1.0 : 4.0;
	p->pair_min_ms = 0.5;
	p->pair_max_ms = quick ? 10.0 : 25.0;
	p->round_trips = 200;
}

double c2c_estimate_s(const struct c2c_params *p, unsigned ncpus, double *pair_budget_ms)
{
	double pairs = (double)ncpus * (ncpus > 0 ? ncpus - 1 : 0), ms;

	ms = pairs ? 1000.0 * p->total_budget_s / pairs : p->pair_max_ms;
	ms = fmin(fmax(ms, p->pair_min_ms), p->pair_max_ms);
	if (pair_budget_ms)
		*pair_budget_ms = ms;
	return pairs * (ms + C2C_PAIR_OVERHEAD_MS) / 1000.0;
}

void c2c_result_free(struct c2c_result *r)
{
	free(r->min_ns);
	free(r->median_ns);
	free(r->samples);
	r->min_ns = r->median_ns = NULL;
	r->samples = NULL;
}

int c2c_run(const struct c2c_params *p, struct c2c_result *r, char *err, size_t errlen)
{
	int n = team_allowed_cpus(r->cpu, C2C_MAX_CPUS);
	double *medians = NULL, t0;
	size_t nmed = 0, done = 0;
	int rc = 0;

	if (n < 0)
		return n;
	if (n > C2C_MAX_CPUS)
		n = C2C_MAX_CPUS;
	if (p->max_cpus && (unsigned)n > p->max_cpus)
		n = (int)p->max_cpus;
	if (n < 2) {
		snprintf(err, errlen, "needs 2 CPUs, one on each end of the line, but %d %s allowed", n,
			 n == 1 ? "is" : "are");
		return -EINVAL;
	}
	r->ncpus = (unsigned)n;
	r->pairs = (size_t)n * (size_t)(n - 1);
	r->round_trips = p->round_trips;
	r->estimated_s = c2c_estimate_s(p, r->ncpus, &r->pair_budget_ms);
	r->min_ns = malloc((size_t)n * n * sizeof(double));
	r->median_ns = malloc((size_t)n * n * sizeof(double));
	r->samples = calloc((size_t)n * n, sizeof(unsigned));
	medians = malloc(r->pairs * sizeof(double));
	if (!r->min_ns || !r->median_ns || !r->samples || !medians) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < (size_t)n * n; i++)
		r->min_ns[i] = r->median_ns[i] = NAN;
	r->min_ns_all = NAN;
	t0 = (double)clock_wall_ns();
	for (int a = 0; a < n && !rc; a++) {
		for (int b = 0; b < n && !rc; b++) {
			struct team_placement pl;
			struct pair *pr;
			int prc;

			if (a == b)
				continue;
			if (*p->stop) {
				rc = -EINTR;
				break;
			}
			if (!(pr = calloc(1, sizeof(*pr)))) {
				rc = -ENOMEM;
				break;
			}
			pr->clock = p->clock;
			pr->round_trips = p->round_trips;
			pr->budget_ns = (uint64_t)(r->pair_budget_ms * 1e6);
			pr->stop = p->stop;
			memset(&pl, 0, sizeof(pl));
			pl.nthreads = 2;
			pl.cpu[0] = r->cpu[a];
			pl.cpu[1] = r->cpu[b];
			prc = team_run(&pl, member, pr, NULL, 0);
			if (pr->page)
				munmap(pr->page, 4096);
			if (prc == -ETIMEDOUT || (!prc && !pr->nsamples)) {
				r->pairs_timed_out++;
			} else if (prc) {
				rc = prc;
			} else {
				size_t k = (size_t)a * n + b;

				r->min_ns[k] = stats_min(pr->sample_ns, pr->nsamples);
				r->median_ns[k] = stats_median(pr->sample_ns, pr->nsamples);
				r->samples[k] = pr->nsamples;
				medians[nmed++] = r->median_ns[k];
				r->min_ns_all = isnan(r->min_ns_all) ? r->min_ns[k] : fmin(r->min_ns_all, r->min_ns[k]);
			}
			free(pr);
			if (p->progress)
				p->progress(p->progress_ctx, (double)++done / (double)r->pairs);
		}
	}
	if (!rc && *p->stop)
		rc = -EINTR;
	r->median_ns_all = nmed ? stats_median(medians, nmed) : NAN;
	r->seconds = ((double)clock_wall_ns() - t0) / 1e9;
out:
	free(medians);
	if (rc)
		c2c_result_free(r);
	return rc;
}
