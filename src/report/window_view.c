/*
 * The window section's view: as HTML tables the out-of-order structures'
 * capacities, each filler's step and (folded) every filler's points; the
 * headline's capacity per structure; the window plot; each filler's
 * capacity in compare.
 */
#include "report/window_out.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/compare_table.h"
#include "report/html_table.h"
#include "report/plots.h"
#include "report/summary.h"

static const struct html_col window_rows[] = {
	{ "ISA", "isa", F_TEXT }, { "working set", "working_set_bytes", F_BYTES },
	{ "layout ok", "layout_ok", F_BOOL }, { "iterations per region", "iters_per_region", F_TEXT },
	{ "trials per phase", "trials_per_phase", F_TEXT }, { "noise floor (%)", "noise_floor_pct", 2 },
	{ "warning", "warning", F_TEXT },
};

static const struct html_col wsummary_cols[] = {
	{ "structure", "structure", F_TEXT }, { "capacity (entries)", "capacity", 1 }, { "from", "from", F_TEXT },
	{ "partitioned", "partitioned", F_BOOL }, { "note", "note", F_TEXT },
};

static const struct html_col filler_cols[] = {
	{ "filler", "filler", F_TEXT }, { "fills", "structure", F_TEXT }, { "fits N", "step_n_fits", F_TEXT },
	{ "fails N", "step_n_fails", F_TEXT }, { "capacity (entries)", "capacity", 1 },
	{ "low", "capacity_low", 1 }, { "high", "capacity_high", 1 }, { "ramp from N", "ramp_onset_n", F_TEXT },
	{ "flat (ns/iter)", "flat_ns_per_iter", 1 }, { "jump (x)", "jump_ratio", 2 }, { "note", "note", F_TEXT },
};

static const struct html_col wpoint_cols[] = {
	{ "N", "n", F_TEXT }, { "ns per iteration", "ns_per_iter", 2 },
};

static void window_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	const struct jsonr_value *fl = jsonr_get(v, "fillers");
	char cap[192];

	html_section_heading(f, c, "window", "Window: out-of-order structures behind a DRAM miss");
	HTML_KV(f, v, window_rows, NULL);
	HTML_ROWS(f, jsonr_get(v, "summary"), wsummary_cols, "per structure");
	HTML_ROWS(f, fl, filler_cols, "fillers");
	for (const struct jsonr_value *fi = fl && fl->type == JSONR_ARRAY ? fl->u.children.first : NULL; fi; fi = fi->next) {
		snprintf(cap, sizeof(cap), "%s: points", jsonr_get_string(fi, "filler") ? jsonr_get_string(fi, "filler") : "?");
		fputs("<details><summary>", f);
		html_escape(f, cap);
		fputs("</summary>\n", f);
		HTML_ROWS(f, jsonr_get(fi, "points"), wpoint_cols, NULL);
		fputs("</details>\n", f);
	}
}


/* window.summary is an object keyed by structure (window_out.c), each
 * member with its words, whether it was measured and its capacity. */
static void add_window(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *w)
{
	const struct jsonr_value *sum = jsonr_get(w, "summary");

	(void)doc;
	for (const struct jsonr_value *e = sum && sum->type == JSONR_OBJECT ? sum->u.children.first : NULL; e;
	     e = e->next) {
		const char *st = jsonr_get_string(e, "structure");
		struct summary_figure *g;
		char name[80];

		snprintf(name, sizeof(name), "window_%.*s_entries", (int)e->key_len, e->key);
		if (!(g = summary_add(s, "window", "window", name, summary_number(e, "capacity"), "", 1)))
			continue;
		snprintf(g->what, sizeof(g->what), "%s", st ? st : "?");
		snprintf(g->from, sizeof(g->from), "window.summary.%.*s.capacity", (int)e->key_len, e->key);
	}
}

