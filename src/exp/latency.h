/*
 * The latency hierarchy: ns per dependent load across working sets from a
 * few KiB to beyond the last-level cache, each measured as a random chase
 * (latency) and as a +line sequential chain (a stream the prefetcher can
 * follow), on huge pages and, at the largest sizes, on small pages too.
 * Relies on a random chain defeating every prefetcher, one node per cache
 * line, and on a 2 MiB page covering what a 4 KiB page needs 512 TLB entries
 * for. Never prints, never parses options.
 */
#ifndef MLPSCOPE_EXP_LATENCY_H
#define MLPSCOPE_EXP_LATENCY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/chain.h"
#include "core/clock.h"
#include "exp/curve_falls.h"
#include "exp/latency_curve.h"

#define LATENCY_POINTS_MAX 128
#define LATENCY_TRIALS_MAX 16
#define LATENCY_LEVELS_MAX 16
#define LATENCY_FALLS_MAX 32
#define LATENCY_CACHES_MAX 8
#define LATENCY_TLB_MAX 4
#define LATENCY_KNEES_MAX 16
/* Re-timing a point above a fall: blocks of trials / passes regions each,
 * at most this many regions and points (see latency.c). */
#define LATENCY_RETIME_BLOCKS 2
#define LATENCY_RETIME_TRIALS 16
#define LATENCY_RETIME_POINTS_MAX 8
/* Placement: the sets at each cache level's end and just past
 * it, timed on the arena and on a second allocation of their own (other
 * physical pages), blocks alternated (see latency.c). At most this many
 * points, blocks per allocation, and regions per allocation. */
#define LATENCY_PLACEMENT_POINTS_MAX 6
#define LATENCY_PLACEMENT_BLOCKS 3
#define LATENCY_PLACEMENT_TRIALS 9
/* Rounds of it: a round that moves a level's end places the new end's points. */
#define LATENCY_PLACEMENT_ROUNDS 3
/* The placement round's share of the sweep's own time (the budget prices
 * the same share). */
#define LATENCY_PLACEMENT_SHARE 0.10

struct latency_result;

struct latency_params {
	size_t min_bytes;            /* smallest working set; 0: 4 KiB */
	size_t max_bytes;            /* largest; 0: 1 GiB */
	unsigned points_per_octave;  /* 0: 4 */
	size_t dense_max_bytes;      /* above it one point per octave; 0: 4x the largest reported cache, else 128 MiB */
	size_t small_pages_from_bytes; /* curve sizes >= this also on small pages; 0: the largest only */
	size_t reported_cache_bytes[LATENCY_CACHES_MAX]; /* data/unified, L1 first; 0 ends the list */
	bool points_near_caches;     /* add points from 3/4 to 3/2 of each reported size */
	unsigned trials;             /* timed regions per slot; 0: 6, at most LATENCY_TRIALS_MAX */
	/* The plan's work, plain fields a cost model can read (0: defaults):
	 * the trials are split over `passes` sweeps of every size (ascending,
	 * then descending), each size timed as a block; a set up to
	 * warm_max_bytes gets `warm_walks` full untimed walks before its block
	 * and more while each reads faster than the last (at most
	 * LATENCY_WARM_WALKS_MAX),
	 * a larger one a lead-in of one load per 4 KiB; then each settles
	 * (regions until one is no faster than the one before, at most
	 * min(4 walks, 16 regions) of loads); every timed region walks
	 * region_hops loads, whatever the set's size. */
	unsigned passes;             /* 0: LATENCY_PASSES, at most trials */
	unsigned warm_walks;         /* 0: 1 */
	size_t warm_max_bytes;       /* 0: the largest reported cache, else 64 MiB */
	size_t region_hops;          /* loads per timed region, kept as given; 0: LATENCY_REGION_HOPS,
	                              * raised where shorter than the clock's minimum region */
	unsigned reference_walks;    /* back-to-back walks behind each level's warm reference; 0: LATENCY_REFERENCE_WALKS */
	size_t line_bytes;           /* node spacing; 0: 64 */
	double noise_floor_pct;      /* from noise_run: the tolerance for levels and falls */
	double core_mhz_min, core_mhz_max; /* core clock estimate; 0: unknown */
	bool core_clock_unsteady;    /* its samples spread beyond the tolerance: no cycles derived */
	uint64_t seed;
	const struct clock_info *clock;
	volatile sig_atomic_t *stop; /* may be NULL */
	void (*progress)(void *ctx, double fraction);
	void *progress_ctx;
	/* What the sweep concludes from its own timings mid-run (levels pick
	 * each level's warm reference, falls the points to time again):
	 * analyse/latency_levels.h's latency_derive. Required; the caller
	 * passes it so exp/ measures and analyse/ concludes without exp/
	 * reading analyse/ (which reads exp/'s result shapes). */
	void (*derive)(struct latency_result *r, const struct latency_params *p);
	chain_offset_fn layout;      /* random chains' layout; NULL: linear; tests pass a broken one */
	/* Tests only: no untimed lead-in before the blocks of sets too large
	 * to warm, or no warm walk before those small enough; each breaks the
	 * steady state on purpose, so the steady-state check (whose own visit
	 * keeps both) can be seen to fire. */
	bool no_lead_in;
	bool no_warm_walk;
	/* --quick: no whole walks at the largest size (whole_walk_ns_at_max NAN). */
	bool no_whole_walk;
	/* Tests only: leave a point above a fall as the sweep read it. */
	bool no_retime;
	/* Tests only (and --quick): no second allocation at the levels' ends. */
	bool no_placement;
	/* Tests only: a timing model in place of the hardware. When set, no
	 * memory is mapped and no chain is built; each timed region's ns per
	 * load is what it returns, given the set, the region's loads and the
	 * loads walked on the same chain since another chain was last walked
	 * (what a model of eviction needs). */
	double (*region_model)(void *ctx, size_t size_bytes, bool stream, size_t loads, size_t warm_loads);
	void *region_model_ctx;
	unsigned steady_visits;      /* visits behind each steady-state check; 0: LATENCY_STEADY_VISITS */
	/* TLB steps measured by the tlb section on huge pages, for labelling
	 * knees and for a level's end (a TLB step inside a cache level is not
	 * the level's end); ntlb 0: none measured. */
	unsigned ntlb;
	size_t tlb_reach_bytes[LATENCY_TLB_MAX];  /* ascending */
	double tlb_extra_ns[LATENCY_TLB_MAX];     /* cumulative extra per load past that reach */
};

