/*
 * Outliers by group median and each run's own noise floor. The results are
 * laid out group by group once (a counting sort), so each figure costs a
 * median per group, not a pass over the fleet per group: a thousand results
 * in a thousand groups stay linear.
 */
#include "analyse/outliers.h"

#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* The median of the finite values of v over the results order[from..to),
 * NaN when fewer than need hold one; tmp holds to - from values. */
static double group_median(const double *v, const size_t *order, size_t from, size_t to, size_t need, double *tmp)
{
	size_t m = 0;

	for (size_t k = from; k < to; k++)
		if (isfinite(v[order[k]]))
			tmp[m++] = v[order[k]];
	return m >= need && m ? stats_median(tmp, m) : NAN;
}

int outliers_judge(const struct outliers_fleet *f, const struct outliers_figure *fig, double *median,
		   double *tolerance, signed char *mark)
{
	size_t *start = calloc(f->ngroups + 1, sizeof(*start)), *next = calloc(f->ngroups + 1, sizeof(*next));
	size_t *order = malloc((f->n + 1) * sizeof(*order));
	double *tmp = malloc((f->n + 1) * sizeof(*tmp));
	int marked = -ENOMEM;

	if (!start || !next || !order || !tmp)
		goto out;
	/* order: the results group by group, group g at start[g]..start[g+1] */
	for (size_t i = 0; i < f->n; i++)
		start[f->group[i] + 1]++;
	for (size_t g = 0; g < f->ngroups; g++)
		next[g] = start[g + 1] += start[g];
	for (size_t i = f->n; i-- > 0;)
		order[--next[f->group[i]]] = i;
	marked = 0;
	for (size_t g = 0; g < f->ngroups; g++) {
		double floor_med = group_median(f->floor_pct, order, start[g], start[g + 1], 1, tmp);

		median[g] = group_median(fig->value, order, start[g], start[g + 1], OUTLIERS_MIN_GROUP, tmp);
		for (size_t k = start[g]; k < start[g + 1]; k++) {
			size_t i = order[k];
			double floor_pct = f->floor_pct[i], scale = fig->scale ? fig->scale[i] : median[g];
			double unc = fig->uncertainty ? fig->uncertainty[i] : NAN, tol;

			/* A quiet run is judged no tighter than its group's
			 * typical floor: the fleet cannot show less. */
			if (isfinite(floor_med) && !(floor_pct >= floor_med))
				floor_pct = floor_med;
			tol = floor_pct / 100.0 * fabs(scale);
			if (isfinite(unc) && !(tol >= unc))
				tol = unc;
			mark[i] = 0;
			tolerance[i] = isfinite(fig->value[i]) && isfinite(median[g]) && isfinite(tol) ? tol : NAN;
			if (!isfinite(tolerance[i]) || fabs(fig->value[i] - median[g]) <= tolerance[i])
				continue;
			mark[i] = fig->value[i] > median[g] ? 1 : -1;
			marked++;
		}
	}
out:
	free(start);
	free(next);
	free(order);
	free(tmp);
	return marked;
}
