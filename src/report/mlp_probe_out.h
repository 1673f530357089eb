/*
 * Writers for the lanes section's loaded probe (exp/mlp_probe.h): its text
 * block and its JSON object (keys in docs/OUTPUT.md). They read and write,
 * never measure; a probe that did not run writes its state and reason only.
 */
#ifndef MLPSCOPE_REPORT_MLP_PROBE_OUT_H
#define MLPSCOPE_REPORT_MLP_PROBE_OUT_H

#include <stdio.h>

#include "exp/mlp_probe.h"
#include "util/jsonw.h"

/* Nothing when the probe was not planned. */
void mlp_probe_write_text(const struct mlp_probe *pr, FILE *f);

/* The "loaded_probe" object; nothing when the probe was not planned. */
void mlp_probe_write_json(struct jsonw *w, const struct mlp_probe *pr);

#endif
