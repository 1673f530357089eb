/*
 * The CSV table writer: each table is a list of columns over rows gathered
 * from one or more JSON arrays, with an optional leading column that says which
 * array a row came from (pages, traffic, filler), so one file holds every
 * arm in long form instead of one file per arm. The pages column is written
 * even for a single arm: tables from different runs then share one header.
 * Which tables exist is each section's writer's business (its write_csv
 * hook in the registry); this file knows no section.
 */
#include "report/csv.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic.h"


void csv_write_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Shortest text that strtod reads back as the same double: a CSV that
 * rounds is a different measurement from the JSON it came from. */
static void write_number(FILE *f, double v)
{
	char buf[40];

	if (!isfinite(v))
		return;  /* JSON has no NaN either: an empty field, like null */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

static void write_value(FILE *f, const struct jsonr_value *v)
{
	if (!v)
		return;
	switch (v->type) {
	case JSONR_NUMBER: write_number(f, v->u.number); break;
	case JSONR_BOOL: fputs(v->u.boolean ? "true" : "false", f); break;
	case JSONR_STRING: csv_write_field(f, v->u.string.bytes); break;
	default: break;  /* null, arrays, objects: empty */
	}
}

int csv_write_table(const char *dir, const char *name, const char *tag_head, const struct csv_group *g,
		    size_t ng, const struct csv_col *cols, size_t ncols)
{
	struct atomic_file a;
	char path[PATH_MAX];
	size_t rows = 0;
	int rc;

	for (size_t i = 0; i < ng; i++)
		rows += g[i].rows && g[i].rows->type == JSONR_ARRAY ? g[i].rows->u.children.count : 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.csv", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	/* No such table in this run: one left in DIR by an earlier run must not
	 * pass for one of this run. */
	if (!rows)
		return atomic_remove(path);
	rc = atomic_open(&a, path);
	if (rc)
		return rc;
	if (tag_head) {
		csv_write_field(a.f, tag_head);
		fputc(',', a.f);
	}
	for (size_t c = 0; c < ncols; c++) {
		csv_write_field(a.f, cols[c].head);
		fputs(c + 1 < ncols ? "," : "\r\n", a.f);
	}
	for (size_t i = 0; i < ng; i++) {
		if (!g[i].rows || g[i].rows->type != JSONR_ARRAY)
			continue;
		for (const struct jsonr_value *r = g[i].rows->u.children.first; r; r = r->next) {
			if (tag_head) {
				csv_write_field(a.f, g[i].tag ? g[i].tag : "");
				fputc(',', a.f);
			}
			for (size_t c = 0; c < ncols; c++) {
				write_value(a.f, jsonr_get(r, cols[c].key));
				fputs(c + 1 < ncols ? "," : "\r\n", a.f);
			}
		}
	}
	if ((rc = atomic_stream_error(a.f))) {
		atomic_abort(&a);
		return rc;
	}
	return atomic_commit(&a);
}













int csv_write_rows(const char *dir, const char *name, const struct jsonr_value *rows, const struct csv_col *cols,
		   size_t ncols)
{
	struct csv_group g = { NULL, rows };

	return csv_write_table(dir, name, NULL, &g, 1, cols, ncols);
}

int csv_write_row_tables(const char *dir, const struct jsonr_value *doc, const struct csv_rows_table *t, size_t nt)
{
	int rc = 0;

	for (size_t i = 0; i < nt && !rc; i++)
		rc = csv_write_rows(dir, t[i].name, jsonr_get(doc, t[i].path), t[i].cols, t[i].ncols);
	return rc;
}

void csv_one_row(struct jsonr_value *arr, struct jsonr_value *row, const struct jsonr_value *obj)
{
	*row = *obj;
	row->next = NULL;
	memset(arr, 0, sizeof(*arr));
	arr->type = JSONR_ARRAY;
	arr->u.children.first = arr->u.children.last = row;
	arr->u.children.count = 1;
}
