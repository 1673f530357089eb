/*
 * Whole-or-nothing output files: write to a temporary file beside the target,
 * then rename over it. rename(2) within one directory is atomic, so a reader
 * sees the old file or the complete new one, never a truncated one. Only a
 * regular file (or nothing) is ever replaced: rename would turn a device node
 * or FIFO into a plain file. Every open temporary is listed so a signal
 * handler can remove them all (atomic_remove_pending).
 */
#ifndef MLPSCOPE_REPORT_ATOMIC_H
#define MLPSCOPE_REPORT_ATOMIC_H

#include <limits.h>
#include <stdio.h>

/* How many temporaries may be open at once (a run holds --json and --html,
 * then one CSV or SVG file at a time). */
#define ATOMIC_MAX_PENDING 8

struct atomic_file {
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	FILE *f;
};

/* Whether path may be written by rename: 0 when it is absent or a regular
 * file; -EISDIR for a directory; -EEXIST for anything else that exists (a
 * device, FIFO or socket: never replaced); -errno when stat fails otherwise. */
int atomic_check_target(const char *path);

/* Check the target (as atomic_check_target) and create the temporary file
 * now, so an unwritable or refused destination is found before any
 * measurement. 0 or -errno (ENAMETOOLONG for long paths, EMFILE when
 * ATOMIC_MAX_PENDING are open). */
int atomic_open(struct atomic_file *a, const char *path);

/* Flush, sync and rename into place. 0 or -errno; the temp file is removed
 * on failure, and -EEXIST if the target became a non-regular file since
 * atomic_open. */
int atomic_commit(struct atomic_file *a);

/* Remove the temporary file; the destination is left untouched. Safe to
 * call on a file that was never opened. */
void atomic_abort(struct atomic_file *a);

/* Unlink every open temporary. Async-signal-safe (it only calls unlink), for
 * a handler that then _exits. */
void atomic_remove_pending(void);

/* What an atomic_* rc means, for an error line ("exists and is not a
 * regular file" for -EEXIST, strerror otherwise). */
const char *atomic_strerror(int rc);

#endif
