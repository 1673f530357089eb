/*
 * Level planning for mlp --levels. Where the latency section ran, each cache
 * row sits in the middle of the plateau its steady curve shows for that
 * cache: a guest may be shown a whole socket's L3 and keep only a share of
 * it (4-14 MiB of 260 MiB on one Intel guest), and a row at half the OS's
 * size would then time memory. Without the curve: half of the OS's size,
 * not all of it (the chain must stay resident beside the stack, the code and
 * the other cores' lines, and a random cycle over exactly the capacity
 * misses often in a set-associative cache), named as the OS's claim.
 */
#include "exp/mlp_levels.h"

#include <math.h>

#include "core/topo.h"

#include <stdio.h>
#include <string.h>

/* The curve's plateau for cache level `cache` (the highest past the L2 when
 * `last`), NULL when the curve shows none. */
static const struct latency_level *curve_level(const struct latency_result *lat, unsigned cache, bool last)
{
	const struct latency_level *best = NULL;

	for (unsigned i = 0; lat && i < lat->nlevels; i++) {
		const struct latency_level *l = &lat->levels[i];

		if (l->tlb || l->reaches_max || !l->cache_level)
			continue;
		if (last ? l->cache_level > 2 && (!best || l->cache_level > best->cache_level) : l->cache_level == cache)
			best = l;
	}
	return best;
}

/* The geometric middle of a plateau, in whole lines. */
static size_t plateau_middle(const struct latency_level *l)
{
	return (size_t)sqrt((double)l->first_bytes * (double)l->size_bytes) / 64 * 64;
}

static bool from_curve(struct mlp_level *lv, const struct latency_level *l, size_t past_bytes)
{
	size_t mid = l ? plateau_middle(l) : 0;

	if (!mid || mid >= past_bytes)
		return false;
	lv->working_set_bytes = mid;
	snprintf(lv->size_from, sizeof(lv->size_from), "middle of the latency curve's L%u plateau (%zu-%zu KiB)",
		 l->cache_level, l->first_bytes >> 10, l->size_bytes >> 10);
	return true;
}

unsigned mlp_levels_plan(const struct topo *t, size_t past_bytes, struct mlp_level *lv)
{
	return mlp_levels_plan_curve(t, NULL, past_bytes, lv);
}

unsigned mlp_levels_plan_curve(const struct topo *t, const struct latency_result *lat, size_t past_bytes,
			       struct mlp_level *lv)
{
	size_t l2 = topo_cache_bytes_at(t, 2), llc = topo_largest_cache_bytes(t);
	const struct latency_level *c2 = curve_level(lat, 2, false), *clast = curve_level(lat, 0, true);
	unsigned n = 0;

	memset(lv, 0, MLP_LEVELS * sizeof(*lv));
	if (from_curve(&lv[n], c2, past_bytes)) {
		lv[n++].name = "L2";
	} else if (l2 >= 64 * 1024 && l2 / 2 < past_bytes) {
		lv[n].name = "L2";
		lv[n].working_set_bytes = l2 / 2;
		snprintf(lv[n].size_from, sizeof(lv[n].size_from), "half the L2 the OS reports (%zu KiB)", l2 >> 10);
		n++;
	}
	if (from_curve(&lv[n], clast, past_bytes)) {
		lv[n++].name = "last cache";
	} else if (llc > l2 && llc / 2 < past_bytes) {
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
