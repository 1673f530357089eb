/*
 * Our bzip2 decoder (src/bzip2/) against libbz2: streams libbz2 writes
 * (empty, one byte, runs of 1 to 300 equal bytes, a 900 kB block, many
 * blocks, concatenated streams, a periodic block) decode to the bytes
 * libbz2 decodes, through every stage alone and through every lane count,
 * layout and prefetch; and hand-made streams (a tiny bit writer below)
 * break one field each, which must fail with the block and byte named.
 * The tests that need libbz2 declare it (NEEDS_LIBBZ2) and skip, saying
 * so, where the build has none (the cross build).
 */
#include "../harness.h"
#include "bzip2_fixture.h"
#include "../bitw.h"
#include "../grow_buf.h"

#include "bzip2/bz2.h"
#include "bzip2/libbz2_ref.h"
#include "exp/app/textgen.h"
#include "exp/app/bzip2_tables.h"
#include "util/rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sink_buf {
	uint8_t *p;
	size_t n, cap;
	unsigned blocks;
};

static int sink_append(void *ctx, unsigned block, const uint8_t *out, size_t bytes, const struct bz2_stage_ticks *t)
{
	struct sink_buf *s = ctx;

	(void)t;
	s->blocks = block;
	return grow_buf_append(&s->p, &s->n, &s->cap, out, bytes);
}

/* libbz2's output, for bz2_ref_decode. */
static int ref_append(void *ctx, const uint8_t *p, size_t n)
{
	struct sink_buf *s = ctx;

	return grow_buf_append(&s->p, &s->n, &s->cap, p, n);
}

/* What to break in the one-block stream of "a". */
enum breakage { INTACT, RANDOMISED, ORIGIN_PAST, SELECTOR_RANGE, HUFFMAN_OVER, HUFFMAN_LEN, BAD_CRC, STREAM_CRC,
		NO_SELECTORS, HUFFMAN_OVER_UNUSED };

static size_t make_stream(uint8_t *out, enum breakage br)
{
	struct bitw w;
	uint32_t crc = bz2_crc((const uint8_t *)"a", 1);

	memset(&w, 0, sizeof(w));
	bitw_put(&w, 32, 0x425a6839);               /* BZh9 */
	bitw_put(&w, 48, 0x314159265359ull);
	bitw_put(&w, 32, br == BAD_CRC ? crc ^ 1 : crc);
	bitw_put(&w, 1, br == RANDOMISED);
	bitw_put(&w, 24, br == ORIGIN_PAST ? 5 : 0);
	bitw_put(&w, 16, 0x8000 >> 6);              /* 'a' = 0x61: range 6 */
	bitw_put(&w, 16, 0x8000 >> 1);
	bitw_put(&w, 3, 2);                          /* two tables */
	bitw_put(&w, 15, br == NO_SELECTORS ? 0 : 1);
	if (br == SELECTOR_RANGE)
		bitw_put(&w, 3, 6);                  /* unary 2 with two tables */
	else
		bitw_put(&w, 1, 0);
	for (int t = 0; t < 2; t++) {
		/* lengths RUNA 1, RUNB 2, EOB 2 (codes 0, 10, 11) */
		if (br == HUFFMAN_LEN) {
			bitw_put(&w, 5, 0);
		} else if (br == HUFFMAN_OVER || (br == HUFFMAN_OVER_UNUSED && t == 1)) {
			bitw_put(&w, 5, 1);
			bitw_put(&w, 3, 0);          /* 1, 1, 1: three codes of one bit */
		} else {
			bitw_put(&w, 5, 1);
			bitw_put(&w, 1, 0);
			bitw_put(&w, 3, 4);          /* "10" (length + 1), then "0" */
			bitw_put(&w, 1, 0);
		}
	}
	bitw_put(&w, 1, 0);                          /* RUNA: one 'a' */
	bitw_put(&w, 2, 3);                          /* EOB */
	bitw_put(&w, 48, 0x177245385090ull);
	bitw_put(&w, 32, br == STREAM_CRC ? crc ^ 2 : crc);
	memcpy(out, w.buf, (w.bits + 7) / 8);
	return (w.bits + 7) / 8;
}

static int decode(const uint8_t *in, size_t len, const struct bz2_walk_opts *wo, struct sink_buf *s,
		  struct bz2_error *e)
{
	struct bz2_decode_opts o = {.walk = *wo};

	memset(s, 0, sizeof(*s));
	return bz2_decode(in, len, &o, sink_append, s, NULL, e);
}

/* ---- zero runs past the block ---- */
/* Bijective base 2, least significant digit first: RUNA (code 00 below)
 * is 1, RUNB (01) is 2. */
static void put_run(struct bitw *w, uint32_t run)
{
	while (run) {
		bitw_put(w, 2, run & 1 ? 0 : 1);
		run = (run - (run & 1 ? 1 : 2)) / 2;
	}
}

/* A BZh1 block (100,000 bytes at most) of 'a' and 'b' whose one group is
 * a zero run of `first` bytes, a 'b', then a run of `then` (0: none) and
 * EOB: every code two bits long (RUNA 00, RUNB 01, 'b' 10, EOB 11). Its
 * CRC is never reached. */
static size_t make_runs(uint8_t *out, uint32_t first, uint32_t then)
{
	struct bitw w;

	memset(&w, 0, sizeof(w));
	bitw_put(&w, 32, 0x425a6831);               /* BZh1 */
	bitw_put(&w, 48, 0x314159265359ull);
	bitw_put(&w, 32, 0);
	bitw_put(&w, 1, 0);
	bitw_put(&w, 24, 0);
	bitw_put(&w, 16, 0x8000 >> 6);              /* 'a', 'b' = 0x61, 0x62: range 6 */
	bitw_put(&w, 16, 0x8000 >> 1 | 0x8000 >> 2);
	bitw_put(&w, 3, 2);                          /* two tables */
	bitw_put(&w, 15, 1);
	bitw_put(&w, 1, 0);
	for (int t = 0; t < 2; t++) {
		bitw_put(&w, 5, 2);                  /* four lengths of 2 */
		bitw_put(&w, 4, 0);
	}
	put_run(&w, first);
	bitw_put(&w, 2, 2);                          /* 'b' (MTF index 1) */
	put_run(&w, then);
	bitw_put(&w, 2, 3);                          /* EOB */
	bitw_put(&w, 48, 0x177245385090ull);
	bitw_put(&w, 32, 0);
	memcpy(out, w.buf, (w.bits + 7) / 8);
	return (w.bits + 7) / 8;
}

/* Every decode path refuses a zero run past the block, and a byte past
 * it, for the reason the path that takes a symbol at a time gives: where
 * both happen in one group, the one met first (the byte count here, then
 * a run of 4 million). The split decode, in each form of its list and in
 * lanes, names the group's first bit (byte 25); the plain paths name the
 * symbol's own. */
static const struct {
	uint32_t first, then;
	const char *why;
} run_cases[] = {
	{4000000, 0, "a zero run longer than the block"},
	{100000, 0, "more bytes than the block size allows"},
	{100000, 4000000, "more bytes than the block size allows"},
	{99999, 4000000, "a zero run longer than the block"},
};

/* Each case through each path with the list's form at most `form`: NULL,
 * or what went otherwise. */
