/*
 * The MTF list with its first 16 bytes as two little-endian 64-bit words
 * (7-Zip keeps the list in words): the form the decode uses where the CPU
 * offers no byte shuffle.
 */
#ifndef MLPSCOPE_BZIP2_MTF_WORDS_H
#define MLPSCOPE_BZIP2_MTF_WORDS_H

#include <stdint.h>
#include <string.h>

/* Move the byte at index i (1..255) of the list to its front: the first 16
 * bytes as two little-endian words *m0, *m1 kept in registers across
 * symbols (where text's indices fall; loaded from and stored to the array
 * each symbol, the next symbol's load waited on the store's forwarding),
 * the rest in mtf[16..255] by memmove (random data's large indices, where
 * a word loop of i/8 steps lost to it by 1.5x). */
static inline __attribute__((always_inline)) uint8_t mtf_words_move(uint8_t *mtf, uint64_t *m0, uint64_t *m1,
								 unsigned i)
{
	uint64_t x = *m0, y = *m1, low, upto;
	unsigned sh;
	uint8_t v;

	if (i < 8) {
		sh = i * 8;
		low = (1ull << sh) - 1;
		upto = low << 8 | 0xff;
		v = (uint8_t)(x >> sh);
		*m0 = (x & ~upto) | (x & low) << 8 | v;
		return v;
	}
	if (i < 16) {
		sh = (i - 8) * 8;
		low = sh ? (1ull << sh) - 1 : 0;
		upto = low << 8 | 0xff;
		v = (uint8_t)(y >> sh);
		*m1 = (y & ~upto) | (y & low) << 8 | x >> 56;
		*m0 = x << 8 | v;
		return v;
	}
	v = mtf[i];
	memmove(mtf + 17, mtf + 16, i - 16);
	mtf[16] = (uint8_t)(y >> 56);
	*m1 = y << 8 | x >> 56;
	*m0 = x << 8 | v;
	return v;
}

/* The words from the list's first 16 bytes. */
static inline void mtf_words_init(const uint8_t *mtf, uint64_t *m0, uint64_t *m1)
{
	uint64_t w[2] = {0, 0};

	for (unsigned i = 0; i < 16; i++)
		w[i / 8] |= (uint64_t)mtf[i] << (i % 8 * 8);
	*m0 = w[0];
	*m1 = w[1];
}

#endif
