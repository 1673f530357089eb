/*
 * Multi-core lanes. Each thread builds its own arena and chain on its own
 * CPU (first touch: on a multi-socket machine its pages land on its node,
 * and the build runs in parallel), then every timed region runs the lanes
 * kernel on all T threads released together. As in mlp.c, each region's
 * lanes start evenly spaced along a stretch of the cycle no recent region
 * touched, points are visited round-robin, and a point's estimate is its
 * best trial, here the trial with the highest aggregate rate.
 */
#include "exp/multicore.h"
#include "exp/perm_fold.h"
#include "exp/policy.h"

#include "kern/lanes.h"
#include "core/bounds.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char definition[] =
	"accesses_per_ns = all threads' accesses / the span from the first thread's start to the last "
	"thread's end (a thread that ran while its mates were descheduled does not count as overlap); "
	"concurrency_total = t1_single x accesses_per_ns (Little's law), t1_single the time per access "
	"of one thread with one lane";

/* A thread's private state, aligned to its own lines: the cursor and sink
 * are written every region and must not share a line with a team mate's. */
struct mc_thread {
	struct arena arena;
	struct chain chain;
	struct layout_check check;
	size_t cursor;
	uintptr_t sink;
	uintptr_t starts[MULTICORE_MAX_LANES];
	double ns_per_access;      /* this region's */
	uint64_t t0, t1;           /* this region's start and end (a clock shared by all CPUs) */
	size_t accesses;
	int rc;
} __attribute__((aligned(128)));

struct mc_ctx {
	const struct multicore_params *p;
	struct mc_thread *th;
	unsigned lanes;
};

static int build_member(void *ctx, unsigned index, int cpu, void *slot)
{
	struct mc_ctx *c = ctx;
	const struct multicore_params *p = c->p;
	struct mc_thread *t = &c->th[index];
	int rc;

	(void)cpu;
	(void)slot;
	if ((rc = arena_map(&t->arena, p->per_thread_bytes, p->pages)))
		return rc;
	return chain_build_verified(&t->chain, t->arena.base, p->per_thread_bytes, p->spacing_bytes,
				    p->line_bytes, p->seed + index, chain_offset_linear, &t->check);
}

static int lanes_member(void *ctx, unsigned index, int cpu, void *slot)
{
	struct mc_ctx *c = ctx;
	const struct multicore_params *p = c->p;
	struct mc_thread *t = &c->th[index];
	lanes_kernel_fn fn = lanes_kernel(c->lanes);
	size_t steps = p->accesses / c->lanes, accesses = steps * c->lanes;
	uint64_t t0, t1;

	(void)cpu;
	(void)slot;
	for (unsigned i = 0; i < c->lanes; i++)
		t->starts[i] = chain_node_at(&t->chain, t->cursor + i * steps);
	t->cursor += accesses;
	t0 = clock_now();
	t->sink ^= fn(t->starts, steps);
	t1 = clock_now();
	t->ns_per_access = clock_ticks_to_ns(p->clock, t1 - t0) / (double)accesses;
	t->t0 = t0;
	t->t1 = t1;
	t->accesses = accesses;
	return 0;
}

void multicore_params_default(struct multicore_params *p, const struct clock_info *clock,
			      const struct topo *topo, bool quick)
{
	size_t llc = topo ? topo_largest_cache_bytes(topo) : 0, bytes = policy_memory_set_bytes(llc) / (quick ? 4 : 2);

	*p = (struct multicore_params){
		.run_floor_pct = NAN,
		.clock = clock, .max_threads = 0, .max_lanes = quick ? 16 : 48, .per_thread_bytes = bytes,
		.spacing_bytes = 64, .line_bytes = topo && topo->line_bytes ? topo->line_bytes : 64,
		.pages = PAGES_HUGE, .trials = quick ? 3 : 9, .accesses = 32768, .seed = 11,
	};
}

static int validate(const struct multicore_params *p, unsigned *nthreads, char *err, size_t errlen)
{
	int rc;

	if ((rc = team_resolve_timed("multicore", p->clock, p->max_threads, nthreads, err, errlen)))
		return rc;
	if (p->max_lanes == 0 || p->max_lanes > MULTICORE_MAX_LANES) {
		snprintf(err, errlen, "multicore: lanes must be 1..%d", MULTICORE_MAX_LANES);
		return -EINVAL;
	}
	if (p->trials == 0 || p->trials % MULTICORE_TRIAL_GROUP || p->trials > MULTICORE_MAX_TRIALS) {
		snprintf(err, errlen, "multicore: trials must be a multiple of 3 up to %d", MULTICORE_MAX_TRIALS);
		return -EINVAL;
	}
	if (p->accesses < p->max_lanes || !p->spacing_bytes || p->per_thread_bytes / p->spacing_bytes < 2 * p->accesses) {
		snprintf(err, errlen, "multicore: a chain must hold at least twice the accesses of a region");
		return -EINVAL;
	}
	return 0;
}

