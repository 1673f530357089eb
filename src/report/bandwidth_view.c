/*
 * The bandwidth section's view: its HTML tables (sequential streams per
 * kernel and thread count, the random-access efficiency model), the
 * headline's best read GB/s on one and on all threads, its plot, its rows
 * in compare and the fleet table, and its Prometheus family.
 */
#include "report/bandwidth_out.h"

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

static const struct html_rows_table bandwidth_tables[] = {
	HTML_ROWS_TABLE("kernels", kernel_cols, "kernels (best of the trials)"),
	HTML_ROWS_TABLE("efficiency", eff_cols, "random-access efficiency (a model)"),
};

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

		/* A point the run marked impossible (above threads x one
		 * thread) is no headline. */
		if (!op || strcmp(op, "read") || !isfinite(v) || jsonr_is_true(e, "impossible"))
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

		/* Nor a comparison figure. */
		if (!op || strcmp(op, "read") || !isfinite(g) || jsonr_is_true(k, "impossible"))
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
	.section = "bandwidth",
	VIEW_HTML_SECTION("Bandwidth: sequential streams, decimal GB/s", bw_rows, bandwidth_tables),
	VIEW_PLOTS(bandwidth_plots), .compare = compare_bandwidth,
	.summary_line = "read bandwidth", .summary = add_bandwidth,
	VIEW_FLEET(bandwidth_fleet), VIEW_FLEET_SETTINGS(bandwidth_fleet_settings), VIEW_PROM(bandwidth_prom),
};
