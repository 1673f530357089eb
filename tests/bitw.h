/*
 * A most-significant-bit-first bit writer, for the hand-made bzip2 streams
 * the decoder tests plant fields in (bzip2 packs every field that way,
 * with no byte alignment).
 */
#ifndef MLPSCOPE_TESTS_BITW_H
#define MLPSCOPE_TESTS_BITW_H

#include <stddef.h>
#include <stdint.h>

struct bitw {
	uint8_t buf[512];  /* zeroed by the caller */
	size_t bits;
};

/* The low n bits of v (n <= 64), most significant first. */
void bitw_put(struct bitw *w, unsigned n, uint64_t v);
/* The same into a zeroed buffer of the caller's size, *bits its fill. */
void bits_put(uint8_t *buf, size_t *bits, unsigned n, uint64_t v);

#endif
