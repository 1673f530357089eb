/*
 * Text, JSON and CSV writers for the multicore section. They read a finished
 * result and write; they never measure. The JSON writer emits one keyed
 * object ("multicore") into an open jsonw document.
 */
#ifndef MLPSCOPE_REPORT_MULTICORE_OUT_H
#define MLPSCOPE_REPORT_MULTICORE_OUT_H

#include "exp/multicore.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The JSON writer's key is the member name in the enclosing object
 * ("multicore"), NULL at top level or inside an array. CSV table:
 * multicore_points. */
REPORT_SECTION_WRITERS(multicore_write_text, multicore_write_json, multicore_write_csv);

/* Its view (report/multicore_view.c): the HTML tables, compare rows and plot. */
struct view;
extern const struct view view_multicore;

#endif
