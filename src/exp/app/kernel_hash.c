/*
 * Chained hash probes as K lanes: a ring of K in-flight lookups each with
 * its own stage (AMAC) against K lookups in lockstep groups and the plain
 * loop, at hit fractions 1.0 and 0.5 (an absent key walks its whole chain,
 * so chains end irregularly), and linear probing as the control whose
 * probes the hardware finds by itself. Nodes sit in a shuffled order so
 * every link is a random line. Dependent loads per lookup (bucket head plus
 * nodes visited) are counted in an untimed pass. The check: found count and
 * value sum fixed at build time; identical for every variant and K.
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
#define WARMTH "warm: the tables are built once and probed repeatedly"
#define CHECKED "every found count and value sum equal to the ones fixed at build time; last sum"

#define HASH_QUERIES ((size_t)1 << 19)
#define HASH_MIN_FOOTPRINT ((size_t)64 << 10)
#define NHIT 2

/* A bijection on 64-bit words (each step inverts), so distinct j give
 * distinct keys; j >= 1 keeps key 0 free for linear probing's empty slot. */
static uint64_t mix(uint64_t j)
{
	j ^= j >> 33;
	j *= 0xff51afd7ed558ccdull;
	j ^= j >> 33;
	j *= 0xc4ceb9fe1a85ec53ull;
	return j ^ (j >> 33);
}

static uint64_t value_of(uint64_t key)
{
	return key * 0x9e3779b97f4a7c15ull + 1;
}

struct query_set {
	double hit_fraction;
	uint64_t *keys;
	uint64_t expected_found;
	uint64_t expected_sum;
	double dependent_loads_per_lookup;
	double probes_per_lookup;         /* linear probing: slots compared */
};

struct slot {
	struct app_variant *var;
	struct app_point *pt;
	const struct query_set *qs;
	app_hash_fn fn;                   /* NULL: linear probing */
	unsigned k;
};

struct tables {
	struct app_hash_table chained;
	const struct app_lp_slot *lp;
	uint64_t lp_mask;
	size_t n;
};

static size_t pow2_at_least(size_t x)
{
	size_t p = 1;

	while (p < x)
		p <<= 1;
	return p;
}

/* Untimed: the loads a lookup depends on (its head, each node visited)
 * and linear probing's slots compared. */
static void count_loads(const struct tables *t, struct query_set *qs, size_t n)
{
	uint64_t loads = 0, probes = 0;

	for (size_t q = 0; q < n; q++) {
		uint64_t key = qs->keys[q], h = key & t->lp_mask;

		loads++;
		for (uint32_t i = t->chained.heads[key & t->chained.mask]; i != APP_HASH_NIL;
		     i = t->chained.nodes[i].next) {
			loads++;
			if (t->chained.nodes[i].key == key)
				break;
		}
		for (probes++; t->lp[h].key && t->lp[h].key != key; probes++)
			h = (h + 1) & t->lp_mask;
	}
	qs->dependent_loads_per_lookup = (double)loads / (double)n;
	qs->probes_per_lookup = (double)probes / (double)n;
}

static int run_slot(const struct app_params *p, const struct tables *t, struct slot *s, size_t n, bool check,
		    struct app_check *c)
{
	struct app_hash_out out = {0};
	uint64_t t0, t1;

	t0 = clock_now();
	if (s->fn)
		s->fn(&t->chained, s->qs->keys, n, s->k, &out);
	else
		app_hash_linear(t->lp, t->lp_mask, s->qs->keys, n, &out);
	t1 = clock_now();
	s->pt->trials_ns[s->pt->ntrials++] = clock_ticks_to_ns(p->clock, t1 - t0) / (double)n;
	if (!check)
		return 0;
	c->runs_checked++;
	s->var->output_hash = out.value_sum;
	if (out.found == s->qs->expected_found && out.value_sum == s->qs->expected_sum)
		return 0;
	c->ok = false;
	snprintf(c->failure, sizeof(c->failure),
		 "hash, variant %s, K = %u: found %llu (expected %llu), value sum %016llx (expected %016llx)",
		 s->var->name, s->k, (unsigned long long)out.found, (unsigned long long)s->qs->expected_found,
		 (unsigned long long)out.value_sum, (unsigned long long)s->qs->expected_sum);
	return -EPROTO;
}

/* One run's tables, lookups and their sizes: what the steps below hand
 * on, freed together. */
struct hash_job {
	struct arena chained, lp;
	struct query_set qs[NHIT];
	struct tables t;
	uint32_t *perm;
	size_t n, buckets, lp_slots, queries;
	struct rng rng;
};

static void job_free(struct hash_job *j)
{
	free(j->perm);
	free(j->qs[0].keys);
	free(j->qs[1].keys);
	arena_unmap(&j->chained);
	arena_unmap(&j->lp);
}

