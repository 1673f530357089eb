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

/*
 * Writers that list a struct's scalar members in order use a table: one row
 * per key, naming which of the calls above writes it and the member, so the
 * order of keys reads as data and one loop writes them. JSONW_FIELD refuses
 * to compile when the member's type is not the one that call takes (a bool
 * written as a uint, a char array as a string pointer), so a row cannot
 * quietly write other bytes than the call it replaces.
 */
enum jsonw_kind {
	JSONW_UINT,    /* jsonw_uint: an unsigned integer of any width */
	JSONW_INT,     /* jsonw_int: a signed integer of any width */
	JSONW_DOUBLE,  /* jsonw_double: a double */
	JSONW_BOOL,    /* jsonw_bool: a bool */
	JSONW_STRING,  /* jsonw_string: a char pointer (NULL as "") */
	JSONW_TEXT,    /* jsonw_string: a char array holding the string */
	JSONW_HEX64,   /* jsonw_hex64: a 64-bit unsigned integer */
};

struct jsonw_field {
	const char *key;
	enum jsonw_kind kind;
	size_t bytes;   /* the member's size: which integer width to read */
	size_t offset;  /* offsetof the member in the struct the table is for */
};

/* The kind a member of this type is written as (arrays decay to pointers);
 * -1 for a type no kind takes. */
#define JSONW_KIND_OF(x) _Generic((x), \
	bool: JSONW_BOOL, double: JSONW_DOUBLE, \
	unsigned char: JSONW_UINT, unsigned short: JSONW_UINT, unsigned int: JSONW_UINT, \
	unsigned long: JSONW_UINT, unsigned long long: JSONW_UINT, \
	signed char: JSONW_INT, short: JSONW_INT, int: JSONW_INT, long: JSONW_INT, long long: JSONW_INT, \
	char *: JSONW_STRING, const char *: JSONW_STRING, default: -1)
#define JSONW_IS_POINTER(x) (__builtin_types_compatible_p(__typeof__(x), char *) || \
			     __builtin_types_compatible_p(__typeof__(x), const char *))
#define JSONW_TAKES(kind, x)                                                                \
	((kind) == JSONW_TEXT ? JSONW_KIND_OF(x) == JSONW_STRING && !JSONW_IS_POINTER(x) :     \
	 (kind) == JSONW_STRING ? JSONW_KIND_OF(x) == JSONW_STRING && JSONW_IS_POINTER(x) :    \
	 (kind) == JSONW_HEX64 ? JSONW_KIND_OF(x) == JSONW_UINT && sizeof(x) == 8 :             \
	 JSONW_KIND_OF(x) == (int)(kind))

/* A row: JSONW_FIELD(DOUBLE, "latency_ns", struct latency_point, latency_ns).
 * member may be a path into nested structs (layout.expected_lines). */
#define JSONW_FIELD(kind, key, type, member)                                              \
	{ (key), JSONW_##kind, sizeof(((type *)0)->member),                                   \
	  offsetof(type, member) + 0 * sizeof(char[JSONW_TAKES(JSONW_##kind, ((type *)0)->member) ? 1 : -1]) }

#define JSONW_NFIELDS(table) (sizeof(table) / sizeof((table)[0]))

/* Each of the n rows of fields, read from the struct at base, in order. */
void jsonw_fields(struct jsonw *w, const void *base, const struct jsonw_field *fields, size_t n);

/* The rows of fields when known, else each of their keys as null: figures
 * a run obtains together or not at all (a step found, a check that ran),
 * so a missing one is never written as a made-up 0. */
void jsonw_fields_or_null(struct jsonw *w, const void *base, const struct jsonw_field *fields, size_t n, bool known);

/* The object under key (NULL inside an array) holding the rows of fields. */
void jsonw_fields_object(struct jsonw *w, const char *key, const void *base, const struct jsonw_field *fields,
			 size_t n);

/* An array under key of count objects, the i-th written by fields from the
 * struct at base + i * stride. */
void jsonw_object_array(struct jsonw *w, const char *key, const void *base, size_t count, size_t stride,
			const struct jsonw_field *fields, size_t n);

/* Writes the members of one element's object (the braces are the caller's). */
typedef void (*jsonw_members_fn)(struct jsonw *w, const void *element);
/* An array under key of count objects, the i-th's members written by
 * members(w, base + i * stride): for objects a table alone cannot write
 * (a name looked up, a value or null, a nested array). */
void jsonw_object_array_each(struct jsonw *w, const char *key, const void *base, size_t count, size_t stride,
			     jsonw_members_fn members);
/* The common calls: a whole table, as fields, an object or an array of
 * objects (from an array of structs, count of them). */
#define JSONW_FIELDS(w, base, table) jsonw_fields((w), (base), (table), JSONW_NFIELDS(table))
#define JSONW_FIELDS_OR_NULL(w, base, table, known) \
	jsonw_fields_or_null((w), (base), (table), JSONW_NFIELDS(table), (known))
#define JSONW_FIELDS_OBJECT(w, key, base, table) \
	jsonw_fields_object((w), (key), (base), (table), JSONW_NFIELDS(table))
#define JSONW_OBJECT_ARRAY(w, key, array, count, table) \
	jsonw_object_array((w), (key), (array), (count), sizeof((array)[0]), (table), JSONW_NFIELDS(table))
#define JSONW_OBJECT_ARRAY_EACH(w, key, array, count, members) \
	jsonw_object_array_each((w), (key), (array), (count), sizeof((array)[0]), (members))

#endif
