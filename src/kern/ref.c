/*
 * The reference walk: one lane at a time, one dependent load per hop, no
 * unrolling and no interleaving, so it is correct by reading. It is slow on
 * purpose (lanes do not overlap) and is never used for a measurement.
 */
#include "kern/ref.h"

static uintptr_t hop(uintptr_t p)
{
	return *(const uintptr_t *)p;
}

uintptr_t ref_lanes(const uintptr_t *starts, unsigned lanes, size_t steps)
{
	uintptr_t x = 0;

	for (unsigned l = 0; l < lanes; l++) {
		uintptr_t p = starts[l];

		for (size_t s = 0; s < steps; s++)
			p = hop(p);
		x ^= p;
	}
	return x;
}

uintptr_t ref_unrolled(const uintptr_t *starts, unsigned unroll, size_t steps)
{
	uintptr_t p = starts[0];

	for (size_t s = 0; s < (size_t)unroll * steps; s++)
		p = hop(p);
	return p;
}

void ref_walk(uintptr_t start, size_t hops, uintptr_t *visited)
{
	visited[0] = start;
	for (size_t i = 1; i <= hops; i++)
		visited[i] = hop(visited[i - 1]);
}
