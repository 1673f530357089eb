/*
 * The pieces every plain chase in bench/ shares: a clock, a seeded
 * generator for the permutation, and the walk itself. Independent of
 * mlpscope's code on purpose: these programs are the simplest method the
 * instrument is checked against, so they must not share its mistakes.
 */
#ifndef MLPSCOPE_BENCH_PLAIN_CHASE_H
#define MLPSCOPE_BENCH_PLAIN_CHASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t rng_state = 88172645463325252ull;

/* xorshift64: the same permutation for the same seed on every run. */
static uint64_t next_rand(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The volatile sink keeps the walk from being optimised away. */
static void *volatile sink;

static void *walk(void *p, size_t loads)
{
	while (loads--)
		p = *(void **)p;
	return p;
}

/* Links n lines of `line` bytes from b into one random cycle (Sattolo's
 * shuffle: j < i, so every line is visited before the walk returns).
 * -1 when the permutation cannot be allocated. */
static int link_one_cycle(char *b, size_t n, size_t line)
{
	uint32_t *perm = malloc(n * sizeof(*perm));

	if (!perm)
		return -1;
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = next_rand() % i;
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(b + i * line) = b + (size_t)perm[i] * line;
	free(perm);
	return 0;
}

#endif
