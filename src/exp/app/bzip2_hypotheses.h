/*
 * The six hypotheses for the decoder's speed (too few loads visible, lane
 * bookkeeping, translation, LLC residency, shared request service, output
 * traffic), each judged for, against or undecided from the timing axes of
 * one `app bzip2` result, with the hardware counter that would decide it
 * where timing cannot. Judges only: measures nothing.
 */
#ifndef MLPSCOPE_EXP_APP_BZIP2_HYPOTHESES_H
#define MLPSCOPE_EXP_APP_BZIP2_HYPOTHESES_H

#define APP_BZ2_HYPOTHESES 6

struct app_bzip2_hypothesis {
	const char *name;        /* "too few loads visible" ... */
	const char *verdict;     /* "for", "against", "undecided" */
	char evidence[200];      /* the figures behind the verdict, in words */
	const char *counter;     /* the counter that would decide it */
};

struct app_bzip2_result;
/* Fills h[0..APP_BZ2_HYPOTHESES) from r's figures, judged against
 * band_pct (a ratio's band: twice the floor; not above 0: every verdict
 * undecided). */
void app_bzip2_hypotheses_judge(const struct app_bzip2_result *r, double band_pct,
				struct app_bzip2_hypothesis h[APP_BZ2_HYPOTHESES]);

#endif
