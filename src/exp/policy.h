/*
 * Run policy in one place: the defaults, limits and --quick caps that more
 * than one file would otherwise repeat as literals (the option table, the
 * plan, the sections' parameter builders, sections/NAME.c). A section's own
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
 * set, the bandwidth, multicore, loaded and window arenas): the memory set.
 * Wanted: 8x the largest cache, rounded up to a power of two, at least 256
 * MiB: at most one load in eight could hit a cache of that size. Floor:
 * twice it, the same way: a random chase then misses the cache on at least
 * half its loads, and the budget (budget.c) shrinks the set for time or
 * memory down to the floor, and under it only when nothing else fits, the
 * report then saying the largest set may be cache-resident. No upper cap:
 * a socket's 504 MiB L3 needs a 1 GiB set whatever that costs; the cost is
 * held by the lead-in and the regions the budget already prices, not by a
 * set inside the cache. "The largest cache" is the OS's, or where the OS
 * reports none, what the plan knows (exp/cache_sizes.h after the curve). */
#define POLICY_MEMORY_SET_MIN_BYTES ((size_t)256 << 20)

/* The smallest power of two at least times x bytes, and at least the minimum. */
static inline size_t policy_memory_set_times(size_t largest_cache_bytes, size_t times)
{
	size_t set = POLICY_MEMORY_SET_MIN_BYTES;

	while (set < times * largest_cache_bytes && set < ((size_t)1 << 62))
		set *= 2;
	return set;
}

static inline size_t policy_memory_set_bytes(size_t largest_cache_bytes)
{
	return policy_memory_set_times(largest_cache_bytes, 8);
}

static inline size_t policy_memory_set_floor_bytes(size_t largest_cache_bytes)
{
	return policy_memory_set_times(largest_cache_bytes, 2);
}

#endif