/* This section's own floor on its own points (stats_floor, shared by every
 * section). Group maxima of rate are group minima of time per access. */
static double noise_floor_pct(const struct multicore_result *r)
{
	struct stats_floor fl = {0};

	for (unsigned i = 0; i < r->npoints; i++)
		stats_floor_add(&fl, r->points[i].trials_rate, r->points[i].ntrials, MULTICORE_TRIAL_GROUP, true);
	return stats_floor_take_pct(&fl);
}

static void summarise(struct multicore_result *r)
{
	double floor = isfinite(r->noise_floor_pct) ? r->noise_floor_pct / 100.0 : 0.0;

	for (unsigned c = 0; c < r->ncounts; c++) {
		struct multicore_saturation *s = &r->sat[c];
		const struct multicore_point *row = &r->points[c * r->max_lanes];

		s->threads = r->thread_counts[c];
		s->peak_accesses_per_ns = 0;
		s->plateau_from_lanes = 0;
		for (unsigned k = 0; k < r->max_lanes; k++)
			if (!row[k].impossible && row[k].accesses_per_ns > s->peak_accesses_per_ns) {
				s->peak_accesses_per_ns = row[k].accesses_per_ns;
				s->peak_concurrency_total = row[k].concurrency_total;
				s->peak_lanes = k + 1;
			}
		for (unsigned k = 0; k < r->max_lanes; k++)
			if (!row[k].impossible && row[k].accesses_per_ns >= s->peak_accesses_per_ns * (1.0 - floor)) {
				s->plateau_from_lanes = k + 1;
				break;
			}
	}
	r->saturated_at_threads = 0;
	r->rate_gain_last = NAN;
	if (r->ncounts >= 2)
		r->rate_gain_last = r->sat[r->ncounts - 1].peak_accesses_per_ns /
				    r->sat[r->ncounts - 2].peak_accesses_per_ns;
	/* The first T from which no larger T raises the peak beyond the floor. */
	for (unsigned c = 0; c + 1 < r->ncounts; c++) {
		bool flat = true;

		for (unsigned d = c + 1; d < r->ncounts; d++)
			flat &= r->sat[d].peak_accesses_per_ns <= r->sat[c].peak_accesses_per_ns * (1.0 + floor);
		if (flat) {
			r->saturated_at_threads = r->sat[c].threads;
			break;
		}
	}
}

static int run_point(struct mc_ctx *c, struct multicore_point *pt, bool record)
{
	struct team_placement pl;
	double rate = 0, slowest = 0;
	int rc;

	c->lanes = pt->lanes;
	if ((rc = team_plan(&pl, pt->threads, NULL, 0)) || (rc = team_run(&pl, lanes_member, c, NULL, 0)))
		return rc;
	if (!record)
		return 0;
	uint64_t first = UINT64_MAX, last = 0;
	size_t accesses = 0;

	/* The aggregate rate over the team's common span, not a sum of each
	 * thread's own rate: threads timed over different windows would count
	 * a descheduled mate's absence as overlap. */
	for (unsigned i = 0; i < pt->threads; i++) {
		first = c->th[i].t0 < first ? c->th[i].t0 : first;
		last = c->th[i].t1 > last ? c->th[i].t1 : last;
		accesses += c->th[i].accesses;
		slowest = fmax(slowest, c->th[i].ns_per_access);
	}
	rate = (double)accesses / clock_ticks_to_ns(c->p->clock, last - first);
	pt->trials_rate[pt->ntrials] = rate;
	pt->trials_slowest_ns[pt->ntrials++] = slowest;
	return 0;
}

const struct multicore_point *multicore_find(const struct multicore_result *r, unsigned threads,
					     unsigned lanes)
{
	for (unsigned i = 0; i < r->npoints; i++)
		if (r->points[i].threads == threads && r->points[i].lanes == lanes)
			return &r->points[i];
	return NULL;
}

unsigned multicore_analyse(struct multicore_result *r)
{
	double floor_pct = bounds_ratio_floor_pct(r->noise_floor_pct);

	r->t1_single_ns = 1.0 / stats_max(r->points[0].trials_rate, r->points[0].ntrials);
	r->nimpossible = 0;
	for (unsigned i = 0; i < r->npoints; i++) {
		struct multicore_point *pt = &r->points[i];
		unsigned best = 0;

		for (unsigned t = 1; t < pt->ntrials; t++)
			if (pt->trials_rate[t] > pt->trials_rate[best])
				best = t;
		pt->accesses_per_ns = pt->trials_rate[best];
		pt->slowest_thread_ns = pt->trials_slowest_ns[best];
		pt->concurrency_total = r->t1_single_ns * pt->accesses_per_ns;
		/* T threads of K lanes keep at most T x K misses in flight. */
		pt->impossible = bounds_exceeded(pt->concurrency_total, (double)pt->threads * pt->lanes, floor_pct);
		r->nimpossible += pt->impossible;
	}
	summarise(r);
	return r->nimpossible;
}

