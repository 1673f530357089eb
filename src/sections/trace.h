/*
 * `mlpscope trace FILE [--from run.json] [--latency TICKS] [--queue Q] [--json FILE]`:
 * analyse a lackey trace (analyse/trace_analyse.c) and print it, with, given a
 * measured result, a lower bound on the time of its misses from terms each
 * measured apart from the lanes sweep. Reads files, measures nothing,
 * never exits: main.c prints err and exits with the status returned.
 */
#ifndef MLPSCOPE_SECTIONS_TRACE_H
#define MLPSCOPE_SECTIONS_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frame/options.h"

/* The command: analyse trace_path and print the report to out; with
 * json_path, add the time of the misses under each bound of that result.
 * 0 ok; 2 when the file holds no lackey record at all or the JSON is not a
 * readable mlpscope result; 1 for I/O failure. err gets one line. */
int trace_cmd_run(const char *trace_path, const char *json_path_or_NULL, FILE *out, char *err, size_t errlen);

/* Everything the command takes. NULL / 0 fields: not given. */
struct trace_request {
	const char *trace_path;
	const char *from_path;       /* --from: a measured result for the bounds and L */
	const char *json_out;        /* --json: every figure, whole or not at all */
	const char *latency_text;    /* --latency: the request model's L in ticks */
	uint64_t queue_cap;          /* --queue: the characteriser's capacity; 0: unlimited */
	const uint64_t *cache_bytes; /* NULL: the defaults */
	size_t ncaches;
};

/* The command as a request; exit status as trace_cmd_run (2 also for a bad
 * --latency or an unwritable --json). */
int trace_cmd_run_request(const struct trace_request *rq, FILE *out, char *err, size_t errlen);

/* As trace_cmd_run with the cache sizes to evaluate (NULL: the defaults). */
int trace_cmd_run_caches(const char *trace_path, const char *json_path_or_NULL, const uint64_t *cache_bytes,
			 size_t ncaches, FILE *out, char *err, size_t errlen);

/* The registry's entry: the trace in o->paths[0], --from as declared in trace.c,
 * the caches this machine reports. Exit status as trace_cmd_run. */
int cmd_trace(const struct options *o, char *err, size_t errlen);

#endif