static const char *runs_refusals(enum bz2_list_form form, char *why, size_t cap)
{
	static const unsigned paths[] = {0, BZ2_DECODE_LANE, BZ2_PLAIN_HUFFMAN, BZ2_PLAIN_MTF, BZ2_PLAIN_ALL};
	const char *f = NULL;

	bz2_split_list_max = form;
	for (size_t i = 0; i < sizeof(run_cases) / sizeof(run_cases[0]) && !f; i++)
		for (size_t k = 0; k < sizeof(paths) / sizeof(paths[0]) && !f; k++) {
			uint8_t in[256];
			size_t len = make_runs(in, run_cases[i].first, run_cases[i].then);
			struct bz2_decode_opts o = {.walk = {.lanes = 1}, .plain = paths[k]};
			struct sink_buf s = {0};
			struct bz2_error e;
			int rc = bz2_decode(in, len, &o, sink_append, &s, NULL, &e);
			bool split = paths[k] == 0 || paths[k] == BZ2_DECODE_LANE;

			free(s.p);
			if (rc != -1 || strcmp(e.what, run_cases[i].why) || (split && e.byte_offset != 25)) {
				snprintf(why, cap, "list %d, runs %u then %u, paths %u: rc %d, byte %llu: %s", (int)form,
					 run_cases[i].first, run_cases[i].then, paths[k], rc,
					 (unsigned long long)e.byte_offset, rc ? e.what : "decoded");
				f = why;
			}
		}
	bz2_split_list_max = BZ2_LIST_VBMI;
	return f;
}

TEST(bzip2_runs_past_the_block_refused_alike_by_every_path)
{
	static const enum bz2_list_form forms[] = {BZ2_LIST_WORDS, BZ2_LIST_SHUFFLE, BZ2_LIST_VBMI};
	char why[300];

	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		const char *fail = runs_refusals(forms[f], why, sizeof(why));

		CHECK(!fail, "%s", fail);
	}
}

TEST(bzip2_handmade_stream_decodes)
{
	uint8_t in[256];
	size_t len = make_stream(in, INTACT);
	struct bz2_walk_opts wo = {.lanes = 1};
	struct sink_buf s;
	struct bz2_error e;
	int rc = decode(in, len, &wo, &s, &e);

	CHECK(rc == 0, "rc %d: block %u byte %llu: %s", rc, e.block, (unsigned long long)e.byte_offset, e.what);
	CHECK(s.n == 1 && s.p && s.p[0] == 'a', "decoded %zu bytes", s.n);
	if (bz2_ref_available()) {
		uint8_t back[64];
		char why[128];
		struct sink_buf ref = {0};

		CHECK(bz2_ref_decode(in, len, ref_append, &ref, back, sizeof(back), why, sizeof(why)) == 0 && ref.n == 1 &&
			      ref.p[0] == 'a', "libbz2 disagrees with the hand-made stream: %s", why);
		free(ref.p);
	}
	free(s.p);
}

/* libbz2 builds every table unchecked and fails only on a code it reads:
 * an oversubscribed table that no selector names decodes, and one that a
 * selector names is refused, by the block's number. */
TEST(bzip2_unused_oversubscribed_table_is_accepted_as_libbz2_does)
{
	uint8_t in[256];
	size_t len = make_stream(in, HUFFMAN_OVER_UNUSED);
	struct bz2_walk_opts wo = {.lanes = 1};
	struct sink_buf s;
	struct bz2_error e;
	int rc = decode(in, len, &wo, &s, &e);

	CHECK(rc == 0 && s.n == 1 && s.p[0] == 'a', "rc %d, %zu bytes: %s", rc, s.n, e.what);
	free(s.p);
	if (bz2_ref_available()) {
		uint8_t back[64];
		char why[128];
		struct sink_buf ref = {0};

		CHECK(bz2_ref_decode(in, len, ref_append, &ref, back, sizeof(back), why, sizeof(why)) == 0 && ref.n == 1,
		      "libbz2 refuses the stream the test assumes it accepts: %s", why);
		free(ref.p);
	}
	len = make_stream(in, HUFFMAN_OVER);
	rc = decode(in, len, &wo, &s, &e);
	CHECK(rc == -1 && e.block == 1 && strstr(e.what, "more codes than the lengths allow"), "rc %d: %s", rc, e.what);
	free(s.p);
	/* libbz2 decodes with the table it cannot build right, to bytes the
	 * format leaves undefined, and then refuses the block for its CRC:
	 * both refuse, by different names. */
	if (bz2_ref_available()) {
		uint8_t back[64];
		char why[128];
		struct sink_buf ref = {0};

		CHECK(bz2_ref_decode(in, len, ref_append, &ref, back, sizeof(back), why, sizeof(why)) == -1,
		      "libbz2 accepts a block that uses an oversubscribed table");
		free(ref.p);
	}
}

TEST(bzip2_bad_fields_fail_naming_block_and_byte)
{
	static const struct {
		enum breakage br;
		unsigned block;
		const char *what;
	} cases[] = {
		{ORIGIN_PAST, 1, "origin pointer past the block"},
		{SELECTOR_RANGE, 1, "selector out of range"}, {HUFFMAN_OVER, 1, "bad Huffman table"},
		{HUFFMAN_LEN, 1, "bad Huffman table"}, {BAD_CRC, 1, "bad block CRC"},
		{STREAM_CRC, 0, "bad stream CRC"},   {NO_SELECTORS, 1, "no selectors"},
	};
	struct bz2_walk_opts wo = {.lanes = 1};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t in[256];
		size_t len = make_stream(in, cases[i].br);
		struct sink_buf s;
		struct bz2_error e;
		int rc = decode(in, len, &wo, &s, &e);

		CHECK(rc == -1, "case %zu: rc %d", i, rc);
		CHECK(e.block == cases[i].block && strstr(e.what, cases[i].what) && e.byte_offset < len,
		      "case %zu: block %u byte %llu: %s", i, e.block, (unsigned long long)e.byte_offset, e.what);
		free(s.p);
	}
}

TEST(bzip2_truncated_and_bad_magic_fail)
{
	uint8_t in[256];
	size_t len = make_stream(in, INTACT);
	struct bz2_walk_opts wo = {.lanes = 1};
	struct sink_buf s;
	struct bz2_error e;

	for (size_t cut = 0; cut < len; cut++) {
		CHECK(decode(in, cut, &wo, &s, &e) == -1, "cut at %zu decoded", cut);
		CHECK(e.what[0] && e.byte_offset <= len, "cut at %zu: no reason", cut);
		free(s.p);
	}
	in[1] ^= 0x40;
	CHECK(decode(in, len, &wo, &s, &e) == -1 && strstr(e.what, "bad magic") && e.byte_offset == 0, "%s", e.what);
	free(s.p);
	in[1] ^= 0x40;
	in[5] ^= 0x01;  /* inside the block magic */
	CHECK(decode(in, len, &wo, &s, &e) == -1 && strstr(e.what, "bad block magic") && e.block == 1 &&
		      e.byte_offset == 4, "%s at %llu", e.what, (unsigned long long)e.byte_offset);
	free(s.p);
}

