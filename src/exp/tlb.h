/*
 * The TLB probe: ns per dependent load when each load touches another
 * 4 KiB page, swept in the number of pages, on small pages and on huge
 * pages. Its steps are the TLB levels (entries, reach, extra ns per load);
 * past the last one every load pays a page walk. Relies on a random order
 * defeating the prefetchers, on one line per page with a rotating offset (so
 * the data lines spread over every cache set and stay cache-resident), and
 * on a control chain of the same lines packed densely, which needs 64x
 * fewer pages. Never prints, never parses options.
 */
#ifndef MLPSCOPE_EXP_TLB_H
#define MLPSCOPE_EXP_TLB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpu_id.h"
#include "core/arena.h"
#include "core/clock.h"
#include "core/chain.h"
#include "exp/curve_falls.h"

#define TLB_POINTS_MAX 80
#define TLB_TRIALS_MAX 16
#define TLB_LEVELS_MAX 4
#define TLB_STRIDE_BYTES ((size_t)4096)
/* The smallest step counted, in ns per load, whatever the floor: below it
 * a step is the timer's and the loop's, not a TLB's. */
#define TLB_MIN_STEP_NS 0.3
/* The least tolerance a step is judged by, in percent of a load's time;
 * the run's floor where that is higher. */
#define TLB_MIN_TOLERANCE_PCT 10.0

struct tlb_params {
	unsigned min_pages;          /* 0: 8 */
	unsigned max_pages;          /* 0: 32768 (128 MiB of 4 KiB pages, 10x a 3072-entry L2 TLB) */
	unsigned points_per_octave;  /* 0: 4 */
	unsigned trials;             /* round-robin passes; 0: 5, at most TLB_TRIALS_MAX */
	double region_ns;            /* target timed region; 0: 200 us (never under clock->min_region_ns) */
	double noise_floor_pct;      /* from noise: the tolerance of a step */
	bool small_only;             /* skip the huge-page series */
	uint64_t seed;
	const struct clock_info *clock;
	volatile sig_atomic_t *stop; /* may be NULL */
	void (*progress)(void *ctx, double fraction);
	void *progress_ctx;
};

struct tlb_point {
	unsigned pages;              /* distinct 4 KiB pages the chain touches, one load each */
	size_t page_bytes;           /* the arena's page size requested: 4096 or 2 MiB */
	double ns_per_load;          /* min over trials */
	double control_ns;           /* the same number of lines packed densely, min over trials */
	double extra_ns;             /* ns_per_load - control_ns: translation, by subtraction */
	double trials_ns[TLB_TRIALS_MAX];
	unsigned ntrials;
	size_t loads_per_region;
};

/* A step of the extra-ns curve: a TLB level that ran out. */
struct tlb_level {
	unsigned entries;            /* pages at the last point of the plateau before the step */
	size_t reach_bytes;          /* entries * 4 KiB: the working set it covers */
	size_t page_bytes;           /* the series' page size */
	double extra_ns;             /* extra ns per load once past it (over the control) */
	unsigned reported_entries;   /* CPUID's entries for this level and 4 KiB pages; 0: unknown */
	bool agrees_with_reported;   /* entries within 1.5x of reported_entries */
	bool impossible;             /* extra_ns above what one page walk can cost (tlb_check_bounds) */
};

#define TLB_FALLS_MAX 8

struct tlb_series {
	size_t page_bytes;           /* requested */
	size_t arena_bytes, huge_obtained_bytes;
	unsigned npoints;
	struct tlb_point points[TLB_POINTS_MAX];
	unsigned nlevels;
	struct tlb_level levels[TLB_LEVELS_MAX];
	double first_extra_ns;       /* the first plateau's extra: 0 within the fastest TLB */
	double walk_ns;              /* extra on the plateau after the last step: every TLB
	                              * level missed, a page walk per load; NAN: no step */
	double max_extra_ns;         /* extra at the largest count */
	bool walk_on_plateau;        /* the largest count lies on that plateau (else the
	                              * curve rose again: page-table lines leaving a cache) */
	bool steps_hidden;           /* the tolerance (the run's floor) hid steps: none found while
	                              * the extra rose past TLB_MIN_STEP_NS, or (small pages, floor
	                              * above TLB_MIN_TOLERANCE_PCT) the first found lies past 1.5x
	                              * the reach of the CPU's reported first level */
	/* Falls of ns_per_load as pages grow. More pages never translate or
	 * cache better than fewer (each added page is one more entry and line
	 * to hold), so a fall beyond the floor is a fault of the run. */
	unsigned nfalls;             /* how many; falls[] holds the first TLB_FALLS_MAX */
	struct curve_fall falls[TLB_FALLS_MAX];
};

