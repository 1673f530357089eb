/*
 * The app section: real walks (inverse BWT, hash probes, search, a gather)
 * run as K lanes, each against the chase curve measured in the same
 * invocation at the same footprint and page size. This header holds what
 * every kernel shares: the parameters, the result model, and the chase
 * reference and derived metrics (exp/app/app.c). One file per kernel beside it
 * (exp/app/kernel_bwt.c, ...), each exporting its entry of the table in
 * exp/app/kernels.h. Experiments never print and never parse options.
 */
#ifndef MLPSCOPE_EXP_APP_APP_H
#define MLPSCOPE_EXP_APP_APP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/clock.h"
#include "kern/app_walks.h"
#include "exp/app/textgen.h"

#define APP_TRIALS_MAX 15
#define APP_VARIANTS_MAX 10
#define APP_STAGES_MAX 10
#define APP_PARAMS_MAX 16

struct app_params {
	size_t footprint_bytes;      /* the walked structure; 0: the kernel's default */
	size_t largest_cache_bytes;  /* for the "may fit in a cache" flag; 0: unknown */
	size_t l2_bytes;             /* search's miss model: levels within it hit; 0: unknown */
	const char *cache_sizes_from;/* where those two came from (exp/cache_sizes.h); NULL: the OS */
	size_t line_bytes;
	enum page_request pages;
	unsigned max_k;              /* largest K of app_lane_set swept (1..APP_K_MAX) */
	unsigned trials;             /* per (variant, K), 1..APP_TRIALS_MAX */
	uint64_t seed;
	bool chase;                  /* run the chase reference (tests may not) */
	const struct clock_info *clock;
	volatile sig_atomic_t *stop;
	/* bwt */
	enum textgen_kind input;
	const char *text_path;       /* --text FILE: invert this file instead */
	bool bzip2;                  /* --bzip2: a 900,000-byte block */
	size_t walk_rows;            /* bwt lanes variants: rows decoded per swept walk (each lane the
	                              * first rows/K of its segment), whatever the table's size;
	                              * 0 or >= the text: the whole text */
	/* Tests only: replace a kernel's loop to prove its check fires. */
	app_bwt_walk_fn broken_walk;
	app_gather_fn broken_gather;
	app_hash_fn broken_hash;         /* replaces lockstep and amac */
	app_search_fn broken_search;     /* replaces every search form */
	bool broken_ring;                /* bwt: leave the text's end unmarked */
	bool force_wide;                 /* bwt: 64-bit table words even when 32 would do */
};

/* One K of one variant: throughput figures from the minimum over trials. */
struct app_point {
	unsigned k;
	double ns_per_item;              /* elapsed / items: reciprocal throughput */
	double items_per_second;
	double dependent_loads_per_item; /* exact from the algorithm (0: none depends on another) */
	double loads_per_item;           /* random loads per item, dependent or not: occupancy's unit */
	double ns_per_dependent_load;
	double speedup;                  /* t(1) / t(K), same variant */
	double chase_speedup;            /* the chase's t(1) / t(K), same footprint */
	double ratio;                    /* speedup / chase_speedup */
	double occupancy;                /* chase latency / ns per random load */
	double chase_occupancy;          /* the chase's t(1) / t(K) */
	bool impossible;                 /* speedup above K beyond the floor: left out of the knee */
	bool chase_impossible;           /* the chase's speedup at this K is marked so */
	unsigned ntrials;
	double trials_ns[APP_TRIALS_MAX];/* ns per item, each trial in visit order */
};

struct app_variant {
	const char *name;
	const char *what;
	unsigned npoints;
	struct app_point points[APP_NLANE_SET];
	double knee_k;                   /* saturation fit's Ks */
	unsigned nimpossible;            /* points marked impossible */
	unsigned plateau_k;              /* first K within the floor of the best time */
	uint64_t output_hash;
};

struct app_stage {
	const char *name;
	double seconds;
};

struct app_param {
	const char *key;
	bool is_text;
	double number;
	char text[96];
};

struct app_check {
	bool ok;
	unsigned runs_checked;           /* (variant, K) runs compared */
	uint64_t expected_hash;
	char failure[200];               /* names kernel, variant and K */
	const char *what;                /* what was compared, in words */
};

/* The lanes sweep (exp/mlp.c) at the app's footprint, reduced to its K. */
/* How the chase reference is timed, for its readers: warm where the
 * footprint fits the caches, since nothing but this chain runs between its
 * regions (the rule latency follows for a cache-resident set). */
#define APP_CHASE_WARMTH "warm: one chain, an untimed pass over it, then every region back to back with " \
	"nothing else walked between (a footprint that fits the caches stays in them)"

struct app_chase {
	bool ran;
	size_t working_set_bytes;
	const char *pages_requested;
	size_t total_bytes;
	size_t huge_bytes_obtained;
	bool layout_ok;
	uint64_t perm_hash;
	double latency_ns;               /* t(1): one dependent miss at this footprint */
	double noise_floor_pct;
	double knee_k;
	unsigned npoints;
	unsigned k[APP_NLANE_SET];
	double ns_per_access[APP_NLANE_SET];
	double speedup[APP_NLANE_SET];
	bool impossible[APP_NLANE_SET];  /* above K even after mlp's re-time */
	unsigned nimpossible;
	bool non_monotonic[APP_NLANE_SET]; /* speedup below a smaller K's beyond the floor (app_chase_mark_falls) */
	unsigned nfalls;
	/* The state behind speed-ups above K, where the sweep's control arm
	 * showed it (mlp_latency_falls_after_traffic): the control ran
	 * control_fall times its K = 1 speed right after control_fall_k
	 * lanes. control_fall_k 0: not shown. */
	double control_fall;
	unsigned control_fall_k;
	double seconds;
};

