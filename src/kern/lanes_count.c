/*
 * Lookup in the table written at build time from the disassembly of
 * kern/lanes.gen.c's object (build/gen/lanes_insns.h). The counts describe
 * the binary this file is linked into, which is the binary that measures.
 */
#include "kern/lanes_count.h"

#include "lanes_insns.h"

#include <string.h>

bool lanes_count_for(unsigned k, struct lanes_count *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < sizeof(lanes_loop_counts) / sizeof(lanes_loop_counts[0]); i++) {
		const unsigned short *row = lanes_loop_counts[i];

		if (row[0] != k || !k || !row[1])
			continue;
		c->instructions_per_access = (double)row[1] / k;
		c->loads_per_access = (double)row[2] / k;
		c->stores_per_access = (double)row[3] / k;
		return true;
	}
	return false;
}

const char *lanes_count_source(void)
{
	return LANES_INSNS_SOURCE;
}
