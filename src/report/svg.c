/*
 * The SVG plotter: ranges from the data, "nice" ticks (1-2-5 steps on linear
 * axes, powers on log axes), then the drawing in one pass. Marker-line labels
 * sit in a band above the plot area, stacked in rows so labels of nearby lines
 * never overprint each other or the data. Pixel sizes are fixed: the plots
 * are read on screens and in screenshots, not printed. No fonts are named
 * beyond the generic sans-serif family, so nothing is fetched.
 */
#include "report/svg.h"

#include "util/atomic.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W_PX 820.0
#define LEFT_PX 84.0
#define RIGHT_PX 28.0
#define TITLE_PX 28.0
#define NOTE_PX 16.0
#define PLOT_H_PX 340.0
#define AXIS_PX 56.0
#define ROW_PX 13.0
#define LEGEND_ROW_PX 18.0
#define CHAR_PX 5.8       /* mean advance of a 10 px sans-serif glyph, for layout */
#define MAX_LABEL_ROWS 10
/* A white outline under annotation text keeps it legible over grid and data. */
#define HALO " paint-order=\"stroke\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\""

static const char *const palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c564b",
};
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))
#define NMARKERS 6

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

void svg_plot_init(struct svg_plot *p, const char *id, const char *title, const char *xlabel,
		   enum svg_scale xscale, const char *ylabel, enum svg_scale yscale)
{
	memset(p, 0, sizeof(*p));
	copy_str(p->id, sizeof(p->id), id);
	copy_str(p->title, sizeof(p->title), title);
	copy_str(p->x.label, sizeof(p->x.label), xlabel);
	copy_str(p->y.label, sizeof(p->y.label), ylabel);
	p->x.scale = xscale;
	p->y.scale = yscale;
}

void svg_plot_free(struct svg_plot *p)
{
	for (size_t i = 0; i < p->nseries; i++) {
		free(p->series[i].x);
		free(p->series[i].y);
		free(p->series[i].err);
	}
	free(p->series);
	free(p->marks);
	p->series = NULL;
	p->marks = NULL;
	p->nseries = p->nmarks = 0;
}

const char *svg_color(int color)
{
	if (color < 0)
		return "#777777";
	return palette[(size_t)color % NCOLORS];
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*arr, ncap * elem);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

int svg_plot_series(struct svg_plot *p, const char *label, unsigned style, int color, int marker)
{
	struct svg_series *s;

	if (p->error)
		return p->error;
	if (grow((void **)&p->series, &p->series_cap, p->nseries + 1, sizeof(*p->series)))
		return p->error = -ENOMEM;
	s = &p->series[p->nseries];
	memset(s, 0, sizeof(*s));
	copy_str(s->label, sizeof(s->label), label);
	s->style = style;
	s->color = color == SVG_AUTO ? p->next_color++ : color;
	s->marker = marker == SVG_AUTO ? p->next_marker++ : marker;
	return (int)p->nseries++;
}

