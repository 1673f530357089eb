/*
 * The decoding library (src/bzip2/bunzip2.h) against libbz2 and the
 * format: text, binary, empty, many-block and concatenated streams decode
 * to the bytes libbz2 compressed, with one thread and several, with the
 * input read in chunks small enough that magics straddle them; a block
 * magic planted inside a block (in its selectors, which any 3-table block
 * may spell) is skipped; hostile inputs (every truncation, bit flips) are
 * refused exactly where libbz2 refuses, naming block and byte, with only
 * whole blocks written before; trailing garbage as bzip2 treats it; the
 * limits; and mlpbunzip2's argument parser. No test here runs the binary
 * (test_bunzip2_cli.c does).
 */
#include "../harness.h"
#include "bzip2_fixture.h"
#include "../bitw.h"
#include "../grow_buf.h"

#include "bunzip2/args.h"
#include "bzip2/bunzip2.h"
#include "bzip2/bz2.h"
#include "bzip2/libbz2_ref.h"
#include "util/rng.h"
#include "exp/app/textgen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sink {
	uint8_t *p;
	size_t n, cap;
	unsigned calls;
	int stop_after;          /* >0: fail the call after this many with -ENOSPC */
};

static int sink_write(void *ctx, const uint8_t *buf, size_t len)
{
	struct sink *s = ctx;

	if (s->stop_after && (int)s->calls >= s->stop_after)
		return -ENOSPC;
	s->calls++;
	return grow_buf_append(&s->p, &s->n, &s->cap, buf, len);
}

static int ref_write(void *ctx, const uint8_t *p, size_t n)
{
	return sink_write(ctx, p, n);
}

static int decode(const uint8_t *z, size_t len, unsigned threads, size_t chunk, struct sink *s,
		  struct bunzip2_summary *sum, struct bunzip2_error *e)
{
	struct bunzip2_opts o = {.threads = threads, .chunk_bytes = chunk};

	memset(s, 0, sizeof(*s));
	return bunzip2_decode_memory(z, len, sink_write, s, &o, sum, e);
}

static const struct {
	unsigned threads;
	size_t chunk;
} runs[] = {{1, 0}, {2, 0}, {1, 4093}, {2, 4093}, {3, 65536}, {4, 777}};

/* Every run decodes z to want[0..n); NULL, or why not. */
static const char *all_runs(const uint8_t *z, size_t len, const uint8_t *want, size_t n, unsigned *blocks, char *why,
			    size_t whylen)
{
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s;
		int rc = decode(z, len, runs[i].threads, runs[i].chunk, &s, &sum, &e);

		if (rc || s.n != n || (n && memcmp(s.p, want, n)) || sum.out_bytes != n || sum.in_bytes != len) {
			snprintf(why, whylen, "-n %u, chunks of %zu: rc %d, %zu of %zu bytes, block %u byte %llu: %s",
				 runs[i].threads, runs[i].chunk, rc, s.n, n, e.block, (unsigned long long)e.byte_offset,
				 e.what);
			free(s.p);
			return why;
		}
		*blocks = sum.blocks;
		free(s.p);
	}
	return NULL;
}

static const char *round_trip(const uint8_t *t, size_t n, int level, unsigned *blocks, char *why, size_t whylen)
{
	size_t len = 0;
	uint8_t *z = bzip2_fixture_compress(t, n, level, &len);
	const char *f;

	if (!z)
		return "libbz2 could not compress";
	f = all_runs(z, len, t, n, blocks, why, whylen);
	free(z);
	return f;
}

TEST(bunzip2_text_binary_and_empty_inputs_match_libbz2, NEEDS_LIBBZ2)
{
	size_t n = 2500000;
	uint8_t *t = malloc(n);
	char why[300];
	unsigned blocks = 0;
	const char *f;
	struct rng r;

	CHECK(t, "out of memory");
	t[0] = 'q';
	CHECK(!(f = round_trip(t, 0, 9, &blocks, why, sizeof(why))) && blocks == 0, "empty: %s", f ? f : "blocks");
	CHECK(!(f = round_trip(t, 1, 9, &blocks, why, sizeof(why))) && blocks == 1, "one byte: %s", f ? f : "blocks");
	textgen_fill(t, n, TEXTGEN_MARKOV, 11);
	CHECK(!(f = round_trip(t, n, 9, &blocks, why, sizeof(why))) && blocks == 3, "text: %s (%u blocks)",
	      f ? f : "", blocks);
	/* Binary: short runs of random bytes and of zeros, as in object files. */
	rng_seed(&r, 5);
	for (size_t i = 0; i < n;) {
		size_t run = 1 + rng_below(&r, 64);
		bool zero = rng_below(&r, 3) == 0;

		for (; run-- && i < n; i++)
			t[i] = zero ? 0 : (uint8_t)rng_next(&r);
	}
	CHECK(!(f = round_trip(t, n, 9, &blocks, why, sizeof(why))), "binary: %s", f);
	CHECK(!(f = round_trip(t, n, 1, &blocks, why, sizeof(why))) && blocks >= 10, "many blocks: %s (%u blocks)",
	      f ? f : "", blocks);
	/* A long run: a few bytes of input, 46 MB a block of output. */
	free(t);
	n = 50u << 20;
	CHECK((t = calloc(1, n)), "out of memory");
	CHECK(!(f = round_trip(t, n, 9, &blocks, why, sizeof(why))) && blocks == 2, "zeros: %s (%u blocks)",
	      f ? f : "", blocks);
	free(t);
}

