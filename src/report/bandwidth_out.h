/*
 * Text, JSON and CSV writers for the bandwidth section. They read a finished
 * result and write; they never measure. The JSON writer emits one keyed
 * object ("bandwidth") into an open jsonw document.
 */
#ifndef MLPSCOPE_REPORT_BANDWIDTH_OUT_H
#define MLPSCOPE_REPORT_BANDWIDTH_OUT_H

#include "exp/bandwidth.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The JSON writer's key is the member name in the enclosing object
 * ("bandwidth"), NULL at top level or inside an array. CSV tables:
 * bandwidth_kernels and bandwidth_efficiency. */
REPORT_SECTION_WRITERS(bandwidth_write_text, bandwidth_write_json, bandwidth_write_csv);

/* Its view (report/bandwidth_view.c): the HTML tables, headline figures and plot. */
struct view;
extern const struct view view_bandwidth;

#endif
