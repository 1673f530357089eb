/*
 * Writers of the model command (src/sections/model.c): per mlp arm, the inputs
 * with their sources, the envelope per K (every term, the binding one, the
 * margin to the next, the loaded latency), and what could set the plateau
 * with the evidence for and against each candidate. They print; the numbers
 * come from analyse/envelope.c.
 */
#ifndef MLPSCOPE_REPORT_MODEL_OUT_H
#define MLPSCOPE_REPORT_MODEL_OUT_H

#include <stdio.h>

#include "analyse/envelope.h"
#include "util/jsonw.h"

void model_write_text(FILE *out, const struct env_inputs *in);

/* The "model" object: terms[], binding[], loaded_latency[], inputs[] and
 * plateau[] over the n arms. */
void model_write_json(struct jsonw *w, const char *from_path, const struct env_inputs *in, size_t n);

/* The sweep point the plateau is judged at: the first K within the floor
 * of the best time (estimate.plateau_from_lanes), else the fastest point. */
size_t model_plateau_index(const struct env_inputs *in);

#endif
