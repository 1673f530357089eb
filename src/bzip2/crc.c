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
 * Where x86-64 has carry-less multiply (PCLMULQDQ), a run of 64 bytes or
 * more is folded 16 bytes at a time instead (crc_fold): the register is
 * linear in the data, so 128 bits D bits ahead of the end weigh x^D mod P,
 * a 32-bit constant, and two multiplies move them there, with no table
 * load in the chain. Slicing by 8 ran at about 5 GB/s here, 3.6% of a
 * whole decode of text.
 */
#include "bzip2/bz2.h"

#include <pthread.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define CRC_FOLD 1
#define CRC_FOLD_TARGET "pclmul,ssse3"
#endif

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

#ifdef CRC_FOLD
/* x^d mod P: a 32-bit register fed d zero bits from 1. */
static uint32_t x_pow_mod(unsigned d)
{
	uint32_t r = 1;

	while (d--)
		r = (r & 0x80000000u) ? (r << 1) ^ 0x04c11db7u : r << 1;
	return r;
}

static bool crc_can_fold;
/* Folding 128 bits ahead by 128 and by 512 bits: qword 0 x^D mod P for
 * the low 64 bits, qword 1 x^(D+64) mod P for the high. */
static uint64_t fold_by_128[2], fold_by_512[2];

static void crc_fold_setup(void)
{
	crc_can_fold = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("ssse3");
	fold_by_128[0] = x_pow_mod(128);
	fold_by_128[1] = x_pow_mod(192);
	fold_by_512[0] = x_pow_mod(512);
	fold_by_512[1] = x_pow_mod(576);
}
#endif

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
#ifdef CRC_FOLD
	crc_fold_setup();
#endif
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

#ifdef CRC_FOLD
/* The 16 bytes in reverse order: between memory's order and a 128-bit
 * polynomial's, whose top bit is the first byte's (bzip2 feeds most
 * significant bit first). */
static inline __attribute__((always_inline, target(CRC_FOLD_TARGET))) __m128i reverse16(__m128i v)
{
	return _mm_shuffle_epi8(v, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* 16 bytes as a polynomial of degree < 128, the first byte's top bit
 * the x^127 term. */
static inline __attribute__((always_inline, target(CRC_FOLD_TARGET))) __m128i load_be128(const uint8_t *p)
{
	return reverse16(_mm_loadu_si128((const __m128i *)p));
}

/* a x^D mod P up to degree 95, k = {x^D, x^(D+64)} mod P: a = h x^64 + l,
 * so a x^D = h x^(D+64) + l x^D, each a 64 by 32-bit product. */
static inline __attribute__((always_inline, target(CRC_FOLD_TARGET))) __m128i fold(__m128i a, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(a, k, 0x00), _mm_clmulepi64_si128(a, k, 0x11));
}

/* The register c fed p[0..n), n >= 64: four 128-bit accumulators 64
 * bytes apart (four chains of a multiply each, which the core overlaps),
 * folded into one, then its 16 bytes through the table from a register
 * of 0 (which gives a x^32 mod P) and the tail after them. */
static __attribute__((target(CRC_FOLD_TARGET))) uint32_t crc_fold(uint32_t c, const uint8_t *p, size_t n)
{
	const __m128i k128 = _mm_loadu_si128((const __m128i *)fold_by_128);
	const __m128i k512 = _mm_loadu_si128((const __m128i *)fold_by_512);
	/* A register c before the data is c x^(8n): the same as c added to
	 * the data's first 32 bits. */
	__m128i a0 = _mm_xor_si128(load_be128(p), _mm_set_epi32((int)c, 0, 0, 0));
	__m128i a1 = load_be128(p + 16), a2 = load_be128(p + 32), a3 = load_be128(p + 48);
	uint8_t be[16];
	uint32_t r = 0;

	for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) {
		a0 = _mm_xor_si128(fold(a0, k512), load_be128(p));
		a1 = _mm_xor_si128(fold(a1, k512), load_be128(p + 16));
		a2 = _mm_xor_si128(fold(a2, k512), load_be128(p + 32));
		a3 = _mm_xor_si128(fold(a3, k512), load_be128(p + 48));
	}
	a0 = _mm_xor_si128(fold(a0, k128), a1);
	a0 = _mm_xor_si128(fold(a0, k128), a2);
	a0 = _mm_xor_si128(fold(a0, k128), a3);
	for (; n >= 16; p += 16, n -= 16)
		a0 = _mm_xor_si128(fold(a0, k128), load_be128(p));
	_mm_storeu_si128((__m128i *)be, reverse16(a0));
	r = step8(step8(r, be), be + 8);
	for (; n; n--)
		r = (r << 8) ^ crc_table[0][(r >> 24) ^ *p++];
	return r;
}
#endif

/* Blocks shorter than this run as one stream: the combine's two shifts
 * (about 2,000 operations) would cost more than the streams save. */
#define CRC_STREAMS_MIN 12288

uint32_t bz2_crc_more(uint32_t crc, const uint8_t *p, size_t n)
{
	uint32_t c = ~crc;

	pthread_once(&crc_once, crc_make_tables);
#ifdef CRC_FOLD
	if (crc_can_fold && n >= 64)
		return ~crc_fold(c, p, n);
#endif
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

const char *bz2_crc_form(void)
{
	pthread_once(&crc_once, crc_make_tables);
#ifdef CRC_FOLD
	if (crc_can_fold)
		return "carry-less folding, 4 streams";
#endif
	return "slicing by 8, 3 streams";
}

uint32_t bz2_crc(const uint8_t *p, size_t n)
{
	return bz2_crc_more(0, p, n);
}
