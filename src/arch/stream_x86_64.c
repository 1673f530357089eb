/*
 * x86-64 vector bandwidth kernels: SSE2 (the x86-64 baseline), AVX2 and
 * AVX-512F, each compiled for its ISA by a target attribute and offered only
 * when __builtin_cpu_supports says the CPU has it and the OS saves its
 * registers (libgcc checks XCR0). Non-temporal variants use MOVNTDQ /
 * VMOVNTDQ, which write combining buffers straight to memory without the
 * read-for-ownership a normal store miss costs, then SFENCE, because
 * streaming stores are weakly ordered and must be drained before the clock
 * is read. One trip moves STREAM_CHUNK_BYTES (four lines). The 1:1 NT mix: MOVNTI.
 */
#if defined(__x86_64__)
#include "kern/stream.h"

#include <immintrin.h>

/*
 * Each kernel is written once, as one macro over the primitives each ISA
 * defines below under its prefix P: P_VEC (the register type), P_LOAD(p),
 * P_STORE(p, v), P_STREAM(p, v) (non-temporal), P_ADD(a, b) (64-bit
 * lanes), P_ZERO(), P_SET1(x), P_STOREU(p, v), and P_TRIP(X), which expands
 * X(P, i, offset) for the i-th register of a 256-byte trip. The trips stay
 * unrolled as written: every load and store is a statement of its own, so
 * each ISA's loop compiles to the instructions it did when spelled out.
 */
#define ACC_ADD(P, i, off) acc[(i) & 3] = P##_ADD(acc[(i) & 3], P##_LOAD(s + (off)));
#define SPLAT_STORE(P, i, off) P##_STORE(d + (off), v);
#define SPLAT_STREAM(P, i, off) P##_STREAM(d + (off), v);
#define LOAD_REG(P, i, off) P##_VEC v##i = P##_LOAD(s + (off));
#define STORE_REG(P, i, off) P##_STORE(d + (off), v##i);
#define STREAM_REG(P, i, off) P##_STREAM(d + (off), v##i);

