/*
 * The DRAM map's part of the qmodel command's output (qmodel_dram_out.c).
 */
#ifndef MLPSCOPE_REPORT_QMODEL_DRAM_OUT_H
#define MLPSCOPE_REPORT_QMODEL_DRAM_OUT_H

#include <stdio.h>

#include "report/qmodel_table.h"

struct jsonw;

/* The per-feed row-buffer table and the two-walks case in text; in JSON a
 * row's "dram" object, and the table's "dram_map" and "dram_two_streams"
 * (null without a map). */
void qmodel_dram_write_text(FILE *out, const struct qmodel_table *t);
void qmodel_dram_row_json(struct jsonw *w, const struct qmodel_table *t, const struct qmodel_row *r);
void qmodel_dram_write_json(struct jsonw *w, const struct qmodel_table *t);

#endif
