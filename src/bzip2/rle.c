/*
 * The first run-length stage, undone: the encoder wrote every run of 4 to
 * 255 equal bytes as the first 4 and then one byte holding how many more
 * (0..251), before the BWT. Runs never cross a block, so each block is
 * expanded alone. A block that ends right after 4 equal bytes has no count
 * byte and expands to those 4 (libbz2 does the same).
 */
#include "bzip2/bz2.h"

#include <string.h>

size_t bz2_rle_size(const uint8_t *in, size_t n)
{
	size_t out = 0, i = 0;

	while (i < n) {
		uint8_t b = in[i++];
		unsigned run = 1;

		while (i < n && run < 4 && in[i] == b) {
			i++;
			run++;
		}
		out += run;
		if (run == 4 && i < n)
			out += in[i++];
	}
	return out;
}

size_t bz2_rle_decode(const uint8_t *in, size_t n, uint8_t *out)
{
	uint8_t *o = out;
	size_t i = 0;

	while (i < n) {
		uint8_t b = in[i++];
		unsigned run = 1;

		*o++ = b;
		while (i < n && run < 4 && in[i] == b) {
			*o++ = b;
			i++;
			run++;
		}
		if (run == 4 && i < n) {
			unsigned c = in[i++];

			memset(o, b, c);
			o += c;
		}
	}
	return (size_t)(o - out);
}