TEST(bzip2_rle_expands_runs)
{
	/* 4 equal bytes then a count byte; fewer than 4 stand as they are; a
	 * block ending right after 4 has no count. */
	const uint8_t in[] = {'x', 'a', 'a', 'a', 'a', 3, 'a', 'b', 'b', 'b', 'b', 0, 'c', 'c', 'c', 'c'};
	const char *want = "xaaaaaaaabbbbcccc";
	uint8_t out[64];
	size_t n = bz2_rle_size(in, sizeof(in));

	CHECK(n == strlen(want), "size %zu", n);
	CHECK(bz2_rle_decode(in, sizeof(in), out) == n && !memcmp(out, want, n), "expanded wrong");
	CHECK(bz2_rle_size_plain(in, sizeof(in)) == n && bz2_rle_decode_plain(in, sizeof(in), out) == n &&
		      !memcmp(out, want, n), "the plain path expanded wrong");
}

/* The word search against the byte loop: runs of 1..6 of a 3-letter
 * alphabet at every offset and length, count bytes of any value. */
TEST(bzip2_rle_word_search_expands_as_the_byte_loop)
{
	uint8_t in[96], a[96 * 256], b[96 * 256];
	struct rng r;

	rng_seed(&r, 11);
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)rng_below(&r, sizeof(in) + 1), na, nb;

		for (size_t i = 0; i < n;) {
			uint8_t c = (uint8_t)('a' + rng_below(&r, 3));
			size_t run = 1 + (size_t)rng_below(&r, 6);

			for (size_t j = 0; j < run && i < n; j++)
				in[i++] = rng_below(&r, 4) ? c : (uint8_t)rng_below(&r, 256);
		}
		na = bz2_rle_size(in, n);
		nb = bz2_rle_size_plain(in, n);
		CHECK(na == nb, "round %d: size %zu, plain %zu", round, na, nb);
		if (na != nb)
			return;
		CHECK(bz2_rle_decode(in, n, a) == na && bz2_rle_decode_plain(in, n, b) == nb && !memcmp(a, b, na),
		      "round %d: the bytes differ", round);
		/* One pass into a bounded buffer: exactly the bytes where they
		 * fit, a refusal (and no write past the room) where one short. */
		memset(a, 0xee, sizeof(a));
		CHECK(bz2_rle_decode_cap(in, n, a, na) == na && !memcmp(a, b, na) && (na == sizeof(a) || a[na] == 0xee),
		      "round %d: cap %zu", round, na);
		memset(a, 0xee, sizeof(a));
		CHECK(!na || (bz2_rle_decode_cap(in, n, a, na - 1) == SIZE_MAX && a[na - 1] == 0xee),
		      "round %d: cap %zu - 1 passed or wrote past it", round, na);
	}
}

TEST(bzip2_huffman_refuses_oversubscribed_and_decodes_long_codes)
{
	struct bz2_huffman h;
	uint8_t over[3] = {1, 1, 1}, lens[258];
	struct bitw w;
	struct bz2_bits b;

	CHECK(bz2_huffman_build(&h, over, 3) == -1, "three 1-bit codes accepted");
	/* 258 symbols: lengths 1, 2, ... 19, 20, 20 for the first 21 (a
	 * complete code), then only 20-bit codes would fit: give them none
	 * by using 21 symbols. */
	for (unsigned s = 0; s < 21; s++)
		lens[s] = (uint8_t)(s < 20 ? s + 1 : 20);
	CHECK(bz2_huffman_build(&h, lens, 21) == 0, "complete code refused");
	memset(&w, 0, sizeof(w));
	/* symbol 0 = "0", symbol 19 = 19 ones then 0, symbol 20 = 20 ones */
	bitw_put(&w, 1, 0);
	bitw_put(&w, 20, 0xffffe);
	bitw_put(&w, 20, 0xfffff);
	bitw_put(&w, 12, 0xffe);  /* symbol 11: 11 ones, a 0 */
	bz2_bits_init(&b, w.buf, sizeof(w.buf), 0);
	CHECK(bz2_huffman_decode(&h, &b) == 0, "first");
	CHECK(bz2_huffman_decode(&h, &b) == 19, "second");
	CHECK(bz2_huffman_decode(&h, &b) == 20, "third");
	CHECK(bz2_huffman_decode(&h, &b) == 11, "fourth");
}

uint8_t *bzip2_fixture_compress(const uint8_t *in, size_t n, int level, size_t *len)
{
	char why[128];
	uint8_t *out;

	*len = n + n / 100 + 1024;
	if (!(out = malloc(*len)) || bz2_ref_compress(in, n, level, out, len, why, sizeof(why))) {
		free(out);
		return NULL;
	}
	return out;
}

int bzip2_fixture_empty_streams(const char *path, unsigned streams)
{
	static const uint8_t empty[] = {'B', 'Z', 'h', '9', 0x17, 0x72, 0x45, 0x38, 0x50, 0x90, 0, 0, 0, 0};
	FILE *f = fopen(path, "wb");
	unsigned i = 0;

	if (!f)
		return -1;
	while (i < streams && fwrite(empty, 1, sizeof(empty), f) == sizeof(empty))
		i++;
	return fclose(f) || i < streams ? -1 : 0;
}

static const struct bz2_walk_opts walks[] = {
	{.lanes = 1},
	{.lanes = 2, .layout = BZ2_LAYOUT_REGISTERS},
	{.lanes = 3, .layout = BZ2_LAYOUT_STATE},
	{.lanes = 8, .layout = BZ2_LAYOUT_REGISTERS, .prefetch = BZ2_PREFETCH_NEXT},
	{.lanes = 8, .layout = BZ2_LAYOUT_STATE, .prefetch = BZ2_PREFETCH_TWO},
	{.lanes = 16, .segments = 16, .layout = BZ2_LAYOUT_REGISTERS, .prefetch = BZ2_PREFETCH_TWO},
	{.lanes = 32, .segments = 4096, .layout = BZ2_LAYOUT_REGISTERS},
	{.lanes = 12, .layout = BZ2_LAYOUT_STATE, .prefetch = BZ2_PREFETCH_NEXT, .seed = 7},
	/* mlpbunzip2's shape, and more segments than chunks at a run-time K:
	 * a lane's segments packed one after another in its chunks, some
	 * crossing from one chunk into the next. */
	{.lanes = 32, .segments = 512, .layout = BZ2_LAYOUT_REGISTERS, .prefetch = BZ2_PREFETCH_NEXT},
	{.lanes = 20, .segments = 2048, .layout = BZ2_LAYOUT_STATE, .prefetch = BZ2_PREFETCH_NEXT, .seed = 9},
	/* Lanes and segments by the block's rows: 16 lanes at level 1's
	 * blocks, 32 at level 9's. */
	{.lanes = 1, .layout = BZ2_LAYOUT_REGISTERS, .prefetch = BZ2_PREFETCH_NEXT, .by_rows = true},
};

static const struct bz2_decode_opts overlaps[] = {
	{.walk = {.lanes = 1}, .overlap = BZ2_OVERLAP_INTERLEAVE},
	{.walk = {.lanes = 8, .prefetch = BZ2_PREFETCH_NEXT}, .overlap = BZ2_OVERLAP_INTERLEAVE},
	{.walk = {.lanes = 16, .prefetch = BZ2_PREFETCH_NEXT, .seed = 3}, .overlap = BZ2_OVERLAP_INTERLEAVE},
	{.walk = {.lanes = 32, .segments = 32}, .overlap = BZ2_OVERLAP_INTERLEAVE},
	{.walk = {.lanes = 5, .prefetch = BZ2_PREFETCH_TWO}, .overlap = BZ2_OVERLAP_INTERLEAVE},
	{.walk = {.lanes = 1}, .overlap = BZ2_OVERLAP_SCOUT, .scout_cpu = -1},
	{.walk = {.lanes = 16, .prefetch = BZ2_PREFETCH_NEXT}, .overlap = BZ2_OVERLAP_SCOUT, .scout_cpu = -1},
};

