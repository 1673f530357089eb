/*
 * Writers for `app bzip2`'s whole-process part (exp/app/bzip2_processes.h):
 * the text table and the JSON object app.bzip2.whole_process
 * (docs/OUTPUT.md). A command whose output did not match, or whose run
 * failed, is marked with why and shows no figure. Writers never measure.
 */
#ifndef MLPSCOPE_REPORT_APP_BZIP2_PROCESSES_OUT_H
#define MLPSCOPE_REPORT_APP_BZIP2_PROCESSES_OUT_H

#include <stdio.h>

#include "exp/app/bzip2_processes.h"
#include "util/jsonw.h"

void app_bzip2_processes_write_text(const struct app_bzip2_processes *x, FILE *f);
/* Writes "<key>": {...} into the enclosing object; nothing when it did not run. */
void app_bzip2_processes_write_json(const struct app_bzip2_processes *x, struct jsonw *w, const char *key);

#endif
