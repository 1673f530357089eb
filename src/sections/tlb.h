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

/* Judge the TLB steps against what translation can add (tlb_check_bounds),
 * once a memory latency exists: the tlb section runs before the latency
 * curve, which hands over its largest set's latency. Marks the steps in
 * the tlb result and warns when any broke the bound; nothing when tlb did
 * not run. */
void tlb_section_judge_steps(struct report *r, double memory_latency_ns);

#endif
