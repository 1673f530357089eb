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

/* sse2: 16-byte registers, 16 per 256-byte trip. */
__attribute__((target("sse2"))) static uint64_t stream_read_sse2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	const char *s = src, *end = s + bytes;
	__m128i acc[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
	uint64_t lanes[2], sum = seed;

	(void)dst;
	/* Four accumulators so the adds never limit the loads. */
	for (; s < end; s += 256) {
		acc[0] = _mm_add_epi64(acc[0], _mm_load_si128((const __m128i *)(s + 0)));
		acc[1] = _mm_add_epi64(acc[1], _mm_load_si128((const __m128i *)(s + 16)));
		acc[2] = _mm_add_epi64(acc[2], _mm_load_si128((const __m128i *)(s + 32)));
		acc[3] = _mm_add_epi64(acc[3], _mm_load_si128((const __m128i *)(s + 48)));
		acc[0] = _mm_add_epi64(acc[0], _mm_load_si128((const __m128i *)(s + 64)));
		acc[1] = _mm_add_epi64(acc[1], _mm_load_si128((const __m128i *)(s + 80)));
		acc[2] = _mm_add_epi64(acc[2], _mm_load_si128((const __m128i *)(s + 96)));
		acc[3] = _mm_add_epi64(acc[3], _mm_load_si128((const __m128i *)(s + 112)));
		acc[0] = _mm_add_epi64(acc[0], _mm_load_si128((const __m128i *)(s + 128)));
		acc[1] = _mm_add_epi64(acc[1], _mm_load_si128((const __m128i *)(s + 144)));
		acc[2] = _mm_add_epi64(acc[2], _mm_load_si128((const __m128i *)(s + 160)));
		acc[3] = _mm_add_epi64(acc[3], _mm_load_si128((const __m128i *)(s + 176)));
		acc[0] = _mm_add_epi64(acc[0], _mm_load_si128((const __m128i *)(s + 192)));
		acc[1] = _mm_add_epi64(acc[1], _mm_load_si128((const __m128i *)(s + 208)));
		acc[2] = _mm_add_epi64(acc[2], _mm_load_si128((const __m128i *)(s + 224)));
		acc[3] = _mm_add_epi64(acc[3], _mm_load_si128((const __m128i *)(s + 240)));
	}
	acc[0] = _mm_add_epi64(_mm_add_epi64(acc[0], acc[1]), _mm_add_epi64(acc[2], acc[3]));
	_mm_storeu_si128((__m128i *)lanes, acc[0]);
	for (unsigned i = 0; i < 2; i++)
		sum += lanes[i];
	return sum;
}

__attribute__((target("sse2"))) static uint64_t stream_write_sse2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst, *end = d + bytes;
	__m128i v = _mm_set1_epi64x((long long)seed);

	(void)src;
	for (; d < end; d += 256) {
		_mm_store_si128((__m128i *)(d + 0), v);
		_mm_store_si128((__m128i *)(d + 16), v);
		_mm_store_si128((__m128i *)(d + 32), v);
		_mm_store_si128((__m128i *)(d + 48), v);
		_mm_store_si128((__m128i *)(d + 64), v);
		_mm_store_si128((__m128i *)(d + 80), v);
		_mm_store_si128((__m128i *)(d + 96), v);
		_mm_store_si128((__m128i *)(d + 112), v);
		_mm_store_si128((__m128i *)(d + 128), v);
		_mm_store_si128((__m128i *)(d + 144), v);
		_mm_store_si128((__m128i *)(d + 160), v);
		_mm_store_si128((__m128i *)(d + 176), v);
		_mm_store_si128((__m128i *)(d + 192), v);
		_mm_store_si128((__m128i *)(d + 208), v);
		_mm_store_si128((__m128i *)(d + 224), v);
		_mm_store_si128((__m128i *)(d + 240), v);
	}
	return 0;
}

