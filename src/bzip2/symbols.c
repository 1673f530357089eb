/*
 * A block's symbols, after its headers: each group of 50 is coded by the
 * table its selector names; RUNA/RUNB spell a run of the front byte as a
 * bijective base-2 number, every other symbol moves a byte to the front of
 * the MTF list and emits it, and EOB ends the block. Two axes, each with a
 * plain and a fast path, compiled from one body as the three loops that
 * keep at least one path plain, so the report can say what each bought
 * alone (both fast is symbols_split.c, in two passes a group):
 *   Huffman  plain: one symbol per lookup, the reader refilled a byte at a
 *            time, its bounds tested per symbol; table: one or two symbols
 *            per lookup (huffman.c's pair table, 4 KiB: six fit the L1),
 *            and where the group's worst case (50 x 20 bits) lies inside
 *            the input, the group runs with a branchless 8-byte refill and
 *            no bounds test at all.
 *   MTF      plain: a byte array and memmove (a libc call per symbol);
 *            words: its first 16 bytes kept as two little-endian 64-bit
 *            words in registers across symbols (7-Zip keeps the list in
 *            words), memmove only for indices past them.
 * Error offsets name the symbol's bit on the plain path and the group's
 * current bit on the table path (within 50 symbols of it).
 */
#include "bzip2/bz2.h"
#include "bzip2/mtf_words.h"

#include <stdio.h>
#include <string.h>

#define RUNA 0
#define RUNB 1

static int fail(struct bz2_error *e, uint64_t bit, const char *what)
{
	e->byte_offset = bit / 8;
	snprintf(e->what, sizeof(e->what), "%s", what);
	return -1;
}

/* One symbol s into the block; jumps to DONE at EOB, to BAD with why set. */
#define SYMBOL(s, BAD, DONE)                                                                        \
	do {                                                                               \
		unsigned s_ = (s);                                                         \
		if (s_ <= RUNB) {                                                          \
			if (!weight) {                                                     \
				run = 0;                                                   \
				weight = 1;                                                \
			}                                                                  \
			/* RUNA adds the weight, RUNB twice it: a bijective base-2 \
			 * number, least significant digit first. */                       \
			run += weight << s_;                                               \
			weight <<= 1;                                                      \
			if (run > max_block) {                                             \
				why = "a zero run longer than the block";                  \
				goto BAD;                                                  \
			}                                                                  \
			break;                                                             \
		}                                                                          \
		if (weight) {                                                              \
			uint8_t front_ = words ? (uint8_t)m0 : mtf[0];                     \
			if (run > max_block - n) {                                         \
				why = "more bytes than the block size allows";             \
				goto BAD;                                                  \
			}                                                                  \
			if (run <= 8 && max_block - n >= 8) {                              \
				uint64_t eight_ = 0x0101010101010101ull * front_;          \
				memcpy(out + n, &eight_, 8);                               \
			} else {                                                           \
				memset(out + n, front_, run);                              \
			}                                                                  \
			counts[front_] += run;                                             \
			n += run;                                                          \
			weight = 0;                                                        \
		}                                                                          \
		if (s_ == eob)                                                             \
			goto DONE;                                                        \
		if (n >= max_block) {                                                      \
			why = "more bytes than the block size allows";                     \
			goto BAD;                                                          \
		}                                                                          \
		{                                                                          \
			uint8_t byte_;                                                     \
			if (words) {                                                       \
				byte_ = mtf_words_move(mtf, &m0, &m1, s_ - 1);                 \
			} else {                                                           \
				byte_ = mtf[s_ - 1];                                       \
				memmove(mtf + 1, mtf, s_ - 1);                             \
				mtf[0] = byte_;                                            \
			}                                                                  \
			out[n++] = byte_;                                                  \
			counts[byte_]++;                                                   \
		}                                                                          \
	} while (0)

