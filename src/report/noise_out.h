/*
 * Writers for the noise section: an aligned text table and the `noise` JSON
 * object. They read a noise_result and write; they never measure.
 */
#ifndef MLPSCOPE_REPORT_NOISE_OUT_H
#define MLPSCOPE_REPORT_NOISE_OUT_H

#include "exp/noise.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The text, the "noise" object, and noise_estimators.csv. */
REPORT_SECTION_WRITERS(noise_write_text, noise_write_json, noise_write_csv);

/* Its view (report/noise_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_noise;

#endif
