/*
 * Writers for the agreement section ("sections agree", the full report's
 * closing block): text and the JSON object. Write only; the comparison is
 * analyse/agreement.h's.
 */
#ifndef MLPSCOPE_REPORT_AGREEMENT_OUT_H
#define MLPSCOPE_REPORT_AGREEMENT_OUT_H

#include "analyse/agreement.h"
#include "report/writers.h"

/* The JSON writer writes "agreement": {...}, nothing when there is no line. */
REPORT_SECTION_TEXT_JSON(agreement_write_text, agreement_write_json);

/* Its view (report/agreement_view.c): the HTML tables. */
struct view;
extern const struct view view_agreement;

#endif
