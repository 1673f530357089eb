/*
 * The latency section's view: the curve's summary, the levels it found, the
 * points that fell below a smaller working set, and every point, as HTML
 * tables.
 */
#include "report/latency_out.h"

#include "report/html_table.h"

static const struct html_col latency_rows[] = {
	{ "largest working set", "max_bytes", F_BYTES }, { "node spacing (B)", "line_bytes", F_TEXT },
	{ "trials per point", "trials", F_TEXT }, { "noise floor (%)", "noise_floor_pct", 2 },
	{ "level tolerance (%)", "level_tolerance_pct", 2 }, { "chase at max (ns)", "chase_ns_at_max", 2 },
	{ "stream at max (ns)", "stream_ns_at_max", 3 },
	{ "prefetcher effect at max (x, chase/stream)", "prefetch_ratio_at_max", 1 },
	{ "small-page chase at max (ns)", "small_chase_ns_at_max", 2 },
	{ "translation cost at max (ns per load, by subtraction)", "translation_ns_at_max", 2 },
	{ "non-monotonic points", "non_monotonic_found", F_TEXT },
};

static const struct html_col latency_point_cols[] = {
	{ "working set", "size_bytes", F_BYTES }, { "pages", "pages", F_TEXT },
	{ "chase (ns/load)", "chase_ns", 3 }, { "stream +64 B (ns/load)", "stream_ns", 3 },
	{ "prefetcher (x)", "prefetch_ratio", 2 }, { "chase cycles min", "chase_cycles_min", 1 },
	{ "chase cycles max", "chase_cycles_max", 1 }, { "layout ok", "layout_ok", F_BOOL },
	{ "trials", "trials", F_TEXT },
};

static const struct html_col level_cols[] = {
	{ "level", "level", F_TEXT }, { "from", "first_bytes", F_BYTES }, { "ends at", "size_bytes", F_BYTES },
	{ "capacity (half-way)", "capacity_bytes", F_BYTES }, { "latency (ns)", "latency_ns", 2 },
	{ "points", "points", F_TEXT }, { "runs to max", "reaches_max", F_BOOL },
	{ "OS reports", "reported_bytes", F_BYTES }, { "disagrees with OS", "disagrees_with_reported", F_BOOL },
};

static const struct html_col nonmono_cols[] = {
	{ "working set", "size_bytes", F_BYTES }, { "latency (ns)", "latency_ns", 3 },
	{ "below", "below_size_bytes", F_BYTES }, { "its latency (ns)", "below_latency_ns", 3 },
	{ "fall (%)", "fall_pct", 1 },
};

static void latency_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	html_section_heading(f, c, "latency", "Latency: ns per dependent load, random chase vs +64 B stream");
	HTML_KV(f, v, latency_rows, NULL);
	HTML_ROWS(f, jsonr_get(v, "levels_detected"), level_cols, "levels detected (plateaus within the tolerance)");
	HTML_ROWS(f, jsonr_get(v, "non_monotonic"), nonmono_cols, "points below a smaller working set (faults, not smoothed)");
	HTML_ROWS(f, jsonr_get(v, "points"), latency_point_cols, "points (minimum over trials)");
}

const struct view view_latency = { .section = "latency", .html = latency_html };
