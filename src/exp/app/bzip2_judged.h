/*
 * What `app bzip2` judges its own figures by, as types only (the result
 * holds them; the judging is exp/app/bzip2_predictions.c and
 * bzip2_hypotheses.c, declared in bzip2.h): the user's predictions, read
 * before the run (--predictions FILE: one AXIS FIGURE HYPOTHESIS a line,
 * '#' a comment; tests/data/bzip2/predictions.txt), and the six
 * hypotheses for the decoder's speed (too few loads visible, lane
 * bookkeeping, translation, LLC residency, shared request service, output
 * traffic), each for, against or undecided from the timing axes, with the
 * hardware counter that would decide it where timing cannot.
 */
#ifndef MLPSCOPE_EXP_APP_BZIP2_JUDGED_H
#define MLPSCOPE_EXP_APP_BZIP2_JUDGED_H

#include <stdbool.h>
#include <stddef.h>

#define APP_BZ2_PREDICTIONS_MAX 16

struct app_bzip2_prediction {
	char axis[24];            /* "lanes:8", "huffman", "workers:2" ... */
	const char *figure;       /* the measured figure it names: "walk_speedup" ... */
	double expected;
	char hypothesis[200];
	double measured;          /* NaN: not measured in this run */
	const char *verdict;      /* "supported", "contradicted", "inconclusive" */
	const char *why;          /* the verdict's reason, in words */
};

struct app_bzip2_predictions {
	char path[256];
	char sha256[65];          /* of the file as read, before anything was measured */
	char written_utc[32];     /* its modification time */
	double tolerance_pct;     /* twice the floor: a ratio of two timings each within it */
	unsigned n;
	struct app_bzip2_prediction p[APP_BZ2_PREDICTIONS_MAX];
};

#define APP_BZ2_HYPOTHESES 6

struct app_bzip2_hypothesis {
	const char *name;        /* "too few loads visible" ... */
	const char *verdict;     /* "for", "against", "undecided" */
	char evidence[200];      /* the figures behind the verdict, in words */
	const char *counter;     /* the counter that would decide it */
};

#endif