TEST(bunzip2_concatenated_streams_decode_in_turn, NEEDS_LIBBZ2)
{
	uint8_t a[300000], b[5000], *za, *zb, *ze, *all;
	size_t la, lb, le, total;
	char why[300];
	unsigned blocks = 0;
	const char *f;

	textgen_fill(a, sizeof(a), TEXTGEN_MARKOV, 1);
	textgen_fill(b, sizeof(b), TEXTGEN_RANDOM, 2);
	za = bzip2_fixture_compress(a, sizeof(a), 1, &la);
	zb = bzip2_fixture_compress(b, sizeof(b), 9, &lb);
	ze = bzip2_fixture_compress(b, 0, 9, &le);
	CHECK(za && zb && ze, "libbz2 could not compress");
	/* a, empty, b, a: their outputs in turn. */
	total = la + le + lb + la;
	CHECK((all = malloc(total)), "out of memory");
	memcpy(all, za, la);
	memcpy(all + la, ze, le);
	memcpy(all + la + le, zb, lb);
	memcpy(all + la + le + lb, za, la);
	{
		uint8_t *want = malloc(2 * sizeof(a) + sizeof(b));

		CHECK(want, "out of memory");
		memcpy(want, a, sizeof(a));
		memcpy(want + sizeof(a), b, sizeof(b));
		memcpy(want + sizeof(a) + sizeof(b), a, sizeof(a));
		f = all_runs(all, total, want, 2 * sizeof(a) + sizeof(b), &blocks, why, sizeof(why));
		CHECK(!f, "a, empty, b, a: %s", f);
		CHECK(blocks >= 7, "%u blocks (a is at least 3)", blocks);
		free(want);
	}
	free(all);
	free(za);
	free(zb);
	free(ze);
}

/* Trailing bytes as bzip2 1.0.8 takes them: after a stream, bytes that
 * cannot start one are ignored (a warning, success); a cut-off "BZh" is a
 * truncation; before any stream, anything else is no bzip2 file. */
TEST(bunzip2_trailing_garbage_as_bzip2, NEEDS_LIBBZ2)
{
	static const struct {
		const char *tail;
		int rc;
		bool garbage;
	} cases[] = {
		{"", BUNZIP2_OK, false},      {"xyz", BUNZIP2_OK, true},      {"BZh0", BUNZIP2_OK, true},
		{"BZx", BUNZIP2_OK, true},    {"B", BUNZIP2_CORRUPT, false},  {"BZh", BUNZIP2_CORRUPT, false},
		{"BZh9", BUNZIP2_CORRUPT, false}, {"BZh91AY&SYjunk", BUNZIP2_CORRUPT, false},
	};
	uint8_t t[1000], buf[4096], *z;
	size_t len;

	textgen_fill(t, sizeof(t), TEXTGEN_MARKOV, 3);
	CHECK((z = bzip2_fixture_compress(t, sizeof(t), 9, &len)) && len + 32 < sizeof(buf), "libbz2");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (unsigned threads = 1; threads <= 2; threads++) {
			size_t tl = strlen(cases[i].tail);
			struct bunzip2_summary sum;
			struct bunzip2_error e;
			struct sink s;
			int rc;

			memcpy(buf, z, len);
			memcpy(buf + len, cases[i].tail, tl);
			rc = decode(buf, len + tl, threads, 0, &s, &sum, &e);
			CHECK(rc == cases[i].rc && s.n == sizeof(t) && !memcmp(s.p, t, sizeof(t)),
			      "'%s' -n %u: rc %d, %zu bytes: %s", cases[i].tail, threads, rc, s.n, e.what);
			CHECK(rc || (sum.garbage_bytes > 0) == cases[i].garbage, "'%s': garbage %llu", cases[i].tail,
			      (unsigned long long)sum.garbage_bytes);
			CHECK(!rc || (e.stream == 2 && e.byte_offset >= len), "'%s': stream %u byte %llu", cases[i].tail,
			      e.stream, (unsigned long long)e.byte_offset);
			free(s.p);
		}
	for (unsigned threads = 1; threads <= 2; threads++) {
		struct bunzip2_error e;
		struct sink s;

		CHECK(decode((const uint8_t *)"", 0, threads, 0, &s, NULL, &e) == BUNZIP2_CORRUPT &&
			      strstr(e.what, "truncated"), "empty input: %s", e.what);
		CHECK(decode((const uint8_t *)"PK\3\4", 4, threads, 0, &s, NULL, &e) == BUNZIP2_CORRUPT &&
			      strstr(e.what, "not a bzip2 stream") && e.byte_offset == 0, "zip: %s", e.what);
	}
	free(z);
}