/* Nodes of 32 B and a 4-byte head per bucket at load factor 2: about
 * 34 B per key. -EINVAL (err filled) when the keys cannot be indexed. */
static int job_size(const struct app_params *p, struct app_kernel_result *r, struct hash_job *j, char *err,
		    size_t errlen)
{
	size_t fp = p->footprint_bytes < HASH_MIN_FOOTPRINT ? HASH_MIN_FOOTPRINT : p->footprint_bytes;

	j->n = fp / 34;
	j->buckets = pow2_at_least(j->n / 2 ? j->n / 2 : 1);
	if (j->n < 2 || j->n >= APP_HASH_NIL) {
		snprintf(err, errlen, "--size: hash needs 2 to 2^32 - 2 keys (expected a size from 64K to 128G)");
		return -EINVAL;
	}
	j->lp_slots = pow2_at_least(2 * j->n);
	app_footprint_set(p, r, j->n * sizeof(struct app_hash_node) + j->buckets * sizeof(uint32_t));
	app_param_num(r, "keys", (double)j->n);
	app_param_num(r, "buckets", (double)j->buckets);
	app_param_num(r, "load_factor", (double)j->n / (double)j->buckets);
	app_param_num(r, "node_bytes", sizeof(struct app_hash_node));
	app_param_num(r, "lookups", (double)j->queries);
	app_param_num(r, "linear_probe_slots", (double)j->lp_slots);
	app_param_num(r, "linear_probe_bytes", (double)(j->lp_slots * sizeof(struct app_lp_slot)));
	app_param_num(r, "seed", (double)p->seed);
	return 0;
}

/* Both tables. Key j (1..n) lives at node perm[j - 1]: chains hop between
 * random lines. Each key goes to the head of its chain. */
static void fill_tables(struct hash_job *j, struct app_hash_node *nodes, uint32_t *heads)
{
	struct app_lp_slot *s = (struct app_lp_slot *)j->lp.base;
	uint32_t *perm = j->perm;

	for (size_t i = 0; i < j->n; i++)
		perm[i] = (uint32_t)i;
	for (size_t i = j->n - 1; i > 0; i--) {
		size_t k = rng_below(&j->rng, i + 1);
		uint32_t x = perm[i];

		perm[i] = perm[k];
		perm[k] = x;
	}
	for (size_t b = 0; b < j->buckets; b++)
		heads[b] = APP_HASH_NIL;
	for (size_t k = 1; k <= j->n; k++) {
		uint64_t key = mix(k), b = key & (j->buckets - 1), h = key & (j->lp_slots - 1);
		struct app_hash_node *nd = &nodes[perm[k - 1]];

		*nd = (struct app_hash_node){.key = key, .value = value_of(key), .next = heads[b]};
		heads[b] = perm[k - 1];
		while (s[h].key)
			h = (h + 1) & (j->lp_slots - 1);
		s[h] = (struct app_lp_slot){key, value_of(key)};
	}
	j->t = (struct tables){{nodes, heads, j->buckets - 1}, (const struct app_lp_slot *)j->lp.base,
			       j->lp_slots - 1, j->n};
}

/* Each hit fraction's lookups and the found count and value sum they
 * must give. */
static void fill_queries(struct hash_job *j)
{
	for (unsigned h = 0; h < NHIT; h++)
		for (size_t q = 0; q < j->queries; q++) {
			bool hit = h == 0 || rng_below(&j->rng, 2);
			uint64_t key = hit ? mix(1 + rng_below(&j->rng, j->n)) : mix(j->n + 1 + rng_below(&j->rng, j->n));

			j->qs[h].keys[q] = key;
			if (hit) {
				j->qs[h].expected_found++;
				j->qs[h].expected_sum += value_of(key);
			}
		}
}

/* The dependent loads per lookup, counted in an untimed pass. */
static void job_count_loads(struct app_kernel_result *r, struct hash_job *j)
{
	uint64_t ws = clock_wall_ns();

	for (unsigned h = 0; h < NHIT; h++)
		count_loads(&j->t, &j->qs[h], j->queries);
	app_stage_add(r, "setup: dependent loads counted (untimed pass)", (double)(clock_wall_ns() - ws) / 1e9);
	app_param_num(r, "dependent_loads_per_lookup_hit1.0", j->qs[0].dependent_loads_per_lookup);
	app_param_num(r, "dependent_loads_per_lookup_hit0.5", j->qs[1].dependent_loads_per_lookup);
	app_param_num(r, "linear_probes_per_lookup_hit0.5", j->qs[1].probes_per_lookup);
}

/* Setup, timed from w0 as the stages say: both tables, the lookups and
 * their expected answers, then the untimed load count. */
