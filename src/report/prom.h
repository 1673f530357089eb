/*
 * The result's headline figures (report/summary.c's, read from the JSON
 * document) as Prometheus / OpenMetrics text for node_exporter's textfile
 * collector: one gauge family per figure kind, every sample labelled with
 * the CPU model, base units where promtool's lint asks for them (seconds,
 * not ns), and the result's start time as a gauge, since the textfile
 * collector refuses samples that carry their own timestamps.
 */
#ifndef MLPSCOPE_REPORT_PROM_H
#define MLPSCOPE_REPORT_PROM_H

#include <stdio.h>

#include "report/view.h"
#include "util/jsonr.h"

/* Write doc's headline figures (summary_build through views) to f. 0, or
 * -EIO when a write failed. */
int prom_write(FILE *f, const struct view *const *views, const struct jsonr_value *doc);

#endif
