/*
 * Opening a file named on the command line for reading, the one way every
 * reader (JSON results, lackey traces) does it: a FIFO with no writer would
 * block forever and a device would be read as if it were data, so only
 * regular files are accepted, and every refusal names the path and the
 * reason. It reads nothing itself.
 */
#ifndef MLPSCOPE_UTIL_INPUTFILE_H
#define MLPSCOPE_UTIL_INPUTFILE_H

#include <stddef.h>

/* Open path read-only (close-on-exec, blocking reads). Returns the fd, or:
 *   -EISDIR   a directory
 *   -EINVAL   exists but is not a regular file (FIFO, socket, device);
 *             checked without blocking, before anything is read
 *   -errno    open or fstat failed (ENOENT, EACCES, ...)
 * err holds one line: "PATH: reason". */
int inputfile_open(const char *path, char *err, size_t errlen);

/* Reads the whole regular file at path (opened by inputfile_open) into a
 * malloc'd buffer, *data and *len. Returns 0, or inputfile_open's codes
 * (err then holds its line), -ENODATA for an empty file, -EFBIG when it
 * holds more than max_bytes (*len is its size), -ENOMEM, or -EIO when it
 * could not be read whole (it changed size); *data is NULL on failure.
 * The callers word every other failure for their option. */
int inputfile_read_all(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err,
		       size_t errlen);

/* Whether inputfile_open's failure is the argument's fault (a usage error)
 * rather than the system's. */
int inputfile_usage_error(int rc);

#endif
