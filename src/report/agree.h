/*
 * "Sections agree": where latency, mlp at K = 1 and loaded's idle point
 * each measure one random dependent load from a working set far past the
 * caches, the figures are set side by side at the same set and page size,
 * and a difference beyond the noise floor is flagged with the reason found
 * in the results themselves (working set, page backing, warm-up, load).
 * Derived from results; measures nothing.
 */
#ifndef MLPSCOPE_REPORT_AGREE_H
#define MLPSCOPE_REPORT_AGREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "exp/latency.h"
#include "exp/loaded.h"
#include "exp/mlp.h"
#include "util/jsonw.h"

#define AGREE_LINES_MAX 8
#define AGREE_FIGURES_MAX 4

struct agree_figure {
	const char *section;         /* "latency", "mlp K=1", "loaded idle", "warm chase" */
	double ns;                   /* ns per dependent load */
	size_t set_bytes;            /* the working set it was measured at */
	double huge_fraction;        /* page backing obtained */
	double diff_pct;             /* 100 * (ns / latency's - 1); 0 for latency itself */
	bool differs;                /* |diff_pct| beyond the tolerance */
	char reason[200];            /* why, when it differs (or why a slower warm chase is not a difference); "" otherwise */
};

struct agree_line {
	size_t set_bytes;
	bool huge;                   /* pages requested */
	unsigned nfig;               /* latency first */
	struct agree_figure fig[AGREE_FIGURES_MAX];
};

struct agree_result {
	double tolerance_pct;        /* the run's noise floor */
	unsigned nlines;
	struct agree_line lines[AGREE_LINES_MAX];
};

/* Fill a: one line per working set that latency and at least one of mlp
 * (K = 1; nmlp results), loaded (idle) and latency's own warm references
 * (a back-to-back chase at each level's middle) measured on the same page size.
 * Any input may be NULL (not run); floor_pct NAN: 10%. Pure. */
void agree_compute(const struct latency_result *lat, const struct mlp_result *mlp, unsigned nmlp,
		   const struct loaded_result *ld, double floor_pct, struct agree_result *a);

void agree_write_text(const void *result, FILE *f);

/* Writes "agreement": {...}; nothing when a has no line. */
void agree_write_json(const void *result, struct jsonw *w, const char *key);

/* Its view (report/agreement_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_agreement;

#endif
