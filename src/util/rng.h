/*
 * mlpscope's own PRNG, so a seed names the same permutation on every libc
 * (rand() and random() differ between glibc, musl and the BSDs).
 * xoshiro256** seeded through splitmix64.
 */
#ifndef MLPSCOPE_UTIL_RNG_H
#define MLPSCOPE_UTIL_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t bound);

#endif
