/*
 * The `app` section's result as other sections read it (its descriptor and
 * glue are sections/app.c).
 */
#ifndef MLPSCOPE_SECTIONS_APP_H
#define MLPSCOPE_SECTIONS_APP_H

#include "exp/app/app.h"
#include "run/run.h"

/* Each kernel's walk and its chase reference when app ran in this run, else NULL. */
const struct app_result *app_section_result(const struct report *r);

#endif
