/*
 * `app bzip2 --predictions FILE`: what the user expected of each axis,
 * written before the run, kept beside what the run measured and judged
 * against the run's floor. One prediction a line: AXIS EXPECTED HYPOTHESIS,
 * '#' starts a comment (tests/data/bzip2/predictions.txt).
 */
#ifndef MLPSCOPE_EXP_APP_BZIP2_PREDICTIONS_H
#define MLPSCOPE_EXP_APP_BZIP2_PREDICTIONS_H

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

/* Parse text (len bytes) into ps (path and hash not touched): 0, or
 * -EINVAL with err "line N: ... (expected ...)". */
int app_bzip2_predictions_parse(const char *text, size_t len, struct app_bzip2_predictions *ps, char *err,
				size_t errlen);
/* Read and parse path, recording its hash and time: 0, or -errno with err
 * naming the file ("--predictions: PATH: ..."). */
int app_bzip2_predictions_read(const char *path, struct app_bzip2_predictions *ps, char *err, size_t errlen);

struct app_bzip2_result;
/* Each prediction's measured figure from r, and its verdict against
 * floor_pct (the run's floor; not above 0: none measured, every verdict
 * inconclusive): within twice the floor of the expected value supported,
 * beyond twice that contradicted, between the two inconclusive. */
void app_bzip2_predictions_judge(struct app_bzip2_predictions *ps, const struct app_bzip2_result *r,
				 double floor_pct);

#endif
