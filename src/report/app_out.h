/*
 * Writers for the app section: the text table with its headline line, and
 * the JSON `app` object, one key per kernel (documented in docs/OUTPUT.md;
 * extend, never rename). Writers never measure.
 */
#ifndef MLPSCOPE_REPORT_APP_OUT_H
#define MLPSCOPE_REPORT_APP_OUT_H

#include <stdio.h>

#include "exp/app/app.h"
#include "util/jsonw.h"

void app_write_text(const void *result, FILE *f);

/* Writes "<key>": { "<kernel>": {...}, ... } into the enclosing object. */
void app_write_json(const void *result, struct jsonw *w, const char *key);

/* One tidy table per kernel, dir/app_<kernel>_points.csv: a row per
 * (variant, K). A kernel absent from doc has its stale table removed.
 * 0 or -errno. */
struct jsonr_value;
int app_write_csv(const char *dir, const struct jsonr_value *doc);

/* The headline of one kernel, without a newline:
 * "chase predicts S = x at K = k; bwt got y (R = y/x)". */
void app_format_headline(const struct app_kernel_result *k, char *out, size_t len);

/* Its view (report/app_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_app;

#endif
