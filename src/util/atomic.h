/*
 * Whole-or-nothing output files: write to a temporary file beside the target,
 * then rename over it. rename(2) within one directory is atomic, so a reader
 * sees the old file or the complete new one, never a truncated one. Only a
 * regular file (or nothing) is ever replaced: rename would turn a device node
 * or FIFO into a plain file. A symbolic link is written through: its target
 * gets the new file, the link stays. Every open temporary is listed so a
 * signal handler can remove them all (atomic_remove_pending), and is locked
 * (flock) while its writer lives, so the next write to the same path can
 * sweep temporaries a killed writer left (NAME.tmp.XXXXXX) without touching
 * a live one. "-" names standard output: written as it goes, never atomic.
 */
#ifndef MLPSCOPE_UTIL_ATOMIC_H
#define MLPSCOPE_UTIL_ATOMIC_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

/* How many temporaries may be open at once (a run holds --json and --html,
 * then every CSV or SVG file of one directory until the directory commits). */
#define ATOMIC_MAX_PENDING 64

struct atomic_file {
	char path[PATH_MAX];  /* the target: a symbolic link's target, resolved */
	char tmp[PATH_MAX];
	FILE *f;
	bool is_stdout;       /* path was "-": f writes to standard output */
};

/* Whether path names standard output ("-") rather than a file. */
bool atomic_is_stdout(const char *path);

/* Whether path may be written by rename: 0 when it is absent or a regular
 * file; -EISDIR for a directory; -EEXIST for anything else that exists (a
 * device, FIFO or socket: never replaced); -errno when stat fails otherwise. */
int atomic_check_target(const char *path);

/* Check the target (as atomic_check_target) and create the temporary file
 * now, so an unwritable or refused destination is found before any
 * measurement; stale temporaries of path's own naming whose writer is gone
 * are removed first. 0 or -errno (ENAMETOOLONG for long paths, EMFILE when
 * ATOMIC_MAX_PENDING are open, ENOLINK for a symbolic link to nothing).
 * "-": a->f writes to standard output (fd 1), nothing is created. */
int atomic_open(struct atomic_file *a, const char *path);

/* Flush, sync and rename into place. 0 or -errno (the errno of the failed
 * write: ENOSPC, EFBIG, EIO...); the temp file is removed on failure, and
 * -EEXIST if the target became a non-regular file since atomic_open. For
 * stdout: flush, and -errno when any write to it failed. Between
 * atomic_dir_begin and atomic_dir_end the rename waits for atomic_dir_end. */
int atomic_commit(struct atomic_file *a);

/* Remove the temporary file; the destination is left untouched. Safe to
 * call on a file that was never opened. */
void atomic_abort(struct atomic_file *a);

/* A directory of outputs (--svg DIR, --csv DIR), whole or nothing: begin
 * creates dir when missing (its parent must exist; -ENOTDIR when a file is
 * in the way); until end, every commit writes and syncs its temporary and
 * every atomic_remove is held back. end(rc) with rc 0 renames them all into
 * place and does the removals, returning 0 or -errno; with rc != 0 it drops
 * every temporary, removes dir when begin made it, and returns rc. The
 * renames are separate steps: a reader listing dir during them may see old
 * and new files side by side, but a failure while writing leaves dir as it
 * was. */
int atomic_dir_begin(const char *dir);
int atomic_dir_end(int rc);

/* Remove path (a file of an earlier run that this run does not write):
 * 0 when it is gone or was never there, else -errno. Held back until
 * atomic_dir_end inside a directory. */
int atomic_remove(const char *path);

/* Unlink every open temporary (and rmdir a directory atomic_dir_begin
 * made). Async-signal-safe (it only calls unlink and rmdir), for a handler
 * that then _exits. */
void atomic_remove_pending(void);

/* What an atomic_* rc means, for an error line ("exists and is not a
 * regular file" for -EEXIST, strerror otherwise). */
const char *atomic_strerror(int rc);

/* 0 when every write to f so far succeeded; else -errno of the failed
 * write, found by flushing again (the error repeats: a full disk is still
 * full), or -EIO when the flush no longer fails. For writers that return
 * an rc, so the message names the cause rather than "I/O error". */
int atomic_stream_error(FILE *f);

/* A stream that discards what is written to it: the text report's stream
 * when an output option took stdout ("-"). Never closed. */
FILE *atomic_discard_stream(void);

#endif