/* One more min-of-3 group of trials, once, for each marked point and for
 * T = 1, K = 1 (the concurrency is its time over theirs; a t1_single
 * slowed by a busy moment is the usual culprit); the best of all trials
 * stands. */
static int retime_impossible(const struct multicore_params *p, struct multicore_result *r, struct mc_ctx *c)
{
	for (unsigned i = 0; i < r->npoints; i++) {
		struct multicore_point *pt = &r->points[i];

		if (i && !pt->impossible)
			continue;
		for (unsigned t = 0; t < MULTICORE_TRIAL_GROUP && pt->ntrials < MULTICORE_MAX_TRIALS; t++) {
			int rc;

			if (p->stop && *p->stop)
				return -EINTR;
			if ((rc = run_point(c, pt, true)))
				return rc;
		}
	}
	return 0;
}

int multicore_run(const struct multicore_params *p, struct multicore_result *r, char *err, size_t errlen)
{
	struct mc_ctx c = {.p = p};
	uint64_t w0 = clock_wall_ns();
	unsigned nthreads;
	int rc;

	err[0] = 0;
	memset(r, 0, sizeof(*r));
	r->concurrency_definition = definition;
	if ((rc = validate(p, &nthreads, err, errlen)))
		return rc;
	r->per_thread_bytes = p->per_thread_bytes;
	r->spacing_bytes = p->spacing_bytes;
	r->pages_requested = arena_request_name(p->pages);
	r->accesses = p->accesses;
	r->trials = p->trials;
	r->max_lanes = p->max_lanes;
	r->ncounts = team_thread_counts(nthreads, r->thread_counts, MULTICORE_MAX_COUNTS);
	r->npoints = r->ncounts * p->max_lanes;
	if ((rc = team_plan(&r->placement, nthreads, err, errlen)))
		return rc;
	if (!(r->points = calloc(r->npoints, sizeof(*r->points))) ||
	    !(c.th = aligned_alloc(128, nthreads * sizeof(*c.th)))) {
		rc = -ENOMEM;
		goto out;
	}
	memset(c.th, 0, nthreads * sizeof(*c.th));
	for (unsigned i = 0; i < r->npoints; i++) {
		r->points[i].threads = r->thread_counts[i / p->max_lanes];
		r->points[i].lanes = i % p->max_lanes + 1;
	}
	rc = team_run(&r->placement, build_member, &c, NULL, 0);
	r->layout_ok = rc != -EPROTO;
	r->perm_seed = p->seed;
	r->perm_hash = PERM_FOLD_BASIS;
	for (unsigned i = 0; i < nthreads; i++) {
		r->perm_hash = perm_hash_fold(r->perm_hash, c.th[i].chain.perm_hash);
		r->huge_bytes_obtained += c.th[i].arena.huge_bytes_obtained;
		r->total_bytes += c.th[i].arena.bytes;
	}
	if (rc) {
		snprintf(err, errlen, rc == -EPROTO ? "multicore: a thread's chain failed its layout check"
						     : "multicore: building the threads' chains: %s", strerror(-rc));
		goto out;
	}
	/* Untimed warm-up on the largest team: page tables and code. */
	for (unsigned k = 1; k <= p->max_lanes && k <= 8; k++)
		if ((rc = run_point(&c, &r->points[(r->ncounts - 1) * p->max_lanes + k - 1], false)))
			goto out;
	for (unsigned t = 0; t < p->trials; t++)
		for (unsigned i = 0; i < r->npoints; i++) {
			if (p->stop && *p->stop) {
				rc = -EINTR;
				goto out;
			}
			if ((rc = run_point(&c, &r->points[i], true)))
				goto out;
		}
	r->noise_floor_pct = stats_floor_or_run(noise_floor_pct(r), p->run_floor_pct, &r->floor_from_run);
	if (multicore_analyse(r)) {
		if ((rc = retime_impossible(p, r, &c)))
			goto out;
		multicore_analyse(r);
	}
	r->seconds = (double)(clock_wall_ns() - w0) / 1e9;
out:
	if (c.th)
		for (unsigned i = 0; i < nthreads; i++) {
			chain_free(&c.th[i].chain);
			arena_unmap(&c.th[i].arena);
		}
	free(c.th);
	return rc;
}

void multicore_result_free(struct multicore_result *r)
{
	free(r->points);
	r->points = NULL;
	r->npoints = 0;
}
