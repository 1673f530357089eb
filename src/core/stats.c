/*
 * Estimators. The spread reported for an estimator is max/min - 1 of
 * repeated min-of-N values: on a machine whose clock swings, the minimum is
 * the stable statistic (interference only ever adds time), and how far the
 * minimum itself moves between repetitions is the instrument's tolerance.
 */
#include "core/stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

double stats_min(const double *v, size_t n)
{
	double m = INFINITY;

	for (size_t i = 0; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stats_max(const double *v, size_t n)
{
	double m = -INFINITY;

	for (size_t i = 0; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_quantile(const double *v, size_t n, double q)
{
	double *s = malloc(n * sizeof(*s)), pos, r;
	size_t lo;

	if (!s || n == 0) {
		free(s);
		return NAN;
	}
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	r = lo + 1 < n ? s[lo] + (pos - (double)lo) * (s[lo + 1] - s[lo]) : s[lo];
	free(s);
	return r;
}

void stats_percentiles(const double *v, size_t n, struct stats_pcts *out)
{
	out->n = n;
	out->p50 = stats_quantile(v, n, 0.50);
	out->p90 = stats_quantile(v, n, 0.90);
	out->p99 = stats_quantile(v, n, 0.99);
	out->max = n ? stats_max(v, n) : NAN;
}

double stats_median(const double *v, size_t n)
{
	return stats_quantile(v, n, 0.5);
}

double stats_spread_pct(const double *v, size_t n)
{
	double lo = stats_min(v, n);

	return n && lo > 0 ? (stats_max(v, n) - lo) / lo * 100.0 : NAN;
}

size_t stats_group_minima(const double *v, size_t n, size_t group, double *out)
{
	size_t groups = group ? n / group : 0;

	for (size_t g = 0; g < groups; g++)
		out[g] = stats_min(v + g * group, group);
	return groups;
}

/* Spread of per-group extremes: pick_max selects the group maximum (rates). */
static double group_extreme_spread_pct(const double *v, size_t n, size_t group, bool pick_max)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t groups = group ? n / group : 0;

	if (groups < 2)
		return NAN;
	for (size_t g = 0; g < groups; g++) {
		double e = pick_max ? stats_max(v + g * group, group) : stats_min(v + g * group, group);

		lo = e < lo ? e : lo;
		hi = e > hi ? e : hi;
	}
	return lo > 0 ? (hi - lo) / lo * 100.0 : NAN;
}

double stats_estimator_spread_pct(const double *v, size_t n, size_t group)
{
	return group_extreme_spread_pct(v, n, group, false);
}

double stats_rate_estimator_spread_pct(const double *v, size_t n, size_t group)
{
	return group_extreme_spread_pct(v, n, group, true);
}

double stats_noise_floor_pct(const double *spreads, size_t n)
{
	double *finite = malloc((n ? n : 1) * sizeof(*finite)), r;
	size_t m = 0;

	if (!finite)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(spreads[i]))
			finite[m++] = spreads[i];
	r = m ? stats_quantile(finite, m, 0.75) : NAN;
	free(finite);
	return r;
}

void stats_floor_add(struct stats_floor *f, const double *trials, size_t n, size_t group, bool rate)
{
	if (f->failed)
		return;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		double *grown = realloc(f->spreads, cap * sizeof(*grown));

		if (!grown) {
			f->failed = true;
			return;
		}
		f->spreads = grown;
		f->cap = cap;
	}
	f->spreads[f->n++] = rate ? stats_rate_estimator_spread_pct(trials, n, group)
				  : stats_estimator_spread_pct(trials, n, group);
}

double stats_floor_take_pct(struct stats_floor *f)
{
	double pct = f->failed ? NAN : stats_noise_floor_pct(f->spreads, f->n);

	free(f->spreads);
	*f = (struct stats_floor){0};
	return pct;
}

double stats_floor_or_run(double own_pct, double run_pct, bool *from_run)
{
	*from_run = !isfinite(own_pct) && isfinite(run_pct) && run_pct > 0;
	return *from_run ? run_pct : own_pct;
}

bool stats_agree_within_pct(double a, double b, double tol_pct)
{
	double tol = isfinite(tol_pct) && tol_pct > 0 ? tol_pct / 100.0 : 0.0;

	if (!(isfinite(a) && isfinite(b) && a > 0 && b > 0))
		return false;
	return fmax(a, b) / fmin(a, b) - 1.0 <= tol;
}

double stats_paired_min_ratio(const double *a, const double *b, size_t n)
{
	double min_a = stats_min(a, n), min_b = stats_min(b, n), best = INFINITY, any = INFINITY;

	for (size_t i = 0; i < n; i++) {
		double q, slow_a, slow_b;

		if (!(b[i] > 0))
			continue;
		q = a[i] / b[i];
		any = fmin(any, q);
		/* Drift moves both arms of an iteration together, which is what
		 * pairing cancels; one arm alone far above its best is an
		 * interrupted iteration, and the minimum would pick its quotient
		 * whenever the disturbed arm is the denominator (a 9x-slow L1
		 * run once made this estimator's spread 820%). */
		slow_a = a[i] / min_a;
		slow_b = b[i] / min_b;
		if (fmax(slow_a, slow_b) / fmin(slow_a, slow_b) > STATS_PAIR_ONE_SIDED_MAX)
			continue;
		best = fmin(best, q);
	}
	return isfinite(best) ? best : any;
}

/* For a fixed Ks the best log L is the mean of log t + log min(K, Ks), so
 * the fit is a one-dimensional search. */
static double fit_cost(const double *k, const double *t, size_t n, double ks, double *log_l)
{
	double sum = 0, cost = 0;

	for (size_t i = 0; i < n; i++)
		sum += log(t[i]) + log(k[i] < ks ? k[i] : ks);
	*log_l = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double r = log(t[i]) - (*log_l - log(k[i] < ks ? k[i] : ks));

		cost += r * r;
	}
	return cost;
}

void stats_fit_saturation(const double *k, const double *t, size_t n, struct saturation_fit *fit)
{
	double kmax = stats_max(k, n), best_cost = INFINITY, best_ks = 1, best_log_l = 0;

	for (double ks = 1.0; ks <= kmax + 1e-9; ks += 0.01) {
		double log_l, c = fit_cost(k, t, n, ks, &log_l);

		if (c < best_cost) {
			best_cost = c;
			best_ks = ks;
			best_log_l = log_l;
		}
	}
	fit->latency_ns = exp(best_log_l);
	fit->saturation_lanes = best_ks;
	fit->floor_ns = fit->latency_ns / best_ks;
	fit->rms_log_residual = sqrt(best_cost / (double)n);
}

size_t stats_rule_first_gain_below(const double *t, size_t n, double frac)
{
	for (size_t i = 1; i < n; i++)
		if (t[i] > t[i - 1] * (1.0 - frac))
			return i; /* t[i] is K = i + 1: K = i was the last lane worth adding */
	return n;
}
