/*
 * What other sections read of a latency run: the curve's points (set,
 * page backing, the chase figure and whether it was steady), the plateaus
 * derived from it and each level's warm reference. A copy, not a view:
 * latency's own result (exp/latency.h) can change shape without touching
 * the sections that size their sets by the curve (mlp levels, cache sizes,
 * app bzip2's chase) or set their figures beside it (agreement). Holds no
 * figure latency did not measure or derive. Made by exp/latency.c, the one
 * place that knows both shapes.
 */
#ifndef MLPSCOPE_EXP_LATENCY_CURVE_H
#define MLPSCOPE_EXP_LATENCY_CURVE_H

#include <stdbool.h>
#include <stddef.h>

#define LATENCY_CURVE_POINTS_MAX 128
#define LATENCY_CURVE_LEVELS_MAX 16

struct latency_curve_point {
	size_t size_bytes;
	bool huge;                   /* huge pages requested */
	double huge_fraction;        /* obtained, over the arena holding the point */
	double chase_ns;             /* random chase, ns per dependent load */
	unsigned ntrials;            /* its timed regions; 0: none kept */
	double trials_min_ns, trials_max_ns; /* their range */
	bool steady_checked;         /* the same chase timed over 4x longer regions */
	bool steady_ok;              /* within the tolerance of it, or not checked */
	double steady_long_ns;       /* that longer-region figure */
};

/* A plateau of the chase curve (exp/latency.h's struct latency_level). */
struct latency_curve_level {
	size_t first_bytes;          /* first working set on the plateau */
	size_t size_bytes;           /* the last: where the level ends */
	unsigned cache_level;        /* the OS cache matched to it (1 = L1), 0: none */
	bool reaches_max;            /* runs to the largest size: not seen to end */
	bool disagrees;              /* its end beyond a factor of 2 from the OS cache's */
	bool tlb;                    /* a TLB step, not a cache */
};

/* A level's warm reference: the same chase walked back to back. */
struct latency_curve_reference {
	unsigned point;              /* into points[] */
	size_t size_bytes;
	double curve_ns;             /* the curve point's chase_ns */
	double warm_ns;              /* back to back */
};

struct latency_curve {
	struct latency_curve_point points[LATENCY_CURVE_POINTS_MAX];
	unsigned npoints;            /* all: the huge-page curve first, then small pages */
	unsigned ncurve;             /* the huge-page curve, ascending size */
	struct latency_curve_level levels[LATENCY_CURVE_LEVELS_MAX];
	unsigned nlevels;
	struct latency_curve_reference refs[LATENCY_CURVE_LEVELS_MAX];
	unsigned nrefs;
	double tolerance_pct;        /* the levels' tolerance; NAN or 0: none derived */
};

struct latency_result;

/* r's curve, levels and references copied into out; out, or NULL when r is
 * NULL (latency did not run). Pure. */
const struct latency_curve *latency_curve_of(const struct latency_result *r, struct latency_curve *out);

/* Whether a curve point agrees with its warm reference within tol_pct,
 * whichever reads faster (stats_agree_within_pct): the agreement section
 * judges the same pair by the same rule. Pure. */
bool latency_reference_agrees(double curve_ns, double warm_ns, double tol_pct);

#endif
