/*
 * What the latency curve says (levels, knees, falls, the figures at the
 * largest size), drawn from the timings exp/latency.c recorded: pure
 * functions over a curve (ascending sizes, ns per load, a tolerance) and the
 * derivation that fills a latency result from them. Measures nothing; the
 * sweep calls latency_derive through its parameters mid-run (levels pick
 * the warm references, falls the points to time again).
 */
#ifndef MLPSCOPE_ANALYSE_LATENCY_LEVELS_H
#define MLPSCOPE_ANALYSE_LATENCY_LEVELS_H

#include <stdbool.h>
#include <stddef.h>

#include "exp/latency.h"

/* A knee is a step up larger than this even when the noise floor is
 * smaller: a chase curve drifts a few percent inside one level (TLB reach,
 * replacement), which is not a new level. */
#define LATENCY_LEVEL_MIN_STEP_PCT 10.0
/* Adjacent plateaus closer than this factor are one level (see
 * latency_levels.c). */
#define LATENCY_LEVEL_MIN_RATIO 2.0
/* A plateau must span at least this factor of working-set size (over half
 * an octave) to be a level; shorter runs of agreeing points are a knee. */
#define LATENCY_LEVEL_MIN_SPAN 1.5

/* Whether a chase timed over short regions agrees with the same chase over
 * regions 4x longer: |short / long - 1| within tol_pct. Pure. */
bool latency_steady_agrees(double short_ns, double long_ns, double tol_pct);

/* The next point at or after *from (into r->points) whose steady-state
 * check failed, *from moved past it; NULL when none is left. Pure. */
const struct latency_point *latency_next_unsteady(const struct latency_result *r, unsigned *from);

/* Whether point p of the huge-page curve lies on the rise between two of
 * r's levels (in no level's first..end range; small-page points never do):
 * there a set only partly fits a cache, and where that cache is shared with
 * others its steady state moves with them, so a NOT STEADY flag there may be
 * the machine's, not the warm-up's. Pure. */
bool latency_on_a_rise(const struct latency_result *r, const struct latency_point *p);

/* One set on two allocations, their regions a[] and b[] (n each, per to a
 * block, blocks alternated in time so the host's moment lands on both):
 * min_ns[0..1] each allocation's minimum, *spread_pct 100 * (slower /
 * faster - 1). Returns whether the set is placement-sensitive (which
 * physical pages hold it decides its figure): the slower allocation's
 * minimum beyond tol_pct above every block minimum of the faster one, so
 * a spread a single block's moment explains is not. per 0: one block;
 * n 0: NANs, false. Pure. */
bool latency_placement_judge(const double *a, const double *b, unsigned n, unsigned per, double tol_pct,
			     double *min_ns, double *spread_pct);
/* Everything latency_run derives from its timings (it calls this through
 * latency_params.derive after the sweep and again after re-timing): from
 * r->points (chase and stream trials_ns, ntrials, steady_checked and
 * steady_long_ns, the retime and the two allocations' trials), r->ncurve,
 * r->noise_floor_pct and the arenas' backing, with p's reported caches,
 * TLB steps and core clock, fills each point's minima and steady verdict,
 * placement verdict (latency_placement_judge; the chase figure the minimum
 * over both allocations), steady_checked/failed and placement_sensitive
 * (r's counts start at 0), levels, missing caches,
 * knees, falls and the figures at the largest size. Pure. */
void latency_derive(struct latency_result *r, const struct latency_params *p);

/* The seam a test feeds a recorded or synthetic curve through: latency_derive,
 * and the sweep's own count of falls where nothing was re-timed. Pure. */
void latency_analyse(struct latency_result *r, const struct latency_params *p);

/* Levels of ns[] over ascending sizes[]: a point joins the current plateau
 * when it is within tol_pct of the previous point and within 2 * tol_pct of
 * the plateau's first point; plateaus of one point, or spanning less than
 * LATENCY_LEVEL_MIN_SPAN in size, are knees, except at the last point; a
 * plateau under LATENCY_LEVEL_MIN_RATIO times the level before it extends
 * that level. latency_ns is the median of a level's first plateau;
 * size_bytes (the end) the last size before the next level within tol_pct
 * of latency_ns plus the TLB's extra past each reach in tlb_reach[] (ntlb
 * 0: none); capacity_bytes where the rise to the next level reaches the
 * geometric mean of the two latencies. Returns the levels written (at most
 * cap; n at most LATENCY_POINTS_MAX); reported sizes are left 0. Pure. */
unsigned latency_detect_levels_tlb(const double *sizes, const double *ns, size_t n, double tol_pct,
				   const size_t *tlb_reach, const double *tlb_extra, unsigned ntlb,
				   struct latency_level *out, unsigned cap);
unsigned latency_detect_levels(const double *sizes, const double *ns, size_t n, double tol_pct,
			       struct latency_level *out, unsigned cap);

/* Set the OS-reported caches (reported[], L1 first, 0 ends it) against the
 * levels: a level whose end lies within 2x of a reported size takes it
 * (the closest); a level left over takes the reported cache of its rank
 * and disagrees; a level starting at a TLB reach (tlb_reach[], within 1.5x)
 * whose latency the TLB's extra explains is a TLB step and takes none. A
 * reported cache left over has no plateau of its own (missing[], at most
 * cap). Fills the levels' reported_bytes, cache_level (the reported
 * cache's index + 1: with a shared last cache of which a guest sees a
 * share, the level that plateaus well short of it is still that cache),
 * disagrees and tlb; returns the
 * number of missing caches. Pure. */
unsigned latency_match_reported(struct latency_level *levels, unsigned nlevels, const size_t *reported,
				const double *sizes, const double *ns, size_t n, double tol_pct,
				const size_t *tlb_reach, const double *tlb_extra, unsigned ntlb,
				struct latency_missing *missing, unsigned cap);

/* Knees at the TLB's reaches: for each reach, the curve from the last size
 * at or under it to the first at or past twice it, when that rises by more
 * than tol_pct; tlb is set when the rise is within the tolerance of what
 * that TLB step adds (tlb_extra[] cumulative), else a cache ends there too.
 * Writes at most cap, returns how many. Pure. */
unsigned latency_tlb_knees(const double *sizes, const double *ns, size_t n, double tol_pct,
			   const size_t *tlb_reach, const double *tlb_extra, unsigned ntlb, struct latency_knee *out,
			   unsigned cap);

#endif