/* ---- a block magic planted inside a block ---- */
/* The one-block stream of "a" with three tables and, after the selector
 * its symbols use, selectors whose unary codes ("0", "10", "110") spell
 * the block magic: a scan finds it inside the block. *planted: its bit. */
static size_t stream_with_planted_magic(uint8_t *out, uint64_t *planted)
{
	const uint64_t magic = 0x314159265359ull;
	uint32_t crc = bz2_crc((const uint8_t *)"a", 1);
	unsigned sel[64], nsel = 0, ones = 0;
	struct bitw w;

	/* Bits of the magic then a 0, cut into runs of ones each ended by a
	 * zero: each run's length is one selector (at most 2 here). */
	for (int i = 48; i >= 0; i--) {
		unsigned bit = i ? (unsigned)(magic >> (i - 1)) & 1 : 0;

		if (bit) {
			ones++;
		} else {
			sel[nsel++] = ones;
			ones = 0;
		}
	}
	memset(&w, 0, sizeof(w));
	bitw_put(&w, 32, 0x425a6839);                /* BZh9 */
	bitw_put(&w, 48, magic);
	bitw_put(&w, 32, crc);
	bitw_put(&w, 1, 0);
	bitw_put(&w, 24, 0);
	bitw_put(&w, 16, 0x8000 >> 6);               /* 'a' = 0x61 */
	bitw_put(&w, 16, 0x8000 >> 1);
	bitw_put(&w, 3, 3);                          /* three tables */
	bitw_put(&w, 15, 1 + nsel);
	bitw_put(&w, 1, 0);                          /* the first group's: table 0 */
	*planted = w.bits;
	for (unsigned i = 0; i < nsel; i++) {
		bitw_put(&w, sel[i], (1u << sel[i]) - 1);
		bitw_put(&w, 1, 0);
	}
	for (int t = 0; t < 3; t++) {
		bitw_put(&w, 5, 1);                  /* RUNA 1, RUNB 2, EOB 2 */
		bitw_put(&w, 1, 0);
		bitw_put(&w, 3, 4);
		bitw_put(&w, 1, 0);
	}
	bitw_put(&w, 1, 0);                          /* RUNA: one 'a' */
	bitw_put(&w, 2, 3);                          /* EOB */
	bitw_put(&w, 48, 0x177245385090ull);
	bitw_put(&w, 32, crc);
	memcpy(out, w.buf, (w.bits + 7) / 8);
	return (w.bits + 7) / 8;
}

/* A resident decoder lends the rest of its last huge page, where a worker
 * copies a block's input: a block decoded with the spare bytes full of a
 * pattern leaves the pattern whole, the other decoders lend none, and a
 * block too long for them (random bytes compress to about 904 kB a block
 * of 900 kB) is decoded by workers from their own buffer. */
TEST(bunzip2_a_decoders_spare_bytes_stay_untouched, NEEDS_LIBBZ2)
{
	static const struct bz2_walk_opts w = {.lanes = 32, .layout = BZ2_LAYOUT_REGISTERS, .by_rows = true};
	struct bz2_decoder *d = bz2_decoder_new_resident(), *plain = bz2_decoder_new();
	size_t n = 1900000, len = 0, spare = 1, count = 0, longest = 0;
	uint8_t *t = malloc(n), *z = NULL, *sp = NULL;
	struct bz2_block_result r;
	struct bz2_error e;
	unsigned blocks = 0;
	uint64_t *bits = NULL;
	char why[300];
	const char *f;
	struct rng g;

	CHECK(d && plain && t, "out of memory");
	if (!d || !plain || !t)
		goto out;
	CHECK(!bz2_decoder_spare_bytes(plain, &spare) && spare == 0, "a malloc'd decoder lends %zu spare bytes", spare);
	sp = bz2_decoder_spare_bytes(d, &spare);
	CHECK(sp && spare >= (size_t)512 << 10, "a resident decoder lends %zu spare bytes", spare);
	rng_seed(&g, 9);
	for (size_t i = 0; i < n; i++)
		t[i] = (uint8_t)rng_next(&g);
	CHECK((z = bzip2_fixture_compress(t, n, 9, &len)), "libbz2 could not compress");
	if (!sp || !z)
		goto out;
	memset(sp, 0xa5, spare);
	CHECK(!bz2_decode_block_at(d, z, len, 32, 1, &w, 0, &r, &e) && r.bytes > 800000 && !memcmp(r.out, t, r.bytes),
	      "the first block: %s", e.what);
	for (size_t i = 0; i < spare; i++)
		if (sp[i] != 0xa5) {
			CHECK(0, "the decode wrote spare byte %zu of %zu", i, spare);
			break;
		}
	bits = bz2_scan_blocks(z, len, &count);
	for (size_t i = 0; bits && i + 1 < count; i++)
		if ((bits[i + 1] - bits[i]) / 8 > longest)
			longest = (bits[i + 1] - bits[i]) / 8;
	CHECK(longest > spare, "the longest block is %zu bytes, within the %zu spare ones", longest, spare);
	f = all_runs(z, len, t, n, &blocks, why, sizeof(why));
	CHECK(!f && blocks == 3, "%s", f ? f : "blocks");
out:
	free(bits);
	free(z);
	free(t);
	bz2_decoder_free(plain);
	bz2_decoder_free(d);
}