struct tlb_result {
	struct tlb_series series[2]; /* [0] small pages, [1] huge pages */
	unsigned nseries;
	size_t stride_bytes;
	size_t control_arena_bytes, control_huge_obtained_bytes;
	bool huge_reach_known;       /* both series measured and the small one has a step */
	bool huge_reach_effective;   /* huge pages show no step where small pages do */
	int nreported;               /* CPUID TLB descriptors; 0 with reported_rc -ENOTSUP: unknown */
	int reported_rc;
	struct cpu_tlb reported[CPU_TLB_MAX];
	unsigned trials;
	double noise_floor_pct;
	double tolerance_pct;        /* max(floor, 10%) of a point's ns, at least TLB_MIN_STEP_NS */
	double step_bound_ns;        /* what translation can add to a load; 0: no memory latency known */
	unsigned nimpossible;        /* levels marked impossible */
	unsigned nfalls;             /* both series' falls (tlb_series.nfalls) */
	struct layout_check layout;  /* every chain's walk summed (probe and control); ok: all held */
	unsigned nlayout_failed;     /* chains whose walk disagreed with their layout */
	uint64_t perm_hash;          /* 0: not recorded; else every chain's permutation hash folded in build order (perm_fold.h) */
	double region_ns;
	uint64_t seed;
	double seconds;
};

/* How each chain's seed derives from the run's: the hash folds them all. */
#define TLB_CHAIN_SEEDS "seed + 977 x series + pages per probe chain, seed + 31 + pages per control; " \
			"hash: each chain's folded in build order"

/* Map, build every chain, sweep round-robin. Returns 0; -EINVAL for bad
 * params; -EINTR when *stop was raised; other -errno for resources. */
int tlb_run(const struct tlb_params *p, struct tlb_result *r);

/* The layout check of one built chain: walk nodes steps from first as the
 * hardware will, and count the distinct nodes and 64-byte lines visited. A
 * chain of one load per page must close after exactly nodes steps on nodes
 * distinct lines; an offset that lands two nodes on one line (a stray
 * factor in node_offset) makes a "random" chase partly cache hits, and the
 * step it shows is not the TLB's. Fills *c; returns 0 or -ENOMEM. */
int tlb_layout_walk(uintptr_t first, size_t nodes, struct layout_check *c);

/* Everything tlb_run derives from its timings, the seam a test feeds a
 * recorded or synthetic sweep through: each point's ns_per_load (min of
 * trials_ns) and extra_ns (less control_ns), each series' steps at
 * r->tolerance_pct (tlb_find_steps), the CPU's claim per step from
 * r->reported, whether huge pages reach further, and each series' falls of
 * ns_per_load beyond r->noise_floor_pct (nfalls, falls[]). Pure. */
void tlb_analyse(struct tlb_result *r);

/* Steps of extra[] over ascending pages[]: plateaus of points that agree
 * within tol_ns (relative tol_pct of ns[] but at least TLB_MIN_STEP_NS),
 * a step where the next plateau's extra exceeds the last by more. Fills
 * levels (entries, reach, extra), first_extra_ns, walk_ns, max_extra_ns
 * and walk_on_plateau of s from s->points. Pure. */
void tlb_find_steps(struct tlb_series *s, double tol_pct);

/* The bound on a step: what translation can add to one load. The probe's
 * data lines would be cache-resident (its control is as many lines packed
 * densely), so a step is translation and what it brings with it. The
 * walk's upper levels for at most 128 MiB are a handful of entries every
 * walk reuses (the paging-structure caches keep them), so past the caches
 * a walk reads at most its leaf entry, and under nested paging the host's
 * leaf entry for the data page besides; the leaf lines (256 KiB of them
 * for 32768 pages) can evict the data line the control keeps, one more
 * memory access. So a step costs at most TLB_STEP_MAX_MEMORY_ACCESSES
 * memory latencies (memory_latency_ns: the same run's latency curve at its
 * largest set on huge pages, no walk in it). A guest under nested paging read
 * +441 ns at 32768 pages against 286 ns of memory: past one latency, well
 * within three. Marks each level above it beyond r->noise_floor_pct, sets
 * step_bound_ns (0 when memory_latency_ns is not a latency: nothing is
 * judged) and nimpossible, and returns it. Pure: the seam a test feeds
 * levels through. */
#define TLB_STEP_MAX_MEMORY_ACCESSES 3
unsigned tlb_check_bounds(struct tlb_result *r, double memory_latency_ns);

/* Whether huge pages give huge-page reach: false in *effective when the
 * huge-page series' first step lies within 4x of the small-page series'
 * (the TLB holds 4 KiB translations of the 2 MiB pages). Returns false when
 * it cannot tell (no small-page step, or no huge-page step because the floor
 * hid it: steps_hidden). Pure. */
bool tlb_huge_reach_effective(const struct tlb_series *small, const struct tlb_series *huge, bool *effective);

#endif
