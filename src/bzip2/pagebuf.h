/*
 * The decoder's long-lived buffers (the input window, a block's input and
 * output, the walk's column and text) in whole 2 MiB huge pages that the
 * kernel faults in when they are made. Not the T-vector's arena
 * (core/arena.h), whose backing is verified and reported: these are
 * advice only, and nothing reads back what was obtained.
 */
#ifndef MLPSCOPE_BZIP2_PAGEBUF_H
#define MLPSCOPE_BZIP2_PAGEBUF_H

#include <stddef.h>

/* bytes rounded up to whole 2 MiB pages: what a pagebuf of bytes holds. */
size_t pagebuf_bytes(size_t bytes);
/* A buffer of pagebuf_bytes(bytes), 2 MiB aligned and faulted in, or NULL
 * (errno set by mmap). */
void *pagebuf_map(size_t bytes);
/* The same, not faulted in yet: the thread that will use each part faults
 * it in (pagebuf_populate), in parallel, or its first touch does. */
void *pagebuf_reserve(size_t bytes);
/* The same size in small pages, faulted in one by one as they are first
 * touched and kept: for a buffer that is filled only in part (a slot's
 * input holds a block's compressed bytes, a fraction of its 2 MiB), where
 * whole huge pages would be resident memory that is never used. */
void *pagebuf_reserve_small(size_t bytes);
/* Faults in p[0..bytes) of a pagebuf; what is there already stays. */
void pagebuf_populate(void *p, size_t bytes);
/* Faults in the whole small pages inside p[0..bytes) with one call, for
 * a buffer from malloc or pagebuf_reserve_small whose first touches
 * would each trap. Half the cure on a guest whose host shadows its page
 * tables (the Zen 5 guest: 2.3 ms a MiB of first touches without, 1 ms with,
 * the host's entry made at the first touch from user space): a buffer
 * that can lie in a pagebuf's huge pages should. */
void pagebuf_populate_within(void *p, size_t bytes);
/* Under AddressSanitizer, p[0..used) readable and p[used..cap) not, so a
 * decoder that reads past the bytes it was given is caught as it was in a
 * malloc'd buffer of exactly those bytes; nothing otherwise. */
void pagebuf_fence(void *p, size_t used, size_t cap);
/* Gives back pagebuf_map(bytes)'s buffer; NULL is nothing. */
void pagebuf_unmap(void *p, size_t bytes);

#endif
