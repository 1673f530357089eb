/*
 * compare's fleet page: the table with its outliers shaded (the median and
 * tolerance on hover), the outliers by result, and one plot per judged
 * figure where people would rather look than read: every result's value
 * against its rank (the distribution, lowest first), the outliers in a
 * colour of their own, each judged group's median and its typical
 * tolerance as lines. Written whole or not at all.
 */
#include "sections/fleet_html.h"
#include "sections/fleet_table.h"

#include "analyse/outliers.h"
#include "report/svg.h"
#include "report/view.h"
#include "util/atomic.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Median and tolerance lines for at most this many groups per plot: more
 * would bury the points (every group is still judged and listed). */
#define GROUP_LINES 4

/* One result's value in a plot: an outlier's point is drawn apart. */
struct point {
	double value;
	bool outlier;
};

static int by_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The typical tolerance of group g in column c: the median of its
 * results' own, NaN when none was judged. tmp holds f->n values. */
static double group_tolerance(const struct fleet *f, size_t g, size_t c, double *tmp)
{
	size_t m = 0;

	for (size_t i = 0; i < f->n; i++)
		if (f->h[i].group == g && isfinite(f->h[i].tolerance[c]))
			tmp[m++] = f->h[i].tolerance[c];
	qsort(tmp, m, sizeof(*tmp), by_value);
	return !m ? NAN : m % 2 ? tmp[m / 2] : (tmp[m / 2 - 1] + tmp[m / 2]) / 2;
}

/* Column c's distribution; -ENOENT when no result holds the figure. pts
 * and tmp hold f->n entries. */
static int build_plot(struct svg_plot *p, const struct fleet *f, size_t c, struct point *pts, double *tmp)
{
	const struct view_fleet_column *col = f->l.col[c];
	char id[32], title[160], label[128];
	size_t m = 0, drawn = 0;
	int all, out;

	snprintf(id, sizeof(id), "fleet-%zu", c);
	snprintf(title, sizeof(title), "%s across the fleet (%s)", col->head, col->figure);
	svg_plot_init(p, id, title, "results ranked by the figure, lowest first", SVG_LINEAR, col->figure, SVG_LINEAR);
	for (size_t i = 0; i < f->n; i++)
		if (isfinite(f->h[i].value[c]))
			pts[m++] = (struct point){ f->h[i].value[c], f->h[i].mark[c] != 0 };
	if (!m)
		return -ENOENT;
	qsort(pts, m, sizeof(*pts), by_value);
	all = svg_plot_series(p, "results", SVG_POINTS, 0, 0);
	out = svg_plot_series(p, "outliers", SVG_POINTS, 1, 1);
	if (all < 0 || out < 0)
		return -ENOMEM;
	for (size_t k = 0; k < m; k++)
		svg_plot_point(p, pts[k].outlier ? out : all, (double)(k + 1), pts[k].value, NAN);
	p->x.include_zero = true;
	for (size_t g = 0; g < f->ngroups && drawn < GROUP_LINES; g++) {
		double med = f->median[g * FLEET_MAX_COLUMNS + c], tol;
		char name[16] = "";
		bool shown = false;

		/* groups alike in this figure share one line, labelled once */
		for (size_t e = 0; e < g && !shown; e++)
			shown = f->median[e * FLEET_MAX_COLUMNS + c] == med;
		if (!isfinite(med) || shown)
			continue;
		tol = group_tolerance(f, g, c, tmp);
		if (f->ngroups > 1) {
			name[0] = ' ';
			fleet_group_name(name + 1, sizeof(name) - 1, g);
		}
		snprintf(label, sizeof(label), "median%s", name);
		svg_plot_hline(p, med, label, SVG_GREY, false);
		if (isfinite(tol) && tol > 0) {
			snprintf(label, sizeof(label), "+- tolerance%s", name);
			svg_plot_hline(p, med + tol, label, SVG_GREY, true);
			svg_plot_hline(p, med - tol, "", SVG_GREY, true);
		}
		drawn++;
	}
	return p->error;
}

