/*
 * The throughput plots, kept apart from plots.c: bandwidth (decimal GB/s
 * against threads, one series per kernel) and multicore (total concurrency
 * against lanes K, one series per thread count T) and the bzip2 decoder
 * (decoded MB/s against K, one series per variant). Same contract as
 * struct view_plot's build (report/view.h): p is initialised here; 0 drawn, -ENOENT no section, -ENOMEM.
 */
#ifndef MLPSCOPE_REPORT_PLOTS_THROUGHPUT_H
#define MLPSCOPE_REPORT_PLOTS_THROUGHPUT_H

#include <stddef.h>

#include "util/jsonr.h"
#include "report/svg.h"

int plots_app_bzip2(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n);

#endif
