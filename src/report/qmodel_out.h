/*
 * Text and JSON of the qmodel command: per feed (K chains, a stream) the
 * simulated makespan beside the bound, and what the characteriser saw; with
 * --chase-vs-stream, seed 003's scenario B: the same reads as one dependent
 * chain and as a stream, strides and the read/write mix side by side.
 */
#ifndef MLPSCOPE_REPORT_QMODEL_OUT_H
#define MLPSCOPE_REPORT_QMODEL_OUT_H

#include <stdio.h>

#include "report/qmodel_table.h"

struct jsonw;

void qmodel_write_text(FILE *out, const struct qmodel_table *t);

/* The object "qmodel": inputs, rows, and chase_vs_stream when it ran. */
void qmodel_write_json(struct jsonw *w, const struct qmodel_table *t);

#endif
