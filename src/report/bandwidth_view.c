/*
 * The views of the three sections whose writers share bandwidth_out.c:
 * bandwidth (sequential streams per kernel and thread count, the random-access
 * efficiency model; the headline's best read GB/s on one and on all threads),
 * multicore (K lanes on each of T threads) and loaded (one chaser's latency
 * while other threads stream): their HTML tables, plots and rows in compare.
 */
#include "report/bandwidth_out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare_table.h"
#include "report/html_table.h"
#include "report/plots.h"
#include "report/summary.h"

static const struct html_col bw_rows[] = {
	{ "working set", "working_set_bytes", F_BYTES }, { "trials", "trials", F_TEXT },
	{ "noise floor (%)", "noise_floor_pct", 2 }, { "read-for-ownership counted", "rfo_counted", F_BOOL },
	{ "widest read, most threads / 1 thread (x)", "read_scaling", 2 },
	{ "scaling note", "scaling_note", F_TEXT }, { "note", "rfo_note", F_TEXT },
};

static const struct html_col kernel_cols[] = {
	{ "kernel", "kernel", F_TEXT }, { "op", "op", F_TEXT }, { "threads", "threads", F_TEXT },
	{ "GB/s (decimal)", "gbps", 2 }, { "per thread GB/s", "per_thread_gbps", F_LIST },
	{ "width (B)", "width_bytes", F_TEXT }, { "non-temporal", "nontemporal", F_BOOL },
};

static const struct html_col eff_cols[] = {
	{ "spacing (B)", "spacing_bytes", F_TEXT }, { "footprint", "footprint_bytes", F_BYTES },
	{ "useful (B)", "useful_bytes_per_access", F_TEXT }, { "small (ns)", "latency_small_ns", 1 },
	{ "huge (ns)", "latency_huge_ns", 1 }, { "walk (lines, model)", "walk_lines_per_access_model", 2 },
	{ "moved small (B, model)", "moved_bytes_small_model", 0 },
	{ "moved huge (B, model)", "moved_bytes_huge_model", 0 },
	{ "efficiency small (model)", "efficiency_small_model", 3 },
	{ "efficiency huge (model)", "efficiency_huge_model", 3 },
};

static const struct html_col mc_rows[] = {
	{ "per thread", "per_thread_bytes", F_BYTES }, { "pages requested", "pages_requested", F_TEXT },
	{ "t1 single (ns)", "t1_single_ns", 1 }, { "definition", "concurrency_definition", F_TEXT },
	{ "saturated at threads", "saturated_at_threads", F_TEXT },
	{ "rate gain of the last threads (x)", "rate_gain_last_threads", 2 },
	{ "noise floor (%)", "noise_floor_pct", 2 },
};

static const struct html_col mc_point_cols[] = {
	{ "threads", "threads", F_TEXT }, { "lanes K", "lanes", F_TEXT },
	{ "concurrency total", "concurrency_total", 2 }, { "accesses/ns", "accesses_per_ns", 4 },
	{ "slowest thread (ns/access)", "slowest_thread_ns_per_access", 2 },
};

static const struct html_col mc_sat_cols[] = {
	{ "threads", "threads", F_TEXT }, { "peak accesses/ns", "peak_accesses_per_ns", 4 },
	{ "peak concurrency", "peak_concurrency_total", 2 }, { "at K", "peak_lanes", F_TEXT },
	{ "plateau from K", "plateau_from_lanes", F_TEXT },
};

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

static void bandwidth_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	html_section_heading(f, c, "bandwidth", "Bandwidth: sequential streams, decimal GB/s");
	HTML_KV(f, v, bw_rows, NULL);
	HTML_ROWS(f, jsonr_get(v, "kernels"), kernel_cols, "kernels (best of the trials)");
	HTML_ROWS(f, jsonr_get(v, "efficiency"), eff_cols, "random-access efficiency (a model)");
}

static void multicore_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	html_section_heading(f, c, "multicore", "Multicore: K lanes on each of T threads");
	HTML_KV(f, v, mc_rows, NULL);
	HTML_ROWS(f, jsonr_get(v, "saturation"), mc_sat_cols, "per thread count");
	HTML_ROWS(f, jsonr_get(v, "points"), mc_point_cols, "points");
}

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

