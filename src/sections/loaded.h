/*
 * The `loaded` section's result as other sections read it (its descriptor
 * and glue are sections/loaded.c).
 */
#ifndef MLPSCOPE_SECTIONS_LOADED_H
#define MLPSCOPE_SECTIONS_LOADED_H

#include "exp/loaded.h"
#include "run/run.h"

/* Latency under load when it ran in this run, else NULL. */
const struct loaded_result *loaded_section_result(const struct report *r);

#endif
