/*
 * The whole-document writers (text.c, json.c): they walk the registry and
 * call each section's own writer. They read the result model and write;
 * they never measure and never decide exit codes.
 */
#ifndef MLPSCOPE_REPORT_REPORT_H
#define MLPSCOPE_REPORT_REPORT_H

#include <stdio.h>

#include "result.h"

#define REPORT_SCHEMA_VERSION RESULT_SCHEMA_VERSION

void report_write_json(const struct report *r, FILE *f);
void report_write_text(const struct report *r, FILE *f);

#endif
