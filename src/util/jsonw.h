/*
 * A small streaming JSON writer: objects, arrays, strings with RFC 8259
 * escaping, and numbers (non-finite doubles become null, since JSON has no
 * NaN). Indented two spaces so a result file diffs well.
 */
#ifndef MLPSCOPE_UTIL_JSONW_H
#define MLPSCOPE_UTIL_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 32

struct jsonw {
	FILE *f;
	int depth;
	bool has_items[JSONW_MAX_DEPTH];
};

void jsonw_init(struct jsonw *w, FILE *f);
/* key is NULL inside arrays and for the top-level value. */
void jsonw_object_begin(struct jsonw *w, const char *key);
void jsonw_object_end(struct jsonw *w);
void jsonw_array_begin(struct jsonw *w, const char *key);
void jsonw_array_end(struct jsonw *w);
void jsonw_string(struct jsonw *w, const char *key, const char *value);
void jsonw_double(struct jsonw *w, const char *key, double value);
/* An array of n doubles under key (non-finite ones as null). */
void jsonw_double_array(struct jsonw *w, const char *key, const double *v, size_t n);
void jsonw_int(struct jsonw *w, const char *key, int64_t value);
void jsonw_uint(struct jsonw *w, const char *key, uint64_t value);
void jsonw_bool(struct jsonw *w, const char *key, bool value);
/* A 64-bit hash as a string of 16 lowercase hex digits: a JSON number
 * would lose the bits past 2^53 in most readers. */
void jsonw_hex64(struct jsonw *w, const char *key, uint64_t value);
void jsonw_null(struct jsonw *w, const char *key);
/* The value under key when known, else null: a figure the run could not
 * obtain is written as null, never as a made-up 0. */
void jsonw_string_or_null(struct jsonw *w, const char *key, bool known, const char *value);
void jsonw_double_or_null(struct jsonw *w, const char *key, bool known, double value);
void jsonw_int_or_null(struct jsonw *w, const char *key, bool known, int64_t value);
void jsonw_uint_or_null(struct jsonw *w, const char *key, bool known, uint64_t value);
void jsonw_bool_or_null(struct jsonw *w, const char *key, bool known, bool value);
/* Ends the document with a newline. */
void jsonw_finish(struct jsonw *w);

#endif
