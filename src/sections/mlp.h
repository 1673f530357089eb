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

/* "; a load's latency falls after traffic here (mlp's control ran ...)"
 * into buf where mlp ran in this run and its control arm showed that, on
 * any page backing (mlp_latency_falls_after_traffic, the first arm that
 * does), else "": a state of this machine that any section timing an
 * idle load after a loaded one reads too. */
const char *mlp_section_fall_clause(const struct report *r, char *buf, size_t len);

#endif
