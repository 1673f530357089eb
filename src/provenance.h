/*
 * Provenance: the binary's hash, compiler and flags, kernel, time, seed.
 */
#ifndef MLPSCOPE_PROVENANCE_H
#define MLPSCOPE_PROVENANCE_H

#include "exp/result.h"

/* cpu: the CPU the run is pinned to, -1 when none. */
void provenance_collect(struct provenance *p, uint64_t seed, int cpu);

/* "0.1.0", from the Makefile. */
const char *provenance_version(void);

#endif
