/*
 * The lanes kernels on an L1-resident chain. Every lane starts at a
 * different node of one 128-node cycle, so K lanes are K independent
 * chains as in the real sweep; with every load an L1 hit the loop runs at
 * the rate the core sustains for this instruction mix (for small K, the L1
 * hit latency / K instead, which is why P is the best rate over K and not
 * the rate at each K). Regions are long enough (about 64k accesses) to keep
 * the timer's cost under 1% at a fraction of a nanosecond per access.
 */
#include "exp/mlp_core.h"

#include "core/chain.h"
#include "kern/lanes_count.h"
#include "core/stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CORE_ACCESSES 65536
#define CORE_TRIALS_MAX 16

int mlp_core_run(unsigned max_lanes, unsigned trials, size_t line_bytes, uint64_t seed,
		 const struct clock_info *clock, volatile sig_atomic_t *stop, struct mlp_core *c)
{
	struct chain ch = {0};
	struct layout_check check;
	uintptr_t starts[LANES_MAX], sink = 0;
	double (*t)[CORE_TRIALS_MAX] = NULL;
	char *base = NULL;
	int rc;

	memset(c, 0, sizeof(*c));
	if (max_lanes > LANES_MAX)
		max_lanes = LANES_MAX;
	if (trials > CORE_TRIALS_MAX)
		trials = CORE_TRIALS_MAX;
	if (!trials)
		trials = 1;
	c->chain_bytes = MLP_CORE_CHAIN_BYTES;
	c->count_source = lanes_count_source();
	base = aligned_alloc(4096, MLP_CORE_CHAIN_BYTES);
	t = calloc(LANES_MAX, sizeof(*t));
	rc = -ENOMEM;
	if (!base || !t)
		goto out;
	if ((rc = chain_build_verified(&ch, base, MLP_CORE_CHAIN_BYTES, line_bytes, line_bytes, seed,
				       chain_offset_linear, &check)))
		goto out;
	/* The first trial warms the code and the chain; it is kept (the
	 * minimum ignores it) rather than adding an untimed pass. */
	for (unsigned tr = 0; tr < trials; tr++) {
		for (unsigned k = 1; k <= max_lanes; k++) {
			size_t steps = CORE_ACCESSES / k;
			uint64_t t0, t1;

			if (*stop) {
				rc = -EINTR;
				goto out;
			}
			for (unsigned i = 0; i < k; i++)
				starts[i] = chain_node_at(&ch, (size_t)i * ch.nodes / k);
			t0 = clock_now();
			sink ^= lanes_kernel(k)(starts, steps);
			t1 = clock_now();
			t[k - 1][tr] = clock_ticks_to_ns(clock, t1 - t0) / (double)(steps * k);
		}
	}
	c->npoints = max_lanes;
	for (unsigned k = 1; k <= max_lanes; k++) {
		struct lanes_count lc;

		c->ns_per_access[k - 1] = stats_min(t[k - 1], trials);
		if (!lanes_count_for(k, &lc))
			continue;
		c->instructions_per_access[k - 1] = lc.instructions_per_access;
		c->loads_per_access[k - 1] = lc.loads_per_access;
		c->stores_per_access[k - 1] = lc.stores_per_access;
		double rate = lc.instructions_per_access / c->ns_per_access[k - 1];

		if (rate > c->issue_per_ns) {
			c->issue_per_ns = rate;
			c->issue_at_lanes = k;
		}
	}
	c->measured = true;
	/* keep the walks live */
	if (sink == 1)
		c->chain_bytes++;
	rc = 0;
out:
	chain_free(&ch);
	free(base);
	free(t);
	return rc;
}
