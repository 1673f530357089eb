/*
 * bzip2's CRC-32: the polynomial 0x04c11db7 fed most significant bit first
 * (not zlib's reflected form), initial value and final xor all ones. The
 * block CRC covers a block's decoded bytes; the stream CRC folds the block
 * CRCs with a rotate (bz2_crc_combine). Sliced, because a byte-at-a-time
 * table is a serial dependency of one load per byte, slower than the walk
 * it checks: by 4 (four tables, one 32-bit word a step) or by 8 (eight
 * tables, 8 KiB, two words a step: the second word's four loads do not
 * wait for the running CRC, so twice the bytes per step of the chain),
 * over a block's three thirds at once, combined in GF(2) (bz2_crc).
 */
#include "bzip2/bz2.h"

#include <pthread.h>

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_make_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i << 24;

		for (int k = 0; k < 8; k++)
			c = (c & 0x80000000u) ? (c << 1) ^ 0x04c11db7u : c << 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] << 8) ^ crc_table[0][crc_table[t - 1][i] >> 24];
}

uint32_t bz2_crc4(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	pthread_once(&crc_once, crc_make_tables);
	for (; n >= 4; n -= 4, p += 4) {
		c ^= (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		c = crc_table[3][c >> 24] ^ crc_table[2][(c >> 16) & 0xff] ^ crc_table[1][(c >> 8) & 0xff] ^
		    crc_table[0][c & 0xff];
	}
	for (; n; n--)
		c = (c << 8) ^ crc_table[0][(c >> 24) ^ *p++];
	return ~c;
}

/* Eight bytes at p into the register c (slicing by 8). */
static inline __attribute__((always_inline)) uint32_t step8(uint32_t c, const uint8_t *p)
{
	c ^= (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return crc_table[7][c >> 24] ^ crc_table[6][(c >> 16) & 0xff] ^ crc_table[5][(c >> 8) & 0xff] ^
	       crc_table[4][c & 0xff] ^ crc_table[3][p[4]] ^ crc_table[2][p[5]] ^ crc_table[1][p[6]] ^
	       crc_table[0][p[7]];
}

/* a x b modulo the polynomial, most significant bit first: the register
 * algebra in which feeding n zero bits multiplies the register by x^n. */
static uint32_t gf_mul(uint32_t a, uint32_t b)
{
	uint32_t r = 0;

	for (int i = 31; i >= 0; i--) {
		r = (r << 1) ^ ((r >> 31) ? 0x04c11db7u : 0);
		if ((b >> i) & 1)
			r ^= a;
	}
	return r;
}

/* c as if `bytes` zero bytes followed: c x^(8 bytes), by squaring. */
static uint32_t crc_shift(uint32_t c, uint64_t bytes)
{
	uint32_t r = 1, x = 2;

	for (uint64_t n = bytes * 8; n; n >>= 1) {
		if (n & 1)
			r = gf_mul(r, x);
		x = gf_mul(x, x);
	}
	return gf_mul(c, r);
}

/* Blocks shorter than this run as one stream: the combine's two shifts
 * (about 2,000 operations) would cost more than the streams save. */
#define CRC_STREAMS_MIN 12288

uint32_t bz2_crc_more(uint32_t crc, const uint8_t *p, size_t n)
{
	uint32_t c = ~crc;

	pthread_once(&crc_once, crc_make_tables);
	/* One stream is one chain: each step's eight loads wait for the
	 * previous step's register. Three thirds of the block, each from a
	 * register of 0 but the first, are three chains the core overlaps;
	 * the register is linear in its start and the data, so the thirds
	 * combine as c = c x^(8L) + next. */
	if (n >= CRC_STREAMS_MIN) {
		size_t l = n / 3 & ~(size_t)7;
		const uint8_t *q = p + l, *r = p + 2 * l;
		uint32_t c1 = 0, c2 = 0;

		for (size_t k = 0; k < l; k += 8) {
			c = step8(c, p + k);
			c1 = step8(c1, q + k);
			c2 = step8(c2, r + k);
		}
		c = crc_shift(c, l) ^ c1;
		c = crc_shift(c, l) ^ c2;
		p += 3 * l;
		n -= 3 * l;
	}
	for (; n >= 8; n -= 8, p += 8)
		c = step8(c, p);
	for (; n; n--)
		c = (c << 8) ^ crc_table[0][(c >> 24) ^ *p++];
	return ~c;
}

uint32_t bz2_crc(const uint8_t *p, size_t n)
{
	return bz2_crc_more(0, p, n);
}
