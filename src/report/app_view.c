/*
 * The app section's view: per kernel, its run and each variant's points
 * against the chase curve; for bzip2 (a whole decoder, not a kernel's
 * points) the decoder beside libbz2, its variants, the installed tools,
 * the block-parallel workers and the whole decoder as processes, as HTML
 * tables; bzip2's plot and its decoded MB/s in compare
 * (analyse/bzip2_figures.h).
 */
#include "report/app_out.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "analyse/bzip2_figures.h"
#include "report/compare_table.h"
#include "report/html_table.h"
#include "report/plots.h"
#include "report/summary.h"

static const struct html_col app_rows[] = {
	{ "footprint", "footprint_bytes", F_BYTES }, { "pages requested", "pages_requested", F_TEXT },
	{ "huge pages obtained", "huge_bytes_obtained", F_BYTES }, { "may fit a cache", "may_fit_cache", F_BOOL },
	{ "output check", "check.ok", F_BOOL }, { "runs checked", "check.runs_checked", 0 },
	{ "chase latency ns", "chase.latency_ns", 2 }, { "headline", "headline.text", F_TEXT },
	{ "setup s", "setup_seconds", 2 }, { "sweep s", "sweep_seconds", 2 },
};

static const struct html_col app_point_cols[] = {
	{ "K", "k", 0 }, { "ns per item", "ns_per_item", 3 }, { "items/s", "items_per_second", 0 },
	{ "ns per dependent load", "ns_per_dependent_load", 3 }, { "S_app = t(1)/t(K)", "speedup", 2 },
	{ "S_chase", "chase_speedup", 2 }, { "R = S_app/S_chase", "ratio", 2 }, { "occupancy", "occupancy", 2 },
};

/* app.bzip2: a whole decoder, not a kernel's points; MB are 10^6 bytes of
 * decoded output, seconds the warm decode unless named cold. */
static const struct html_col bzip2_rows[] = {
	{ "input", "input", F_TEXT }, { "file", "path", F_TEXT }, { "compressed", "compressed_bytes", F_BYTES },
	{ "decoded", "decoded_bytes", F_BYTES }, { "blocks", "blocks", 0 }, { "streams", "streams", 0 },
	{ "output check (every variant = libbz2)", "check_ok", F_BOOL },
	{ "output SHA-256", "output_sha256", F_TEXT }, { "libbz2", "libbz2_version", F_TEXT },
	{ "libbz2 one thread s", "libbz2_seconds", 4 }, { "libbz2 one thread MB/s", "libbz2_mb_per_s", 1 },
	{ "best single thread K", "best.k", 0 }, { "best single thread MB/s", "best.mb_per_s", 1 },
	{ "best / libbz2", "best.vs_libbz2", 2 }, { "best's largest stage", "best.largest_stage", F_TEXT },
	{ "its fraction of the best's time", "best.largest_stage_fraction", 2 },
	{ "table (4 B x block rows)", "table_bytes", F_BYTES }, { "table cache-resident", "resident", F_BOOL },
	{ "resident, judged by", "resident_from", F_TEXT }, { "where", "resident_where", F_TEXT },
	{ "chase at the table's footprint", "chase.ran", F_BOOL },
	{ "chase t(1) ns per dependent load", "chase.latency_ns", 2 }, { "chase knee Ks", "chase.knee_k", 1 },
	{ "chase pages", "chase.pages_requested", F_TEXT }, { "experiment s", "seconds", 1 },
};

static const struct html_col bzip2_variant_cols[] = {
	{ "K", "k", 0 }, { "segments", "segments", 0 }, { "layout", "layout", F_TEXT },
	{ "prefetch", "prefetch", F_TEXT }, { "output buffer", "output_buffer", F_TEXT },
	{ "cold s", "cold_seconds", 4 }, { "warm s", "warm_seconds", 4 }, { "MB/s", "mb_per_s", 1 },
	{ "decode s", "stage_seconds.decode", 4 }, { "table s", "stage_seconds.table", 4 },
	{ "walk s (starts + traversal + assembly)", "walk_seconds", 4 }, { "rle s", "stage_seconds.rle", 4 },
	{ "crc s", "stage_seconds.crc", 4 }, { "f (walk share of K=1)", "walk_fraction", 2 },
	{ "s (walk speedup)", "walk_speedup", 2 }, { "predicted 1/((1-f)+f/s)", "predicted_speedup", 2 },
	{ "measured speedup", "measured_speedup", 2 }, { "S_chase at K", "chase_speedup", 2 },
	{ "R = s/S_chase", "walk_ratio", 2 }, { "one-lane blocks", "single_lane_fallbacks", 0 },
};

