#include "bitw.h"

void bits_put(uint8_t *buf, size_t *bits, unsigned n, uint64_t v)
{
	for (unsigned i = n; i-- > 0;) {
		if ((v >> i) & 1)
			buf[*bits / 8] |= (uint8_t)(0x80 >> (*bits % 8));
		++*bits;
	}
}

void bitw_put(struct bitw *w, unsigned n, uint64_t v)
{
	bits_put(w->buf, &w->bits, n, v);
}