static void add_bandwidth(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *b)
{
	const struct jsonr_value *k = jsonr_get(b, "kernels"), *best1 = NULL, *bestn = NULL;
	size_t i = 0, i1 = 0, in = 0;
	double maxt = 0;
	struct summary_figure *g;

	(void)doc;
	for (const struct jsonr_value *e = k && k->type == JSONR_ARRAY ? k->u.children.first : NULL; e; e = e->next) {
		const char *op = jsonr_get_string(e, "op");

		if (op && !strcmp(op, "read"))
			maxt = fmax(maxt, summary_number(e, "threads"));
	}
	for (const struct jsonr_value *e = k && k->type == JSONR_ARRAY ? k->u.children.first : NULL; e;
	     e = e->next, i++) {
		const char *op = jsonr_get_string(e, "op");
		double t = summary_number(e, "threads"), v = summary_number(e, "gbps");

		if (!op || strcmp(op, "read") || !isfinite(v))
			continue;
		if (t == 1 && (!best1 || v > summary_number(best1, "gbps"))) {
			best1 = e;
			i1 = i;
		}
		if (t == maxt && maxt > 1 && (!bestn || v > summary_number(bestn, "gbps"))) {
			bestn = e;
			in = i;
		}
	}
	if (best1 && (g = summary_add(s, "read bandwidth", "bandwidth", "read_gbps_1_thread",
				      summary_number(best1, "gbps"), "GB/s", 1))) {
		snprintf(g->what, sizeof(g->what), "1 thread");
		snprintf(g->note, sizeof(g->note), "%s", jsonr_get_string(best1, "kernel") ? jsonr_get_string(best1, "kernel") : "?");
		snprintf(g->from, sizeof(g->from), "bandwidth.kernels[%zu].gbps", i1);
	}
	if (bestn && (g = summary_add(s, "read bandwidth", "bandwidth", "read_gbps_all_threads",
				      summary_number(bestn, "gbps"), "GB/s", 1))) {
		snprintf(g->what, sizeof(g->what), "%.0f threads", maxt);
		snprintf(g->note, sizeof(g->note), "%s", jsonr_get_string(bestn, "kernel") ? jsonr_get_string(bestn, "kernel") : "?");
		snprintf(g->from, sizeof(g->from), "bandwidth.kernels[%zu].gbps", in);
	}
}

static void compare_bandwidth(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			      const struct jsonr_value *part)
{
	const struct jsonr_value *b = part, *ks;
	double tmax = 0, best1 = NAN, bestn = NAN;
	char name[64];

	(void)doc;
	ks = jsonr_get(b, "kernels");
	for (const struct jsonr_value *k = ks && ks->type == JSONR_ARRAY ? ks->u.children.first : NULL; k; k = k->next)
		tmax = fmax(tmax, summary_number(k, "threads"));
	for (const struct jsonr_value *k = ks && ks->type == JSONR_ARRAY ? ks->u.children.first : NULL; k; k = k->next) {
		const char *op = jsonr_get_string(k, "op");
		double t = summary_number(k, "threads"), g = summary_number(k, "gbps");

		if (!op || strcmp(op, "read") || !isfinite(g))
			continue;
		if (t == 1)
			best1 = isfinite(best1) ? fmax(best1, g) : g;
		if (t == tmax)
			bestn = isfinite(bestn) ? fmax(bestn, g) : g;
	}
	compare_table_setting(c, i, "bandwidth", "working set (bytes)", true, jsonr_get(b, "working_set_bytes"));
	compare_table_setting(c, i, "bandwidth", "trials", true, jsonr_get(b, "trials"));
	compare_table_setting_num(c, i, "bandwidth", "threads (most)", true, tmax);
	compare_table_row(c, i, "bandwidth", "best read bandwidth, 1 thread", "GB/s", best1, NAN);
	snprintf(name, sizeof(name), "best read bandwidth, all threads");
	compare_table_row(c, i, "bandwidth", name, "GB/s", bestn, NAN);
}

