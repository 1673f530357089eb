/*
 * Writers for the machine section: an aligned text block and the "machine"
 * JSON object. They print what machine_probe gathered and nothing else; a
 * fact it could not read is written as absent or null, never as zero.
 */
#ifndef MLPSCOPE_REPORT_MACHINE_OUT_H
#define MLPSCOPE_REPORT_MACHINE_OUT_H

#include "exp/machine.h"
#include "report/writers.h"
#include "util/jsonw.h"

/* The human section (starting with a "machine:" line), the "machine"
 * object, and caches_reported.csv. */
REPORT_SECTION_WRITERS(machine_write_text, machine_write_json, machine_write_csv);

/* Its view (report/machine_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_machine;

#endif
