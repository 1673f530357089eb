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

size_t plots_mlp_arms(const struct jsonr_value *doc, const struct jsonr_value *arms[2], const char *pages[2])
{
	const struct jsonr_value *mlp = jsonr_get(doc, "mlp");
	static const char *const kinds[2] = { "small", "huge" };
	size_t n = 0;

	if (!mlp || mlp->type != JSONR_OBJECT)
		return 0;
	if (jsonr_member(mlp, "sweep")) {
		arms[0] = mlp;
		pages[0] = jsonr_get_string(mlp, "pages.requested");
		if (!pages[0])
			pages[0] = "?";
		return 1;
	}
	for (size_t i = 0; i < 2; i++) {
		const struct jsonr_value *a = jsonr_member(mlp, kinds[i]);

		if (a && jsonr_member(a, "sweep")) {
			arms[n] = a;
			pages[n++] = kinds[i];
		}
	}
	return n;
}

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

/* ---- the lanes sweep ---- */

static int plot_lanes(struct svg_plot *p, bool concurrency, const struct jsonr_value *const *docs,
		      const char *const *labels, size_t n)
{
	double kmax = 0;
	int drawn = 0;

	if (concurrency) {
		svg_plot_init(p, "lanes_concurrency", "Concurrency against lanes",
			      "lanes K (independent chains of dependent loads)", SVG_LINEAR,
			      "concurrency t(1)/t(K) (accesses in flight)", SVG_LINEAR);
		snprintf(p->note, sizeof(p->note), "points: measured; dashed: fitted model t(1) min(K, Ks) / L; bars: +/- the run's noise floor");
		p->y.include_zero = true;
	} else {
		svg_plot_init(p, "lanes_time", "Time per access against lanes",
			      "lanes K (independent chains of dependent loads)", SVG_LINEAR,
			      "time per access (ns, reciprocal throughput; log scale)", SVG_LOG10);
		snprintf(p->note, sizeof(p->note), "points: measured; dashed: fitted model t(K) = max(L/K, L/Ks); bars: +/- the run's noise floor");
	}
	p->x.include_zero = true;
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *arms[2];
		const char *pages[2];
		size_t na = plots_mlp_arms(docs[d], arms, pages);

		for (size_t a = 0; a < na; a++) {
			const struct jsonr_value *sw = jsonr_get(arms[a], "sweep");
			double floor_pct = summary_number(arms[a], "noise_floor_pct");
			double L = summary_number(arms[a], "estimate.fit_latency_ns");
			double Ks = summary_number(arms[a], "estimate.fit_saturation_lanes");
			double dKs = summary_number(arms[a], "estimate.fit_uncertainty");
			double t1 = NAN, klast = 1;
			char what[128], lab[160];
			int s, m;

			if (!sw || sw->type != JSONR_ARRAY)
				continue;
			drawn = 1;
			snprintf(what, sizeof(what), "measured, %s pages", pages[a]);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			s = svg_plot_series(p, lab, SVG_POINTS, SVG_AUTO, SVG_AUTO);
			if (s < 0)
				return -ENOMEM;
			for (const struct jsonr_value *pt = sw->u.children.first; pt; pt = pt->next) {
				double k = summary_number(pt, "lanes"), t = summary_number(pt, "ns_per_access");
				double v = !concurrency ? t : jsonr_member(pt, "concurrency_littles_law") ?
					summary_number(pt, "concurrency_littles_law") : summary_number(pt, "concurrency");

				if (k == 1)
					t1 = t;
				klast = fmax(klast, k);
				svg_plot_point(p, s, k, v, isfinite(floor_pct) ? v * floor_pct / 100 : NAN);
			}
			kmax = fmax(kmax, klast);
			if (!concurrency) {
				const struct jsonr_value *cu = jsonr_get(arms[a], "control_unrolled");

				if (cu && cu->type == JSONR_ARRAY && cu->u.children.count) {
					snprintf(what, sizeof(what), "control: one chain unrolled K times, %s pages", pages[a]);
					plots_label(lab, sizeof(lab), labels[d], n, what);
					int c = svg_plot_series(p, lab, SVG_POINTS, p->series[s].color, 4);

					if (c < 0)
						return -ENOMEM;
					for (const struct jsonr_value *pt = cu->u.children.first; pt; pt = pt->next)
						svg_plot_point(p, c, summary_number(pt, "lanes"), summary_number(pt, "ns_per_access"), NAN);
				}
			}
			if (!(L > 0 && Ks > 0))
				continue;
			snprintf(what, sizeof(what), "model: L = %.1f ns, Ks = %.1f, %s pages", L, Ks, pages[a]);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			m = svg_plot_series(p, lab, SVG_LINES | SVG_DASHED, p->series[s].color, 0);
			if (m < 0)
				return -ENOMEM;
			/* Fine steps so the corner at Ks is drawn where it is. The
			 * count is fixed before the loop, and at most a quarter step
			 * per lane the kernels can run, whatever the file says. */
			size_t nsteps = (size_t)(4 * (fmin(klast, LANES_MAX) - 1)) + 1;

			for (size_t st = 0; st < nsteps; st++) {
				double k = 1 + 0.25 * (double)st, tk = fmax(L / k, L / Ks);

				svg_plot_point(p, m, k, concurrency ? t1 / tk : tk, NAN);
				if (k < Ks && k + 0.25 > Ks)
					svg_plot_point(p, m, Ks, concurrency ? t1 * Ks / L : L / Ks, NAN);
			}
			if (isfinite(dKs))
				snprintf(what, sizeof(what), "Ks = %.1f +/- %.1f (%s)", Ks, dKs, pages[a]);
			else
				snprintf(what, sizeof(what), "Ks = %.1f (%s)", Ks, pages[a]);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			svg_plot_vline(p, Ks, lab, p->series[s].color, true);
		}
	}
	if (concurrency && kmax > 0) {
		/* The ideal: every lane's miss in flight at once. */
		int id = svg_plot_series(p, "ideal: concurrency = K", SVG_LINES | SVG_DASHED, SVG_GREY, 0);

		if (id < 0)
			return -ENOMEM;
		svg_plot_point(p, id, 1, 1, NAN);
		svg_plot_point(p, id, kmax, kmax, NAN);
	}
	return plots_done(p, drawn);
}

