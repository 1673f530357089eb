/*
 * Randomised blocks (bzip2 0.9.0's legacy option) decode to what libbz2
 * decodes them to. No encoder at hand writes one, so the test makes them
 * from libbz2's own streams: block by block, the randomised bit is set and
 * the block's CRC patched to the CRC of what libbz2 then decodes it to (it
 * writes a block whole before it checks the CRC), then the stream's CRC.
 * The library (mlpbunzip2's path, with one thread and two, a block of long
 * runs held unexpanded among them) and the experiment's flows (bz2_decode,
 * each overlap) must give libbz2's bytes, and the flips must have landed:
 * those bytes are not the original's.
 */
#include "../harness.h"
#include "bzip2_fixture.h"

#include "bzip2/bunzip2.h"
#include "bzip2/bz2.h"
#include "bzip2/libbz2_ref.h"
#include "exp/app/textgen.h"

#include <stdlib.h>
#include <string.h>

#define END_MAGIC 0x177245385090ull

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static int buf_put(void *ctx, const uint8_t *p, size_t n)
{
	struct buf *b = ctx;

	if (b->n + n > b->cap) {
		size_t cap = (b->n + n) * 2 + 64;
		uint8_t *m = realloc(b->p, cap);

		if (!m)
			return -12;
		b->p = m;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

static int block_put(void *ctx, unsigned block, const uint8_t *out, size_t bytes, const struct bz2_stage_ticks *t)
{
	(void)block, (void)t;
	return buf_put(ctx, out, bytes);
}

static uint64_t bits_at(const uint8_t *z, uint64_t bit, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++, bit++)
		v = v << 1 | ((z[bit / 8] >> (7 - bit % 8)) & 1);
	return v;
}

static void bits_put(uint8_t *z, uint64_t bit, unsigned n, uint64_t v)
{
	for (unsigned i = n; i-- > 0; bit++) {
		uint8_t m = (uint8_t)(0x80 >> (bit % 8));

		z[bit / 8] = (uint8_t)(((v >> i) & 1) ? z[bit / 8] | m : z[bit / 8] & ~m);
	}
}

static int ref_decode(const uint8_t *z, size_t len, struct buf *out)
{
	static uint8_t back[1 << 16];
	char why[160];

	out->n = 0;
	return bz2_ref_decode(z, len, buf_put, out, back, sizeof(back), why, sizeof(why));
}

/* z[0..len), one stream, made randomised in every block as above; 0, or
 * -1 when libbz2 did not behave as the making assumes. */
static int randomise(uint8_t *z, size_t len)
{
	size_t count = 0, done = 0;
	uint64_t *magics = bz2_scan_blocks(z, len, &count), end = 0;
	struct buf ref = {0};
	uint32_t combined = 0;
	int rc = -1;

	if (!magics || !count)
		goto out;
	for (size_t b = 0; b < count; b++) {
		uint32_t crc;

		bits_put(z, magics[b] + 80, 1, 1);
		if (ref_decode(z, len, &ref) != -1 || ref.n <= done)
			goto out;
		crc = bz2_crc(ref.p + done, ref.n - done);
		bits_put(z, magics[b] + 48, 32, crc);
		combined = bz2_crc_combine(combined, crc);
		done = ref.n;
	}
	/* The end marker, 80 bits and 0..7 of padding before the end. */
	for (unsigned pad = 0; pad < 8 && !end; pad++)
		if (bits_at(z, (uint64_t)len * 8 - 80 - pad, 48) == END_MAGIC)
			end = (uint64_t)len * 8 - 80 - pad;
	if (end) {
		bits_put(z, end + 48, 32, combined);
		rc = 0;
	}
out:
	free(ref.p);
	free(magics);
	return rc;
}

/* Every decoder of ours gives want[0..n) for z; NULL, or which did not. */
static const char *all_agree(const uint8_t *z, size_t len, const uint8_t *want, size_t n, char *why, size_t whylen)
{
	static const enum bz2_overlap overlaps[] = {BZ2_OVERLAP_OFF, BZ2_OVERLAP_INTERLEAVE, BZ2_OVERLAP_SCOUT};
	struct buf got = {0};

	for (unsigned threads = 1; threads <= 2; threads++) {
		struct bunzip2_opts o = {.threads = threads, .chunk_bytes = threads == 2 ? 4093 : 0};
		struct bunzip2_error e;
		int rc;

		got.n = 0;
		rc = bunzip2_decode_memory(z, len, buf_put, &got, &o, NULL, &e);
		if (rc || got.n != n || memcmp(got.p, want, n)) {
			snprintf(why, whylen, "bunzip2 -n %u: rc %d, %zu of %zu bytes: %s", threads, rc, got.n, n, e.what);
			goto out;
		}
	}
	for (size_t i = 0; i < sizeof(overlaps) / sizeof(overlaps[0]); i++) {
		struct bz2_decode_opts o = {.walk = {.lanes = i ? 16 : 1, .layout = BZ2_LAYOUT_REGISTERS},
					    .overlap = overlaps[i], .scout_cpu = -1};
		struct bz2_error e;
		int rc;

		got.n = 0;
		rc = bz2_decode(z, len, &o, block_put, &got, NULL, &e);
		if (rc || got.n != n || memcmp(got.p, want, n)) {
			snprintf(why, whylen, "bz2_decode, overlap %zu: rc %d, %zu of %zu bytes: %s", i, rc, got.n, n,
				 e.what);
			goto out;
		}
	}
	why = NULL;
out:
	free(got.p);
	return why;
}

static const char *check_randomised(const uint8_t *t, size_t n, int level, char *why, size_t whylen)
{
	size_t len = 0;
	uint8_t *z = bzip2_fixture_compress(t, n, level, &len);
	struct buf want = {0};
	const char *f = why;

	if (!z)
		return "libbz2 could not compress";
	if (randomise(z, len)) {
		snprintf(why, whylen, "libbz2 did not fail the patched blocks' CRCs as assumed");
	} else if (ref_decode(z, len, &want)) {
		snprintf(why, whylen, "libbz2 refuses the randomised stream made for it");
	} else if (want.n == n && !memcmp(want.p, t, n)) {
		snprintf(why, whylen, "no byte flipped: the randomised bit was not set");
	} else {
		f = all_agree(z, len, want.p, want.n, why, whylen);
	}
	free(want.p);
	free(z);
	return f;
}

TEST(bzip2_randomised_blocks_decode_as_libbz2_decodes_them, NEEDS_LIBBZ2)
{
	size_t n = 2000000;
	uint8_t *t = malloc(n);
	char why[300];
	const char *f;

	CHECK(t, "out of memory");
	/* Text with runs of zeros every 997 bytes: flips land on run counts
	 * too. Three blocks at level 9: the 512 gaps wrap in each. */
	textgen_fill(t, n, TEXTGEN_MARKOV, 21);
	for (size_t i = 0; i + 40 < n; i += 997)
		memset(t + i, 0, 40);
	CHECK(!(f = check_randomised(t, n, 9, why, sizeof(why))), "text: %s", f);
	free(t);
	/* Blocks of one run at level 1, 5 MB each: held before the run-length
	 * stage by the library, flipped there all the same. */
	n = 10u << 20;
	CHECK((t = calloc(1, n)), "out of memory");
	CHECK(!(f = check_randomised(t, n, 1, why, sizeof(why))), "zeros: %s", f);
	free(t);
}

TEST(bzip2_randomised_file_on_disk_decodes, NEEDS_LIBBZ2)
{
	FILE *fp = fopen("tests/data/bzip2/randomised.bz2", "rb");
	uint8_t z[4096];
	struct buf want = {0};
	char why[300];
	const char *f;
	size_t len;

	CHECK(fp, "tests/data/bzip2/randomised.bz2: cannot open");
	len = fread(z, 1, sizeof(z), fp);
	fclose(fp);
	CHECK(bits_at(z, 32 + 80, 1) == 1, "the file's first block is not randomised");
	CHECK(ref_decode(z, len, &want) == 0, "libbz2 refuses it");
	f = all_agree(z, len, want.p, want.n, why, sizeof(why));
	free(want.p);
	CHECK(!f, "%s", f);
}
