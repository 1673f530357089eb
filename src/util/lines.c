/*
 * A fixed list of formatted lines: the slot after the last one held, or
 * nothing where the list is full.
 */
#include "util/lines.h"

#include <stdio.h>

bool lines_vadd(char *lines, size_t line_bytes, size_t cap, size_t used, const char *fmt, va_list ap)
{
	if (used >= cap)
		return false;
	vsnprintf(lines + used * line_bytes, line_bytes, fmt, ap);
	return true;
}
