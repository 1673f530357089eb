/*
 * `mlpscope model --from run.json`: the bound t(K) >= max(L/K, L/Q, bytes/B)
 * with L, Q and B read from a measured result (cmd/model_inputs.c), printed
 * next to the measured lanes curve with the binding term named at each K.
 * Reads a file, measures nothing, never exits.
 */
#ifndef MLPSCOPE_CMD_MODEL_H
#define MLPSCOPE_CMD_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"

/* Print, per section, L, Q and B with their sources and, per K, the measured
 * ns_per_access, the bound and the binding term(s). 0 ok; 2 for a file that
 * is not a readable mlpscope result of schema_version <= 1; 1 for I/O
 * failure (reading the file or writing out). err gets one line. */
int model_cmd_run(const char *json_path, FILE *out, char *err, size_t errlen);

/* The registry's entry: --from in o->from_path, the text on stdout. */
int cmd_model(const struct options *o, char *err, size_t errlen);

#endif
