/*
 * One Huffman coding table of a block: canonical codes (shorter codes
 * first, ties by symbol order), lengths 1..20 as the format allows. Codes
 * up to BZ2_FAST_BITS long decode with one table lookup on the next bits;
 * longer ones (rare: bzip2's encoder caps lengths at 17 and frequent
 * symbols get short codes) compare the next 20 bits against each length's
 * limit. The table path looks up pairs of short codes (pair_build). An
 * oversubscribed set of lengths is refused here; an incomplete
 * one is accepted and a pattern outside it refused when it is read.
 */
#include "bzip2/bz2.h"

#include <string.h>

/* Each 10-bit pattern's first code, and the second when it also ends
 * inside the 10 bits: text's frequent MTF symbols and RUNA/RUNB take 2-4
 * bits, so most lookups yield two symbols and the bit position, the loop's
 * serial dependency, advances once for both. */
static void pair_build(struct bz2_huffman *h, unsigned eob)
{
	const uint32_t mask = (1u << BZ2_FAST_BITS) - 1;

	for (uint32_t x = 0; x <= mask; x++) {
		uint32_t e1 = h->fast[x], l1 = e1 & 31, s1 = e1 >> 5, e2, l2;

		if (!e1) {
			h->pair[x] = 0;
			continue;
		}
		h->pair[x] = l1 | l1 << 5 | s1 << 10;
		if (s1 == eob || l1 == BZ2_FAST_BITS)
			continue;
		e2 = h->fast[(x << l1) & mask];
		l2 = e2 & 31;
		/* EOB only ever first: the split decode tests the first
		 * symbol alone for the block's end. */
		if (e2 && l2 <= BZ2_FAST_BITS - l1 && (e2 >> 5) != eob)
			h->pair[x] = (l1 + l2) | l1 << 5 | BZ2_PAIR_TWO | s1 << 10 | (e2 >> 5) << 19;
	}
}

int bz2_huffman_build(struct bz2_huffman *h, const uint8_t *lengths, unsigned alpha)
{
	unsigned count[BZ2_MAX_CODE_BITS + 1] = {0};
	uint32_t code = 0, kraft = 0, first[BZ2_MAX_CODE_BITS + 2];
	unsigned idx = 0, start[BZ2_MAX_CODE_BITS + 1];

	for (unsigned s = 0; s < alpha; s++)
		count[lengths[s]]++;
	for (unsigned l = 1; l <= BZ2_MAX_CODE_BITS; l++)
		kraft += count[l] << (BZ2_MAX_CODE_BITS - l);
	if (kraft > (1u << BZ2_MAX_CODE_BITS))
		return -1;
	for (unsigned l = 1; l <= BZ2_MAX_CODE_BITS; l++) {
		first[l] = code;
		start[l] = idx;
		h->offset[l] = idx - code;
		code = (code + count[l]) << 1;
		idx += count[l];
		h->limit[l] = (first[l] + count[l]) << (BZ2_MAX_CODE_BITS - l);
	}
	h->limit[BZ2_MAX_CODE_BITS + 1] = 0;
	memset(h->fast, 0, sizeof(h->fast));
	/* Symbols in (length, symbol) order give each its code. */
	{
		unsigned next[BZ2_MAX_CODE_BITS + 1];

		memcpy(next, start, sizeof(next));
		for (unsigned s = 0; s < alpha; s++)
			if (lengths[s])
				h->perm[next[lengths[s]]++] = (uint16_t)s;
	}
	for (unsigned l = 1; l <= BZ2_FAST_BITS; l++)
		for (unsigned i = 0; i < count[l]; i++) {
			uint32_t c = first[l] + i, lo = c << (BZ2_FAST_BITS - l), n = 1u << (BZ2_FAST_BITS - l);
			uint16_t e = (uint16_t)(h->perm[start[l] + i] << 5 | l);

			for (uint32_t j = 0; j < n; j++)
				h->fast[lo + j] = e;
		}
	pair_build(h, alpha - 1);
	return 0;
}
