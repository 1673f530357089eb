/*
 * Number formatting shared by the text writers and the plan's messages.
 */
#ifndef MLPSCOPE_UTIL_FORMAT_H
#define MLPSCOPE_UTIL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

/* "1.00 GiB", "64 KiB", "512 B": binary units, for sizes. */
void report_format_bytes(char *out, size_t len, size_t bytes);

/* How every text writer says whose noise floor a section's tolerance is:
 * the run's, measured once by the noise section, or the section's own,
 * measured on its own points with the shared estimator (stats_floor). */
#define REPORT_FLOOR_RUN "the run's, from noise"
#define REPORT_FLOOR_OWN "this section's own, over its points"
/* A section whose points had one min-of-3 group each (--quick) has no
 * spread of its own to read; it judges by the run's. */
#define REPORT_FLOOR_RUN_FALLBACK "the run's, from noise: too few groups for its own"

/* A section's floor in words, never "nan": "4.2% (" REPORT_FLOOR_OWN ")",
 * "15.4% (" REPORT_FLOOR_RUN_FALLBACK ")", or, NaN, "not known (one min-of-3
 * group per point and no run floor)". Returns out. */
const char *report_format_floor(char *out, size_t len, double pct, bool from_run);

/* The JSON word for where a section's floor came from: "own", "run", or
 * "none" (NaN: the floor itself is null). */
const char *report_floor_source(double pct, bool from_run);

#endif