/* A reader that gives at most 1000 bytes a call, as a pipe may. */
struct trickle {
	const uint8_t *p;
	size_t left;
};

static long trickle_read(void *ctx, uint8_t *buf, size_t cap)
{
	struct trickle *t = ctx;
	size_t n = t->left < cap ? t->left : cap;

	n = n < 1000 ? n : 1000;
	memcpy(buf, t->p, n);
	t->p += n;
	t->left -= n;
	return (long)n;
}

/* Workers only where there are blocks for them: an input that ends within
 * the first chunk starts as many workers as blocks it holds, and one of a
 * single block (or none) is decoded on the caller's thread, as -n1 would;
 * one that goes on past the first chunk starts every worker asked for. The
 * first chunk is read whole whatever a read returns (a pipe's short reads
 * do not end the input). The output is libbz2's each time. */
TEST(bunzip2_starts_no_more_workers_than_an_ended_input_has_blocks, NEEDS_LIBBZ2)
{
	static const uint8_t empty[] = {'B', 'Z', 'h', '9', 0x17, 0x72, 0x45, 0x38, 0x50, 0x90, 0, 0, 0, 0};
	size_t n = 250000, one_len = 0, three_len = 0;
	uint8_t *t = malloc(n), *one = NULL, *three = NULL;
	struct {
		const char *what;
		unsigned threads;
		size_t chunk, out;
		bool trickle;
		unsigned want_threads, want_here;
	} cases[] = {
		{"one block, -n4", 4, 0, 50000, false, 1, 1},
		{"one block in 1000-byte reads, -n2", 2, 0, 50000, true, 1, 1},
		{"three blocks, -n8", 8, 0, 250000, false, 3, 0},
		{"three blocks, -n2", 2, 0, 250000, false, 2, 0},
		{"three blocks past a 4093-byte first chunk, -n8", 8, 4093, 250000, false, 8, 0},
		{"no block, -n2", 2, 0, 0, false, 1, 0},
	};

	CHECK(t, "out of memory");
	if (!t)
		return;
	textgen_fill(t, n, TEXTGEN_MARKOV, 11);
	one = bzip2_fixture_compress(t, 50000, 9, &one_len);
	three = bzip2_fixture_compress(t, n, 1, &three_len);
	CHECK(one && three && three_len < ((size_t)256 << 10), "libbz2: %zu and %zu bytes", one_len, three_len);
	for (size_t i = 0; one && three && i < sizeof(cases) / sizeof(cases[0]); i++) {
		const uint8_t *z = cases[i].out == 50000 ? one : cases[i].out ? three : empty;
		size_t len = cases[i].out == 50000 ? one_len : cases[i].out ? three_len : sizeof(empty);
		struct bunzip2_opts o = {.threads = cases[i].threads, .chunk_bytes = cases[i].chunk};
		struct trickle tr = {z, len};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc = cases[i].trickle ? bunzip2_decode(trickle_read, &tr, sink_write, &s, &o, &sum, &e)
					  : bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);

		CHECK(!rc && s.n == cases[i].out && (!s.n || !memcmp(s.p, t, s.n)), "%s: rc %d, %zu of %zu bytes: %s",
		      cases[i].what, rc, s.n, cases[i].out, e.what);
		CHECK(!rc && sum.threads == cases[i].want_threads && sum.thread_ns[0].blocks == cases[i].want_here,
		      "%s: %u thread(s), %u block(s) on the caller's; want %u and %u", cases[i].what, sum.threads,
		      sum.thread_ns[0].blocks, cases[i].want_threads, cases[i].want_here);
		free(s.p);
	}
	free(one);
	free(three);
	free(t);
}

/* A kept decoder and window serve the next decode on the caller's thread
 * (it makes no decoder: no warm-up), a pooled decode too (for its
 * retries), and the workers' decoders the next pooled decode's workers;
 * a decode that fails leaves the keep empty, so the next one makes its
 * own; the bytes are libbz2's every time. */
