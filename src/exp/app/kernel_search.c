/*
 * lower_bound of K queries in lockstep over a sorted array and over its
 * Eytzinger (breadth-first) layout, with and without prefetch, N not a
 * power of two. Every step of a search is one dependent load; the top
 * levels are few lines and stay cached, so occupancy counts only the
 * levels past the L2 as misses (a model figure: nothing counts misses). Dependent loads per
 * query are counted in an untimed pass; every result is compared with a
 * plain reference search outside timing.
 */
#include "exp/app/kernels.h"

#include "util/rng.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the result records of this kernel (app_start): how warm its walks
 * are and what its check compares. */
#define WARMTH "warm: both layouts are built once and searched repeatedly"
#define CHECKED "every result equal to a plain reference lower_bound; FNV-1a of the reference results"

#define SEARCH_QUERIES ((size_t)1 << 19)
#define SEARCH_MIN_FOOTPRINT ((size_t)64 << 10)
#define KEY_GAP 3

static size_t reference_lower_bound(const uint64_t *a, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* In-order fill: e[i] gets the next key of a; rank[i] its sorted index. */
static size_t eytzinger_fill(const uint64_t *a, uint64_t *e, uint32_t *rank, size_t n, size_t i, size_t next)
{
	if (i > n)
		return next;
	next = eytzinger_fill(a, e, rank, n, 2 * i, next);
	e[i] = a[next];
	rank[i] = (uint32_t)next++;
	return eytzinger_fill(a, e, rank, n, 2 * i + 1, next);
}

struct slot {
	struct app_variant *var;
	struct app_point *pt;
	app_search_fn fn;
	bool eytzinger;
	unsigned k;
};

/* One run's layouts, queries and reference results: what the steps below
 * hand on, freed together. */
struct search_job {
	struct arena sorted, eyt;
	uint64_t *a, *e, *queries;
	uint32_t *rank, *ref, *res;
	size_t n, nq;
	unsigned depth, l2_levels;
	uint64_t sorted_loads, eyt_loads;
};

static void job_free(struct search_job *j)
{
	free(j->rank);
	free(j->ref);
	free(j->res);
	free(j->queries);
	arena_unmap(&j->sorted);
	arena_unmap(&j->eyt);
}

/* How many Eytzinger levels from the top fit a cache of cache_bytes (0:
 * unknown, none). Levels 0..d span (2^(d+1) - 1) keys: those that fit the
 * cache together can stay in it. */
static unsigned levels_within(size_t cache_bytes, unsigned depth)
{
	unsigned levels = 0;

	while (levels < depth && cache_bytes && (((size_t)2 << levels) - 1) * sizeof(uint64_t) <= cache_bytes)
		levels++;
	return levels;
}

/* N (never a power of two), the tree's depth and the levels past each
 * cache. -EINVAL (err filled) when the keys cannot be indexed. */
static int job_size(const struct app_params *p, struct app_kernel_result *r, struct search_job *j, char *err,
		    size_t errlen)
{
	size_t fp = p->footprint_bytes < SEARCH_MIN_FOOTPRINT ? SEARCH_MIN_FOOTPRINT : p->footprint_bytes;
	unsigned cached_levels;

	j->n = fp / sizeof(uint64_t) - 3;
	if ((j->n & (j->n - 1)) == 0)
		j->n--;
	if (j->n >= UINT32_MAX || j->n * KEY_GAP / KEY_GAP != j->n) {
		snprintf(err, errlen, "--size: search indexes at most 2^32 - 1 keys (expected at most 32G)");
		return -EINVAL;
	}
	while (((size_t)1 << j->depth) <= j->n)
		j->depth++;
	cached_levels = levels_within(p->largest_cache_bytes, j->depth);
	j->l2_levels = levels_within(p->l2_bytes, j->depth);
	app_footprint_set(p, r, j->n * sizeof(uint64_t));
	app_param_num(r, "keys", (double)j->n);
	app_param_num(r, "queries", (double)j->nq);
	app_param_num(r, "levels", j->depth);
	app_param_num(r, "levels_beyond_largest_cache_model",
		      p->largest_cache_bytes ? j->depth - cached_levels : NAN);
	app_param_num(r, "levels_beyond_l2_model", p->l2_bytes ? j->depth - j->l2_levels : NAN);
	app_param_num(r, "seed", (double)p->seed);
	return 0;
}

/* Both layouts, the queries and the reference results, and the FNV-1a
 * hash of those the check compares against. */
static int job_build(const struct app_params *p, struct app_kernel_result *r, struct search_job *j)
{
	size_t n = j->n, nq = j->nq;
	struct rng rng;
	int rc;

	if ((rc = arena_map(&j->sorted, n * sizeof(uint64_t), p->pages)) ||
	    (rc = arena_map(&j->eyt, (n + 1) * sizeof(uint64_t), p->pages)))
		return rc;
	app_arena_record(p, r, &j->eyt);
	j->a = (uint64_t *)j->sorted.base;
	j->e = (uint64_t *)j->eyt.base;
	if (!(j->rank = malloc((n + 1) * sizeof(*j->rank))) || !(j->ref = malloc(nq * sizeof(*j->ref))) ||
	    !(j->res = malloc(nq * sizeof(*j->res))) || !(j->queries = malloc(nq * sizeof(*j->queries))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		j->a[i] = (uint64_t)(i + 1) * KEY_GAP;
	j->e[0] = 0;
	j->rank[0] = (uint32_t)n;
	eytzinger_fill(j->a, j->e, j->rank, n, 1, 0);
	rng_seed(&rng, p->seed);
	for (size_t q = 0; q < nq; q++) {
		j->queries[q] = rng_below(&rng, (uint64_t)(n + 1) * KEY_GAP + 2);
		j->ref[q] = (uint32_t)reference_lower_bound(j->a, n, j->queries[q]);
	}
	r->check.expected_hash = 0xcbf29ce484222325ull;
	for (size_t q = 0; q < nq; q++)
		r->check.expected_hash = (r->check.expected_hash ^ j->ref[q]) * 0x100000001b3ull;
	return 0;
}

/* Untimed: loads per search. Sorted: one per halving step and the final
 * compare. Eytzinger: one per level the path stays inside. */
static void job_count_loads(struct app_kernel_result *r, struct search_job *j)
{
	for (size_t len = j->n; len > 1; len -= len / 2)
		j->sorted_loads++;
	j->sorted_loads++;
	for (size_t q = 0; q < j->nq; q++)
		for (size_t i = 1; i <= j->n; i = 2 * i + (j->e[i] < j->queries[q]))
			j->eyt_loads++;
	app_param_num(r, "dependent_loads_per_query_sorted", (double)j->sorted_loads);
	app_param_num(r, "dependent_loads_per_query_eytzinger", (double)j->eyt_loads / (double)j->nq);
}

/* The five variants and a slot for each (variant, K). Returns the slots
 * filled. */
static size_t variant_slots(const struct app_params *p, struct app_kernel_result *r, const struct search_job *j,
			    struct slot *slots)
{
	static const char *const names[5] = {"sorted", "sorted_prefetch", "eytzinger", "eytzinger_prefetch",
					     "eytzinger_regs"};
	static const char *const what[5] = {
		"branchless halving over the sorted array, K queries in lockstep",
		"the same, touching both possible midpoints of the next step",
		"Eytzinger layout, i = 2i + (e[i] < x), K queries in lockstep",
		"the same, touching the 16 descendants four levels down",
		"Eytzinger, generated: each lane's position and key a named local"};
	static const app_search_fn fns[4] = {app_search_sorted, app_search_sorted_prefetch, app_search_eytzinger,
					     app_search_eytzinger_prefetch};
	unsigned nks = app_lane_count(p->max_k);
	size_t nslots = 0;

	r->nvariants = 5;
	for (unsigned f = 0; f < 5; f++) {
		struct app_variant *var = &r->variants[f];

		var->name = names[f];
		var->what = what[f];
		var->npoints = nks;
		for (unsigned i = 0; i < nks; i++) {
			struct app_point *pt = &var->points[i];

			pt->k = app_lane_set[i];
			pt->dependent_loads_per_item = f < 2 ? (double)j->sorted_loads
							     : (double)j->eyt_loads / (double)j->nq;
			app_search_fn fn = f == 4 ? app_search_eytzinger_regs(pt->k) : fns[f];

			/* Occupancy counts only the levels past the private L2 as
			 * misses (a model: the top levels are few lines and hit;
			 * one core here reaches far less than the whole L3, so
			 * the L3 bound would call almost every level a hit). */
			pt->loads_per_item = p->l2_bytes ? j->depth - j->l2_levels : pt->dependent_loads_per_item;
			slots[nslots++] = (struct slot){var, pt, p->broken_search ? p->broken_search : fn, f >= 2, pt->k};
		}
	}
	return nslots;
}

/* One timed search of every query; on the first trial each result is
 * compared with the reference (-EPROTO, the check failed, at the first
 * that differs). */
static int run_slot(const struct app_params *p, struct app_kernel_result *r, const struct search_job *j,
		    struct slot *s, bool check)
{
	uint64_t t0, t1;

	if (check)
		memset(j->res, 0xff, j->nq * sizeof(*j->res));
	t0 = clock_now();
	s->fn(s->eytzinger ? j->e : j->a, j->n, j->queries, j->nq, s->k, j->res);
	t1 = clock_now();
	s->pt->trials_ns[s->pt->ntrials++] = clock_ticks_to_ns(p->clock, t1 - t0) / (double)j->nq;
	if (!check)
		return 0;
	r->check.runs_checked++;
	for (size_t q = 0; q < j->nq; q++) {
		uint32_t got = s->eytzinger ? (j->res[q] <= j->n ? j->rank[j->res[q]] : UINT32_MAX) : j->res[q];

		if (got != j->ref[q]) {
			r->check.ok = false;
			snprintf(r->check.failure, sizeof(r->check.failure),
				 "search, variant %s, K = %u: query %zu gave %u, the reference %u", s->var->name, s->k,
				 q, got, j->ref[q]);
			return -EPROTO;
		}
	}
	s->var->output_hash = r->check.expected_hash;
	return 0;
}

/* The sweep's view of one run: its layouts and slots. */
struct search_sweep {
	const struct app_params *p;
	struct app_kernel_result *r;
	const struct search_job *j;
	struct slot *slots;
};

static int sweep_slot(void *ctx, size_t i, bool check)
{
	const struct search_sweep *c = ctx;

	return run_slot(c->p, c->r, c->j, &c->slots[i], check);
}

static int search_run(const struct app_params *p, struct app_kernel_result *r, char *err, size_t errlen)
{
	struct search_job j = {.nq = SEARCH_QUERIES};
	struct slot slots[5 * APP_NLANE_SET];
	struct search_sweep sweep = {p, r, &j, slots};
	uint64_t w0 = clock_wall_ns();
	size_t nslots;
	int rc;

	r->headline_want = "eytzinger";
	if ((rc = job_size(p, r, &j, err, errlen)))
		return rc;
	if ((rc = job_build(p, r, &j)))
		goto out;
	app_stage_add(r, "setup: both layouts, queries and reference results", (double)(clock_wall_ns() - w0) / 1e9);
	job_count_loads(r, &j);
	r->setup_seconds = (double)(clock_wall_ns() - w0) / 1e9;

	if (p->chase && (rc = app_chase_checked(p, r->footprint_bytes, "search", r)))
		goto out;
	nslots = variant_slots(p, r, &j, slots);
	if ((rc = app_sweep(p, r, nslots, sweep_slot, &sweep)))
		goto out;
	app_finish(p, r);
out:
	job_free(&j);
	return rc;
}

const struct app_kernel app_kernel_search = {.name = "search", .warmth = WARMTH, .check_what = CHECKED, .run = search_run};
