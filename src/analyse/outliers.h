/*
 * Outliers in a fleet of results: per headline figure, a result more than
 * its tolerance away from the median of its group (results that are alike:
 * the caller groups them, by CPU model and settings). The tolerance is the
 * noise floor each run measured for itself, as a share of the figure, never
 * a constant chosen here. It reads numbers only: which figures, which
 * groups and how they are shown are the caller's.
 */
#ifndef MLPSCOPE_ANALYSE_OUTLIERS_H
#define MLPSCOPE_ANALYSE_OUTLIERS_H

#include <stddef.h>

/* Fewest results a group needs to be judged: of two, each is as far from
 * their median as the other, so neither could be named. */
#define OUTLIERS_MIN_GROUP 3

/* The fleet: n results, each in one of ngroups groups, each with the noise
 * floor its run measured (percent; NaN: none recorded). */
struct outliers_fleet {
	size_t n, ngroups;
	const size_t *group;
	const double *floor_pct;
};

/* One figure across the fleet, n values each (NaN: the result lacks it). */
struct outliers_figure {
	const double *value;
	/* The +- the result states for the figure (a fit's uncertainty), NaN
	 * for none; NULL: none at all. */
	const double *uncertainty;
	/* What the floor is a share of, where the figure is a difference of
	 * two measurements (translation: small minus huge pages, a share of the
	 * small-page latency); NULL: the group's median of the figure. */
	const double *scale;
};

/* Judges one figure. For each group, median[g]: the median of its values,
 * NaN when fewer than OUTLIERS_MIN_GROUP results hold it. For each result,
 * tolerance[i]: the larger of its own floor and its group's median floor
 * (a quiet run is not held to less than its fleet can show), as a share of
 * the scale, or the stated uncertainty where that is larger; NaN when it
 * cannot be judged (no value, no floor, a group too small). mark[i]: +1 or
 * -1 when the value lies more than tolerance[i] above or below the median,
 * else 0. Returns how many are marked, or -ENOMEM. */
int outliers_judge(const struct outliers_fleet *f, const struct outliers_figure *fig, double *median,
		   double *tolerance, signed char *mark);

#endif
