/*
 * mlpscope's plots, drawn from parsed JSON results (one or more runs on the
 * same axes, one series per run and curve). They read only documented keys
 * (docs/OUTPUT.md), so a live run and `compare` of saved files draw the same
 * way. They do not write files and do not judge whether runs are comparable:
 * that is compare's job.
 */
#ifndef MLPSCOPE_REPORT_PLOTS_H
#define MLPSCOPE_REPORT_PLOTS_H

#include <stddef.h>

#include "util/jsonr.h"
#include "report/svg.h"

enum plots_kind {
	PLOTS_LATENCY,           /* latency against working set */
	PLOTS_LANES_TIME,        /* time per access against lanes, model and knee */
	PLOTS_LANES_CONCURRENCY, /* t(1)/t(K) against lanes, model and knee */
	PLOTS_WINDOW,            /* ns per iteration against filler count */
	PLOTS_LOADED,            /* latency against delivered bandwidth */
	PLOTS_LANES_LEVELS,      /* t(1)/t(K) against lanes, one series per cache level (mlp --levels) */
	PLOTS_BANDWIDTH,         /* GB/s against threads, per kernel */
	PLOTS_MULTICORE,         /* total concurrency against K, per thread count */
	PLOTS_LATENCY_DIST,      /* histogram of per-region times over their minimum */
	PLOTS_APP_BZIP2,         /* decoded MB/s against lanes, per bzip2 variant (app.bzip2) */
	PLOTS_COUNT
};

/* File stem and id of a plot ("latency", "lanes_time", ...). */
const char *plots_name(enum plots_kind k);

/* Build plot k over n documents, labels[i] naming run i in legends.
 * p is initialised here (svg_plot_free it in every case). 0 when drawn,
 * -ENOENT when no document has the section, -ENOMEM. */
int plots_build(enum plots_kind k, struct svg_plot *p, const struct jsonr_value *const *docs,
		const char *const *labels, size_t n);

/* The lanes experiment's arms in a document: mlp itself, or mlp.small and
 * mlp.huge after --pages both. Returns how many (0..2); pages[i] is the arm's
 * pages.requested ("small", "huge", or "?" when absent). */
size_t plots_mlp_arms(const struct jsonr_value *doc, const struct jsonr_value *arms[2], const char *pages[2]);

#endif
