#include "bitw.h"

void bitw_put(struct bitw *w, unsigned n, uint64_t v)
{
	for (unsigned i = n; i-- > 0;) {
		if ((v >> i) & 1)
			w->buf[w->bits / 8] |= (uint8_t)(0x80 >> (w->bits % 8));
		w->bits++;
	}
}
