/*
 * The loaded section's view: its HTML tables (one chaser's latency while
 * other threads stream, a curve per kind of traffic), its plot of latency
 * against delivered bandwidth and its rows in compare.
 */
#include "report/loaded_out.h"

#include <errno.h>
#include <math.h>

#include "report/compare_table.h"
#include "report/html_table.h"
#include "report/plots.h"
#include "report/summary.h"

static const struct html_col loaded_rows[] = {
	{ "generator threads", "generators", F_TEXT }, { "chase working set", "chase_bytes", F_BYTES },
	{ "generators' working set", "gen_bytes", F_BYTES }, { "idle latency (ns)", "idle_latency_ns", 1 },
	{ "latency doubles", "double_latency_reached", F_BOOL },
	{ "bandwidth where it doubles (GB/s)", "bw_at_double_latency_gbps", 2 },
	{ "highest latency / idle (x)", "max_latency_ratio", 2 },
	{ "at bandwidth (GB/s)", "bw_at_max_ratio_gbps", 2 }, { "bandwidth definition", "bw_definition", F_TEXT },
};

static const struct html_col curve_cols[] = {
	{ "delay (ns)", "delay", F_TEXT }, { "idle", "idle", F_BOOL }, { "offered (GB/s)", "offered_gbps", 2 },
	{ "delivered (GB/s)", "bw_gbps", 2 }, { "latency (ns)", "latency_ns", 1 },
};

static void loaded_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	const struct jsonr_value *ot = jsonr_get(v, "other_traffic");
	char cap[192];

	html_section_heading(f, c, "loaded", "Loaded latency: one chaser while other threads stream");
	HTML_KV(f, v, loaded_rows, NULL);
	snprintf(cap, sizeof(cap), "%s traffic", jsonr_get_string(v, "traffic") ? jsonr_get_string(v, "traffic") : "read");
	HTML_ROWS(f, jsonr_get(v, "curve"), curve_cols, cap);
	for (const struct jsonr_value *o = ot && ot->type == JSONR_ARRAY ? ot->u.children.first : NULL; o; o = o->next) {
		snprintf(cap, sizeof(cap), "%s traffic", jsonr_get_string(o, "traffic") ? jsonr_get_string(o, "traffic") : "other");
		HTML_ROWS(f, jsonr_get(o, "curve"), curve_cols, cap);
	}
}

static void compare_loaded(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			   const struct jsonr_value *part)
{
	const struct jsonr_value *l = part;

	(void)doc;
	compare_table_setting(c, i, "loaded", "generator threads", true, jsonr_get(l, "generators"));
	compare_table_setting(c, i, "loaded", "chase working set (bytes)", true, jsonr_get(l, "chase_bytes"));
	compare_table_setting(c, i, "loaded", "generators' working set (bytes)", true, jsonr_get(l, "gen_bytes"));
	compare_table_setting(c, i, "loaded", "trials", true, jsonr_get(l, "trials"));
	compare_table_row(c, i, "loaded", "loaded: idle latency", "ns", summary_number(l, "idle_latency_ns"), NAN);
	compare_table_row(c, i, "loaded", "loaded: highest latency / idle", "x",
			  summary_number(l, "max_latency_ratio"), NAN);
	compare_table_row(c, i, "loaded", "loaded: bandwidth where latency doubles", "GB/s",
			  summary_number(l, "bw_at_double_latency_gbps"), NAN);
}

/* One loaded curve as a series labelled lab, its idle point left out: the
 * series, -ENOENT with no curve, -ENOMEM. */
static int add_loaded_curve(struct svg_plot *p, const struct jsonr_value *curve, const char *lab)
{
	int s;

	if (!curve || curve->type != JSONR_ARRAY)
		return -ENOENT;
	s = svg_plot_series(p, lab, SVG_POINTS | SVG_LINES, SVG_AUTO, SVG_AUTO);
	if (s < 0)
		return s;
	for (const struct jsonr_value *pt = curve->u.children.first; pt; pt = pt->next) {
		bool idle = false;

		/* The idle point has no bandwidth; it is drawn as the idle line. */
		if (jsonr_get_bool(pt, "idle", &idle) && idle)
			continue;
		svg_plot_point(p, s, summary_number(pt, "bw_gbps"), summary_number(pt, "latency_ns"), NAN);
	}
	return s;
}

/* The chase's latency against the generators' delivered bandwidth, idle
 * latency and where it doubles marked. */
static int loaded_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	int drawn = 0;

	svg_plot_init(p, "loaded", "Loaded latency: chase latency against delivered bandwidth",
		      "delivered bandwidth of the load generators (GB/s, decimal)", SVG_LINEAR,
		      "latency of the chase (ns per dependent load)", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "one chaser while the other threads stream lines; dashed: idle latency");
	p->x.include_zero = true;
	p->y.include_zero = true;
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *ld = jsonr_get(docs[d], "loaded"), *ot;
		const char *traffic;
		char what[128], lab[160];
		double idle, bw2;
		int s;

		if (!ld || ld->type != JSONR_OBJECT)
			continue;
		drawn = 1;
		traffic = jsonr_get_string(ld, "traffic");
		snprintf(what, sizeof(what), "%s traffic", traffic ? traffic : "read");
		plots_label(lab, sizeof(lab), labels[d], n, what);
		s = add_loaded_curve(p, jsonr_get(ld, "curve"), lab);
		if (s == -ENOMEM)
			return s;
		/* other_traffic is an array of curves; accept one bare object too. */
		ot = jsonr_get(ld, "other_traffic");
		for (const struct jsonr_value *o = !ot ? NULL : ot->type == JSONR_ARRAY ? ot->u.children.first :
						     ot->type == JSONR_OBJECT ? ot : NULL;
		     o; o = ot->type == JSONR_ARRAY ? o->next : NULL) {
			traffic = jsonr_get_string(o, "traffic");
			snprintf(what, sizeof(what), "%s traffic", traffic ? traffic : "other");
			plots_label(lab, sizeof(lab), labels[d], n, what);
			if (add_loaded_curve(p, jsonr_get(o, "curve"), lab) == -ENOMEM)
				return -ENOMEM;
		}
		idle = summary_number(ld, "idle_latency_ns");
		snprintf(what, sizeof(what), "idle %.1f ns", idle);
		plots_label(lab, sizeof(lab), labels[d], n, what);
		if (isfinite(idle))
			svg_plot_hline(p, idle, lab, s < 0 ? SVG_GREY : p->series[s].color, true);
		bw2 = summary_number(ld, "bw_at_double_latency_gbps");
		if (isfinite(bw2)) {
			snprintf(what, sizeof(what), "latency doubles at %.1f GB/s", bw2);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			svg_plot_vline(p, bw2, lab, s < 0 ? SVG_GREY : p->series[s].color, true);
		}
	}
	return plots_done(p, drawn);
}

static const struct view_plot loaded_plots[] = { { "loaded", 4, loaded_plot } };

const struct view view_loaded = {
	.section = "loaded", .html = loaded_html, VIEW_PLOTS(loaded_plots), .compare = compare_loaded,
};
