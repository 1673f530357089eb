/*
 * `mlpscope model --from run.json [window.json]`: the envelope of
 * analyse/envelope.h at each K of the measured lanes curve, every term with its
 * source, the binding term and its margin, and what could set the plateau.
 * Reads files, measures nothing, never exits.
 */
#ifndef MLPSCOPE_SECTIONS_MODEL_H
#define MLPSCOPE_SECTIONS_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "frame/options.h"

/* Print, per mlp arm of json_path, the envelope (window from window_path
 * when json_path has none; NULL: none); with json_out, also the "model"
 * object there. 0 ok; 2 for a file that is not a readable mlpscope result
 * of schema_version <= 1 or has no mlp sweep; 1 for I/O failure (reading a
 * file or writing out). err gets one line. */
int model_cmd_run(const char *json_path, const char *window_path, const char *json_out, FILE *out, char *err,
		  size_t errlen);

/* The registry's entry: --from as declared in model.c, the text on stdout. */
int cmd_model(const struct options *o, char *err, size_t errlen);

#endif
