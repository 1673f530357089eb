/*
 * The queue model's request streams through a DRAM map: for each feed qmodel
 * simulates (K chains of scattered lines, a stream of consecutive ones), the
 * row hits, empties and conflicts its own addresses meet in arrival order,
 * the banks its in-flight requests keep busy, and beside them what the
 * derivation in docs/MODEL.md expects. Counts, no timing.
 */
#ifndef MLPSCOPE_ANALYSE_QMODEL_DRAM_H
#define MLPSCOPE_ANALYSE_QMODEL_DRAM_H

#include "analyse/dram.h"
#include "analyse/qmodel.h"

struct qmodel_dram {
	struct dram_count seen;      /* the model's own addresses, exact */
	double hit_model;            /* expected row-hit fraction */
	double banks_model;          /* expected distinct banks among the in-flight requests */
};

/* 0, -EINVAL (bad map or workload), -ENOMEM. */
int qmodel_dram_at(const struct dram_map *d, const struct qmodel_memory *m, const struct qmodel_workload *w,
		   struct qmodel_dram *out);

#endif
