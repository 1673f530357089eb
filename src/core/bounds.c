/*
 * The bound rule (core/bounds.h): above the bound by more than the floor.
 * A floor is the spread of a min-of-N estimator, so a figure formed from two
 * such estimates can sit above a true bound by about that much and still be
 * honest; past it, one of the two timings is wrong.
 */
#include "core/bounds.h"

#include <math.h>

static double floor_fraction(double floor_pct)
{
	if (!isfinite(floor_pct))
		return BOUNDS_UNKNOWN_FLOOR_PCT / 100.0;
	return floor_pct > 0 ? floor_pct / 100.0 : 0.0;
}

double bounds_limit(double bound, double floor_pct)
{
	return bound * (1.0 + floor_fraction(floor_pct));
}

bool bounds_exceeded(double x, double bound, double floor_pct)
{
	if (!isfinite(x) || !isfinite(bound) || !(bound > 0))
		return false;
	return x > bounds_limit(bound, floor_pct);
}

double bounds_ratio_floor_pct(double floor_pct)
{
	return sqrt(2.0) * (isfinite(floor_pct) ? floor_pct : BOUNDS_UNKNOWN_FLOOR_PCT);
}
