/*
 * The instrument's clock: which counter, how many of its ticks make a
 * nanosecond, how fine it is and what an empty timed region costs. Chosen
 * once at start-up (clock_init) and recorded in provenance.
 */
#ifndef MLPSCOPE_CORE_CLOCK_H
#define MLPSCOPE_CORE_CLOCK_H

#include <stdint.h>

struct clock_info {
	const char *source;         /* "tsc+lfence", "cntvct+isb", "clock_monotonic_raw" */
	int invariant;              /* counter rate independent of core clock */
	double ticks_per_ns;        /* calibrated or stated */
	double calibration_spread_pct; /* spread of the calibration repeats */
	uint64_t resolution_ticks;  /* smallest non-zero step seen */
	uint64_t empty_region_ticks;/* min cost of a timed region with nothing in it */
	double min_region_ns;       /* regions at least this long keep the two above under 1% */
};

/* Pick the counter, calibrate it against CLOCK_MONOTONIC_RAW (~60 ms) and
 * measure resolution and empty-region cost. Never fails: the worst case is
 * the portable clock. */
void clock_init(struct clock_info *info);

/* Ordered counter read (see arch.h); uses the clock clock_init chose. */
uint64_t clock_now(void);

double clock_ticks_to_ns(const struct clock_info *info, uint64_t ticks);

/* Wall-clock nanoseconds from CLOCK_MONOTONIC_RAW, for budgets, not for
 * measurements. */
uint64_t clock_wall_ns(void);

#endif
