/*
 * An open-addressed table of per-line entries, for the trace's analyses:
 * each entry's first member is a uint64_t key, the line number + 1 (0
 * marks an empty slot), and the capacity is a power of two kept at least
 * twice the entries held, so a probe ends at the key or at an empty slot.
 * A trace can touch millions of lines, too many to index by line number.
 */
#ifndef MLPSCOPE_ANALYSE_LINE_TABLE_H
#define MLPSCOPE_ANALYSE_LINE_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The slot holding key in tab (cap entries of stride bytes), or the empty
 * slot it would take. Inline: every access of a trace asks it. */
static inline size_t line_table_slot(const void *tab, size_t stride, size_t cap, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull, k;
	size_t i = (size_t)(h ^ (h >> 32)) & (cap - 1);

	for (;; i = (i + 1) & (cap - 1)) {
		memcpy(&k, (const unsigned char *)tab + i * stride, sizeof(k));
		if (!k || k == key)
			return i;
	}
}

/* A table of twice *cap entries (4096 from none) holding old's entries,
 * old freed and *cap updated; NULL when out of memory (old and *cap
 * untouched). */
void *line_table_grow(void *old, size_t *cap, size_t stride);

#endif
