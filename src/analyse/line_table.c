/*
 * Growing a per-line table: every held entry moved to its slot in a table
 * twice the size (a slot depends on the capacity).
 */
#include "analyse/line_table.h"

#include <stdlib.h>

#define LINE_TABLE_INITIAL ((size_t)1 << 12)

void *line_table_grow(void *old, size_t *cap, size_t stride)
{
	size_t new_cap = *cap ? 2 * *cap : LINE_TABLE_INITIAL;
	unsigned char *tab = calloc(new_cap, stride);
	const unsigned char *e = old;
	uint64_t key;

	if (!tab)
		return NULL;
	for (size_t i = 0; i < *cap; i++, e += stride) {
		memcpy(&key, e, sizeof(key));
		if (key)
			memcpy(tab + line_table_slot(tab, stride, new_cap, key) * stride, e, stride);
	}
	free(old);
	*cap = new_cap;
	return tab;
}
