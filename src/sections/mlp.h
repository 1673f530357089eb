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

/* Whether mlp ran in this run and its control arm showed a load's latency
 * falling after traffic, on any page backing (mlp_latency_falls_after_traffic):
 * a state of this machine that any section timing an idle load after a
 * loaded one reads too. The first arm that shows it sets *speedup and *lanes. */
bool mlp_section_latency_falls_after_traffic(const struct report *r, double *speedup, unsigned *lanes);

#endif