TEST(bunzip2_a_kept_decoder_serves_the_next_decode_and_a_failure_empties_it, NEEDS_LIBBZ2)
{
	size_t n = 250000, one_len = 0, three_len = 0;
	uint8_t *t = malloc(n), *one = NULL, *three = NULL, *bad = NULL;
	struct bunzip2_keep *keep = bunzip2_keep_new();
	bool had[2] = {false, false};  /* each worker had a decoder when the last decode ended */
	struct {
		const char *what;
		int input;             /* 0: one block, 1: corrupt, 2: three blocks */
		unsigned threads;
		size_t chunk;
		int rc;
		bool warms;            /* on the caller's thread: it makes its decoder */
	} steps[] = {
		{"the first", 0, 1, 0, 0, true},
		{"the second", 0, 1, 0, 0, false},
		{"a corrupt one", 1, 1, 0, BUNZIP2_CORRUPT, false},
		{"the one after it", 0, 1, 0, 0, true},
		{"three blocks by two workers", 2, 2, 4093, 0, true},
		{"three blocks by two workers again", 2, 2, 4093, 0, false},
		{"one block at -n2 after them", 0, 2, 0, 0, false},
		{"three blocks by two workers after it", 2, 2, 4093, 0, false},
		{"a corrupt one at -n2", 1, 2, 509, BUNZIP2_CORRUPT, false},
		{"three blocks by two workers after that", 2, 2, 4093, 0, true},
	};

	CHECK(t && keep, "out of memory");
	if (!t || !keep)
		goto out;
	textgen_fill(t, n, TEXTGEN_MARKOV, 12);
	one = bzip2_fixture_compress(t, 50000, 9, &one_len);
	three = bzip2_fixture_compress(t, n, 1, &three_len);
	CHECK(one && three && (bad = malloc(one_len)), "libbz2");
	if (!one || !three || !bad)
		goto out;
	memcpy(bad, one, one_len);
	bad[one_len / 2] ^= 0x10;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		const uint8_t *z = steps[i].input == 0 ? one : steps[i].input == 1 ? bad : three;
		size_t len = steps[i].input == 2 ? three_len : one_len, want = steps[i].input == 2 ? n : 50000;
		struct bunzip2_opts o = {.threads = steps[i].threads, .chunk_bytes = steps[i].chunk, .keep = keep};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc = bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);

		CHECK(rc == steps[i].rc && (rc || (s.n == want && !memcmp(s.p, t, want))),
		      "%s: rc %d (expected %d), %zu of %zu bytes: %s", steps[i].what, rc, steps[i].rc, s.n, want, e.what);
		if (!rc && sum.threads == 1)
			CHECK((sum.thread_ns[0].warm_ns > 0) == steps[i].warms, "%s: warm-up %.3f ms, %s", steps[i].what,
			      sum.thread_ns[0].warm_ns / 1e6, steps[i].warms ? "expected a decoder made" : "expected the kept one");
		/* Which worker takes part depends on the scheduling (one that
		 * never ran before the blocks ran out never warms up), so each is
		 * judged by its own history: one that had a decoder when the last
		 * decode ended makes none (no warm-up); one that had none and
		 * decodes a block made it (a warm-up). */
		for (unsigned w = 0; !rc && sum.threads > 1 && w < sum.threads && w < 2; w++) {
			const struct bunzip2_thread_ns *ns = &sum.thread_ns[w + 1];

			CHECK(had[w] ? ns->warm_ns == 0 : !ns->blocks || ns->warm_ns > 0,
			      "%s: worker %u's warm-up %.3f ms over %u block(s), %s", steps[i].what, w, ns->warm_ns / 1e6,
			      ns->blocks, had[w] ? "expected the kept decoder" : "expected a decoder made");
			had[w] = had[w] || ns->blocks || ns->warm_ns;
		}
		if (rc)
			had[0] = had[1] = false;
		free(s.p);
	}
out:
	bunzip2_keep_free(keep);
	bunzip2_keep_free(NULL);
	free(bad);
	free(one);
	free(three);
	free(t);
}

TEST(bunzip2_skips_a_block_magic_inside_a_block)
{
	uint8_t in[512];
	uint64_t planted = 0, *bits;
	size_t len = stream_with_planted_magic(in, &planted), count = 0;
	char why[300];
	unsigned blocks = 0;
	const char *f;

	bits = bz2_scan_blocks(in, len, &count);
	CHECK(bits && count == 2 && bits[0] == 32 && bits[1] == planted, "the scan found %zu magics, not the planted one",
	      count);
	free(bits);
	f = all_runs(in, len, (const uint8_t *)"a", 1, &blocks, why, sizeof(why));
	CHECK(!f && blocks == 1, "%s", f ? f : "blocks");
	if (bz2_ref_available()) {
		struct sink ref = {0};
		uint8_t back[64];

		CHECK(bz2_ref_decode(in, len, ref_write, &ref, back, sizeof(back), why, sizeof(why)) == 0 && ref.n == 1,
		      "libbz2 refuses the planted stream: %s", why);
		free(ref.p);
	}
}

/* ---- a block longer than its first look ---- */
/* The one-block stream of "a", its first table's first code length
 * padded by `pairs` "+1, -1" steps (4 bits each: libbz2 reads such a run
 * to its end), so the block is longer than the input a decoder is first
 * given. calloc'd, *len its bytes; NULL when memory ran out. */
