/*
 * Writers for the latency section: an aligned text table and the `latency`
 * JSON object. They read a latency_result and write; they never measure.
 */
#ifndef MLPSCOPE_REPORT_LATENCY_OUT_H
#define MLPSCOPE_REPORT_LATENCY_OUT_H

#include "exp/latency.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The text, the "latency" object, and latency_points.csv and
 * latency_levels.csv. */
REPORT_SECTION_WRITERS(latency_write_text, latency_write_json, latency_write_csv);

/* Its view (report/latency_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_latency;

#endif
