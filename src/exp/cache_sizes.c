/*
 * Cache sizes from the OS's claims and the measured curve. A level's end
 * (the last size on its plateau) is the curve's size for that cache: past
 * it the chase misses it. The OS's claim stands unless the curve disproves
 * it (latency marks a matched level that ends beyond a factor of 2 of the
 * OS's size as disagreeing) or there is none; a cache the curve shows no
 * plateau for is not disproved, only unseen, so its claim stays too.
 */
#include "exp/cache_sizes.h"

#include "core/topo.h"
#include "exp/latency_curve.h"

unsigned cache_sizes_curve_rank(const struct latency_curve *lat, unsigned k, bool *by_rank)
{
	unsigned rank = 0;

	*by_rank = false;
	if (!lat || k >= lat->nlevels)
		return 0;
	for (unsigned i = 0; i <= k; i++)
		rank += !lat->levels[i].tlb && !lat->levels[i].reaches_max;
	if (lat->levels[k].tlb || lat->levels[k].reaches_max)
		return 0;
	if (lat->levels[k].cache_level)
		return lat->levels[k].cache_level;
	*by_rank = true;
	return rank;
}

const struct latency_curve_level *cache_sizes_curve_level(const struct latency_curve *lat, unsigned cache,
							   bool last, bool *by_rank)
{
	const struct latency_curve_level *best = NULL;
	unsigned best_c = 0;

	*by_rank = false;
	for (unsigned k = 0; lat && k < lat->nlevels; k++) {
		bool rank;
		unsigned c = cache_sizes_curve_rank(lat, k, &rank);

		if (c && (last ? c > 2 && c > best_c : c == cache)) {
			best = &lat->levels[k];
			best_c = c;
			*by_rank = rank;
		}
	}
	return best;
}

/* One cache: the OS's size at level (0: the largest) unless the curve's
 * level for it disproves it or the OS states none. */
static struct cache_size pick(const struct topo *t, const struct latency_curve *lat, int level)
{
	size_t os = level ? topo_cache_bytes_at(t, level) : topo_largest_cache_bytes(t);
	const struct latency_curve_level *l = NULL;
	bool by_rank;

	if (level)
		l = cache_sizes_curve_level(lat, (unsigned)level, false, &by_rank);
	else if (!(l = cache_sizes_curve_level(lat, 0, true, &by_rank)))
		l = cache_sizes_curve_level(lat, 2, false, &by_rank);
	if (l && (!os || l->disagrees))
		return (struct cache_size){l->size_bytes, CACHE_FROM_CURVE};
	return (struct cache_size){os, os ? CACHE_FROM_OS : CACHE_FROM_NONE};
}

void cache_sizes_of(const struct topo *t, const struct latency_curve *lat, struct cache_sizes *out)
{
	out->l2 = pick(t, lat, 2);
	out->largest = pick(t, lat, 0);
}
