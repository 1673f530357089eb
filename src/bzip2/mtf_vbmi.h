/*
 * The MTF list as four 64-byte registers, for x86-64 CPUs with AVX-512
 * VBMI (a byte permute across a whole 64-byte register, vpermb, and
 * across two, vpermt2b). Binary data's indices run deep (15% of them past
 * 64 on shared libraries), where a list of 16-byte vectors in memory
 * shifts up to 15 of them through loads and stores, in a loop whose trip
 * count the predictor cannot learn. Here an index below 64 is one vpermb
 * of the front register; a deeper one moves all four registers by one
 * two-register permute each, with no loop and no memory. symbols_split.c
 * includes this file on x86-64 only and calls it where the CPU has VBMI.
 */
#ifndef MLPSCOPE_BZIP2_MTF_VBMI_H
#define MLPSCOPE_BZIP2_MTF_VBMI_H

/* Empty elsewhere: the build preprocesses every header alone, on every ISA
 * (its dependency file), and other ISAs have no immintrin.h. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define MTF_VBMI_TARGET "avx512f,avx512bw,avx512vbmi"

struct vbmi_list {
	__m512i r[4];          /* bytes 64j..64j+63 in r[j] (kept in registers across a group) */
	/* to_front[i]: byte i first, then 0..i-1, then i+1..63. */
	__m512i to_front[64];
};

/* Move the byte at index i (0..255) to the front of r0..r3. */
static inline __attribute__((always_inline, target(MTF_VBMI_TARGET))) uint8_t
vbmi_move(const struct vbmi_list *l, __m512i *r0, __m512i *r1, __m512i *r2, __m512i *r3, unsigned i)
{
	const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47,
					     46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30,
					     29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
					     12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
	const __m512i ones = _mm512_set1_epi8(1);
	__m512i v, c1, c2, c3, lo, hi;
	int t;

	if (__builtin_expect(i < 64, 1)) {
		*r0 = _mm512_permutexvar_epi8(l->to_front[i], *r0);
		return (uint8_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(*r0));
	}
	/* The byte: vpermt2b reads index bit 6 as the register of a pair
	 * and bits 0-5 as the byte, so i & 127 finds it in r0:r1 or r2:r3. */
	v = _mm512_set1_epi8((char)i);
	lo = _mm512_permutex2var_epi8(*r0, v, *r1);
	hi = _mm512_permutex2var_epi8(*r2, v, *r3);
	v = _mm512_mask_blend_epi8(i >= 128 ? ~0ull : 0, lo, hi);
	/* Register j's control: byte k takes byte k-1 while k <= i - 64j
	 * (byte 0's k-1 wraps to 0xff, the pair's second register's byte
	 * 63: the top byte of register j-1), byte k itself past that; a
	 * register wholly above i keeps itself. */
	t = (int)i - 64;
	c1 = _mm512_mask_sub_epi8(iota, _mm512_cmple_epi8_mask(iota, _mm512_set1_epi8((char)(t > 64 ? 64 : t))),
				  iota, ones);
	t -= 64;
	c2 = _mm512_mask_sub_epi8(iota, _mm512_cmple_epi8_mask(iota, _mm512_set1_epi8((char)(t < -1 ? -1 : t > 64 ? 64 : t))),
				  iota, ones);
	t -= 64;
	c3 = _mm512_mask_sub_epi8(iota, _mm512_cmple_epi8_mask(iota, _mm512_set1_epi8((char)(t < -1 ? -1 : t))),
				  iota, ones);
	*r3 = _mm512_permutex2var_epi8(*r3, c3, *r2);
	*r2 = _mm512_permutex2var_epi8(*r2, c2, *r1);
	*r1 = _mm512_permutex2var_epi8(*r1, c1, *r0);
	/* r0 shifts up one byte whole and takes the byte at its front:
	 * index 64 is the pair's second register's byte 0. */
	*r0 = _mm512_permutex2var_epi8(*r0, _mm512_mask_sub_epi8(_mm512_set1_epi8(64), ~1ull, iota, ones), v);
	return (uint8_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(v));
}

static inline void vbmi_list_init(struct vbmi_list *l, const uint8_t *seq_to_byte, unsigned used)
{
	uint8_t bytes[256] = {0}, ctl[64];

	memcpy(bytes, seq_to_byte, used);
	memcpy(l->r, bytes, sizeof(l->r));
	for (unsigned i = 0; i < 64; i++) {
		for (unsigned j = 0; j < 64; j++)
			ctl[j] = (uint8_t)(j == 0 ? i : j <= i ? j - 1 : j);
		memcpy(&l->to_front[i], ctl, 64);
	}
}

#endif /* __x86_64__ */

#endif
