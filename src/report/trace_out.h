/*
 * Text and JSON writers of the trace command (see src/analyse/trace_analyse.c
 * for the analysis): the characterisation of one lackey trace, its request
 * model's figures and flags, and, given a measured result, the time of its
 * misses under each independent term of the bound.
 */
#ifndef MLPSCOPE_REPORT_TRACE_OUT_H
#define MLPSCOPE_REPORT_TRACE_OUT_H

#include <stdio.h>

#include "analyse/envelope.h"
#include "analyse/trace_analyse.h"

struct jsonw;

/* Footprint, read/write mix, useful bytes per line, stride regularity,
 * the request model's figures and flags, reuse-distance histogram and LRU
 * hit rates of one trace. */
void trace_write_text(FILE *out, const char *path, const struct trace_result *r);

/* The prefetch over-fetch table (report/trace_prefetch_out.c): per degree,
 * demand and prefetched lines, the prefetched lines never used, and useful
 * bytes over every byte delivered; in JSON the object "prefetch". */
void trace_prefetch_write_text(FILE *out, const struct trace_result *r);
void trace_prefetch_write_json(struct jsonw *w, const struct trace_result *r);

/* The misses of each cache size priced under the terms `model` uses, each
 * from its own evidence in the result at json_path (in): L = t(1), the
 * window section's load queue, the bandwidth section's reads on one thread
 * and on all. Never the lanes sweep's own plateau or line rate. Beside them,
 * not in the bound, M x L / C at the request model's mean outstanding C. */
void trace_write_bounds(FILE *out, const char *json_path, const struct trace_result *r,
			const struct env_inputs *in);

/* The object "trace" with everything the text shows (bounds when in is
 * not NULL, from json_path). */
void trace_write_json(struct jsonw *w, const char *path, const struct trace_result *r, const char *json_path,
		      const struct env_inputs *in);

#endif
