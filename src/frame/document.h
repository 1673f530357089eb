/*
 * The whole-document writers (text.c, json.c): they walk the registry and
 * call each section's own writer. They read the result model and write;
 * they never measure and never decide exit codes.
 */
#ifndef MLPSCOPE_FRAME_DOCUMENT_H
#define MLPSCOPE_FRAME_DOCUMENT_H

#include <stdio.h>

#include "run/run.h"

#define REPORT_SCHEMA_VERSION RESULT_SCHEMA_VERSION

struct summary;

void report_write_json(const struct report *r, FILE *f);

/* The headline summary of r, read back from its own JSON document so the
 * text, the JSON and the HTML show the same figures. 0, or nonzero when
 * the document could not be written or read back (no summary then). */
int report_build_summary(const struct report *r, struct summary *sum);
void report_write_text(const struct report *r, FILE *f);

/* The document r would write, parsed and vetted as every reader vets a
 * stored result: 0, or nonzero with a warning added to r saying what a
 * reader would refuse (the writer and the readers must never disagree). */
int report_check_readable(struct report *r);

#endif