__attribute__((target("sse2"))) static uint64_t stream_ntwrite_sse2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst, *end = d + bytes;
	__m128i v = _mm_set1_epi64x((long long)seed);

	(void)src;
	for (; d < end; d += 256) {
		_mm_stream_si128((__m128i *)(d + 0), v);
		_mm_stream_si128((__m128i *)(d + 16), v);
		_mm_stream_si128((__m128i *)(d + 32), v);
		_mm_stream_si128((__m128i *)(d + 48), v);
		_mm_stream_si128((__m128i *)(d + 64), v);
		_mm_stream_si128((__m128i *)(d + 80), v);
		_mm_stream_si128((__m128i *)(d + 96), v);
		_mm_stream_si128((__m128i *)(d + 112), v);
		_mm_stream_si128((__m128i *)(d + 128), v);
		_mm_stream_si128((__m128i *)(d + 144), v);
		_mm_stream_si128((__m128i *)(d + 160), v);
		_mm_stream_si128((__m128i *)(d + 176), v);
		_mm_stream_si128((__m128i *)(d + 192), v);
		_mm_stream_si128((__m128i *)(d + 208), v);
		_mm_stream_si128((__m128i *)(d + 224), v);
		_mm_stream_si128((__m128i *)(d + 240), v);
	}
	_mm_sfence();
	return 0;
}

__attribute__((target("sse2"))) static uint64_t stream_copy_sse2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst;
	const char *s = src, *end = s + bytes;

	(void)seed;
	for (; s < end; s += 256, d += 256) {
		__m128i v0 = _mm_load_si128((const __m128i *)(s + 0));
		__m128i v1 = _mm_load_si128((const __m128i *)(s + 16));
		__m128i v2 = _mm_load_si128((const __m128i *)(s + 32));
		__m128i v3 = _mm_load_si128((const __m128i *)(s + 48));
		__m128i v4 = _mm_load_si128((const __m128i *)(s + 64));
		__m128i v5 = _mm_load_si128((const __m128i *)(s + 80));
		__m128i v6 = _mm_load_si128((const __m128i *)(s + 96));
		__m128i v7 = _mm_load_si128((const __m128i *)(s + 112));
		__m128i v8 = _mm_load_si128((const __m128i *)(s + 128));
		__m128i v9 = _mm_load_si128((const __m128i *)(s + 144));
		__m128i v10 = _mm_load_si128((const __m128i *)(s + 160));
		__m128i v11 = _mm_load_si128((const __m128i *)(s + 176));
		__m128i v12 = _mm_load_si128((const __m128i *)(s + 192));
		__m128i v13 = _mm_load_si128((const __m128i *)(s + 208));
		__m128i v14 = _mm_load_si128((const __m128i *)(s + 224));
		__m128i v15 = _mm_load_si128((const __m128i *)(s + 240));
		_mm_store_si128((__m128i *)(d + 0), v0);
		_mm_store_si128((__m128i *)(d + 16), v1);
		_mm_store_si128((__m128i *)(d + 32), v2);
		_mm_store_si128((__m128i *)(d + 48), v3);
		_mm_store_si128((__m128i *)(d + 64), v4);
		_mm_store_si128((__m128i *)(d + 80), v5);
		_mm_store_si128((__m128i *)(d + 96), v6);
		_mm_store_si128((__m128i *)(d + 112), v7);
		_mm_store_si128((__m128i *)(d + 128), v8);
		_mm_store_si128((__m128i *)(d + 144), v9);
		_mm_store_si128((__m128i *)(d + 160), v10);
		_mm_store_si128((__m128i *)(d + 176), v11);
		_mm_store_si128((__m128i *)(d + 192), v12);
		_mm_store_si128((__m128i *)(d + 208), v13);
		_mm_store_si128((__m128i *)(d + 224), v14);
		_mm_store_si128((__m128i *)(d + 240), v15);
	}
	return 0;
}

