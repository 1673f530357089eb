/*
 * `app bzip2`'s budget deadlines, apart from the run that obeys them so
 * that every timed part of the app (the variants in bzip2.c, the
 * translation pairs in bzip2_translation.c) asks the same clock without
 * calling back into the run. The up-front shrink (app_bzip2_fit) works
 * from a probe; a shared machine can run at half that speed for seconds,
 * so each phase also stops starting optional trials past its share of the
 * budget (the cold trial and one warm one always run), the peers are
 * left out past theirs, and the whole-process rounds stop past theirs
 * (one round always runs once begun).
 */
#include "exp/app/bzip2.h"

uint64_t app_bzip2_now(const struct app_bzip2_params *p)
{
	return p->wall_ns ? p->wall_ns() : clock_wall_ns();
}

bool app_bzip2_past(const struct app_bzip2_params *p, enum app_bzip2_phase ph)
{
	static const double share[] = {0.55, 0.65, 0.75, 0.9, 0.97};

	return p->budget_seconds > 0 && (double)(app_bzip2_now(p) - p->start_ns) * 1e-9 > share[ph] * p->budget_seconds;
}
