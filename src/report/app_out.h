/*
 * Writers for the app section: the text table with its headline line, and
 * the JSON `app` object, one key per kernel (documented in docs/OUTPUT.md;
 * extend, never rename). Writers never measure.
 */
#ifndef MLPSCOPE_REPORT_APP_OUT_H
#define MLPSCOPE_REPORT_APP_OUT_H

#include <stdio.h>

#include "exp/app/app.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The text, "<key>": { "<kernel>": {...}, ... }, and one tidy table per
 * kernel, dir/app_<kernel>_points.csv: a row per (variant, K); a kernel
 * absent from doc has its stale table removed. */
REPORT_SECTION_WRITERS(app_write_text, app_write_json, app_write_csv);

/* The headline of one kernel, without a newline:
 * "chase predicts S = x at K = k; bwt got y (R = y/x)". */
void app_format_headline(const struct app_kernel_result *k, char *out, size_t len);

/* Its view (report/app_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_app;

#endif
