/*
 * Seeded inputs for the app section's walks: uniform random bytes, text-like
 * bytes from a skewed order-2 model, and a repeated block with mutations
 * (the long repeats a suffix sorter and a BWT meet in real data). The same
 * seed gives the same bytes on every libc (our own PRNG).
 */
#ifndef MLPSCOPE_EXP_APP_TEXTGEN_H
#define MLPSCOPE_EXP_APP_TEXTGEN_H

#include <stddef.h>
#include <stdint.h>

enum textgen_kind { TEXTGEN_RANDOM, TEXTGEN_MARKOV, TEXTGEN_REPEAT };

/* "random", "markov", "repeat" -> kind; 0 or -EINVAL. */
int textgen_parse(const char *name, enum textgen_kind *kind);
const char *textgen_name(enum textgen_kind kind);

void textgen_fill(uint8_t *out, size_t n, enum textgen_kind kind, uint64_t seed);

#endif
