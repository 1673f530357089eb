/* Estimators and the saturation fit. */
#include "../harness.h"

#include "core/stats.h"

#include <math.h>

TEST(stats_min_median_quantile_spread)
{
	double v[] = {5, 1, 4, 2, 3};

	CHECK(stats_min(v, 5) == 1 && stats_max(v, 5) == 5, "min/max");
	CHECK(stats_median(v, 5) == 3, "median %g", stats_median(v, 5));
	CHECK(fabs(stats_quantile(v, 5, 0.75) - 4) < 1e-12, "q75 %g", stats_quantile(v, 5, 0.75));
	CHECK(fabs(stats_spread_pct(v, 5) - 400) < 1e-9, "spread %g", stats_spread_pct(v, 5));
}

TEST(group_minima_are_min_of_n)
{
	double v[] = {3, 1, 2, 9, 8, 7, 4};
	double out[3];

	CHECK(stats_group_minima(v, 7, 3, out) == 2, "two full groups");
	CHECK(out[0] == 1 && out[1] == 7, "minima %g %g", out[0], out[1]);
}

TEST(paired_ratio_divides_inside_each_iteration)
{
	/* Clock drift: both arms slow down together in iteration 2. The paired
	 * estimator sees 2.0 every time; the ratio of minima mixes moments. */
	double a[] = {20, 40, 22}, b[] = {10, 20, 11};
	double paired = stats_paired_min_ratio(a, b, 3);
	double ratio_of_minima = stats_min(a, 3) / stats_min(b, 3);

	CHECK(fabs(paired - 2.0) < 1e-12, "paired %g", paired);
	CHECK(fabs(ratio_of_minima - 2.0) < 1e-12, "ratio of minima %g", ratio_of_minima);
	double a2[] = {20, 44}, b2[] = {12, 22};

	CHECK(fabs(stats_paired_min_ratio(a2, b2, 2) - 20.0 / 12) < 1e-12, "paired picks the min quotient");
	/* An interrupted denominator (9x its best, the numerator not moved)
	 * is not drift: its quotient 0.35 must not be the minimum. */
	double b3[] = {3.5, 3.5, 3.5}, a3[] = {1.08, 1.08, 9.9};

	CHECK(fabs(stats_paired_min_ratio(b3, a3, 3) - 3.5 / 1.08) < 1e-12, "paired %g picked an interrupted run",
	      stats_paired_min_ratio(b3, a3, 3));
}

static void synth(double *k, double *t, size_t n, double l, double ks, double wobble)
{
	for (size_t i = 0; i < n; i++) {
		k[i] = (double)(i + 1);
		t[i] = l / fmin(k[i], ks) * (1.0 + wobble * ((i % 3) - 1.0));
	}
}

TEST(fit_recovers_the_saturation_of_exact_data)
{
	double k[40], t[40];
	struct saturation_fit f;

	synth(k, t, 40, 100.0, 12.5, 0.0);
	stats_fit_saturation(k, t, 40, &f);
	CHECK(fabs(f.saturation_lanes - 12.5) < 0.02, "Ks %g", f.saturation_lanes);
	CHECK(fabs(f.latency_ns - 100.0) < 0.5, "L %g", f.latency_ns);
}

TEST(fit_is_stable_under_3pct_noise)
{
	double k[48], t[48];
	struct saturation_fit f;

	synth(k, t, 48, 140.0, 20.0, 0.03);
	stats_fit_saturation(k, t, 48, &f);
	CHECK(fabs(f.saturation_lanes - 20.0) < 1.0, "Ks %g", f.saturation_lanes);
}

TEST(rules_find_the_first_small_gain)
{
	double t[] = {100, 50, 34, 30, 29.5, 29.4};

	/* 3 -> 4 gains 11.8%, 4 -> 5 gains 1.7%: the 5% rule stops at 4. */
	CHECK(stats_rule_first_gain_below(t, 6, 0.05) == 4, "5%% rule %zu", stats_rule_first_gain_below(t, 6, 0.05));
	CHECK(stats_rule_first_gain_below(t, 6, 0.01) == 5, "1%% rule %zu", stats_rule_first_gain_below(t, 6, 0.01));
	CHECK(stats_rule_first_gain_below(t, 3, 0.05) == 3, "never below: n");
}