/* Every walk decodes what libbz2 decodes; returns the failure or NULL. */
static const char *round_trip(const uint8_t *text, size_t n, int level, unsigned *blocks, char *why, size_t whylen)
{
	size_t len = 0;
	uint8_t *z = bzip2_fixture_compress(text, n, level, &len);

	if (!z)
		return "libbz2 could not compress";
	for (size_t i = 0; i < sizeof(walks) / sizeof(walks[0]); i++) {
		struct sink_buf s;
		struct bz2_error e;
		int rc = decode(z, len, &walks[i], &s, &e);

		if (rc || s.n != n || (n && memcmp(s.p, text, n))) {
			snprintf(why, whylen, "walk %zu (K=%u): rc %d, %zu of %zu bytes, block %u: %s", i, walks[i].lanes, rc,
				 s.n, n, e.block, e.what);
			free(s.p);
			free(z);
			return why;
		}
		*blocks = s.blocks;
		free(s.p);
	}
	/* Block b+1's decode overlapped with block b's walk: interleaved on
	 * one core at each sliced lane count (one lane, the compiled K = 8,
	 * 16 and 32, a run-time K) and the scout thread. */
	for (size_t i = 0; i < sizeof(overlaps) / sizeof(overlaps[0]); i++) {
		struct sink_buf s = {0};
		struct bz2_error e;
		int rc = bz2_decode(z, len, &overlaps[i], sink_append, &s, NULL, &e);

		if (rc || s.n != n || (n && memcmp(s.p, text, n))) {
			snprintf(why, whylen, "overlap %zu (K=%u, mode %d): rc %d, %zu of %zu bytes, block %u: %s", i,
				 overlaps[i].walk.lanes, overlaps[i].overlap, rc, s.n, n, e.block, e.what);
			free(s.p);
			free(z);
			return why;
		}
		free(s.p);
	}
	/* Each decode stage's plain path alone, then all of them, with one
	 * lane: the same bytes. The stages meet only through their outputs
	 * (symbols, bytes, a CRC), so a path that matches alone matches beside
	 * any other; the 10 mixed sets cost time and prove nothing more. Then
	 * every path fast in the decode's lane form. */
	static const unsigned plain_sets[] = {BZ2_PLAIN_HUFFMAN, BZ2_PLAIN_MTF, BZ2_PLAIN_CRC, BZ2_PLAIN_RLE,
					      BZ2_PLAIN_ALL, BZ2_DECODE_LANE};

	for (size_t k = 0; k < sizeof(plain_sets) / sizeof(plain_sets[0]); k++) {
		unsigned plain = plain_sets[k];
		struct bz2_decode_opts o = {.walk = {.lanes = 1}, .plain = plain};
		struct sink_buf s = {0};
		struct bz2_error e;
		int rc = bz2_decode(z, len, &o, sink_append, &s, NULL, &e);

		if (rc || s.n != n || (n && memcmp(s.p, text, n))) {
			snprintf(why, whylen, "plain paths 0x%x: rc %d, %zu of %zu bytes, block %u: %s", plain, rc, s.n, n,
				 e.block, e.what);
			free(s.p);
			free(z);
			return why;
		}
		free(s.p);
	}
	free(z);
	return NULL;
}

TEST(bzip2_small_streams_match_libbz2, NEEDS_LIBBZ2)
{
	uint8_t buf[2048] = {0};
	char why[300];
	unsigned blocks = 0;
	const char *f;

	CHECK(!(f = round_trip(buf, 0, 9, &blocks, why, sizeof(why))) && blocks == 0, "empty: %s", f ? f : "blocks");
	buf[0] = 'q';
	CHECK(!(f = round_trip(buf, 1, 9, &blocks, why, sizeof(why))) && blocks == 1, "one byte: %s", f ? f : "");
	/* Runs of 1..300 equal bytes between others: every count byte value. */
	for (unsigned r = 1; r <= 300; r++) {
		memset(buf, 'r', r);
		buf[r] = 's';
		f = round_trip(buf, r + 1, 9, &blocks, why, sizeof(why));
		CHECK(!f, "run of %u: %s", r, f);
		if (f)
			break;
	}
	for (unsigned i = 0; i < 256; i++)
		buf[i] = (uint8_t)i;
	CHECK(!(f = round_trip(buf, 256, 1, &blocks, why, sizeof(why))), "256 distinct: %s", f);
}

TEST(bzip2_large_block_and_many_blocks_match_libbz2, NEEDS_LIBBZ2)
{
	size_t n = 900000;
	uint8_t *t = malloc(3 * n);
	char why[300];
	unsigned blocks = 0;
	const char *f;

	if (!t) {
		CHECK(0, "out of memory");
		return;
	}
	textgen_fill(t, n, TEXTGEN_MARKOV, 1);
	CHECK(!(f = round_trip(t, n, 9, &blocks, why, sizeof(why))), "900 kB: %s", f);
	CHECK(blocks >= 1 && blocks <= 2, "900 kB made %u blocks", blocks);
	textgen_fill(t, 3 * n, TEXTGEN_REPEAT, 2);
	CHECK(!(f = round_trip(t, 3 * n, 1, &blocks, why, sizeof(why))), "many blocks: %s", f);
	CHECK(blocks >= 20, "level 1 over 2.7 MB made only %u blocks", blocks);
	/* A periodic block: its rows form short cycles, the lanes fall back
	 * (a whole number of periods: "abc" over 200,000 bytes is not one,
	 * and its rows form a single cycle). */
	for (size_t i = 0; i < 200000; i++)
		t[i] = "ab"[i % 2];
	CHECK(!(f = round_trip(t, 200000, 9, &blocks, why, sizeof(why))), "periodic: %s", f);
	/* Random bytes: MTF indices up to 255 (every word of the packed list). */
	textgen_fill(t, 300000, TEXTGEN_RANDOM, 3);
	CHECK(!(f = round_trip(t, 300000, 9, &blocks, why, sizeof(why))), "random: %s", f);
	free(t);
}

/* ---- the column as its runs ---- */
/* The first block of t[0..n) decoded as a column and as runs, with the
 * list's form at most `form` (and in lanes where `lane`): the same block,
 * counts and T-vector, the runs' built with masked stores and without.
 * NULL, or what differed. */
