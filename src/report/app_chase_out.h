/*
 * "chase": {...}, the app chase reference (exp/app/app.h) as every app
 * kernel and app bzip2 write it; only "ran" when it did not run. Writers
 * never measure.
 */
#ifndef MLPSCOPE_REPORT_APP_CHASE_OUT_H
#define MLPSCOPE_REPORT_APP_CHASE_OUT_H

#include "exp/app/app.h"
#include "util/jsonw.h"

void app_chase_write_json(struct jsonw *w, const struct app_chase *c);

#endif