struct app_kernel_result {
	const char *kernel;
	unsigned nparams;
	struct app_param params[APP_PARAMS_MAX];
	size_t footprint_bytes;
	const char *pages_requested;
	size_t total_bytes;
	size_t huge_bytes_obtained;
	bool may_fit_cache;
	const char *may_fit_cache_from;  /* the largest cache's source: "OS-reported", "latency curve", "none" */
	double setup_seconds;            /* input, sorting, table: never in a walk */
	unsigned nstages;
	struct app_stage stages[APP_STAGES_MAX];
	unsigned nvariants;
	struct app_variant variants[APP_VARIANTS_MAX];
	struct app_check check;
	struct app_chase chase;
	unsigned trials;
	const char *warmth;              /* "warm": prebuilt, traversed repeatedly */
	bool ceiling;                    /* a control with no lanes: headline is its occupancy */
	const char *headline_want;       /* the variant the headline reads; NULL: the last */
	/* The headline: the chase's S and this kernel's at the largest K. */
	unsigned headline_k;
	const char *headline_variant;
	double headline_speedup;
	double headline_chase_speedup;
	double headline_ratio;
	bool headline_impossible;        /* either speedup of the headline is marked impossible */
	double sweep_seconds;
};

#define APP_KERNELS_MAX 4

struct app_bzip2_result;  /* exp/app/bzip2.h: `app bzip2`, its own shape */

struct app_result {
	unsigned nkernels;
	struct app_kernel_result kernels[APP_KERNELS_MAX];
	struct app_bzip2_result *bzip2;  /* heap; NULL unless bzip2 ran */
};

/* Bytes the bwt kernel holds at its peak for a text of n bytes (the suffix
 * sort's scratch or the table, whichever is larger), for the memory check. */
size_t app_bwt_peak_bytes(size_t text_bytes);
/* The text size the bwt kernel walks for a footprint (table bytes). */
size_t app_bwt_text_bytes(size_t footprint_bytes);

/* Shared by the kernels (exp/app/app.c). */
/* A kernel's result before its first walk: zeroed, named, its trials, how
 * warm its walks are and what its check compares (passing until a
 * comparison fails). */
void app_start(const struct app_params *p, struct app_kernel_result *r, const char *kernel, const char *warmth,
	       const char *check_what);
int app_chase_run(const struct app_params *p, size_t footprint_bytes, struct app_chase *c);
/* The chase's speedup over K should not fall: another lane adds
 * independent misses, and once the miss buffers are full it waits for one
 * without undoing the overlap the others have. A speedup more than the
 * chase's floor below the largest at a smaller K is marked non_monotonic
 * (impossible points take no part). Sets and returns c->nfalls. Pure. */
unsigned app_chase_mark_falls(struct app_chase *c);
/* app_chase_run into r->chase for the kernel named kernel; a failed layout
 * check also fails r's check, saying so (no figure is then valid). */
int app_chase_checked(const struct app_params *p, size_t footprint_bytes, const char *kernel,
		      struct app_kernel_result *r);
/* How many K of app_lane_set a sweep up to max_k takes. */
unsigned app_lane_count(unsigned max_k);
/* From the trials: each point's figures, a point whose speedup t(1)/t(K)
 * exceeds K beyond the chase's floor (2% without one) marked impossible,
 * the knee and plateau of each variant from its other points, and the
 * headline (marked where either of its speedups is). Pure: the seam a test
 * feeds synthetic trials and chase through. */
void app_finish(const struct app_params *p, struct app_kernel_result *r);
void app_param_num(struct app_kernel_result *r, const char *key, double v);
void app_param_text(struct app_kernel_result *r, const char *key, const char *v);
void app_stage_add(struct app_kernel_result *r, const char *name, double seconds);
/* One timed walk of slot i into its point's trials; check: the first
 * trial, whose output is compared. 0, or -EPROTO (the check failed). */
typedef int (*app_slot_fn)(void *ctx, size_t i, bool check);
/* The sweep: p->trials rounds, each every slot in order, so a slow moment
 * of the host lands on every (variant, K) alike; r->sweep_seconds set.
 * 0; -EINTR when *p->stop was raised; else the first slot's error. */
int app_sweep(const struct app_params *p, struct app_kernel_result *r, size_t nslots, app_slot_fn run, void *ctx);
/* The bytes a kernel's walks touch, and whether they may fit the largest
 * cache (unknown cache: never said to fit). */
void app_footprint_set(const struct app_params *p, struct app_kernel_result *r, size_t footprint_bytes);
/* The page request and what the arena a kernel's walks read obtained. */
void app_arena_record(const struct app_params *p, struct app_kernel_result *r, const struct arena *a);
/* After the sweep: huge pages the kernel can break up under memory
 * pressure, so the backing obtained is the smaller of before and now. */
void app_arena_recheck(struct app_kernel_result *r, const struct arena *a);

#endif
