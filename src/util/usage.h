/* usage.h: the one helper that writes a usage error into a caller's buffer.
 * The CLI parser, the plan builder and the section registry all reject bad
 * input the same way: a printf-formatted message in err and the usage exit
 * status (2) returned, which main.c passes on as the exit code. Nothing here
 * prints or exits. */
#ifndef MLPSCOPE_UTIL_USAGE_H
#define MLPSCOPE_UTIL_USAGE_H

#include <stddef.h>

/* Format fmt into err (at most errlen bytes, always terminated when errlen
 * > 0) and return 2, the usage exit status. */
int usage_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
