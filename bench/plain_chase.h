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

#endif