struct latency_point {
	size_t size_bytes;
	enum page_request pages;     /* requested */
	double huge_fraction;        /* obtained, over the arena holding the point */
	double chase_ns;             /* random chase: min over trials, ns per load (latency) */
	double stream_ns;            /* +line sequential chain: min over trials, ns per load */
	double prefetch_ratio;       /* chase_ns / stream_ns */
	double chase_cycles_min, chase_cycles_max; /* from core_mhz_*; NAN when unknown or not steady */
	double chase_trials_ns[LATENCY_TRIALS_MAX];  /* visit order */
	/* A point that read slower than a larger set after it is timed again
	 * (see latency.c, "re-timing"): sweep_chase_ns is the sweep's own
	 * minimum, chase_ns the minimum over both; nretime 0: not re-timed. */
	double sweep_chase_ns;
	double retime_trials_ns[LATENCY_RETIME_TRIALS];
	unsigned nretime;
	/* Placement: the set timed on two allocations, blocks alternated in
	 * time: [0] the arena's chain, [1] a chain of the same permutation in
	 * a mapping of its own. nalloc_trials regions each; 0: not checked.
	 * alloc_ns the minimum of each, placement_spread_pct 100 * (slower /
	 * faster - 1), placement_sensitive when the slower one's minimum is
	 * beyond the tolerance above every block of the faster one
	 * (latency_placement_judge); chase_ns is then the minimum over both. */
	double alloc_trials_ns[2][LATENCY_PLACEMENT_TRIALS];
	unsigned nalloc_trials;
	double alloc_ns[2];
	double placement_spread_pct;
	bool placement_sensitive;
	double stream_trials_ns[LATENCY_TRIALS_MAX];
	unsigned ntrials;
	size_t chase_hops, stream_hops;/* loads per timed region */
	bool warmed;                 /* full untimed walks preceded each block of its trials */
	size_t settle_loads;         /* past warm_walks walks or the lead-in, the most loads any block took to
	                              * settle (walks while they got faster, then regions) */
	size_t lead_in_hops;         /* else: untimed loads before each block, 0: none */
	/* Steady-state check (every size): the same chase after its own warm
	 * walk (or lead-in), timed over regions 4x longer, min over
	 * steady_visits visits, after every size's trials; NAN where not checked. */
	double steady_long_ns;
	double steady_diff_pct;      /* 100 * (chase_ns / steady_long_ns - 1): flagged above the
	                              * tolerance (one-sided: cold structures only slow a region) */
	bool steady_checked;
	bool steady_ok;              /* within the tolerance, or not checked */
	bool layout_ok;              /* both chains' layout checks */
	struct layout_check chase_layout, stream_layout;
	uint64_t perm_hash;
};

