/*
 * The mlp section's view: per arm (small or huge pages, both after --pages
 * both) as HTML tables the run's settings, the fitted estimate, the sweep and
 * its control, the envelope of the terms that bound it (docs/MODEL.md), the
 * same sweep per cache level and per read size; the headline's Ks and
 * plateau concurrency (the huge-page arm when there are two: it has no
 * translation misses); the three lanes plots; its rows in compare, per arm.
 */
#include "report/mlp_out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/envelope.h"
#include "kern/lanes.h"
#include "report/compare_table.h"
#include "report/html_table.h"
#include "report/summary.h"
#include "report/plots.h"

size_t mlp_arms_of(const struct jsonr_value *doc, const struct jsonr_value *arms[2], const char *pages[2])
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

static const struct html_col mlp_rows[] = {
	{ "pages requested", "pages.requested", F_TEXT }, { "working set", "working_set_bytes", F_BYTES },
	{ "node spacing (B)", "spacing_bytes", F_TEXT },
	{ "huge pages obtained (%)", "pages.huge_pct_obtained", 1 },
	{ "layout check ok", "layout_check.ok", F_BOOL }, { "permutation seed", "permutation.seed", F_TEXT },
	{ "permutation hash", "permutation.hash_fnv1a64", F_TEXT },
	{ "accesses per timed region", "accesses_per_point", F_TEXT },
	{ "trials per point", "trials_per_repeat", F_TEXT }, { "noise floor (%)", "noise_floor_pct", 2 },
	{ "quantity", "quantity", F_TEXT },
};

static const struct html_col estimate_rows[] = {
	{ "model", "fit_model", F_TEXT }, { "Ks: saturation lanes", "fit_saturation_lanes", 1 },
	{ "Ks uncertainty (+/- lanes)", "fit_uncertainty", 1 }, { "L: model t(1) (ns)", "fit_latency_ns", 1 },
	{ "plateau concurrency", "fit_plateau_concurrency", 1 },
	{ "rms residual (log)", "fit_rms_log_residual", 3 }, { "peak concurrency observed", "peak_concurrency", 1 },
	{ "at K", "peak_lanes", F_TEXT }, { "plateau from K", "plateau_from_lanes", F_TEXT },
	{ "flat over the last 8 K", "flat_at_end", F_BOOL },
	{ "rule: last K before a lane adds < 5%", "rule_5pct_lanes", F_TEXT },
	{ "rule: last K before a lane adds < 1%", "rule_1pct_lanes", F_TEXT }, { "repeats", "repeats", F_TEXT },
	{ "repeats agreeing", "repeats_agreeing", F_TEXT },
	{ "Ks of each repeat", "repeat_saturation_lanes", F_LIST },
};

static const struct html_col sweep_cols[] = {
	{ "lanes K", "lanes", F_TEXT }, { "time/access (ns)", "ns_per_access", 3 },
	{ "speedup t1/tK (= Little's-law concurrency)", "speedup", 2 }, { "useful (GB/s)", "useful_gbps", 3 },
	{ "lines* (GB/s)", "line_gbps", 3 }, { "lane walk", "lane_walk_bytes", F_BYTES },
};

static const struct html_col mlp_level_cols[] = {
	{ "level", "level", F_TEXT }, { "working set", "working_set_bytes", F_BYTES },
	{ "chosen as", "size_from", F_TEXT }, { "resident", "resident", F_BOOL }, { "t(1) ns", "t1_ns", 2 },
	{ "Ks (lanes)", "ks", 2 }, { "plateau concurrency", "plateau_concurrency", 2 },
	{ "peak concurrency", "peak_concurrency", 2 }, { "at K", "peak_lanes", 0 },
};

static const struct html_col read_size_cols[] = {
	{ "case", "case", F_TEXT }, { "bytes read per node", "payload_bytes", 0 },
	{ "spacing", "spacing_bytes", F_BYTES }, { "lines per node", "lines_per_node", 0 },
	{ "layout ok", "layout_ok", F_BOOL }, { "t(1) ns", "t1_ns", 2 }, { "Ks (lanes)", "ks", 2 },
	{ "plateau concurrency", "plateau_concurrency", 2 }, { "best ns/access", "best_ns_per_access", 3 },
	{ "at K", "best_lanes", 0 }, { "useful GB/s", "useful_gbps", 2 }, { "line GB/s", "line_gbps", 2 },
};

