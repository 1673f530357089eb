/*
 * Text, JSON and CSV writers for the loaded section. They read a finished
 * result and write; they never measure. The JSON writer emits one keyed
 * object ("loaded") into an open jsonw document.
 */
#ifndef MLPSCOPE_REPORT_LOADED_OUT_H
#define MLPSCOPE_REPORT_LOADED_OUT_H

#include "exp/loaded.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The JSON writer's key is the member name in the enclosing object
 * ("loaded"), NULL at top level or inside an array. CSV table: loaded_curve
 * (with a traffic column). */
REPORT_SECTION_WRITERS(loaded_write_text, loaded_write_json, loaded_write_csv);

/* Its view (report/loaded_view.c): the HTML tables, compare rows and plot. */
struct view;
extern const struct view view_loaded;

#endif