int svg_plot_point(struct svg_plot *p, int si, double x, double y, double err)
{
	struct svg_series *s;
	size_t cap;

	if (p->error)
		return p->error;
	if (si < 0 || (size_t)si >= p->nseries)
		return -EINVAL;
	s = &p->series[si];
	if (s->n == s->cap) {
		cap = s->cap;
		if (grow((void **)&s->x, &cap, s->n + 1, sizeof(double)))
			return p->error = -ENOMEM;
		cap = s->cap;
		if (grow((void **)&s->y, &cap, s->n + 1, sizeof(double)))
			return p->error = -ENOMEM;
		cap = s->cap;
		if (grow((void **)&s->err, &cap, s->n + 1, sizeof(double)))
			return p->error = -ENOMEM;
		s->cap = cap;
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->err[s->n] = err;
	s->n++;
	return 0;
}

static int add_mark(struct svg_plot *p, const struct svg_mark *m)
{
	if (p->error)
		return p->error;
	if (grow((void **)&p->marks, &p->marks_cap, p->nmarks + 1, sizeof(*p->marks)))
		return p->error = -ENOMEM;
	p->marks[p->nmarks++] = *m;
	return 0;
}

int svg_plot_vline(struct svg_plot *p, double x, const char *label, int color, bool dashed)
{
	struct svg_mark m = { .kind = SVG_MARK_VLINE, .x0 = x, .x1 = x, .y = NAN, .color = color, .dashed = dashed };

	copy_str(m.label, sizeof(m.label), label);
	return add_mark(p, &m);
}

int svg_plot_hline(struct svg_plot *p, double y, const char *label, int color, bool dashed)
{
	struct svg_mark m = { .kind = SVG_MARK_HLINE, .x0 = NAN, .x1 = NAN, .y = y, .color = color, .dashed = dashed };

	copy_str(m.label, sizeof(m.label), label);
	return add_mark(p, &m);
}

int svg_plot_hseg(struct svg_plot *p, double x0, double x1, double y, const char *label, int color)
{
	struct svg_mark m = { .kind = SVG_MARK_HSEG, .x0 = x0, .x1 = x1, .y = y, .color = color };

	copy_str(m.label, sizeof(m.label), label);
	return add_mark(p, &m);
}

void svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* XML 1.0 forbids most C0 controls even as references. */
			if (c >= 0x20 || c == '\t' || c == '\n')
				fputc(c, f);
		}
	}
}

/* ---- ranges and ticks ---- */

struct range {
	double lo, hi;          /* in data units */
	double tlo, thi;        /* transformed (log) */
	enum svg_scale scale;
	double step;            /* linear: tick step; log: exponent step */
};

static double tr(enum svg_scale s, double v)
{
	switch (s) {
	case SVG_LOG2: return log2(v);
	case SVG_LOG10: return log10(v);
	default: return v;
	}
}

static bool usable(enum svg_scale s, double v)
{
	return isfinite(v) && (s == SVG_LINEAR || v > 0);
}

static double nice_step(double raw)
{
	double mag = pow(10, floor(log10(raw))), f = raw / mag;

	if (f <= 1)
		return mag;
	if (f <= 2)
		return 2 * mag;
	if (f <= 5)
		return 5 * mag;
	return 10 * mag;
}

static void range_finish(struct range *r, const struct svg_axis *a, double lo, double hi)
{
	r->scale = a->scale;
	if (!(lo <= hi)) {      /* nothing drawable: an honest empty frame */
		lo = a->scale == SVG_LINEAR ? 0 : 1;
		hi = a->scale == SVG_LINEAR ? 1 : 10;
	}
	if (a->scale == SVG_LINEAR) {
		double span;

		if (a->include_zero) {
			lo = fmin(lo, 0);
			hi = fmax(hi, 0);
		}
		span = hi - lo;
		if (span <= 0)
			span = fabs(hi) > 0 ? fabs(hi) : 1;
		/* A little headroom so the top point is not drawn on the frame. */
		if (hi != 0 || !a->include_zero)
			hi += span * 0.04;
		if (lo != 0 || !a->include_zero)
			lo -= span * 0.04;
		r->step = nice_step((hi - lo) / 6);
		r->lo = floor(lo / r->step) * r->step;
		r->hi = ceil(hi / r->step) * r->step;
		if (r->hi <= r->lo)
			r->hi = r->lo + r->step;
		r->tlo = r->lo;
		r->thi = r->hi;
		return;
	}
	/* Log axes span the data plus a margin, not whole powers: a decade of
	 * empty frame above a 240 ns point would squash the curve, and a point
	 * on the last power would sit on the frame. */
	r->tlo = tr(a->scale, lo);
	r->thi = tr(a->scale, hi);
	{
		double pad = fmax((r->thi - r->tlo) * 0.04, 0.08);

		r->tlo -= pad;
		r->thi += pad;
	}
	r->step = 1;
	while ((floor(r->thi) - ceil(r->tlo)) / r->step > 8)
		r->step++;
	r->lo = a->scale == SVG_LOG2 ? exp2(r->tlo) : pow(10, r->tlo);
	r->hi = a->scale == SVG_LOG2 ? exp2(r->thi) : pow(10, r->thi);
}

static double to_px(const struct range *r, double v, double p0, double p1)
{
	return p0 + (tr(r->scale, v) - r->tlo) / (r->thi - r->tlo) * (p1 - p0);
}

