/*
 * Tidy CSV from a parsed mlpscope JSON result: one file per table, one row
 * per measurement, one column per quantity, the unit in the column name
 * (size_bytes, chase_ns, bw_gbps). RFC 4180: CRLF line ends, fields quoted
 * when they hold a comma, quote or line break; null is an empty field.
 * Numbers print in the shortest form that reads back as the same double.
 * Raw per-trial arrays stay in the JSON: a cell holds one value.
 */
#ifndef MLPSCOPE_REPORT_CSV_H
#define MLPSCOPE_REPORT_CSV_H

#include <stdio.h>

#include "jsonr.h"

/* Write dir/TABLE.csv for every table whose section doc holds:
 * latency_points, latency_levels, caches_reported, noise_estimators,
 * mlp_sweep, mlp_control, mlp_estimate (each with a pages column),
 * bandwidth_kernels, bandwidth_efficiency, multicore_points, loaded_curve
 * (with a traffic column), window_fillers, window_points (with a filler
 * column). Each file whole or not at all; dir is created if missing.
 * 0 or -errno. */
int csv_write_dir(const char *dir, const struct jsonr_value *doc);

/* One field, quoted as RFC 4180 asks when it must be. */
void csv_write_field(FILE *f, const char *s);

#endif