static void compare_window(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			   const struct jsonr_value *part)
{
	const struct jsonr_value *w = part, *fl;

	(void)doc;
	compare_table_setting(c, i, "window", "ISA", true, jsonr_get(w, "isa"));
	compare_table_setting(c, i, "window", "working set (bytes)", true, jsonr_get(w, "working_set_bytes"));
	compare_table_setting(c, i, "window", "iterations per region", true, jsonr_get(w, "iters_per_region"));
	compare_table_setting(c, i, "window", "trials per phase", true, jsonr_get(w, "trials_per_phase"));
	fl = jsonr_get(w, "fillers");
	for (const struct jsonr_value *f = fl && fl->type == JSONR_ARRAY ? fl->u.children.first : NULL; f; f = f->next) {
		const char *name = jsonr_get_string(f, "filler");
		char rname[64];

		snprintf(rname, sizeof(rname), "window capacity, %s", name ? name : "?");
		compare_table_row(c, i, "window", rname, "entries", summary_number(f, "capacity"), NAN);
	}
}

static int window_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	int drawn = 0;

	svg_plot_init(p, "window", "Out-of-order window: time per iteration against filler count",
		      "fillers N per loop iteration (instructions between two misses)", SVG_LINEAR,
		      "time per iteration (ns; two DRAM misses each)", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "a step up: the two misses no longer fit in one window; dashed: the fitted step (fits N | fails N)");
	p->x.include_zero = true;
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *fl = jsonr_get(docs[d], "window.fillers");

		for (const struct jsonr_value *f = fl && fl->type == JSONR_ARRAY ? fl->u.children.first : NULL; f; f = f->next) {
			const struct jsonr_value *pts = jsonr_get(f, "points");
			const char *name = jsonr_get_string(f, "filler");
			double fits = summary_number(f, "step_n_fits"), fails = summary_number(f, "step_n_fails");
			double cap = summary_number(f, "capacity");
			char what[128], lab[160];
			int s;

			if (!pts || pts->type != JSONR_ARRAY)
				continue;
			drawn = 1;
			plots_label(lab, sizeof(lab), labels[d], n, name ? name : "?");
			s = svg_plot_series(p, lab, SVG_POINTS | SVG_LINES, SVG_AUTO, SVG_AUTO);
			if (s < 0)
				return -ENOMEM;
			for (const struct jsonr_value *pt = pts->u.children.first; pt; pt = pt->next)
				svg_plot_point(p, s, summary_number(pt, "n"), summary_number(pt, "ns_per_iter"), NAN);
			if (!isfinite(fits) || !isfinite(fails))
				continue;
			if (isfinite(cap))
				snprintf(what, sizeof(what), "%s step %.0f|%.0f: %.0f entries", name ? name : "?", fits, fails, cap);
			else
				snprintf(what, sizeof(what), "%s step %.0f|%.0f", name ? name : "?", fits, fails);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			svg_plot_vline(p, (fits + fails) / 2, lab, p->series[s].color, true);
		}
	}
	return plots_done(p, drawn);
}

static const struct view_plot window_plots[] = { { "window", 3, window_plot } };

/* "window_rob_entries": the structure. */
static bool prom_window(const struct summary_figure *g, char *labels, size_t len, double *value)
{
	char word[48];
	size_t n;

	*value = g->value;
	if (sscanf(g->name, "window_%47[a-z0-9_]", word) != 1 || (n = strlen(word)) < strlen("_entries") ||
	    strcmp(word + n - strlen("_entries"), "_entries"))
		return false;
	word[n - strlen("_entries")] = 0;
	snprintf(labels, len, "structure=\"%s\"", word);
	return true;
}

static const struct view_prom_family window_prom[] = {
	{"mlpscope_window_entries", "Out-of-order structure capacity measured by window", 9, 0, NULL, prom_window},
};

const struct view view_window = {
	.section = "window", .html = window_html, VIEW_PLOTS(window_plots), .compare = compare_window,
	.summary_line = "window", .summary = add_window, VIEW_PROM(window_prom),
};
