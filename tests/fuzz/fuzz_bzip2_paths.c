/*
 * libFuzzer target: the decode stage's fast paths against its plain ones,
 * differentially, on any bytes (fuzz_bzip2 checks whole decodes against
 * libbz2; this one reaches each path alone, where a whole decode would stop
 * at the first bad header). Per input:
 *   - CRC: bz2_crc's form (carry-less folding where the CPU has it, else
 *     slicing by 8) against slicing by 4, at every start alignment.
 *   - RLE: the word search against the byte loop (size and bytes).
 *   - Huffman: a table built from the first bytes as code lengths, then
 *     the rest decoded with bz2_huffman_decode (first-level table, long
 *     codes by limits) against a bit-at-a-time canonical decoder written
 *     here from the format; the build must refuse exactly the
 *     oversubscribed sets.
 *   - One block's body (after "BZh" and the block magic when the input
 *     starts with them, else from bit 0): every fast path together and
 *     each BZ2_PLAIN_* bit alone and all plain, and each narrower form
 *     of the MTF list, must give the same symbols (the BWT column, its
 *     counts, the origin) or all refuse; the column written as its runs
 *     (bz2_block.runs), in two passes and in lanes, must spell it or
 *     refuse alike.
 *   - The whole stream, one lane, the same path sets: the same bytes, or a
 *     refusal at the same block by each, every refusal one line that says
 *     why and where (the CLI prints it as one line and exits 2).
 * Output is capped at 1 MiB before a block is expanded, as in fuzz_bzip2.
 */
#include "bzip2/bz2.h"
#include "bzip2_sink.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


/* The path sets compared with all-fast: each plain bit alone, then all. */
static unsigned path_set(unsigned i)
{
	return i < 31 && (1u << i) <= BZ2_PLAIN_ALL ? 1u << i : BZ2_PLAIN_ALL;
}

static unsigned path_sets(void)
{
	unsigned n = 0;

	while ((1u << n) <= BZ2_PLAIN_ALL)
		n++;
	return n + 1;
}

static void crc_paths(const uint8_t *data, size_t size)
{
	for (size_t o = 0; o < 8 && o <= size; o++)
		if (bz2_crc(data + o, size - o) != bz2_crc4(data + o, size - o))
			abort();
}

static void rle_paths(const uint8_t *data, size_t size)
{
	static uint8_t *a, *b;
	size_t n = bz2_rle_size(data, size);

	if (n != bz2_rle_size_plain(data, size))
		abort();
	if (n > CAP_BYTES)
		return;
	if ((!a && !(a = malloc(CAP_BYTES))) || (!b && !(b = malloc(CAP_BYTES))))
		abort();
	if (bz2_rle_decode(data, size, a) != n || bz2_rle_decode_plain(data, size, b) != n || memcmp(a, b, n))
		abort();
}

/* ---- Huffman against a canonical decoder from the format ---- */
struct bitr {
	const uint8_t *p;
	size_t n;
	uint64_t pos;
};

static unsigned bit_at(struct bitr *r)
{
	uint64_t i = r->pos++;

	return i / 8 < r->n ? (r->p[i / 8] >> (7 - i % 8)) & 1 : 0;
}

/* Codes in (length, symbol) order, each one more than the last, shifted
 * left at each length: bzip2's canonical assignment. */
struct canon {
	unsigned count[BZ2_MAX_CODE_BITS + 1];
	uint32_t first[BZ2_MAX_CODE_BITS + 1];
	unsigned start[BZ2_MAX_CODE_BITS + 1];
	uint16_t sym[BZ2_MAX_ALPHA];
};

static void canon_build(struct canon *c, const uint8_t *len, unsigned alpha)
{
	uint32_t code = 0;
	unsigned idx = 0;

	memset(c, 0, sizeof(*c));
	for (unsigned l = 1; l <= BZ2_MAX_CODE_BITS; l++) {
		c->first[l] = code;
		c->start[l] = idx;
		for (unsigned s = 0; s < alpha; s++)
			if (len[s] == l) {
				c->sym[idx++] = (uint16_t)s;
				c->count[l]++;
			}
		code = (code + c->count[l]) << 1;
	}
}

