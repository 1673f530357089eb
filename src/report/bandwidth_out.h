/*
 * Text and JSON writers for the bandwidth, multicore and loaded sections.
 * They read a finished result and write; they never measure. The JSON
 * writers emit one keyed object each ("bandwidth", "multicore", "loaded")
 * into an open jsonw document, so the report's json.c places them.
 */
#ifndef MLPSCOPE_REPORT_BANDWIDTH_OUT_H
#define MLPSCOPE_REPORT_BANDWIDTH_OUT_H

#include <stdio.h>

#include "exp/bandwidth.h"
#include "exp/loaded.h"
#include "exp/multicore.h"
#include "util/jsonw.h"

struct jsonr_value;

void bandwidth_write_text(const void *result, FILE *f);
void multicore_write_text(const void *result, FILE *f);
void loaded_write_text(const void *result, FILE *f);

/* key: the member name in the enclosing object ("bandwidth" ...), NULL at
 * top level or inside an array. */
void bandwidth_write_json(const void *result, struct jsonw *w, const char *key);
void multicore_write_json(const void *result, struct jsonw *w, const char *key);
void loaded_write_json(const void *result, struct jsonw *w, const char *key);

/* CSV tables from a parsed result: bandwidth_kernels and
 * bandwidth_efficiency; multicore_points; loaded_curve (with a traffic
 * column). 0 or -errno. */
int bandwidth_write_csv(const char *dir, const struct jsonr_value *doc);
int multicore_write_csv(const char *dir, const struct jsonr_value *doc);
int loaded_write_csv(const char *dir, const struct jsonr_value *doc);

/* Its sections' views (report/bandwidth_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_bandwidth;
extern const struct view view_multicore;
extern const struct view view_loaded;

#endif
