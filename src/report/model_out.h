/*
 * Text writer of the model command (see src/cmd/model.c).
 */
#ifndef MLPSCOPE_REPORT_MODEL_OUT_H
#define MLPSCOPE_REPORT_MODEL_OUT_H

#include <stdio.h>

#include "cmd/model_inputs.h"

/* L, Q and B with their sources, then per K the measured ns per access,
 * the bound and the binding term(s). */
void model_write_text(FILE *out, const struct model_inputs *in);

#endif