TEST(estimator_spread_is_the_spread_of_group_extremes)
{
	double times[] = {10, 12, 11, 13, 15, 14, 9};   /* groups {10,12,11} {13,15,14}; 9 is no group */
	double rates[] = {1, 3, 2, 4, 2, 1};           /* group maxima 3 and 4 */
	double spreads[] = {5, NAN, 1, 2, 3, 4};

	CHECK(fabs(stats_estimator_spread_pct(times, 7, 3) - 30.0) < 1e-9, "minima 10 and 13: %g",
	      stats_estimator_spread_pct(times, 7, 3));
	CHECK(isnan(stats_estimator_spread_pct(times, 5, 3)), "one whole group has no spread");
	CHECK(fabs(stats_rate_estimator_spread_pct(rates, 6, 3) - 100.0 / 3) < 1e-9, "maxima 3 and 4: %g",
	      stats_rate_estimator_spread_pct(rates, 6, 3));
	/* finite spreads 1..5: upper quartile 4 */
	CHECK(fabs(stats_noise_floor_pct(spreads, 6) - 4.0) < 1e-9, "floor %g", stats_noise_floor_pct(spreads, 6));
	CHECK(isnan(stats_noise_floor_pct(spreads + 1, 1)), "no finite spread, no floor");
}

/* The shared section floor: the upper quartile of the points' estimator
 * spreads, minima for times and maxima for rates; points with fewer than
 * two groups count for nothing. */
TEST(stats_floor_is_the_upper_quartile_of_point_spreads)
{
	/* group minima 10, 11 -> 10%; 10, 10 -> 0%; 10, 12 -> 20%; 10, 13 -> 30% */
	static const double p[4][6] = {
		{10, 12, 14, 11, 15, 16}, {10, 11, 12, 10, 13, 14}, {12, 10, 15, 12, 14, 13}, {10, 10, 10, 13, 14, 15},
	};
	static const double lone[3] = {1, 2, 3};
	struct stats_floor fl = {0};
	double spreads[4], want, got;

	for (int i = 0; i < 4; i++) {
		spreads[i] = stats_estimator_spread_pct(p[i], 6, 3);
		stats_floor_add(&fl, p[i], 6, 3, false);
	}
	stats_floor_add(&fl, lone, 3, 3, false);  /* one group: no spread */
	want = stats_noise_floor_pct(spreads, 4);
	got = stats_floor_take_pct(&fl);
	CHECK(fabs(got - want) < 1e-9 && got > 19.9 && got < 30.1, "floor %.3f%%, want %.3f%%", got, want);
	CHECK(!fl.spreads && !fl.n, "not freed");
	/* Rates: the group maxima 14, 16 -> 14.3%, not the minima's 10%. */
	stats_floor_add(&fl, p[0], 6, 3, true);
	got = stats_floor_take_pct(&fl);
	CHECK(fabs(got - 100.0 * (16.0 / 14.0 - 1)) < 1e-9, "rate floor %.3f%%", got);
	stats_floor_add(&fl, lone, 3, 3, false);
	CHECK(isnan(stats_floor_take_pct(&fl)), "a floor from no spread");
}

/* 1..101 in a scrambled order: the quantiles land on whole values (p50 51,
 * p90 91, p99 100), whatever the order they came in. */
TEST(percentiles_known_answer_and_ordered)
{
	double v[101], spike[10] = {10, 10, 10, 10, 10, 10, 10, 10, 10, 40};
	struct stats_pcts q;

	for (unsigned i = 0; i < 101; i++)
		v[i] = (double)((i * 37) % 101 + 1);
	stats_percentiles(v, 101, &q);
	CHECK(q.n == 101, "n %zu", q.n);
	CHECK(fabs(q.p50 - 51) < 1e-9 && fabs(q.p90 - 91) < 1e-9 && fabs(q.p99 - 100) < 1e-9 && q.max == 101,
	      "p50 %g p90 %g p99 %g max %g", q.p50, q.p90, q.p99, q.max);
	/* One slow region in ten: the median ignores it, p90 is on the way up
	 * (9 + 0.1 of the step), p99 nearly reaches it, max is it. */
	stats_percentiles(spike, 10, &q);
	CHECK(q.p50 == 10 && fabs(q.p90 - 13) < 1e-9 && fabs(q.p99 - 37.3) < 1e-9 && q.max == 40,
	      "spike: p50 %g p90 %g p99 %g max %g", q.p50, q.p90, q.p99, q.max);
	CHECK(q.p50 <= q.p90 && q.p90 <= q.p99 && q.p99 <= q.max, "not ordered");
	stats_percentiles(v, 0, &q);
	CHECK(q.n == 0 && isnan(q.p50) && isnan(q.p99) && isnan(q.max), "empty set not NAN");
}