static void fmt_tick(char *out, size_t len, double v, enum svg_ticks t)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	size_t u = 0;

	if (t == SVG_TICKS_BYTES) {
		while (fabs(v) >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
			v /= 1024;
			u++;
		}
		snprintf(out, len, "%.4g %s", v, units[u]);
		return;
	}
	snprintf(out, len, "%.4g", v);
}

/* Tick positions (data units) and whether each is labelled. */
static size_t ticks_of(const struct range *r, double *v, bool *labelled, size_t max)
{
	size_t n = 0;

	if (r->scale == SVG_LINEAR) {
		for (double t = r->lo; t <= r->hi + r->step * 1e-6 && n < max; t += r->step) {
			v[n] = fabs(t) < r->step * 1e-9 ? 0 : t;
			labelled[n++] = true;
		}
		return n;
	}
	for (double e = floor(r->tlo); e <= r->thi && n < max; e += 1) {
		double base = r->scale == SVG_LOG2 ? exp2(e) : pow(10, e);
		long k = (long)e, st = (long)r->step;
		bool few = r->scale == SVG_LOG10 && r->thi - r->tlo <= 3.2;

		if (e >= r->tlo && n < max) {
			v[n] = base;
			labelled[n++] = ((k % st) + st) % st == 0;
		}
		/* Few decades: 2 and 5 within each one, so values can be read off. */
		for (int m = 2; few && m <= 5; m += 3) {
			double t = log10((double)m * base);

			if (t >= r->tlo && t <= r->thi && n < max) {
				v[n] = (double)m * base;
				labelled[n++] = true;
			}
		}
	}
	return n;
}

/* ---- drawing ---- */

static void draw_marker(FILE *f, int marker, double x, double y, const char *col)
{
	const double r = 3.6;

	switch (((marker % NMARKERS) + NMARKERS) % NMARKERS) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>", x, y, r, col);
		break;
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>",
			x - r, y - r, 2 * r, 2 * r, col);
		break;
	case 2:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>",
			x, y - r * 1.2, x + r * 1.1, y + r * 0.8, x - r * 1.1, y + r * 0.8, col);
		break;
	case 3:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>",
			x, y - r * 1.3, x + r * 1.3, y, x, y + r * 1.3, x - r * 1.3, y, col);
		break;
	case 4:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>",
			x, y + r * 1.2, x + r * 1.1, y - r * 0.8, x - r * 1.1, y - r * 0.8, col);
		break;
	default:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"1.8\"/>",
			x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r, col);
	}
}

static void text_at(FILE *f, double x, double y, const char *anchor, const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra ? extra : "");
	svg_escape(f, s);
	fputs("</text>\n", f);
}

static void grid_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x1, y1, x2, y2, stroke);
}

/* One axis's grid: a light line across the plot at every tick, and at the
 * labelled ones a dark tick mark outside the frame and its label. The x axis
 * ticks along the bottom, the y axis (vertical) up the left side. */
static void write_grid(FILE *f, const struct range *r, enum svg_ticks ticks, bool vertical, double px0, double px1,
		       double top_px, double bot_px)
{
	double tv[64];
	bool tl[64];
	size_t nt = ticks_of(r, tv, tl, 64);

	for (size_t i = 0; i < nt; i++) {
		double at = vertical ? to_px(r, tv[i], bot_px, top_px) : to_px(r, tv[i], px0, px1);
		const char *grid = tl[i] ? "#dddddd" : "#f0f0f0";
		char buf[48];

		if (vertical)
			grid_line(f, px0, at, px1, at, grid);
		else
			grid_line(f, at, top_px, at, bot_px, grid);
		if (!tl[i])
			continue;
		fmt_tick(buf, sizeof(buf), tv[i], ticks);
		if (vertical) {
			grid_line(f, px0 - 5, at, px0, at, "#333333");
			text_at(f, px0 - 8, at + 4, "end", NULL, buf);
		} else {
			grid_line(f, at, bot_px, at, bot_px + 5, "#333333");
			text_at(f, at, bot_px + 18, "middle", NULL, buf);
		}
	}
}

