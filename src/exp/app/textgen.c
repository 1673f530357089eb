/*
 * The markov model: 64 symbols (letters, digits, space and punctuation);
 * each of the 64x64 order-2 contexts ranks the symbols in its own seeded
 * order and draws rank r with probability 2^-(r+1), so a few successors
 * dominate each context as in prose (about 2 bits a byte). The repeat input
 * copies one random block of 4 KiB over the text and mutates 1 byte in 512.
 */
#include "exp/app/textgen.h"

#include "util/rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char alphabet[] = "etaoinshrdlucmfwypvbgkjqxzETAOINSHRDLUCMFWYPVBGKJQXZ0123456789 .";
#define NSYM 64
#define REPEAT_BLOCK 4096
#define MUTATE_ONE_IN 512

static const char *const names[] = {"random", "markov", "repeat"};

int textgen_parse(const char *name, enum textgen_kind *kind)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, names[i])) {
			*kind = (enum textgen_kind)i;
			return 0;
		}
	return -EINVAL;
}

const char *textgen_name(enum textgen_kind kind)
{
	return names[kind];
}

static void fill_markov(uint8_t *out, size_t n, struct rng *r)
{
	static uint8_t rank[NSYM * NSYM][NSYM];
	unsigned a = 0, b = 0;

	for (unsigned c = 0; c < NSYM * NSYM; c++) {
		for (unsigned i = 0; i < NSYM; i++)
			rank[c][i] = (uint8_t)i;
		for (unsigned i = NSYM - 1; i > 0; i--) {
			unsigned j = (unsigned)rng_below(r, i + 1);
			uint8_t t = rank[c][i];

			rank[c][i] = rank[c][j];
			rank[c][j] = t;
		}
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t bits = rng_next(r);
		unsigned rk = bits ? (unsigned)__builtin_ctzll(bits) : 63;
		unsigned sym = rank[a * NSYM + b][rk < NSYM ? rk : NSYM - 1];

		out[i] = (uint8_t)alphabet[sym];
		a = b;
		b = sym;
	}
}

void textgen_fill(uint8_t *out, size_t n, enum textgen_kind kind, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	switch (kind) {
	case TEXTGEN_RANDOM:
		for (size_t i = 0; i < n; i++)
			out[i] = (uint8_t)rng_next(&r);
		break;
	case TEXTGEN_MARKOV:
		fill_markov(out, n, &r);
		break;
	case TEXTGEN_REPEAT:
		for (size_t i = 0; i < n && i < REPEAT_BLOCK; i++)
			out[i] = (uint8_t)rng_next(&r);
		for (size_t i = REPEAT_BLOCK; i < n; i++)
			out[i] = rng_below(&r, MUTATE_ONE_IN) ? out[i - REPEAT_BLOCK] : (uint8_t)rng_next(&r);
		break;
	}
}
