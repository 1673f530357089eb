/*
 * --archive DIR: the executable that produced a result, copied beside it
 * as DIR/mlpscope-<build id> (the binary's SHA-256 when the linker wrote no
 * build id), so a figure can be re-examined with the exact code.
 */
#ifndef MLPSCOPE_ARCHIVE_H
#define MLPSCOPE_ARCHIVE_H

#include "exp/result.h"

#include <stddef.h>

/* Whether dir is a writable directory, or can be made one (absent, in a
 * writable parent); creates nothing. 0, or -errno with a one-line err
 * naming dir and the accepted form. */
int archive_check_dir(const char *dir, char *err, size_t errlen);

/* The name the copy takes inside the directory: "mlpscope-" and the build
 * id, or the binary's SHA-256 when p has no build id. */
void archive_name(const struct provenance *p, char *name, size_t len);

/* Copy exe into dir (made when absent) under archive_name, whole or not
 * at all, executable; a copy already there with the same SHA-256 is kept.
 * Fills p->archived_binary with the copy's absolute path. 0, or -errno
 * with err. */
int archive_binary(const char *dir, const char *exe, struct provenance *p, char *err, size_t errlen);

#endif