static const struct html_col bzip2_tool_cols[] = {
	{ "tool (-dc, a process)", "name", F_TEXT }, { "version", "version", F_TEXT }, { "s", "seconds", 4 },
	{ "MB/s", "mb_per_s", 1 }, { "our best single thread / tool", "ours_vs_tool", 2 },
};

/* app.bzip2.whole_process: each command a process, pinned, alternated rounds. */
static const struct html_col bzip2_process_cols[] = {
	{ "command", "label", F_TEXT }, { "installed", "installed", F_BOOL }, { "check", "check", F_TEXT },
	{ "wall s median", "median_seconds", 4 }, { "min", "min_seconds", 4 }, { "max", "max_seconds", 4 },
	{ "CPU-s per GB", "cpu_seconds_per_gb", 2 }, { "peak RSS", "peak_rss_max_bytes", F_BYTES },
	{ "peer / ours, same threads", "peer_over_ours", 2 }, { "runs", "runs", 0 }, { "failure", "failure", F_TEXT },
};

static const struct html_col bzip2_worker_cols[] = {
	{ "workers", "workers", 0 }, { "wall s", "wall_seconds", 4 }, { "MB/s", "mb_per_s", 1 },
	{ "speedup over 1", "speedup", 2 }, { "CPU-s per GB", "cpu_seconds_per_gb", 2 },
	{ "block MB/s min", "block_mb_per_s_min", 0 }, { "median", "block_mb_per_s_median", 0 },
	{ "max", "block_mb_per_s_max", 0 }, { "peak RSS KiB", "peak_rss_kib", 0 },
};

static void bzip2_html(FILE *f, const struct jsonr_value *b)
{
	HTML_KV(f, b, bzip2_rows, "bzip2: our own decoder over a whole file, beside libbz2");
	HTML_ROWS(f, jsonr_get(b, "variants"), bzip2_variant_cols,
		  "bzip2 variants, one thread: f = K=1's walk / K=1's whole, s = K=1's walk / this walk, "
		  "measured = K=1's whole / this whole; S_chase: the chase's t(1)/t(K) at the table's footprint");
	HTML_ROWS(f, jsonr_get(b, "tools"), bzip2_tool_cols, "bzip2 tools installed here, the same file");
	HTML_ROWS(f, jsonr_get(b, "workers"), bzip2_worker_cols,
		  "bzip2 workers: block-parallel at the best variant, magic scan included");
	HTML_ROWS(f, jsonr_get(b, "whole_process.rows"), bzip2_process_cols,
		  "bzip2 whole process: each command its own process over the same file, stdout to /dev/null, "
		  "pinned, commands alternated round by round; wall s median (min-max) of the rounds");
}

static void app_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	char cap[192];

	if (v->type != JSONR_OBJECT)
		return;
	html_section_heading(f, c, "app", "App: a real walk as K lanes against the chase curve");
	for (const struct jsonr_value *k = v->u.children.first; k; k = k->next) {
		const struct jsonr_value *vars = jsonr_get(k, "variants");

		if (k->key_len == 5 && !memcmp(k->key, "bzip2", 5)) {
			bzip2_html(f, k);
			continue;
		}
		snprintf(cap, sizeof(cap), "%.*s", (int)k->key_len, k->key);
		HTML_KV(f, k, app_rows, cap);
		for (const struct jsonr_value *va = vars && vars->type == JSONR_ARRAY ? vars->u.children.first : NULL; va;
		     va = va->next) {
			snprintf(cap, sizeof(cap), "%.*s %s: %s", (int)k->key_len, k->key,
				 jsonr_get_string(va, "name") ? jsonr_get_string(va, "name") : "?",
				 jsonr_get_string(va, "what") ? jsonr_get_string(va, "what") : "");
			HTML_ROWS(f, jsonr_get(va, "points"), app_point_cols, cap);
		}
	}
}

/* Decoded MB/s means the same only over the same bytes: the input, its
 * blocks and, for the workers, the worker counts measured. */
