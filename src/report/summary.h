/*
 * The headline summary: the figures people compare machines by (latency per
 * level, memory latency and its page size, prefetcher and translation
 * effects, the MLP estimate, read bandwidth, window sizes, core-to-core
 * latency, the noise floor, the warnings), each with the JSON key it came
 * from. Built from a parsed result document, so one run's text, JSON and
 * HTML and `compare` of saved files (the fleet table) read the same figures.
 * It measures nothing and judges nothing: every figure is a section's own.
 */
#ifndef MLPSCOPE_REPORT_SUMMARY_H
#define MLPSCOPE_REPORT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/jsonr.h"

struct jsonw;
struct view;

#define SUMMARY_MAX_FIGURES 48
#define SUMMARY_MAX_ABSENT 16
#define SUMMARY_MAX_HIDDEN 4

struct summary_figure {
	const char *line;     /* text row and HTML row it is shown on: "L1 latency" */
	const char *section;  /* the section it came from: its JSON key and HTML anchor */
	char name[48];        /* JSON name, unit in it: "l1_latency_ns" */
	char what[40];        /* printed before the value, may be empty: "rob" */
	double value;
	double uncertainty;   /* +/- in the value's unit; NaN: none stated */
	const char *unit;     /* "ns", "cycles", "x", "GB/s", "%", "" */
	int decimals;
	bool yesno;           /* a fact, 1 or 0: shown as yes / no, a JSON bool */
	char note[160];       /* where or how: "at 1.00 GiB, huge pages 100% obtained" */
	char from[96];        /* the key in the document: "latency.levels_detected[0].latency_ns" */
};

/* A row whose section did not run: shown as "not run". */
struct summary_absent {
	const char *line;
	const char *section;
};

struct summary {
	size_t n;
	struct summary_figure fig[SUMMARY_MAX_FIGURES];
	size_t nabsent;
	struct summary_absent absent[SUMMARY_MAX_ABSENT];
	/* Figures the noise floor kept off the summary, in words: "noise floor
	 * 67.0%: TLB steps not shown (...)". */
	size_t nhidden;
	char hidden[SUMMARY_MAX_HIDDEN][200];
};

/* Fill s from a result document through the views' summary hooks (views:
 * NULL-terminated, registry_views()); figures a section did not produce
 * are left out, sections absent from doc are listed in s->absent. */
void summary_build(const struct view *const *views, const struct jsonr_value *doc, struct summary *s);

/* For the views' hooks. */

/* Append a figure on row line (one of summary_lines()) from section, named
 * name (its unit in it); NULL, adding nothing, when value is not finite or
 * s is full. The caller fills what, note and from. */
struct summary_figure *summary_add(struct summary *s, const char *line, const char *section, const char *name,
				   double value, const char *unit, int decimals);

/* Say that a section's figures are not on the summary because the run's
 * noise floor hid them (printf-style); shown as a warning under the noise
 * floor's row, and in JSON as summary.hidden_by_floor[]. Dropped past
 * SUMMARY_MAX_HIDDEN. */
void summary_hidden(struct summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The number at path in v, NaN when absent or not a number. */
double summary_number(const struct jsonr_value *v, const char *path);

/* b bytes in binary units ("1.25 MiB"), "?" when not a size. */
void summary_format_bytes(char *out, size_t len, double b);

/* The rows in their fixed order, each once; for writers that lay the
 * summary out by row (text, HTML, compare's fleet table). */
size_t summary_lines(const char **lines, size_t max);

/* The figure named name in s, or NULL. */
const struct summary_figure *summary_find(const struct summary *s, const char *name);

/* "1.08 ns" / "22.3 +/- 1.5 lanes": one figure's value as text. */
void summary_format_value(char *out, size_t len, const struct summary_figure *g);

/* The text block: a heading and one line per row. */
void summary_write_text(const struct summary *s, FILE *f);

/* "summary": {"figures": [...], "not_run": [...], "hidden_by_floor": [...]}. */
void summary_write_json(const struct summary *s, struct jsonw *w);

/* A compact table, one column per run, each figure a link to its section
 * (#runN-SECTION, N from 1). */
void summary_write_html(FILE *f, const struct summary *s, const char *const *labels, size_t n);

#endif
