/*
 * The `latency` section's result as other sections read it (its descriptor
 * and glue are sections/latency.c).
 */
#ifndef MLPSCOPE_SECTIONS_LATENCY_H
#define MLPSCOPE_SECTIONS_LATENCY_H

#include "exp/latency.h"
#include "run/run.h"

/* The latency curve, its levels and knees, when it ran in this run, else NULL. */
const struct latency_result *latency_section_result(const struct report *r);

#endif