__attribute__((target("sse2"))) static uint64_t stream_ntcopy_sse2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst;
	const char *s = src, *end = s + bytes;

	(void)seed;
	for (; s < end; s += 256, d += 256) {
		__m128i v0 = _mm_load_si128((const __m128i *)(s + 0));
		__m128i v1 = _mm_load_si128((const __m128i *)(s + 16));
		__m128i v2 = _mm_load_si128((const __m128i *)(s + 32));
		__m128i v3 = _mm_load_si128((const __m128i *)(s + 48));
		__m128i v4 = _mm_load_si128((const __m128i *)(s + 64));
		__m128i v5 = _mm_load_si128((const __m128i *)(s + 80));
		__m128i v6 = _mm_load_si128((const __m128i *)(s + 96));
		__m128i v7 = _mm_load_si128((const __m128i *)(s + 112));
		__m128i v8 = _mm_load_si128((const __m128i *)(s + 128));
		__m128i v9 = _mm_load_si128((const __m128i *)(s + 144));
		__m128i v10 = _mm_load_si128((const __m128i *)(s + 160));
		__m128i v11 = _mm_load_si128((const __m128i *)(s + 176));
		__m128i v12 = _mm_load_si128((const __m128i *)(s + 192));
		__m128i v13 = _mm_load_si128((const __m128i *)(s + 208));
		__m128i v14 = _mm_load_si128((const __m128i *)(s + 224));
		__m128i v15 = _mm_load_si128((const __m128i *)(s + 240));
		_mm_stream_si128((__m128i *)(d + 0), v0);
		_mm_stream_si128((__m128i *)(d + 16), v1);
		_mm_stream_si128((__m128i *)(d + 32), v2);
		_mm_stream_si128((__m128i *)(d + 48), v3);
		_mm_stream_si128((__m128i *)(d + 64), v4);
		_mm_stream_si128((__m128i *)(d + 80), v5);
		_mm_stream_si128((__m128i *)(d + 96), v6);
		_mm_stream_si128((__m128i *)(d + 112), v7);
		_mm_stream_si128((__m128i *)(d + 128), v8);
		_mm_stream_si128((__m128i *)(d + 144), v9);
		_mm_stream_si128((__m128i *)(d + 160), v10);
		_mm_stream_si128((__m128i *)(d + 176), v11);
		_mm_stream_si128((__m128i *)(d + 192), v12);
		_mm_stream_si128((__m128i *)(d + 208), v13);
		_mm_stream_si128((__m128i *)(d + 224), v14);
		_mm_stream_si128((__m128i *)(d + 240), v15);
	}
	_mm_sfence();
	return 0;
}

/* avx2: 32-byte registers, 8 per 256-byte trip. */
__attribute__((target("avx2"))) static uint64_t stream_read_avx2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	const char *s = src, *end = s + bytes;
	__m256i acc[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
	uint64_t lanes[4], sum = seed;

	(void)dst;
	/* Four accumulators so the adds never limit the loads. */
	for (; s < end; s += 256) {
		acc[0] = _mm256_add_epi64(acc[0], _mm256_load_si256((const __m256i *)(s + 0)));
		acc[1] = _mm256_add_epi64(acc[1], _mm256_load_si256((const __m256i *)(s + 32)));
		acc[2] = _mm256_add_epi64(acc[2], _mm256_load_si256((const __m256i *)(s + 64)));
		acc[3] = _mm256_add_epi64(acc[3], _mm256_load_si256((const __m256i *)(s + 96)));
		acc[0] = _mm256_add_epi64(acc[0], _mm256_load_si256((const __m256i *)(s + 128)));
		acc[1] = _mm256_add_epi64(acc[1], _mm256_load_si256((const __m256i *)(s + 160)));
		acc[2] = _mm256_add_epi64(acc[2], _mm256_load_si256((const __m256i *)(s + 192)));
		acc[3] = _mm256_add_epi64(acc[3], _mm256_load_si256((const __m256i *)(s + 224)));
	}
	acc[0] = _mm256_add_epi64(_mm256_add_epi64(acc[0], acc[1]), _mm256_add_epi64(acc[2], acc[3]));
	_mm256_storeu_si256((__m256i *)lanes, acc[0]);
	for (unsigned i = 0; i < 4; i++)
		sum += lanes[i];
	return sum;
}

