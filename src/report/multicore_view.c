/*
 * The multicore section's view: its HTML tables (K lanes on each of T
 * threads, the peak per thread count), its plot of total concurrency
 * against K and its rows in compare and the fleet table.
 */
#include "report/multicore_out.h"

#include <math.h>

#include "report/compare_table.h"
#include "report/html_table.h"
#include "report/plots.h"
#include "report/summary.h"

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

static const struct html_rows_table multicore_tables[] = {
	HTML_ROWS_TABLE("saturation", mc_sat_cols, "per thread count"),
	HTML_ROWS_TABLE("points", mc_point_cols, "points"),
};

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

static const struct view_plot multicore_plots[] = { { "multicore", 7, multicore_plot } };

static const struct view_fleet_setting multicore_fleet_settings[] = { { "multicore.per_thread_bytes", 6 } };

const struct view view_multicore = {
	.section = "multicore", VIEW_HTML_SECTION("Multicore: K lanes on each of T threads", mc_rows, multicore_tables),
	VIEW_PLOTS(multicore_plots), .compare = compare_multicore,
	VIEW_FLEET_SETTINGS(multicore_fleet_settings),
};
