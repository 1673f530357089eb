/*
 * A small, strict JSON reader (RFC 8259): the whole document becomes a tree
 * of values that commands look up by key path ("mlp.small.sweep[0].lanes").
 * Strict: no comments, trailing commas, NaN, leading zeros, bad escapes,
 * raw control characters or invalid UTF-8; a truncated document is an error
 * with its line and column, never a partial tree. The parser keeps its own
 * stack, so a deeply nested input hits the depth limit instead of the C
 * stack. It does not stream, write, or keep number text (doubles only).
 */
#ifndef MLPSCOPE_UTIL_JSONR_H
#define MLPSCOPE_UTIL_JSONR_H

#include <stdbool.h>
#include <stddef.h>

#define JSONR_DEFAULT_MAX_DEPTH 64
#define JSONR_MAX_FILE_BYTES ((size_t)256 << 20)

enum jsonr_type { JSONR_NULL, JSONR_BOOL, JSONR_NUMBER, JSONR_STRING, JSONR_ARRAY, JSONR_OBJECT };

struct jsonr_value {
	enum jsonr_type type;
	const char *key;            /* member name inside an object, else NULL */
	size_t key_len;
	struct jsonr_value *next;   /* next member / element of the parent */
	union {
		bool boolean;
		double number;
		struct {
			const char *bytes;  /* NUL-terminated; may hold \u0000 as a NUL */
			size_t len;
		} string;
		struct {
			struct jsonr_value *first, *last;
			size_t count;
		} children;         /* arrays and objects */
	} u;
};

struct jsonr_block;
struct jsonr_doc {
	struct jsonr_value *root;
	struct jsonr_block *blocks; /* owned memory */
};

/* Parse len bytes of text (NUL not required). max_depth 0 means
 * JSONR_DEFAULT_MAX_DEPTH. 0; -EBADMSG for malformed, truncated or too deeply
 * nested input, with err saying "line L, column C: what"; -E2BIG for more
 * than 4,194,304 values (each costs ~64 bytes of tree); -ENOMEM. The doc
 * is empty (root NULL) on failure; jsonr_free is safe either way. */
int jsonr_parse(const char *text, size_t len, unsigned max_depth, struct jsonr_doc *doc, char *err, size_t errlen);

/* Read and parse a regular file (at most JSONR_MAX_FILE_BYTES), opened by
 * inputfile_open (a directory is -EISDIR, a FIFO or device -EINVAL, refused
 * without blocking). As jsonr_parse, plus -errno from open/read and -EFBIG
 * (a larger file is refused from its size, unread); err always names the
 * file. */
int jsonr_parse_file(const char *path, unsigned max_depth, struct jsonr_doc *doc, char *err, size_t errlen);

void jsonr_free(struct jsonr_doc *doc);

/* Lookups; each returns NULL when absent or of the wrong kind. Duplicate
 * keys: the first wins. */
const struct jsonr_value *jsonr_member(const struct jsonr_value *obj, const char *key);
const struct jsonr_value *jsonr_index(const struct jsonr_value *arr, size_t i);
/* Path of member names separated by '.', array indices as [N]:
 * "mlp.sweep[0].ns_per_access". An empty path is v itself. */
const struct jsonr_value *jsonr_get(const struct jsonr_value *v, const char *path);

/* Typed reads of a path: true and *out set when present with that type. */
bool jsonr_get_number(const struct jsonr_value *v, const char *path, double *out);
bool jsonr_get_bool(const struct jsonr_value *v, const char *path, bool *out);
/* Whether path is the JSON true (absent, null or false: no). */
bool jsonr_is_true(const struct jsonr_value *v, const char *path);
/* The string, or NULL. */
const char *jsonr_get_string(const struct jsonr_value *v, const char *path);
/* Elements or members of an array or object at path; 0 when not one. */
size_t jsonr_get_count(const struct jsonr_value *v, const char *path);

const char *jsonr_type_name(enum jsonr_type t);

#endif
