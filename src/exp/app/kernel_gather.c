/*
 * The gather control: sum += a[idx[i]] over a random index stream, the
 * same footprint as the walks. No load depends on another, so whatever
 * overlap it shows the core finds by itself: the ceiling a lane scheme can
 * approach, measured the same way (min over round-robin trials, the chase
 * in the same run). Its check is a sum fixed at build time from the index
 * stream alone, without reading the array.
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
#define WARMTH "warm: the array is written once and gathered from repeatedly"
#define CHECKED "every sum equal to the one fixed at build time from the index stream,"

#define GATHER_MAX_ITEMS ((size_t)1 << 24)
#define GATHER_MIN_FOOTPRINT ((size_t)64 << 10)

/* The value stored at element i: a mix, so a wrong index changes the sum. */
static uint64_t value_at(uint64_t i)
{
	i ^= i >> 33;
	i *= 0xff51afd7ed558ccdull;
	return i ^ (i >> 29);
}

static int gather_run(const struct app_params *p, struct app_kernel_result *r, char *err, size_t errlen)
{
	struct arena arena = {0};
	uint32_t *idx = NULL;
	size_t fp = p->footprint_bytes < GATHER_MIN_FOOTPRINT ? GATHER_MIN_FOOTPRINT : p->footprint_bytes;
	size_t elems = fp / sizeof(uint64_t), n;
	uint64_t w0 = clock_wall_ns(), expected = 0, ws;
	struct app_variant *var = &r->variants[0];
	struct app_point *pt = &var->points[0];
	app_gather_fn fn = p->broken_gather ? p->broken_gather : app_gather_plain;
	struct rng rng;
	int rc;

	r->ceiling = true;
	if (elems > UINT32_MAX) {
		snprintf(err, errlen, "--size: gather indexes at most 2^32 elements of 8 bytes (expected at most 32G)");
		return -EINVAL;
	}
	/* Four random loads per line of the footprint, at most 2^24: long enough
	 * that the index stream's start-up is noise, short enough to be quick. */
	n = 4 * (fp / p->line_bytes);
	if (n > GATHER_MAX_ITEMS)
		n = GATHER_MAX_ITEMS;
	app_footprint_set(p, r, elems * sizeof(uint64_t));
	app_param_num(r, "elements", (double)elems);
	app_param_num(r, "items", (double)n);
	app_param_num(r, "index_bytes", (double)(n * sizeof(uint32_t)));
	app_param_num(r, "seed", (double)p->seed);
	app_param_text(r, "loop", "sum += a[idx[i]], indices uniform over the array");

	if (!(idx = malloc(n * sizeof(*idx)))) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = arena_map(&arena, r->footprint_bytes, p->pages)))
		goto out;
	app_arena_record(p, r, &arena);
	for (size_t i = 0; i < elems; i++)
		((uint64_t *)arena.base)[i] = value_at(i);
	rng_seed(&rng, p->seed);
	for (size_t i = 0; i < n; i++) {
		idx[i] = (uint32_t)rng_below(&rng, elems);
		expected += value_at(idx[i]);
	}
	r->check.expected_hash = expected;
	app_stage_add(r, "setup: array and index stream", (double)(clock_wall_ns() - w0) / 1e9);
	r->setup_seconds = (double)(clock_wall_ns() - w0) / 1e9;

	if (p->chase && (rc = app_chase_checked(p, r->footprint_bytes, "gather", r)))
		goto out;

	ws = clock_wall_ns();
	r->nvariants = 1;
	var->name = "plain";
	var->what = "one loop, no lanes: the out-of-order core overlaps the independent loads by itself";
	var->npoints = 1;
	pt->k = 1;
	pt->dependent_loads_per_item = 0;
	pt->loads_per_item = 1;
	for (unsigned t = 0; t < p->trials; t++) {
		uint64_t t0, t1, sum;

		if (*p->stop) {
			rc = -EINTR;
			goto out;
		}
		t0 = clock_now();
		sum = fn((const uint64_t *)arena.base, idx, n);
		t1 = clock_now();
		pt->trials_ns[pt->ntrials++] = clock_ticks_to_ns(p->clock, t1 - t0) / (double)n;
		r->check.runs_checked++;
		var->output_hash = sum;
		if (sum != expected) {
			r->check.ok = false;
			snprintf(r->check.failure, sizeof(r->check.failure),
				 "gather, variant plain, K = 1: sum %016llx, expected %016llx (fixed at build time)",
				 (unsigned long long)sum, (unsigned long long)expected);
			rc = -EPROTO;
			goto out;
		}
	}
	r->sweep_seconds = (double)(clock_wall_ns() - ws) / 1e9;
	app_finish(p, r);
	var->knee_k = NAN;
out:
	free(idx);
	arena_unmap(&arena);
	return rc;
}

const struct app_kernel app_kernel_gather = {.name = "gather", .warmth = WARMTH, .check_what = CHECKED, .run = gather_run};