static int canon_decode(const struct canon *c, struct bitr *r)
{
	uint32_t v = 0;

	for (unsigned l = 1; l <= BZ2_MAX_CODE_BITS; l++) {
		v = v << 1 | bit_at(r);
		if (v >= c->first[l] && v - c->first[l] < c->count[l])
			return c->sym[c->start[l] + v - c->first[l]];
	}
	return -1;
}

static void huffman_paths(const uint8_t *data, size_t size)
{
	static struct bz2_huffman h;
	static struct canon c;
	uint8_t len[BZ2_MAX_ALPHA];
	unsigned alpha;
	uint64_t kraft = 0;
	struct bz2_bits b;
	struct bitr r;

	if (size < 2)
		return;
	alpha = 2 + data[0] % (BZ2_MAX_ALPHA - 1);
	if (size < 1 + (size_t)alpha)
		return;
	for (unsigned s = 0; s < alpha; s++) {
		len[s] = (uint8_t)(data[1 + s] % (BZ2_MAX_CODE_BITS + 1));
		kraft += len[s] ? 1ull << (BZ2_MAX_CODE_BITS - len[s]) : 0;
	}
	if (bz2_huffman_build(&h, len, alpha) != (kraft > (1ull << BZ2_MAX_CODE_BITS) ? -1 : 0))
		abort();
	if (kraft > (1ull << BZ2_MAX_CODE_BITS))
		return;
	canon_build(&c, len, alpha);
	data += 1 + alpha;
	size -= 1 + alpha;
	bz2_bits_init(&b, data, size, 0);
	r = (struct bitr){data, size, 0};
	for (unsigned i = 0; i < 4096 && r.pos < (uint64_t)size * 8; i++) {
		int want = canon_decode(&c, &r), got = bz2_huffman_decode(&h, &b);

		if (got != want || (got >= 0 && bz2_bits_pos(&b) != r.pos))
			abort();
		if (got < 0)
			break;
	}
}

/* ---- one block's body, every path set ---- */
/* Whether x's runs spell col's column. */
static bool runs_spell(const struct bz2_block *x, const uint8_t *col)
{
	uint32_t at = 0;

	for (uint32_t k = 0; k < x->nruns; k++) {
		uint32_t len = x->runs[k] >> 8;

		if (len > x->nblock - at)
			return false;
		for (uint32_t r = 0; r < len; r++)
			if (col[at + r] != (x->runs[k] & 255))
				return false;
		at += len;
	}
	return at == x->nblock;
}

/* The split decode with runs (and in lanes) against blk0's column. */
static void runs_path(const uint8_t *data, size_t size, uint64_t bit, uint32_t max_block, const struct bz2_block *blk0,
		      int rc0, const struct bz2_error *e0)
{
	static struct bz2_block *x;

	if (!x && (!(x = calloc(1, sizeof(*x))) || !(x->bwt = malloc(BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK)) ||
		   !(x->runs = malloc((BZ2_MAX_BLOCK_BYTES + 1) * sizeof(*x->runs)))))
		abort();
	for (int lane = 0; lane < 2; lane++) {
		struct bz2_error e = {0};
		struct bz2_bits b;
		int rc;

		bz2_bits_init(&b, data, size, bit);
		rc = bz2_block_decode(&b, max_block, x, lane ? BZ2_DECODE_LANE : 0, NULL, &e);
		if (rc != rc0 || (rc && (strcmp(e.what, e0->what) || e.byte_offset != e0->byte_offset)))
			abort();  /* the runs form refused otherwise than the column */
		if (!rc && (x->nblock != blk0->nblock || x->orig_ptr != blk0->orig_ptr ||
			    memcmp(x->counts, blk0->counts, sizeof(x->counts)) || !runs_spell(x, blk0->bwt)))
			abort();  /* the runs are not the column's */
	}
}

