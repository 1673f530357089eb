/*
 * The window experiment: how many instructions, registers, loads and stores
 * the core keeps in flight behind a cache miss, from the window probe
 * (jit/probe.h) swept over N for each filler kind. The step is at the limit
 * Q; a ramp before it is fitted and reported too, and checked against the
 * Q/2 that two groups of fillers overflowing Q would give (window_ramp.h:
 * the recorded runs show it for few fillers). Never prints, never parses
 * options; -ENOTSUP where the ISA has no encoder.
 */
#ifndef MLPSCOPE_EXP_WINDOW_H
#define MLPSCOPE_EXP_WINDOW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chain.h"
#include "exp/window_miss.h"
#include "jit/probe.h"

#define WINDOW_MAX_POINTS 192
#define WINDOW_MAX_TRIALS 48   /* per point, over all phases that visit it */
#define WINDOW_TRIAL_GROUP 3   /* trials per min-of-N estimate for the floor */

/* The chases must miss: the smallest arena window_run accepts. */
#define WINDOW_MIN_BYTES ((size_t)4 << 20)

/* What the sweep is doing when it times a region (the synthetic seam
 * gives it to the test): a filler's sweep, the end-of-run repeat, or the
 * nop filler swept again to see the reorder buffer in the middle and at
 * the end of the run (the nop filler's own sweep is the start's). */
enum window_phase {
	WINDOW_PHASE_SWEEP, WINDOW_PHASE_REPEAT, WINDOW_PHASE_ROB_MIDDLE, WINDOW_PHASE_ROB_END,
};

struct window_params {
	size_t working_set_bytes;  /* chase arena: far beyond the last-level cache */
	unsigned trials;           /* per point per phase, a multiple of 3, 3..15 */
	uint64_t iters;            /* loop iterations per timed region (raised to min_region_ns) */
	unsigned max_n;            /* coarse sweep ceiling, fillers per miss */
	unsigned filler_mask;      /* bit (1u << enum probe_filler); 0 = all; default PROBE_FILLERS_DEFAULT */
	uint64_t seed;
	double run_floor_pct;      /* the run's floor (noise section), taken where the points'
	                            * own has too few groups; 0 or NaN: none */
	const struct clock_info *clock;
	volatile sig_atomic_t *stop;   /* set asynchronously: finish early */
	void (*progress)(void *ctx, double fraction);
	void *progress_ctx;
	/* Tests only: when set, no arena is mapped and no probe runs; each
	 * visit of filler f at n takes this many ns per iteration instead,
	 * phase saying which pass asks. */
	double (*synthetic_ns)(void *ctx, enum probe_filler f, unsigned n, enum window_phase phase);
	void *synthetic_ctx;
};

/* Defaults: the memory set of policy.h (8x the largest reported cache,
 * 256 to 512 MiB): two independent DRAM misses per iteration need a set
 * past the caches, not a cycle through gigabytes. */
void window_params_default(struct window_params *p, size_t largest_cache_bytes,
			   const struct clock_info *clock, volatile sig_atomic_t *stop);

struct window_point {
	unsigned n;                /* fillers after each miss */
	double ns_per_iter;        /* min over trials: one loop iteration, two misses */
	unsigned ntrials;
	double trials_ns[WINDOW_MAX_TRIALS];
};

/* Flat-ramp-flat fit of t(n): t0 for n <= n[onset], t0 + slope * (n -
 * n[onset]) up to the step, and a separate line (the serialised segment,
 * which rises slowly as the fillers' own issue time grows) from the step
 * on. Indices are into the arrays passed to window_fit_steps. */
struct window_fit {
	bool step_found;           /* a jump above the tolerance */
	bool ramp_found;           /* the ramp rises above the tolerance before the step */
	size_t step_index;         /* first point of the serialised segment (count if none) */
	size_t fits_index;         /* last point of the ramp: step_index - 1 - transition_points */
	size_t transition_points;  /* points between the two levels at the step (0..WINDOW_FIT_GAP_MAX) */
	size_t onset_index;        /* last point of the flat segment */
	double flat_ns;            /* t0 */
	double ramp_slope_ns;      /* per filler */
	double ramp_top_ns;        /* the ramp's value at the last point that fits */
	double serial_ns;          /* the serialised line at the first point that fails */
	double jump_ratio;         /* serial_ns / ramp_top_ns */
	double rms_rel_residual;   /* sqrt(mean((t - fit)^2)) / t0 */
};

