/*
 * Report writers. They read the result model and write; they never measure
 * and never decide exit codes.
 */
#ifndef MLPSCOPE_REPORT_REPORT_H
#define MLPSCOPE_REPORT_REPORT_H

#include <stdio.h>

#include "result.h"

#define REPORT_SCHEMA_VERSION 1

void report_write_json(const struct report *r, FILE *f);
void report_write_text(const struct report *r, FILE *f);

/* "1.00 GiB", "64 KiB", "512 B": binary units, for sizes. */
void report_format_bytes(char *out, size_t len, size_t bytes);

#endif
