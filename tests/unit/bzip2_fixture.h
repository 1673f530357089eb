/* Shared by the bzip2 test files: libbz2's stream of in[0..n) at level
 * (1-9) in a malloc'd buffer of *len bytes; NULL without libbz2 or memory.
 * Defined in test_bzip2.c. */
#ifndef MLPSCOPE_TESTS_BZIP2_FIXTURE_H
#define MLPSCOPE_TESTS_BZIP2_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

uint8_t *bzip2_fixture_compress(const uint8_t *in, size_t n, int level, size_t *len);
/* A file at path of `streams` empty streams one after another (a header
 * and the end-of-stream magic each: no block). 0, or -1. */
int bzip2_fixture_empty_streams(const char *path, unsigned streams);

#endif
