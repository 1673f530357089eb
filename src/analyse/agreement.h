/*
 * "Sections agree": where latency, mlp at K = 1, loaded's idle point and
 * each app kernel's chase reference measure one random dependent load from
 * the same working set, the figures are set side by side at the same set and page size,
 * and a difference beyond the noise floor is flagged with the reason found
 * in the results themselves (working set, page backing, warm-up, load).
 * Derived from results; measures nothing, writes nothing (its writers are
 * report/agreement_out.h).
 */
#ifndef MLPSCOPE_ANALYSE_AGREEMENT_H
#define MLPSCOPE_ANALYSE_AGREEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "exp/latency_curve.h"
#include "exp/loaded.h"
#include "exp/mlp.h"

#define AGREEMENT_LINES_MAX 12
#define AGREEMENT_FIGURES_MAX 6

struct agreement_figure {
	const char *section;         /* "latency", "mlp K=1", "loaded idle", "warm chase", "app hash chase" */
	double ns;                   /* ns per dependent load */
	size_t set_bytes;            /* the working set it was measured at */
	double huge_fraction;        /* page backing obtained */
	double diff_pct;             /* 100 * (ns / latency's - 1); 0 for latency itself */
	bool differs;                /* |diff_pct| beyond the tolerance */
	char reason[200];            /* why, when it differs (or why a slower warm chase is not a difference); "" otherwise */
};

struct agreement_line {
	size_t set_bytes;
	bool huge;                   /* pages requested */
	unsigned nfig;               /* latency first */
	struct agreement_figure fig[AGREEMENT_FIGURES_MAX];
};

struct agreement_result {
	double tolerance_pct;        /* the run's noise floor */
	unsigned nlines;
	struct agreement_line lines[AGREEMENT_LINES_MAX];
};

/* Fill a: one line per working set that latency and at least one of mlp
 * (K = 1; nmlp results), loaded (idle) and latency's own warm references
 * (a back-to-back chase at each level's middle) measured on the same page size.
 * Any input may be NULL (not run); floor_pct NAN: 10%. Pure. */
void agreement_compute(const struct latency_curve *lat, const struct mlp_result *mlp, unsigned nmlp,
		   const struct loaded_result *ld, double floor_pct, struct agreement_result *a);

/* A chase reference another section timed (each app kernel's t(1)): one
 * dependent load at a working set and page backing, after an untimed pass
 * over its whole chain. */
struct agreement_chase {
	const char *section;         /* "app hash chase": a string that outlives a */
	double ns;
	size_t set_bytes;
	bool huge;                   /* pages requested */
	double huge_fraction;        /* page backing obtained */
	double lead_in_loads;        /* untimed loads on its chain before each region */
	/* The state it was timed in where that state reads faster than an
	 * idle machine ("each trial right after 2 threads' traffic; ..."):
	 * the cause named when it reads faster than latency beyond the
	 * floor; read while agreement_add_chases runs. NULL: timed idle,
	 * as latency is. */
	const char *faster_state;
};

/* Set each chase beside latency's curve at its set and pages, into a after
 * agreement_compute: two-sided within a's tolerance, a difference with the
 * reasons the results show. Pure. */
void agreement_add_chases(struct agreement_result *a, const struct latency_curve *lat,
			  const struct agreement_chase *c, unsigned n);

#endif
