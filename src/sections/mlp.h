/*
 * The `mlp` section's result as other sections read it (its descriptor
 * and glue are sections/mlp.c).
 */
#ifndef MLPSCOPE_SECTIONS_MLP_H
#define MLPSCOPE_SECTIONS_MLP_H

#include "exp/mlp.h"
#include "run/run.h"

/* The lanes sweep of each page backing (and its levels) when it ran in this run, else NULL. */
const struct mlp_arms *mlp_section_result(const struct report *r);

#endif
