/*
 * A growable byte buffer, for the tests' decoder sinks (our bzip2 decoder,
 * the decoding library, libbz2 as the reference): each sink keeps its own
 * counters and appends through this one growth rule.
 */
#ifndef MLPSCOPE_TESTS_GROW_BUF_H
#define MLPSCOPE_TESTS_GROW_BUF_H

#include <stddef.h>
#include <stdint.h>

/* bytes[0..n) appended to *buf, which holds *len bytes of *cap allocated
 * (NULL, 0, 0 to start), grown to twice what it must hold. 0 or -ENOMEM
 * (the buffer as it was). */
int grow_buf_append(uint8_t **buf, size_t *len, size_t *cap, const uint8_t *bytes, size_t n);

#endif