static double label_px(const char *s)
{
	return (double)strlen(s) * CHAR_PX + 6;
}

bool svg_plot_has_data(const struct svg_plot *p)
{
	for (size_t i = 0; i < p->nseries; i++)
		for (size_t j = 0; j < p->series[i].n; j++)
			if (usable(p->x.scale, p->series[i].x[j]) && usable(p->y.scale, p->series[i].y[j]))
				return true;
	return false;
}

static void data_extent(const struct svg_plot *p, double *xlo, double *xhi, double *ylo, double *yhi)
{
	*xlo = *ylo = INFINITY;
	*xhi = *yhi = -INFINITY;
	for (size_t i = 0; i < p->nseries; i++) {
		const struct svg_series *s = &p->series[i];

		for (size_t j = 0; j < s->n; j++) {
			double e = isfinite(s->err[j]) ? fabs(s->err[j]) : 0;

			if (!usable(p->x.scale, s->x[j]) || !usable(p->y.scale, s->y[j]))
				continue;
			*xlo = fmin(*xlo, s->x[j]);
			*xhi = fmax(*xhi, s->x[j]);
			*yhi = fmax(*yhi, s->y[j] + e);
			*ylo = fmin(*ylo, usable(p->y.scale, s->y[j] - e) ? s->y[j] - e : s->y[j]);
		}
	}
	for (size_t i = 0; i < p->nmarks; i++) {
		const struct svg_mark *m = &p->marks[i];

		if (m->kind != SVG_MARK_HLINE && usable(p->x.scale, m->x0)) {
			*xlo = fmin(*xlo, m->x0);
			*xhi = fmax(*xhi, m->x0);
		}
		if (m->kind == SVG_MARK_HSEG && usable(p->x.scale, m->x1))
			*xhi = fmax(*xhi, m->x1);
		if (m->kind != SVG_MARK_VLINE && usable(p->y.scale, m->y)) {
			*ylo = fmin(*ylo, m->y);
			*yhi = fmax(*yhi, m->y);
		}
	}
}

/* Where a plot's parts sit on the page (px), worked out before any is drawn. */
struct layout {
	struct range xr, yr;
	double px0, px1, top_px, bot_px, legend_top, h_px;
	size_t cols;
	int *mark_row;           /* per mark: the label row of a vertical line */
};

/* Rows for vertical-line labels, first fit left to right in input order;
 * returns the rows used. */
static size_t place_mark_labels(const struct svg_plot *p, struct layout *L)
{
	double row_end[MAX_LABEL_ROWS];
	size_t nrows = 0;

	for (size_t r = 0; r < MAX_LABEL_ROWS; r++)
		row_end[r] = -1e9;
	for (size_t i = 0; i < p->nmarks; i++) {
		const struct svg_mark *m = &p->marks[i];
		double x, w, start;
		size_t r;

		if (m->kind != SVG_MARK_VLINE || !usable(p->x.scale, m->x0) || !m->label[0])
			continue;
		x = to_px(&L->xr, m->x0, L->px0, L->px1);
		w = label_px(m->label);
		start = x + w > W_PX - 4 ? x - w : x;
		for (r = 0; r < MAX_LABEL_ROWS - 1 && start < row_end[r] + 6; r++)
			;
		row_end[r] = fmax(row_end[r], start + w);
		L->mark_row[i] = (int)r;
		if (r + 1 > nrows)
			nrows = r + 1;
	}
	return nrows;
}

/* The plot area's top and bottom under the title, note and label rows,
 * and the legend's columns and rows below the axis label. */
static void place_areas(const struct svg_plot *p, struct layout *L, size_t nrows)
{
	double band_px = nrows ? (double)nrows * ROW_PX + 6 : 0;
	double max_label = 0;
	size_t legend_rows;

	L->top_px = TITLE_PX + (p->note[0] ? NOTE_PX : 0) + band_px + 8;
	L->bot_px = L->top_px + PLOT_H_PX;
	for (size_t i = 0; i < p->nseries; i++)
		max_label = fmax(max_label, label_px(p->series[i].label));
	L->cols = max_label + 40 < (L->px1 - L->px0) / 2 && p->nseries > 3 ? 2 : 1;
	legend_rows = (p->nseries + L->cols - 1) / L->cols;
	L->legend_top = L->bot_px + AXIS_PX;
	L->h_px = L->legend_top + (double)legend_rows * LEGEND_ROW_PX + 10;
}

