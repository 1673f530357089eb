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

#include "core/rng.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int search_run(const struct app_params *p, struct app_kernel_result *r, char *err, size_t errlen)
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
	struct arena sorted = {0}, eyt = {0};
	uint64_t *a, *e, *queries = NULL, w0 = clock_wall_ns(), ws, sorted_loads = 0, eyt_loads = 0;
	uint32_t *rank = NULL, *ref = NULL, *res = NULL;
	size_t fp = p->footprint_bytes < SEARCH_MIN_FOOTPRINT ? SEARCH_MIN_FOOTPRINT : p->footprint_bytes;
	size_t n = fp / sizeof(uint64_t) - 3, nq = SEARCH_QUERIES, nslots = 0, len;
	struct slot slots[5 * APP_NLANE_SET];
	unsigned nks = 0, depth = 0, cached_levels = 0, l2_levels = 0;
	struct rng rng;
	int rc = 0;

	app_start(p, r, "search",
		  "warm: both layouts are built once and searched repeatedly",
		  "every result equal to a plain reference lower_bound; FNV-1a of the reference results");
	r->headline_want = "eytzinger";
	if ((n & (n - 1)) == 0)
		n--;
	if (n >= UINT32_MAX || n * KEY_GAP / KEY_GAP != n) {
		snprintf(err, errlen, "--size: search indexes at most 2^32 - 1 keys (expected at most 32G)");
		return -EINVAL;
	}
	while (((size_t)1 << depth) <= n)
		depth++;
	/* Levels 0..d of the Eytzinger tree span (2^(d+1) - 1) keys: those that
	 * fit the largest cache together can stay in it. */
	while (cached_levels < depth && p->largest_cache_bytes &&
	       (((size_t)2 << cached_levels) - 1) * sizeof(uint64_t) <= p->largest_cache_bytes)
		cached_levels++;
	while (l2_levels < depth && p->l2_bytes &&
	       (((size_t)2 << l2_levels) - 1) * sizeof(uint64_t) <= p->l2_bytes)
		l2_levels++;
	r->footprint_bytes = n * sizeof(uint64_t);
	r->may_fit_cache = p->largest_cache_bytes && r->footprint_bytes <= p->largest_cache_bytes;
	app_param_num(r, "keys", (double)n);
	app_param_num(r, "queries", (double)nq);
	app_param_num(r, "levels", depth);
	app_param_num(r, "levels_beyond_largest_cache_model", p->largest_cache_bytes ? depth - cached_levels : NAN);
	app_param_num(r, "levels_beyond_l2_model", p->l2_bytes ? depth - l2_levels : NAN);
	app_param_num(r, "seed", (double)p->seed);

	if ((rc = arena_map(&sorted, n * sizeof(uint64_t), p->pages)) ||
	    (rc = arena_map(&eyt, (n + 1) * sizeof(uint64_t), p->pages)))
		goto out;
	r->pages_requested = arena_request_name(p->pages);
	r->total_bytes = eyt.bytes;
	r->huge_bytes_obtained = eyt.huge_bytes_obtained;
	a = (uint64_t *)sorted.base;
	e = (uint64_t *)eyt.base;
	if (!(rank = malloc((n + 1) * sizeof(*rank))) || !(ref = malloc(nq * sizeof(*ref))) ||
	    !(res = malloc(nq * sizeof(*res))) || !(queries = malloc(nq * sizeof(*queries)))) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = (uint64_t)(i + 1) * KEY_GAP;
	e[0] = 0;
	rank[0] = (uint32_t)n;
	eytzinger_fill(a, e, rank, n, 1, 0);
	rng_seed(&rng, p->seed);
	for (size_t q = 0; q < nq; q++) {
		queries[q] = rng_below(&rng, (uint64_t)(n + 1) * KEY_GAP + 2);
		ref[q] = (uint32_t)reference_lower_bound(a, n, queries[q]);
	}
	r->check.expected_hash = 0xcbf29ce484222325ull;
	for (size_t q = 0; q < nq; q++)
		r->check.expected_hash = (r->check.expected_hash ^ ref[q]) * 0x100000001b3ull;
	app_stage_add(r, "setup: both layouts, queries and reference results", (double)(clock_wall_ns() - w0) / 1e9);
	/* Untimed: loads per search. Sorted: one per halving step and the
	 * final compare. Eytzinger: one per level the path stays inside. */
	for (len = n; len > 1; len -= len / 2)
		sorted_loads++;
	sorted_loads++;
	for (size_t q = 0; q < nq; q++)
		for (size_t i = 1; i <= n; i = 2 * i + (e[i] < queries[q]))
			eyt_loads++;
	app_param_num(r, "dependent_loads_per_query_sorted", (double)sorted_loads);
	app_param_num(r, "dependent_loads_per_query_eytzinger", (double)eyt_loads / (double)nq);
	r->setup_seconds = (double)(clock_wall_ns() - w0) / 1e9;

	if (p->chase && (rc = app_chase_checked(p, r->footprint_bytes, "search", r)))
		goto out;

	nks = app_lane_count(p->max_k);
	r->nvariants = 5;
	for (unsigned f = 0; f < 5; f++) {
		struct app_variant *var = &r->variants[f];

		var->name = names[f];
		var->what = what[f];
		var->npoints = nks;
		for (unsigned i = 0; i < nks; i++) {
			struct app_point *pt = &var->points[i];

			pt->k = app_lane_set[i];
			pt->dependent_loads_per_item = f < 2 ? (double)sorted_loads : (double)eyt_loads / (double)nq;
			app_search_fn fn = f == 4 ? app_search_eytzinger_regs(pt->k) : fns[f];

			/* Occupancy counts only the levels past the private L2 as
			 * misses (a model: the top levels are few lines and hit;
			 * one core here reaches far less than the whole L3, so
			 * the L3 bound would call almost every level a hit). */
			pt->loads_per_item = p->l2_bytes ? depth - l2_levels : pt->dependent_loads_per_item;
			slots[nslots++] = (struct slot){var, pt, p->broken_search ? p->broken_search : fn, f >= 2, pt->k};
		}
	}
	ws = clock_wall_ns();
	for (unsigned tr = 0; tr < p->trials; tr++)
		for (size_t i = 0; i < nslots; i++) {
			struct slot *s = &slots[i];
			uint64_t t0, t1;

			if (*p->stop) {
				rc = -EINTR;
				goto out;
			}
			if (tr == 0)
				memset(res, 0xff, nq * sizeof(*res));
			t0 = clock_now();
			s->fn(s->eytzinger ? e : a, n, queries, nq, s->k, res);
			t1 = clock_now();
			s->pt->trials_ns[s->pt->ntrials++] = clock_ticks_to_ns(p->clock, t1 - t0) / (double)nq;
			if (tr)
				continue;
			r->check.runs_checked++;
			for (size_t q = 0; q < nq; q++) {
				uint32_t got = s->eytzinger ? (res[q] <= n ? rank[res[q]] : UINT32_MAX) : res[q];

				if (got != ref[q]) {
					r->check.ok = false;
					snprintf(r->check.failure, sizeof(r->check.failure),
						 "search, variant %s, K = %u: query %zu gave %u, the reference %u",
						 s->var->name, s->k, q, got, ref[q]);
					rc = -EPROTO;
					goto out;
				}
			}
			s->var->output_hash = r->check.expected_hash;
		}
	r->sweep_seconds = (double)(clock_wall_ns() - ws) / 1e9;
	app_finish(p, r);
out:
	free(rank);
	free(ref);
	free(res);
	free(queries);
	arena_unmap(&sorted);
	arena_unmap(&eyt);
	return rc;
}

const struct app_kernel app_kernel_search = {.name = "search", .run = search_run};
