/*
 * The strict JSON reader. One loop with an explicit stack of open containers
 * (bounded by max_depth) replaces the usual recursive descent, so input
 * nesting can never exhaust the C stack. Values and decoded strings live in
 * a bump arena freed in one walk. Numbers are converted after the RFC
 * grammar has been checked here: exactly in one multiply or divide where
 * that is exact, through strtod otherwise, relying on the "C" locale's '.'
 * (mlpscope never calls setlocale). Line and column are computed only on
 * error.
 */
#include "util/jsonr.h"

#include "util/inputfile.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK_BYTES ((size_t)64 << 10)
/* Each value costs ~64 bytes: cap them so a hostile "[0,0,0,...]" cannot
 * turn a file into gigabytes of tree. */
#define MAX_VALUES ((size_t)4 << 20)

struct jsonr_block {
	struct jsonr_block *next;
	size_t used, size;
	max_align_t data[];
};

struct parser {
	const char *s;
	size_t len, pos;
	struct jsonr_doc *doc;
	size_t nvalues;
	char *err;
	size_t errlen;
};

static void *arena_alloc(struct jsonr_doc *doc, size_t bytes)
{
	struct jsonr_block *b = doc->blocks;
	size_t need = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);

	if (!b || b->size - b->used < need) {
		size_t size = need > BLOCK_BYTES ? need : BLOCK_BYTES;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		b->next = doc->blocks;
		doc->blocks = b;
	}
	void *p = (char *)b->data + b->used;

	b->used += need;
	return p;
}

void jsonr_free(struct jsonr_doc *doc)
{
	struct jsonr_block *b = doc->blocks;

	while (b) {
		struct jsonr_block *next = b->next;

		free(b);
		b = next;
	}
	doc->blocks = NULL;
	doc->root = NULL;
}

