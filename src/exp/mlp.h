/*
 * The lanes experiment: K independent dependent chains over one Sattolo
 * cycle, total accesses held fixed while K sweeps, giving the core's
 * achievable memory-level parallelism. Never prints, never parses options.
 */
#ifndef MLPSCOPE_EXP_MLP_H
#define MLPSCOPE_EXP_MLP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "result.h"

struct mlp_params {
	size_t working_set_bytes;
	size_t spacing_bytes;
	size_t line_bytes;
	enum page_request pages;
	unsigned max_lanes;       /* 1..LANES_MAX */
	unsigned repeats;         /* 1..16 */
	unsigned trials;          /* per point per repeat, a multiple of 3 */
	size_t accesses;          /* per timed region, H */
	uint64_t seed;
	const struct clock_info *clock;
	volatile sig_atomic_t *stop;   /* set asynchronously: finish early */
	void (*progress)(void *ctx, double fraction);
	void *progress_ctx;
	chain_offset_fn layout;   /* NULL: linear; tests pass a broken one */
};

/* Map, build, verify and sweep. Returns 0; -EINTR when *stop was raised;
 * -EPROTO when the layout check failed (result->layout says how); other
 * -errno for resources. On -EPROTO the result holds the layout check only. */
int mlp_run(const struct mlp_params *p, struct mlp_result *result);

/* Groups of this many trials form one min-of-N estimate. */
#define MLP_TRIAL_GROUP 3

#endif
