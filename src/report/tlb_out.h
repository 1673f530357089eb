/*
 * Writers for the tlb section: an aligned text table with its steps and the
 * `tlb` JSON object. They read a tlb_result and write; they never measure.
 * Every translation figure is a difference of two chases (by subtraction):
 * nothing here counts TLB misses or page walks (no PMU is assumed).
 */
#ifndef MLPSCOPE_REPORT_TLB_OUT_H
#define MLPSCOPE_REPORT_TLB_OUT_H

#include <stdio.h>

#include "exp/tlb.h"
#include "util/jsonw.h"

void tlb_write_text(const void *result, FILE *f);

/* Writes "tlb": {...} into the object w is in. */
void tlb_write_json(const void *result, struct jsonw *w, const char *key);

/* Its view (report/tlb_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_tlb;

#endif
