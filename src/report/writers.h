/*
 * The writer trio of a measuring section, declared once: its text, its JSON
 * object and its CSV tables, with the signatures a section descriptor takes
 * (frame/registry.h), so each NAME_out.h names its three writers in one
 * line instead of spelling the same prototypes again.
 */
#ifndef MLPSCOPE_REPORT_WRITERS_H
#define MLPSCOPE_REPORT_WRITERS_H

#include <stdio.h>

struct jsonr_value;
struct jsonw;

/* text(result, f): the human section. json(result, w, key): the section's
 * object under key in the object w is in (key NULL inside an array).
 * csv(dir, doc): its tidy tables, read from a parsed result; 0 or -errno. */
#define REPORT_SECTION_WRITERS(text, json, csv)                                   \
	void text(const void *result, FILE *f);                                    \
	void json(const void *result, struct jsonw *w, const char *key);           \
	int csv(const char *dir, const struct jsonr_value *doc)

/* The same pair for a section with no CSV table of its own. */
#define REPORT_SECTION_TEXT_JSON(text, json)                                      \
	void text(const void *result, FILE *f);                                    \
	void json(const void *result, struct jsonw *w, const char *key)

#endif
