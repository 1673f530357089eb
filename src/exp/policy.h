/*
 * Run policy in one place: the defaults, limits and --quick caps that more
 * than one file would otherwise repeat as literals (the option table, the
 * plan, the sections' parameter builders in sections/registry.c). A section's own
 * structural bounds (array sizes of its result) stay in its header.
 * Nothing here reads the machine; the plan applies these to it.
 */
#ifndef MLPSCOPE_EXP_POLICY_H
#define MLPSCOPE_EXP_POLICY_H

#include <stddef.h>

/* --repeat: sweeps per run, compared for agreement. */
#define POLICY_REPEAT_MAX 16
#define POLICY_REPEAT_DEFAULT 3
#define POLICY_REPEAT_QUICK 1

/* --trials: per point per sweep, a multiple of the min-of-3 group. */
#define POLICY_TRIALS_MAX 30
#define POLICY_MLP_TRIALS_DEFAULT 6
#define POLICY_WINDOW_TRIALS_MAX 15

/* compare: files read side by side. */
#define POLICY_COMPARE_MAX_RUNS 16

/* Sets that must miss every cache (latency's largest size, mlp's working
 * set, the bandwidth, multicore, loaded and window arenas): 8x the largest
 * reported cache rounded up to a power of two, 256 to 512 MiB: at most one
 * load in eight could hit a cache of the size the OS reports, and none past
 * a guest's share of it. Loads miss long before 16x a claimed L3 (a guest is
 * shown a whole socket's 260 MiB),
 * and every byte past that is first-touched, built and verified for nothing;
 * the budget (budget.c) may halve it, never below twice the last cache. */
#define POLICY_MEMORY_SET_MIN_BYTES ((size_t)256 << 20)
#define POLICY_MEMORY_SET_MAX_BYTES ((size_t)512 << 20)

static inline size_t policy_memory_set_bytes(size_t largest_cache_bytes)
{
	size_t set = POLICY_MEMORY_SET_MIN_BYTES;

	while (set < 8 * largest_cache_bytes && set < POLICY_MEMORY_SET_MAX_BYTES)
		set *= 2;
	return set;
}

#endif
