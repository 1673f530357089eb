/*
 * The run object's helpers: warnings, the run's floor. Each section's result is freed
 * through its registry row (registry_free_results), not here.
 */
#include "run/run.h"

#include "util/lines.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void result_warn(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->nwarnings += lines_vadd(r->warnings[0], sizeof(r->warnings[0]), REPORT_MAX_WARNINGS, (size_t)r->nwarnings,
				   fmt, ap);
	va_end(ap);
}

double report_run_floor_pct(const struct report *r)
{
	return r->has_noise_floor ? r->noise_floor_pct : NAN;
}
