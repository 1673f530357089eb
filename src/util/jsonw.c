/*
 * JSON emission. Doubles are printed with 7 significant digits: more than
 * any timing here deserves, and enough that a reader recomputing a ratio
 * from the raw trials gets the printed figure back.
 */
#include "util/jsonw.h"

#include <inttypes.h>
#include <math.h>

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
