/*
 * The ramp against the step. The fit's onset is a sampled point, and the
 * rise it marks begins somewhere before the next sampled N, so the check
 * takes that bracket, not the point, against the band: a coarse grid must
 * not turn "about Q/2" into "earlier" by where its points fell.
 */
#include "exp/window_ramp.h"

#include <math.h>
#include <string.h>

void window_ramp_check(const struct window_filler_result *fr, struct window_ramp_check *c)
{
	memset(c, 0, sizeof(*c));
	c->ratio_low = c->ratio_high = NAN;
	if (!fr->step_found || !fr->step_n_fits) {
		c->verdict = WINDOW_RAMP_NO_STEP;
		return;
	}
	c->step_n = fr->step_n_fits;
	if (!fr->ramp_found) {
		c->verdict = WINDOW_RAMP_NONE;
		return;
	}
	c->onset_n = c->next_n = fr->ramp_onset_n;
	for (unsigned i = 0; i + 1 < fr->npoints; i++)
		if (fr->points[i].n == fr->ramp_onset_n) {
			c->next_n = fr->points[i + 1].n;
			break;
		}
	c->ratio_low = (double)c->onset_n / c->step_n;
	c->ratio_high = (double)c->next_n / c->step_n;
	c->verdict = c->ratio_high < WINDOW_RAMP_HALF_LOW ? WINDOW_RAMP_EARLIER
		     : c->ratio_low > WINDOW_RAMP_HALF_HIGH ? WINDOW_RAMP_LATER
							   : WINDOW_RAMP_AT_HALF;
}

const char *window_ramp_verdict_key(enum window_ramp_verdict v)
{
	static const char *const keys[] = {
		[WINDOW_RAMP_NO_STEP] = "no_step", [WINDOW_RAMP_NONE] = "no_ramp", [WINDOW_RAMP_AT_HALF] = "at_half",
		[WINDOW_RAMP_EARLIER] = "earlier", [WINDOW_RAMP_LATER] = "later",
	};

	return (unsigned)v < sizeof(keys) / sizeof(keys[0]) ? keys[v] : "?";
}

const char *window_ramp_verdict_text(enum window_ramp_verdict v)
{
	static const char *const texts[] = {
		[WINDOW_RAMP_NO_STEP] = "no step to compare it with",
		[WINDOW_RAMP_NONE] = "no ramp above the floor before the step",
		[WINDOW_RAMP_AT_HALF] = "about Q/2",
		/* In parentheses: one string across two lines, not two elements. */
		[WINDOW_RAMP_EARLIER] = ("EARLIER than Q/2: another limit or the fillers' own issue time starts it; it "
					 "does not locate Q"),
		[WINDOW_RAMP_LATER] = "later than Q/2",
	};

	return (unsigned)v < sizeof(texts) / sizeof(texts[0]) ? texts[v] : "?";
}
