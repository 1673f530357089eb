/*
 * Statistics and estimators: minima, medians, the spread of an estimator,
 * paired ratios, and the saturation fit of a lanes curve. Pure functions on
 * arrays of doubles; nothing here measures.
 */
#ifndef MLPSCOPE_CORE_STATS_H
#define MLPSCOPE_CORE_STATS_H

#include <stdbool.h>
#include <stddef.h>

double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);
/* Median and quantile (linear interpolation, q in [0,1]); n > 0. */
double stats_median(const double *v, size_t n);
double stats_quantile(const double *v, size_t n, double q);

/* The shape of a set of per-region times: p50, p90, p99 (stats_quantile)
 * and the maximum, in the units of v. With few values the upper quantiles
 * interpolate towards the maximum; n says how many stand behind them.
 * All NAN when n is 0. Ordered p50 <= p90 <= p99 <= max by construction. */
struct stats_pcts {
	size_t n;
	double p50, p90, p99, max;
};
void stats_percentiles(const double *v, size_t n, struct stats_pcts *out);

/* Spread of a set of estimates, (max - min) / min, in percent. */
double stats_spread_pct(const double *v, size_t n);

/* Minima of consecutive groups of `group` values: the min-of-N estimator
 * applied repeatedly. Writes n / group values to out, returns that count. */
size_t stats_group_minima(const double *v, size_t n, size_t group, double *out);

/* The noise of the min-of-`group` estimator at one point: the spread of
 * the minima of consecutive groups of v[0..n), in percent; NaN with fewer
 * than two whole groups. For rates (higher is better) the estimator is the
 * group maximum: stats_rate_estimator_spread_pct. */
double stats_estimator_spread_pct(const double *v, size_t n, size_t group);
double stats_rate_estimator_spread_pct(const double *v, size_t n, size_t group);

/* A run's noise floor from its points' estimator spreads: the upper quartile
 * of the finite ones (a tolerance should cover most points, not the typical
 * one); NaN when there are none. */
double stats_noise_floor_pct(const double *spreads, size_t n);

/* The one estimator of a section's own noise floor, for every section that
 * measures it on its own points (the noise section's run floor is measured
 * once, elsewhere): add each point's raw trials, in groups of `group`, as
 * times (minimum is best) or rates (maximum is best); take the upper
 * quartile of the points' estimator spreads. Start from {0}. */
struct stats_floor {
	double *spreads;
	size_t n, cap;
	bool failed;            /* out of memory: the floor is NaN */
};

void stats_floor_add(struct stats_floor *f, const double *trials, size_t n, size_t group, bool rate);

/* The floor in percent (NaN when no point had two whole groups); frees f. */
double stats_floor_take_pct(struct stats_floor *f);

/* The floor a section judges by: its own (own_pct) where its points had two
 * whole min-of-N groups, else the run's (run_pct, the noise section's; NaN
 * or <= 0: none), since one group has no spread to read. *from_run says
 * which was taken; NaN when neither is known. */
double stats_floor_or_run(double own_pct, double run_pct, bool *from_run);

/* Whether two figures of one quantity agree within tol_pct, whichever is
 * the larger: max / min - 1 <= tol_pct / 100 (a tolerance that is NaN or
 * negative grants none). Two-sided, so a figure that reads too fast is a
 * disagreement as much as one that reads too slow; false when either is
 * not finite and positive. */
bool stats_agree_within_pct(double a, double b, double tol_pct);

/* Paired estimator: min over i of a[i] / b[i] (divide inside each
 * iteration, then take the minimum), so clock drift between iterations
 * cancels in each quotient instead of multiplying into a ratio of minima.
 * An iteration where one arm alone ran more than STATS_PAIR_ONE_SIDED_MAX
 * times slower, relative to its best, than the other is left out (unless
 * every one is): that is an interruption, not drift. */
#define STATS_PAIR_ONE_SIDED_MAX 1.5
double stats_paired_min_ratio(const double *a, const double *b, size_t n);

/* Fit t(K) = max(L / K, L / Ks) to points (k[i], t[i]) by least squares on
 * log t (relative errors weigh equally at every K). Ks is searched on a 0.01
 * grid in [1, max k]. */
struct saturation_fit {
	double latency_ns;      /* L: the model's t(1) */
	double saturation_lanes;/* Ks: where L/K meets the floor */
	double floor_ns;        /* L / Ks */
	double rms_log_residual;
};
void stats_fit_saturation(const double *k, const double *t, size_t n, struct saturation_fit *fit);

/* First K (1-based index into t[]) at which adding one more lane improves
 * the time by less than frac (e.g. 0.05): t[K] > t[K-1] * (1 - frac).
 * Returns the K reached, or n when every step improved. */
size_t stats_rule_first_gain_below(const double *t, size_t n, double frac);

#endif