/* The envelope (docs/MODEL.md) over one mlp arm: per K, the measured time
 * per access beside the largest of the terms that each come from their own
 * evidence (bandwidth from the bandwidth section, never this sweep), the
 * binding term(s) and the margin to the next. `mlpscope model` prints every
 * term with its source. Nothing when the arm lacks the inputs. */
static void bound_table(FILE *f, const struct jsonr_value *doc, const struct jsonr_value *arm, const char *pages)
{
	struct env_inputs *in = calloc(1, sizeof(*in));
	char err[160];

	if (!in)
		return;
	if (envelope_inputs_from(doc, arm, pages, NULL, in, err, sizeof(err))) {
		free(in);
		return;
	}
	fprintf(f, "<table>\n<caption>envelope: t(K) &gt;= max(L/K, u/P, core, %.0f B/B, L m/Q, L u/ROB), each term "
		"from its own evidence (L = t(1) = %.1f ns; B from the bandwidth section, never this sweep; "
		"`mlpscope model --from` prints every term and its source); terms within the noise floor are "
		"named together</caption>\n", in->line_bytes, in->t1.value);
	fputs("<thead><tr><th>lanes</th><th>measured ns/access</th><th>envelope ns/access</th>"
	      "<th>envelope/measured</th><th>binding</th><th>margin to next</th></tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < in->npoints; i++) {
		struct env_point p;
		char names[96] = "";
		size_t used = 0;

		envelope_at(in, i, &p);
		for (int t = 0; t < ENV_NTERMS && used < sizeof(names); t++)
			if (p.tied_mask & (1u << t))
				used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", used ? "+" : "",
							 envelope_term_name((enum env_term)t));
		fprintf(f, "<tr><td class=\"n\">%.0f</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f</td>"
			"<td class=\"n\">%.3f</td><td>", p.k, p.measured_ns, p.envelope_ns,
			isfinite(p.explained) ? p.explained : 0.0);
		html_escape(f, names);
		if (isfinite(p.margin))
			fprintf(f, "</td><td class=\"n\">%.0f%%</td></tr>\n", 100 * p.margin);
		else
			fputs("</td><td></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	free(in);
}

static void mlp_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	const struct jsonr_value *arms[2];
	const char *pages[2];
	char cap[192];
	size_t na = mlp_arms_of(c->doc, arms, pages);

	(void)v;
	for (size_t a = 0; a < na; a++) {
		snprintf(cap, sizeof(cap), "MLP: K lanes of dependent loads, %s pages", pages[a]);
		html_section_heading(f, c, a ? NULL : "mlp", cap);
		HTML_KV(f, arms[a], mlp_rows, NULL);
		HTML_KV(f, jsonr_get(arms[a], "estimate"), estimate_rows, "estimate");
		HTML_ROWS(f, jsonr_get(arms[a], "sweep"), sweep_cols,
			  "sweep: time/access is the reciprocal of throughput; concurrency t(1)/t(K) by Little's law; lines* assume 64 B per access");
		HTML_ROWS(f, jsonr_get(arms[a], "control_unrolled"), sweep_cols,
			  "control: one chain hopped K times per iteration (same loop overhead, no overlap)");
		bound_table(f, c->doc, arms[a], pages[a]);
		HTML_ROWS(f, jsonr_get(arms[a], "levels"), mlp_level_cols,
			  "levels: the same sweep at one working set per cache level, total footprint held");
		HTML_ROWS(f, jsonr_get(arms[a], "read_size"), read_size_cols,
			  "read size: bytes read per node and spacing varied, each case with its own layout check");
	}
}

