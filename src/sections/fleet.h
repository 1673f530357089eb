/*
 * The fleet view of `compare`: many results (files, or every *.json in a
 * directory) as one table of headline figures, one row per result, sorted
 * by a chosen figure, with the settings that differ across them listed.
 * The figures are the headline summary's (report/summary.c), so a row
 * reads as that host's summary does; the columns are the views'
 * (report/view.h). Reads files, measures nothing.
 */
#ifndef MLPSCOPE_SECTIONS_FLEET_H
#define MLPSCOPE_SECTIONS_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sections/fleet_table.h"
#include "frame/options.h"

/* Whether compare's request is for the fleet table alone: an operand that
 * is a directory, or a sort figure (compare's --sort; NULL: none given). */
bool fleet_wanted(const struct options *o, const char *sort_by);

/* Whether a directory's entry of this name is read as a result (*.json,
 * not hidden): the outputs check refuses to write over one. */
bool fleet_reads_name(const char *name);

/* Load every operand (a directory: its *.json files, by name), print the
 * table to out sorted by sort_by (NULL: memory_latency_ns), and with html
 * (o->html_path, when with_html) the same table as a page. 0, 2 for a bad
 * file or an unknown sort figure, 1 for a runtime failure; err holds one
 * line when not 0. */
int fleet_run(const struct options *o, const char *sort_by, FILE *out, bool with_html, char *err, size_t errlen);

#endif