static int job_setup(const struct app_params *p, struct app_kernel_result *r, struct hash_job *j, uint64_t w0)
{
	int rc;

	if ((rc = arena_map(&j->chained, r->footprint_bytes, p->pages)) ||
	    (rc = arena_map(&j->lp, j->lp_slots * sizeof(struct app_lp_slot), p->pages)))
		return rc;
	app_arena_record(p, r, &j->chained);
	if (!(j->perm = malloc(j->n * sizeof(*j->perm))) || !(j->qs[0].keys = malloc(j->queries * sizeof(uint64_t))) ||
	    !(j->qs[1].keys = malloc(j->queries * sizeof(uint64_t))))
		return -ENOMEM;
	rng_seed(&j->rng, p->seed);
	fill_tables(j, (struct app_hash_node *)j->chained.base,
		    (uint32_t *)(j->chained.base + j->n * sizeof(struct app_hash_node)));
	fill_queries(j);
	r->check.expected_hash = j->qs[0].expected_sum;
	app_stage_add(r, "setup: tables and lookups", (double)(clock_wall_ns() - w0) / 1e9);
	job_count_loads(r, j);
	r->setup_seconds = (double)(clock_wall_ns() - w0) / 1e9;
	free(j->perm);
	j->perm = NULL;
	return 0;
}

/* The four forms at each hit fraction and a slot for each (variant, K).
 * Returns the slots filled. */
static size_t variant_slots(const struct app_params *p, struct app_kernel_result *r, const struct hash_job *j,
			    struct slot *slots)
{
	static const char *const form_names[4] = {"plain", "lockstep", "amac", "linear_probe"};
	static const char *const form_what[4] = {
		"one lookup after another: the overlap the core finds by itself",
		"groups of K lookups, each advanced one step per round until the group ends",
		"a ring of K in-flight lookups, each with its own stage; an ended slot refills at once",
		"the control: open addressing at load 0.5, probes along a line"};
	static char names[NHIT][4][32];
	unsigned nks = app_lane_count(p->max_k);
	size_t nslots = 0;

	for (unsigned h = 0; h < NHIT; h++)
		for (unsigned f = 0; f < 4; f++) {
			struct app_variant *var = &r->variants[r->nvariants++];
			bool lanes = f == 1 || f == 2;
			app_hash_fn fn = f == 0 ? app_hash_plain : f == 1 ? app_hash_lockstep : f == 2 ? app_hash_amac : NULL;

			if (lanes && p->broken_hash)
				fn = p->broken_hash;
			snprintf(names[h][f], sizeof(names[h][f]), "%s_hit%.1f", form_names[f], j->qs[h].hit_fraction);
			var->name = names[h][f];
			var->what = form_what[f];
			var->npoints = lanes ? nks : 1;
			for (unsigned i = 0; i < var->npoints; i++) {
				struct app_point *pt = &var->points[i];

				pt->k = lanes ? app_lane_set[i] : 1;
				pt->dependent_loads_per_item = f == 3 ? 1.0 : j->qs[h].dependent_loads_per_lookup;
				pt->loads_per_item = pt->dependent_loads_per_item;
				slots[nslots++] = (struct slot){var, pt, &j->qs[h], fn, pt->k};
			}
		}
	return nslots;
}

/* The sweep's view of one run: its tables and slots. */
struct hash_sweep {
	const struct app_params *p;
	const struct hash_job *j;
	struct slot *slots;
	struct app_check *check;
};

static int sweep_slot(void *ctx, size_t i, bool check)
{
	const struct hash_sweep *h = ctx;

	return run_slot(h->p, &h->j->t, &h->slots[i], h->j->queries, check, h->check);
}

static int hash_run(const struct app_params *p, struct app_kernel_result *r, char *err, size_t errlen)
{
	struct hash_job j = {.qs = {{.hit_fraction = 1.0}, {.hit_fraction = 0.5}}, .queries = HASH_QUERIES};
	struct slot slots[NHIT * 4 * APP_NLANE_SET];
	struct hash_sweep sweep = {p, &j, slots, &r->check};
	size_t nslots;
	uint64_t w0 = clock_wall_ns();
	int rc;

	r->headline_want = "amac_hit1.0";
	if ((rc = job_size(p, r, &j, err, errlen)))
		return rc;
	if ((rc = job_setup(p, r, &j, w0)))
		goto out;
	if (p->chase && (rc = app_chase_checked(p, r->footprint_bytes, "hash", r)))
		goto out;
	nslots = variant_slots(p, r, &j, slots);
	if ((rc = app_sweep(p, r, nslots, sweep_slot, &sweep)))
		goto out;
	app_arena_recheck(r, &j.chained);
	app_finish(p, r);
	for (unsigned v = 0; v < r->nvariants; v++)
		if (r->variants[v].npoints < 2)
			r->variants[v].knee_k = NAN;
out:
	job_free(&j);
	return rc;
}

const struct app_kernel app_kernel_hash = {.name = "hash", .warmth = WARMTH, .check_what = CHECKED, .run = hash_run};