static const char *runs_as_column(const uint8_t *t, size_t n, enum bz2_list_form form, bool lane, char *why,
				  size_t cap)
{
	size_t len;
	uint8_t *z = bzip2_fixture_compress(t, n, 9, &len);
	struct bz2_block *col = calloc(1, sizeof(*col)), *run = calloc(1, sizeof(*run));
	uint32_t *tt = malloc((size_t)BZ2_MAX_BLOCK_BYTES * 4), *tr = malloc((size_t)BZ2_MAX_BLOCK_BYTES * 4);
	const char *f = NULL;

	if (!z || !col || !run || !tt || !tr || !(col->bwt = malloc(BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK)) ||
	    !(run->bwt = malloc(BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK)) ||
	    !(run->runs = malloc((BZ2_MAX_BLOCK_BYTES + 1) * sizeof(uint16_t)))) {
		f = "out of memory";
		goto out;
	}
	bz2_split_list_max = form;
	for (int k = 0; k < 2 && !f; k++) {
		struct bz2_block *x = k ? run : col;
		struct bz2_bits b;
		struct bz2_error e;

		bz2_bits_init(&b, z, len, 32 + 48);
		if (bz2_block_decode(&b, BZ2_MAX_BLOCK_BYTES, x, lane ? BZ2_DECODE_LANE : 0, NULL, &e)) {
			snprintf(why, cap, "%s: %s", k ? "runs" : "column", e.what);
			f = why;
		}
	}
	bz2_split_list_max = BZ2_LIST_VBMI;
	if (f)
		goto out;
	if (col->nruns || !run->nruns || run->nblock != col->nblock || run->orig_ptr != col->orig_ptr ||
	    memcmp(run->counts, col->counts, sizeof(col->counts))) {
		snprintf(why, cap, "runs %u against %u bytes, %u runs: the block or its counts differ", run->nblock,
			 col->nblock, run->nruns);
		f = why;
		goto out;
	}
	bz2_ibwt_table(col, tt);
	for (int masked = 0; masked < 2 && !f; masked++) {
		bz2_table_masked = masked;
		memset(tr, 0, (size_t)col->nblock * 4);
		bz2_ibwt_table(run, tr);
		bz2_table_masked = true;
		if (memcmp(tt, tr, (size_t)col->nblock * 4)) {
			snprintf(why, cap, "the T-vector from %u runs differs (%s stores)", run->nruns,
				 masked ? "masked" : "plain");
			f = why;
		}
	}
out:
	if (col)
		free(col->bwt);
	if (run) {
		free(run->bwt);
		free(run->runs);
	}
	free(col);
	free(run);
	free(tt);
	free(tr);
	free(z);
	return f;
}

/* Text, a repeated phrase, random bytes (a run a byte) and one byte over
 * and over (its column's runs pass BZ2_RUN_MAX and are split over
 * entries), in each list form and in lanes. */
TEST(bzip2_runs_give_the_column_s_block_and_table, NEEDS_LIBBZ2)
{
	static const enum textgen_kind kinds[] = {TEXTGEN_MARKOV, TEXTGEN_REPEAT, TEXTGEN_RANDOM};
	static const enum bz2_list_form forms[] = {BZ2_LIST_WORDS, BZ2_LIST_SHUFFLE, BZ2_LIST_VBMI};
	size_t n = 300000;
	uint8_t *t = malloc(n);
	char why[300];

	if (!t) {
		CHECK(0, "out of memory");
		return;
	}
	for (size_t k = 0; k < 4; k++) {
		if (k < 3)
			textgen_fill(t, n, kinds[k], 11 + (unsigned)k);
		else
			memset(t, 'x', n);
		for (size_t f = 0; f < 3; f++)
			for (int lane = 0; lane < 2; lane++) {
				const char *fail = runs_as_column(t, n, forms[f], lane, why, sizeof(why));

				CHECK(!fail, "input %zu, list %zu, lane %d: %s", k, f, lane, fail);
			}
	}
	free(t);
}

/* Each form of the split decode's MTF list that this CPU offers, the
 * portable one (two words and memmove, what AArch64 runs) on every CPU:
 * text, runs and random bytes (every index up to 255, each register of
 * the wider forms and the moves between them) as libbz2 decodes them. */
static const char *list_form_round_trips(enum bz2_list_form form, uint8_t *t, size_t n, char *why, size_t cap)
{
	static const enum textgen_kind kinds[] = {TEXTGEN_MARKOV, TEXTGEN_REPEAT, TEXTGEN_RANDOM};
	unsigned blocks = 0;
	const char *f = NULL;

	bz2_split_list_max = form;
	for (unsigned k = 0; k < 3 && !f; k++) {
		textgen_fill(t, n, kinds[k], 5 + k);
		f = round_trip(t, n, 9, &blocks, why, cap);
	}
	bz2_split_list_max = BZ2_LIST_VBMI;
	return f;
}

/* The form's round trips, or why not; NULL when they all match. */
static const char *list_form_check(enum bz2_list_form form, char *why, size_t cap)
{
	size_t n = 300000;
	uint8_t *t = malloc(n);
	const char *f;

	if (!t)
		return "out of memory";
	f = list_form_round_trips(form, t, n, why, cap);
	free(t);
	return f;
}

/* A form the CPU lacks is not taken (the decode falls back). */
static bool list_form_offered(enum bz2_list_form form)
{
	bool yes;

	bz2_split_list_max = form;
	yes = bz2_split_list_form() == form;
	bz2_split_list_max = BZ2_LIST_VBMI;
	return yes;
}

/* One form of the MTF list against libbz2; SKIPs with `missing` where this
 * CPU cannot run it (NULL: the form every CPU has, which must be taken). */
static void list_form_case(struct test_ctx *tctx, enum bz2_list_form form, const char *name, const char *missing)
{
	char why[300];
	const char *f;

	if (!list_form_offered(form)) {
		CHECK(missing, "the %s list is not taken when asked for", name);
		SKIP("%s", missing);
	}
	f = list_form_check(form, why, sizeof(why));
	CHECK(!f, "%s list: %s", name, f);
}

TEST(bzip2_list_words_matches_libbz2, NEEDS_LIBBZ2)
{
	list_form_case(tctx, BZ2_LIST_WORDS, "words", NULL);
}

TEST(bzip2_list_shuffle_matches_libbz2, NEEDS_LIBBZ2)
{
	list_form_case(tctx, BZ2_LIST_SHUFFLE, "shuffle",
		       "this CPU has no SSSE3 byte shuffle (the 16-byte list is x86-64's)");
}

TEST(bzip2_list_vbmi_matches_libbz2, NEEDS_LIBBZ2)
{
	list_form_case(tctx, BZ2_LIST_VBMI, "vbmi",
		       "this CPU has no AVX-512 VBMI byte permute (the 64-byte list is x86-64's)");
}

TEST(bzip2_concatenated_streams_match_libbz2, NEEDS_LIBBZ2)
{
	uint8_t a[5000], b[3000], *za, *zb, *both;
	size_t la, lb;
	struct sink_buf s;
	struct bz2_error e;
	struct bz2_walk_opts wo = {.lanes = 4};

	textgen_fill(a, sizeof(a), TEXTGEN_MARKOV, 3);
	textgen_fill(b, sizeof(b), TEXTGEN_RANDOM, 4);
	za = bzip2_fixture_compress(a, sizeof(a), 9, &la);
	zb = bzip2_fixture_compress(b, sizeof(b), 2, &lb);
	both = malloc(la + lb + 4);
	if (!za || !zb || !both) {
		CHECK(0, "could not compress");
		goto out;
	}
	memcpy(both, za, la);
	memcpy(both + la, zb, lb);
	CHECK(decode(both, la + lb, &wo, &s, &e) == 0 && s.n == sizeof(a) + sizeof(b) && !memcmp(s.p, a, sizeof(a)) &&
		      !memcmp(s.p + sizeof(a), b, sizeof(b)), "two streams: %s", e.what);
	free(s.p);
	memcpy(both + la + lb, "junk", 4);
	CHECK(decode(both, la + lb + 4, &wo, &s, &e) == -1 && strstr(e.what, "bad magic") && e.byte_offset == la + lb,
	      "trailing junk: %s at %llu", e.what, (unsigned long long)e.byte_offset);
	free(s.p);
out:
	free(za);
	free(zb);
	free(both);
}