/* The document's head, title, note, clip area, grid, ticks and axis labels. */
static void write_frame(const struct svg_plot *p, const struct layout *L, FILE *f, bool standalone)
{
	double px0 = L->px0, px1 = L->px1, top_px = L->top_px, bot_px = L->bot_px, h_px = L->h_px;

	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n",
		W_PX, h_px, W_PX, h_px);
	fputs("<title>", f);
	svg_escape(f, p->title);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", W_PX, h_px);
	text_at(f, W_PX / 2, 19, "middle", " font-size=\"14\" font-weight=\"bold\"", p->title);
	if (p->note[0])
		text_at(f, W_PX / 2, TITLE_PX + 10, "middle", " font-size=\"11\" fill=\"#444444\"", p->note);
	fprintf(f, "<defs><clipPath id=\"%s-clip\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>\n",
		p->id, px0, top_px, px1 - px0, bot_px - top_px);

	/* Grid and ticks. */
	write_grid(f, &L->xr, p->x.ticks, false, px0, px1, top_px, bot_px);
	write_grid(f, &L->yr, p->y.ticks, true, px0, px1, top_px, bot_px);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333333\"/>\n",
		px0, top_px, px1 - px0, bot_px - top_px);
	text_at(f, (px0 + px1) / 2, bot_px + 40, "middle", " font-size=\"12\"", p->x.label);
	fprintf(f, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 16 %.1f)\">",
		(top_px + bot_px) / 2, (top_px + bot_px) / 2);
	svg_escape(f, p->y.label);
	fputs("</text>\n", f);
}

/* Marks under the data, so points stay visible. */
static void write_marks(const struct svg_plot *p, const struct layout *L, FILE *f)
{
	double px0 = L->px0, px1 = L->px1, top_px = L->top_px, bot_px = L->bot_px;

	for (size_t i = 0; i < p->nmarks; i++) {
		const struct svg_mark *m = &p->marks[i];
		const char *col = svg_color(m->color);
		const char *dash = m->dashed ? " stroke-dasharray=\"5 3\"" : "";

		if (m->kind == SVG_MARK_VLINE && usable(p->x.scale, m->x0)) {
			double x = to_px(&L->xr, m->x0, px0, px1);
			double ly = TITLE_PX + (p->note[0] ? NOTE_PX : 0) + 4 + (double)(L->mark_row[i] + 1) * ROW_PX;
			double w = label_px(m->label);

			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.2\"%s/>\n",
				x, bot_px, x, m->label[0] ? ly + 2 : top_px, col, dash);
			if (m->label[0])
				text_at(f, x + w > W_PX - 4 ? x - 3 : x + 3, ly, x + w > W_PX - 4 ? "end" : "start",
					HALO " font-size=\"10\"", m->label);
		} else if (m->kind == SVG_MARK_HLINE && usable(p->y.scale, m->y)) {
			double y = to_px(&L->yr, m->y, bot_px, top_px);

			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.2\"%s/>\n",
				px0, y, px1, y, col, dash);
			if (m->label[0])
				text_at(f, px1 - 4, y - 4, "end", HALO " font-size=\"10\"", m->label);
		} else if (m->kind == SVG_MARK_HSEG && usable(p->y.scale, m->y) &&
			   usable(p->x.scale, m->x0) && usable(p->x.scale, m->x1)) {
			double y = to_px(&L->yr, m->y, bot_px, top_px);
			double x0 = to_px(&L->xr, m->x0, px0, px1), x1 = to_px(&L->xr, m->x1, px0, px1);

			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"5\" stroke-opacity=\"0.3\" stroke-linecap=\"round\"/>\n",
				x0, y, x1, y, col);
			if (m->label[0])
				text_at(f, x0, y + 15, "start", HALO " font-size=\"10\"", m->label);
		}
	}
}