/* At most this many points may sit between the two levels at the step
 * (N where some iterations overlap and some do not: one or two points at
 * the store queue's and FP register file's edge on one AMD core, five at the
 * reorder buffer's when sampled at every N). Each one the fit sets aside
 * costs it a penalty of two noise floors, so only points that neither
 * segment explains are set aside; and a ramp may not be a short steep run
 * of such points (it must span an eighth of the N that fits, or stay
 * within the floor). */
#define WINDOW_FIT_GAP_MAX 6

/* The jump ratio a step must clear to be called one at noise floor
 * tol_frac: three floors (it is read off two neighbouring points), never
 * below 5%. */
double window_jump_needed(double tol_frac);

/* About the jump of a clean step (seen 1.72-1.81x on two AMD core generations): when
 * window_jump_needed reaches it, a run that found no step says nothing about
 * the core, and the summary says the run was too noisy instead. */
#define WINDOW_CLEAN_JUMP 1.7

/* Fit points (n[i], t_ns[i]), n strictly increasing, count >= 3, by least
 * squares over every onset and step position. tol_frac (the run's noise
 * floor, e.g. 0.02) decides whether the step and the ramp are real. Pure.
 * Returns 0 or -EINVAL. */
int window_fit_steps(const unsigned *n, const double *t_ns, size_t count, double tol_frac,
		     struct window_fit *fit);

/* The reorder buffer's state when a check saw it: whole, or split
 * between the core's two hardware threads (about half the largest seen). */
enum window_rob_state { WINDOW_ROB_UNKNOWN, WINDOW_ROB_WHOLE, WINDOW_ROB_PARTITIONED };

/* "whole", "partitioned", "unknown". */
const char *window_rob_state_name(enum window_rob_state s);

struct window_filler_result {
	enum probe_filler filler;
	const char *name;          /* probe_filler_info()->name */
	const char *structure;     /* what it is expected to fill */
	struct window_point points[WINDOW_MAX_POINTS];  /* ascending n */
	unsigned npoints;
	struct window_fit fit;
	bool step_found;
	unsigned step_n_fits;      /* largest n below the step (valid when step_found) */
	unsigned step_n_fails;     /* smallest n above it */
	double capacity;           /* entries in flight at the step, chase loads counted */
	double capacity_low, capacity_high;  /* entries at step_n_fits .. just below step_n_fails */
	bool ramp_found;
	unsigned ramp_onset_n;     /* valid when ramp_found */
	unsigned ntransition;      /* points between the two levels at the step */
	unsigned transition_n[WINDOW_FIT_GAP_MAX];
	double seconds;            /* wall time of this filler's sweep */
	double begin_s, end_s;     /* when it ran, seconds from the start of the sweeps */
	/* The repeat at the end of the section: the step's two sides are
	 * measured again; where they no longer agree the filler is swept
	 * afresh and that sweep's step is kept here. */
	struct {
		bool done;             /* the repeat ran (the first sweep stepped) */
		bool agrees;           /* fits N still overlaps and fails N still serialises */
		bool resweep;          /* swept afresh because it did not */
		bool step_found;       /* the fresh sweep's step (valid with resweep) */
		unsigned step_n_fits, step_n_fails;
		double capacity, capacity_low, capacity_high, jump_ratio;
		double fits_ns, fails_ns;  /* the repeat's times at the first run's two sides */
		double begin_s, end_s;     /* when the repeat of this filler ran */
	} repeat;
	/* The reorder buffer's state while this filler swept (window_rob_judge),
	 * and whether its step (or its repeat's) is the ROB's in that state:
	 * then the ROB bound it, and its structure is not given that size. */
	enum window_rob_state rob_state;
	bool rob_bound;
	/* Of the two runs, the one taken as the whole structure: the larger,
	 * since a structure shared with an active sibling thread only ever
	 * shrinks. Equal to capacity unless the repeat disagreed. */
	double whole_capacity, whole_capacity_low, whole_capacity_high;
	bool partitioned;          /* one run stepped at about half the other's N */
	bool disagrees;            /* the cross-check with a filler bounding the same structure fired */
	struct window_miss_fit miss;  /* the missing-load filler's knee (the step fields repeat its bracket) */
	char note[640];            /* how clean, and what the checks say */
};

/* Per structure, what the section concludes from all fillers bounding it. */
struct window_summary {
	enum probe_structure structure;
	bool measured;             /* at least one filler stepped */
	double capacity, capacity_low, capacity_high;  /* the whole structure, entries */
	unsigned from;             /* index into fillers[] of the filler the figure comes from */
	unsigned nagree, ndisagree, nnostep;
	unsigned agree[PROBE_FILLER_COUNT], disagree[PROBE_FILLER_COUNT], nostep[PROBE_FILLER_COUNT];
	bool partitioned;          /* some run of its filler measured about half */
	unsigned nrob_bound;       /* fillers left out: they stepped where the ROB did */
	unsigned rob_bound[PROBE_FILLER_COUNT];
	bool noise_limited;        /* nothing stepped, and this run's floor could not have seen a step */
	char note[400];            /* the reasoned line, also "not measurable ..." */
};

