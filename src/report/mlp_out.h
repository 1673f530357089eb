/*
 * Writers for the lanes (mlp) section: text and JSON (keys in
 * docs/OUTPUT.md). They read the result and write; they never measure.
 */
#ifndef MLPSCOPE_REPORT_MLP_OUT_H
#define MLPSCOPE_REPORT_MLP_OUT_H

#include <stdio.h>

#include "exp/mlp.h"
#include "report/jsonw.h"

void mlp_write_text(const struct mlp_arms *a, FILE *f);

void mlp_write_json(struct jsonw *w, const char *key, const struct mlp_arms *a);

#endif
