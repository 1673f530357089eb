/*
 * The HTML page's primitives, for the sections' views: escaped text, a
 * section's heading, and tables driven by column lists of documented JSON
 * keys, so a key added to a table is one line in its view. Values print with
 * the precision the text report uses; a null prints as "-", never as 0,
 * because a fact that could not be read is not a zero.
 */
#ifndef MLPSCOPE_REPORT_HTML_TABLE_H
#define MLPSCOPE_REPORT_HTML_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "report/view.h"
#include "util/jsonr.h"

/* Cell formats: decimals >= 0, or one of these. */
enum {
	F_TEXT = -1,   /* string, or a number as %g */
	F_BYTES = -2,  /* binary units, as the text report */
	F_BOOL = -3,   /* yes / no */
	F_LIST = -4,   /* array joined with spaces */
};

struct html_col {
	const char *head;  /* header: quantity and unit */
	const char *key;   /* path inside one row object */
	int fmt;
};

#define HTML_NCOLS(a) (sizeof(a) / sizeof((a)[0]))

/* s with &, <, >, " escaped. */
void html_escape(FILE *f, const char *s);

/* One value in format fmt; "-" for absent, null or not finite. */
void html_cell(FILE *f, const struct jsonr_value *v, int fmt);

/* Key / value rows of one object, absent keys left out; nothing when obj is
 * NULL or has none of them. caption may be NULL. */
void html_kv_table(FILE *f, const struct jsonr_value *obj, const struct html_col *rows, size_t nrows,
		   const char *caption);

/* One row per element of arr (or member, for an object); nothing when empty. */
void html_table_rows(FILE *f, const struct jsonr_value *arr, const struct html_col *cols, size_t ncols,
		     const char *caption);

#define HTML_KV(f, obj, rows, caption) html_kv_table(f, obj, rows, HTML_NCOLS(rows), caption)
#define HTML_ROWS(f, arr, cols, caption) html_table_rows(f, arr, cols, HTML_NCOLS(cols), caption)

/* A section's heading for run c, with the anchor "runN-SECTION" the summary
 * links to (none when section is NULL: a second heading of one section). */
void html_section_heading(FILE *f, const struct html_ctx *c, const char *section, const char *title);

/* One table of a section: a row per element of the array at path (inside
 * the section's object), its columns, its caption. */
struct html_rows_table {
	const char *path;
	const struct html_col *cols;
	size_t ncols;
	const char *caption;
};

#define HTML_ROWS_TABLE(path, cols, caption) { path, cols, HTML_NCOLS(cols), caption }

/* The plain section: its heading, the key/value rows of its object v, then
 * each of its tables in order (a view names them with VIEW_HTML_SECTION). */
void html_section_tables(FILE *f, const struct jsonr_value *v, const struct html_ctx *c, const char *section,
			 const char *title, const struct html_col *kv, size_t nkv, const struct html_rows_table *t,
			 size_t nt);

#endif