/* A plateau of the chase curve: consecutive points within the tolerance. */
struct latency_level {
	unsigned level;              /* 1 = fastest */
	size_t first_bytes;          /* first working set on the plateau */
	size_t size_bytes;           /* last one: where the level ends, i.e. the last
	                              * size whose latency stays within the tolerance
	                              * of the plateau (plus any TLB step measured
	                              * there); compared with the OS-reported size */
	size_t capacity_bytes;       /* second figure: where the rise to the next level
	                              * is half done (geometric mean of the two
	                              * latencies); 0 for the last level or when the
	                              * curve never gets there */
	double latency_ns;           /* median chase ns over the plateau */
	unsigned npoints;
	bool reaches_max;            /* runs to the largest size: not seen to end */
	size_t reported_bytes;       /* OS-reported cache matched to this level by size, 0: none */
	unsigned cache_level;        /* that cache's level (1 = L1), 0: none */
	bool disagrees;              /* the end beyond a factor of 2 from the OS cache of the same
	                              * rank, and no OS cache within 2x of it */
	bool tlb;                    /* starts at a measured TLB reach: a TLB step, not a cache */
};

/* An OS-reported cache the curve shows no plateau for: it lies between the
 * end of one level and the start of the next. */
struct latency_missing {
	size_t reported_bytes;
	unsigned cache_index;        /* into reported_cache_bytes: 0 is L1 */
	size_t after_bytes;          /* end of the level before it (0: none) */
	size_t before_bytes;         /* start of the level after it (0: none) */
	double after_ns, before_ns;  /* latency at those two sizes */
};

/* A rise of the curve by more than the tolerance between two adjacent
 * points, labelled by what explains it. */
struct latency_knee {
	size_t from_bytes, to_bytes;
	double from_ns, to_ns;
	bool tlb;                    /* at a measured TLB reach, and no larger than its step */
	size_t tlb_reach_bytes;      /* the reach it starts at, 0: a cache level's end */
	double tlb_step_ns;          /* what that TLB step adds per load */
};

/* A level's warm reference: at the curve point in the level's middle, the
 * same chase walked back to back (a full walk, then reference_walks
 * consecutive walks of the whole set, or of 4x region_hops past
 * warm_max_bytes), the minimum: what a plain warm chase reads there. */
struct latency_reference {
	unsigned level;              /* 1 = fastest; the last may be memory */
	unsigned point;              /* into points[] */
	size_t size_bytes;
	double curve_ns;             /* the point's chase_ns */
	double warm_ns;              /* back to back */
	size_t loads;                /* per timed walk */
	double diff_pct;             /* 100 * (curve_ns / warm_ns - 1) */
	bool agrees;                 /* the curve no slower than the tolerance above it */
};

