/*
 * The latency-distribution plot, kept apart from plots.c: a histogram of the
 * chase's per-region times at the sizes latency.percentiles names, and of
 * loaded's per-point region times, each over its own minimum so sizes of
 * 1 ns and 100 ns share one axis. Same contract as struct view_plot's build: p is
 * initialised here; 0 drawn, -ENOENT no section, -ENOMEM.
 */
#ifndef MLPSCOPE_REPORT_PLOTS_DIST_H
#define MLPSCOPE_REPORT_PLOTS_DIST_H

#include <stddef.h>

#include "util/jsonr.h"
#include "report/svg.h"

/* Bins of the histogram: regions over their minimum, from 1 (the minimum)
 * up to the largest ratio seen, in PLOTS_DIST_BINS equal steps. */
#define PLOTS_DIST_BINS 16

int plots_latency_dist(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
		       size_t n);

#endif
