/*
 * A section's view: what the reader side knows of one section's part of a
 * result document (its HTML tables, its headline figures, its plots, its
 * rows in compare's table, its columns in the fleet table and the settings
 * they depend on), kept beside that section's writers in
 * report/NAME_view.c. The HTML page, the summary, the plots, compare and
 * its fleet table loop over a list of views handed down by the caller
 * (frame/registry.c builds it from registry[] in report order), because
 * report/ may not name the sections. Views read only the result document,
 * never a live result: a saved file draws as a live run.
 */
#ifndef MLPSCOPE_REPORT_VIEW_H
#define MLPSCOPE_REPORT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct compare_table;
struct html_col;
struct html_rows_table;
struct jsonr_value;
struct summary;
struct summary_figure;
struct svg_plot;

/* One run as the HTML page shows it. */
struct html_ctx {
	const struct jsonr_value *doc;  /* the whole document: some tables read other sections */
	const char *label;              /* names the run beside every heading */
	size_t run;                     /* from 0; anchors are "run1-SECTION" */
};

/* One plot: all runs on the same axes. build initialises p (svg_plot_free it
 * in every case) and returns 0 when drawn, -ENOENT when no document has the
 * data, -ENOMEM. */
struct view_plot {
	const char *name;  /* file stem and figure id: "latency" -> latency.svg, #plot-latency */
	int page_order;    /* its place among every view's plots on the page, from 0 */
	int (*build)(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n);
};

/* One column of compare's fleet table (sections/fleet.c): a headline figure
 * per run, which --sort also ranks by. */
struct view_fleet_column {
	const char *figure;     /* --sort's name: a summary figure's, or value()'s */
	const char *head;       /* the column's head, 9 characters at most */
	int order;              /* its place among every view's columns, from 0 */
	bool higher_is_better;  /* sorted best first: descending when set */
	/* NULL: the summary figure named figure, at its decimals. Else the
	 * figure read from the document, NaN when absent, at one decimal. */
	double (*value)(const struct jsonr_value *doc, const char *figure);
};

/* A fleet column that is a difference of two measurements, and the summary
 * figure its outlier tolerance (the noise floor, a share) is taken of: the
 * difference's own size says nothing of the noise in what was subtracted. */
struct view_fleet_scale {
	const char *figure, *of;
};

/* A setting that decides what the view's fleet figures mean: its key in the
 * document, listed when the runs differ in it. */
struct view_fleet_setting {
	const char *key;
	int order;  /* its place among every view's settings, from 0 */
};

/* One Prometheus gauge family the view's headline figures go to
 * (report/prom.c writes the families of every view; a figure none claims
 * still goes out, as mlpscope_summary_figure). */
struct view_prom_family {
	const char *name;    /* "mlpscope_latency_seconds": base units, as promtool's lint asks */
	const char *help;
	int order;           /* its place among every view's families in the text, from 0 */
	double scale;        /* the figure's unit into the family's (ns into seconds: 1e-9); 0: 1 */
	const char *figure;  /* the one summary figure it takes, unlabelled; NULL: sample() decides */
	/* Whether figure g is a sample of this family: labels filled (without
	 * braces, may be empty) and *value its value in the figure's unit. */
	bool (*sample)(const struct summary_figure *g, char *labels, size_t len, double *value);
};

struct view {
	const char *section;  /* the JSON key of the section's part of a result */
	/* Its heading(s) and tables for one run; part is doc's member section.
	 * NULL for a plain section, named as data instead: the heading
	 * html_title, the key/value rows html_rows of part, then each of
	 * html_tables (html_section_tables, report/html_table.h). */
	void (*html)(FILE *f, const struct jsonr_value *part, const struct html_ctx *c);
	const char *html_title;
	const struct html_col *html_rows;
	size_t nhtml_rows;
	const struct html_rows_table *html_tables;
	size_t nhtml_tables;
	/* The summary row "not run" shows on when part is absent (one of
	 * summary_lines()); NULL with no headline figures. */
	const char *summary_line;
	void (*summary)(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *part);
	const struct view_plot *plots;
	size_t nplots;
	/* compare: its settings and rows for run run (report/compare_table.h);
	 * called in report order, so its groups come in that order. */
	void (*compare)(struct compare_table *t, size_t run, const struct jsonr_value *doc,
			const struct jsonr_value *part);
	/* compare's fleet table: its columns, and the settings they depend on. */
	const struct view_fleet_column *fleet;
	size_t nfleet;
	const struct view_fleet_setting *fleet_settings;
	size_t nfleet_settings;
	const struct view_fleet_scale *fleet_scales;
	size_t nfleet_scales;
	/* The key in its part that names the CPU a result was measured on, for
	 * --prom's labels where the provenance names none; NULL: none. */
	const char *cpu_model_key;
	/* --prom: the families its headline figures go to. */
	const struct view_prom_family *prom;
	size_t nprom;
};

/* .plots and .nplots from one array: VIEW_PLOTS(latency_plots). */
#define VIEW_PLOTS(a) .plots = (a), .nplots = sizeof(a) / sizeof((a)[0])
/* A plain section's HTML: its heading, key/value rows and tables. */
#define VIEW_HTML_SECTION(title, rows, tables)                                             \
	.html_title = (title), .html_rows = (rows), .nhtml_rows = sizeof(rows) / sizeof((rows)[0]), \
	.html_tables = (tables), .nhtml_tables = sizeof(tables) / sizeof((tables)[0])
/* .fleet and .fleet_settings likewise. */
#define VIEW_FLEET(a) .fleet = (a), .nfleet = sizeof(a) / sizeof((a)[0])
#define VIEW_FLEET_SETTINGS(a) .fleet_settings = (a), .nfleet_settings = sizeof(a) / sizeof((a)[0])
#define VIEW_FLEET_SCALES(a) .fleet_scales = (a), .nfleet_scales = sizeof(a) / sizeof((a)[0])
#define VIEW_PROM(a) .prom = (a), .nprom = sizeof(a) / sizeof((a)[0])

#endif