/* Stage by stage on one libbz2 block: the block CRC libbz2 stored is our
 * CRC of the text; the T-vector walk, alone, gives what the run-length
 * stage expands to the text. */
TEST(bzip2_stages_alone_match_libbz2, NEEDS_LIBBZ2)
{
	size_t n = 100000, len;
	uint8_t *t = malloc(n), *z, *text = malloc(BZ2_MAX_BLOCK_BYTES), *back = malloc(n + 1);
	struct bz2_block *blk = malloc(sizeof(*blk));
	uint32_t *tt = malloc(BZ2_MAX_BLOCK_BYTES * 4);
	struct bz2_walk_scratch sc = {0};
	struct bz2_bits b;
	struct bz2_error e;

	if (!t || !text || !back || !blk || !tt) {
		CHECK(0, "out of memory");
		goto out;
	}
	textgen_fill(t, n, TEXTGEN_MARKOV, 5);
	z = bzip2_fixture_compress(t, n, 9, &len);
	CHECK(z != NULL, "compress");
	if (!z)
		goto out;
	blk->bwt = malloc(BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK);
	blk->runs = NULL;
	bz2_bits_init(&b, z, len, 32 + 48);
	CHECK(blk->bwt && bz2_block_decode(&b, 900000, blk, 0, NULL, &e) == 0, "block: %s", e.what);
	CHECK(blk->stored_crc == bz2_crc(t, n), "stored CRC 0x%08x, ours 0x%08x", blk->stored_crc, bz2_crc(t, n));
	bz2_ibwt_table(blk, tt);
	for (size_t i = 0; i < sizeof(walks) / sizeof(walks[0]); i++) {
		memset(text, 0, blk->nblock);
		CHECK(bz2_ibwt_walk(tt, blk->nblock, blk->orig_ptr, text, &walks[i], &sc, NULL) == 0, "walk %zu", i);
		CHECK(bz2_rle_size(text, blk->nblock) == n, "walk %zu: size", i);
		bz2_rle_decode(text, blk->nblock, back);
		CHECK(!memcmp(back, t, n), "walk %zu (K=%u) differs", i, walks[i].lanes);
	}
	free(blk->bwt);
	free(z);
out:
	bz2_walk_scratch_free(&sc);
	free(t);
	free(text);
	free(back);
	free(blk);
	free(tt);
}

/* A pool lent to the walk's scratch is the one its lanes write (the
 * resident decoder lends the pages past its column), left to its lender
 * when freed; one too small for the block is left untouched, and the walk
 * takes a pool of its own. */
TEST(bzip2_walk_writes_a_lent_pool_and_takes_its_own_past_it, NEEDS_LIBBZ2)
{
	const struct bz2_walk_opts wo = {.lanes = 32, .segments = 512, .layout = BZ2_LAYOUT_REGISTERS,
					 .prefetch = BZ2_PREFETCH_NEXT};
	size_t n = 100000, len = 0, big = bz2_walk_pool_bytes(BZ2_MAX_BLOCK_BYTES), small = bz2_walk_pool_bytes(8192);
	uint8_t *t = malloc(n), *z = NULL, *text = malloc(n), *back = malloc(n + 1);
	uint8_t *lent = malloc(big), *tiny = malloc(small);
	struct bz2_block blk = {.bwt = malloc(BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK)};
	uint32_t *tt = malloc(BZ2_MAX_BLOCK_BYTES * 4);
	struct bz2_walk_scratch sc = {0};
	struct bz2_bits b;
	struct bz2_error e;
	size_t written = 0, tiny_written = 0;

	if (!t || !text || !back || !lent || !tiny || !blk.bwt || !tt) {
		CHECK(0, "out of memory");
		goto out;
	}
	textgen_fill(t, n, TEXTGEN_MARKOV, 6);
	if (!(z = bzip2_fixture_compress(t, n, 9, &len))) {
		CHECK(0, "compress");
		goto out;
	}
	bz2_bits_init(&b, z, len, 32 + 48);
	if (bz2_block_decode(&b, 900000, &blk, 0, NULL, &e)) {
		CHECK(0, "block: %s", e.what);
		goto out;
	}
	bz2_ibwt_table(&blk, tt);
	memset(lent, 0xa5, big);
	bz2_walk_scratch_lend(&sc, lent, big);
	CHECK(bz2_ibwt_walk(tt, blk.nblock, blk.orig_ptr, text, &wo, &sc, NULL) == 0, "walk in the lent pool");
	for (size_t i = 0; i < big; i++)
		written += lent[i] != 0xa5;
	bz2_rle_decode(text, blk.nblock, back);
	CHECK(sc.pool == lent && sc.pool_lent && written > blk.nblock / 2 && !memcmp(back, t, n),
	      "the lent pool: %zu of its bytes written for %u rows", written, blk.nblock);
	memset(tiny, 0xa5, small);
	bz2_walk_scratch_lend(&sc, tiny, small);
	memset(text, 0, n);
	CHECK(bz2_ibwt_walk(tt, blk.nblock, blk.orig_ptr, text, &wo, &sc, NULL) == 0, "walk past a small pool");
	for (size_t i = 0; i < small; i++)
		tiny_written += tiny[i] != 0xa5;
	bz2_rle_decode(text, blk.nblock, back);
	CHECK(sc.pool != tiny && !sc.pool_lent && tiny_written == 0 && !memcmp(back, t, n),
	      "a pool too small: %zu of its bytes written", tiny_written);
out:
	/* Frees the walk's own pool, not the lent ones (a double free here). */
	bz2_walk_scratch_free(&sc);
	free(blk.bwt);
	free(z);
	free(t);
	free(text);
	free(back);
	free(lent);
	free(tiny);
	free(tt);
}

/* One decoder across inputs (the fuzz target's way): a refusal in between
 * leaves nothing behind, and a larger block after a small one, or a small
 * one after a larger, decodes as a fresh decoder does. */
TEST(bzip2_decoder_reused_across_inputs_decodes_as_fresh)
{
	struct bz2_decoder *d = bz2_decoder_new();
	struct bz2_decode_opts o = {.walk = {.lanes = 4, .layout = BZ2_LAYOUT_STATE}};
	uint8_t good[256], bad[256];
	size_t glen = make_stream(good, INTACT), blen = make_stream(bad, BAD_CRC);
	struct bz2_error e, e_fresh;
	struct sink_buf s;

	CHECK(d, "bz2_decoder_new");
	for (int round = 0; round < 2; round++) {
		memset(&s, 0, sizeof(s));
		CHECK(bz2_decode_with(d, good, glen, &o, sink_append, &s, NULL, &e) == 0 && s.n == 1 && s.p[0] == 'a',
		      "round %d: the intact stream: %s", round, e.what);
		free(s.p);
		memset(&s, 0, sizeof(s));
		CHECK(bz2_decode_with(d, bad, blen, &o, sink_append, &s, NULL, &e) == -1, "round %d: a bad CRC passed", round);
		free(s.p);
		CHECK(decode(bad, blen, &o.walk, &s, &e_fresh) == -1 && e.block == e_fresh.block &&
		      e.byte_offset == e_fresh.byte_offset && !strcmp(e.what, e_fresh.what),
		      "round %d: the refusal differs from a fresh decoder's: %s / %s", round, e.what, e_fresh.what);
		free(s.p);
	}
	if (bz2_ref_available()) {
		size_t n = 300000;
		uint8_t *t = malloc(n), *z;

		CHECK(t, "out of memory");
		for (int round = 0; t && round < 2; round++) {
			size_t zl;

			textgen_fill(t, round ? n / 7 : n, TEXTGEN_MARKOV, (uint64_t)round + 3);
			CHECK((z = bzip2_fixture_compress(t, round ? n / 7 : n, 9, &zl)), "compress");
			memset(&s, 0, sizeof(s));
			CHECK(bz2_decode_with(d, z, zl, &o, sink_append, &s, NULL, &e) == 0, "%s", e.what);
			CHECK(s.n == (round ? n / 7 : n) && !memcmp(s.p, t, s.n), "round %d: the bytes differ", round);
			free(s.p);
			free(z);
		}
		free(t);
	}
	bz2_decoder_free(d);
}