/* Always returns -EBADMSG, so callers can `return fail(...)`. */
__attribute__((format(printf, 2, 3))) static int fail(struct parser *p, const char *fmt, ...)
{
	unsigned line = 1, col = 1;
	char what[160];
	va_list ap;

	for (size_t i = 0; i < p->pos && i < p->len; i++) {
		if (p->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->errlen)
		snprintf(p->err, p->errlen, "line %u, column %u: %s", line, col, what);
	return -EBADMSG;
}

static int fail_eof(struct parser *p, const char *expected)
{
	return fail(p, "unexpected end of input, expected %s (truncated?)", expected);
}

/* In locals: through p, every byte reloaded p->s, p->pos and p->len, and
 * indentation is most of the bytes a result holds. */
static void skip_ws(struct parser *p)
{
	const char *s = p->s;
	size_t i = p->pos, len = p->len;

	while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
		i++;
	p->pos = i;
}

/* Length of the UTF-8 sequence at s (avail bytes), 0 when invalid:
 * overlong forms, surrogates and code points past U+10FFFF included. */
static size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
	unsigned c = s[0];
	size_t n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static size_t utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int hex4(struct parser *p, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		char c;

		if (p->pos >= p->len)
			return fail_eof(p, "four hex digits after \\u");
		c = p->s[p->pos];
		if (c >= '0' && c <= '9')
			v = v << 4 | (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v << 4 | (uint32_t)(c - 'A' + 10);
		else
			return fail(p, "'\\u' needs four hex digits");
		p->pos++;
	}
	*out = v;
	return 0;
}

/* At the opening quote. Decodes into the arena; decoded text is never
 * longer than its source, so the source span sizes the buffer. */
static int parse_string(struct parser *p, const char **out, size_t *out_len)
{
	size_t start = ++p->pos, end = start;
	const char *s = p->s;
	bool plain = true;  /* no escape, no control byte, no UTF-8: copied as is */
	char *buf;
	size_t n = 0;
	int rc;

	while (end < p->len && s[end] != '"') {
		unsigned char c = (unsigned char)s[end];

		plain &= c >= 0x20 && c < 0x80 && c != '\\';
		end += c == '\\' ? 2 : 1;
	}
	if (end >= p->len) {
		p->pos = p->len;
		return fail_eof(p, "the end of a string");
	}
	buf = arena_alloc(p->doc, end - start + 1);
	if (!buf)
		return -ENOMEM;
	if (plain) {
		n = end - start;
		memcpy(buf, s + start, n);
		p->pos = end;
	}
	while (p->s[p->pos] != '"') {
		unsigned char c = (unsigned char)p->s[p->pos];

		if (c < 0x20)
			return fail(p, "raw control character 0x%02x in a string (escape it)", c);
		if (c == '\\') {
			uint32_t cp, lo;

			p->pos++;
			switch (p->s[p->pos]) {
			case '"': buf[n++] = '"'; break;
			case '\\': buf[n++] = '\\'; break;
			case '/': buf[n++] = '/'; break;
			case 'b': buf[n++] = '\b'; break;
			case 'f': buf[n++] = '\f'; break;
			case 'n': buf[n++] = '\n'; break;
			case 'r': buf[n++] = '\r'; break;
			case 't': buf[n++] = '\t'; break;
			case 'u':
				p->pos++;
				rc = hex4(p, &cp);
				if (rc)
					return rc;
				if (cp >= 0xdc00 && cp <= 0xdfff)
					return fail(p, "lone low surrogate \\u%04x", (unsigned)cp);
				if (cp >= 0xd800 && cp <= 0xdbff) {
					if (p->pos + 1 >= p->len || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
						return fail(p, "high surrogate \\u%04x without its low half", (unsigned)cp);
					p->pos += 2;
					rc = hex4(p, &lo);
					if (rc)
						return rc;
					if (lo < 0xdc00 || lo > 0xdfff)
						return fail(p, "high surrogate \\u%04x without its low half", (unsigned)cp);
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				}
				n += utf8_put(buf + n, cp);
				continue;   /* hex4 already moved past the digits */
			default:
				/* Quoted as a byte value when not printable: a raw
				 * newline here made the one-line error two lines. */
				return (unsigned char)p->s[p->pos] > 0x20 && (unsigned char)p->s[p->pos] < 0x7f ?
					       fail(p, "unknown escape '\\%c'", p->s[p->pos]) :
					       fail(p, "unknown escape: a backslash before byte 0x%02x",
						    (unsigned char)p->s[p->pos]);
			}
			p->pos++;
		} else if (c < 0x80) {
			buf[n++] = (char)c;
			p->pos++;
		} else {
			size_t k = utf8_seq_len((const unsigned char *)p->s + p->pos, end - p->pos);

			if (!k)
				return fail(p, "invalid UTF-8 in a string");
			memcpy(buf + n, p->s + p->pos, k);
			n += k;
			p->pos += k;
		}
	}
	p->pos++;
	buf[n] = 0;
	*out = buf;
	*out_len = n;
	return 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Text the grammar has checked, as a double without strtod when that is
 * exact: at most 2^53 as a whole mantissa and a power of ten up to 10^22,
 * both held exactly by a double, so one IEEE multiply or divide rounds
 * once, as strtod would (Clinger's fast path). Almost every number a result
 * holds ("157.3", "268435456", "0.0123") takes it; strtod took 30% of
 * reading a fleet of results. False: use strtod. Only where double
 * arithmetic is double (FLT_EVAL_METHOD 0): x87 would round twice. */
static bool exact_decimal(const char *s, size_t n, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
	static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
					1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	const uint64_t max_exact = (uint64_t)1 << 53;
	const char *end = s + n;
	bool neg = *s == '-';
	uint64_t m = 0;
	long e = 0, ex = 0;
	bool ex_neg = false;
	double v;

	s += neg;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (m > (max_exact - 9) / 10)
			return false;
		m = m * 10 + (uint64_t)(*s - '0');
	}
	if (s < end && *s == '.')
		for (s++; s < end && *s >= '0' && *s <= '9'; s++, e--) {
			if (m > (max_exact - 9) / 10)
				return false;
			m = m * 10 + (uint64_t)(*s - '0');
		}
	if (s < end && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '+' || *s == '-')
			ex_neg = *s++ == '-';
		for (; s < end; s++) {
			if (ex > 1000)
				return false;
			ex = ex * 10 + (*s - '0');
		}
		e += ex_neg ? -ex : ex;
	}
	if (m == 0)
		v = 0;
	else if (e < -22 || e > 22)
		return false;
	else
		v = e < 0 ? (double)m / pow10[-e] : (double)m * pow10[e];
	*out = neg ? -v : v;
	return true;
#else
	(void)s;
	(void)n;
	(void)out;
	return false;
#endif
}

static int parse_number(struct parser *p, double *out)
{
	size_t start = p->pos;
	char local[64], *copy = local;
	double v;

#define AT(c) (p->pos < p->len && p->s[p->pos] == (c))
#define DIGIT() (p->pos < p->len && is_digit(p->s[p->pos]))
	if (AT('-'))
		p->pos++;
	if (AT('0')) {
		p->pos++;
		if (DIGIT())
			return fail(p, "leading zero in a number");
	} else if (DIGIT()) {
		while (DIGIT())
			p->pos++;
	} else {
		return p->pos >= p->len ? fail_eof(p, "a digit") : fail(p, "expected a digit");
	}
	if (AT('.')) {
		p->pos++;
		if (!DIGIT())
			return p->pos >= p->len ? fail_eof(p, "a digit after '.'") : fail(p, "expected a digit after '.'");
		while (DIGIT())
			p->pos++;
	}
	if (AT('e') || AT('E')) {
		p->pos++;
		if (AT('+') || AT('-'))
			p->pos++;
		if (!DIGIT())
			return p->pos >= p->len ? fail_eof(p, "an exponent") : fail(p, "expected exponent digits");
		while (DIGIT())
			p->pos++;
	}
#undef AT
#undef DIGIT
	size_t n = p->pos - start;

	if (exact_decimal(p->s + start, n, out))
		return 0;
	if (n >= sizeof(local)) {
		copy = arena_alloc(p->doc, n + 1);
		if (!copy)
			return -ENOMEM;
	}
	memcpy(copy, p->s + start, n);
	copy[n] = 0;
	v = strtod(copy, NULL);
	if (!isfinite(v)) {
		p->pos = start;
		return fail(p, "number out of range");
	}
	*out = v;
	return 0;
}

static int parse_literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i < n; i++) {
		if (p->pos + i >= p->len) {
			p->pos += i;
			return fail_eof(p, word);
		}
		if (p->s[p->pos + i] != word[i])
			return fail(p, "expected a value");
	}
	p->pos += n;
	return 0;
}

