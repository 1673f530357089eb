/*
 * Number formatting shared by the text writers and the plan's messages.
 */
#ifndef MLPSCOPE_UTIL_FORMAT_H
#define MLPSCOPE_UTIL_FORMAT_H

#include <stddef.h>

/* "1.00 GiB", "64 KiB", "512 B": binary units, for sizes. */
void report_format_bytes(char *out, size_t len, size_t bytes);

/* How every text writer says whose noise floor a section's tolerance is:
 * the run's, measured once by the noise section, or the section's own,
 * measured on its own points with the shared estimator (stats_floor). */
#define REPORT_FLOOR_RUN "the run's, from noise"
#define REPORT_FLOOR_OWN "this section's own, over its points"

#endif
