/*
 * The `tlb` section's result as other sections read it (its descriptor
 * and glue are sections/tlb.c).
 */
#ifndef MLPSCOPE_SECTIONS_TLB_H
#define MLPSCOPE_SECTIONS_TLB_H

#include "exp/tlb.h"
#include "run/run.h"

/* The TLB steps when it ran in this run, else NULL. */
const struct tlb_result *tlb_section_result(const struct report *r);

#endif