static uint8_t *stream_with_padded_table(size_t pairs, size_t *len)
{
	uint32_t crc = bz2_crc((const uint8_t *)"a", 1);
	uint8_t *z = calloc(pairs / 2 + 64, 1);
	size_t bits = 0;

	if (!z)
		return NULL;
	bits_put(z, &bits, 32, 0x425a6839);          /* BZh9 */
	bits_put(z, &bits, 48, 0x314159265359ull);
	bits_put(z, &bits, 32, crc);
	bits_put(z, &bits, 1, 0);
	bits_put(z, &bits, 24, 0);
	bits_put(z, &bits, 16, 0x8000 >> 6);         /* 'a' = 0x61 */
	bits_put(z, &bits, 16, 0x8000 >> 1);
	bits_put(z, &bits, 3, 2);                    /* two tables */
	bits_put(z, &bits, 15, 1);                   /* one selector: table 0 */
	bits_put(z, &bits, 1, 0);
	for (int t = 0; t < 2; t++) {
		bits_put(z, &bits, 5, 1);            /* RUNA 1, RUNB 2, EOB 2 */
		for (size_t i = 0; t == 0 && i < pairs; i++)
			bits_put(z, &bits, 4, 0xb);  /* "10" +1, "11" -1 */
		bits_put(z, &bits, 1, 0);
		bits_put(z, &bits, 3, 4);
		bits_put(z, &bits, 1, 0);
	}
	bits_put(z, &bits, 1, 0);                    /* RUNA: one 'a' */
	bits_put(z, &bits, 2, 3);                    /* EOB */
	bits_put(z, &bits, 48, 0x177245385090ull);
	bits_put(z, &bits, 32, crc);
	*len = (bits + 7) / 8;
	return z;
}

/* A block of 1.5 MB (past the first look of every thread count: one
 * thread decodes it again with more input, a worker's slice is cut short
 * and the reading thread decodes it again) gives what libbz2 gives. */
TEST(bunzip2_a_block_longer_than_its_first_look_as_libbz2)
{
	size_t len = 0;
	uint8_t *z = stream_with_padded_table(3000000, &len);
	unsigned blocks = 0;
	char why[300];
	const char *f;

	if (!z) {
		CHECK(0, "out of memory");
		return;
	}
	CHECK(len > 1400000, "the stream is %zu bytes, not past the first look", len);
	f = all_runs(z, len, (const uint8_t *)"a", 1, &blocks, why, sizeof(why));
	CHECK(!f && blocks == 1, "%s", f ? f : "blocks");
	if (bz2_ref_available()) {
		struct sink ref = {0};
		uint8_t back[64];

		CHECK(bz2_ref_decode(z, len, ref_write, &ref, back, sizeof(back), why, sizeof(why)) == 0 && ref.n == 1 &&
			      ref.p[0] == 'a', "libbz2 refuses the padded stream: %s", why);
		free(ref.p);
	}
	free(z);
}

/* Each block magic of a many-block stream split by a read at each of the
 * 6 places inside its 7-byte window, at two threads and three: the read
 * that completes the window finds it (the scan goes back 6 bytes), so the
 * workers decode every block (a missed magic would leave its block to the
 * reading thread, whose output is as good), and the output is libbz2's. */
TEST(bunzip2_finds_a_magic_split_by_a_read_at_every_byte, NEEDS_LIBBZ2)
{
	size_t n = 450000, len = 0, count = 0;
	uint8_t *t = malloc(n), *z = NULL;
	uint64_t *bits = NULL;
	const char *bad = NULL;

	CHECK(t, "out of memory");
	if (!t)
		return;
	textgen_fill(t, n, TEXTGEN_MARKOV, 5);
	z = bzip2_fixture_compress(t, n, 1, &len);
	CHECK(z && (bits = bz2_scan_blocks(z, len, &count)) && count >= 4, "%zu magics (level 1: 5 blocks)", count);
	for (size_t i = 1; i < count && !bad; i++)
		for (size_t k = 1; k <= 6 && !bad; k++)
			for (unsigned threads = 2; threads <= 3 && !bad; threads++) {
				struct bunzip2_summary sum;
				struct bunzip2_error e;
				struct sink s;
				size_t chunk = (size_t)(bits[i] / 8) + k;
				int rc = decode(z, len, threads, chunk, &s, &sum, &e);

				if (rc || s.n != n || memcmp(s.p, t, n) || sum.blocks != count || sum.thread_ns[0].blocks)
					bad = "differs";
				CHECK(!bad,
				      "magic %zu split after its byte %zu, -n %u: rc %d, %zu of %zu bytes, %u blocks (%u by the "
				      "reading thread): %s",
				      i, k, threads, rc, s.n, n, sum.blocks, sum.thread_ns[0].blocks, e.what);
				free(s.p);
			}
	free(bits);
	free(z);
	free(t);
}

