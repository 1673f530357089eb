/*
 * The window experiment: how many instructions, registers, loads and stores
 * the core keeps in flight behind a cache miss, from the window probe
 * (jit/probe.h) swept over N for each filler kind. Each limit shows twice: a
 * linear ramp from about Q/2 (the next iteration's first miss must fit
 * behind 2N fillers) and the step at Q; both are reported. Never prints,
 * never parses options; -ENOTSUP where the ISA has no encoder.
 */
#ifndef MLPSCOPE_EXP_WINDOW_H
#define MLPSCOPE_EXP_WINDOW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chain.h"
#include "jit/probe.h"

#define WINDOW_MAX_POINTS 192
#define WINDOW_MAX_TRIALS 48   /* per point, over all phases that visit it */
#define WINDOW_TRIAL_GROUP 3   /* trials per min-of-N estimate for the floor */

/* The chases must miss: the smallest arena window_run accepts. */
#define WINDOW_MIN_BYTES ((size_t)4 << 20)

struct window_params {
	size_t working_set_bytes;  /* chase arena: far beyond the last-level cache */
	unsigned trials;           /* per point per phase, a multiple of 3, 3..15 */
	uint64_t iters;            /* loop iterations per timed region (raised to min_region_ns) */
	unsigned max_n;            /* coarse sweep ceiling, fillers per miss */
	unsigned filler_mask;      /* bit (1u << enum probe_filler); 0 = all */
	uint64_t seed;
	const struct clock_info *clock;
	volatile sig_atomic_t *stop;   /* set asynchronously: finish early */
	void (*progress)(void *ctx, double fraction);
	void *progress_ctx;
};

/* Defaults: 256 MiB or 8x the largest reported cache, whichever is more. */
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
	size_t onset_index;        /* last point of the flat segment */
	double flat_ns;            /* t0 */
	double ramp_slope_ns;      /* per filler */
	double ramp_top_ns;        /* the ramp's value at the last point that fits */
	double serial_ns;          /* the serialised line at the first point that fails */
	double jump_ratio;         /* serial_ns / ramp_top_ns */
	double rms_rel_residual;   /* sqrt(mean((t - fit)^2)) / t0 */
};

/* Fit points (n[i], t_ns[i]), n strictly increasing, count >= 3, by least
 * squares over every onset and step position. tol_frac (the run's noise
 * floor, e.g. 0.02) decides whether the step and the ramp are real. Pure.
 * Returns 0 or -EINVAL. */
int window_fit_steps(const unsigned *n, const double *t_ns, size_t count, double tol_frac,
		     struct window_fit *fit);

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
	double seconds;            /* wall time of this filler's sweep */
	char note[320];            /* how clean, and what the check says */
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
	double noise_floor_pct;    /* upper quartile of min-of-3 spreads over all points */
	double setup_seconds, sweep_seconds;
	unsigned nfillers;
	struct window_filler_result fillers[PROBE_FILLER_COUNT];
	char note[256];            /* run-level warnings (page backing), "" when none */
};

/* Map and verify the chase arena, then sweep each selected filler. Returns
 * 0; -ENOTSUP on an ISA without an encoder (nothing measured); -EINTR when
 * *stop was raised; -EPROTO when the layout check failed; -EINVAL for bad
 * params; other -errno for resources. The result is large (~0.5 MiB):
 * allocate it statically or on the heap. */
int window_run(const struct window_params *p, struct window_result *r);

#endif
