/*
 * The T-vector build is the decoder's "table build" stage: a counting pass,
 * then one scattered store per row (tt[C[c]++] = row << 8 | c), the forward
 * successor of LF. The end mark takes no byte: its row is row 0 and the row
 * whose last column holds it is skipped, so the walk never needs a 257th
 * symbol.
 */
#include "exp/app/bwt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool bwt_table_wide(size_t rows)
{
	return rows > BWT_NARROW_MAX_ROWS;
}

size_t bwt_table_bytes(size_t rows)
{
	return rows * (bwt_table_wide(rows) ? sizeof(uint64_t) : sizeof(uint32_t));
}

/* first[c]: the first row whose suffix starts with byte c (row 0 is the
 * end mark's). */
static void first_rows(const uint8_t *bwt, size_t rows, size_t primary, size_t first[256])
{
	size_t count[256] = {0}, sum = 1;

	for (size_t i = 0; i < rows; i++)
		count[bwt[i]]++;
	count[bwt[primary]]--;
	for (int c = 0; c < 256; c++) {
		first[c] = sum;
		sum += count[c];
	}
}

void bwt_table_build(const uint8_t *bwt, size_t rows, size_t primary, void *table, bool wide)
{
	size_t next[256];

	first_rows(bwt, rows, primary, next);
	if (wide) {
		uint64_t *tt = table;

		tt[0] = (uint64_t)primary << 8;
		for (size_t i = 0; i < rows; i++)
			if (i != primary)
				tt[next[bwt[i]]++] = (uint64_t)i << 8 | bwt[i];
	} else {
		uint32_t *tt = table;

		tt[0] = (uint32_t)primary << 8;
		for (size_t i = 0; i < rows; i++)
			if (i != primary)
				tt[next[bwt[i]]++] = (uint32_t)i << 8 | bwt[i];
	}
}

int bwt_invert_reference(const uint8_t *bwt, size_t rows, size_t primary, uint8_t *text)
{
	size_t first[256], seen[256] = {0}, *rank = malloc(rows * sizeof(*rank)), row = 0;

	if (!rank)
		return -ENOMEM;
	first_rows(bwt, rows, primary, first);
	for (size_t i = 0; i < rows; i++)
		if (i != primary)
			rank[i] = seen[bwt[i]]++;
	/* Row 0 is the empty suffix; its last column is the text's last byte. */
	for (size_t p = rows - 1; p-- > 0;) {
		text[p] = bwt[row];
		row = first[bwt[row]] + rank[row];
	}
	free(rank);
	return 0;
}

uint64_t bwt_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}
