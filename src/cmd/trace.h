/*
 * `mlpscope trace FILE [--from run.json]`: analyse a lackey trace
 * (cmd/trace_analyse.c) and print it, with, given a measured result, a lower
 * bound on the time of its misses. Reads files, measures nothing, never
 * exits: main.c prints err and exits with the status returned.
 */
#ifndef MLPSCOPE_CMD_TRACE_H
#define MLPSCOPE_CMD_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"

/* The command: analyse trace_path and print the report to out; with
 * json_path, add the time of the misses under each bound of that result.
 * 0 ok; 2 when the file holds no lackey record at all or the JSON is not a
 * readable mlpscope result; 1 for I/O failure. err gets one line. */
int trace_cmd_run(const char *trace_path, const char *json_path_or_NULL, FILE *out, char *err, size_t errlen);

/* As trace_cmd_run with the cache sizes to evaluate (NULL: the defaults). */
int trace_cmd_run_caches(const char *trace_path, const char *json_path_or_NULL, const uint64_t *cache_bytes,
			 size_t ncaches, FILE *out, char *err, size_t errlen);

/* The registry's entry: the trace in o->paths[0], --from in o->from_path,
 * the caches this machine reports. Exit status as trace_cmd_run. */
int cmd_trace(const struct options *o, char *err, size_t errlen);

#endif
