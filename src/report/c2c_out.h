/*
 * Writers for the c2c section: the text matrix, the `c2c` JSON object, and
 * the heat map drawn from a parsed result (for the HTML and --svg). They
 * read and write; they never measure.
 */
#ifndef MLPSCOPE_REPORT_C2C_OUT_H
#define MLPSCOPE_REPORT_C2C_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "exp/c2c.h"

struct jsonr_value;
struct jsonw;

/* Up to this many CPUs the text report prints the matrices; beyond, the
 * overall figures and where the matrices are (JSON, HTML). */
#define C2C_TEXT_MATRIX_MAX 32

/* The one line that says where the line lived and which core touched it. */
#define C2C_PLACEMENT "a fresh 4 KiB page per ordered pair, mapped and first touched by the row's CPU " \
	"(its memory node under first touch); only the row's and the column's CPUs ever touch that line"

void c2c_write_text(const void *result, FILE *f);
void c2c_write_json(const void *result, struct jsonw *w, const char *key);

/* The median matrix of doc's c2c section as an SVG heat map (inline in
 * HTML, or standalone with an XML declaration). 0, or -ENOENT without a
 * c2c section. */
int c2c_write_heatmap(FILE *f, const struct jsonr_value *doc, const char *id, bool standalone);

/* Its view (report/c2c_view.c): the HTML tables, headline figures and plots. */
struct view;
extern const struct view view_c2c;

#endif
