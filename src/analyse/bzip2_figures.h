/*
 * The decoded-throughput figures of a saved app.bzip2 result, read once so
 * compare and the fleet table name the same numbers: our decoder's best
 * single-thread variant, libbz2 on one thread over the same bytes, and the
 * best of the block-parallel worker counts. MB are 10^6 bytes of decoded
 * output per second (docs/OUTPUT.md). Reads documented keys only.
 */
#ifndef MLPSCOPE_ANALYSE_BZIP2_FIGURES_H
#define MLPSCOPE_ANALYSE_BZIP2_FIGURES_H

#include <stdbool.h>

#include "util/jsonr.h"

struct bzip2_figures {
	double best_mb_per_s;      /* best.mb_per_s: the fastest single-thread variant */
	double best_k;             /* its K */
	double libbz2_mb_per_s;    /* libbz2_mb_per_s */
	double workers_mb_per_s;   /* the highest workers[].mb_per_s */
	double workers_at;         /* at that many workers */
	double workers_most;       /* the largest worker count measured */
};

/* Fills f (NaN for a figure the result lacks); false when doc has no
 * app.bzip2 object. */
bool bzip2_figures_read(const struct jsonr_value *doc, struct bzip2_figures *f);

#endif
