/*
 * Histogram of per-region times over their minimum. A quiet machine puts
 * nearly every region in the first bin or two; interference (another task,
 * a frequency change) shows as a tail to the right, which the minimum the
 * tables report hides on purpose. Each series is drawn as steps: a flat top
 * across each bin. Reads documented keys only (docs/OUTPUT.md).
 */
#include "report/plots_dist.h"

#include "report/plots.h"
#include "report/summary.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The smallest finite positive value of an array, NAN when none. */
static double arr_min(const struct jsonr_value *a)
{
	double m = NAN;

	for (const struct jsonr_value *v = a && a->type == JSONR_ARRAY ? a->u.children.first : NULL; v; v = v->next)
		if (v->type == JSONR_NUMBER && isfinite(v->u.number) && v->u.number > 0 && !(v->u.number >= m))
			m = v->u.number;
	return m;
}

static unsigned total(const unsigned *counts)
{
	unsigned t = 0;

	for (unsigned b = 0; b < PLOTS_DIST_BINS; b++)
		t += counts[b];
	return t;
}

/* Add a's values over base to counts[] (bins of width w from 1); returns
 * the largest ratio, or when w is 0 only finds it. */
static double bin_array(const struct jsonr_value *a, double base, double w, unsigned *counts)
{
	double hi = 1;

	for (const struct jsonr_value *v = a && a->type == JSONR_ARRAY ? a->u.children.first : NULL; v; v = v->next) {
		double r;
		size_t b;

		if (v->type != JSONR_NUMBER || !isfinite(v->u.number) || !(base > 0))
			continue;
		r = v->u.number / base;
		hi = r > hi ? r : hi;
		if (w <= 0)
			continue;
		b = r <= 1 ? 0 : (size_t)((r - 1) / w);
		counts[b < PLOTS_DIST_BINS ? b : PLOTS_DIST_BINS - 1]++;
	}
	return hi;
}

/* One pass over every series' arrays: w 0 finds the largest ratio, else
 * draws. The loaded curve's points pool into one series per run, each
 * point over its own minimum. */
static double walk(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n,
		   double w, int *drawn)
{
	double hi = 1;

	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *pc = jsonr_get(docs[d], "latency.percentiles");
		const struct jsonr_value *lc = jsonr_get(docs[d], "loaded.curve");

		for (const struct jsonr_value *e = pc && pc->type == JSONR_ARRAY ? pc->u.children.first : NULL; e;
		     e = e->next) {
			unsigned counts[PLOTS_DIST_BINS] = {0};
			const struct jsonr_value *a = jsonr_get(e, "region_ns");
			double base = arr_min(a), sz = summary_number(e, "size_bytes"), lv = summary_number(e, "level"), r;
			char what[96], lab[160];
			int s;

			r = bin_array(a, base, w, counts);
			hi = r > hi ? r : hi;
			/* A series with no regions would pin the y axis at 0..0. */
			if (w <= 0 || !isfinite(base) || !total(counts))
				continue;
			if (lv >= 1)
				snprintf(what, sizeof(what), "chase %.0f KiB (level %.0f)", sz / 1024, lv);
			else
				snprintf(what, sizeof(what), "chase %.0f KiB (largest)", sz / 1024);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			if ((s = svg_plot_series(p, lab, SVG_LINES, SVG_AUTO, SVG_AUTO)) < 0)
				return NAN;
			for (unsigned b = 0; b < PLOTS_DIST_BINS; b++) {
				svg_plot_point(p, s, 1 + b * w, counts[b], NAN);
				svg_plot_point(p, s, 1 + (b + 1) * w, counts[b], NAN);
			}
			*drawn = 1;
		}
		if (lc && lc->type == JSONR_ARRAY) {
			unsigned counts[PLOTS_DIST_BINS] = {0};
			char lab[160];
			int s;

			for (const struct jsonr_value *e = lc->u.children.first; e; e = e->next) {
				const struct jsonr_value *a = jsonr_get(e, "latency_region_ns");
				double r = bin_array(a, arr_min(a), w, counts);

				hi = r > hi ? r : hi;
			}
			/* Results saved before the region times were kept have none. */
			if (w <= 0 || !total(counts))
				continue;
			plots_label(lab, sizeof(lab), labels[d], n, "loaded (every point, each over its own minimum)");
			if ((s = svg_plot_series(p, lab, SVG_LINES | SVG_DASHED, SVG_AUTO, SVG_AUTO)) < 0)
				return NAN;
			for (unsigned b = 0; b < PLOTS_DIST_BINS; b++) {
				svg_plot_point(p, s, 1 + b * w, counts[b], NAN);
				svg_plot_point(p, s, 1 + (b + 1) * w, counts[b], NAN);
			}
			*drawn = 1;
		}
	}
	return hi;
}

int plots_latency_dist(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
		       size_t n)
{
	int drawn = 0;
	double hi, w;

	svg_plot_init(p, "latency_dist", "Latency distribution: per-region times over their minimum",
		      "region time / minimum (1 = the minimum the tables report)", SVG_LINEAR,
		      "regions per bin", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "a tail to the right: regions slowed by interference; chase at chosen sizes, "
		 "loaded dashed");
	p->y.include_zero = true;
	hi = walk(p, docs, labels, n, 0, &drawn);
	/* At least a 1% bin, so a quiet run's single spike has width. */
	w = fmax((hi - 1) / PLOTS_DIST_BINS * 1.0001, 0.01 / PLOTS_DIST_BINS);
	walk(p, docs, labels, n, w, &drawn);
	return plots_done(p, drawn);
}
