/*
 * The `multicore` section's result as other sections read it (its
 * descriptor and glue are sections/multicore.c).
 */
#ifndef MLPSCOPE_SECTIONS_MULTICORE_H
#define MLPSCOPE_SECTIONS_MULTICORE_H

#include "exp/multicore.h"
#include "run/run.h"

/* The threads' lanes sweep when it ran in this run, else NULL. */
const struct multicore_result *multicore_section_result(const struct report *r);

#endif
