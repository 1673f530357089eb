/*
 * Level planning for mlp --levels. Half of a cache, not all of it: the
 * chain must stay resident beside the stack, the code and (for a shared
 * last cache) the other core's lines, and a random cycle over exactly the
 * capacity misses often in a set-associative cache. Sizes are the OS's
 * claims (a guest may be shown a whole socket's L3), named as such.
 */
#include "exp/mlp_levels.h"

#include <math.h>

#include "topo.h"

#include <stdio.h>
#include <string.h>

static size_t level_bytes(const struct topo *t, int level)
{
	size_t best = 0;

	for (int i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == level && strcmp(t->caches[i].type, "Instruction") &&
		    t->caches[i].size_bytes > best)
			best = t->caches[i].size_bytes;
	return best;
}

unsigned mlp_levels_plan(const struct topo *t, size_t past_bytes, struct mlp_level *lv)
{
	size_t l2 = level_bytes(t, 2), llc = topo_largest_cache_bytes(t);
	unsigned n = 0;

	memset(lv, 0, MLP_LEVELS * sizeof(*lv));
	if (l2 >= 64 * 1024 && l2 / 2 < past_bytes) {
		lv[n].name = "L2";
		lv[n].working_set_bytes = l2 / 2;
		snprintf(lv[n].size_from, sizeof(lv[n].size_from), "half the L2 the OS reports (%zu KiB)", l2 >> 10);
		n++;
	}
	if (llc > l2 && llc / 2 < past_bytes) {
		lv[n].name = "last cache";
		lv[n].working_set_bytes = llc / 2;
		snprintf(lv[n].size_from, sizeof(lv[n].size_from), "half the largest cache the OS reports (%zu KiB)",
			 llc >> 10);
		n++;
	}
	lv[n].name = "past the last cache";
	lv[n].working_set_bytes = past_bytes;
	snprintf(lv[n].size_from, sizeof(lv[n].size_from), "the mlp section's working set");
	lv[n].from_main_sweep = true;
	return n + 1;
}

void mlp_levels_mark_resident(struct mlp_level *lv, unsigned n)
{
	double mem = n ? lv[n - 1].t1_ns : 0;

	for (unsigned i = 0; i < n; i++)
		lv[i].resident = !lv[i].from_main_sweep && lv[i].measured && mem > 0 && lv[i].t1_ns < 0.25 * mem;
}

bool mlp_level_saturated(const struct mlp_level *lv)
{
	double floor = fmax(isfinite(lv->noise_floor_pct) ? lv->noise_floor_pct / 100 : 0, 0.02);

	return lv->measured && lv->plateau_concurrency > 0 &&
	       lv->peak_concurrency <= lv->plateau_concurrency * (1 + 2 * floor);
}
