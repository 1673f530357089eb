/*
 * The read-size kernel. The payload loads do not feed the next address, so
 * they overlap the chase; what they cost is the extra lines they bring in
 * (a node spanning or crossing a line needs two) and the load slots they
 * take. The sum keeps them live without a dependency on the chase.
 */
#include "kern/payload.h"

uintptr_t payload_walk(uintptr_t *lanes, unsigned k, size_t steps, unsigned words)
{
	uintptr_t acc = 0;

	for (; steps; steps--) {
		for (unsigned i = 0; i < k; i++) {
			const uintptr_t *n = (const uintptr_t *)lanes[i];

			for (unsigned w = 1; w < words; w++)
				acc += n[w];
			lanes[i] = n[0];
		}
	}
	return acc ^ lanes[0];
}
