/*
 * Writers for `app bzip2`: the text tables (input, check, variants with
 * f, s and the predicted against measured speedup, stages of K=1 and of
 * the best variant, workers, libbz2 and the tools) and the JSON object
 * app.bzip2 (docs/OUTPUT.md). Writers never measure.
 */
#ifndef MLPSCOPE_REPORT_APP_BZIP2_OUT_H
#define MLPSCOPE_REPORT_APP_BZIP2_OUT_H

#include <stdio.h>

#include "exp/app/bzip2.h"
#include "util/jsonw.h"

void app_bzip2_write_text(const struct app_bzip2_result *r, FILE *f);
/* Writes "<key>": {...} into the enclosing object. */
void app_bzip2_write_json(const struct app_bzip2_result *r, struct jsonw *w, const char *key);

#endif
