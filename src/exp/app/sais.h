/*
 * Suffix sorting by induced sorting (SA-IS, Nong, Zhang and Chan 2009),
 * written for mlpscope's inverse-BWT walk: linear time, no dependency. The
 * text gets a virtual end mark smaller than every byte, so the array has
 * n + 1 entries and sa[0] == n (the empty suffix): exactly the n + 1 rows
 * of the BWT matrix a decoder walks. Indices are 32-bit: n < 2^31 - 1.
 */
#ifndef MLPSCOPE_EXP_APP_SAIS_H
#define MLPSCOPE_EXP_APP_SAIS_H

#include <stddef.h>
#include <stdint.h>

/* Largest text sais_build accepts (the indices are int32_t). */
#define SAIS_MAX_BYTES ((size_t)INT32_MAX - 2)

/* Sort the suffixes of text[0..n) plus the end mark into sa[0..n]. n may be
 * 0. Returns 0, -ENOMEM, or -EOVERFLOW when n > SAIS_MAX_BYTES. */
int sais_build(const uint8_t *text, size_t n, int32_t *sa);

/* The BWT of text + end mark from its suffix array: bwt[i] = text[sa[i] - 1]
 * for the n + 1 rows, except the row whose suffix is the whole text (sa == 0),
 * whose last column is the end mark: bwt[] holds 0 there and *primary is
 * that row. bwt has n + 1 bytes. */
void sais_bwt(const uint8_t *text, size_t n, const int32_t *sa, uint8_t *bwt, size_t *primary);

#endif