static void add_mlp(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *m)
{
	const struct jsonr_value *arm = m;
	const char *key = "mlp", *pages;
	char from[64];
	struct summary_figure *g;
	double impossible;

	(void)doc;
	/* --pages both: the huge-page arm is the one without translation misses. */
	if (!jsonr_member(m, "sweep")) {
		if ((arm = jsonr_member(m, "huge")))
			key = "mlp.huge";
		else if ((arm = jsonr_member(m, "small")))
			key = "mlp.small";
		else
			return;
	}
	pages = jsonr_get_string(arm, "pages.requested");
	snprintf(from, sizeof(from), "%s.estimate.fit_saturation_lanes", key);
	if ((g = summary_add(s, "MLP", "mlp", "mlp_saturation_lanes",
			     summary_number(arm, "estimate.fit_saturation_lanes"), "lanes", 1))) {
		snprintf(g->what, sizeof(g->what), "Ks");
		g->uncertainty = summary_number(arm, "estimate.fit_uncertainty");
		impossible = summary_number(arm, "impossible_points");
		if (impossible > 0)
			snprintf(g->note, sizeof(g->note), "%s pages, fit without %.0f IMPOSSIBLE speedups",
				 pages ? pages : "?", impossible);
		else
			snprintf(g->note, sizeof(g->note), "%s pages", pages ? pages : "?");
		snprintf(g->from, sizeof(g->from), "%s", from);
	}
	if ((g = summary_add(s, "MLP", "mlp", "mlp_plateau_concurrency",
			     summary_number(arm, "estimate.fit_plateau_concurrency"), "", 1))) {
		snprintf(g->what, sizeof(g->what), "plateau concurrency");
		snprintf(g->from, sizeof(g->from), "%s.estimate.fit_plateau_concurrency", key);
	}
}

static void compare_mlp(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			const struct jsonr_value *part)
{
	const struct jsonr_value *arms[2];
	const char *pages[2], *kinds[2] = { "-", "-" };
	char joined[48];
	size_t na = mlp_arms_of(doc, arms, pages);
	struct jsonr_value tmp;

	(void)part;
	for (size_t a = 0; a < na; a++) {
		const struct jsonr_value *sw = jsonr_get(arms[a], "sweep");
		char group[24], name[64];
		double kmax = 0;

		kinds[a] = pages[a];
		snprintf(group, sizeof(group), "mlp (%s pages)", pages[a]);
		compare_table_setting(c, i, group, "working set (bytes)", true, jsonr_get(arms[a], "working_set_bytes"));
		compare_table_setting(c, i, group, "node spacing (bytes)", true, jsonr_get(arms[a], "spacing_bytes"));
		compare_table_setting(c, i, group, "accesses per timed region", true, jsonr_get(arms[a], "accesses_per_point"));
		compare_table_setting(c, i, group, "trials per point", true, jsonr_get(arms[a], "trials_per_repeat"));
		compare_table_setting(c, i, group, "repeats", false, jsonr_get(arms[a], "estimate.repeats"));
		for (const struct jsonr_value *p = sw && sw->type == JSONR_ARRAY ? sw->u.children.first : NULL; p; p = p->next)
			kmax = fmax(kmax, summary_number(p, "lanes"));
		/* The sweep extends until flat, so like runs may end at different K. */
		compare_table_setting_num(c, i, group, "largest lanes swept (max lanes)", false, kmax);
		snprintf(name, sizeof(name), "MLP estimate Ks");
		compare_table_row(c, i, group, name, "lanes", summary_number(arms[a], "estimate.fit_saturation_lanes"),
				  summary_number(arms[a], "estimate.fit_uncertainty"));
		compare_table_row(c, i, group, "model latency L", "ns",
				  summary_number(arms[a], "estimate.fit_latency_ns"), NAN);
		compare_table_row(c, i, group, "peak concurrency observed", "",
				  summary_number(arms[a], "estimate.peak_concurrency"), NAN);
	}
	if (!na)
		return;
	snprintf(joined, sizeof(joined), na == 2 ? "%s+%s" : "%s", kinds[0], kinds[1]);
	memset(&tmp, 0, sizeof(tmp));
	tmp.type = JSONR_STRING;
	tmp.u.string.bytes = joined;
	tmp.u.string.len = strlen(joined);
	/* Arms are matched by page kind, so a different set of kinds skips nothing. */
	compare_table_setting(c, i, "mlp", "pages requested", false, &tmp);
}

/* The lanes plot's axes and note, as time or as concurrency. */
static void lanes_plot_init(struct svg_plot *p, bool concurrency)
{
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
}

