/*
 * The instrument's own noise floor: how far a min-of-3 estimate moves when
 * the same measurement is repeated, today, on this machine. It is the
 * tolerance every later section uses; it is reported, never assumed. Relies
 * on a 16 KiB chase fitting the L1 data cache and a 256 KiB chase fitting
 * the L2 (every x86-64 and AArch64 core this tool targets has both).
 * Never prints, never parses options.
 */
#ifndef MLPSCOPE_EXP_NOISE_H
#define MLPSCOPE_EXP_NOISE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clock.h"

#define NOISE_GROUPS_MAX 32
#define NOISE_GROUP_RUNS 3       /* runs per min-of-N estimate */

enum noise_estimator_id {
	NOISE_EST_ARM_A,            /* min-of-3 of arm A alone, ns per load */
	NOISE_EST_ARM_B,            /* min-of-3 of arm B alone, ns per load */
	NOISE_EST_RATIO_OF_MINIMA,  /* min(B) / min(A) within a group */
	NOISE_EST_PAIRED_RATIO,     /* min over the group of B[i] / A[i] */
	NOISE_ESTIMATORS
};

struct noise_params {
	const struct clock_info *clock;
	unsigned groups;            /* estimates per estimator; 0: 14, at most NOISE_GROUPS_MAX */
	size_t arm_a_bytes;         /* L1-resident chase, also the probe; 0: 16 KiB */
	size_t arm_b_bytes;         /* L2-resident chase; 0: 256 KiB */
	double region_ns;           /* target timed region; 0: 500 us (never under clock->min_region_ns) */
	uint64_t seed;
	volatile sig_atomic_t *stop;/* may be NULL */
};

struct noise_estimator {
	const char *name;           /* "arm_a_min", "arm_b_min", "ratio_of_minima", "paired_ratio" */
	const char *unit;           /* "ns/load" or "ratio" */
	double values[NOISE_GROUPS_MAX]; /* one estimate per group */
	double spread_pct;          /* max/min - 1 of values, percent */
};

struct noise_result {
	unsigned groups;
	size_t arm_a_bytes, arm_b_bytes;
	size_t arm_a_hops, arm_b_hops;   /* loads per timed region */
	double region_ns;                /* target the hop counts were sized for */
	/* The probe: arm A timed groups * 3 times on its own. */
	double probe_runs_ns[NOISE_GROUPS_MAX * NOISE_GROUP_RUNS]; /* ns per load, run order */
	double probe_minima_ns[NOISE_GROUPS_MAX];
	double probe_minima_spread_pct;  /* the min-of-3 estimator's spread */
	double probe_runs_spread_pct;    /* single runs' spread, for contrast */
	/* The two arms, A then B back to back in each iteration. */
	double arm_a_runs_ns[NOISE_GROUPS_MAX * NOISE_GROUP_RUNS];
	double arm_b_runs_ns[NOISE_GROUPS_MAX * NOISE_GROUP_RUNS];
	struct noise_estimator estimators[NOISE_ESTIMATORS];
	double floor_pct;                /* the widest spread above (probe minima included) */
	const char *floor_from;          /* name of the estimator that set it */
	bool layout_ok;
	size_t huge_bytes_obtained;      /* of the 2 MiB arena holding both arms */
	double seconds;
};

/* Map one 2 MiB arena, build and verify both chains, time them. Returns 0;
 * -EINVAL for bad params; -EPROTO when a layout check failed; -EINTR when
 * *stop was raised; other -errno for resources. Takes well under a second. */
int noise_run(const struct noise_params *p, struct noise_result *r);

#endif