/* ---- the lanes sweep per cache level ---- */

int plots_lanes_levels(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	int drawn = 0;

	svg_plot_init(p, "lanes_levels", "Concurrency against lanes at each cache level",
		      "lanes K (independent chains of dependent loads)", SVG_LINEAR,
		      "concurrency t(1)/t(K) at that level", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "one series per working set (total footprint held); dashed: Ks per level");
	p->x.include_zero = true;
	p->y.include_zero = true;
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *arms[2], *lv;
		const char *pages[2];

		if (!plots_mlp_arms(docs[d], arms, pages) || !(lv = jsonr_get(arms[0], "levels")) ||
		    lv->type != JSONR_ARRAY)
			continue;
		for (const struct jsonr_value *l = lv->u.children.first; l; l = l->next) {
			const struct jsonr_value *c = jsonr_member(l, "concurrency_littles_law") ?
				jsonr_get(l, "concurrency_littles_law") : jsonr_get(l, "concurrency");
			const char *name = jsonr_get_string(l, "level");
			double ws = summary_number(l, "working_set_bytes"), ks = summary_number(l, "ks"), k = 1;
			char what[128], lab[160], b[32];
			int s;

			if (!c || c->type != JSONR_ARRAY)
				continue;
			drawn = 1;
			plots_format_bytes(b, sizeof(b), ws);
			snprintf(what, sizeof(what), "%s (%s)", name ? name : "?", b);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			if ((s = svg_plot_series(p, lab, SVG_POINTS | SVG_LINES, SVG_AUTO, SVG_AUTO)) < 0)
				return -ENOMEM;
			for (const struct jsonr_value *v = c->u.children.first; v; v = v->next, k++)
				if (v->type == JSONR_NUMBER)
					svg_plot_point(p, s, k, v->u.number, NAN);
			if (isfinite(ks)) {
				snprintf(what, sizeof(what), "Ks = %.1f (%s)", ks, name ? name : "?");
				plots_label(lab, sizeof(lab), labels[d], n, what);
				svg_plot_vline(p, ks, lab, p->series[s].color, true);
			}
		}
	}
	return plots_done(p, drawn);
}

int plots_lanes_time(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	return plot_lanes(p, false, docs, labels, n);
}

int plots_lanes_concurrency(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
			    size_t n)
{
	return plot_lanes(p, true, docs, labels, n);
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
