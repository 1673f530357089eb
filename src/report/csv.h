/*
 * Tidy CSV from a parsed mlpscope JSON result (the tables themselves are
 * each section's: registry_write_csv calls them): one file per table, one row
 * per measurement, one column per quantity, the unit in the column name
 * (size_bytes, chase_ns, bw_gbps). RFC 4180: CRLF line ends, fields quoted
 * when they hold a comma, quote or line break; null is an empty field.
 * Numbers print in the shortest form that reads back as the same double.
 * Raw per-trial arrays stay in the JSON: a cell holds one value.
 */
#ifndef MLPSCOPE_REPORT_CSV_H
#define MLPSCOPE_REPORT_CSV_H

#include <stdio.h>

#include "util/jsonr.h"

/* One column: its header (unit included) and the key path inside a row. */
struct csv_col {
	const char *head;
	const char *key;
};

/* Rows from one array, tagged with the value of the leading column. */
struct csv_group {
	const char *tag;
	const struct jsonr_value *rows;
};

#define CSV_MAX_GROUPS 16
#define CSV_NCOLS(a) (sizeof(a) / sizeof((a)[0]))

/* Write dir/name.csv whole or not at all: a leading tag_head column (when
 * not NULL) holding each group's tag, then cols over every row of every
 * group. No rows: any dir/name.csv an earlier run left is removed, so it
 * cannot pass for this run's. 0 or -errno. */
int csv_write_table(const char *dir, const char *name, const char *tag_head, const struct csv_group *g,
		    size_t ng, const struct csv_col *cols, size_t ncols);

/* One group, no tag column. */
int csv_write_rows(const char *dir, const char *name, const struct jsonr_value *rows, const struct csv_col *cols,
		   size_t ncols);

/* One table of a section's CSV files: dir/name.csv from the array at
 * path in the result document. */
struct csv_rows_table {
	const char *name;
	const char *path;
	const struct csv_col *cols;
	size_t ncols;
};

#define CSV_ROWS_TABLE(name, path, cols) { name, path, cols, CSV_NCOLS(cols) }

/* csv_write_rows for each table in order; the first error stops it. */
int csv_write_row_tables(const char *dir, const struct jsonr_value *doc, const struct csv_rows_table *t, size_t nt);

/* A one-element array view of obj (in arr, through row), so a summary
 * object is a one-row table. */
void csv_one_row(struct jsonr_value *arr, struct jsonr_value *row, const struct jsonr_value *obj);

/* One field, quoted as RFC 4180 asks when it must be. */
void csv_write_field(FILE *f, const char *s);

#endif
