/*
 * Text and JSON of the qmodel command: per feed (K chains, a stream) the
 * simulated makespan beside the bound, and what the characteriser saw; with
 * --chase-vs-stream, seed 003's scenario B: the same reads as one dependent
 * chain and as a stream, strides and the read/write mix side by side.
 */
#ifndef MLPSCOPE_REPORT_QMODEL_OUT_H
#define MLPSCOPE_REPORT_QMODEL_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyse/dram.h"
#include "analyse/qmodel.h"
#include "analyse/qmodel_dram.h"

struct jsonw;

#define QMODEL_OUT_MAX_ROWS 33   /* up to 32 chain counts, then the stream */

struct qmodel_row {
	uint64_t chains;             /* K; 0: the stream of independent requests */
	struct qmodel_result r;
	struct qmodel_bound b;
	struct qmodel_dram dram;     /* when the table has a DRAM map */
};

struct qmodel_table {
	struct qmodel_memory m;
	uint64_t requests;
	struct qmodel_row rows[QMODEL_OUT_MAX_ROWS];
	size_t nrows;
	bool versus;                 /* the chase-vs-stream comparison ran */
	struct qmodel_comparison cmp;
	bool has_dram;               /* --dram-map given: rows carry dram, and two */
	struct dram_map map;
	struct dram_two_streams two; /* two walks of `requests` lines each */
};

void qmodel_write_text(FILE *out, const struct qmodel_table *t);

/* The row's feed as its text tables name it ("K = 4", "stream"), into out. */
void qmodel_row_name(char *out, size_t size, const struct qmodel_row *r);

/* The object "qmodel": inputs, rows, and chase_vs_stream when it ran. */
void qmodel_write_json(struct jsonw *w, const struct qmodel_table *t);

/* The DRAM map's part (report/qmodel_dram_out.c): the per-feed row-buffer
 * table and the two-walks case in text; in JSON a row's "dram" object, and
 * the table's "dram_map" and "dram_two_streams" (null without a map). */
void qmodel_dram_write_text(FILE *out, const struct qmodel_table *t);
void qmodel_dram_row_json(struct jsonw *w, const struct qmodel_table *t, const struct qmodel_row *r);
void qmodel_dram_write_json(struct jsonw *w, const struct qmodel_table *t);

#endif
