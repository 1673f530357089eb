/*
 * The window's ramp checked against its step. Seed 004's account: with a
 * limit of Q entries, the next iteration's first miss must also fit behind
 * the fillers of two groups, so the time starts to creep up once 2N passes
 * Q, a ramp from about Q/2 before the step at Q. The recorded runs do not
 * all bear that out (one recorded Intel server's load_fp ramps from N=32 with its step
 * at 187), so the section checks it filler by filler and says, instead of
 * claiming it. Pure: it reads a filler's points, ramp onset and step.
 */
#ifndef MLPSCOPE_EXP_WINDOW_RAMP_H
#define MLPSCOPE_EXP_WINDOW_RAMP_H

#include "exp/window.h"

/* "About Q/2": the seed's own pairs (stores 72 of 137, loads 250 of 487,
 * integer adds 210 of 400, FP adds 450 of 880) lie at 0.51-0.53 of the
 * step; a band of +-0.1 holds them with the sweep's spacing to spare. */
#define WINDOW_RAMP_HALF_LOW 0.4
#define WINDOW_RAMP_HALF_HIGH 0.6

enum window_ramp_verdict {
	WINDOW_RAMP_NO_STEP,       /* nothing to compare the ramp with */
	WINDOW_RAMP_NONE,          /* a step, but no ramp above the floor before it */
	WINDOW_RAMP_AT_HALF,       /* the onset's bracket meets 0.4..0.6 of the step's N */
	WINDOW_RAMP_EARLIER,       /* the whole bracket below it: something else rises first */
	WINDOW_RAMP_LATER,         /* the whole bracket above it */
};

struct window_ramp_check {
	enum window_ramp_verdict verdict;
	unsigned onset_n;          /* the last flat point (the fit's onset) */
	unsigned next_n;           /* the next sampled N: the rise starts in [onset_n, next_n) */
	unsigned step_n;           /* the largest N that fits */
	double ratio_low, ratio_high;  /* onset_n / step_n and next_n / step_n; NAN unless a ramp and a step */
};

void window_ramp_check(const struct window_filler_result *fr, struct window_ramp_check *c);

/* "at_half", "earlier", "later", "no_ramp", "no_step". */
const char *window_ramp_verdict_key(enum window_ramp_verdict v);

/* The verdict in words, for the text report. */
const char *window_ramp_verdict_text(enum window_ramp_verdict v);

#endif
