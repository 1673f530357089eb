/*
 * mlpscope's plots, drawn from parsed JSON results (one or more runs on the
 * same axes, one series per run and curve). They read only documented keys
 * (docs/OUTPUT.md), so a live run and `compare` of saved files draw the same
 * way. They do not write files and do not judge whether runs are comparable:
 * that is compare's job. Which plots a page holds is the views' (each
 * section's view lists its own, report/view.h); here are the builders and
 * the loop that gathers them.
 */
#ifndef MLPSCOPE_REPORT_PLOTS_H
#define MLPSCOPE_REPORT_PLOTS_H

#include <stddef.h>

#include "util/jsonr.h"
#include "report/svg.h"

struct view;
struct view_plot;

/* The plots of every view in views (NULL-terminated), at most max, into out
 * in page order (view_plot.page_order; ties in the views' order). Returns
 * how many. */
size_t plots_of_views(const struct view *const *views, const struct view_plot **out, size_t max);

/* The most plots a page holds. */
#define PLOTS_MAX 32

/* The builders the views name (struct view_plot's contract: p initialised
 * here, svg_plot_free it in every case; 0 drawn, -ENOENT when no document
 * has the data, -ENOMEM). */
/* Latency against working set, OS cache sizes and detected levels marked. */
int plots_latency(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n);
/* Time per access against lanes, model and knee. */
int plots_lanes_time(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n);
/* t(1)/t(K) against lanes, model and knee. */
int plots_lanes_concurrency(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
			    size_t n);
/* t(1)/t(K) against lanes, one series per cache level (mlp --levels). */
int plots_lanes_levels(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
		       size_t n);
/* ns per iteration against filler count. */
int plots_window(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n);
/* Latency against delivered bandwidth. */
int plots_loaded(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n);

/* The lanes experiment's arms in a document: mlp itself, or mlp.small and
 * mlp.huge after --pages both. Returns how many (0..2); pages[i] is the arm's
 * pages.requested ("small", "huge", or "?" when absent). */
size_t plots_mlp_arms(const struct jsonr_value *doc, const struct jsonr_value *arms[2], const char *pages[2]);

#endif