static void compare_app_bzip2(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			      const struct jsonr_value *part)
{
	const struct jsonr_value *b = jsonr_get(part, "bzip2");
	struct bzip2_figures f;

	if (!bzip2_figures_read(doc, &f))
		return;
	compare_table_setting(c, i, "app bzip2", "input", true, jsonr_get(b, "input"));
	compare_table_setting(c, i, "app bzip2", "decoded bytes", true, jsonr_get(b, "decoded_bytes"));
	compare_table_setting(c, i, "app bzip2", "blocks", true, jsonr_get(b, "blocks"));
	compare_table_row(c, i, "app bzip2", "bzip2 decoded, best single-thread K", "MB/s", f.best_mb_per_s, NAN);
	compare_table_row(c, i, "app bzip2", "bzip2 decoded, libbz2 one thread", "MB/s", f.libbz2_mb_per_s, NAN);
	compare_table_setting(c, i, "app bzip2 workers", "input", true, jsonr_get(b, "input"));
	compare_table_setting_num(c, i, "app bzip2 workers", "workers (most)", true, f.workers_most);
	compare_table_row(c, i, "app bzip2 workers", "bzip2 decoded, workers' best", "MB/s", f.workers_mb_per_s, NAN);
}

/* "registers, prefetch next": a bzip2 variant's layout and prefetch policy,
 * a fresh output buffer apart. */
static bool variant_name(char *out, size_t len, const struct jsonr_value *e)
{
	const char *layout = jsonr_get_string(e, "layout"), *pf = jsonr_get_string(e, "prefetch");
	const char *buf = jsonr_get_string(e, "output_buffer");

	snprintf(out, len, "%s, prefetch %s%s", layout ? layout : "?", pf ? pf : "?",
		 buf && !strcmp(buf, "fresh") ? ", fresh output" : "");
	return true;
}

/* Decoded MB/s against K, one series per variant (layout x prefetch, the
 * fresh output buffer apart), libbz2's one thread dashed: what the lanes
 * buy the whole decoder, read off against the reference. */
static int app_bzip2_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	static const struct plots_points variants = { "app.bzip2.variants", "k", "mb_per_s", variant_name };
	bool drawn;

	svg_plot_init(p, "app_bzip2", "bzip2 decoder: decoded MB/s against lanes, one thread", "lanes K (inverse-BWT walk)",
		      SVG_LOG2, "decoded MB/s (10^6 bytes of output per second, warm)", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "one series per layout and prefetch policy; dashed: libbz2 on one thread, "
		 "same bytes");
	p->y.include_zero = true;
	drawn = plots_points_by_label(p, docs, labels, n, &variants);
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *b = jsonr_get(docs[d], "app.bzip2");
		const char *version = jsonr_get_string(b, "libbz2_version");
		double ref = summary_number(b, "libbz2_mb_per_s");
		char what[96], lab[160];

		if (!isfinite(ref))
			continue;
		snprintf(what, sizeof(what), "libbz2 %s, %.0f MB/s", version ? version : "?", ref);
		plots_label(lab, sizeof(lab), labels[d], n, what);
		svg_plot_hline(p, ref, lab, SVG_GREY, true);
	}
	return plots_done(p, drawn);
}

static const struct view_plot app_plots[] = { { "app_bzip2", 9, app_bzip2_plot } };

/* The fleet's bzip2 columns are no summary figures (app has no headline
 * row): read as compare reads them. */
static double fleet_bzip2(const struct jsonr_value *doc, const char *figure)
{
	struct bzip2_figures f;

	bzip2_figures_read(doc, &f);
	if (!strcmp(figure, "bzip2_mbps"))
		return f.best_mb_per_s;
	return !strcmp(figure, "libbz2_mbps") ? f.libbz2_mb_per_s : f.workers_mb_per_s;
}

/* Last in the fleet table: a result has them only after `app bzip2`. */
static const struct view_fleet_column app_fleet[] = {
	{ "bzip2_mbps", "bz2 MB/s", 11, true, fleet_bzip2 }, { "libbz2_mbps", "ref MB/s", 12, true, fleet_bzip2 },
	{ "bzip2_workers_mbps", "bz2N MB/s", 13, true, fleet_bzip2 },
};
static const struct view_fleet_setting app_fleet_settings[] = { { "app.bzip2.input", 8 } };

const struct view view_app = {
	.section = "app", .html = app_html, VIEW_PLOTS(app_plots), .compare = compare_app_bzip2,
	VIEW_FLEET(app_fleet), VIEW_FLEET_SETTINGS(app_fleet_settings),
};
