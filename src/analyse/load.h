/*
 * The one loader of saved mlpscope results, shared by every command that
 * reads them (compare, model, trace --from), so each says the same thing
 * about the same bad file and exits with the same status.
 */
#ifndef MLPSCOPE_ANALYSE_LOAD_H
#define MLPSCOPE_ANALYSE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "util/jsonr.h"

/* Parse path and check it is an mlpscope result this build can read:
 * "tool": "mlpscope" and a whole schema_version from 1 to
 * RESULT_SCHEMA_VERSION. 0, or:
 *   -EBADMSG          not JSON, or truncated
 *   -EPROTO           JSON, but not an mlpscope result
 *   -EPROTONOSUPPORT  a newer schema than this build reads
 *   -EDOM             a value outside what a measurement can produce
 *                     (analyse/vet.c: lanes = 1e300, level = 0, ...)
 *   -EFBIG, -EISDIR   too large, or a directory
 *   -E2BIG            more values than the reader holds (jsonr.h)
 *   -EINVAL           not a regular file (a FIFO, a device): refused
 *                     without blocking
 *   other -errno      reading failed
 * err holds one line naming the file; doc is freed on failure. */
int result_load(const char *path, struct jsonr_doc *doc, char *err, size_t errlen);

/* Whether result_load's rc is the file's fault (a usage error, exit 2)
 * rather than the system's (exit 1). */
bool result_load_usage_error(int rc);

#endif
