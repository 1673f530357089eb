/*
 * The core's side of the lanes kernels: each lanes_K run on a chain that
 * fits in the L1 data cache, so every load hits and the time per access is
 * what the core's own work costs (instructions, ports, spills), with no
 * memory-level parallelism to find. With the instruction counts of the
 * kernels (kern/lanes_count.h) it gives a sustained issue rate P measured
 * by the tool itself, for the model's u/P term. Never prints.
 */
#ifndef MLPSCOPE_EXP_MLP_CORE_H
#define MLPSCOPE_EXP_MLP_CORE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "core/clock.h"
#include "kern/lanes.h"

/* Bytes of the L1-resident chain: half of the smallest L1 data cache
 * mlpscope expects (16 KiB), so the stack and code fit beside it. */
#define MLP_CORE_CHAIN_BYTES 8192

struct mlp_core {
	bool measured;
	size_t chain_bytes;
	unsigned npoints;                    /* K = 1..npoints */
	double ns_per_access[LANES_MAX];     /* min over trials, L1-resident */
	double instructions_per_access[LANES_MAX];  /* 0: not counted */
	double loads_per_access[LANES_MAX];
	double stores_per_access[LANES_MAX];
	double issue_per_ns;                 /* P: the best instructions/ns over K */
	unsigned issue_at_lanes;             /* the K where P was seen */
	const char *count_source;            /* how the instruction counts were had */
};

/* Time lanes_1..lanes_max_lanes on an L1-resident chain, round-robin,
 * trials regions each, line_bytes apart. 0, -ENOMEM, -EPROTO (the small
 * chain's layout check failed), -EINTR. */
int mlp_core_run(unsigned max_lanes, unsigned trials, size_t line_bytes, uint64_t seed,
		 const struct clock_info *clock, volatile sig_atomic_t *stop, struct mlp_core *c);

#endif
