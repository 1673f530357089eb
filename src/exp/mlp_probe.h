/*
 * Loaded latency inside the lanes run: while K lanes of the sweep's own
 * kernel walk the sweep's chain on a second CPU, this thread times one
 * dependent chase on the same cycle half a cycle ahead of them (the same
 * footprint as the sweep's t(1), lines no lane touched lately), so t_loaded(K), the
 * latency of a dependent load under the lanes' load, is measured rather than
 * read off the `loaded` section's curve. Never prints, never parses options.
 * Depends on two CPUs: the probe shares with the lanes only what those two
 * CPUs share (the last cache and memory when they are separate cores; the
 * core's own miss buffers too when they are SMT siblings), and says which.
 */
#ifndef MLPSCOPE_EXP_MLP_PROBE_H
#define MLPSCOPE_EXP_MLP_PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chain.h"
#include "core/clock.h"

/* Lane counts probed: K = 1, the knee, the largest swept. */
#define MLP_PROBE_KS 3
/* Trials per point: three min-of-3 groups, so the probe has its own floor. */
#define MLP_PROBE_TRIALS 9
#define MLP_PROBE_GROUP 3
/* Probe loads per timed window: 8 Ki misses are 1-2.5 ms at 120-300 ns, long
 * beside the lanes counter's granularity (MLP_PROBE_CHUNK_STEPS x K) and
 * short beside a scheduler's slice, so on a busy machine some windows run
 * with neither thread preempted. */
#define MLP_PROBE_HOPS 8192
/* Hops each lane makes between two publications of the lanes' count: the
 * count is known to a chunk (64 x K accesses) at each end of a window that
 * holds a few hundred thousand at the largest K, 1-2%; a chunk ends with
 * every lane drained, a cost once per 64 misses of each. */
#define MLP_PROBE_CHUNK_STEPS 64

enum mlp_probe_state {
	MLP_PROBE_NOT_PLANNED = 0,  /* the budget or the caller left it out */
	MLP_PROBE_MEASURED,
	MLP_PROBE_SKIPPED,          /* one CPU allowed: nowhere to run the lanes beside the probe */
	MLP_PROBE_FAILED,           /* its threads or the affinity mask failed: no figures */
};

/* What the lanes' misses judged by Little's law say against K. */
enum mlp_probe_little {
	MLP_PROBE_LITTLE_NOT_JUDGED = 0,  /* no lanes rate, or t_loaded marked impossible */
	MLP_PROBE_LITTLE_AGREES,          /* throughput x t_loaded is K within the floor */
	MLP_PROBE_LITTLE_BELOW,           /* fewer in flight than K: lanes wait where the probe does not */
	MLP_PROBE_LITTLE_ABOVE,           /* more than K: the lanes are served faster than the probe */
};

struct mlp_probe_point {
	unsigned lanes;                 /* K on the lanes CPU; 0: the idle point (that CPU spins, no loads) */
	const char *chosen_as;          /* "one lane", "knee", "max", "idle" */
	unsigned ntrials;
	double trials_ns[MLP_PROBE_TRIALS];           /* the probe's ns per load, visit order */
	double trials_lanes_ns[MLP_PROBE_TRIALS];     /* the lanes' ns per access over the same window; NaN idle */
	double t_loaded_ns;             /* min over the trials whose lanes kept their median rate */
	double lanes_ns_per_access;     /* from the trial that gave the minimum: one window, both figures */
	double ratio_to_idle;           /* t_loaded / idle */
	double littles_law_concurrency; /* t_loaded / lanes_ns_per_access: the lanes' accesses in flight */
	enum mlp_probe_little little;
	bool impossible;                /* t_loaded below idle beyond the ratio's floor, after a re-time */
	bool retimed;
};

struct mlp_probe {
	enum mlp_probe_state state;
	char why[160];                  /* skipped or failed: the reason */
	int probe_cpu, lanes_cpu;       /* -1 before a run */
	const char *sharing;            /* what the two CPUs share, in words */
	size_t chain_nodes;             /* the sweep's cycle, walked by both */
	struct mlp_probe_point idle;
	unsigned npoints;
	struct mlp_probe_point points[MLP_PROBE_KS];
	double sweep_t1_ns;             /* the sweep's own t(1), for reference */
	double noise_floor_pct;
	bool floor_from_run;
	unsigned nimpossible, retimed_points;
	double seconds;
};

/* What the probe takes from the sweep that ran before it. */
struct mlp_probe_params {
	const struct clock_info *clock;
	volatile sig_atomic_t *stop;   /* set asynchronously: finish early */
	const struct chain *chain;     /* the sweep's verified chain: the lanes walk it */
	size_t cursor;                 /* from here on, past what the sweep walked */
	unsigned npoints;              /* K = 1..npoints were swept */
	unsigned knee;                 /* the sweep's plateau_from_lanes; 0: unknown */
	double sweep_t1_ns;
	double run_floor_pct;          /* taken where its own groups are too few; NaN: none */
};

/* The lane counts to probe from a sweep of npoints (K = 1..npoints) whose
 * plateau starts at knee (0: unknown): 1, the knee and npoints, ascending,
 * each once. Writes lanes[] and chosen_as[]; returns how many (1..3). Pure. */
unsigned mlp_probe_pick_lanes(unsigned npoints, unsigned knee, unsigned *lanes, const char **chosen_as);

/* Everything derived from the trials, the seam a test feeds synthetic
 * timings through: from pr->idle and pr->points[] (trials_ns,
 * trials_lanes_ns, ntrials, lanes) fills the floor (its own min-of-3
 * groups, else run_floor_pct), each t_loaded (the fastest window among
 * those whose lanes ran at least at their median rate), ratio and Little's-law
 * concurrency and verdict, and marks each point whose t_loaded lies below
 * the idle time beyond the ratio's floor (a busier memory never answers a
 * dependent load sooner). Sets pr->nimpossible. Pure. */
void mlp_probe_analyse(struct mlp_probe *pr, double run_floor_pct);

/* Time the probe idle and beside each K mlp_probe_pick_lanes gives, on two
 * CPUs, both walking pp->chain. Fills *pr. Returns 0
 * (the probe's own failure is pr->state FAILED, one CPU SKIPPED, never the
 * sweep's) or -EINTR when *stop was raised. */
int mlp_probe_run(const struct mlp_probe_params *pp, struct mlp_probe *pr);

/* Seconds the timed part takes at a miss of miss_ns (for the budget):
 * up to four points x the trials x the probe window and its lead-in,
 * loaded points at twice the idle miss, one re-time in three runs. */
double mlp_probe_timed_seconds(double miss_ns);

/* Words for the JSON and the text. */
const char *mlp_probe_state_name(enum mlp_probe_state s);
const char *mlp_probe_little_name(enum mlp_probe_little l);

#endif
