/*
 * The bit reader: bzip2 packs every field most significant bit first with
 * no byte alignment inside a stream, so the reader keeps up to 64 pending
 * bits left-aligned in one word and refills a byte at a time. Past the end
 * it supplies zero bits and counts them, so a field cut off by truncation
 * reads as zeros and the caller asks bz2_bits_truncated before trusting it.
 */
#include "bzip2/bz2.h"

void bz2_bits_init(struct bz2_bits *b, const uint8_t *data, size_t len, uint64_t bit_offset)
{
	size_t byte = (size_t)(bit_offset / 8);

	b->base = data;
	b->end = data + len;
	b->p = data + (byte < len ? byte : len);
	b->buf = 0;
	b->count = 0;
	b->overrun = byte > len ? (uint64_t)(byte - len) * 8 : 0;
	if (bit_offset % 8)
		bz2_bits_get(b, (unsigned)(bit_offset % 8));
}

uint64_t bz2_bits_pos(const struct bz2_bits *b)
{
	return (uint64_t)(b->p - b->base) * 8 + b->overrun - b->count;
}

bool bz2_bits_truncated(const struct bz2_bits *b)
{
	return bz2_bits_pos(b) > (uint64_t)(b->end - b->base) * 8;
}
