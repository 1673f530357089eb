/*
 * Level planning for mlp --levels. Where the latency section ran, each cache
 * row sits in the middle of the plateau its steady curve shows for that
 * cache: a guest may be shown a whole socket's L3 and keep only a share of
 * it (4-14 MiB of 260 MiB on one Intel guest), and a row at half the OS's
 * size would then time memory; a guest that reports no cache at all (as one
 * 2-vCPU guest does) still gets a row per cache the curve shows, each standing
 * for the cache of its rank (exp/cache_sizes.h). Without the curve: half of the OS's size,
 * not all of it (the chain must stay resident beside the stack, the code and
 * the other cores' lines, and a random cycle over exactly the capacity
 * misses often in a set-associative cache), named as the OS's claim.
 */
#include "exp/mlp_levels.h"

#include "core/topo.h"
#include "exp/cache_sizes.h"

#include <math.h>

#include <stdio.h>
#include <string.h>

/* The geometric middle of a plateau, in whole lines. */
static size_t plateau_middle(const struct latency_curve_level *l)
{
	return (size_t)sqrt((double)l->first_bytes * (double)l->size_bytes) / 64 * 64;
}

/* The row for cache level `cache` (the last cache above the L2 when
 * last) from the curve, where it shows one below the memory set. */
static bool from_curve(struct mlp_level *lv, const struct latency_curve *lat, unsigned cache, bool last,
		       size_t past_bytes)
{
	bool by_rank;
	const struct latency_curve_level *l = cache_sizes_curve_level(lat, cache, last, &by_rank);
	size_t mid = l ? plateau_middle(l) : 0;
	unsigned rank;

	if (!mid || mid >= past_bytes)
		return false;
	rank = cache_sizes_curve_rank(lat, (unsigned)(l - lat->levels), &by_rank);
	lv->working_set_bytes = mid;
	lv->size_source = CACHE_FROM_CURVE;
	snprintf(lv->size_from, sizeof(lv->size_from), "middle of the latency curve's L%u plateau (%zu-%zu KiB)%s", rank,
		 l->first_bytes >> 10, l->size_bytes >> 10, by_rank ? ", by rank: the OS names no such cache" : "");
	return true;
}

unsigned mlp_levels_plan(const struct topo *t, size_t past_bytes, struct mlp_level *lv)
{
	return mlp_levels_plan_curve(t, NULL, past_bytes, lv);
}

unsigned mlp_levels_plan_curve(const struct topo *t, const struct latency_curve *lat, size_t past_bytes,
			       struct mlp_level *lv)
{
	size_t l2 = topo_cache_bytes_at(t, 2), llc = topo_largest_cache_bytes(t);
	unsigned n = 0;

	memset(lv, 0, MLP_LEVELS * sizeof(*lv));
	if (from_curve(&lv[n], lat, 2, false, past_bytes)) {
		lv[n++].name = "L2";
	} else if (l2 >= 64 * 1024 && l2 / 2 < past_bytes) {
		lv[n].name = "L2";
		lv[n].size_source = CACHE_FROM_OS;
		lv[n].working_set_bytes = l2 / 2;
		snprintf(lv[n].size_from, sizeof(lv[n].size_from), "half the L2 the OS reports (%zu KiB)", l2 >> 10);
		n++;
	}
	if (from_curve(&lv[n], lat, 0, true, past_bytes)) {
		lv[n++].name = "last cache";
	} else if (llc > l2 && llc / 2 < past_bytes) {
		lv[n].name = "last cache";
		lv[n].size_source = CACHE_FROM_OS;
		lv[n].working_set_bytes = llc / 2;
		snprintf(lv[n].size_from, sizeof(lv[n].size_from), "half the largest cache the OS reports (%zu KiB)",
			 llc >> 10);
		n++;
	}
	lv[n].name = "past the last cache";
	lv[n].size_source = "memory set";
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

unsigned mlp_levels_mark_falls(struct mlp_level *lv, unsigned n)
{
	double top = 0;
	unsigned falls = 0;

	for (unsigned i = 0; i < n; i++) {
		lv[i].non_monotonic = false;
		if (!lv[i].measured || !isfinite(lv[i].t1_ns))
			continue;
		if (top > 0 && lv[i].t1_ns < top * (1 - mlp_level_floor_frac(&lv[i]))) {
			lv[i].non_monotonic = true;
			lv[i].fall_pct = 100 * (1 - lv[i].t1_ns / top);
			falls++;
		}
		top = fmax(top, lv[i].t1_ns);
	}
	return falls;
}

double mlp_level_floor_frac(const struct mlp_level *lv)
{
	return fmax(isfinite(lv->noise_floor_pct) ? lv->noise_floor_pct / 100 : 0, 0.02);
}

bool mlp_level_saturated(const struct mlp_level *lv)
{
	double floor = mlp_level_floor_frac(lv);

	return lv->measured && lv->plateau_concurrency > 0 &&
	       lv->peak_concurrency <= lv->plateau_concurrency * (1 + 2 * floor);
}
