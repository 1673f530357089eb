/*
 * Falls of a swept curve whose quantity cannot fall: a time per load as the
 * set grows (a larger set never fits a level a smaller one missed), a
 * latency as offered bandwidth grows (a busier memory never answers
 * sooner). A point more than the noise floor below the largest value at a
 * smaller sweep value is a fault of the run (a page fault, a migration, a
 * neighbour leaving), flagged beside the curve, never smoothed away.
 */
#ifndef MLPSCOPE_EXP_CURVE_FALLS_H
#define MLPSCOPE_EXP_CURVE_FALLS_H

#include <stddef.h>

struct curve_fall {
	size_t index;          /* the point that fell */
	double x, y;
	size_t ref_index;      /* the earlier maximum it fell below */
	double ref_x, ref_y;
	double fall_pct;       /* 100 * (1 - y / ref_y) */
};

/* Points of y over ascending x more than floor_pct below the largest y at
 * any earlier x (a fall spread over several points is still a fall). A
 * non-finite y is skipped. Writes at most cap, returns how many there are.
 * Pure. */
size_t curve_find_falls(const double *x, const double *y, size_t n, double floor_pct, struct curve_fall *out,
			size_t cap);

#endif