__attribute__((target("avx2"))) static uint64_t stream_write_avx2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst, *end = d + bytes;
	__m256i v = _mm256_set1_epi64x((long long)seed);

	(void)src;
	for (; d < end; d += 256) {
		_mm256_store_si256((__m256i *)(d + 0), v);
		_mm256_store_si256((__m256i *)(d + 32), v);
		_mm256_store_si256((__m256i *)(d + 64), v);
		_mm256_store_si256((__m256i *)(d + 96), v);
		_mm256_store_si256((__m256i *)(d + 128), v);
		_mm256_store_si256((__m256i *)(d + 160), v);
		_mm256_store_si256((__m256i *)(d + 192), v);
		_mm256_store_si256((__m256i *)(d + 224), v);
	}
	return 0;
}

__attribute__((target("avx2"))) static uint64_t stream_ntwrite_avx2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst, *end = d + bytes;
	__m256i v = _mm256_set1_epi64x((long long)seed);

	(void)src;
	for (; d < end; d += 256) {
		_mm256_stream_si256((__m256i *)(d + 0), v);
		_mm256_stream_si256((__m256i *)(d + 32), v);
		_mm256_stream_si256((__m256i *)(d + 64), v);
		_mm256_stream_si256((__m256i *)(d + 96), v);
		_mm256_stream_si256((__m256i *)(d + 128), v);
		_mm256_stream_si256((__m256i *)(d + 160), v);
		_mm256_stream_si256((__m256i *)(d + 192), v);
		_mm256_stream_si256((__m256i *)(d + 224), v);
	}
	_mm_sfence();
	return 0;
}

__attribute__((target("avx2"))) static uint64_t stream_copy_avx2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst;
	const char *s = src, *end = s + bytes;

	(void)seed;
	for (; s < end; s += 256, d += 256) {
		__m256i v0 = _mm256_load_si256((const __m256i *)(s + 0));
		__m256i v1 = _mm256_load_si256((const __m256i *)(s + 32));
		__m256i v2 = _mm256_load_si256((const __m256i *)(s + 64));
		__m256i v3 = _mm256_load_si256((const __m256i *)(s + 96));
		__m256i v4 = _mm256_load_si256((const __m256i *)(s + 128));
		__m256i v5 = _mm256_load_si256((const __m256i *)(s + 160));
		__m256i v6 = _mm256_load_si256((const __m256i *)(s + 192));
		__m256i v7 = _mm256_load_si256((const __m256i *)(s + 224));
		_mm256_store_si256((__m256i *)(d + 0), v0);
		_mm256_store_si256((__m256i *)(d + 32), v1);
		_mm256_store_si256((__m256i *)(d + 64), v2);
		_mm256_store_si256((__m256i *)(d + 96), v3);
		_mm256_store_si256((__m256i *)(d + 128), v4);
		_mm256_store_si256((__m256i *)(d + 160), v5);
		_mm256_store_si256((__m256i *)(d + 192), v6);
		_mm256_store_si256((__m256i *)(d + 224), v7);
	}
	return 0;
}

__attribute__((target("avx2"))) static uint64_t stream_ntcopy_avx2(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst;
	const char *s = src, *end = s + bytes;

	(void)seed;
	for (; s < end; s += 256, d += 256) {
		__m256i v0 = _mm256_load_si256((const __m256i *)(s + 0));
		__m256i v1 = _mm256_load_si256((const __m256i *)(s + 32));
		__m256i v2 = _mm256_load_si256((const __m256i *)(s + 64));
		__m256i v3 = _mm256_load_si256((const __m256i *)(s + 96));
		__m256i v4 = _mm256_load_si256((const __m256i *)(s + 128));
		__m256i v5 = _mm256_load_si256((const __m256i *)(s + 160));
		__m256i v6 = _mm256_load_si256((const __m256i *)(s + 192));
		__m256i v7 = _mm256_load_si256((const __m256i *)(s + 224));
		_mm256_stream_si256((__m256i *)(d + 0), v0);
		_mm256_stream_si256((__m256i *)(d + 32), v1);
		_mm256_stream_si256((__m256i *)(d + 64), v2);
		_mm256_stream_si256((__m256i *)(d + 96), v3);
		_mm256_stream_si256((__m256i *)(d + 128), v4);
		_mm256_stream_si256((__m256i *)(d + 160), v5);
		_mm256_stream_si256((__m256i *)(d + 192), v6);
		_mm256_stream_si256((__m256i *)(d + 224), v7);
	}
	_mm_sfence();
	return 0;
}

