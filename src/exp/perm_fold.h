/*
 * One hash for a result built from several chains: each chain's FNV-1a
 * permutation hash folded, in build order, into an FNV-1a over those
 * hashes' bytes. Two runs with the same figure built the same cycles, so a
 * result with many chains is still tied to its layout by one number.
 */
#ifndef MLPSCOPE_EXP_PERM_FOLD_H
#define MLPSCOPE_EXP_PERM_FOLD_H

#include <stdint.h>

#define PERM_FOLD_BASIS 0xcbf29ce484222325ull

static inline uint64_t perm_hash_fold(uint64_t acc, uint64_t chain_hash)
{
	for (unsigned b = 0; b < 8; b++) {
		acc ^= (chain_hash >> (8 * b)) & 0xff;
		acc *= 0x100000001b3ull;
	}
	return acc;
}

#endif
