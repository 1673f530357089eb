/*
 * A tiny SVG plotter: one x-y plot with linear or log axes, several series
 * (points, lines or both, error bars), marker lines with labels and a legend.
 * It knows nothing about mlpscope's quantities: callers name axes with the
 * quantity and its unit. Output is a self-contained <svg> element (no fonts,
 * no scripts, no external references), so it embeds inline in HTML as is and,
 * with an XML declaration in front, stands alone as a .svg file.
 */
#ifndef MLPSCOPE_REPORT_SVG_H
#define MLPSCOPE_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum svg_scale { SVG_LINEAR, SVG_LOG2, SVG_LOG10 };

/* How tick labels are written: plain numbers, or bytes in binary units
 * ("32 KiB") for log2 size axes. */
enum svg_ticks { SVG_TICKS_NUMBER, SVG_TICKS_BYTES };

/* Series style bits. */
#define SVG_POINTS 1u
#define SVG_LINES 2u
#define SVG_DASHED 4u /* lines drawn dashed: models, not measurements */

#define SVG_AUTO (-1)  /* colour or marker: take the next one */
#define SVG_GREY (-2)  /* colour of OS claims and other annotations */

struct svg_axis {
	char label[128];       /* quantity and unit, e.g. "latency (ns per load)" */
	enum svg_scale scale;
	enum svg_ticks ticks;
	bool include_zero;     /* linear: start at 0 so ratios read true */
};

struct svg_series {
	char label[128];
	unsigned style;
	int color, marker;
	size_t n, cap;
	double *x, *y, *err;   /* err: +/- absolute, NaN for none */
};

enum svg_mark_kind { SVG_MARK_VLINE, SVG_MARK_HLINE, SVG_MARK_HSEG };

struct svg_mark {
	enum svg_mark_kind kind;
	double x0, x1, y;      /* VLINE: x0; HLINE: y; HSEG: x0..x1 at y */
	int color;
	bool dashed;
	char label[128];
};

struct svg_plot {
	char id[32];           /* unique per page: prefixes clip-path ids */
	char title[160];
	char note[200];        /* one line under the title, may be empty */
	struct svg_axis x, y;
	struct svg_series *series;
	size_t nseries, series_cap;
	struct svg_mark *marks;
	size_t nmarks, marks_cap;
	int next_color, next_marker;
	int error;             /* sticky -ENOMEM from any add */
};

/* Start an empty plot; every string is copied (and cut to fit). */
void svg_plot_init(struct svg_plot *p, const char *id, const char *title, const char *xlabel,
		   enum svg_scale xscale, const char *ylabel, enum svg_scale yscale);
void svg_plot_free(struct svg_plot *p);

/* Add a series; returns its index, or -ENOMEM. color/marker: a palette
 * index, SVG_AUTO or SVG_GREY. */
int svg_plot_series(struct svg_plot *p, const char *label, unsigned style, int color, int marker);
/* Add a point to series s; err is the +/- half-height of its error bar in y
 * units (NaN: none). Non-finite points, and non-positive ones on log axes,
 * are kept but not drawn. 0 or -ENOMEM / -EINVAL. */
int svg_plot_point(struct svg_plot *p, int s, double x, double y, double err);

/* Annotations. 0 or -ENOMEM. */
int svg_plot_vline(struct svg_plot *p, double x, const char *label, int color, bool dashed);
int svg_plot_hline(struct svg_plot *p, double y, const char *label, int color, bool dashed);
int svg_plot_hseg(struct svg_plot *p, double x0, double x1, double y, const char *label, int color);

/* The colour a series or mark got ("#rrggbb"), for callers that want marks
 * in their series' colour. */
const char *svg_color(int color);

/* True when at least one series holds a drawable point. */
bool svg_plot_has_data(const struct svg_plot *p);

/* Write the <svg> element. standalone adds the XML declaration a .svg file
 * wants. 0, -ENOMEM (an earlier add failed) or the -errno
 * of a failed write. */
int svg_plot_write(const struct svg_plot *p, FILE *f, bool standalone);

/* Write s with XML/HTML escaping (& < > " '); control characters, which
 * XML 1.0 forbids, are dropped. */
void svg_escape(FILE *f, const char *s);

#endif
