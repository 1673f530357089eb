/*
 * The qmodel command's table: per feed (K chains, a stream) the simulated
 * result, its bound and the DRAM map's counts, with the run's inputs. Shared
 * by its text and JSON writers (qmodel_out.c) and the DRAM map's part
 * (qmodel_dram_out.c).
 */
#ifndef MLPSCOPE_REPORT_QMODEL_TABLE_H
#define MLPSCOPE_REPORT_QMODEL_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyse/dram.h"
#include "analyse/qmodel.h"
#include "analyse/qmodel_dram.h"

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

/* The row's feed as its text tables name it ("K = 4", "stream"), into out. */
static inline void qmodel_row_name(char *out, size_t size, const struct qmodel_row *r)
{
	if (r->chains)
		snprintf(out, size, "K = %llu", (unsigned long long)r->chains);
	else
		snprintf(out, size, "stream");
}

#endif
