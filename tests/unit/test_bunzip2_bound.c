/*
 * The decoding library's memory bound whatever a block expands to: a block
 * of one long run (900 kB before the run-length stage, 51 times that after)
 * is held unexpanded and written in pieces, so the largest output buffer
 * the library reports (bunzip2_summary.max_buffer_bytes) stays within
 * BUNZIP2_BUFFER_MAX_BYTES; its bytes, their order among ordinary blocks,
 * and its CRC check (nothing of a failing block written) are as before.
 * The pieces themselves (bz2_rle_decode_piece, bz2_crc_more) are checked
 * against the whole-block stage at every cut.
 */
#include "../harness.h"
#include "bzip2_fixture.h"

#include "bzip2/bunzip2.h"
#include "bzip2/bz2.h"
#include "util/rng.h"
#include "exp/app/textgen.h"

#include <stdlib.h>
#include <string.h>

/* Runs of 1..8 equal bytes, each of 4 or more followed by its count (any
 * byte: a corrupt count of 252..255 is expanded as libbz2 expands it). */
static size_t rle_input(uint8_t *in, size_t cap, uint64_t seed)
{
	struct rng r;
	size_t n = 0;

	rng_seed(&r, seed);
	while (n + 9 < cap) {
		uint8_t b = (uint8_t)rng_below(&r, 3);
		unsigned run = 1 + (unsigned)rng_below(&r, 8);

		if (n && in[n - 1] == b)
			continue;
		if (run > 4)
			run = 4;
		memset(in + n, b, run);
		n += run;
		if (run == 4)
			in[n++] = (uint8_t)rng_next(&r);
	}
	return n;
}

TEST(bunzip2_rle_pieces_match_the_whole_block)
{
	static const size_t caps[] = {1, 2, 3, 4, 5, 7, 64, 251, 256, 4093, 1 << 20};
	size_t cap_in = 20000, whole_n, n;
	uint8_t *in = malloc(cap_in), *whole = malloc(cap_in * 64), *got = malloc(cap_in * 64);

	CHECK(in && whole && got, "out of memory");
	for (uint64_t seed = 1; seed <= 6; seed++) {
		n = rle_input(in, cap_in, seed);
		/* Every third input ends right after 4 equal bytes: no count. */
		if (seed % 3 == 0)
			while (n >= 5 && !(in[n - 5] == in[n - 4] && in[n - 4] == in[n - 3] && in[n - 3] == in[n - 2]))
				n--;
		if (seed % 3 == 0 && n >= 5)
			n--;
		whole_n = bz2_rle_decode(in, n, whole);
		for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
			struct bz2_rle_cursor cur = {0};
			size_t total = 0, k;
			uint32_t crc = 0;

			while ((k = bz2_rle_decode_piece(&cur, in, n, got + total, caps[c]))) {
				CHECK(k <= caps[c] && total + k <= whole_n, "seed %llu, cap %zu: %zu bytes past %zu",
				      (unsigned long long)seed, caps[c], total + k, whole_n);
				crc = bz2_crc_more(crc, got + total, k);
				total += k;
			}
			CHECK(total == whole_n && !memcmp(got, whole, whole_n), "seed %llu, cap %zu: %zu bytes, want %zu",
			      (unsigned long long)seed, caps[c], total, whole_n);
			CHECK(crc == bz2_crc(whole, whole_n), "seed %llu, cap %zu: CRC in pieces differs",
			      (unsigned long long)seed, caps[c]);
		}
	}
	free(in);
	free(whole);
	free(got);
}

struct sink {
	uint8_t *p;
	size_t n, cap;
};

static int sink_write(void *ctx, const uint8_t *buf, size_t len)
{
	struct sink *s = ctx;

	if (s->n + len > s->cap) {
		size_t cap = (s->n + len) * 2 + 64;
		uint8_t *p = realloc(s->p, cap);

		if (!p)
			return -12;
		s->p = p;
		s->cap = cap;
	}
	memcpy(s->p + s->n, buf, len);
	s->n += len;
	return 0;
}

/* Text, 12 MB of zeros (three blocks of one run at level 1, 5.1 MB each),
 * text: the zeros' blocks among ordinary ones. */
static uint8_t *mixed_input(size_t *n)
{
	size_t text = 150000, zeros = 12u << 20;
	uint8_t *t = calloc(1, 2 * text + zeros);

	if (!t)
		return NULL;
	textgen_fill(t, text, TEXTGEN_MARKOV, 3);
	textgen_fill(t + text + zeros, text, TEXTGEN_MARKOV, 4);
	*n = 2 * text + zeros;
	return t;
}

TEST(bunzip2_a_block_of_one_run_holds_a_bounded_buffer, NEEDS_LIBBZ2)
{
	static const struct {
		unsigned threads;
		size_t chunk;
	} runs[] = {{1, 0}, {2, 0}, {3, 4093}};
	size_t n = 0, len = 0;
	uint8_t *t = mixed_input(&n), *z;

	CHECK(t, "out of memory");
	CHECK((z = bzip2_fixture_compress(t, n, 1, &len)), "libbz2 could not compress");
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct bunzip2_opts o = {.threads = runs[i].threads, .chunk_bytes = runs[i].chunk};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc = bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);

		CHECK(rc == 0 && s.n == n && !memcmp(s.p, t, n), "-n %u: rc %d, %zu of %zu bytes: %s", runs[i].threads,
		      rc, s.n, n, e.what);
		CHECK(sum.blocks >= 5 && sum.max_buffer_bytes > 0 && sum.max_buffer_bytes <= BUNZIP2_BUFFER_MAX_BYTES,
		      "-n %u: %u blocks, largest buffer %zu bytes (bound %zu)", runs[i].threads, sum.blocks,
		      sum.max_buffer_bytes, BUNZIP2_BUFFER_MAX_BYTES);
		free(s.p);
	}
	free(z);
	free(t);
}

TEST(bunzip2_a_packed_block_with_a_bad_crc_writes_nothing_of_it, NEEDS_LIBBZ2)
{
	size_t n = 12u << 20, len = 0, count = 0;
	uint8_t *t = calloc(1, n), *z = NULL;
	uint64_t *magics = NULL;

	CHECK(t, "out of memory");
	CHECK((z = bzip2_fixture_compress(t, n, 1, &len)), "libbz2 could not compress");
	CHECK((magics = bz2_scan_blocks(z, len, &count)) && count == 3, "%zu block magics", count);
	/* The second block's stored CRC: the 32 bits after its magic. */
	z[(magics[1] + 48 + 5) / 8] ^= (uint8_t)(0x80 >> ((magics[1] + 48 + 5) % 8));
	for (unsigned threads = 1; threads <= 2; threads++) {
		struct bunzip2_opts o = {.threads = threads};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc = bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);
		size_t first = s.n;

		/* The first block is whole and nothing of the second. */
		CHECK(rc == BUNZIP2_CORRUPT && e.block == 2 && strstr(e.what, "bad block CRC") && first > 0 &&
			      first < n / 2 && !memcmp(s.p, t, first),
		      "-n %u: rc %d, block %u, %zu bytes written: %s", threads, rc, e.block, first, e.what);
		free(s.p);
	}
	free(magics);
	free(z);
	free(t);
}
