/*
 * The plotting library the views' builders share (labels, byte sizes,
 * series by label, the builders' return) and the loop that gathers a
 * page's plots from the views. The builders themselves, and every key they
 * read, are each section's (report/NAME_view.c); nothing here names one.
 */
#include "report/plots.h"

#include "report/summary.h"
#include "report/view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void plots_label(char *out, size_t len, const char *run, size_t nruns, const char *what)
{
	if (nruns > 1)
		snprintf(out, len, "%s: %s", run, what);
	else
		snprintf(out, len, "%s", what);
}

int plots_series_for(struct svg_plot *p, const char *lab)
{
	for (size_t i = 0; i < p->nseries; i++)
		if (!strcmp(p->series[i].label, lab))
			return (int)i;
	return svg_plot_series(p, lab, SVG_POINTS | SVG_LINES, SVG_AUTO, SVG_AUTO);
}

int plots_done(const struct svg_plot *p, int drawn)
{
	if (p->error)
		return p->error;
	return drawn ? 0 : -ENOENT;
}

void plots_format_bytes(char *out, size_t len, double b)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	size_t u = 0;

	while (b >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		b /= 1024;
		u++;
	}
	snprintf(out, len, "%.4g %s", b, units[u]);
}

bool plots_points_by_label(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
			   size_t n, const struct plots_points *how)
{
	bool drawn = false;

	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *a = jsonr_get(docs[d], how->key);

		for (const struct jsonr_value *e = a && a->type == JSONR_ARRAY ? a->u.children.first : NULL; e; e = e->next) {
			char what[128], lab[160];
			int s;

			if (!how->what(what, sizeof(what), e))
				continue;
			plots_label(lab, sizeof(lab), labels[d], n, what);
			if ((s = plots_series_for(p, lab)) < 0)
				return drawn;
			svg_plot_point(p, s, summary_number(e, how->x), summary_number(e, how->y), NAN);
			drawn = true;
		}
	}
	return drawn;
}

size_t plots_of_views(const struct view *const *views, const struct view_plot **out, size_t max)
{
	size_t n = 0;

	for (size_t v = 0; views[v]; v++)
		for (size_t i = 0; i < views[v]->nplots && n < max; i++) {
			const struct view_plot *q = &views[v]->plots[i];
			size_t at = n++;

			/* Insertion by page_order; ties keep the views' order. */
			for (; at > 0 && out[at - 1]->page_order > q->page_order; at--)
				out[at] = out[at - 1];
			out[at] = q;
		}
	return n;
}

const struct view_plot *plots_find(const struct view *const *views, const char *name)
{
	for (size_t v = 0; views[v]; v++)
		for (size_t i = 0; i < views[v]->nplots; i++)
			if (!strcmp(views[v]->plots[i].name, name))
				return &views[v]->plots[i];
	return NULL;
}
