/*
 * The running program's build id: the linker's NT_GNU_BUILD_ID note, read
 * from the loaded program headers (dl_iterate_phdr), so no ELF library and
 * no reopening of a file that may have been replaced since it started.
 */
#ifndef MLPSCOPE_UTIL_BUILD_ID_H
#define MLPSCOPE_UTIL_BUILD_ID_H

#include <stddef.h>

/* The longest id written: the linker's default (sha1) is 20 bytes, and
 * --build-id=0x... may ask for more; 64 bytes covers any hash it offers. */
#define BUILD_ID_HEX_LEN (2 * 64 + 1)

/* The GNU build id among the notes in buf (len bytes, each note's name and
 * descriptor padded to align, 4 or 8, as its segment's p_align says),
 * written as lowercase hex into hex: 0, or -ENOENT when none is there
 * (-EINVAL for a note that runs past len). */
int build_id_from_notes(const void *buf, size_t len, size_t align, char *hex, size_t hexlen);

/* The running program's build id, as build_id_from_notes: -ENOENT when the
 * linker wrote none (then the binary's hash is its only name). */
int build_id_self(char *hex, size_t hexlen);

#endif