/* An output cap stops before the block that would pass it (the fuzz
 * target's guard against run-length bombs), and a cap the output fits
 * changes nothing. */
TEST(bzip2_output_cap_stops_before_the_block_that_passes_it, NEEDS_LIBBZ2)
{
	size_t n = 250000, zl;
	uint8_t *t = malloc(n), *z;
	struct bz2_decode_opts o = {.walk = {.lanes = 1}, .max_output_bytes = 150000};
	struct bz2_error e;
	struct sink_buf s;

	CHECK(t, "out of memory");
	textgen_fill(t, n, TEXTGEN_MARKOV, 5);
	CHECK((z = bzip2_fixture_compress(t, n, 1, &zl)), "compress");
	memset(&s, 0, sizeof(s));
	CHECK(bz2_decode(z, zl, &o, sink_append, &s, NULL, &e) == -EFBIG,
	      "150000-byte cap over %zu bytes in 100 kB blocks did not stop", n);
	CHECK(s.blocks == 1 && s.n <= 150000 && !memcmp(s.p, t, s.n), "%u blocks, %zu bytes before the stop", s.blocks,
	      s.n);
	free(s.p);
	memset(&s, 0, sizeof(s));
	o.max_output_bytes = n;
	CHECK(bz2_decode(z, zl, &o, sink_append, &s, NULL, &e) == 0 && s.n == n && !memcmp(s.p, t, n),
	      "a cap the output fits changed the decode");
	free(s.p);
	free(t);
	free(z);
}

/* The plain slide bz2_scan_blocks replaced: every byte, every shift. */
static size_t scan_by_sliding(const uint8_t *in, size_t len, uint64_t *bits, size_t cap)
{
	uint64_t w = 0;
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		w = (w << 8 | in[i]) & 0xffffffffffffffull;
		for (unsigned s = 0; i >= 6 && s < 8; s++)
			if (((w >> (8 - s)) & 0xffffffffffffull) == 0x314159265359ull && n < cap)
				bits[n++] = (uint64_t)(i - 6) * 8 + s;
	}
	return n;
}

/* Writes the 48-bit block magic into buf at bit offset bit (MSB first). */
static void plant_magic(uint8_t *buf, uint64_t bit)
{
	for (unsigned k = 0; k < 48; k++) {
		uint64_t at = bit + k;
		uint8_t mask = (uint8_t)(0x80u >> (at % 8));

		if ((0x314159265359ull >> (47 - k)) & 1)
			buf[at / 8] |= mask;
		else
			buf[at / 8] &= (uint8_t)~mask;
	}
}

TEST(bzip2_scan_finds_every_planted_magic_at_every_shift)
{
	enum { LEN = 1 << 16, CAP = 64 };
	uint8_t *buf = malloc(LEN);
	uint64_t want[CAP], *got;
	size_t nwant, ngot = 0;
	struct rng r;

	CHECK(buf != NULL, "out of memory");
	if (!buf)
		return;
	rng_seed(&r, 7);
	for (size_t i = 0; i < LEN; i++)
		buf[i] = (uint8_t)rng_next(&r);
	/* Every shift, the first place and the last the 7-byte window reaches
	 * (a block's magic is always followed by its CRC). */
	plant_magic(buf, 0);
	for (unsigned s = 0; s < 8; s++)
		plant_magic(buf, 8 * (1000 + 977 * s) + s);
	plant_magic(buf, (uint64_t)LEN * 8 - 56);
	nwant = scan_by_sliding(buf, LEN, want, CAP);
	CHECK(nwant >= 10, "planted 10 magics, the slide found %zu", nwant);
	for (int wide = 1; wide >= 0; wide--) {
		bool same;

		bz2_scan_wide = wide;
		got = bz2_scan_blocks(buf, LEN, &ngot);
		bz2_scan_wide = true;
		same = got && ngot == nwant && !memcmp(got, want, nwant * sizeof(*want));
		free(got);
		CHECK(same, "%s scan found %zu places, the slide %zu", wide ? "widest" : "baseline", ngot, nwant);
	}
	free(buf);
}

/* The scan tests 32 byte positions a step and the windows past the last
 * whole step one by one: a magic at every byte offset and shift, near the
 * start and at the very end of buffers of every length up to three steps,
 * and magics back to back (a window per 6 bytes), are each found once and
 * in order, as the slide finds them, by the CPU's widest form and by the
 * baseline's. */
static void scan_every_place_and_end(struct test_ctx *tctx)
{
	enum { CAP = 512 };
	uint8_t buf[256];
	uint64_t want[CAP], *got;
	size_t nwant, ngot = 0;
	struct rng r;
	bool same = true;

	rng_seed(&r, 3);
	for (size_t len = 7; len <= 3 * 32 + 8 && same; len++)
		for (uint64_t bit = 0; bit + 48 <= len * 8 && same; bit++) {
			for (size_t i = 0; i < len; i++)
				buf[i] = (uint8_t)rng_next(&r);
			plant_magic(buf, bit);
			nwant = scan_by_sliding(buf, len, want, CAP);
			got = bz2_scan_blocks(buf, len, &ngot);
			same = got && ngot == nwant && !memcmp(got, want, nwant * sizeof(*want));
			CHECK(same, "length %zu, magic at bit %llu: scan %zu places, slide %zu", len,
			      (unsigned long long)bit, got ? ngot : 0, nwant);
			free(got);
		}
	for (size_t i = 0; i + 6 <= sizeof(buf); i += 6)
		plant_magic(buf, 8 * i);
	nwant = scan_by_sliding(buf, sizeof(buf), want, CAP);
	got = bz2_scan_blocks(buf, sizeof(buf), &ngot);
	CHECK(nwant >= 40 && got && ngot == nwant && !memcmp(got, want, nwant * sizeof(*want)),
	      "back to back: scan %zu places, slide %zu", got ? ngot : 0, nwant);
	free(got);
}

TEST(bzip2_scan_finds_magics_at_every_offset_and_buffer_end)
{
	scan_every_place_and_end(tctx);
	bz2_scan_wide = false;
	scan_every_place_and_end(tctx);
	bz2_scan_wide = true;
}

/* Overlapped decodes fail as blocks in turn do: a corrupt or cut stream of
 * several blocks gives the same return, block, byte and reason, and the
 * same bytes reach the sink before it (the previous block ends first). */
