/*
 * JSON emission. Doubles are printed with 7 significant digits: more than
 * any timing here deserves, and enough that a reader recomputing a ratio
 * from the raw trials gets the printed figure back.
 */
#include "util/jsonw.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jsonw_init(struct jsonw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->has_items[0] = false;
}

static void put_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void begin_item(struct jsonw *w, const char *key)
{
	if (w->depth > 0) {
		fputs(w->has_items[w->depth] ? ",\n" : "\n", w->f);
		fprintf(w->f, "%*s", 2 * w->depth, "");
	}
	w->has_items[w->depth] = true;
	if (key) {
		put_escaped(w->f, key);
		fputs(": ", w->f);
	}
}

static void open_scope(struct jsonw *w, const char *key, char c)
{
	begin_item(w, key);
	fputc(c, w->f);
	if (w->depth + 1 < JSONW_MAX_DEPTH)
		w->depth++;
	w->has_items[w->depth] = false;
}

static void close_scope(struct jsonw *w, char c)
{
	bool had = w->has_items[w->depth];

	w->depth--;
	if (had)
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
	fputc(c, w->f);
}

void jsonw_object_begin(struct jsonw *w, const char *key) { open_scope(w, key, '{'); }
void jsonw_object_end(struct jsonw *w) { close_scope(w, '}'); }
void jsonw_array_begin(struct jsonw *w, const char *key) { open_scope(w, key, '['); }
void jsonw_array_end(struct jsonw *w) { close_scope(w, ']'); }

void jsonw_string(struct jsonw *w, const char *key, const char *value)
{
	begin_item(w, key);
	put_escaped(w->f, value ? value : "");
}

void jsonw_double(struct jsonw *w, const char *key, double value)
{
	begin_item(w, key);
	if (isfinite(value))
		fprintf(w->f, "%.7g", value);
	else
		fputs("null", w->f);
}

void jsonw_string_or_null(struct jsonw *w, const char *key, bool known, const char *value)
{
	known ? jsonw_string(w, key, value) : jsonw_null(w, key);
}

void jsonw_double_or_null(struct jsonw *w, const char *key, bool known, double value)
{
	known ? jsonw_double(w, key, value) : jsonw_null(w, key);
}

void jsonw_int_or_null(struct jsonw *w, const char *key, bool known, int64_t value)
{
	known ? jsonw_int(w, key, value) : jsonw_null(w, key);
}

void jsonw_uint_or_null(struct jsonw *w, const char *key, bool known, uint64_t value)
{
	known ? jsonw_uint(w, key, value) : jsonw_null(w, key);
}

void jsonw_bool_or_null(struct jsonw *w, const char *key, bool known, bool value)
{
	known ? jsonw_bool(w, key, value) : jsonw_null(w, key);
}

void jsonw_double_array(struct jsonw *w, const char *key, const double *v, size_t n)
{
	jsonw_array_begin(w, key);
	for (size_t i = 0; i < n; i++)
		jsonw_double(w, NULL, v[i]);
	jsonw_array_end(w);
}

void jsonw_int(struct jsonw *w, const char *key, int64_t value)
{
	begin_item(w, key);
	fprintf(w->f, "%" PRId64, value);
}

void jsonw_uint(struct jsonw *w, const char *key, uint64_t value)
{
	begin_item(w, key);
	fprintf(w->f, "%" PRIu64, value);
}

void jsonw_bool(struct jsonw *w, const char *key, bool value)
{
	begin_item(w, key);
	fputs(value ? "true" : "false", w->f);
}

void jsonw_hex64(struct jsonw *w, const char *key, uint64_t value)
{
	char hex[17];

	snprintf(hex, sizeof(hex), "%016" PRIx64, value);
	jsonw_string(w, key, hex);
}

void jsonw_null(struct jsonw *w, const char *key)
{
	begin_item(w, key);
	fputs("null", w->f);
}

void jsonw_finish(struct jsonw *w)
{
	fputc('\n', w->f);
}

/* The integer of the given width at p, sign-extended when it is signed.
 * Read by memcpy: a table's member may sit at any alignment its struct
 * gave it. */
static uint64_t read_integer(const unsigned char *p, size_t bytes, bool is_signed)
{
	union {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
		int8_t i8;
		int16_t i16;
		int32_t i32;
	} v;

	memcpy(&v, p, bytes < sizeof(v) ? bytes : sizeof(v));
	switch (bytes) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)v.i8 : v.u8;
	case 2:
		return is_signed ? (uint64_t)(int64_t)v.i16 : v.u16;
	case 4:
		return is_signed ? (uint64_t)(int64_t)v.i32 : v.u32;
	default:
		return v.u64;
	}
}

void jsonw_fields(struct jsonw *w, const void *base, const struct jsonw_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct jsonw_field *f = &fields[i];
		const unsigned char *p = (const unsigned char *)base + f->offset;
		const char *s;
		double d;
		bool b;

		switch (f->kind) {
		case JSONW_UINT: jsonw_uint(w, f->key, read_integer(p, f->bytes, false)); break;
		case JSONW_INT: jsonw_int(w, f->key, (int64_t)read_integer(p, f->bytes, true)); break;
		case JSONW_HEX64: jsonw_hex64(w, f->key, read_integer(p, f->bytes, false)); break;
		case JSONW_DOUBLE: memcpy(&d, p, sizeof(d)); jsonw_double(w, f->key, d); break;
		case JSONW_BOOL: memcpy(&b, p, sizeof(b)); jsonw_bool(w, f->key, b); break;
		case JSONW_STRING: memcpy(&s, p, sizeof(s)); jsonw_string(w, f->key, s); break;
		case JSONW_TEXT: jsonw_string(w, f->key, (const char *)p); break;
		}
	}
}

void jsonw_fields_or_null(struct jsonw *w, const void *base, const struct jsonw_field *fields, size_t n, bool known)
{
	if (known) {
		jsonw_fields(w, base, fields, n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		jsonw_null(w, fields[i].key);
}

void jsonw_fields_object(struct jsonw *w, const char *key, const void *base, const struct jsonw_field *fields,
			 size_t n)
{
	jsonw_object_begin(w, key);
	jsonw_fields(w, base, fields, n);
	jsonw_object_end(w);
}

void jsonw_object_array(struct jsonw *w, const char *key, const void *base, size_t count, size_t stride,
			const struct jsonw_field *fields, size_t n)
{
	jsonw_array_begin(w, key);
	for (size_t i = 0; i < count; i++)
		jsonw_fields_object(w, NULL, (const unsigned char *)base + i * stride, fields, n);
	jsonw_array_end(w);
}

void jsonw_object_array_each(struct jsonw *w, const char *key, const void *base, size_t count, size_t stride,
			     jsonw_members_fn members)
{
	jsonw_array_begin(w, key);
	for (size_t i = 0; i < count; i++) {
		jsonw_object_begin(w, NULL);
		members(w, (const unsigned char *)base + i * stride);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}
