/*
 * One block's body, from its CRC field to its last symbol: the symbol map
 * (which bytes occur), the selectors (which of 2..6 code tables codes each
 * group of 50 symbols, themselves move-to-front coded in unary), the code
 * lengths (delta coded), then the symbols (symbols.c: Huffman, the zero
 * runs and MTF). The result is the BWT's last column and its byte counts; the inverse BWT
 * (ibwt.c) starts from there. Every field the format bounds is checked, in
 * the order libbz2 checks it, so a corrupt block fails here and not later;
 * the one exception is an oversubscribed table, which libbz2 accepts until
 * a group uses it (symbols.c refuses it there).
 */
#include "bzip2/bz2.h"

#include <stdio.h>
#include <string.h>

static int fail(struct bz2_error *e, uint64_t bit, const char *what)
{
	e->byte_offset = bit / 8;
	snprintf(e->what, sizeof(e->what), "%s", what);
	return -1;
}

static int truncated(struct bz2_bits *b, struct bz2_error *e)
{
	return fail(e, (uint64_t)(b->end - b->base) * 8, "truncated: the input ends inside this block");
}

static int block_body(struct bz2_bits *b, uint32_t max_block, struct bz2_block *blk, unsigned plain,
		      struct bz2_walk_job *pace, struct bz2_error *e)
{
	uint8_t seq_to_byte[256], selector_mtf[BZ2_MAX_GROUPS], *selectors = NULL;
	uint8_t lengths[BZ2_MAX_ALPHA];
	struct bz2_huffman *tables;
	unsigned used = 0, ngroups, alpha;
	uint32_t nselectors;
	uint64_t field;

	blk->stored_crc = bz2_bits_get(b, 32);
	blk->randomised = bz2_bits_get(b, 1) != 0;
	field = bz2_bits_pos(b);
	blk->orig_ptr = bz2_bits_get(b, 24);
	if (blk->orig_ptr > 10 + max_block)
		return fail(e, field, "origin pointer past the largest block of this level");

	/* The symbol map: 16 bits say which 16-byte ranges occur, then 16 bits
	 * for each range that does. */
	{
		uint32_t ranges = bz2_bits_get(b, 16);

		for (unsigned i = 0; i < 16; i++)
			if (ranges & (0x8000u >> i)) {
				uint32_t bits = bz2_bits_get(b, 16);

				for (unsigned j = 0; j < 16; j++)
					if (bits & (0x8000u >> j))
						seq_to_byte[used++] = (uint8_t)(i * 16 + j);
			}
	}
	if (bz2_bits_truncated(b))
		return truncated(b, e);
	if (!used)
		return fail(e, field, "the block uses no byte at all");
	alpha = used + 2;

	field = bz2_bits_pos(b);
	ngroups = bz2_bits_get(b, 3);
	if (ngroups < 2 || ngroups > BZ2_MAX_GROUPS)
		return fail(e, field, "Huffman table count outside 2..6");
	field = bz2_bits_pos(b);
	nselectors = bz2_bits_get(b, 15);
	if (nselectors < 1)
		return fail(e, field, "no selectors");
	selectors = blk->selectors;
	for (unsigned i = 0; i < ngroups; i++)
		selector_mtf[i] = (uint8_t)i;
	for (uint32_t i = 0; i < nselectors; i++) {
		unsigned j = 0;

		field = bz2_bits_pos(b);
		while (bz2_bits_get(b, 1)) {
			if (++j >= ngroups)
				return fail(e, field, "selector out of range (names a table past the block's count)");
		}
		if (bz2_bits_truncated(b))
			return truncated(b, e);
		/* libbz2 1.0.8 reads every selector but keeps the first 18002
		 * (no block needs more: 900,050 symbols / 50). */
		if (i < BZ2_MAX_SELECTORS) {
			uint8_t v = selector_mtf[j];

			memmove(selector_mtf + 1, selector_mtf, j);
			selector_mtf[0] = v;
			selectors[i] = v;
		}
	}
	if (nselectors > BZ2_MAX_SELECTORS)
		nselectors = BZ2_MAX_SELECTORS;

	tables = blk->tables;
	blk->bad_tables = 0;
	for (unsigned t = 0; t < ngroups; t++) {
		unsigned len;

		field = bz2_bits_pos(b);
		len = bz2_bits_get(b, 5);
		for (unsigned s = 0; s < alpha; s++) {
			for (;;) {
				if (len < 1 || len > BZ2_MAX_CODE_BITS)
					return fail(e, field, "bad Huffman table: a code length outside 1..20");
				if (!bz2_bits_get(b, 1))
					break;
				len += bz2_bits_get(b, 1) ? -1u : 1u;
			}
			lengths[s] = (uint8_t)len;
		}
		if (bz2_bits_truncated(b))
			return truncated(b, e);
		if (bz2_huffman_build(&tables[t], lengths, alpha))
			blk->bad_tables |= (uint8_t)(1u << t);
	}

	if (bz2_symbols_decode(b, blk, seq_to_byte, used, nselectors, max_block, plain, pace, e))
		return -1;
	if (bz2_bits_truncated(b))
		return truncated(b, e);
	if (blk->orig_ptr >= blk->nblock)
		return fail(e, bz2_bits_pos(b), "origin pointer past the block");
	return 0;
}

int bz2_block_decode(struct bz2_bits *b, uint32_t max_block, struct bz2_block *blk, unsigned plain,
		     struct bz2_walk_job *pace, struct bz2_error *e)
{
	blk->nruns = 0;
	/* Zero bits read past the end can look like any field's error: the
	 * truncation is the real one. */
	if (block_body(b, max_block, blk, plain, pace, e) == 0)
		return 0;
	if (bz2_bits_truncated(b))
		truncated(b, e);
	return -1;
}