static void write_table(FILE *o, const struct fleet *f)
{
	fputs("<table id=\"fleet\">\n<thead><tr><th>result</th>", o);
	for (size_t c = 0; c < f->l.ncol; c++) {
		fputs("<th>", o);
		svg_escape(o, f->l.col[c]->head);
		fputs("</th>", o);
	}
	fputs("<th>CPU</th></tr></thead>\n<tbody>\n", o);
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_host *h = &f->h[i];

		fputs("<tr><td>", o);
		svg_escape(o, h->label);
		fputs("</td>", o);
		for (size_t c = 0; c < f->l.ncol; c++) {
			char v[48];

			fleet_cell(v, sizeof(v), h, c, false);
			if (h->mark[c])
				fprintf(o, "<td class=\"n out\" title=\"median %.*f, tolerance %.*f\">%s</td>", h->decimals[c],
					f->median[h->group * FLEET_MAX_COLUMNS + c], h->decimals[c] + 1, h->tolerance[c], v);
			else
				fprintf(o, "<td class=\"n\">%s</td>", v);
		}
		fputs("<td>", o);
		svg_escape(o, h->cpu);
		fputs("</td></tr>\n", o);
	}
	fputs("</tbody>\n</table>\n", o);
}

static void write_outliers(FILE *o, const struct fleet *f)
{
	fprintf(o, "<h2 id=\"outliers\">Outliers</h2>\n<p>%zu of %zu results: a figure further from its group's median "
		   "(one CPU model, the same settings, %d results or more) than the larger of the run's noise floor and "
		   "the group's median floor, as a share of the median, or than the figure's own +- where that is "
		   "larger.</p>\n",
		f->noutliers, f->n, OUTLIERS_MIN_GROUP);
	if (!f->noutliers)
		return;
	fputs("<ul>\n", o);
	for (size_t i = 0; i < f->n; i++) {
		char marks[1024];

		if (!f->h[i].outlier)
			continue;
		fleet_marks(marks, sizeof(marks), f, &f->h[i]);
		fputs("<li>", o);
		svg_escape(o, f->h[i].label);
		fputs(": ", o);
		svg_escape(o, marks);
		fputs("</li>\n", o);
	}
	fputs("</ul>\n", o);
}

int fleet_html_write(const struct fleet *f, const char *path, char *err, size_t errlen)
{
	struct atomic_file a;
	double *tmp = malloc((f->n + 1) * sizeof(*tmp));
	struct point *pts = malloc((f->n + 1) * sizeof(*pts));
	int rc = tmp && pts ? atomic_open(&a, path) : -ENOMEM;

	if (rc) {
		free(tmp);
		free(pts);
		snprintf(err, errlen, "--html: cannot write '%s': %s", path, atomic_strerror(rc));
		return 1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>mlpscope fleet</title>\n"
	      "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;font-size:.9em}"
	      "th,td{border:1px solid #ccc;padding:.15em .5em}td.n{text-align:right}thead th{background:#eef3f8}"
	      "td.out{background:#fbe3d6;font-weight:bold}#plots{display:flex;flex-wrap:wrap}"
	      "#plots figure{margin:.5em;width:46em;max-width:100%}#plots svg{width:100%;height:auto}</style>\n</head>\n<body>\n"
	      "<h1>mlpscope fleet</h1>\n", a.f);
	fprintf(a.f, "<p>%zu results, sorted by %s (%s first); - not measured; shaded: an outlier (hover for its "
		     "group's median and its tolerance)</p>\n",
		f->n, f->sort->figure, f->sort->higher_is_better ? "highest" : "lowest");
	write_table(a.f, f);
	write_outliers(a.f, f);
	fputs("<h2 id=\"distributions\">Distributions</h2>\n<div id=\"plots\">\n", a.f);
	for (size_t c = 0; c < f->l.ncol && !rc; c++) {
		struct svg_plot p;

		if (!f->judged[c])
			continue;
		rc = build_plot(&p, f, c, pts, tmp);
		if (!rc) {
			fprintf(a.f, "<figure id=\"plot-%s\">\n", f->l.col[c]->figure);
			rc = svg_plot_write(&p, a.f, false);
			fputs("</figure>\n", a.f);
		}
		svg_plot_free(&p);
		if (rc == -ENOENT)
			rc = 0;
	}
	fputs("</div>\n</body>\n</html>\n", a.f);
	free(tmp);
	free(pts);
	if (rc) {
		atomic_abort(&a);
		snprintf(err, errlen, "--html: writing '%s' failed: %s", path, strerror(-rc));
		return 1;
	}
	if ((rc = atomic_commit(&a))) {
		snprintf(err, errlen, "--html: writing '%s' failed: %s", path, atomic_strerror(rc));
		return 1;
	}
	return 0;
}