static inline __attribute__((always_inline)) int symbols(struct bz2_bits *b, struct bz2_block *blk,
							   const uint8_t *seq_to_byte, unsigned used,
							   uint32_t nselectors, uint32_t max_block,
							   struct bz2_walk_job *pace, struct bz2_error *e,
							   const bool table, const bool words)
{
	uint8_t mtf[256];
	uint32_t *counts = blk->counts, n = 0, run = 0, weight = 0, group = 0;
	uint8_t *out = blk->bwt;
	unsigned eob = used + 1;
	const char *why = NULL;
	uint64_t field = 0;
	uint64_t pace_at = pace ? 0 : UINT64_MAX;
	uint64_t m0, m1;  /* the words path's list bytes 0..15 (mtf[] then holds 16..255) */

	/* The list holds the bytes themselves, not their symbol-map indices:
	 * one lookup less per symbol. */
	memset(mtf, 0, sizeof(mtf));
	memcpy(mtf, seq_to_byte, used);
	mtf_words_init(mtf, &m0, &m1);
	memset(counts, 0, sizeof(blk->counts));
	for (;;) {
		const struct bz2_huffman *h;
		unsigned left = BZ2_GROUP_SYMBOLS;

		if (group >= nselectors)
			return fail(e, bz2_bits_pos(b), "more symbols than the selectors cover");
		if (bz2_bits_truncated(b))
			return fail(e, (uint64_t)(b->end - b->base) * 8, "truncated: the input ends inside this block");
		if (blk->bad_tables >> blk->selectors[group] & 1)
			return fail(e, bz2_bits_pos(b), "bad Huffman table: more codes than the lengths allow");
		h = &blk->tables[blk->selectors[group++]];
		if (table && b->end - b->p >= BZ2_GROUP_SAFE_BYTES) {
			const uint8_t *p = b->p;
			uint64_t buf = b->buf;
			unsigned count = b->count;

			while (left) {
				uint32_t x;

				/* The previous block's walk, a round of its lanes
				 * each time this decode has emitted as many bytes
				 * as the walk has rows: the two blocks stay in
				 * step, and each lane's prefetched row has a
				 * round of decode to arrive in. */
				if (n >= pace_at)
					pace_at = bz2_walk_pace(pace, n + 1);

				/* Branchless: 56..63 bits after it, enough for a
				 * 20-bit code; p + 8 stays inside the input by the
				 * group test above. */
				buf |= bz2_load_be64(p) >> count;
				p += (63 - count) >> 3;
				count |= 56;
				x = h->pair[buf >> (64 - BZ2_FAST_BITS)];
				if ((x & BZ2_PAIR_TWO) && left >= 2) {
					buf <<= x & 31;
					count -= x & 31;
					left -= 2;
					SYMBOL((x >> 10) & 511, bad, done);
					SYMBOL(x >> 19, bad, done);
				} else if (x) {
					unsigned l1 = (x >> 5) & 15;

					buf <<= l1;
					count -= l1;
					left--;
					SYMBOL((x >> 10) & 511, bad, done);
				} else {
					unsigned len;
					int s = bz2_huffman_long(h, (uint32_t)(buf >> (64 - BZ2_MAX_CODE_BITS)), &len);

					if (s < 0) {
						b->p = p, b->buf = buf, b->count = count;
						field = bz2_bits_pos(b);
						return fail(e, field, "bad Huffman code: bits that are no code of the table");
					}
					buf <<= len;
					count -= len;
					left--;
					SYMBOL((unsigned)s, bad, done);
				}
				continue;
bad:
				b->p = p, b->buf = buf, b->count = count;
				return fail(e, bz2_bits_pos(b), why);
done:
				b->p = p, b->buf = buf, b->count = count;
				goto end;
			}
			b->p = p, b->buf = buf, b->count = count;
			continue;
		}
		while (left) {
			int s;

			left--;
			field = bz2_bits_pos(b);
			s = bz2_huffman_decode(h, b);
			if (s < 0)
				return fail(e, field, "bad Huffman code: bits that are no code of the table");
			SYMBOL((unsigned)s, bad_plain, end);
			continue;
bad_plain:
			return fail(e, field, why);
		}
	}
end:
	blk->nblock = n;
	return 0;
}

#define SYMBOLS(name, table, words)                                                                          \
	static __attribute__((noinline)) int name(struct bz2_bits *b, struct bz2_block *blk,                 \
						  const uint8_t *seq_to_byte, unsigned used, uint32_t nselectors, \
						  uint32_t max_block, struct bz2_walk_job *pace,                 \
						  struct bz2_error *e)                                           \
	{                                                                                                    \
		return symbols(b, blk, seq_to_byte, used, nselectors, max_block, pace, e, table, words);      \
	}
SYMBOLS(symbols_plain, false, false)
SYMBOLS(symbols_table, true, false)
SYMBOLS(symbols_words, false, true)

int bz2_symbols_decode(struct bz2_bits *b, struct bz2_block *blk, const uint8_t *seq_to_byte, unsigned used,
		       uint32_t nselectors, uint32_t max_block, unsigned plain, struct bz2_walk_job *pace,
		       struct bz2_error *e)
{
	bool table = !(plain & BZ2_PLAIN_HUFFMAN), words = !(plain & BZ2_PLAIN_MTF);

	if (table && words)
		return bz2_symbols_split(b, blk, seq_to_byte, used, nselectors, max_block, plain & BZ2_DECODE_LANE, pace,
					 e);
	if (table)
		return symbols_table(b, blk, seq_to_byte, used, nselectors, max_block, pace, e);
	if (words)
		return symbols_words(b, blk, seq_to_byte, used, nselectors, max_block, pace, e);
	return symbols_plain(b, blk, seq_to_byte, used, nselectors, max_block, pace, e);
}