static void block_paths(const uint8_t *data, size_t size)
{
	static struct bz2_block *blk[2];
	uint64_t bit = 0;
	uint32_t max_block = BZ2_MAX_BLOCK_BYTES;
	int rc0 = 0;
	struct bz2_error e0 = {0};

	for (int i = 0; i < 2; i++)
		if (!blk[i] && (!(blk[i] = calloc(1, sizeof(*blk[i]))) || !(blk[i]->bwt = malloc(BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK))))
			abort();
	if (size >= 10 && !memcmp(data, "BZh", 3) && data[3] >= '1' && data[3] <= '9' &&
	    !memcmp(data + 4, "\x31\x41\x59\x26\x53\x59", 6)) {
		bit = 80;
		max_block = 100000u * (uint32_t)(data[3] - '0');
	}
	/* Past the path sets, all fast again with each narrower form of the
	 * MTF list (words, then the 16-byte shuffle) where the CPU has it,
	 * then the lane form with each of the three. */
	for (unsigned i = 0; i <= path_sets() + 5; i++) {
		struct bz2_block *x = blk[i ? 1 : 0];
		struct bz2_error e = {0};
		struct bz2_bits b;
		unsigned past = i > path_sets() ? i - path_sets() - 1 : 0, plain = 0;
		int rc;

		if (i && i <= path_sets())
			plain = path_set(i - 1);
		else if (past >= 2)
			plain = BZ2_DECODE_LANE;
		bz2_bits_init(&b, data, size, bit);
		bz2_split_list_max = i > path_sets() ? (enum bz2_list_form)(past < 2 ? past : past - 2) : BZ2_LIST_VBMI;
		rc = bz2_block_decode(&b, max_block, x, plain, NULL, &e);
		bz2_split_list_max = BZ2_LIST_VBMI;
		if (rc && (!e.what[0] || strchr(e.what, '\n')))
			abort();  /* a refusal says why, on one line */
		if (!i) {
			rc0 = rc;
			e0 = e;
			runs_path(data, size, bit, max_block, blk[0], rc0, &e0);
			continue;
		}
		if (rc != rc0)
			abort();  /* one path refused what another accepted */
		if (rc && plain == BZ2_DECODE_LANE && (strcmp(e.what, e0.what) || e.byte_offset != e0.byte_offset))
			abort();  /* the lane form refused with another reason or byte */
		if (!rc && (x->nblock != blk[0]->nblock || x->orig_ptr != blk[0]->orig_ptr ||
			    x->stored_crc != blk[0]->stored_crc || memcmp(x->counts, blk[0]->counts, sizeof(x->counts)) ||
			    memcmp(x->bwt, blk[0]->bwt, x->nblock)))
			abort();  /* the paths decoded different symbols */
	}
}

/* ---- the whole stream, every path set ---- */
static void stream_paths(const uint8_t *data, size_t size)
{
	static struct acc first, other;
	static struct bz2_decoder *dec;
	struct bz2_error e0 = {0};
	int rc0 = 0;

	if ((!first.p && !(first.p = malloc(CAP_BYTES))) || (!other.p && !(other.p = malloc(CAP_BYTES))) ||
	    (!dec && !(dec = bz2_decoder_new())))
		abort();
	for (unsigned i = 0; i <= path_sets(); i++) {
		struct bz2_decode_opts o = {.walk = {.lanes = 1}, .max_output_bytes = CAP_BYTES,
					    .plain = i ? path_set(i - 1) : 0};
		struct acc *a = i ? &other : &first;
		struct bz2_error e;
		int rc;

		a->n = 0;
		rc = bz2_decode_with(dec, data, size, &o, keep, a, NULL, &e);
		if (rc == -1 && (!e.what[0] || strchr(e.what, '\n') || e.byte_offset > size))
			abort();  /* a refusal says why and where, on one line */
		if (!i) {
			rc0 = rc;
			e0 = e;
		} else if (rc != rc0 || (rc == -1 && e.block != e0.block) ||
			   (!rc && (a->n != first.n || memcmp(a->p, first.p, first.n)))) {
			abort();  /* a path changed what was decoded, or where it was refused */
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	crc_paths(data, size);
	rle_paths(data, size);
	huffman_paths(data, size);
	block_paths(data, size);
	stream_paths(data, size);
	return 0;
}
