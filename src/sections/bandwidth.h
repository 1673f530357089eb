/*
 * The `bandwidth` section's result as other sections read it (its
 * descriptor and glue are sections/bandwidth.c).
 */
#ifndef MLPSCOPE_SECTIONS_BANDWIDTH_H
#define MLPSCOPE_SECTIONS_BANDWIDTH_H

#include "exp/bandwidth.h"
#include "run/run.h"

/* The streams when they ran in this run, else NULL. */
const struct bandwidth_result *bandwidth_section_result(const struct report *r);

#endif
