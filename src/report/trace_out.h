/*
 * Text writers of the trace command (see src/cmd/trace_analyse.c for the analysis).
 */
#ifndef MLPSCOPE_REPORT_TRACE_OUT_H
#define MLPSCOPE_REPORT_TRACE_OUT_H

#include <stdio.h>

#include "cmd/model_inputs.h"
#include "cmd/trace_analyse.h"

/* Footprint, read/write mix, useful bytes per line, stride regularity,
 * reuse-distance histogram and LRU hit rates of one trace. */
void trace_write_text(FILE *out, const char *path, const struct trace_result *r);

/* The misses of each cache size priced under the bounds measured in a
 * result (L, Q, B from json_path's mlp section in). */
void trace_write_bounds(FILE *out, const char *json_path, const struct trace_result *r,
			const struct model_inputs *in);

#endif
