/*
 * Writers for the lanes (mlp) section: text and JSON (keys in
 * docs/OUTPUT.md). They read the result and write; they never measure.
 */
#ifndef MLPSCOPE_REPORT_MLP_OUT_H
#define MLPSCOPE_REPORT_MLP_OUT_H

#include <stdio.h>

#include "exp/mlp.h"
#include "util/jsonw.h"

struct jsonr_value;

void mlp_write_text(const void *result, FILE *f);

void mlp_write_json(const void *result, struct jsonw *w, const char *key);

/* mlp_sweep.csv, mlp_control.csv and mlp_estimate.csv (each with a pages
 * column) from a parsed result. 0 or -errno. */
int mlp_write_csv(const char *dir, const struct jsonr_value *doc);

/* Its view (report/mlp_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_mlp;

#endif
