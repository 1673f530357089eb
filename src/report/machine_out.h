/*
 * Writers for the machine section: an aligned text block and the "machine"
 * JSON object. They print what machine_probe gathered and nothing else; a
 * fact it could not read is written as absent or null, never as zero.
 */
#ifndef MLPSCOPE_REPORT_MACHINE_OUT_H
#define MLPSCOPE_REPORT_MACHINE_OUT_H

#include <stdio.h>

#include "exp/machine.h"
#include "util/jsonw.h"

struct jsonr_value;

/* The human section, starting with a "machine:" line. */
void machine_write_text(const void *result, FILE *f);

/* The object under key "machine", written into whatever object w is in. */
void machine_write_json(const void *result, struct jsonw *w, const char *key);

/* caches_reported.csv from a parsed result. 0 or -errno. */
int machine_write_csv(const char *dir, const struct jsonr_value *doc);

/* Its view (report/machine_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_machine;

#endif
