/*
 * The fleet's outlier rule (analyse/outliers.c) on numbers chosen by hand:
 * a value further from its group's median than its run's floor is marked,
 * one within it is not; a quiet run is judged by its group's median floor,
 * a noisy one by its own; a stated +- wins where larger; a difference is
 * judged against what it was taken from; groups are judged apart, and one
 * too small for a median is not judged at all.
 */
#include "../harness.h"

#include "analyse/outliers.h"

#include <math.h>
#include <stdbool.h>

#define N_MAX 16

struct case_ {
	size_t n, ngroups;
	size_t group[N_MAX];
	double floor_pct[N_MAX], value[N_MAX], unc[N_MAX], scale[N_MAX];
	bool with_unc, with_scale;
	double median[N_MAX], tolerance[N_MAX];
	signed char mark[N_MAX];
};

static int judge(struct case_ *c)
{
	struct outliers_fleet f = { c->n, c->ngroups, c->group, c->floor_pct };
	struct outliers_figure fig = { c->value, c->with_unc ? c->unc : NULL, c->with_scale ? c->scale : NULL };

	return outliers_judge(&f, &fig, c->median, c->tolerance, c->mark);
}

/* Five alike runs with a 2% floor: 130 against a median of 100 is 30 away,
 * past 2; 101.5 is within. */
TEST(outliers_mark_a_value_past_the_floor_and_not_one_within)
{
	struct case_ c = { .n = 5, .ngroups = 1, .value = { 100, 101.5, 99, 100, 130 },
			   .floor_pct = { 2, 2, 2, 2, 2 } };

	CHECK(judge(&c) == 1, "marked %d", judge(&c));
	CHECK(c.median[0] == 100, "median %g", c.median[0]);
	CHECK(c.mark[4] == 1 && c.mark[1] == 0 && c.mark[0] == 0 && c.mark[2] == 0, "marks %d %d %d %d %d", c.mark[0],
	      c.mark[1], c.mark[2], c.mark[3], c.mark[4]);
	CHECK(fabs(c.tolerance[4] - 2) < 1e-12, "tolerance %g (2%% of 100)", c.tolerance[4]);
	c.value[4] = 70;
	CHECK(judge(&c) == 1 && c.mark[4] == -1, "below the median: %d", c.mark[4]);
}

/* The floor is each run's own: a run that measured 40% cannot be called
 * 30% off; a quiet one (0.1%) is held to the group's median floor (2%),
 * not to its own, so 101.5 is no outlier. */
TEST(outliers_judge_each_run_by_the_larger_of_its_floor_and_its_groups)
{
	struct case_ c = { .n = 5, .ngroups = 1, .value = { 100, 101.5, 99, 100, 130 },
			   .floor_pct = { 2, 0.1, 2, 2, 40 } };

	CHECK(judge(&c) == 0, "marked %d: %d %d", judge(&c), c.mark[1], c.mark[4]);
	CHECK(fabs(c.tolerance[4] - 40) < 1e-12 && fabs(c.tolerance[1] - 2) < 1e-12, "tolerances %g %g",
	      c.tolerance[4], c.tolerance[1]);
	/* A run without a floor of its own takes its group's. */
	c.floor_pct[4] = NAN;
	CHECK(judge(&c) == 1 && c.mark[4] == 1 && fabs(c.tolerance[4] - 2) < 1e-12, "no floor: %d %g", c.mark[4],
	      c.tolerance[4]);
}

/* Ks 14 +- 5 against a median of 22 with a 2% floor (0.44 lanes): 8 away,
 * past 5, marked; with +- 10 it is not. */
TEST(outliers_take_a_stated_uncertainty_where_it_is_larger)
{
	struct case_ c = { .n = 4, .ngroups = 1, .value = { 22, 22, 22, 14 }, .floor_pct = { 2, 2, 2, 2 },
			   .unc = { 1, 1, 1, 5 }, .with_unc = true };

	CHECK(judge(&c) == 1 && c.mark[3] == -1 && c.tolerance[3] == 5, "%d %g", c.mark[3], c.tolerance[3]);
	c.unc[3] = 10;
	CHECK(judge(&c) == 0 && c.tolerance[3] == 10, "%d %g", c.mark[3], c.tolerance[3]);
}

/* A translation cost of 12 ns against a median of 5 ns is 140% off, but it
 * is 200 ns minus 188 ns: 2% of the 200 ns subtracted from is 4 ns, and it
 * is 7 away (marked); at 8 ns it is 3 away (not). Judged by its own size
 * (the median's 2%, 0.1 ns) both would be. */
TEST(outliers_judge_a_difference_against_what_it_was_taken_from)
{
	struct case_ c = { .n = 4, .ngroups = 1, .value = { 5, 5, 5, 12 }, .floor_pct = { 2, 2, 2, 2 },
			   .scale = { 200, 200, 200, 200 }, .with_scale = true };

	CHECK(judge(&c) == 1 && c.mark[3] == 1 && fabs(c.tolerance[3] - 4) < 1e-12, "%d %g", c.mark[3],
	      c.tolerance[3]);
	c.value[3] = 8;
	CHECK(judge(&c) == 0, "3 ns away, within 4: %d", c.mark[3]);
	c.with_scale = false;
	CHECK(judge(&c) == 1 && c.mark[3] == 1, "by its own size it would be marked: %d", c.mark[3]);
}

/* Two CPU models: each group has its own median, so the slower model's
 * runs are not outliers of the faster's; a third group of two has no
 * median and none of its runs is judged, however far. */
TEST(outliers_judge_groups_apart_and_not_a_group_too_small)
{
	struct case_ c = { .n = 9, .ngroups = 3, .group = { 0, 1, 0, 1, 0, 1, 2, 2, 0 },
			   .value = { 100, 200, 101, 199, 99, 201, 500, 10, 100 },
			   .floor_pct = { 2, 2, 2, 2, 2, 2, 2, 2, 2 } };

	CHECK(judge(&c) == 0, "marked %d", judge(&c));
	CHECK(c.median[0] == 100 && c.median[1] == 200 && isnan(c.median[2]), "medians %g %g %g", c.median[0],
	      c.median[1], c.median[2]);
	CHECK(isnan(c.tolerance[6]) && isnan(c.tolerance[7]) && c.mark[6] == 0, "the group of two was judged");
	c.value[3] = 150;
	CHECK(judge(&c) == 1 && c.mark[3] == -1, "within group B, 150 against 200: %d", c.mark[3]);
}

/* A run without the figure is neither judged nor counted in the median;
 * with no floor anywhere in the group nothing is judged. */
TEST(outliers_skip_absent_values_and_floors)
{
	struct case_ c = { .n = 5, .ngroups = 1, .value = { 100, NAN, 100, 100, 130 },
			   .floor_pct = { 2, 2, 2, 2, 2 } };

	CHECK(judge(&c) == 1 && c.mark[4] == 1 && c.median[0] == 100, "%d %g", c.mark[4], c.median[0]);
	CHECK(isnan(c.tolerance[1]) && c.mark[1] == 0, "an absent value was judged");
	for (size_t i = 0; i < c.n; i++)
		c.floor_pct[i] = NAN;
	CHECK(judge(&c) == 0 && isnan(c.tolerance[4]), "judged without any floor: %g", c.tolerance[4]);
}