/* ---- hostile input ---- */

/* z cut or flipped: refused exactly when libbz2 refuses it, one line with
 * the block and a byte inside the input, and only whole blocks of the
 * original written before the refusal. */
/* One input through libbz2 once and ours at one thread and two: the same
 * accept or refuse, one line naming a byte inside the input, and no byte
 * written that is not the original's. Two threads read 4093-byte chunks:
 * an input that ends within its first chunk with one block is decoded on
 * the caller's thread, so a longer one is what reaches the workers. NULL,
 * or why not. */
static const char *hostile_one(const uint8_t *z, size_t len, const uint8_t *t, size_t n, char *why, size_t whylen)
{
	struct sink ref = {0};
	uint8_t back[4096];
	char rwhy[160];
	int ref_rc = bz2_ref_decode(z, len, ref_write, &ref, back, sizeof(back), rwhy, sizeof(rwhy));
	const char *bad = NULL;

	free(ref.p);
	for (unsigned threads = 1; threads <= 2 && !bad; threads++) {
		struct bunzip2_error e;
		struct sink s;
		int rc = decode(z, len, threads, threads > 1 ? 4093 : 0, &s, NULL, &e);

		bad = why;
		if ((rc == 0) != (ref_rc == 0))
			snprintf(why, whylen, "-n %u: rc %d where libbz2 gives %d (%s): %s", threads, rc, ref_rc, rwhy,
				 e.what);
		else if (rc && (rc != BUNZIP2_CORRUPT || !e.what[0] || strchr(e.what, '\n') || e.byte_offset > len))
			snprintf(why, whylen, "-n %u: rc %d, byte %llu of %zu: '%s'", threads, rc,
				 (unsigned long long)e.byte_offset, len, e.what);
		else if (rc && (s.n > n || (s.n && memcmp(s.p, t, s.n))))
			snprintf(why, whylen, "-n %u: %zu bytes written before the refusal are not the original's", threads,
				 s.n);
		else
			bad = NULL;
		free(s.p);
	}
	return bad;
}

TEST(bunzip2_refuses_hostile_input_where_libbz2_does, NEEDS_LIBBZ2)
{
	size_t n = 250000, len;
	uint8_t *t = malloc(n), *z, *m;
	char why[400];
	const char *f;
	struct rng r;

	CHECK(t, "out of memory");
	textgen_fill(t, n, TEXTGEN_MARKOV, 9);
	CHECK((z = bzip2_fixture_compress(t, n, 1, &len)) && (m = malloc(len)), "libbz2");
	rng_seed(&r, 42);
	/* Every cut in the headers and trailers, a sample inside. */
	for (size_t cut = 0; cut < len; cut += cut < 64 || cut > len - 64 ? 1 : 997) {
		f = hostile_one(z, cut, t, n, why, sizeof(why));
		CHECK(!f, "cut at %zu of %zu: %s", cut, len, f);
	}
	for (unsigned k = 0; k < 240; k++) {
		uint64_t bit = rng_below(&r, (uint64_t)len * 8);

		memcpy(m, z, len);
		m[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
		f = hostile_one(m, len, t, n, why, sizeof(why));
		CHECK(!f, "bit %llu flipped: %s", (unsigned long long)bit, f);
	}
	free(m);
	free(z);
	free(t);
}

static int slow_write(void *ctx, const uint8_t *buf, size_t len)
{
	struct timespec ms = {0, 1000000};

	nanosleep(&ms, NULL);
	return sink_write(ctx, buf, len);
}

/* A writer slower than the workers: a worker done with a block whose turn
 * has not come keeps it in its T-vector, moves it to the pool's spare when
 * it needs the T-vector for its next block, or waits while the spare is
 * taken or the block is being written; the output stays libbz2's. */
TEST(bunzip2_a_slow_writer_gets_every_block_whole, NEEDS_LIBBZ2)
{
	size_t n = 2000000, len = 0;
	uint8_t *t = malloc(n), *z = NULL;

	CHECK(t, "out of memory");
	if (!t)
		return;
	textgen_fill(t, n, TEXTGEN_MARKOV, 6);
	CHECK((z = bzip2_fixture_compress(t, n, 1, &len)), "libbz2");
	for (unsigned threads = 2; z && threads <= 4; threads++) {
		struct bunzip2_opts o = {.threads = threads};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc = bunzip2_decode_memory(z, len, slow_write, &s, &o, &sum, &e);

		CHECK(rc == 0 && s.n == n && !memcmp(s.p, t, n) && sum.blocks >= 20,
		      "-n %u: rc %d, %zu of %zu bytes, %u blocks: %s", threads, rc, s.n, n, sum.blocks, e.what);
		free(s.p);
	}
	free(z);
	free(t);
}

TEST(bunzip2_limits_and_a_stopped_writer, NEEDS_LIBBZ2)
{
	size_t n = 600000, len;
	uint8_t *t = malloc(n), *z;

	CHECK(t, "out of memory");
	textgen_fill(t, n, TEXTGEN_MARKOV, 4);
	CHECK((z = bzip2_fixture_compress(t, n, 1, &len)), "libbz2");
	for (unsigned threads = 1; threads <= 3; threads++) {
		struct bunzip2_opts o = {.threads = threads, .max_output_bytes = 250000};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc = bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);

		CHECK(rc == BUNZIP2_LIMIT && s.n <= 250000 && e.block == 3 && strstr(e.what, "250000"),
		      "-n %u: rc %d, %zu bytes, block %u: %s", threads, rc, s.n, e.block, e.what);
		free(s.p);
		memset(&s, 0, sizeof(s));
		s.stop_after = 2;
		o.max_output_bytes = 0;
		rc = bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);
		CHECK(rc == BUNZIP2_WRITE && e.sys_errno == ENOSPC && e.block == 3, "-n %u: rc %d, errno %d, block %u",
		      threads, rc, e.sys_errno, e.block);
		free(s.p);
	}
	{
		struct bunzip2_opts o = {.threads = 8, .max_memory_bytes = bunzip2_memory_bytes(2)};
		struct bunzip2_summary sum;
		struct bunzip2_error e;
		struct sink s = {0};
		int rc = bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e);

		CHECK(rc == 0 && sum.threads == 2 && s.n == n, "8 threads in two's memory: rc %d, %u threads: %s", rc,
		      sum.threads, e.what);
		free(s.p);
		o.max_memory_bytes = 1 << 20;
		CHECK(bunzip2_decode_memory(z, len, sink_write, &s, &o, &sum, &e) == BUNZIP2_LIMIT, "1 MiB accepted");
	}
	free(z);
	free(t);
}

