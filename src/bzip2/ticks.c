/*
 * The clock the stage and walk ticks are read from (bz2.h): the
 * instrument's, handed in by bz2_set_clock (its calibrated counter, whose
 * units it converts), so the decoder needs nothing of core/; until then
 * CLOCK_MONOTONIC's nanoseconds.
 */
#include "bzip2/bz2.h"

#include <time.h>

static uint64_t (*clock_hook)(void);

void bz2_set_clock(uint64_t (*now)(void))
{
	clock_hook = now;
}

uint64_t bz2_ticks(void)
{
	struct timespec t;

	if (clock_hook)
		return clock_hook();
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