static void attach(struct jsonr_value *parent, struct jsonr_value *v)
{
	if (parent->u.children.last)
		parent->u.children.last->next = v;
	else
		parent->u.children.first = v;
	parent->u.children.last = v;
	parent->u.children.count++;
}

enum state { EXPECT_VALUE, EXPECT_KEY, AFTER_VALUE };

/* A value that holds no other, starting at c, into v. */
static int parse_scalar(struct parser *p, struct jsonr_value *v, char c)
{
	if (c == '"') {
		v->type = JSONR_STRING;
		return parse_string(p, &v->u.string.bytes, &v->u.string.len);
	}
	if (c == '-' || is_digit(c)) {
		v->type = JSONR_NUMBER;
		return parse_number(p, &v->u.number);
	}
	if (c == 't' || c == 'f') {
		v->type = JSONR_BOOL;
		v->u.boolean = c == 't';
		return parse_literal(p, c == 't' ? "true" : "false");
	}
	if (c == 'n') {
		v->type = JSONR_NULL;
		return parse_literal(p, "null");
	}
	return fail(p, "expected a value");
}

static int parse_doc(struct parser *p, struct jsonr_value **stack, unsigned max_depth)
{
	enum state st = EXPECT_VALUE;
	unsigned depth = 0;
	const char *key = NULL;
	size_t key_len = 0;
	int rc;

	for (;;) {
		struct jsonr_value *top = depth ? stack[depth - 1] : NULL;
		struct jsonr_value *v;
		char c;

		skip_ws(p);
		if (st == AFTER_VALUE && !top) {
			if (p->pos < p->len)
				return fail(p, "unexpected text after the document");
			return 0;
		}
		if (p->pos >= p->len)
			return fail_eof(p, st == EXPECT_KEY ? "a string key" : st == EXPECT_VALUE ? "a value" :
					top->type == JSONR_OBJECT ? "',' or '}'" : "',' or ']'");
		c = p->s[p->pos];
		rc = 0;
		if (st == EXPECT_KEY) {
			if (c != '"')
				return fail(p, "expected a string key");
			rc = parse_string(p, &key, &key_len);
			if (rc)
				return rc;
			skip_ws(p);
			if (p->pos >= p->len)
				return fail_eof(p, "':'");
			if (p->s[p->pos] != ':')
				return fail(p, "expected ':' after a key");
			p->pos++;
			st = EXPECT_VALUE;
			continue;
		}
		if (st == AFTER_VALUE) {
			bool obj = top->type == JSONR_OBJECT;

			if (c == ',') {
				p->pos++;
				st = obj ? EXPECT_KEY : EXPECT_VALUE;
			} else if (c == (obj ? '}' : ']')) {
				p->pos++;
				depth--;
			} else {
				return fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
			}
			continue;
		}
		/* EXPECT_VALUE: a trailing comma lands here on a closing bracket */
		/* Not malformed: too many values for this reader, said as such. */
		if (++p->nvalues > MAX_VALUES) {
			fail(p, "more than %zu values, this reader's cap (a result mlpscope writes holds far fewer)",
			     MAX_VALUES);
			return -E2BIG;
		}
		v = arena_alloc(p->doc, sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v, 0, sizeof(*v));
		v->key = key;
		v->key_len = key_len;
		key = NULL;
		key_len = 0;
		if (c == '{' || c == '[') {
			if (depth >= max_depth)
				return fail(p, "nesting deeper than %u levels", max_depth);
			v->type = c == '{' ? JSONR_OBJECT : JSONR_ARRAY;
		} else if ((rc = parse_scalar(p, v, c))) {
			return rc;
		}
		if (top)
			attach(top, v);
		else
			p->doc->root = v;
		if (v->type == JSONR_OBJECT || v->type == JSONR_ARRAY) {
			char close = v->type == JSONR_OBJECT ? '}' : ']';

			p->pos++;
			stack[depth++] = v;
			skip_ws(p);
			if (p->pos < p->len && p->s[p->pos] == close) {
				p->pos++;
				depth--;
				st = AFTER_VALUE;
			} else {
				st = v->type == JSONR_OBJECT ? EXPECT_KEY : EXPECT_VALUE;
			}
			continue;
		}
		st = AFTER_VALUE;
	}
}

