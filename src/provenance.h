/*
 * Provenance: the binary's hash, compiler and flags, kernel, time, seed.
 */
#ifndef MLPSCOPE_PROVENANCE_H
#define MLPSCOPE_PROVENANCE_H

#include "exp/result.h"

void provenance_collect(struct provenance *p, uint64_t seed);

/* "0.1.0", from the Makefile. */
const char *provenance_version(void);

#endif
