/*
 * Whole files in production order: the stream header ("BZh" and a level
 * digit), then per block its magic, the body (mtf.c), the T-vector, the
 * walk, the run-length stage and the CRC, then the end marker and the
 * combined CRC, then the next stream if more bytes follow (pbzip2 and
 * `cat a.bz2 b.bz2` write several). Stage times come from one clock read
 * between stages; the output buffer is reused across blocks or allocated
 * fresh for each (the axis a decoder's buffer lifetime sets).
 */
#include "bzip2/bz2.h"

#include "core/clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MAGIC 0x314159265359ull
#define END_MAGIC 0x177245385090ull

static int fail(struct bz2_error *e, unsigned block, uint64_t bit, const char *what)
{
	e->block = block;
	e->byte_offset = bit / 8;
	snprintf(e->what, sizeof(e->what), "%s", what);
	return -1;
}

static uint64_t get48(struct bz2_bits *b)
{
	uint64_t hi = bz2_bits_get(b, 24);

	return hi << 24 | bz2_bits_get(b, 24);
}

/* The stream header at byte pos: its level's block limit, or 0. */
static uint32_t stream_level(const uint8_t *in, size_t len, size_t pos)
{
	if (len - pos < 4 || memcmp(in + pos, "BZh", 3) || in[pos + 3] < '1' || in[pos + 3] > '9')
		return 0;
	return 100000u * (uint32_t)(in[pos + 3] - '0');
}

struct bz2_decoder {
	struct bz2_block *blk;
	uint32_t *tt;
	uint8_t *text;       /* the walk's output: the block before the run-length stage */
	uint8_t *out;
	size_t out_cap;
	struct bz2_walk_scratch sc;
	struct arena table;  /* tt's, when it is in one (table.base set) */
};

#define TT_BYTES ((size_t)BZ2_MAX_BLOCK_BYTES * sizeof(uint32_t))

static int bufs_get(struct bz2_decoder *u)
{
	u->blk = malloc(sizeof(*u->blk));
	u->tt = u->table.base ? (uint32_t *)u->table.base : malloc(TT_BYTES);
	u->text = malloc(BZ2_MAX_BLOCK_BYTES);
	if (u->blk)
		u->blk->bwt = malloc(BZ2_MAX_BLOCK_BYTES);
	return u->blk && u->tt && u->text && u->blk->bwt ? 0 : -ENOMEM;
}

static void bufs_put(struct bz2_decoder *u)
{
	if (u->blk)
		free(u->blk->bwt);
	free(u->blk);
	if (u->table.base)
		arena_unmap(&u->table);
	else
		free(u->tt);
	free(u->text);
	free(u->out);
	bz2_walk_scratch_free(&u->sc);
}

static inline uint64_t tick(bool timed)
{
	return timed ? clock_now() : 0;
}

/* One block's body at b: decode it into u->out; the bytes or -1/-errno
 * (-EFBIG when its output would pass room bytes). */
static long block_run(struct bz2_bits *b, uint32_t max_block, unsigned block_no, const struct bz2_walk_opts *w,
		      unsigned plain, bool fresh, bool timed, struct bz2_decoder *u, struct bz2_stage_ticks *st, struct bz2_walk_ticks *wt,
		      struct bz2_error *e, uint32_t *crc_out, size_t room)
{
	struct bz2_walk_ticks mine = {0};
	uint64_t t0 = tick(timed), t1, t2, t3, t4, t5;
	uint64_t body = bz2_bits_pos(b);
	size_t bytes;
	uint32_t crc;
	int rc;

