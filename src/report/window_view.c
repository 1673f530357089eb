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
#include "report/window_keys.h"
#include "report/plots.h"
#include "report/summary.h"

static const struct html_col window_rows[] = {
	{ "ISA", WINDOW_KEY_ISA, F_TEXT },
	{ "working set", WINDOW_KEY_WORKING_SET_BYTES, F_BYTES },
	{ "layout ok", WINDOW_KEY_LAYOUT_OK, F_BOOL },
	{ "iterations per region", WINDOW_KEY_ITERS_PER_REGION, F_TEXT },
	{ "trials per phase", WINDOW_KEY_TRIALS_PER_PHASE, F_TEXT },
	{ "noise floor (%)", WINDOW_KEY_NOISE_FLOOR_PCT, 2 },
	{ "warning", WINDOW_KEY_WARNING, F_TEXT },
};

static const struct html_col wsummary_cols[] = {
	{ "structure", WINDOW_SUMMARY_KEY_STRUCTURE, F_TEXT },
	{ "capacity (entries)", WINDOW_SUMMARY_KEY_CAPACITY, 1 },
	{ "from", WINDOW_SUMMARY_KEY_FROM, F_TEXT },
	{ "partitioned", WINDOW_SUMMARY_KEY_PARTITIONED, F_BOOL },
	{ "note", WINDOW_SUMMARY_KEY_NOTE, F_TEXT },
};

static const struct html_col filler_cols[] = {
	{ "filler", WINDOW_FILLER_KEY_FILLER, F_TEXT },
	{ "fills", WINDOW_FILLER_KEY_STRUCTURE, F_TEXT },
	{ "fits N", WINDOW_FILLER_KEY_STEP_N_FITS, F_TEXT },
	{ "fails N", WINDOW_FILLER_KEY_STEP_N_FAILS, F_TEXT },
	{ "capacity (entries)", WINDOW_FILLER_KEY_CAPACITY, 1 },
	{ "low", WINDOW_FILLER_KEY_CAPACITY_LOW, 1 },
	{ "high", WINDOW_FILLER_KEY_CAPACITY_HIGH, 1 },
	{ "ramp from N", WINDOW_FILLER_KEY_RAMP_ONSET_N, F_TEXT },
	{ "flat (ns/iter)", WINDOW_FILLER_KEY_FLAT_NS_PER_ITER, 1 },
	{ "jump (x)", WINDOW_FILLER_KEY_JUMP_RATIO, 2 },
	{ "note", WINDOW_FILLER_KEY_NOTE, F_TEXT },
};

static const struct html_col wpoint_cols[] = {
	{ "N", WINDOW_POINT_KEY_N, F_TEXT }, { "ns per iteration", WINDOW_POINT_KEY_NS_PER_ITER, 2 },
};

static void window_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	const struct jsonr_value *fl = jsonr_get(v, WINDOW_KEY_FILLERS);
	char cap[192];

	html_section_heading(f, c, "window", "Window: out-of-order structures behind a DRAM miss");
	HTML_KV(f, v, window_rows, NULL);
	HTML_ROWS(f, jsonr_get(v, WINDOW_KEY_SUMMARY), wsummary_cols, "per structure");
	HTML_ROWS(f, fl, filler_cols, "fillers");
	for (const struct jsonr_value *fi = fl && fl->type == JSONR_ARRAY ? fl->u.children.first : NULL; fi; fi = fi->next) {
		const char *name = jsonr_get_string(fi, WINDOW_FILLER_KEY_FILLER);

		snprintf(cap, sizeof(cap), "%s: points", name ? name : "?");
		fputs("<details><summary>", f);
		html_escape(f, cap);
		fputs("</summary>\n", f);
		HTML_ROWS(f, jsonr_get(fi, WINDOW_FILLER_KEY_POINTS), wpoint_cols, NULL);
		fputs("</details>\n", f);
	}
}


/* window.summary is an object keyed by structure (window_out.c), each
 * member with its words, whether it was measured and its capacity. */
static void add_window(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *w)
{
	const struct jsonr_value *sum = jsonr_get(w, WINDOW_KEY_SUMMARY);

	(void)doc;
	for (const struct jsonr_value *e = sum && sum->type == JSONR_OBJECT ? sum->u.children.first : NULL; e;
	     e = e->next) {
		const char *st = jsonr_get_string(e, WINDOW_SUMMARY_KEY_STRUCTURE);
		struct summary_figure *g;
		char name[80];

		snprintf(name, sizeof(name), "window_%.*s_entries", (int)e->key_len, e->key);
		if (!(g = summary_add(s, "window", "window", name, summary_number(e, WINDOW_SUMMARY_KEY_CAPACITY), "", 1)))
			continue;
		snprintf(g->what, sizeof(g->what), "%s", st ? st : "?");
		snprintf(g->from, sizeof(g->from), "window." WINDOW_KEY_SUMMARY ".%.*s." WINDOW_SUMMARY_KEY_CAPACITY,
			 (int)e->key_len, e->key);
	}
}

static void compare_window(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			   const struct jsonr_value *part)
{
	const struct jsonr_value *w = part, *fl;

	(void)doc;
	compare_table_setting(c, i, "window", "ISA", true, jsonr_get(w, WINDOW_KEY_ISA));
	compare_table_setting(c, i, "window", "working set (bytes)", true, jsonr_get(w, WINDOW_KEY_WORKING_SET_BYTES));
	compare_table_setting(c, i, "window", "iterations per region", true, jsonr_get(w, WINDOW_KEY_ITERS_PER_REGION));
	compare_table_setting(c, i, "window", "trials per phase", true, jsonr_get(w, WINDOW_KEY_TRIALS_PER_PHASE));
	fl = jsonr_get(w, WINDOW_KEY_FILLERS);
	for (const struct jsonr_value *f = fl && fl->type == JSONR_ARRAY ? fl->u.children.first : NULL; f; f = f->next) {
		const char *name = jsonr_get_string(f, WINDOW_FILLER_KEY_FILLER);
		char rname[64];

		snprintf(rname, sizeof(rname), "window capacity, %s", name ? name : "?");
		compare_table_row(c, i, "window", rname, "entries", summary_number(f, WINDOW_FILLER_KEY_CAPACITY), NAN);
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
		const struct jsonr_value *fl = jsonr_get(docs[d], "window." WINDOW_KEY_FILLERS);

		for (const struct jsonr_value *f = fl && fl->type == JSONR_ARRAY ? fl->u.children.first : NULL; f; f = f->next) {
			const struct jsonr_value *pts = jsonr_get(f, WINDOW_FILLER_KEY_POINTS);
			const char *name = jsonr_get_string(f, WINDOW_FILLER_KEY_FILLER);
			double fits = summary_number(f, WINDOW_FILLER_KEY_STEP_N_FITS);
			double fails = summary_number(f, WINDOW_FILLER_KEY_STEP_N_FAILS);
			double cap = summary_number(f, WINDOW_FILLER_KEY_CAPACITY);
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
				svg_plot_point(p, s, summary_number(pt, WINDOW_POINT_KEY_N),
					       summary_number(pt, WINDOW_POINT_KEY_NS_PER_ITER), NAN);
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