/* avx512: 64-byte registers, 4 per 256-byte trip. */
__attribute__((target("avx512f"))) static uint64_t stream_read_avx512(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	const char *s = src, *end = s + bytes;
	__m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
	uint64_t lanes[8], sum = seed;

	(void)dst;
	/* Four accumulators so the adds never limit the loads. */
	for (; s < end; s += 256) {
		acc[0] = _mm512_add_epi64(acc[0], _mm512_load_si512((const void *)(s + 0)));
		acc[1] = _mm512_add_epi64(acc[1], _mm512_load_si512((const void *)(s + 64)));
		acc[2] = _mm512_add_epi64(acc[2], _mm512_load_si512((const void *)(s + 128)));
		acc[3] = _mm512_add_epi64(acc[3], _mm512_load_si512((const void *)(s + 192)));
	}
	acc[0] = _mm512_add_epi64(_mm512_add_epi64(acc[0], acc[1]), _mm512_add_epi64(acc[2], acc[3]));
	_mm512_storeu_si512((void *)lanes, acc[0]);
	for (unsigned i = 0; i < 8; i++)
		sum += lanes[i];
	return sum;
}

__attribute__((target("avx512f"))) static uint64_t stream_write_avx512(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst, *end = d + bytes;
	__m512i v = _mm512_set1_epi64((long long)seed);

	(void)src;
	for (; d < end; d += 256) {
		_mm512_store_si512((void *)(d + 0), v);
		_mm512_store_si512((void *)(d + 64), v);
		_mm512_store_si512((void *)(d + 128), v);
		_mm512_store_si512((void *)(d + 192), v);
	}
	return 0;
}

__attribute__((target("avx512f"))) static uint64_t stream_ntwrite_avx512(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst, *end = d + bytes;
	__m512i v = _mm512_set1_epi64((long long)seed);

	(void)src;
	for (; d < end; d += 256) {
		_mm512_stream_si512((void *)(d + 0), v);
		_mm512_stream_si512((void *)(d + 64), v);
		_mm512_stream_si512((void *)(d + 128), v);
		_mm512_stream_si512((void *)(d + 192), v);
	}
	_mm_sfence();
	return 0;
}

__attribute__((target("avx512f"))) static uint64_t stream_copy_avx512(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst;
	const char *s = src, *end = s + bytes;

	(void)seed;
	for (; s < end; s += 256, d += 256) {
		__m512i v0 = _mm512_load_si512((const void *)(s + 0));
		__m512i v1 = _mm512_load_si512((const void *)(s + 64));
		__m512i v2 = _mm512_load_si512((const void *)(s + 128));
		__m512i v3 = _mm512_load_si512((const void *)(s + 192));
		_mm512_store_si512((void *)(d + 0), v0);
		_mm512_store_si512((void *)(d + 64), v1);
		_mm512_store_si512((void *)(d + 128), v2);
		_mm512_store_si512((void *)(d + 192), v3);
	}
	return 0;
}

__attribute__((target("avx512f"))) static uint64_t stream_ntcopy_avx512(void *dst, const void *src, size_t bytes, uint64_t seed)
{
	char *d = dst;
	const char *s = src, *end = s + bytes;

	(void)seed;
	for (; s < end; s += 256, d += 256) {
		__m512i v0 = _mm512_load_si512((const void *)(s + 0));
		__m512i v1 = _mm512_load_si512((const void *)(s + 64));
		__m512i v2 = _mm512_load_si512((const void *)(s + 128));
		__m512i v3 = _mm512_load_si512((const void *)(s + 192));
		_mm512_stream_si512((void *)(d + 0), v0);
		_mm512_stream_si512((void *)(d + 64), v1);
		_mm512_stream_si512((void *)(d + 128), v2);
		_mm512_stream_si512((void *)(d + 192), v3);
	}
	_mm_sfence();
	return 0;
}

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
		a += (uint64_t)(p[0] + p[2] + p[4] + p[6]);
		b += (uint64_t)(p[1] + p[3] + p[5] + p[7]);
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