	if (bz2_block_decode(b, max_block, u->blk, plain, e)) {
		e->block = block_no;
		return -1;
	}
	t1 = tick(timed);
	bz2_ibwt_table(u->blk, u->tt);
	t2 = tick(timed);
	rc = bz2_ibwt_walk(u->tt, u->blk->nblock, u->blk->orig_ptr, u->text, w, &u->sc, timed ? &mine : NULL);
	if (rc)
		return rc;
	t3 = tick(timed);
	bytes = plain & BZ2_PLAIN_RLE ? bz2_rle_size_plain(u->text, u->blk->nblock)
				      : bz2_rle_size(u->text, u->blk->nblock);
	/* Sized before it is expanded: a run-length bomb stops here, before
	 * the expansion and the CRC that cost in proportion to it. */
	if (bytes > room)
		return -EFBIG;
	if (fresh || bytes > u->out_cap) {
		free(u->out);
		/* A fresh buffer is first touched here, inside the RLE stage:
		 * its page faults are what "fresh" costs. */
		u->out_cap = fresh ? bytes : bytes + bytes / 4;
		u->out = malloc(u->out_cap ? u->out_cap : 1);
		if (!u->out)
			return -ENOMEM;
	}
	if (plain & BZ2_PLAIN_RLE)
		bz2_rle_decode_plain(u->text, u->blk->nblock, u->out);
	else
		bz2_rle_decode(u->text, u->blk->nblock, u->out);
	t4 = tick(timed);
	crc = plain & BZ2_PLAIN_CRC ? bz2_crc4(u->out, bytes) : bz2_crc(u->out, bytes);
	t5 = tick(timed);
	if (crc != u->blk->stored_crc) {
		char what[120];

		snprintf(what, sizeof(what), "bad block CRC (stored 0x%08x, decoded bytes give 0x%08x)",
			 u->blk->stored_crc, crc);
		return fail(e, block_no, body, what);
	}
	*crc_out = crc;
	st->rows = u->blk->nblock;
	if (timed) {
		st->decode = t1 - t0;
		st->table = t2 - t1;
		st->starts = mine.starts;
		st->assembly = mine.assembly;
		st->traversal = (t3 - t2) - mine.starts - mine.assembly;
		st->rle = t4 - t3;
		st->crc = t5 - t4;
	}
	if (wt)
		wt->fallbacks += mine.fallbacks;
	return (long)bytes;
}

int bz2_decode(const uint8_t *in, size_t len, const struct bz2_decode_opts *o, bz2_block_sink sink, void *ctx,
	       struct bz2_walk_ticks *walk, struct bz2_error *e)
{
	struct bz2_decoder u = {0};
	int rc;

	memset(e, 0, sizeof(*e));
	if (!(rc = bufs_get(&u)))
		rc = bz2_decode_with(&u, in, len, o, sink, ctx, walk, e);
	bufs_put(&u);
	return rc;
}

int bz2_decode_with(struct bz2_decoder *u, const uint8_t *in, size_t len, const struct bz2_decode_opts *o,
		    bz2_block_sink sink, void *ctx, struct bz2_walk_ticks *walk, struct bz2_error *e)
{
	size_t pos = 0, total = 0;
	unsigned block_no = 0;
	int rc;

	memset(e, 0, sizeof(*e));
	do {
		uint32_t max_block = stream_level(in, len, pos), combined = 0;
		struct bz2_bits b;

		if (!max_block) {
			rc = fail(e, 0, (uint64_t)pos * 8,
				  pos ? "bad magic: bytes after a stream that are not another stream (expected BZh1..BZh9)"
				      : len < 4 ? "truncated: shorter than a stream header"
						: "bad magic: not a bzip2 stream (expected BZh1..BZh9)");
			goto out;
		}
		bz2_bits_init(&b, in, len, (uint64_t)(pos + 4) * 8);
		for (;;) {
			uint64_t at = bz2_bits_pos(&b), magic = get48(&b);
			struct bz2_stage_ticks st = {0};
			uint32_t crc = 0;
			long bytes;

			if (bz2_bits_truncated(&b)) {
				rc = fail(e, block_no + 1, (uint64_t)len * 8, "truncated: the input ends before the stream's end marker");
				goto out;
			}
			if (magic == END_MAGIC) {
				uint32_t stored = bz2_bits_get(&b, 32);

				if (bz2_bits_truncated(&b)) {
					rc = fail(e, 0, (uint64_t)len * 8, "truncated: the input ends inside the stream CRC");
					goto out;
				}
				if (stored != combined) {
					char what[120];

					snprintf(what, sizeof(what), "bad stream CRC (stored 0x%08x, blocks give 0x%08x)",
						 stored, combined);
					rc = fail(e, 0, at, what);
					goto out;
				}
				break;
			}
			if (magic != BLOCK_MAGIC) {
				rc = fail(e, block_no + 1, at, "bad block magic (expected 0x314159265359 or the end marker)");
				goto out;
			}
			block_no++;
			bytes = block_run(&b, max_block, block_no, &o->walk, o->plain, o->fresh_output, o->timed, u, &st, walk, e,
					  &crc, o->max_output_bytes ? o->max_output_bytes - total : SIZE_MAX);
			if (bytes < 0) {
				rc = (int)bytes;
				goto out;
			}
			total += (size_t)bytes;
			combined = bz2_crc_combine(combined, crc);
			if (sink && (rc = sink(ctx, block_no, u->out, (size_t)bytes, &st)))
				goto out;
		}
		pos = (size_t)((bz2_bits_pos(&b) + 7) / 8);
	} while (pos < len);
	rc = 0;
out:
	return rc;
}

