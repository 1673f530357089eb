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

#include "sections/options.h"

struct view;
struct view_fleet_column;
struct view_fleet_setting;

/* Most results one fleet table reads (a directory may hold more: error). */
#define FLEET_MAX_RESULTS 1024
/* Most columns (and most settings) the table holds. */
#define FLEET_MAX_COLUMNS 32

/* The table's columns and the settings listed above it when the results
 * differ in them: every view's and the document's own (the warnings; the
 * version, schema_version and provenance.online_cpus), each list by its
 * order (ties in the views' order). */
struct fleet_layout {
	const struct view_fleet_column *col[FLEET_MAX_COLUMNS];
	size_t ncol;
	const struct view_fleet_setting *setting[FLEET_MAX_COLUMNS];
	size_t nsetting;
	/* per column: the figure its outlier tolerance is a share of (a
	 * view's fleet_scales), NULL: its own median */
	const char *scale[FLEET_MAX_COLUMNS];
};

/* Fill l from views (NULL-terminated, registry_views()). */
void fleet_layout(const struct view *const *views, struct fleet_layout *l);

/* Whether compare's request is for the fleet table alone: an operand that
 * is a directory, or --sort. */
bool fleet_wanted(const struct options *o);

/* Whether a directory's entry of this name is read as a result (*.json,
 * not hidden): the outputs check refuses to write over one. */
bool fleet_reads_name(const char *name);

/* Load every operand (a directory: its *.json files, by name), print the
 * table to out, and with html (o->html_path, when with_html) the same
 * table as a page. 0, 2 for a bad file or an unknown --sort figure, 1 for
 * a runtime failure; err holds one line when not 0. */
int fleet_run(const struct options *o, FILE *out, bool with_html, char *err, size_t errlen);

#endif