/* One series: its line (broken at a missing point), error bars, markers. */
static void write_one_series(const struct svg_plot *p, const struct layout *L, const struct svg_series *s, FILE *f)
{
	double px0 = L->px0, px1 = L->px1, top_px = L->top_px, bot_px = L->bot_px;
	const char *col = svg_color(s->color);
	bool pen = false;

	if (s->style & SVG_LINES) {
		fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s d=\"", col,
			s->style & SVG_DASHED ? "1.6" : "1.3",
			s->style & SVG_DASHED ? " stroke-dasharray=\"7 4\"" : "");
		for (size_t j = 0; j < s->n; j++) {
			if (!usable(p->x.scale, s->x[j]) || !usable(p->y.scale, s->y[j])) {
				pen = false;  /* a gap, not a line through a missing point */
				continue;
			}
			fprintf(f, "%s%.1f %.1f", pen ? "L" : "M", to_px(&L->xr, s->x[j], px0, px1),
				to_px(&L->yr, s->y[j], bot_px, top_px));
			pen = true;
		}
		fputs("\"/>\n", f);
	}
	for (size_t j = 0; j < s->n; j++) {
		double x, y, e = s->err[j];

		if (!usable(p->x.scale, s->x[j]) || !usable(p->y.scale, s->y[j]))
			continue;
		x = to_px(&L->xr, s->x[j], px0, px1);
		y = to_px(&L->yr, s->y[j], bot_px, top_px);
		if (isfinite(e) && e > 0) {
			double lo = s->y[j] - e, hi = s->y[j] + e;
			double elo_px = usable(p->y.scale, lo) ? to_px(&L->yr, lo, bot_px, top_px) : bot_px;
			double ehi_px = to_px(&L->yr, hi, bot_px, top_px);

			fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-opacity=\"0.6\"/>\n",
				x, elo_px, x, ehi_px, x - 2.5, elo_px, x + 2.5, elo_px, x - 2.5, ehi_px, x + 2.5, ehi_px, col);
		}
		if (s->style & SVG_POINTS) {
			draw_marker(f, s->marker, x, y, col);
			fputc('\n', f);
		}
	}
}

/* Legend below the axis label: never over the data. */
static void write_legend(const struct svg_plot *p, const struct layout *L, FILE *f)
{
	for (size_t i = 0; i < p->nseries; i++) {
		const struct svg_series *s = &p->series[i];
		double colw = (L->px1 - L->px0) / (double)L->cols;
		double lx = L->px0 + (double)(i % L->cols) * colw;
		double ly = L->legend_top + (double)(i / L->cols) * LEGEND_ROW_PX;
		const char *col = svg_color(s->color);

		if (s->style & SVG_LINES)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.6\"%s/>",
				lx, ly, lx + 26, ly, col, s->style & SVG_DASHED ? " stroke-dasharray=\"7 4\"" : "");
		if (s->style & SVG_POINTS)
			draw_marker(f, s->marker, lx + 13, ly, col);
		text_at(f, lx + 34, ly + 4, "start", NULL, s->label);
	}
}

int svg_plot_write(const struct svg_plot *p, FILE *f, bool standalone)
{
	struct layout L;
	double xlo, xhi, ylo, yhi;

	if (p->error)
		return p->error;
	data_extent(p, &xlo, &xhi, &ylo, &yhi);
	range_finish(&L.xr, &p->x, xlo, xhi);
	range_finish(&L.yr, &p->y, ylo, yhi);
	L.px0 = LEFT_PX;
	L.px1 = W_PX - RIGHT_PX;
	L.mark_row = calloc(p->nmarks + 1, sizeof(*L.mark_row));
	if (!L.mark_row)
		return -ENOMEM;
	place_areas(p, &L, place_mark_labels(p, &L));

	write_frame(p, &L, f, standalone);
	write_marks(p, &L, f);
	fprintf(f, "<g clip-path=\"url(#%s-clip)\">\n", p->id);
	for (size_t i = 0; i < p->nseries; i++)
		write_one_series(p, &L, &p->series[i], f);
	fputs("</g>\n", f);
	write_legend(p, &L, f);
	fputs("</svg>\n", f);
	free(L.mark_row);
	return atomic_stream_error(f);
}
