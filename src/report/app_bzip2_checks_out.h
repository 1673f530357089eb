/*
 * Writers for `app bzip2`'s checks on its own figures: the K=1 baseline
 * against the chase, the decoder's own footprint, the predictions judged
 * and the six hypotheses: text lines inside app bzip2's block and JSON keys inside
 * app.bzip2 (docs/OUTPUT.md). Writers never measure.
 */
#ifndef MLPSCOPE_REPORT_APP_BZIP2_CHECKS_OUT_H
#define MLPSCOPE_REPORT_APP_BZIP2_CHECKS_OUT_H

#include <stdio.h>

#include "exp/app/bzip2.h"
#include "util/jsonw.h"

void app_bzip2_checks_write_text(const struct app_bzip2_result *r, FILE *f);
/* Members of the enclosing app.bzip2 object. */
void app_bzip2_checks_write_json(const struct app_bzip2_result *r, struct jsonw *w);

#endif
