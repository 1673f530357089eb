/*
 * The gather control's loop: independent loads from a random index stream.
 * The index array is read sequentially (the prefetcher follows it); every
 * a[idx[i]] is a random line. Nothing else in the loop.
 */
#include "kern/app_walks.h"

uint64_t app_gather_plain(const uint64_t *a, const uint32_t *idx, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += a[idx[i]];
	return sum;
}