int jsonr_parse(const char *text, size_t len, unsigned max_depth, struct jsonr_doc *doc, char *err, size_t errlen)
{
	struct parser p = {.s = text, .len = len, .doc = doc, .err = err, .errlen = errlen};
	struct jsonr_value **stack;
	int rc;

	doc->root = NULL;
	doc->blocks = NULL;
	if (errlen)
		err[0] = 0;
	if (!max_depth)
		max_depth = JSONR_DEFAULT_MAX_DEPTH;
	stack = malloc(sizeof(*stack) * max_depth);
	if (!stack) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = parse_doc(&p, stack, max_depth);
	free(stack);
	if (rc) {
		if (rc == -ENOMEM && errlen)
			snprintf(err, errlen, "out of memory");
		jsonr_free(doc);
	}
	return rc;
}

int jsonr_parse_file(const char *path, unsigned max_depth, struct jsonr_doc *doc, char *err, size_t errlen)
{
	char *buf = NULL, what[256];
	size_t used = 0, cap = 0;
	struct stat st;
	int fd, rc;

	doc->root = NULL;
	doc->blocks = NULL;
	fd = inputfile_open(path, err, errlen);
	if (fd < 0)
		return fd;
	/* Refused from its size, before reading 256 MiB only to refuse it;
	 * the loop below still caps a file that grows while it is read. */
	if (!fstat(fd, &st) && (uintmax_t)st.st_size > JSONR_MAX_FILE_BYTES) {
		rc = -EFBIG;
		snprintf(err, errlen, "%s: %jd bytes, larger than the %zu a result may be", path, (intmax_t)st.st_size,
			 JSONR_MAX_FILE_BYTES);
		goto out;
	}
	/* Sized from the file, one read and no copies; + 1 so that the read
	 * seeing the end finds room, and a file that grows still grows. */
	if (!fstat(fd, &st) && st.st_size > 0 && (buf = malloc((size_t)st.st_size + 1)))
		cap = (size_t)st.st_size + 1;
	for (;;) {
		ssize_t n;

		if (used == cap) {
			char *nb;

			if (cap >= JSONR_MAX_FILE_BYTES) {
				rc = -EFBIG;
				snprintf(err, errlen, "%s: larger than %zu bytes", path, JSONR_MAX_FILE_BYTES);
				goto out;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				rc = -ENOMEM;
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			goto out;
		}
		if (!n)
			break;
		used += (size_t)n;
	}
	rc = jsonr_parse(buf, used, max_depth, doc, what, sizeof(what));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, what);
out:
	free(buf);
	close(fd);
	return rc;
}

