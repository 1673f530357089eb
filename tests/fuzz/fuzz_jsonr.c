/*
 * libFuzzer target: the JSON reader and the JSON writer. Any input is parsed
 * (strict, bounded depth); a document that parses is written back through
 * jsonw (every value kind) and must parse again to the same tree, numbers
 * within the writer's 7 significant digits. This is how the JSON writer
 * meets hostile strings: every byte sequence the reader accepts.
 */
#include "util/jsonr.h"
#include "util/jsonw.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* jsonw takes NUL-terminated keys and strings: a "\u0000" inside one ends
 * it there, so the comparison stops there too. */
static void emit(struct jsonw *w, const char *key, const struct jsonr_value *v)
{
	switch (v->type) {
	case JSONR_NULL: jsonw_null(w, key); break;
	case JSONR_BOOL: jsonw_bool(w, key, v->u.boolean); break;
	case JSONR_NUMBER: jsonw_double(w, key, v->u.number); break;
	case JSONR_STRING: jsonw_string(w, key, v->u.string.bytes); break;
	case JSONR_ARRAY:
	case JSONR_OBJECT:
		if (v->type == JSONR_ARRAY)
			jsonw_array_begin(w, key);
		else
			jsonw_object_begin(w, key);
		for (const struct jsonr_value *c = v->u.children.first; c; c = c->next)
			emit(w, v->type == JSONR_OBJECT ? c->key : NULL, c);
		if (v->type == JSONR_ARRAY)
			jsonw_array_end(w);
		else
			jsonw_object_end(w);
		break;
	}
}

static int depth_of(const struct jsonr_value *v)
{
	int d = 0;

	if (v->type != JSONR_ARRAY && v->type != JSONR_OBJECT)
		return 0;
	for (const struct jsonr_value *c = v->u.children.first; c; c = c->next) {
		int e = depth_of(c);

		d = e > d ? e : d;
	}
	return d + 1;
}

/* 7 digits of a double near DBL_MAX round up past it: the round trip is
 * only asked of numbers a measurement could hold. */
static int huge(const struct jsonr_value *v)
{
	if (v->type == JSONR_NUMBER)
		return fabs(v->u.number) > 1e300;
	if (v->type != JSONR_ARRAY && v->type != JSONR_OBJECT)
		return 0;
	for (const struct jsonr_value *c = v->u.children.first; c; c = c->next)
		if (huge(c))
			return 1;
	return 0;
}

static int same(const struct jsonr_value *a, const struct jsonr_value *b)
{
	const struct jsonr_value *x, *y;

	if (a->type != b->type)
		return 0;
	if (a->key && strcmp(a->key, b->key))
		return 0;
	switch (a->type) {
	case JSONR_NULL: return 1;
	case JSONR_BOOL: return a->u.boolean == b->u.boolean;
	case JSONR_NUMBER:
		return fabs(a->u.number - b->u.number) <= 1e-6 * fabs(a->u.number) ||
		       (fabs(a->u.number) < 1e-300 && fabs(b->u.number) < 1e-300);
	case JSONR_STRING: return !strcmp(a->u.string.bytes, b->u.string.bytes);
	default:
		for (x = a->u.children.first, y = b->u.children.first; x && y; x = x->next, y = y->next)
			if (!same(x, y))
				return 0;
		return !x && !y;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonr_doc doc, back;
	struct jsonw w;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (jsonr_parse((const char *)data, size, 0, &doc, err, sizeof(err))) {
		if (doc.root || !err[0])
			abort();  /* a refusal leaves no tree and says where */
		jsonr_free(&doc);
		return 0;
	}
	/* Keys with a NUL inside collide once cut; the writer's depth is 32. */
	if (depth_of(doc.root) < JSONW_MAX_DEPTH - 1 && !memchr(data, 0, size) && !memmem(data, size, "\\u0000", 6) &&
	    !huge(doc.root)) {
		m = open_memstream(&buf, &len);
		if (!m)
			abort();
		jsonw_init(&w, m);
		emit(&w, NULL, doc.root);
		jsonw_finish(&w);
		fclose(m);
		if (jsonr_parse(buf, len, 0, &back, err, sizeof(err)))
			abort();  /* the writer wrote something the reader refuses */
		if (!same(doc.root, back.root))
			abort();
		jsonr_free(&back);
		free(buf);
	}
	jsonr_free(&doc);
	return 0;
}
