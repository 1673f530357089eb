/*
 * A fixed list of formatted lines (warnings, notes, what a summary hides):
 * a line past the list's room is dropped, never an overrun, because these
 * are written while a run measures and a message must not cost it memory.
 */
#ifndef MLPSCOPE_UTIL_LINES_H
#define MLPSCOPE_UTIL_LINES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Format one line into slot `used` of a list of `cap` lines of line_bytes
 * each (lines: its first byte), cut to fit. True when written (the caller
 * counts it), false when the list is full. */
bool lines_vadd(char *lines, size_t line_bytes, size_t cap, size_t used, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

#endif
