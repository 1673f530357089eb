/*
 * Text and JSON writers for the bandwidth, multicore and loaded sections.
 * They read a finished result and write; they never measure. The JSON
 * writers emit one keyed object each ("bandwidth", "multicore", "loaded")
 * into an open jsonw document, so the report's json.c places them.
 */
#ifndef MLPSCOPE_REPORT_BANDWIDTH_OUT_H
#define MLPSCOPE_REPORT_BANDWIDTH_OUT_H

#include "exp/bandwidth.h"
#include "exp/loaded.h"
#include "exp/multicore.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* Each JSON writer's key is the member name in the enclosing object
 * ("bandwidth" ...), NULL at top level or inside an array. CSV tables:
 * bandwidth_kernels and bandwidth_efficiency; multicore_points;
 * loaded_curve (with a traffic column). */
REPORT_SECTION_WRITERS(bandwidth_write_text, bandwidth_write_json, bandwidth_write_csv);
REPORT_SECTION_WRITERS(multicore_write_text, multicore_write_json, multicore_write_csv);
REPORT_SECTION_WRITERS(loaded_write_text, loaded_write_json, loaded_write_csv);

/* Its sections' views (report/bandwidth_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_bandwidth;
extern const struct view view_multicore;
extern const struct view view_loaded;

#endif