#define WINDOW_ROB_CHECKS 3       /* start (the nop filler's sweep), middle, end */

/* One look at the reorder buffer: the nop filler swept whole. */
struct window_rob_check {
	const char *when;          /* "start", "middle", "end" */
	double begin_s, end_s;     /* seconds from the start of the sweeps */
	bool step_found;
	unsigned step_n_fits, step_n_fails;
	double capacity, capacity_low, capacity_high;  /* entries, the chase loads counted */
	enum window_rob_state state;
};

/* The reorder buffer over the run: the checks, the two states' sizes and
 * how much of the run each held. A span between two checks that agree is
 * that state's; between two that differ it is unknown (the change happened
 * somewhere in it); before the first check and after the last, the nearest
 * check's. With one state all run, whether it is the whole ROB or a half
 * (a sibling thread busy throughout) cannot be told: one_state says so. */
struct window_rob_timeline {
	bool measured;             /* some check stepped */
	unsigned nchecks;
	struct window_rob_check checks[WINDOW_ROB_CHECKS];
	double run_s;              /* the span divided: sweeps, checks and repeat */
	bool have_whole, have_partitioned;
	double whole_capacity, partitioned_capacity;   /* entries (the checks' midpoints) */
	double whole_capacity_low, whole_capacity_high;
	unsigned whole_n_fits, whole_n_fails, partitioned_n_fits, partitioned_n_fails;
	/* Where the ROB's step fell over all checks in each state (lowest N
	 * that fit .. highest that failed): how far it moves by itself. */
	unsigned whole_n_min, whole_n_max, partitioned_n_min, partitioned_n_max;
	double whole_s, partitioned_s, unknown_s;       /* sum to run_s */
	bool one_state;
	char note[480];
};

struct window_result {
	const char *isa;
	size_t working_set_bytes;
	size_t huge_bytes_obtained;
	size_t total_bytes;
	uint64_t perm_seed, perm_hash;
	struct layout_check layout;
	uint64_t iters;            /* per timed region, as used */
	unsigned trials;
	double noise_floor_pct;    /* upper quartile of min-of-3 spreads over all points, or the
	                            * run's (floor_from_run); NaN: neither (decisions used 2%) */
	bool floor_from_run;
	double setup_seconds, sweep_seconds;
	unsigned nfillers;
	struct window_filler_result fillers[PROBE_FILLER_COUNT];
	unsigned nsummary;         /* structures bounded by at least one filler run */
	struct window_summary summary[PROBE_STRUCT_COUNT];
	double repeat_seconds;     /* the end-of-run repeat pass */
	struct window_rob_timeline rob;  /* measured when the nop filler and another ran */
	struct window_miss_buffer miss_buffer;  /* built when the missing-load filler ran */
	char note[256];            /* run-level warnings (page backing), "" when none */
};

/* The conclusions drawn from the fillers' own results (pure; window_run
 * calls them, tests call them on synthetic results): whole capacity and
 * partition verdict per filler from its repeat, then per structure the
 * figure, the fillers that agree, disagree or never stepped, and the
 * notes (appended to the fillers' own). */
void window_judge_repeat(struct window_filler_result *fr);
void window_summarise(struct window_result *r);

/* From r->rob.checks (their steps and times) and each filler's times and
 * steps: the checks' states, the two sizes, the seconds each state held,
 * each filler's ROB state, and which fillers the ROB bound: their step
 * bracket meets the span of the ROB's steps in the same state (in either
 * state when the filler's is unknown), widened by the step's own floor,
 * 2% of N and at least 2. tol_frac (the run's timing floor) decides only
 * whether a run with no step could have seen one. Also raises the nop
 * filler's whole figure to the whole state's. Pure; call before
 * window_summarise, which leaves ROB-bound fillers out. */
void window_rob_judge(struct window_result *r, double tol_frac);

/* Map and verify the chase arena, then sweep each selected filler. Returns
 * 0; -ENOTSUP on an ISA without an encoder (nothing measured); -EINTR when
 * *stop was raised; -EPROTO when the layout check failed; -EINVAL for bad
 * params; other -errno for resources. The result is large (~0.5 MiB):
 * allocate it statically or on the heap. */
int window_run(const struct window_params *p, struct window_result *r);

#endif