#define READ_KERNEL(fn, isa, P)                                                                          \
__attribute__((target(isa))) static uint64_t fn(void *dst, const void *src, size_t bytes, uint64_t seed) \
{                                                                                                       \
	const char *s = src, *end = s + bytes;                                                          \
	P##_VEC acc[4] = {P##_ZERO(), P##_ZERO(), P##_ZERO(), P##_ZERO()};                              \
	uint64_t lanes[sizeof(P##_VEC) / 8], sum = seed;                                                \
                                                                                                        \
	(void)dst;                                                                                      \
	/* Four accumulators so the adds never limit the loads. */                                      \
	for (; s < end; s += 256) {                                                                     \
		P##_TRIP(ACC_ADD)                                                                       \
	}                                                                                               \
	acc[0] = P##_ADD(P##_ADD(acc[0], acc[1]), P##_ADD(acc[2], acc[3]));                             \
	P##_STOREU(lanes, acc[0]);                                                                      \
	for (unsigned i = 0; i < sizeof(P##_VEC) / 8; i++)                                              \
		sum += lanes[i];                                                                        \
	return sum;                                                                                     \
}

/* put: SPLAT_STORE or SPLAT_STREAM; drain: what must follow the last
 * store (the SFENCE after non-temporal ones), or nothing. */
#define WRITE_KERNEL(fn, isa, P, put, drain)                                                             \
__attribute__((target(isa))) static uint64_t fn(void *dst, const void *src, size_t bytes, uint64_t seed) \
{                                                                                                       \
	char *d = dst, *end = d + bytes;                                                                \
	P##_VEC v = P##_SET1((long long)seed);                                                          \
                                                                                                        \
	(void)src;                                                                                      \
	for (; d < end; d += 256) {                                                                     \
		P##_TRIP(put)                                                                           \
	}                                                                                               \
	drain                                                                                           \
	return 0;                                                                                       \
}

/* Every register of the trip is loaded before the first store; put:
 * STORE_REG or STREAM_REG. */
#define COPY_KERNEL(fn, isa, P, put, drain)                                                              \
__attribute__((target(isa))) static uint64_t fn(void *dst, const void *src, size_t bytes, uint64_t seed) \
{                                                                                                       \
	char *d = dst;                                                                                  \
	const char *s = src, *end = s + bytes;                                                          \
                                                                                                        \
	(void)seed;                                                                                     \
	for (; s < end; s += 256, d += 256) {                                                           \
		P##_TRIP(LOAD_REG)                                                                      \
		P##_TRIP(put)                                                                           \
	}                                                                                               \
	drain                                                                                           \
	return 0;                                                                                       \
}

#define STREAM_KERNELS(name, isa, P)                                                   \
	READ_KERNEL(stream_read_##name, isa, P)                                        \
	WRITE_KERNEL(stream_write_##name, isa, P, SPLAT_STORE, )                       \
	WRITE_KERNEL(stream_ntwrite_##name, isa, P, SPLAT_STREAM, _mm_sfence();)       \
	COPY_KERNEL(stream_copy_##name, isa, P, STORE_REG, )                           \
	COPY_KERNEL(stream_ntcopy_##name, isa, P, STREAM_REG, _mm_sfence();)

/* sse2: 16-byte registers, 16 per 256-byte trip. */
#define SSE2_VEC __m128i
#define SSE2_LOAD(p) _mm_load_si128((const __m128i *)(p))
#define SSE2_STORE(p, v) _mm_store_si128((__m128i *)(p), v)
#define SSE2_STREAM(p, v) _mm_stream_si128((__m128i *)(p), v)
#define SSE2_ADD(a, b) _mm_add_epi64(a, b)
#define SSE2_ZERO() _mm_setzero_si128()
#define SSE2_SET1(x) _mm_set1_epi64x(x)
#define SSE2_STOREU(p, v) _mm_storeu_si128((__m128i *)(p), v)
#define SSE2_TRIP(X) X(SSE2, 0, 0) X(SSE2, 1, 16) X(SSE2, 2, 32) X(SSE2, 3, 48) X(SSE2, 4, 64) X(SSE2, 5, 80) \
	X(SSE2, 6, 96) X(SSE2, 7, 112) X(SSE2, 8, 128) X(SSE2, 9, 144) X(SSE2, 10, 160) X(SSE2, 11, 176)      \
	X(SSE2, 12, 192) X(SSE2, 13, 208) X(SSE2, 14, 224) X(SSE2, 15, 240)
STREAM_KERNELS(sse2, "sse2", SSE2)

/* avx2: 32-byte registers, 8 per 256-byte trip. */
#define AVX2_VEC __m256i
#define AVX2_LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define AVX2_STORE(p, v) _mm256_store_si256((__m256i *)(p), v)
#define AVX2_STREAM(p, v) _mm256_stream_si256((__m256i *)(p), v)
#define AVX2_ADD(a, b) _mm256_add_epi64(a, b)
#define AVX2_ZERO() _mm256_setzero_si256()
#define AVX2_SET1(x) _mm256_set1_epi64x(x)
#define AVX2_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define AVX2_TRIP(X) X(AVX2, 0, 0) X(AVX2, 1, 32) X(AVX2, 2, 64) X(AVX2, 3, 96) X(AVX2, 4, 128) \
	X(AVX2, 5, 160) X(AVX2, 6, 192) X(AVX2, 7, 224)
STREAM_KERNELS(avx2, "avx2", AVX2)

/* avx512: 64-byte registers, 4 per 256-byte trip. */
#define AVX512_VEC __m512i
#define AVX512_LOAD(p) _mm512_load_si512((const void *)(p))
#define AVX512_STORE(p, v) _mm512_store_si512((void *)(p), v)
#define AVX512_STREAM(p, v) _mm512_stream_si512((void *)(p), v)
#define AVX512_ADD(a, b) _mm512_add_epi64(a, b)
#define AVX512_ZERO() _mm512_setzero_si512()
#define AVX512_SET1(x) _mm512_set1_epi64(x)
#define AVX512_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define AVX512_TRIP(X) X(AVX512, 0, 0) X(AVX512, 1, 64) X(AVX512, 2, 128) X(AVX512, 3, 192)
STREAM_KERNELS(avx512, "avx512f", AVX512)

static int has_sse2(void)
{
	return 1; /* part of the x86-64 baseline */
}

static int has_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") != 0;
}

static int has_avx512f(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") != 0;
}

#define KERNELS(name, isa, width, usable)                                                       \
	{"read_" #name, STREAM_READ, width, false, isa, stream_read_##name, usable, 0, 0},            \
	{"write_" #name, STREAM_WRITE, width, false, isa, stream_write_##name, usable, 0, 0},         \
	{"copy_" #name, STREAM_COPY, width, false, isa, stream_copy_##name, usable, 0, 0},            \
	{"ntwrite_" #name, STREAM_WRITE, width, true, isa, stream_ntwrite_##name, usable, 0, 0},      \
	{"ntcopy_" #name, STREAM_COPY, width, true, isa, stream_ntcopy_##name, usable, 0, 0}

static const struct stream_kernel x86_kernels[] = {
	KERNELS(sse2, "sse2", 16, has_sse2),
	KERNELS(avx2, "avx2", 32, has_avx2),
	KERNELS(avx512, "avx512f", 64, has_avx512f),
};

const struct stream_kernel *stream_arch_kernels(size_t *n)
{
	*n = sizeof(x86_kernels) / sizeof(x86_kernels[0]);
	return x86_kernels;
}

/* The 1:1 mix with MOVNTI (8-byte non-temporal store, SSE2): the same
 * width as the scalar mixes, so only the store kind differs. The written
 * line is never read first; SFENCE drains the write-combining buffers
 * before the caller reads the clock. */
__attribute__((target("sse2"))) static uint64_t stream_ntmix11_movnti(void *dst, const void *src, size_t bytes,
								      uint64_t seed)
{
	long long *p = dst, *end = p + bytes / sizeof(*p), v = (long long)seed;
	uint64_t a = seed, b = 0;

	(void)src;
	while (p < end) {
		/* Summed unsigned: the words are whatever the buffer holds,
		 * and a signed sum of them may overflow. */
		a += (uint64_t)p[0] + (uint64_t)p[2] + (uint64_t)p[4] + (uint64_t)p[6];
		b += (uint64_t)p[1] + (uint64_t)p[3] + (uint64_t)p[5] + (uint64_t)p[7];
		__asm__("" : "+r"(a));
		__asm__("" : "+r"(b));
		p += 8;
		if (p >= end)
			break;
		for (int i = 0; i < 8; i++)
			_mm_stream_si64(p + i, v);
		p += 8;
	}
	_mm_sfence();
	return a + b;
}

static const struct stream_kernel x86_mix_kernels[] = {
	{"ntmix_1_1_movnti", STREAM_MIX, 8, true, "sse2", stream_ntmix11_movnti, has_sse2, 1, 1},
};

const struct stream_kernel *stream_arch_mix_kernels(size_t *n)
{
	*n = sizeof(x86_mix_kernels) / sizeof(x86_mix_kernels[0]);
	return x86_mix_kernels;
}
#else
typedef int stream_x86_64_not_built;
#endif