const struct jsonr_value *jsonr_member(const struct jsonr_value *obj, const char *key)
{
	size_t n = strlen(key);

	if (!obj || obj->type != JSONR_OBJECT)
		return NULL;
	for (const struct jsonr_value *v = obj->u.children.first; v; v = v->next)
		if (v->key_len == n && !memcmp(v->key, key, n))
			return v;
	return NULL;
}

const struct jsonr_value *jsonr_index(const struct jsonr_value *arr, size_t i)
{
	const struct jsonr_value *v;

	if (!arr || arr->type != JSONR_ARRAY || i >= arr->u.children.count)
		return NULL;
	for (v = arr->u.children.first; i--; v = v->next)
		;
	return v;
}

const struct jsonr_value *jsonr_get(const struct jsonr_value *v, const char *path)
{
	const char *s = path;

	while (v && *s) {
		if (*s == '[') {
			char *end;
			unsigned long long i;

			if (!is_digit(s[1]))
				return NULL;
			i = strtoull(s + 1, &end, 10);
			if (*end != ']')
				return NULL;
			v = jsonr_index(v, (size_t)i);
			s = end + 1;
			if (*s == '.')
				s++;
		} else {
			size_t n = strcspn(s, ".[");
			const struct jsonr_value *m = NULL;

			if (!n || !v || v->type != JSONR_OBJECT)
				return NULL;
			for (const struct jsonr_value *c = v->u.children.first; c; c = c->next)
				if (c->key_len == n && !memcmp(c->key, s, n)) {
					m = c;
					break;
				}
			v = m;
			s += n;
			if (*s == '.')
				s++;
		}
	}
	return v;
}

bool jsonr_get_number(const struct jsonr_value *v, const char *path, double *out)
{
	v = jsonr_get(v, path);
	if (!v || v->type != JSONR_NUMBER)
		return false;
	*out = v->u.number;
	return true;
}

bool jsonr_get_bool(const struct jsonr_value *v, const char *path, bool *out)
{
	v = jsonr_get(v, path);
	if (!v || v->type != JSONR_BOOL)
		return false;
	*out = v->u.boolean;
	return true;
}

bool jsonr_is_true(const struct jsonr_value *v, const char *path)
{
	bool b = false;

	return jsonr_get_bool(v, path, &b) && b;
}

const char *jsonr_get_string(const struct jsonr_value *v, const char *path)
{
	v = jsonr_get(v, path);
	return v && v->type == JSONR_STRING ? v->u.string.bytes : NULL;
}

size_t jsonr_get_count(const struct jsonr_value *v, const char *path)
{
	v = jsonr_get(v, path);
	return v && (v->type == JSONR_ARRAY || v->type == JSONR_OBJECT) ? v->u.children.count : 0;
}

const char *jsonr_type_name(enum jsonr_type t)
{
	static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}
