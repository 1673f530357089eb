/*
 * mlpscope's plots, drawn from parsed JSON results (one or more runs on the
 * same axes, one series per run and curve). They read only documented keys
 * (docs/OUTPUT.md), so a live run and `compare` of saved files draw the same
 * way. They do not write files and do not judge whether runs are comparable:
 * that is compare's job. Each plot is its section's: the view lists it and
 * draws it (report/NAME_view.c, struct view_plot's contract). Here are the
 * loop that gathers a page's plots and the helpers the builders share.
 */
#ifndef MLPSCOPE_REPORT_PLOTS_H
#define MLPSCOPE_REPORT_PLOTS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/svg.h"

struct jsonr_value;
struct view;
struct view_plot;

/* The plots of every view in views (NULL-terminated), at most max, into out
 * in page order (view_plot.page_order; ties in the views' order). Returns
 * how many. */
size_t plots_of_views(const struct view *const *views, const struct view_plot **out, size_t max);

/* The plot named name among views' plots, or NULL. */
const struct view_plot *plots_find(const struct view *const *views, const char *name);

/* The most plots a page holds. */
#define PLOTS_MAX 32

/* For the builders. */

/* A series' label: "what" alone for one run, "run: what" when nruns runs
 * share the axes. */
void plots_label(char *out, size_t len, const char *run, size_t nruns, const char *what);

/* b bytes as "1.25 MiB" (four significant figures, binary units). */
void plots_format_bytes(char *out, size_t len, double b);

/* The series in p labelled lab, or a new one (points and lines, colours
 * and markers in turn); negative when p is full. */
int plots_series_for(struct svg_plot *p, const char *lab);

/* A builder's return: p's error, else 0 when drawn, -ENOENT when not. */
int plots_done(const struct svg_plot *p, int drawn);

/* Points grouped into series by a label each element gives: for every run,
 * each element of the array at key is the point (x, y) on the series
 * what() names (what returns false to leave the element out). */
struct plots_points {
	const char *key, *x, *y;
	bool (*what)(char *out, size_t len, const struct jsonr_value *e);
};

/* Draw how's points for every run into p (series by plots_series_for, run
 * labels by plots_label); whether any was drawn. Stops at p's first error. */
bool plots_points_by_label(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
			   size_t n, const struct plots_points *how);

#endif