/* The control beside an arm's points: one chain unrolled K times, in
 * the colour of the arm's series s. */
static int lanes_control_series(struct svg_plot *p, const struct jsonr_value *arm, int s, const char *pages,
				const char *label, size_t n)
{
	const struct jsonr_value *cu = jsonr_get(arm, "control_unrolled");
	char what[128], lab[160];

	if (cu && cu->type == JSONR_ARRAY && cu->u.children.count) {
		snprintf(what, sizeof(what), "control: one chain unrolled K times, %s pages", pages);
		plots_label(lab, sizeof(lab), label, n, what);
		int c = svg_plot_series(p, lab, SVG_POINTS, p->series[s].color, 4);

		if (c < 0)
			return -ENOMEM;
		for (const struct jsonr_value *pt = cu->u.children.first; pt; pt = pt->next)
			svg_plot_point(p, c, summary_number(pt, "lanes"), summary_number(pt, "ns_per_access"), NAN);
	}
	return 0;
}

/* Time per access (or t(1)/t(K)) against lanes, per arm: the points, the
 * control's, and the fitted model t(K) = max(L/K, L/Ks) redrawn from the L
 * and Ks in the document, never refitted here, so the curve shows exactly
 * the fit the text report states; the knee marked. Error bars are the
 * run's own noise floor (the spread of min-of-3 estimates), not a
 * confidence interval. */
static int lanes_plot(struct svg_plot *p, bool concurrency, const struct jsonr_value *const *docs,
		      const char *const *labels, size_t n)
{
	double kmax = 0;
	int drawn = 0;

	lanes_plot_init(p, concurrency);
	p->x.include_zero = true;
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *arms[2];
		const char *pages[2];
		size_t na = mlp_arms_of(docs[d], arms, pages);

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
			if (!concurrency && lanes_control_series(p, arms[a], s, pages[a], labels[d], n) < 0)
				return -ENOMEM;
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

static int lanes_time_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	return lanes_plot(p, false, docs, labels, n);
}

static int lanes_concurrency_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
				  size_t n)
{
	return lanes_plot(p, true, docs, labels, n);
}

/* t(1)/t(K) against lanes, one series per cache level (mlp --levels). */
static int lanes_levels_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
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

		if (!mlp_arms_of(docs[d], arms, pages) || !(lv = jsonr_get(arms[0], "levels")) ||
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

static const struct view_plot mlp_plots[] = {
	{ "lanes_time", 1, lanes_time_plot }, { "lanes_concurrency", 2, lanes_concurrency_plot },
	{ "lanes_levels", 5, lanes_levels_plot },
};

static const struct view_fleet_column mlp_fleet[] = { { "mlp_saturation_lanes", "Ks", 5, true, NULL } };
static const struct view_fleet_setting mlp_fleet_settings[] = {
	{ "mlp.working_set_bytes", 3 }, { "mlp.spacing_bytes", 4 },
};

/* Ks's plus or minus, a sample of its own family where it is stated. */
static bool prom_ks_uncertainty(const struct summary_figure *g, char *labels, size_t len, double *value)
{
	(void)len;
	labels[0] = 0;
	*value = g->uncertainty;
	return !strcmp(g->name, "mlp_saturation_lanes") && isfinite(g->uncertainty);
}

static const struct view_prom_family mlp_prom[] = {
	{"mlpscope_mlp_ks", "Lanes where the fitted lanes curve saturates (Ks)", 5, 0, "mlp_saturation_lanes", NULL},
	{"mlpscope_mlp_ks_uncertainty", "Plus or minus on Ks from the run's noise floor", 6, 0, NULL,
	 prom_ks_uncertainty},
	{"mlpscope_mlp_plateau_concurrency", "Fitted plateau of t(1)/t(K) (Little's-law concurrency)", 7, 0,
	 "mlp_plateau_concurrency", NULL},
};

const struct view view_mlp = {
	.section = "mlp", .html = mlp_html, VIEW_PLOTS(mlp_plots), .compare = compare_mlp,
	.summary_line = "MLP", .summary = add_mlp, VIEW_FLEET(mlp_fleet), VIEW_FLEET_SETTINGS(mlp_fleet_settings),
	VIEW_PROM(mlp_prom),
};
