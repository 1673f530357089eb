/*
 * The lanes sweep at one working set per level of the hierarchy: in the L2,
 * in the last cache and past it, from the cache sizes the OS reports. The
 * total footprint (the whole cycle) is what is held at each size; each lane
 * walks its own stretch of it. Where the saturation moves between levels,
 * it was not one queue's capacity. Plans and summarises; mlp_run measures.
 */
#ifndef MLPSCOPE_EXP_MLP_LEVELS_H
#define MLPSCOPE_EXP_MLP_LEVELS_H

#include <stdbool.h>
#include <stddef.h>

#include "exp/latency_curve.h"
#include "kern/lanes.h"

#define MLP_LEVELS 3

struct topo;

struct mlp_level {
	const char *name;             /* "L2", "last cache", "past the last cache" */
	size_t working_set_bytes;
	char size_from[128];          /* words: how the size was chosen */
	const char *size_source;      /* "latency curve", "OS-reported", "memory set" */
	bool measured;
	bool from_main_sweep;         /* the section's own sweep, not run again */
	bool resident;                /* a cache level whose t(1) is under a quarter of the
	                               * memory level's: its chain stayed in that cache */
	double t1_ns, ks, ks_uncertainty, plateau_concurrency, peak_concurrency;
	unsigned peak_lanes, plateau_from_lanes;
	double noise_floor_pct;
	bool layout_ok;
	unsigned npoints;
	double ns_per_access[LANES_MAX], concurrency[LANES_MAX];
	double seconds;
	bool non_monotonic;           /* t1_ns below a smaller level's beyond the floor (mlp_levels_mark_falls) */
	double fall_pct;              /* with it: 100 * (1 - t1_ns / that level's) */
};

/* Whether a level's sweep saturated: its peak concurrency is within two
 * of its own floors (at least 2% each) of its plateau. A curve still rising
 * at the largest K, or one that alternates (odd and even K apart), has a
 * peak far above the plateau the fit reports, and that fit's Ks and +/-
 * describe no saturation. Pure. */
bool mlp_level_saturated(const struct mlp_level *lv);

/* The floor that check judges by, as a fraction: the level's own (or the
 * run's, where its sweep borrowed it), at least 2%. Pure. */
double mlp_level_floor_frac(const struct mlp_level *lv);

/* Plan the levels: half the L2 and half the largest cache the OS reports
 * (when it is larger than the L2), then past_bytes (the main sweep's working
 * set). Returns how many were planned (1..MLP_LEVELS). */
unsigned mlp_levels_plan(const struct topo *t, size_t past_bytes, struct mlp_level *lv);

/* The same, each cache row at the geometric middle of the plateau the
 * latency curve lat shows for that cache (the L2; the last cache past it),
 * matched to the OS's cache or, where the OS names none, by its rank
 * (exp/cache_sizes.h), where lat has one; lat NULL: mlp_levels_plan. */
unsigned mlp_levels_plan_curve(const struct topo *t, const struct latency_curve *lat, size_t past_bytes,
			       struct mlp_level *lv);

/* Mark the cache levels whose t(1) is under a quarter of the last level's
 * (memory): a chain partly evicted by the other CPU's work (the last cache
 * is shared) is not a measurement of that cache. Here the L3 reads 22 ns
 * against 158; a run with a fifth of its hops missing read 52. A machine
 * whose last cache is slower than a quarter of memory gets no resident
 * last-cache level: conservative, model then says nothing from it. */
void mlp_levels_mark_resident(struct mlp_level *lv, unsigned n);

/* Levels come in working set ascending, and a larger set never reaches a
 * nearer level than a smaller one: t(1), one lane's latency, should not
 * fall from row to row. A measured level whose t1_ns lies more than its
 * floor (mlp_level_floor_frac) below the largest t1_ns of a smaller
 * measured level is marked non_monotonic. Returns how many. Pure. */
unsigned mlp_levels_mark_falls(struct mlp_level *lv, unsigned n);

#endif