TEST(bzip2_overlap_refuses_as_in_turn, NEEDS_LIBBZ2)
{
	size_t n = 250000, zl = 0;
	uint8_t *t = malloc(n), *z = NULL, *bad = NULL;

	if (!t) {
		CHECK(0, "out of memory");
		return;
	}
	textgen_fill(t, n, TEXTGEN_MARKOV, 11);
	z = bzip2_fixture_compress(t, n, 1, &zl);
	bad = z ? malloc(zl) : NULL;
	CHECK(z && bad, "compress");
	for (size_t at = 0; bad && at < zl + 1600; at += 1499) {
		/* Flip a bit at `at`, or (past the end) cut the stream short. */
		size_t len = at < zl ? zl : zl - (at - zl) - 1;
		struct bz2_decode_opts turn = {.walk = {.lanes = 8, .prefetch = BZ2_PREFETCH_NEXT}};
		struct sink_buf s0 = {0};
		struct bz2_error e0;
		int rc0;

		memcpy(bad, z, zl);
		if (at < zl)
			bad[at] ^= (uint8_t)(1u << (at % 8));
		rc0 = bz2_decode(bad, len, &turn, sink_append, &s0, NULL, &e0);
		for (size_t i = 0; i < sizeof(overlaps) / sizeof(overlaps[0]); i++) {
			struct bz2_decode_opts o = overlaps[i];
			struct sink_buf s = {0};
			struct bz2_error e;
			int rc = bz2_decode(bad, len, &o, sink_append, &s, NULL, &e);

			CHECK(rc == rc0 && s.n == s0.n && (!s.n || !memcmp(s.p, s0.p, s.n)),
			      "at %zu, overlap %zu: rc %d against %d, %zu bytes against %zu", at, i, rc, rc0, s.n, s0.n);
			CHECK(!rc0 || (e.block == e0.block && e.byte_offset == e0.byte_offset && !strcmp(e.what, e0.what)),
			      "at %zu, overlap %zu: block %u byte %llu %s, in turn block %u byte %llu %s", at, i, e.block,
			      (unsigned long long)e.byte_offset, e.what, e0.block, (unsigned long long)e0.byte_offset, e0.what);
			free(s.p);
		}
		free(s0.p);
	}
	free(bad);
	free(z);
	free(t);
}

/* The CRC in three streams combined in GF(2), or folded by carry-less
 * multiplies where the CPU has them, equals slicing by 4 in one stream:
 * around the lengths where the streams and the folding start, at odd
 * tails, and from a register left by earlier bytes. */
TEST(bzip2_crc_streams_equal_one_stream)
{
	static const size_t lens[] = {0,     1,     7,     8,     15,    16,    63,     64,    65,
				      79,    80,    127,   128,   129,   191,   200,    12287, 12288,
				      12289, 12295, 12296, 100003, 900000};
	/* Case i starts i bytes in: room for the last. */
	const size_t cases = sizeof(lens) / sizeof(lens[0]), bytes = 900000 + cases;
	uint8_t *p = malloc(bytes);
	struct rng r;

	if (!p) {
		CHECK(0, "out of memory");
		return;
	}
	rng_seed(&r, 5);
	for (size_t i = 0; i < bytes; i++)
		p[i] = (uint8_t)rng_below(&r, 256);
	for (size_t i = 0; i < cases; i++)
		CHECK(bz2_crc(p + i, lens[i]) == bz2_crc4(p + i, lens[i]), "%zu bytes: 0x%08x against 0x%08x", lens[i],
		      bz2_crc(p + i, lens[i]), bz2_crc4(p + i, lens[i]));
	for (size_t split = 0; split <= 130; split += 13) {
		uint32_t whole = bz2_crc4(p, 4096), c = bz2_crc_more(bz2_crc_more(0, p, split), p + split, 4096 - split);

		CHECK(c == whole, "4096 bytes split at %zu: 0x%08x against 0x%08x", split, c, whole);
	}
	free(p);
}

/* A periodic block (its rows form short cycles) is walked again with one
 * lane, and the count of such blocks reaches the caller without timing
 * (the app's check decode reads it from there), in turn and overlapped. */
TEST(bzip2_single_lane_fallbacks_are_counted_untimed, NEEDS_LIBBZ2)
{
	size_t n = 200000, zl = 0;
	uint8_t *t = malloc(n), *z;

	if (!t) {
		CHECK(0, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++)
		t[i] = "ab"[i % 2];
	z = bzip2_fixture_compress(t, n, 9, &zl);
	CHECK(z != NULL, "compress");
	for (int ov = BZ2_OVERLAP_OFF; z && ov <= BZ2_OVERLAP_SCOUT; ov++) {
		struct bz2_decode_opts o = {.walk = {.lanes = 8}, .overlap = (enum bz2_overlap)ov, .scout_cpu = -1};
		struct bz2_walk_ticks wt = {0};
		struct sink_buf s = {0};
		struct bz2_error e;

		CHECK(bz2_decode(z, zl, &o, sink_append, &s, &wt, &e) == 0 && s.n == n && !memcmp(s.p, t, n),
		      "overlap %d: %s", ov, e.what);
		CHECK(wt.fallbacks == 1, "overlap %d: %u fallbacks counted, 1 expected", ov, wt.fallbacks);
		free(s.p);
	}
	free(z);
	free(t);
}

/* The scout's second T-vector slot lies in an arena of the first's page
 * request (not malloc), made before any decode, and a scout decode through
 * the two slots still gives the input back; a malloc'd decoder has none. */
TEST(bzip2_scout_second_slot_in_the_requested_arena, NEEDS_LIBBZ2)
{
	size_t n = 250000, zl = 0;
	uint8_t *t = malloc(n), *z;
	struct bz2_decoder *plain = bz2_decoder_new();

	CHECK(plain && !bz2_decoder_scout_ready(plain) && !app_bz2_table(plain, 1), "malloc'd decoder: an arena");
	bz2_decoder_free(plain);
	if (!t) {
		CHECK(0, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++)
		t[i] = (uint8_t)('a' + (i * 7 + i / 13) % 23);
	z = bzip2_fixture_compress(t, n, 1, &zl); /* 100 kB blocks: three, so both slots carry one */
	CHECK(z != NULL, "compress");
	for (int req = PAGES_SMALL; z && req <= PAGES_HUGE; req++) {
		struct bz2_decoder *d = app_bz2_decoder_new_pages((enum page_request)req);
		struct bz2_decode_opts o = {.walk = {.lanes = 8}, .overlap = BZ2_OVERLAP_SCOUT, .scout_cpu = -1};
		const struct arena *a, *b;
		struct sink_buf s = {0};
		struct bz2_error e;

		if (!d) {
			CHECK(0, "pages %d: decoder", req);
			continue;
		}
		CHECK(!app_bz2_table(d, 1), "pages %d: second slot before it was asked for", req);
		CHECK(bz2_decoder_scout_ready(d) == 0, "pages %d: second slot not made", req);
		a = app_bz2_table(d, 0);
		b = app_bz2_table(d, 1);
		CHECK(a && b && b->requested == (enum page_request)req && b->bytes == a->bytes && b->base != a->base,
		      "pages %d: second slot not an arena of the first's kind", req);
		CHECK(bz2_decode_with(d, z, zl, &o, sink_append, &s, NULL, &e) == 0 && s.n == n && !memcmp(s.p, t, n),
		      "pages %d: scout decode: %s", req, e.what);
		free(s.p);
		bz2_decoder_free(d);
	}
	free(z);
	free(t);
}
