/* usage.c: write a usage error message into a caller's buffer (usage.h).
 * Shared by cli.c, plan.c and frame/registry.c, which used to hold one copy
 * each. No hardware facts; no printing. */
#include "util/usage.h"

#include <stdarg.h>
#include <stdio.h>

int usage_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return 2;
}