struct latency_result {
	struct latency_point points[LATENCY_POINTS_MAX];
	unsigned npoints;            /* all: the huge-page curve first, then small pages */
	unsigned ncurve;             /* the huge-page curve, ascending size */
	size_t max_bytes;
	size_t line_bytes;
	unsigned trials;
	size_t arena_huge_bytes, arena_huge_obtained_bytes;
	size_t arena_small_bytes, arena_small_obtained_bytes; /* 0: no small-page arena */
	int collapse_errno;
	double noise_floor_pct;      /* as given */
	double tolerance_pct;        /* used for levels: max(floor, LATENCY_LEVEL_MIN_STEP_PCT) */
	unsigned passes, warm_walks, reference_walks; /* the plan used */
	size_t warm_max_bytes, region_hops;
	struct latency_level levels[LATENCY_LEVELS_MAX];
	unsigned nlevels;
	struct latency_missing missing[LATENCY_CACHES_MAX];
	unsigned nmissing;           /* OS caches with no plateau of their own */
	struct latency_knee knees[LATENCY_KNEES_MAX];
	unsigned nknees;
	unsigned steady_checked;     /* points with a steady-state check */
	unsigned steady_failed;      /* of those, differing beyond the tolerance */
	struct latency_reference refs[LATENCY_LEVELS_MAX];
	unsigned nrefs;              /* one per cache level and memory (TLB steps take none) */
	unsigned refs_disagree;      /* of those, the curve slower beyond the tolerance */
	struct curve_fall falls[LATENCY_FALLS_MAX]; /* x: working set (bytes), y: chase (ns) */
	unsigned nfalls;             /* stored */
	size_t nfalls_found;         /* may exceed nfalls */
	size_t nfalls_sweep;         /* found before re-timing (the sweep's own curve) */
	unsigned nretimed;           /* points re-timed because a larger set read faster */
	unsigned retime_skipped;     /* points above a fall left as the sweep read them (cap or cost) */
	unsigned nplaced;            /* points timed on a second allocation */
	unsigned placement_skipped;  /* picked but left out (cost, memory, or its chain's check) */
	unsigned placement_sensitive;/* of the placed, the allocations disagreeing beyond the tolerance */
	double chase_ns_at_max;      /* huge pages */
	double stream_ns_at_max;
	double prefetch_ratio_at_max;/* chase / stream at max: the prefetcher, by subtraction */
	double small_chase_ns_at_max;/* NAN without a small-page point at max */
	/* The memory set's second estimator: chase_ns_at_max is the
	 * minimum over regions of region_hops loads, which on a shared host can
	 * pick its quietest moments; this is the minimum of LATENCY_WHOLE_WALKS
	 * walks of whole_walk_loads each (the whole set, at most
	 * LATENCY_WHOLE_WALK_MAX_LOADS), after the set's lead-in, as a plain
	 * chase times it. NAN: not measured (--quick, or a test's model). */
	double whole_walk_ns_at_max;
	size_t whole_walk_loads;
	/* In the same block, right after the whole walk: the minimum of
	 * LATENCY_WHOLE_WALK_REGIONS regions of region_hops loads, the
	 * headline's estimator at the whole walk's moment. Their difference is
	 * the estimators'; the headline's from the whole walk less it is the
	 * host's moment (the sweep's memory-set blocks ran tens of seconds
	 * earlier). NAN when the whole walk is. */
	double whole_walk_regions_ns;
	double translation_ns_at_max;/* small - huge chase at max, by subtraction */
	double core_mhz_min, core_mhz_max;
	bool core_clock_unsteady;    /* as given: the cycle figures are NaN */
	uint64_t seed;
	double setup_seconds, sweep_seconds;
};


/* Visits of the 4x-longer region behind each steady-state check (default). */
#define LATENCY_STEADY_VISITS 2
/* Loads per timed region (default): fixed, so a region's cost is known
 * before it runs and a set of any size is timed over the same work. */
#define LATENCY_REGION_HOPS 65536
/* Sweeps over the sizes the trials are split across (default): the second
 * runs descending, so clock drift lands on both ends of the curve. */
#define LATENCY_PASSES 2
/* A block has settled when a region after its warm start reads no faster
 * than the region before by more than this (see latency.c). */
#define LATENCY_SETTLE_PCT 2.0
/* Whole walks before a block of a set up to warm_max_bytes, at most: more
 * while each reads faster than the one before (see latency.c). */
#define LATENCY_WARM_WALKS_MAX 8
/* The whole-walk figure at the largest size: walks, and loads per walk at
 * most (a plain chase's long regions past 64 MiB, bench/warm_chase.c). */
#define LATENCY_WHOLE_WALKS 1
#define LATENCY_WHOLE_WALK_REGIONS 6
#define LATENCY_WHOLE_WALK_MAX_LOADS ((size_t)4 << 20)
/* Back-to-back walks behind each warm reference (default). */
#define LATENCY_REFERENCE_WALKS 5

/* Untimed loads of the lead-in before a set past warm_max_bytes is timed:
 * one per 4 KiB of the set, 16K to 256K (the budget prices the same). */
size_t latency_lead_in_loads(size_t size_bytes);



/* The curve points the placement round times on a second allocation:
 * for each cache level (not a TLB step, not running to the largest size)
 * the last point of its plateau and the first past it, huge pages, sets
 * up to r->warm_max_bytes, not placed yet (nalloc_trials 0), ascending, at
 * most cap. Pure: r's levels and points as latency_derive left them. */
unsigned latency_placement_pick(const struct latency_result *r, unsigned *pick, unsigned cap);

/* Plan, map, build and verify every chain (layout check at every size), then
 * sweep the sizes in blocks, check each, and time each level's warm
 * reference. Returns 0; -EINVAL for bad params; -EPROTO when a layout
 * check failed (the failing point's layout says how; nothing was timed);
 * -EINTR when *stop was raised; other -errno for resources. */
int latency_run(const struct latency_params *p, struct latency_result *r);

#endif
