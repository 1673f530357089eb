/*
 * Number formatting shared by the text writers and the plan's messages.
 */
#ifndef MLPSCOPE_REPORT_FORMAT_H
#define MLPSCOPE_REPORT_FORMAT_H

#include <stddef.h>

/* "1.00 GiB", "64 KiB", "512 B": binary units, for sizes. */
void report_format_bytes(char *out, size_t len, size_t bytes);

#endif
