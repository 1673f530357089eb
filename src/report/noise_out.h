/*
 * Writers for the noise section: an aligned text table and the `noise` JSON
 * object. They read a noise_result and write; they never measure.
 */
#ifndef MLPSCOPE_REPORT_NOISE_OUT_H
#define MLPSCOPE_REPORT_NOISE_OUT_H

#include <stdio.h>

#include "exp/noise.h"
#include "util/jsonw.h"

struct jsonr_value;

void report_write_noise_text(const void *result, FILE *f);

/* Writes "noise": {...} into the object w is in (key NULL inside an array). */
void report_write_noise_json(const void *result, struct jsonw *w, const char *key);

/* noise_estimators.csv from a parsed result. 0 or -errno. */
int noise_write_csv(const char *dir, const struct jsonr_value *doc);

/* Its view (report/noise_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_noise;

#endif
