/*
 * Writers for `app bzip2`'s instruction counts (exp/app/bzip2_instructions.h):
 * a text paragraph and the JSON object app.bzip2.instructions
 * (docs/OUTPUT.md). Where nothing was counted they say why and print no
 * count. Writers never measure.
 */
#ifndef MLPSCOPE_REPORT_APP_BZIP2_INSTRUCTIONS_OUT_H
#define MLPSCOPE_REPORT_APP_BZIP2_INSTRUCTIONS_OUT_H

#include <stdio.h>

#include "exp/app/bzip2_instructions.h"
#include "util/jsonw.h"

void app_bzip2_instructions_write_text(const struct app_bzip2_instructions *r, FILE *f);
void app_bzip2_instructions_write_json(const struct app_bzip2_instructions *r, struct jsonw *w, const char *key);

#endif
