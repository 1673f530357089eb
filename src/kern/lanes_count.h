/*
 * What one access of each lanes kernel costs the core in instructions:
 * the instructions, loads and stores in lanes_K's loop, counted from the
 * compiled object at build time (tools/count_lanes_insns.sh), divided by K.
 * Past about 12 lanes on x86-64 the compiler spills lanes to the stack, so
 * an access costs more than the one load the generator wrote.
 */
#ifndef MLPSCOPE_KERN_LANES_COUNT_H
#define MLPSCOPE_KERN_LANES_COUNT_H

#include <stdbool.h>

struct lanes_count {
	double instructions_per_access;
	double loads_per_access;    /* the chase load plus stack reloads */
	double stores_per_access;   /* stack spills */
};

/* Counts for lanes_kernel(k); false (and zeros) when the build could not
 * count them (no objdump, or no loop found in that kernel). */
bool lanes_count_for(unsigned k, struct lanes_count *c);

/* Words: how the counts were obtained, or why they were not. */
const char *lanes_count_source(void);

#endif
