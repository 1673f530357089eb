/* A growable byte buffer (grow_buf.h). */
#include "grow_buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int grow_buf_append(uint8_t **buf, size_t *len, size_t *cap, const uint8_t *bytes, size_t n)
{
	if (*len + n > *cap) {
		size_t want = (*len + n) * 2 + 64;
		uint8_t *p = realloc(*buf, want);

		if (!p)
			return -ENOMEM;
		*buf = p;
		*cap = want;
	}
	if (n)
		memcpy(*buf + *len, bytes, n);
	*len += n;
	return 0;
}
