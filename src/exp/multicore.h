/*
 * Multi-core memory-level parallelism: the lanes sweep (K dependent chains
 * per thread) on T threads at once, each pinned to its own CPU and walking
 * its own Sattolo chain in its own arena, so the only thing the threads
 * share is the memory system. Gives total concurrency and the aggregate
 * access rate against K and T, and where they stop growing. Never prints,
 * never parses options.
 */
#ifndef MLPSCOPE_EXP_MULTICORE_H
#define MLPSCOPE_EXP_MULTICORE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/chain.h"
#include "core/clock.h"
#include "core/team.h"
#include "core/topo.h"

#define MULTICORE_MAX_LANES 64
#define MULTICORE_MAX_COUNTS 12
#define MULTICORE_MAX_TRIALS 30
#define MULTICORE_TRIAL_GROUP 3

struct multicore_params {
	const struct clock_info *clock;
	unsigned max_threads;       /* sweep T = 1, 2, 4 ... max_threads; 0 = every allowed CPU; more: -EINVAL */
	unsigned max_lanes;         /* K = 1..max_lanes, at most MULTICORE_MAX_LANES */
	size_t per_thread_bytes;    /* each thread's chain footprint */
	size_t spacing_bytes;
	size_t line_bytes;
	enum page_request pages;
	unsigned trials;            /* per point, a multiple of 3 */
	size_t accesses;            /* per thread per timed region (H, split over K lanes) */
	uint64_t seed;
	double run_floor_pct;        /* the run's floor (noise section), taken where the
	                              * points' own has too few groups; NaN: none */
	volatile sig_atomic_t *stop;/* may be NULL */
};

struct multicore_point {
	unsigned threads, lanes;
	/* Definition: concurrency_total = sum over threads i of t1_single /
	 * tK_i, where t1_single is one thread's time per access with one lane
	 * (T = 1, K = 1: the unloaded latency) and tK_i thread i's time per
	 * access in this point. By Little's law, the misses in flight summed
	 * over threads, if each still took the unloaded latency. */
	double concurrency_total;
	double accesses_per_ns;     /* sum over threads of 1 / tK_i: aggregate rate */
	double slowest_thread_ns;   /* max over threads of tK_i, same trial */
	bool impossible;            /* concurrency_total above threads x lanes beyond the floor, after a re-time */
	unsigned ntrials;
	double trials_rate[MULTICORE_MAX_TRIALS];  /* accesses per ns, per trial */
	double trials_slowest_ns[MULTICORE_MAX_TRIALS];
};

struct multicore_saturation {
	unsigned threads;
	double peak_accesses_per_ns;
	double peak_concurrency_total;
	unsigned peak_lanes;
	unsigned plateau_from_lanes;  /* first K within the noise floor of the peak */
};

/* How each thread's chain is seeded, and what the one hash covers. */
#define MULTICORE_CHAIN_SEEDS "seed + i for thread i's chain; hash: the threads' folded in order"

struct multicore_result {
	size_t per_thread_bytes;
	size_t spacing_bytes;
	const char *pages_requested;
	size_t huge_bytes_obtained;   /* summed over the threads' arenas */
	size_t total_bytes;           /* mapped, summed */
	bool layout_ok;               /* every thread's chain passed */
	uint64_t perm_seed;           /* thread i's chain is seeded perm_seed + i */
	uint64_t perm_hash;           /* 0: not recorded; else the threads' hashes folded in order (perm_fold.h) */
	size_t accesses;
	unsigned trials;
	unsigned max_lanes;
	unsigned ncounts;
	unsigned thread_counts[MULTICORE_MAX_COUNTS];
	unsigned npoints;             /* ncounts * max_lanes, thread-count major */
	struct multicore_point *points;
	double t1_single_ns;
	const char *concurrency_definition;
	double noise_floor_pct;
	unsigned nimpossible;         /* points marked impossible, left out of the saturation */
	bool floor_from_run;         /* one min-of-3 group per point: the run's floor taken */
	struct multicore_saturation sat[MULTICORE_MAX_COUNTS];
	/* Thread count after which adding threads raises the peak rate by less
	 * than the noise floor; 0 when the rate still grows at the largest T. */
	unsigned saturated_at_threads;
	double rate_gain_last;        /* peak rate at the largest T / at the one before */
	struct team_placement placement;
	double seconds;
};

/* Defaults: K = 1..48 (quick 16), half the memory set of policy.h per
 * thread (quick: a quarter), 9 trials (quick 3), 32768 accesses per region. */
void multicore_params_default(struct multicore_params *p, const struct clock_info *clock,
			      const struct topo *topo, bool quick);

/* Validate (all before measuring), build every thread's chain on its own
 * CPU, sweep. Returns 0; -EINVAL (err says why, e.g. more threads than
 * CPUs); -EPROTO when a layout check failed; -EINTR; other -errno. Free
 * with multicore_result_free. */
int multicore_run(const struct multicore_params *p, struct multicore_result *r, char *err, size_t errlen);

/* From the points' trials (trials_rate, ntrials) and r->noise_floor_pct:
 * t1_single, each point's rate and concurrency_total, each point whose
 * concurrency exceeds threads x lanes beyond the ratio's floor marked
 * impossible (T threads of K lanes hold at most T x K misses), and the
 * saturation per thread count from the other points. Returns how many
 * are marked. Pure: the seam a test feeds synthetic trials through. */
unsigned multicore_analyse(struct multicore_result *r);

void multicore_result_free(struct multicore_result *r);

/* The point (threads, lanes), NULL when not measured. */
const struct multicore_point *multicore_find(const struct multicore_result *r, unsigned threads,
					     unsigned lanes);

#endif
