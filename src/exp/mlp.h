/*
 * The lanes experiment: K independent dependent chains over one Sattolo
 * cycle, total accesses held fixed while K sweeps, giving the core's
 * achievable memory-level parallelism. Never prints, never parses options.
 */
#ifndef MLPSCOPE_EXP_MLP_H
#define MLPSCOPE_EXP_MLP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/chain.h"
#include "core/clock.h"
#include "exp/mlp_core.h"
#include "exp/mlp_levels.h"
#include "exp/mlp_payload.h"
#include "exp/mlp_probe.h"
#include "kern/lanes.h"
#include "exp/policy.h"

/* Control arms: one chain unrolled 1, 2, 4 ... 128 times. */
#define MLP_CONTROL_ARMS 8

/* One lane count: throughput figures from the minimum over all trials. */
struct mlp_point {
	unsigned lanes;
	size_t steps_per_lane;      /* hops each lane makes per timed region */
	double ns_per_access;       /* elapsed / accesses: reciprocal throughput */
	double speedup;             /* t(1) / t(K) of the same arm */
	double concurrency;         /* lanes arm: t(1) / t(K), Little's law */
	double useful_gbps;         /* 8 B per access, decimal GB/s */
	double line_gbps;           /* one line per access (an assumption) */
	bool impossible;            /* speedup above K beyond the floor, after a re-time */
	double *trials_ns;          /* ntrials raw values, visit order */
	size_t ntrials;
};

struct mlp_estimate {
	size_t rule_5pct_lanes;
	size_t rule_1pct_lanes;
	double fit_latency_ns;
	double fit_saturation_lanes;
	double fit_plateau_concurrency;
	double fit_uncertainty;     /* lanes, from this run's noise floor */
	double fit_rms_log_residual;
	double peak_concurrency;
	unsigned peak_lanes;
	unsigned plateau_from_lanes;/* first K within the floor of the best time */
	bool flat_at_end;           /* the last 8 K added nothing beyond the floor */
	unsigned repeats;
	unsigned repeats_agreeing;
	double repeat_saturation_lanes[POLICY_REPEAT_MAX];
};

struct mlp_result {
	const char *pages_requested;
	size_t working_set_bytes;
	size_t spacing_bytes;
	size_t line_bytes;
	size_t total_bytes;         /* mapped */
	size_t huge_bytes_obtained;
	int collapse_errno;
	struct layout_check layout;
	uint64_t perm_seed;
	uint64_t perm_hash;
	size_t accesses_per_point;
	unsigned trials_per_repeat;
	double noise_floor_pct;     /* NaN only when neither its own nor the run's is known */
	bool floor_from_run;        /* too few min-of-3 groups for its own: the run's taken */
	unsigned npoints;
	unsigned nimpossible;       /* lanes points marked impossible, left out of the estimate */
	unsigned retimed_points;    /* lanes points re-timed for a speedup above K (t(1) among them) */
	struct mlp_point sweep[LANES_MAX];
	unsigned ncontrol;
	struct mlp_point control[MLP_CONTROL_ARMS];
	struct mlp_estimate estimate;
	struct mlp_core core;       /* the same kernels L1-resident: the core's side */
	struct mlp_probe probe;     /* loaded latency inside the lanes run (loaded_probe) */
	double setup_seconds;
	double sweep_seconds;
};

/* The section's result: one arm, or two for --pages both (small, huge);
 * with --levels, the sweep at one working set per cache level too. */
struct mlp_arms {
	int n;
	struct mlp_result arm[2];
	unsigned nlevels;
	struct mlp_level levels[MLP_LEVELS];
	double levels_seconds;        /* wall time of the extra level sweeps */
	bool has_read_size;           /* --read-size ran */
	struct mlp_payload read_size;
};


struct mlp_params {
	size_t working_set_bytes;
	size_t spacing_bytes;
	size_t line_bytes;
	enum page_request pages;
	unsigned max_lanes;       /* 1..LANES_MAX */
	unsigned repeats;         /* 1..POLICY_REPEAT_MAX */
	unsigned trials;          /* per point per repeat, a multiple of 3 */
	size_t accesses;          /* per timed region, H */
	uint64_t seed;
	double run_floor_pct;     /* the run's floor (noise section), taken where the
	                           * sweep's own has too few groups; 0 or NaN: none */
	const struct clock_info *clock;
	volatile sig_atomic_t *stop;   /* set asynchronously: finish early */
	void (*progress)(void *ctx, double fraction);
	void *progress_ctx;
	chain_offset_fn layout;   /* NULL: linear; tests pass a broken one */
	bool loaded_probe;        /* after the sweep, time a probe chase while K lanes run (mlp_probe.h) */
};

/* Map, build, verify and sweep. Returns 0; -EINTR when *stop was raised;
 * -EPROTO when the layout check failed (result->layout says how); other
 * -errno for resources. On -EPROTO the result holds the layout check only. */
int mlp_run(const struct mlp_params *p, struct mlp_result *result);

/* Everything mlp_run derives from its timings, the seam a test feeds a
 * recorded or synthetic sweep through: from r->sweep[] and r->control[]
 * (trials_ns: repeats x trials each, repeat-major; ntrials), r->npoints,
 * r->ncontrol and r->line_bytes, fills the floor, each point's time,
 * speedup and concurrency, marks each lanes point whose speedup t(1)/t(K)
 * exceeds K beyond the floor (impossible: K lanes overlap at most K
 * misses), and from the others only the estimate (rules, saturation fit,
 * peak, plateau, each repeat's Ks and how many agree). The floor is the
 * sweep's own, or run_floor_pct (0 or NaN: none) where it has one min-of-3
 * group per point (stats_floor_or_run). Pure. */
void mlp_analyse(struct mlp_result *r, unsigned repeats, unsigned trials, double run_floor_pct);

/* Whether a dependent load ran faster after traffic: the control arm (one
 * chain, no overlap), timed right after the lanes point of its K, ran
 * faster at some K > 1 than at K = 1, beyond the floor of a ratio, and at
 * no K > 1 slower beyond it (a control that also ran slower after traffic
 * moved with something else, and no state is named). Its fastest such
 * speedup in *speedup and that K in *lanes. Where it holds, t(1)/t(K)
 * compares an idle load's latency with a loaded one's and can exceed K
 * though K lanes overlap at most K misses. Pure. */
bool mlp_latency_falls_after_traffic(const struct mlp_result *r, double *speedup, unsigned *lanes);

/* Groups of this many trials form one min-of-N estimate. */
#define MLP_TRIAL_GROUP 3

/* Copy a sweep's summary (t(1), Ks, plateau, peak, the curve) into a level
 * of mlp --levels. */
void mlp_level_take(struct mlp_level *lv, const struct mlp_result *r);

/* Free the raw trial arrays of one arm, or of every arm. */
void mlp_result_free(struct mlp_result *m);
void mlp_arms_free(struct mlp_arms *a);

#endif
