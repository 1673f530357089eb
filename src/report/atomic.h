/*
 * Whole-or-nothing output files: write to a temporary file beside the target,
 * then rename over it. rename(2) within one directory is atomic, so a reader
 * sees the old file or the complete new one, never a truncated one.
 */
#ifndef MLPSCOPE_REPORT_ATOMIC_H
#define MLPSCOPE_REPORT_ATOMIC_H

#include <limits.h>
#include <stdio.h>

struct atomic_file {
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	FILE *f;
};

/* Create the temporary file now, so an unwritable destination is found
 * before any measurement. 0 or -errno (ENAMETOOLONG for long paths). */
int atomic_open(struct atomic_file *a, const char *path);

/* Flush, sync and rename into place. 0 or -errno; the temp file is removed
 * on failure. */
int atomic_commit(struct atomic_file *a);

/* Remove the temporary file; the destination is left untouched. Safe to
 * call on a file that was never opened. */
void atomic_abort(struct atomic_file *a);

#endif
