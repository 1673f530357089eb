/*
 * Run policy in one place: the defaults, limits and --quick caps that more
 * than one file would otherwise repeat as literals (the option table, the
 * plan, the sections' parameter builders in exp/registry.c). A section's own
 * structural bounds (array sizes of its result) stay in its header.
 * Nothing here reads the machine; the plan applies these to it.
 */
#ifndef MLPSCOPE_POLICY_H
#define MLPSCOPE_POLICY_H

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

/* --quick caps what a default (no --size) run sweeps: still far past every
 * cache, since building and walking chains is most of a quick run. The
 * working set (mlp, and latency's upper bound before its own cap) is 8x the
 * largest reported cache, latency's largest size 4x; never under 256 MiB. */
#define POLICY_QUICK_MIN_BYTES ((size_t)256 << 20)
#define POLICY_QUICK_WORKING_SET_FACTOR 8
#define POLICY_QUICK_LATENCY_FACTOR 4

/* factor x the largest cache, at least POLICY_QUICK_MIN_BYTES. */
static inline size_t policy_quick_cap_bytes(size_t largest_cache_bytes, size_t factor)
{
	size_t cap = factor * largest_cache_bytes;

	return cap > POLICY_QUICK_MIN_BYTES ? cap : POLICY_QUICK_MIN_BYTES;
}

#endif
