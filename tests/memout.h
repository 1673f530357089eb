/*
 * Writers run into memory, for the tests that read what a section prints:
 * a stream whose text comes back as one malloc'd string, and a JSON writer
 * with its outer object open, whose document comes back the same way.
 */
#ifndef MLPSCOPE_TESTS_MEMOUT_H
#define MLPSCOPE_TESTS_MEMOUT_H

#include <stddef.h>
#include <stdio.h>

#include "util/jsonw.h"

struct memout {
	char *buf;
	size_t len;        /* the bytes written, once closed */
	FILE *f;
	struct jsonw w;
};

/* A stream into m (NULL when none could be opened). */
FILE *memout_open(struct memout *m);
/* Closes the stream: the text written, NUL-terminated; the caller frees it. */
char *memout_close(struct memout *m);
/* A JSON writer into m, its outer object open. */
struct jsonw *memout_json_open(struct memout *m);
/* Closes the object and the stream: the document; the caller frees it. */
char *memout_json_close(struct memout *m);

/* A section's two writers into memory: write_text(r, FILE *) and
 * write_json(r, struct jsonw *, key). The text is the value; the JSON
 * document (the section under key) goes to *json. */
#define SECTION_OUTPUTS(write_text, write_json, r, key, json)                  \
	({                                                                       \
		struct memout text_, json_;                                      \
		write_text(r, memout_open(&text_));                              \
		write_json(r, memout_json_open(&json_), key);                    \
		*(json) = memout_json_close(&json_);                             \
		memout_close(&text_);                                            \
	})

#endif
