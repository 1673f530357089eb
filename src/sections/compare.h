/*
 * `mlpscope compare A.json B.json [C.json...]`: the headline figures of
 * saved results side by side, with ratios to the first run. Only quantities
 * measured the same way are compared: settings that differ (schema, working
 * set, spacing, trials, threads...) are listed, and the rows they affect are
 * named as skipped, with the reason. This module reads files and writes
 * text and HTML; it never measures and never exits.
 */
#ifndef MLPSCOPE_SECTIONS_COMPARE_H
#define MLPSCOPE_SECTIONS_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "frame/options.h"

/* Compare n results: a text table on out and, with html_path, one HTML page
 * with every run on the same axes (written whole or not at all). Returns an
 * exit status: 0; 2 for bad input (fewer than two files, or one that is not
 * a readable mlpscope result of a schema this build knows); 1 for I/O
 * errors. On 1 or 2, err holds one line naming the file. */
int compare_run(const char *const *paths, size_t n, FILE *out, const char *html_path, char *err, size_t errlen);

/* The registry's entry: o->paths, with --html and --svg. Exit status as
 * compare_run (and 1 when the SVG files cannot be written). */
int cmd_compare(const struct options *o, char *err, size_t errlen);

#endif