/* pages < 0: tt malloc'd. */
static struct bz2_decoder *decoder_new(int pages)
{
	struct bz2_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	/* A failed map leaves table.base NULL: bufs_put frees nothing of it. */
	if ((pages >= 0 && arena_map(&d->table, TT_BYTES, (enum page_request)pages)) || bufs_get(d)) {
		bufs_put(d);
		free(d);
		return NULL;
	}
	return d;
}

struct bz2_decoder *bz2_decoder_new(void)
{
	return decoder_new(-1);
}

struct bz2_decoder *bz2_decoder_new_pages(enum page_request pages)
{
	return decoder_new((int)pages);
}

const struct arena *bz2_decoder_table(const struct bz2_decoder *d)
{
	return d->table.base ? &d->table : NULL;
}

void bz2_decoder_free(struct bz2_decoder *d)
{
	if (!d)
		return;
	bufs_put(d);
	free(d);
}

int bz2_decode_block_at(struct bz2_decoder *d, const uint8_t *in, size_t len, uint64_t magic_bit, unsigned block_no,
			const struct bz2_walk_opts *w, unsigned plain, struct bz2_block_result *r,
			struct bz2_error *e)
{
	struct bz2_stage_ticks st;
	struct bz2_bits b;
	long bytes;

	memset(e, 0, sizeof(*e));
	bz2_bits_init(&b, in, len, magic_bit);
	if (get48(&b) != BLOCK_MAGIC)
		return fail(e, block_no, magic_bit, "bad block magic (expected 0x314159265359)");
	bytes = block_run(&b, BZ2_MAX_BLOCK_BYTES, block_no, w, plain, false, false, d, &st, NULL, e, &r->crc, SIZE_MAX);
	if (bytes < 0)
		return (int)bytes;
	r->out = d->out;
	r->bytes = (size_t)bytes;
	r->end_bit = bz2_bits_pos(&b);
	r->nblock = d->blk->nblock;
	return 0;
}

/* Appends bit to *bits (growing it), 0 or -1 when memory ran out. */
static int push_bit(uint64_t **bits, size_t *n, size_t *cap, uint64_t bit)
{
	if (*n == *cap) {
		uint64_t *m = realloc(*bits, 2 * *cap * sizeof(**bits));

		if (!m)
			return -1;
		*bits = m;
		*cap *= 2;
	}
	(*bits)[(*n)++] = bit;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t *bz2_scan_blocks(const uint8_t *in, size_t len, size_t *count)
{
	size_t cap = 64, n = 0;
	uint64_t *bits = malloc(cap * sizeof(*bits));

	if (!bits)
		return NULL;
	/* The magic may start at any of 8 bit offsets s in a byte. Whatever s,
	 * the third byte of the 7-byte window that holds it lies wholly inside
	 * the magic, so its value is fixed for each s: memchr finds those few
	 * places (about len/256 a shift) and only they are checked bit by bit.
	 * A byte-by-byte slide over all 8 shifts cost 5 ns a byte, 14 ms of a
	 * 2.8 MB file: the serial part that kept two workers under 1.8x. */
	for (unsigned s = 0; s < 8 && len >= 7; s++) {
		uint64_t placed = BLOCK_MAGIC << (8 - s);
		uint8_t key = (uint8_t)(placed >> 32);

		/* The window's third byte at in + first + 2, first <= len - 7. */
		const uint8_t *end = in + len - 4;

		for (const uint8_t *q = memchr(in + 2, key, (size_t)(end - (in + 2))); q;
		     q = memchr(q + 1, key, (size_t)(end - (q + 1)))) {
			size_t first = (size_t)(q - in) - 2;
			uint64_t w = 0;

			for (size_t j = 0; j < 7; j++)
				w = w << 8 | in[first + j];
			if (((w >> (8 - s)) & 0xffffffffffffull) != BLOCK_MAGIC)
				continue;
			if (push_bit(&bits, &n, &cap, (uint64_t)first * 8 + s)) {
				free(bits);
				return NULL;
			}
		}
	}
	qsort(bits, n, sizeof(*bits), cmp_u64);
	*count = n;
	return bits;
}
