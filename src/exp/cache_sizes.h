/*
 * The cache sizes a run sizes its sets by: the OS's claims where the
 * latency curve agrees or is absent, the curve's levels where the OS
 * reports nothing (a guest may show no cache at all) or something the curve
 * disproves (a guest shown a whole socket's L3 reaches a share of it). A
 * curve level the OS names no cache for takes its rank among the curve's
 * cache levels (TLB steps and the level reaching the largest size are not
 * caches). Each size says where it came from, for the report.
 */
#ifndef MLPSCOPE_EXP_CACHE_SIZES_H
#define MLPSCOPE_EXP_CACHE_SIZES_H

#include <stdbool.h>
#include <stddef.h>

struct latency_curve;
struct latency_curve_level;
struct topo;

#define CACHE_FROM_CURVE "latency curve"
#define CACHE_FROM_OS "OS-reported"
#define CACHE_FROM_NONE "none"

struct cache_size {
	size_t bytes;            /* 0: unknown */
	const char *from;        /* CACHE_FROM_* */
};

struct cache_sizes {
	struct cache_size l2;
	struct cache_size largest;   /* the largest data cache (the last level) */
};

/* The cache level curve level k stands for: the OS's it was matched to,
 * else its rank among the curve's caches (*by_rank set); 0 for a TLB step
 * or the level that reaches the largest size. */
unsigned cache_sizes_curve_rank(const struct latency_curve *lat, unsigned k, bool *by_rank);

/* The curve's level standing for cache level `cache` (the highest above
 * the L2 when last), NULL when the curve shows none. lat may be NULL. */
const struct latency_curve_level *cache_sizes_curve_level(const struct latency_curve *lat, unsigned cache,
							   bool last, bool *by_rank);

/* The L2 and the largest cache from t (the OS) and lat (the curve; NULL
 * where latency did not run), as the header says. */
void cache_sizes_of(const struct topo *t, const struct latency_curve *lat, struct cache_sizes *out);

#endif
