/*
 * Number formatting shared by every text writer (and by the plan's
 * messages): sizes in binary units. A leaf: it includes nothing of ours but
 * its header, so any writer may use it without an include cycle.
 */
#include "util/format.h"

#include <math.h>
#include <stdio.h>

void report_format_bytes(char *out, size_t len, size_t bytes)
{
	static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(out, len, "%zu B", bytes);
	else if (v == (double)(size_t)v)
		snprintf(out, len, "%.0f %s", v, unit[u]);
	else
		snprintf(out, len, "%.2f %s", v, unit[u]);
}

const char *report_format_floor(char *out, size_t len, double pct, bool from_run)
{
	if (!isfinite(pct))
		snprintf(out, len, "not known (one min-of-3 group per point and no run floor)");
	else
		snprintf(out, len, "%.1f%% (%s)", pct, from_run ? REPORT_FLOOR_RUN_FALLBACK : REPORT_FLOOR_OWN);
	return out;
}

const char *report_floor_source(double pct, bool from_run)
{
	return !isfinite(pct) ? "none" : from_run ? "run" : "own";
}