static void compare_multicore(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			      const struct jsonr_value *part)
{
	const struct jsonr_value *m = part, *sat;
	double tmax = 0, peak = NAN;

	(void)doc;
	sat = jsonr_get(m, "saturation");
	for (const struct jsonr_value *s = sat && sat->type == JSONR_ARRAY ? sat->u.children.first : NULL; s; s = s->next)
		if (summary_number(s, "threads") >= tmax) {
			tmax = summary_number(s, "threads");
			peak = summary_number(s, "peak_concurrency_total");
		}
	compare_table_setting(c, i, "multicore", "bytes per thread", true, jsonr_get(m, "per_thread_bytes"));
	compare_table_setting(c, i, "multicore", "node spacing (bytes)", true, jsonr_get(m, "spacing_bytes"));
	compare_table_setting(c, i, "multicore", "pages requested", true, jsonr_get(m, "pages_requested"));
	compare_table_setting(c, i, "multicore", "trials", true, jsonr_get(m, "trials"));
	compare_table_setting_num(c, i, "multicore", "threads (most)", true, tmax);
	compare_table_row(c, i, "multicore", "peak concurrency, all threads", "", peak, NAN);
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

/* A kernel's name (read, write, copy, non-temporal; scalar and vector). */
static bool kernel_name(char *out, size_t len, const struct jsonr_value *e)
{
	const char *name = jsonr_get_string(e, "kernel");

	snprintf(out, len, "%s", name ? name : "?");
	return true;
}

/* Decimal GB/s against threads, one series per kernel: scaling and where
 * the memory system saturates read off the slope. */
static int bandwidth_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	static const struct plots_points kernels = { "bandwidth.kernels", "threads", "gbps", kernel_name };

	svg_plot_init(p, "bandwidth", "Bandwidth: sequential streams against threads", "threads (one per CPU)",
		      SVG_LOG2, "bandwidth (decimal GB/s, bytes the kernel names)", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "a store's read-for-ownership traffic is not counted; best of the trials");
	p->y.include_zero = true;
	return plots_done(p, plots_points_by_label(p, docs, labels, n, &kernels));
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

/* "T = 4": a multicore point's thread count; none, no point. */
static bool thread_count(char *out, size_t len, const struct jsonr_value *e)
{
	double t = summary_number(e, "threads");

	snprintf(out, len, "T = %.0f", t);
	return isfinite(t);
}

/* Total concurrency (all threads' accesses in flight, by Little's law)
 * against lanes K, one series per thread count T: a limit the threads
 * share shows as curves that meet. */
static int multicore_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	static const struct plots_points points = { "multicore.points", "lanes", "concurrency_total", thread_count };

	svg_plot_init(p, "multicore", "Multicore: total concurrency against lanes per thread", "lanes K per thread",
		      SVG_LOG2, "total concurrency (accesses in flight, all threads)", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "one curve per thread count T; curves that meet: a limit the threads share");
	p->y.include_zero = true;
	return plots_done(p, plots_points_by_label(p, docs, labels, n, &points));
}

static const struct view_plot bandwidth_plots[] = { { "bandwidth", 6, bandwidth_plot } };

static const struct view_fleet_column bandwidth_fleet[] = {
	{ "read_gbps_1_thread", "rd1 GB/s", 6, true, NULL }, { "read_gbps_all_threads", "rdN GB/s", 7, true, NULL },
};
static const struct view_fleet_setting bandwidth_fleet_settings[] = { { "bandwidth.working_set_bytes", 5 } };

/* "1 thread", "64 threads": the count the figure was read at. */
static bool prom_read(const struct summary_figure *g, char *labels, size_t len, double *value)
{
	*value = g->value;
	snprintf(labels, len, "threads=\"%d\"", atoi(g->what));
	return !strncmp(g->name, "read_gbps_", 10);
}

static const struct view_prom_family bandwidth_prom[] = {
	{"mlpscope_read_gbps", "Best read bandwidth, decimal GB/s, by thread count", 8, 0, NULL, prom_read},
};

const struct view view_bandwidth = {
	.section = "bandwidth", .html = bandwidth_html, VIEW_PLOTS(bandwidth_plots), .compare = compare_bandwidth,
	.summary_line = "read bandwidth", .summary = add_bandwidth,
	VIEW_FLEET(bandwidth_fleet), VIEW_FLEET_SETTINGS(bandwidth_fleet_settings), VIEW_PROM(bandwidth_prom),
};

static const struct view_plot multicore_plots[] = { { "multicore", 7, multicore_plot } };
static const struct view_plot loaded_plots[] = { { "loaded", 4, loaded_plot } };

static const struct view_fleet_setting multicore_fleet_settings[] = { { "multicore.per_thread_bytes", 6 } };

const struct view view_multicore = {
	.section = "multicore", .html = multicore_html, VIEW_PLOTS(multicore_plots), .compare = compare_multicore,
	VIEW_FLEET_SETTINGS(multicore_fleet_settings),
};

const struct view view_loaded = {
	.section = "loaded", .html = loaded_html, VIEW_PLOTS(loaded_plots), .compare = compare_loaded,
};
