/*
 * xoshiro256** (Blackman and Vigna): fast, 256-bit state, good enough that
 * a permutation of 2^27 nodes shows no structure a cache could exploit.
 * Bounded draws use the multiply-high method with rejection, which is exact.
 */
#include "util/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * bound;
	uint64_t low = (uint64_t)m;

	if (low < bound) {
		uint64_t threshold = -bound % bound;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * bound;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}
