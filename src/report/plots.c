/*
 * The plots: which keys feed which series, and the models drawn over them.
 * The lanes model t(K) = max(L/K, L/Ks) is redrawn from the fitted L and Ks
 * in the document, never refitted here, so the curve shows exactly the fit
 * the text report states. Error bars are the run's own noise floor (the
 * spread of min-of-3 estimates), not a confidence interval.
 */
#include "report/plots.h"

#include "kern/lanes.h"
#include "report/summary.h"
#include "report/view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void plots_label(char *out, size_t len, const char *run, size_t nruns, const char *what)
{
	if (nruns > 1)
		snprintf(out, len, "%s: %s", run, what);
	else
		snprintf(out, len, "%s", what);
}

int plots_series_for(struct svg_plot *p, const char *lab)
{
	for (size_t i = 0; i < p->nseries; i++)
		if (!strcmp(p->series[i].label, lab))
			return (int)i;
	return svg_plot_series(p, lab, SVG_POINTS | SVG_LINES, SVG_AUTO, SVG_AUTO);
}

int plots_done(const struct svg_plot *p, int drawn)
{
	if (p->error)
		return p->error;
	return drawn ? 0 : -ENOENT;
}

/* A cache level as an int, 0 when absent or not 1..8: converting a NaN or
 * out-of-range double to int is undefined behaviour, so it is never done. */
static int level_of(const struct jsonr_value *c)
{
	double l = summary_number(c, "level");

	return l >= 1 && l <= 8 ? (int)l : 0;
}

void plots_format_bytes(char *out, size_t len, double b)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	size_t u = 0;

	while (b >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		b /= 1024;
		u++;
	}
	snprintf(out, len, "%.4g %s", b, units[u]);
}

/* ---- latency against working set ---- */

struct os_cache {
	double size_bytes;
	int level;
	char type;
};

int plots_latency(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	struct os_cache seen[32];
	size_t nseen = 0;
	int drawn = 0;

	svg_plot_init(p, "latency", "Latency against working set",
		      "working set (bytes, binary units; log scale)", SVG_LOG2,
		      "latency (ns per dependent load; log scale)", SVG_LOG10);
	p->x.ticks = SVG_TICKS_BYTES;
	snprintf(p->note, sizeof(p->note), "random chase: a latency; +64 B stream: prefetchable; bars: detected levels; grey dashed: cache sizes the OS reports");
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *pts = jsonr_get(docs[d], "latency.points");
		const char *kinds[4];
		size_t nkinds = 0;
		int chase_color = -1;

		if (!pts || pts->type != JSONR_ARRAY)
			continue;
		drawn = 1;
		/* One chase and one stream curve per page kind, in file order. */
		for (const struct jsonr_value *pt = pts->u.children.first; pt; pt = pt->next) {
			const char *k = jsonr_get_string(pt, "pages");
			size_t i;

			if (!k)
				k = "?";
			for (i = 0; i < nkinds && strcmp(kinds[i], k); i++)
				;
			if (i == nkinds && nkinds < 4)
				kinds[nkinds++] = k;
		}
		for (size_t i = 0; i < nkinds; i++) {
			char what[96], lab[128];
			int sc, ss;
			bool lines;
			size_t count = 0;

			for (const struct jsonr_value *pt = pts->u.children.first; pt; pt = pt->next) {
				const char *k = jsonr_get_string(pt, "pages");

				count += k && !strcmp(k, kinds[i]);
			}
			lines = count > 1;
			snprintf(what, sizeof(what), "random chase, %s pages", kinds[i]);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			sc = svg_plot_series(p, lab, SVG_POINTS | (lines ? SVG_LINES : 0), SVG_AUTO, SVG_AUTO);
			snprintf(what, sizeof(what), "+64 B stream, %s pages", kinds[i]);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			ss = svg_plot_series(p, lab, SVG_POINTS | (lines ? SVG_LINES : 0), SVG_AUTO, SVG_AUTO);
			if (sc < 0 || ss < 0)
				return -ENOMEM;
			if (i == 0)
				chase_color = p->series[sc].color;
			for (const struct jsonr_value *pt = pts->u.children.first; pt; pt = pt->next) {
				const char *k = jsonr_get_string(pt, "pages");
				double x = summary_number(pt, "size_bytes");

				if (!k || strcmp(k, kinds[i]))
					continue;
				svg_plot_point(p, sc, x, summary_number(pt, "chase_ns"), NAN);
				svg_plot_point(p, ss, x, summary_number(pt, "stream_ns"), NAN);
			}
		}
		/* Detected levels: a bar over the sizes each plateau spans. */
		const struct jsonr_value *lv = jsonr_get(docs[d], "latency.levels_detected");
		for (const struct jsonr_value *l = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; l; l = l->next) {
			char what[96], lab[128];

			snprintf(what, sizeof(what), "level %.0f: %.3g ns", summary_number(l, "level"), summary_number(l, "latency_ns"));
			plots_label(lab, sizeof(lab), labels[d], n, what);
			svg_plot_hseg(p, summary_number(l, "first_bytes"), summary_number(l, "size_bytes"),
				      summary_number(l, "latency_ns"), n > 1 ? "" : lab, chase_color);
		}
		/* The OS's claims, once per distinct size across runs. */
		const struct jsonr_value *cr = jsonr_get(docs[d], "machine.caches_reported");
		for (const struct jsonr_value *c = cr && cr->type == JSONR_ARRAY ? cr->u.children.first : NULL; c; c = c->next) {
			const char *type = jsonr_get_string(c, "type");
			double size = summary_number(c, "size_bytes");
			int level = level_of(c);
			char t = type ? type[0] : '?', sz[32], lab[128];
			size_t i;

			if (t == 'I' || !(size > 0))  /* instruction caches hold no data */
				continue;
			for (i = 0; i < nseen && !(seen[i].size_bytes == size && seen[i].level == level); i++)
				;
			if (i < nseen || nseen == sizeof(seen) / sizeof(seen[0]))
				continue;
			seen[nseen++] = (struct os_cache){ size, level, t };
			plots_format_bytes(sz, sizeof(sz), size);
			if (level)
				snprintf(lab, sizeof(lab), "L%d%s %s (OS)", level, t == 'D' ? "d" : "", sz);
			else
				snprintf(lab, sizeof(lab), "L?%s %s (OS)", t == 'D' ? "d" : "", sz);
			svg_plot_vline(p, size, lab, SVG_GREY, true);
		}
	}
	return plots_done(p, drawn);
}

size_t plots_of_views(const struct view *const *views, const struct view_plot **out, size_t max)
{
	size_t n = 0;

	for (size_t v = 0; views[v]; v++)
		for (size_t i = 0; i < views[v]->nplots && n < max; i++) {
			const struct view_plot *q = &views[v]->plots[i];
			size_t at = n++;

			/* Insertion by page_order; ties keep the views' order. */
			for (; at > 0 && out[at - 1]->page_order > q->page_order; at--)
				out[at] = out[at - 1];
			out[at] = q;
		}
	return n;
}

const struct view_plot *plots_find(const struct view *const *views, const char *name)
{
	for (size_t v = 0; views[v]; v++)
		for (size_t i = 0; i < views[v]->nplots; i++)
			if (!strcmp(views[v]->plots[i].name, name))
				return &views[v]->plots[i];
	return NULL;
}
