/*
 * Writers for the latency section: an aligned text table and the `latency`
 * JSON object. They read a latency_result and write; they never measure.
 */
#ifndef MLPSCOPE_REPORT_LATENCY_OUT_H
#define MLPSCOPE_REPORT_LATENCY_OUT_H

#include <stdio.h>

#include "exp/latency.h"
#include "util/jsonw.h"

struct jsonr_value;

void report_write_latency_text(const void *result, FILE *f);

/* Writes "latency": {...} into the object w is in (key NULL inside an array). */
void report_write_latency_json(const void *result, struct jsonw *w, const char *key);

/* latency_points.csv and latency_levels.csv from a parsed result. 0 or -errno. */
int latency_write_csv(const char *dir, const struct jsonr_value *doc);

/* Its view (report/latency_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_latency;

#endif
