/*
 * Writers for the tlb section: an aligned text table with its steps and the
 * `tlb` JSON object. They read a tlb_result and write; they never measure.
 * Every translation figure is a difference of two chases (by subtraction):
 * nothing here counts TLB misses or page walks (no PMU is assumed).
 */
#ifndef MLPSCOPE_REPORT_TLB_OUT_H
#define MLPSCOPE_REPORT_TLB_OUT_H

#include "exp/tlb.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The JSON writer writes "tlb": {...} into the object w is in. */
REPORT_SECTION_TEXT_JSON(tlb_write_text, tlb_write_json);

/* Its view (report/tlb_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_tlb;

#endif
