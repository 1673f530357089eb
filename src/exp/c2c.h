/*
 * Core-to-core cache-line latency: for every ordered pair (a, b) of allowed
 * CPUs, a thread pinned on a and one on b bounce one cache line, and half a
 * round trip (a -> b -> a moves the line twice) is the one-way transfer
 * time. A fresh line per pair, in a page the thread on a maps and touches
 * first (so it lies on a's memory node under Linux's first-touch policy),
 * so no third core's cache ever held it. Time per pair is bounded, so the
 * whole matrix of up to 256 CPUs has a known cost before it starts. Never
 * prints, never parses options.
 */
#ifndef MLPSCOPE_EXP_C2C_H
#define MLPSCOPE_EXP_C2C_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clock.h"
#include "core/team.h"

#define C2C_MAX_CPUS TEAM_MAX_THREADS
#define C2C_MAX_SAMPLES 64

struct c2c_params {
	const struct clock_info *clock;
	unsigned max_cpus;          /* the first max_cpus allowed CPUs; 0: all of them */
	double total_budget_s;      /* spread over the pairs, each pair within [pair_min_ms, pair_max_ms] */
	double pair_min_ms, pair_max_ms;
	unsigned round_trips;       /* per timed sample */
	volatile sig_atomic_t *stop;
	void (*progress)(void *ctx, double fraction);
	void *progress_ctx;
};

struct c2c_result {
	unsigned ncpus;
	int cpu[C2C_MAX_CPUS];      /* row/column i is CPU cpu[i] */
	/* ncpus x ncpus, row = the CPU that owns (first touched) the line,
	 * column = its partner; NaN on the diagonal and for a pair that timed out. */
	double *min_ns, *median_ns;
	unsigned *samples;          /* timed samples each pair got */
	size_t pairs, pairs_timed_out;
	double pair_budget_ms;      /* what each pair was allowed */
	unsigned round_trips;
	double estimated_s, seconds;
	double min_ns_all, median_ns_all;  /* over all pairs: min of minima, median of medians */
};

void c2c_params_default(struct c2c_params *p, const struct clock_info *clock, int quick);

/* Pairs and the seconds the run will take, for ncpus CPUs: what the
 * report states before it starts. */
double c2c_estimate_s(const struct c2c_params *p, unsigned ncpus, double *pair_budget_ms);

/* 0, or -EINVAL with err (fewer than 2 CPUs), -ENOMEM, -EINTR (stop), or
 * a team error. Fills r; c2c_result_free releases its matrices. */
int c2c_run(const struct c2c_params *p, struct c2c_result *r, char *err, size_t errlen);

void c2c_result_free(struct c2c_result *r);

#endif