/* ---- mlpbunzip2's arguments ---- */

/* The files parsed point into argv, as main's do: it outlives the call. */
static int parse(const char *line, struct bunzip2_args *a, char *err, size_t errlen)
{
	static char copy[256];
	static char *argv[16];
	int argc = 0;

	snprintf(copy, sizeof(copy), "mlpbunzip2 %s", line);
	for (char *tok = strtok(copy, " "); tok && argc < 15; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return bunzip2_args_parse(argc, argv, a, err, errlen);
}

TEST(bunzip2_arguments_as_bzip2_and_lbzip2_spell_them)
{
	struct bunzip2_args a;
	char err[300];

	CHECK(!parse("-dkc -n4 a.bz2 -- -b.bz2", &a, err, sizeof(err)), "%s", err);
	CHECK(a.keep && a.to_stdout && !a.force && a.threads == 4 && a.nfiles == 2 && !strcmp(a.files[0], "a.bz2") &&
		      !strcmp(a.files[1], "-b.bz2"), "flags or files wrong");
	CHECK(!parse("-n 2 -ftqvv -9 -s --keep -", &a, err, sizeof(err)), "%s", err);
	CHECK(a.threads == 2 && a.force && a.test && a.quiet && a.verbose == 2 && a.keep && a.nfiles == 1 &&
		      !strcmp(a.files[0], "-"), "second line wrong");
	CHECK(!parse("--threads=3 --stdout", &a, err, sizeof(err)) && a.threads == 3 && a.to_stdout, "%s", err);
	static const struct {
		const char *line, *says;
	} bad[] = {
		{"-x", "-x: unknown option (accepted: "},     {"--frob", "--frob: unknown option"},
		{"-n", "-n: needs a thread count"},          {"-n 0", "'0' is not a thread count (expected an integer"},
		{"-n4x", "'4x'"},                            {"-n -3", "'-3'"},
		{"-n 5000", "1..4096"},                      {"-z", "-z: compression is not supported"},
		{"--compress", "only decompresses"},         {"-dkz", "-z:"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(parse(bad[i].line, &a, err, sizeof(err)) == -1 && strstr(err, bad[i].says) && !strchr(err, '\n'),
		      "'%s' gave '%s'", bad[i].line, err);
	}
}

TEST(bunzip2_output_names_as_bzip2_gives_them)
{
	static const struct {
		const char *in, *out;
		bool guessed;
	} cases[] = {
		{"a.bz2", "a", true},         {"dir/x.tar.bz2", "dir/x.tar", true}, {"a.bz", "a", true},
		{"s.tbz2", "s.tar", true},    {"s.tbz", "s.tar", true},             {"plain", "plain.out", false},
		{"d/.bz2", "d/.bz2.out", false}, {"a.bz2.gz", "a.bz2.gz.out", false},
	};
	char out[64];
	bool guessed;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(!bunzip2_output_name(cases[i].in, out, sizeof(out), &guessed) && !strcmp(out, cases[i].out) &&
			      guessed == cases[i].guessed, "%s -> %s", cases[i].in, out);
	CHECK(bunzip2_output_name("a-long-name.bz2", out, 8, &guessed) == -1, "a name past the buffer fit");
}
