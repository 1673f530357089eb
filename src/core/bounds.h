/*
 * Physical bounds on derived figures: the one rule every section applies
 * before it prints a figure the quantity may not have (a speed-up above its
 * lane count, a bandwidth on T threads above T x one thread's). Pure; what a
 * bound is, and why, belongs to the section that knows the quantity.
 * Nothing here re-times or prints: sections mark, re-time and say.
 */
#ifndef MLPSCOPE_CORE_BOUNDS_H
#define MLPSCOPE_CORE_BOUNDS_H

#include <stdbool.h>

/* The floor assumed where a run measured none (one group of trials gives
 * no spread): about the floor of a min-of-3 estimate of memory misses on
 * the recorded quiet hosts (3.6-7.4%), so an unmeasured floor neither
 * marks honest figures nor excuses a speedup twice its bound. */
#define BOUNDS_UNKNOWN_FLOOR_PCT 5.0

/* True when x lies above bound by more than floor_pct percent of it: a
 * figure the quantity cannot reach, even allowing the run's noise floor
 * (floor_pct; NaN or infinite: BOUNDS_UNKNOWN_FLOOR_PCT; negative: 0).
 * False when x or bound is not finite, or the bound is not positive: a
 * figure that cannot be judged is not marked. */
bool bounds_exceeded(double x, double bound, double floor_pct);

/* The floor of a ratio of two min-of-N estimates (a speedup t(1)/t(K)),
 * each known to within floor_pct: about sqrt(2) of it, as for any ratio of
 * two independent estimates of one spread (of BOUNDS_UNKNOWN_FLOOR_PCT
 * where floor_pct is not finite). */
double bounds_ratio_floor_pct(double floor_pct);

/* The largest x bounds_exceeded still accepts, for the text that names the
 * bound a figure broke. */
double bounds_limit(double bound, double floor_pct);

#endif
