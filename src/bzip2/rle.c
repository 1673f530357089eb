/*
 * The first run-length stage, undone: the encoder wrote every run of 4 to
 * 255 equal bytes as the first 4 and then one byte holding how many more
 * (0..251), before the BWT. Runs never cross a block, so each block is
 * expanded alone. A block that ends right after 4 equal bytes has no count
 * byte and expands to those 4 (libbz2 does the same).
 *
 * Two paths: plain, a byte at a time (a compare and branch per byte); fast,
 * a search for the next 4 equal bytes (16 positions per 16-byte vector
 * step where SSE2 is, else 5 per 8-byte word) and one memcpy for the bytes
 * before it, in one pass where the output fits the
 * room given (bz2_rle_decode_cap: text expands by a few percent), sized
 * first only where it does not. The search is exact: parsed from a run's
 * end, the first place 4 equal bytes start is where the next run starts
 * (an earlier start of the same run would itself be 4 equal bytes).
 */
#include "bzip2/bz2.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <string.h>

/* The plain walk, sizing only (out NULL) or writing too: a compare and
 * branch per input byte. Inlined into each caller with out a constant, so
 * the sizing pass carries no stores. */
static inline size_t plain_runs(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t len = 0, i = 0;

	while (i < n) {
		uint8_t b = in[i++];
		unsigned run = 1;

		while (i < n && run < 4 && in[i] == b) {
			i++;
			run++;
		}
		if (run == 4 && i < n)
			run += in[i++];
		if (out)
			memset(out + len, b, run);
		len += run;
	}
	return len;
}

size_t bz2_rle_size_plain(const uint8_t *in, size_t n)
{
	return plain_runs(in, n, NULL);
}

size_t bz2_rle_decode_plain(const uint8_t *in, size_t n, uint8_t *out)
{
	return plain_runs(in, n, out);
}

static inline uint64_t load_le64(const uint8_t *p)
{
	return (uint64_t)p[7] << 56 | (uint64_t)p[6] << 48 | (uint64_t)p[5] << 40 | (uint64_t)p[4] << 32 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[2] << 16 | (uint64_t)p[1] << 8 | p[0];
}

/* The first i >= s where in[i..i+3] are equal (i + 3 < n), or n. */
static size_t next_run(const uint8_t *in, size_t s, size_t n)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, high = 0x8080808080808080ull;

#ifdef __SSE2__
	/* Sixteen start positions a step: each byte against the three after
	 * it, four overlapping loads and three compares, where the word search
	 * below takes five positions for about the same instructions. */
	for (; s + 19 <= n; s += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(in + s));
		__m128i e = _mm_and_si128(_mm_cmpeq_epi8(a, _mm_loadu_si128((const __m128i *)(in + s + 1))),
					  _mm_cmpeq_epi8(a, _mm_loadu_si128((const __m128i *)(in + s + 2))));
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_and_si128(e, _mm_cmpeq_epi8(a, _mm_loadu_si128((const __m128i *)(in + s + 3)))));

		if (m)
			return s + (size_t)__builtin_ctz(m);
	}
#endif
	for (; s + 8 <= n; s += 5) {
		uint64_t x = load_le64(in + s), d = x ^ x >> 8;
		/* High bit of byte j set exactly when d's byte j is 0, i.e.
		 * in[s+j] == in[s+j+1] (no false positives, unlike the usual
		 * has-zero test: no carry crosses a byte here). */
		uint64_t z = ~(((d & low7) + low7) | d) & high;
		/* Three equal neighbours in a row from j = 0..4 (byte 7 of d
		 * compares past the word). */
		uint64_t r = z & z >> 8 & z >> 16 & 0x8080808080ull;

		if (r)
			return s + (size_t)(__builtin_ctzll(r) >> 3);
	}
	for (; s + 3 < n; s++)
		if (in[s] == in[s + 1] && in[s] == in[s + 2] && in[s] == in[s + 3])
			return s;
	return n;
}

size_t bz2_rle_size(const uint8_t *in, size_t n)
{
	size_t out = 0, s = 0;

	for (;;) {
		size_t i = next_run(in, s, n);

		if (i == n)
			return out + (n - s);
		out += i + 4 - s;
		if (i + 4 == n)
			return out;
		out += in[i + 4];
		s = i + 5;
	}
}

size_t bz2_rle_decode_cap(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	uint8_t *o = out;
	size_t s = 0;

	for (;;) {
		size_t i = next_run(in, s, n), left = cap - (size_t)(o - out);

		if (i == n) {
			if (n - s > left)
				return SIZE_MAX;
			memcpy(o, in + s, n - s);
			return (size_t)(o - out) + (n - s);
		}
		if (i + 4 - s + (i + 4 < n ? in[i + 4] : 0) > left)
			return SIZE_MAX;
		memcpy(o, in + s, i + 4 - s);
		o += i + 4 - s;
		if (i + 4 == n)
			return (size_t)(o - out);
		memset(o, in[i], in[i + 4]);
		o += in[i + 4];
		s = i + 5;
	}
}

size_t bz2_rle_decode(const uint8_t *in, size_t n, uint8_t *out)
{
	return bz2_rle_decode_cap(in, n, out, SIZE_MAX);
}

size_t bz2_rle_decode_piece(struct bz2_rle_cursor *c, const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	size_t o = 0, k, i;

	while (o < cap) {
		if (c->run_left) {
			k = c->run_left < cap - o ? c->run_left : cap - o;
			memset(out + o, c->run_byte, k);
			o += k;
			c->run_left -= (unsigned)k;
		} else if (c->s < c->lit_end) {
			k = c->lit_end - c->s < cap - o ? c->lit_end - c->s : cap - o;
			memcpy(out + o, in + c->s, k);
			o += k;
			c->s += k;
		} else if (c->count_next) {
			c->run_byte = in[c->s - 1];
			c->run_left = in[c->s++];
			c->count_next = false;
		} else if (c->s == n) {
			break;
		} else {
			/* A stretch cut by the piece's end resumes at lit_end,
			 * not at a fresh search: from inside a run's first 4
			 * bytes the search would take its count for data. */
			i = next_run(in, c->s, n);
			c->lit_end = i == n ? n : i + 4;
			c->count_next = i != n && i + 4 < n;
		}
	}
	return o;
}
