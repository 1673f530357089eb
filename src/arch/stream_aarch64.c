/*
 * AArch64 vector bandwidth kernels: NEON (Advanced SIMD, mandatory in
 * ARMv8-A, so always usable) with 16-byte Q registers, and STNP variants:
 * STNP is a store-pair with a non-temporal *hint*, which cores may honour
 * by not allocating the line (some implementations ignore it, and it does
 * not promise to avoid the read-for-ownership). SVE is deliberately not
 * here: its vector length is only known at run time. A DMB ISHST after the
 * STNP loop orders the streamed stores before the clock is read.
 */
#if defined(__aarch64__)
#include "kern/stream.h"

#include <arm_neon.h>

static uint64_t stream_read_neon(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	const uint64_t *s = src, *end = s + bytes / sizeof(uint64_t);
	uint64x2_t a = vdupq_n_u64(0), b = a, c = a, d = a;

	(void)dst;
	/* Four accumulators so the adds never limit the loads. */
	for (; s < end; s += 32) {
		for (unsigned i = 0; i < 32; i += 8) {
			a = vaddq_u64(a, vld1q_u64(s + i));
			b = vaddq_u64(b, vld1q_u64(s + i + 2));
			c = vaddq_u64(c, vld1q_u64(s + i + 4));
			d = vaddq_u64(d, vld1q_u64(s + i + 6));
		}
	}
	a = vaddq_u64(vaddq_u64(a, b), vaddq_u64(c, d));
	return seed + vgetq_lane_u64(a, 0) + vgetq_lane_u64(a, 1);
}

static uint64_t stream_write_neon(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	uint64_t *d = dst, *end = d + bytes / sizeof(uint64_t);
	uint64x2_t v = vdupq_n_u64(seed);

	(void)src;
	for (; d < end; d += 32)
		for (unsigned i = 0; i < 32; i += 2)
			vst1q_u64(d + i, v);
	return 0;
}

static uint64_t stream_copy_neon(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	uint64_t *d = dst;
	const uint64_t *s = src, *end = s + bytes / sizeof(uint64_t);

	(void)seed;
	for (; s < end; s += 32, d += 32)
		for (unsigned i = 0; i < 32; i += 8) {
			uint64x2_t v0 = vld1q_u64(s + i), v1 = vld1q_u64(s + i + 2);
			uint64x2_t v2 = vld1q_u64(s + i + 4), v3 = vld1q_u64(s + i + 6);

			vst1q_u64(d + i, v0);
			vst1q_u64(d + i + 2, v1);
			vst1q_u64(d + i + 4, v2);
			vst1q_u64(d + i + 6, v3);
		}
	return 0;
}

/* STNP Qt1, Qt2, [Xn, #imm]: store pair of SIMD registers, non-temporal
 * hint (Arm ARM, "STNP (SIMD&FP)"); 32 bytes per instruction. */
static inline void stnp_q(void *p, uint64x2_t a, uint64x2_t b)
{
	__asm__ volatile("stnp %q1, %q2, [%0]" : : "r"(p), "w"(a), "w"(b) : "memory");
}

static uint64_t stream_ntwrite_neon(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst, *end = d + bytes;
	uint64x2_t v = vdupq_n_u64(seed);

	(void)src;
	for (; d < end; d += 256)
		for (unsigned i = 0; i < 256; i += 32)
			stnp_q(d + i, v, v);
	__asm__ volatile("dmb ishst" : : : "memory");
	return 0;
}

static uint64_t stream_ntcopy_neon(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst;
	const char *s = src, *end = s + bytes;

	(void)seed;
	for (; s < end; s += 256, d += 256)
		for (unsigned i = 0; i < 256; i += 32)
			stnp_q(d + i, vld1q_u64((const uint64_t *)(s + i)), vld1q_u64((const uint64_t *)(s + i + 16)));
	__asm__ volatile("dmb ishst" : : : "memory");
	return 0;
}

static int has_neon(void)
{
	return 1; /* Advanced SIMD is mandatory in ARMv8-A Linux userland */
}

static const struct stream_kernel aarch64_kernels[] = {
	{"read_neon", STREAM_READ, 16, false, "neon", stream_read_neon, has_neon, 0, 0},
	{"write_neon", STREAM_WRITE, 16, false, "neon", stream_write_neon, has_neon, 0, 0},
	{"copy_neon", STREAM_COPY, 16, false, "neon", stream_copy_neon, has_neon, 0, 0},
	{"ntwrite_neon", STREAM_WRITE, 16, true, "neon", stream_ntwrite_neon, has_neon, 0, 0},
	{"ntcopy_neon", STREAM_COPY, 16, true, "neon", stream_ntcopy_neon, has_neon, 0, 0},
};

const struct stream_kernel *stream_arch_kernels(size_t *n)
{
	*n = sizeof(aarch64_kernels) / sizeof(aarch64_kernels[0]);
	return aarch64_kernels;
}

/* No non-temporal mix here: only the scalar mixes of kern/stream.c run. */
const struct stream_kernel *stream_arch_mix_kernels(size_t *n)
{
	*n = 0;
	return NULL;
}
#else
typedef int stream_aarch64_not_built;
#endif
