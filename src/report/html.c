/*
 * The HTML report: plots first (all runs on the same axes), then each run's
 * sections as tables driven by column lists of documented JSON keys, so a
 * key added to a table is one line here. Values print with the precision the
 * text report uses; a null prints as "-", never as 0, because a fact that
 * could not be read is not a zero. Deliberately no JavaScript: the page must
 * render the same from a mail attachment or an air-gapped machine.
 */
#include "report/html.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyse/envelope.h"
#include "util/atomic.h"
#include "report/c2c_out.h"
#include "report/plots.h"
#include "util/format.h"
#include "report/summary.h"
#include "report/svg.h"

/* Cell formats: decimals >= 0, or one of these. */
enum {
	F_TEXT = -1,   /* string, or a number as %g */
	F_BYTES = -2,  /* binary units, as the text report */
	F_BOOL = -3,   /* yes / no */
	F_LIST = -4,   /* array joined with spaces */
};

struct col {
	const char *head;  /* header: quantity and unit */
	const char *key;   /* path inside one row object */
	int fmt;
};

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static void esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

static void cell_value(FILE *f, const struct jsonr_value *v, int fmt)
{
	char buf[64];

	if (!v || v->type == JSONR_NULL) {
		fputs("-", f);
		return;
	}
	switch (v->type) {
	case JSONR_BOOL:
		fputs(v->u.boolean ? "yes" : "no", f);
		return;
	case JSONR_STRING:
		esc(f, v->u.string.bytes);
		return;
	case JSONR_ARRAY:
		for (const struct jsonr_value *e = v->u.children.first; e; e = e->next) {
			cell_value(f, e, fmt == F_LIST ? 2 : fmt);
			if (e->next)
				fputc(' ', f);
		}
		return;
	case JSONR_OBJECT:
		fputs("{...}", f);
		return;
	default:
		break;
	}
	if (!isfinite(v->u.number)) {
		fputs("-", f);
	} else if (fmt == F_BYTES && v->u.number >= 0 && v->u.number < 1.8e19) {
		report_format_bytes(buf, sizeof(buf), (size_t)v->u.number);
		esc(f, buf);
	} else if (fmt == F_BOOL) {
		fputs(v->u.number != 0 ? "yes" : "no", f);
	} else if (fmt >= 0) {
		fprintf(f, "%.*f", fmt, v->u.number);
	} else {
		fprintf(f, "%.10g", v->u.number);
	}
}

static bool numeric(const struct jsonr_value *v, int fmt)
{
	return v && (v->type == JSONR_NUMBER || (fmt >= 0 && v->type == JSONR_NULL));
}

/* One row per element of arr. */
static void table_rows(FILE *f, const struct jsonr_value *arr, const struct col *cols, size_t ncols, const char *caption)
{
	/* An object's members are rows too (window.summary: one per structure). */
	if (!arr || (arr->type != JSONR_ARRAY && arr->type != JSONR_OBJECT) || !arr->u.children.count)
		return;
	fputs("<table>\n", f);
	if (caption) {
		fputs("<caption>", f);
		esc(f, caption);
		fputs("</caption>\n", f);
	}
	fputs("<thead><tr>", f);
	for (size_t c = 0; c < ncols; c++) {
		fputs("<th>", f);
		esc(f, cols[c].head);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (const struct jsonr_value *r = arr->u.children.first; r; r = r->next) {
		fputs("<tr>", f);
		for (size_t c = 0; c < ncols; c++) {
			const struct jsonr_value *v = jsonr_get(r, cols[c].key);

			fputs(numeric(v, cols[c].fmt) ? "<td class=\"n\">" : "<td>", f);
			cell_value(f, v, cols[c].fmt);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

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
		esc(f, names);
		if (isfinite(p.margin))
			fprintf(f, "</td><td class=\"n\">%.0f%%</td></tr>\n", 100 * p.margin);
		else
			fputs("</td><td></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	free(in);
}

/* Key / value rows of one object; absent keys are left out. */
static void kv_table(FILE *f, const struct jsonr_value *obj, const struct col *rows, size_t nrows, const char *caption)
{
	bool any = false;

	if (!obj)
		return;
	for (size_t i = 0; i < nrows; i++) {
		const struct jsonr_value *v = jsonr_get(obj, rows[i].key);

		if (!v)
			continue;
		if (!any) {
			fputs("<table class=\"kv\">\n", f);
			if (caption) {
				fputs("<caption>", f);
				esc(f, caption);
				fputs("</caption>\n", f);
			}
			any = true;
		}
		fputs("<tr><th>", f);
		esc(f, rows[i].head);
		fputs("</th><td>", f);
		cell_value(f, v, rows[i].fmt);
		fputs("</td></tr>\n", f);
	}
	if (any)
		fputs("</table>\n", f);
}

static void heading(FILE *f, int level, const char *id, const char *run, const char *what)
{
	fprintf(f, "<h%d", level);
	if (id)
		fprintf(f, " id=\"%s\"", id);
	fputc('>', f);
	esc(f, what);
	if (run) {
		fputs(" <span class=\"run\">", f);
		esc(f, run);
		fputs("</span>", f);
	}
	fprintf(f, "</h%d>\n", level);
}

static const struct col prov_rows[] = {
	{ "tool version", "version", F_TEXT },
	{ "schema version", "schema_version", F_TEXT },
	{ "CPU model", "provenance.cpu_model", F_TEXT },
	{ "architecture", "provenance.arch", F_TEXT },
	{ "kernel", "provenance.kernel", F_TEXT },
	{ "started (UTC)", "provenance.timestamp_utc", F_TEXT },
	{ "compiler", "provenance.compiler", F_TEXT },
	{ "flags", "provenance.cflags", F_TEXT },
	{ "binary SHA-256", "provenance.binary_sha256", F_TEXT },
	{ "seed", "provenance.seed", F_TEXT },
	{ "CPUs allowed", "provenance.affinity", F_TEXT },
	{ "pinned to CPU", "provenance.cpu_pinned", F_TEXT },
	{ "online CPUs", "provenance.online_cpus", F_TEXT },
	{ "clock", "provenance.clock.source", F_TEXT },
	{ "ticks per ns", "provenance.clock.ticks_per_ns", 4 },
	{ "clock invariant", "provenance.clock.invariant", F_BOOL },
	{ "timer resolution (ns)", "provenance.clock.resolution_ns", 1 },
	{ "empty region (ns)", "provenance.clock.empty_region_ns", 1 },
	{ "shortest timed region (ns)", "provenance.clock.min_region_ns", 0 },
};

static const struct col machine_rows[] = {
	{ "CPU", "cpu_model", F_TEXT },
	{ "vendor", "vendor", F_TEXT },
	{ "family", "family", F_TEXT },
	{ "model", "model", F_TEXT },
	{ "stepping", "stepping", F_TEXT },
	{ "features", "features", F_LIST },
	{ "online CPUs", "online_cpus", F_TEXT },
	{ "base page", "page_size_bytes", F_BYTES },
	{ "THP enabled", "thp.enabled", F_TEXT },
	{ "THP defrag", "thp.defrag", F_TEXT },
	{ "THP page", "thp.page_size_bytes", F_BYTES },
	{ "core clock min (MHz, timed)", "core_clock_mhz.min", 0 },
	{ "core clock max (MHz, timed)", "core_clock_mhz.max", 0 },
	{ "hardware counters", "pmu.hardware_counters", F_BOOL },
	{ "counters errno", "pmu.errno_name", F_TEXT },
	{ "perf_event_paranoid", "pmu.paranoid", F_TEXT },
	{ "user-space RDPMC works", "pmu.rdpmc_works", F_BOOL },
	{ "what this permits", "pmu_meaning", F_TEXT },
	{ "cache disagreements", "cache_disagreements", F_LIST },
};

static const struct col cache_cols[] = {
	{ "level", "level", F_TEXT }, { "type", "type", F_TEXT }, { "size", "size_bytes", F_BYTES },
	{ "line (B)", "line_bytes", F_TEXT }, { "ways", "ways", F_TEXT }, { "source", "source", F_TEXT },
};

static const struct col hugetlb_cols[] = {
	{ "page size", "size_bytes", F_BYTES }, { "reserved", "pages_reserved", F_TEXT }, { "free", "pages_free", F_TEXT },
};

static const struct col noise_rows[] = {
	{ "noise floor (%)", "floor_pct", 2 },
	{ "set by", "floor_from", F_TEXT },
	{ "probe: min-of-3 spread (%)", "probe_minima_spread_pct", 2 },
	{ "probe: single-run spread (%)", "probe_runs_spread_pct", 2 },
	{ "groups x runs", "groups", F_TEXT },
	{ "runs per group", "runs_per_group", F_TEXT },
	{ "arm A (L1-resident)", "arm_a_bytes", F_BYTES },
	{ "arm B (L2-resident)", "arm_b_bytes", F_BYTES },
};

static const struct col estimator_cols[] = {
	{ "estimator", "name", F_TEXT }, { "unit", "unit", F_TEXT }, { "spread (%)", "spread_pct", 2 },
	{ "values", "values", F_LIST },
};

static const struct col latency_rows[] = {
	{ "largest working set", "max_bytes", F_BYTES },
	{ "node spacing (B)", "line_bytes", F_TEXT },
	{ "trials per point", "trials", F_TEXT },
	{ "noise floor (%)", "noise_floor_pct", 2 },
	{ "level tolerance (%)", "level_tolerance_pct", 2 },
	{ "chase at max (ns)", "chase_ns_at_max", 2 },
	{ "stream at max (ns)", "stream_ns_at_max", 3 },
	{ "prefetcher effect at max (x, chase/stream)", "prefetch_ratio_at_max", 1 },
	{ "small-page chase at max (ns)", "small_chase_ns_at_max", 2 },
	{ "translation cost at max (ns per load, by subtraction)", "translation_ns_at_max", 2 },
	{ "non-monotonic points", "non_monotonic_found", F_TEXT },
};

static const struct col latency_point_cols[] = {
	{ "working set", "size_bytes", F_BYTES }, { "pages", "pages", F_TEXT },
	{ "chase (ns/load)", "chase_ns", 3 }, { "stream +64 B (ns/load)", "stream_ns", 3 },
	{ "prefetcher (x)", "prefetch_ratio", 2 }, { "chase cycles min", "chase_cycles_min", 1 },
	{ "chase cycles max", "chase_cycles_max", 1 }, { "layout ok", "layout_ok", F_BOOL },
	{ "trials", "trials", F_TEXT },
};

static const struct col level_cols[] = {
	{ "level", "level", F_TEXT }, { "from", "first_bytes", F_BYTES }, { "ends at", "size_bytes", F_BYTES },
	{ "capacity (half-way)", "capacity_bytes", F_BYTES },
	{ "latency (ns)", "latency_ns", 2 }, { "points", "points", F_TEXT }, { "runs to max", "reaches_max", F_BOOL },
	{ "OS reports", "reported_bytes", F_BYTES }, { "disagrees with OS", "disagrees_with_reported", F_BOOL },
};

static const struct col nonmono_cols[] = {
	{ "working set", "size_bytes", F_BYTES }, { "latency (ns)", "latency_ns", 3 },
	{ "below", "below_size_bytes", F_BYTES }, { "its latency (ns)", "below_latency_ns", 3 },
	{ "fall (%)", "fall_pct", 1 },
};

static const struct col tlb_rows[] = {
	{ "huge pages give huge-page reach", "huge_reach_effective", F_BOOL },
	{ "TLB sizes reported by the CPU", "reported_known", F_BOOL },
	{ "trials", "trials", F_TEXT },
	{ "noise floor (%)", "noise_floor_pct", 2 },
};

static const struct col tlb_level_cols[] = {
	{ "entries", "entries", F_TEXT }, { "reach", "reach_bytes", F_BYTES }, { "arena page", "page_bytes", F_BYTES },
	{ "extra past it (ns/load)", "extra_ns", 1 }, { "CPU reports (entries)", "reported_entries", F_TEXT },
	{ "agrees", "agrees_with_reported", F_BOOL },
};

static const struct col c2c_rows[] = {
	{ "quantity", "quantity", F_TEXT },
	{ "placement", "placement", F_TEXT },
	{ "min over pairs (ns)", "min_ns", 1 },
	{ "median of the pair medians (ns)", "median_ns", 1 },
	{ "ordered pairs", "pairs", F_TEXT },
	{ "pairs timed out", "pairs_timed_out", F_TEXT },
	{ "time per pair at most (ms)", "pair_budget_ms", 1 },
	{ "planned at most (s)", "estimated_seconds", 2 },
	{ "took (s)", "seconds", 2 },
};

static const struct col mlp_rows[] = {
	{ "pages requested", "pages.requested", F_TEXT },
	{ "working set", "working_set_bytes", F_BYTES },
	{ "node spacing (B)", "spacing_bytes", F_TEXT },
	{ "huge pages obtained (%)", "pages.huge_pct_obtained", 1 },
	{ "layout check ok", "layout_check.ok", F_BOOL },
	{ "permutation seed", "permutation.seed", F_TEXT },
	{ "permutation hash", "permutation.hash_fnv1a64", F_TEXT },
	{ "accesses per timed region", "accesses_per_point", F_TEXT },
	{ "trials per point", "trials_per_repeat", F_TEXT },
	{ "noise floor (%)", "noise_floor_pct", 2 },
	{ "quantity", "quantity", F_TEXT },
};

static const struct col sweep_cols[] = {
	{ "lanes K", "lanes", F_TEXT }, { "time/access (ns)", "ns_per_access", 3 },
	{ "speedup t1/tK (= Little's-law concurrency)", "speedup", 2 },
	{ "useful (GB/s)", "useful_gbps", 3 }, { "lines* (GB/s)", "line_gbps", 3 },
	{ "lane walk", "lane_walk_bytes", F_BYTES },
};

static const struct col estimate_rows[] = {
	{ "model", "fit_model", F_TEXT },
	{ "Ks: saturation lanes", "fit_saturation_lanes", 1 },
	{ "Ks uncertainty (+/- lanes)", "fit_uncertainty", 1 },
	{ "L: model t(1) (ns)", "fit_latency_ns", 1 },
	{ "plateau concurrency", "fit_plateau_concurrency", 1 },
	{ "rms residual (log)", "fit_rms_log_residual", 3 },
	{ "peak concurrency observed", "peak_concurrency", 1 },
	{ "at K", "peak_lanes", F_TEXT },
	{ "plateau from K", "plateau_from_lanes", F_TEXT },
	{ "flat over the last 8 K", "flat_at_end", F_BOOL },
	{ "rule: last K before a lane adds < 5%", "rule_5pct_lanes", F_TEXT },
	{ "rule: last K before a lane adds < 1%", "rule_1pct_lanes", F_TEXT },
	{ "repeats", "repeats", F_TEXT },
	{ "repeats agreeing", "repeats_agreeing", F_TEXT },
	{ "Ks of each repeat", "repeat_saturation_lanes", F_LIST },
};

static const struct col bw_rows[] = {
	{ "working set", "working_set_bytes", F_BYTES },
	{ "trials", "trials", F_TEXT },
	{ "noise floor (%)", "noise_floor_pct", 2 },
	{ "read-for-ownership counted", "rfo_counted", F_BOOL },
	{ "widest read, most threads / 1 thread (x)", "read_scaling", 2 },
	{ "scaling note", "scaling_note", F_TEXT },
	{ "note", "rfo_note", F_TEXT },
};

static const struct col kernel_cols[] = {
	{ "kernel", "kernel", F_TEXT }, { "op", "op", F_TEXT }, { "threads", "threads", F_TEXT },
	{ "GB/s (decimal)", "gbps", 2 }, { "per thread GB/s", "per_thread_gbps", F_LIST },
	{ "width (B)", "width_bytes", F_TEXT }, { "non-temporal", "nontemporal", F_BOOL },
};

static const struct col eff_cols[] = {
	{ "spacing (B)", "spacing_bytes", F_TEXT }, { "footprint", "footprint_bytes", F_BYTES },
	{ "useful (B)", "useful_bytes_per_access", F_TEXT }, { "small (ns)", "latency_small_ns", 1 },
	{ "huge (ns)", "latency_huge_ns", 1 }, { "walk (lines, model)", "walk_lines_per_access_model", 2 },
	{ "moved small (B, model)", "moved_bytes_small_model", 0 }, { "moved huge (B, model)", "moved_bytes_huge_model", 0 },
	{ "efficiency small (model)", "efficiency_small_model", 3 }, { "efficiency huge (model)", "efficiency_huge_model", 3 },
};

static const struct col mc_rows[] = {
	{ "per thread", "per_thread_bytes", F_BYTES },
	{ "pages requested", "pages_requested", F_TEXT },
	{ "t1 single (ns)", "t1_single_ns", 1 },
	{ "definition", "concurrency_definition", F_TEXT },
	{ "saturated at threads", "saturated_at_threads", F_TEXT },
	{ "rate gain of the last threads (x)", "rate_gain_last_threads", 2 },
	{ "noise floor (%)", "noise_floor_pct", 2 },
};

static const struct col mc_point_cols[] = {
	{ "threads", "threads", F_TEXT }, { "lanes K", "lanes", F_TEXT },
	{ "concurrency total", "concurrency_total", 2 }, { "accesses/ns", "accesses_per_ns", 4 },
	{ "slowest thread (ns/access)", "slowest_thread_ns_per_access", 2 },
};

static const struct col mc_sat_cols[] = {
	{ "threads", "threads", F_TEXT }, { "peak accesses/ns", "peak_accesses_per_ns", 4 },
	{ "peak concurrency", "peak_concurrency_total", 2 }, { "at K", "peak_lanes", F_TEXT },
	{ "plateau from K", "plateau_from_lanes", F_TEXT },
};

static const struct col loaded_rows[] = {
	{ "generator threads", "generators", F_TEXT },
	{ "chase working set", "chase_bytes", F_BYTES },
	{ "generators' working set", "gen_bytes", F_BYTES },
	{ "idle latency (ns)", "idle_latency_ns", 1 },
	{ "latency doubles", "double_latency_reached", F_BOOL },
	{ "bandwidth where it doubles (GB/s)", "bw_at_double_latency_gbps", 2 },
	{ "highest latency / idle (x)", "max_latency_ratio", 2 },
	{ "at bandwidth (GB/s)", "bw_at_max_ratio_gbps", 2 },
	{ "bandwidth definition", "bw_definition", F_TEXT },
};

static const struct col curve_cols[] = {
	{ "delay (ns)", "delay", F_TEXT }, { "idle", "idle", F_BOOL }, { "offered (GB/s)", "offered_gbps", 2 },
	{ "delivered (GB/s)", "bw_gbps", 2 }, { "latency (ns)", "latency_ns", 1 },
};

static const struct col window_rows[] = {
	{ "ISA", "isa", F_TEXT },
	{ "working set", "working_set_bytes", F_BYTES },
	{ "layout ok", "layout_ok", F_BOOL },
	{ "iterations per region", "iters_per_region", F_TEXT },
	{ "trials per phase", "trials_per_phase", F_TEXT },
	{ "noise floor (%)", "noise_floor_pct", 2 },
	{ "warning", "warning", F_TEXT },
};

static const struct col wsummary_cols[] = {
	{ "structure", "structure", F_TEXT }, { "capacity (entries)", "capacity", 1 },
	{ "from", "from", F_TEXT }, { "partitioned", "partitioned", F_BOOL }, { "note", "note", F_TEXT },
};

static const struct col filler_cols[] = {
	{ "filler", "filler", F_TEXT }, { "fills", "structure", F_TEXT },
	{ "fits N", "step_n_fits", F_TEXT }, { "fails N", "step_n_fails", F_TEXT },
	{ "capacity (entries)", "capacity", 1 }, { "low", "capacity_low", 1 }, { "high", "capacity_high", 1 },
	{ "ramp from N", "ramp_onset_n", F_TEXT }, { "flat (ns/iter)", "flat_ns_per_iter", 1 },
	{ "jump (x)", "jump_ratio", 2 }, { "note", "note", F_TEXT },
};

static const struct col wpoint_cols[] = {
	{ "N", "n", F_TEXT }, { "ns per iteration", "ns_per_iter", 2 },
};

/* "run2-latency": the anchor the summary's figures link to. */
static const struct col mlp_level_cols[] = {
	{"level", "level", F_TEXT},
	{"working set", "working_set_bytes", F_BYTES},
	{"chosen as", "size_from", F_TEXT},
	{"resident", "resident", F_BOOL},
	{"t(1) ns", "t1_ns", 2},
	{"Ks (lanes)", "ks", 2},
	{"plateau concurrency", "plateau_concurrency", 2},
	{"peak concurrency", "peak_concurrency", 2},
	{"at K", "peak_lanes", 0},
};

static const struct col read_size_cols[] = {
	{"case", "case", F_TEXT},
	{"bytes read per node", "payload_bytes", 0},
	{"spacing", "spacing_bytes", F_BYTES},
	{"lines per node", "lines_per_node", 0},
	{"layout ok", "layout_ok", F_BOOL},
	{"t(1) ns", "t1_ns", 2},
	{"Ks (lanes)", "ks", 2},
	{"plateau concurrency", "plateau_concurrency", 2},
	{"best ns/access", "best_ns_per_access", 3},
	{"at K", "best_lanes", 0},
	{"useful GB/s", "useful_gbps", 2},
	{"line GB/s", "line_gbps", 2},
};

static const struct col agree_rows[] = {
	{"tolerance (the run's noise floor) %", "tolerance_pct", 2},
};

static const struct col agree_cols[] = {
	{"section", "section", F_TEXT},
	{"ns per load", "ns_per_load", 2},
	{"working set", "set_bytes", F_BYTES},
	{"huge-page fraction obtained", "huge_fraction_obtained", 2},
	{"difference from latency %", "diff_pct", 1},
	{"beyond the floor", "differs", F_BOOL},
	{"why, from the results", "reason", F_TEXT},
};

static const struct col app_rows[] = {
	{"footprint", "footprint_bytes", F_BYTES},
	{"pages requested", "pages_requested", F_TEXT},
	{"huge pages obtained", "huge_bytes_obtained", F_BYTES},
	{"may fit a cache", "may_fit_cache", F_BOOL},
	{"output check", "check.ok", F_BOOL},
	{"runs checked", "check.runs_checked", 0},
	{"chase latency ns", "chase.latency_ns", 2},
	{"headline", "headline.text", F_TEXT},
	{"setup s", "setup_seconds", 2},
	{"sweep s", "sweep_seconds", 2},
};

static const struct col app_point_cols[] = {
	{"K", "k", 0},
	{"ns per item", "ns_per_item", 3},
	{"items/s", "items_per_second", 0},
	{"ns per dependent load", "ns_per_dependent_load", 3},
	{"S_app = t(1)/t(K)", "speedup", 2},
	{"S_chase", "chase_speedup", 2},
	{"R = S_app/S_chase", "ratio", 2},
	{"occupancy", "occupancy", 2},
};

/* app.bzip2: a whole decoder, not a kernel's points; MB are 10^6 bytes of
 * decoded output, seconds the warm decode unless named cold. */
static const struct col bzip2_rows[] = {
	{"input", "input", F_TEXT},
	{"file", "path", F_TEXT},
	{"compressed", "compressed_bytes", F_BYTES},
	{"decoded", "decoded_bytes", F_BYTES},
	{"blocks", "blocks", 0},
	{"streams", "streams", 0},
	{"output check (every variant = libbz2)", "check_ok", F_BOOL},
	{"output SHA-256", "output_sha256", F_TEXT},
	{"libbz2", "libbz2_version", F_TEXT},
	{"libbz2 one thread s", "libbz2_seconds", 4},
	{"libbz2 one thread MB/s", "libbz2_mb_per_s", 1},
	{"best single thread K", "best.k", 0},
	{"best single thread MB/s", "best.mb_per_s", 1},
	{"best / libbz2", "best.vs_libbz2", 2},
	{"best's largest stage", "best.largest_stage", F_TEXT},
	{"its fraction of the best's time", "best.largest_stage_fraction", 2},
	{"table (4 B x block rows)", "table_bytes", F_BYTES},
	{"table cache-resident", "resident", F_BOOL},
	{"resident, judged by", "resident_from", F_TEXT},
	{"where", "resident_where", F_TEXT},
	{"chase at the table's footprint", "chase.ran", F_BOOL},
	{"chase t(1) ns per dependent load", "chase.latency_ns", 2},
	{"chase knee Ks", "chase.knee_k", 1},
	{"chase pages", "chase.pages_requested", F_TEXT},
	{"experiment s", "seconds", 1},
};

static const struct col bzip2_variant_cols[] = {
	{"K", "k", 0},
	{"segments", "segments", 0},
	{"layout", "layout", F_TEXT},
	{"prefetch", "prefetch", F_TEXT},
	{"output buffer", "output_buffer", F_TEXT},
	{"cold s", "cold_seconds", 4},
	{"warm s", "warm_seconds", 4},
	{"MB/s", "mb_per_s", 1},
	{"decode s", "stage_seconds.decode", 4},
	{"table s", "stage_seconds.table", 4},
	{"walk s (starts + traversal + assembly)", "walk_seconds", 4},
	{"rle s", "stage_seconds.rle", 4},
	{"crc s", "stage_seconds.crc", 4},
	{"f (walk share of K=1)", "walk_fraction", 2},
	{"s (walk speedup)", "walk_speedup", 2},
	{"predicted 1/((1-f)+f/s)", "predicted_speedup", 2},
	{"measured speedup", "measured_speedup", 2},
	{"S_chase at K", "chase_speedup", 2},
	{"R = s/S_chase", "walk_ratio", 2},
	{"one-lane blocks", "single_lane_fallbacks", 0},
};

static const struct col bzip2_tool_cols[] = {
	{"tool (-dc, a process)", "name", F_TEXT},
	{"version", "version", F_TEXT},
	{"s", "seconds", 4},
	{"MB/s", "mb_per_s", 1},
	{"our best single thread / tool", "ours_vs_tool", 2},
};

static const struct col bzip2_worker_cols[] = {
	{"workers", "workers", 0},
	{"wall s", "wall_seconds", 4},
	{"MB/s", "mb_per_s", 1},
	{"speedup over 1", "speedup", 2},
	{"CPU-s per GB", "cpu_seconds_per_gb", 2},
	{"block MB/s min", "block_mb_per_s_min", 0},
	{"median", "block_mb_per_s_median", 0},
	{"max", "block_mb_per_s_max", 0},
	{"peak RSS KiB", "peak_rss_kib", 0},
};

static void bzip2_tables(FILE *f, const struct jsonr_value *b)
{
	kv_table(f, b, bzip2_rows, NCOLS(bzip2_rows), "bzip2: our own decoder over a whole file, beside libbz2");
	table_rows(f, jsonr_get(b, "variants"), bzip2_variant_cols, NCOLS(bzip2_variant_cols),
		   "bzip2 variants, one thread: f = K=1's walk / K=1's whole, s = K=1's walk / this walk, "
		   "measured = K=1's whole / this whole; S_chase: the chase's t(1)/t(K) at the table's footprint");
	table_rows(f, jsonr_get(b, "tools"), bzip2_tool_cols, NCOLS(bzip2_tool_cols),
		   "bzip2 tools installed here, the same file");
	table_rows(f, jsonr_get(b, "workers"), bzip2_worker_cols, NCOLS(bzip2_worker_cols),
		   "bzip2 workers: block-parallel at the best variant, magic scan included");
}

static const char *sec_id(char *out, size_t len, size_t idx, const char *section)
{
	snprintf(out, len, "run%zu-%s", idx + 1, section);
	return out;
}

static void write_run(FILE *f, const struct jsonr_value *doc, const char *label, size_t idx)
{
	const struct jsonr_value *v, *arms[2];
	const char *pages[2];
	char id[32], sid[48], cap[192];
	size_t na;

	snprintf(id, sizeof(id), "run%zu", idx + 1);
	heading(f, 2, id, NULL, label);
	heading(f, 3, NULL, label, "Provenance");
	kv_table(f, doc, prov_rows, NCOLS(prov_rows), NULL);
	if ((v = jsonr_get(doc, "machine"))) {
		heading(f, 3, sec_id(sid, sizeof(sid), idx, "machine"), label, "Machine: what it permits (OS and CPU claims; core clock timed)");
		kv_table(f, v, machine_rows, NCOLS(machine_rows), NULL);
		table_rows(f, jsonr_get(v, "caches_reported"), cache_cols, NCOLS(cache_cols), "caches as reported");
		table_rows(f, jsonr_get(v, "hugetlb"), hugetlb_cols, NCOLS(hugetlb_cols), "hugetlb pools");
	}
	if ((v = jsonr_get(doc, "noise"))) {
		heading(f, 3, sec_id(sid, sizeof(sid), idx, "noise"), label, "Noise: the instrument's noise floor");
		kv_table(f, v, noise_rows, NCOLS(noise_rows), NULL);
		table_rows(f, jsonr_get(v, "estimators"), estimator_cols, NCOLS(estimator_cols), "spread = max/min - 1 of repeated estimates");
	}
	if ((v = jsonr_get(doc, "latency"))) {
		heading(f, 3, sec_id(sid, sizeof(sid), idx, "latency"), label, "Latency: ns per dependent load, random chase vs +64 B stream");
		kv_table(f, v, latency_rows, NCOLS(latency_rows), NULL);
		table_rows(f, jsonr_get(v, "levels_detected"), level_cols, NCOLS(level_cols), "levels detected (plateaus within the tolerance)");
		table_rows(f, jsonr_get(v, "non_monotonic"), nonmono_cols, NCOLS(nonmono_cols), "points below a smaller working set (faults, not smoothed)");
		table_rows(f, jsonr_get(v, "points"), latency_point_cols, NCOLS(latency_point_cols), "points (minimum over trials)");
	}
	if ((v = jsonr_get(doc, "tlb"))) {
		heading(f, 3, sec_id(sid, sizeof(sid), idx, "tlb"), label, "TLB: one load per page, steps in ns per load");
		kv_table(f, v, tlb_rows, NCOLS(tlb_rows), NULL);
		table_rows(f, jsonr_get(v, "levels"), tlb_level_cols, NCOLS(tlb_level_cols), "steps (translation, by subtraction)");
	}
	na = plots_mlp_arms(doc, arms, pages);
	for (size_t a = 0; a < na; a++) {
		snprintf(cap, sizeof(cap), "MLP: K lanes of dependent loads, %s pages", pages[a]);
		heading(f, 3, a ? NULL : sec_id(sid, sizeof(sid), idx, "mlp"), label, cap);
		kv_table(f, arms[a], mlp_rows, NCOLS(mlp_rows), NULL);
		kv_table(f, jsonr_get(arms[a], "estimate"), estimate_rows, NCOLS(estimate_rows), "estimate");
		table_rows(f, jsonr_get(arms[a], "sweep"), sweep_cols, NCOLS(sweep_cols),
			   "sweep: time/access is the reciprocal of throughput; concurrency t(1)/t(K) by Little's law; lines* assume 64 B per access");
		table_rows(f, jsonr_get(arms[a], "control_unrolled"), sweep_cols, NCOLS(sweep_cols),
			   "control: one chain hopped K times per iteration (same loop overhead, no overlap)");
		bound_table(f, doc, arms[a], pages[a]);
		table_rows(f, jsonr_get(arms[a], "levels"), mlp_level_cols, NCOLS(mlp_level_cols),
			   "levels: the same sweep at one working set per cache level, total footprint held");
		table_rows(f, jsonr_get(arms[a], "read_size"), read_size_cols, NCOLS(read_size_cols),
			   "read size: bytes read per node and spacing varied, each case with its own layout check");
	}
	if ((v = jsonr_get(doc, "bandwidth"))) {
		heading(f, 3, sec_id(sid, sizeof(sid), idx, "bandwidth"), label, "Bandwidth: sequential streams, decimal GB/s");
		kv_table(f, v, bw_rows, NCOLS(bw_rows), NULL);
		table_rows(f, jsonr_get(v, "kernels"), kernel_cols, NCOLS(kernel_cols), "kernels (best of the trials)");
		table_rows(f, jsonr_get(v, "efficiency"), eff_cols, NCOLS(eff_cols), "random-access efficiency (a model)");
	}
	if ((v = jsonr_get(doc, "multicore"))) {
		heading(f, 3, sec_id(sid, sizeof(sid), idx, "multicore"), label, "Multicore: K lanes on each of T threads");
		kv_table(f, v, mc_rows, NCOLS(mc_rows), NULL);
		table_rows(f, jsonr_get(v, "saturation"), mc_sat_cols, NCOLS(mc_sat_cols), "per thread count");
		table_rows(f, jsonr_get(v, "points"), mc_point_cols, NCOLS(mc_point_cols), "points");
	}
	if ((v = jsonr_get(doc, "loaded"))) {
		const struct jsonr_value *ot = jsonr_get(v, "other_traffic");

		heading(f, 3, sec_id(sid, sizeof(sid), idx, "loaded"), label, "Loaded latency: one chaser while other threads stream");
		kv_table(f, v, loaded_rows, NCOLS(loaded_rows), NULL);
		snprintf(cap, sizeof(cap), "%s traffic", jsonr_get_string(v, "traffic") ? jsonr_get_string(v, "traffic") : "read");
		table_rows(f, jsonr_get(v, "curve"), curve_cols, NCOLS(curve_cols), cap);
		for (const struct jsonr_value *o = ot && ot->type == JSONR_ARRAY ? ot->u.children.first : NULL; o; o = o->next) {
			snprintf(cap, sizeof(cap), "%s traffic", jsonr_get_string(o, "traffic") ? jsonr_get_string(o, "traffic") : "other");
			table_rows(f, jsonr_get(o, "curve"), curve_cols, NCOLS(curve_cols), cap);
		}
	}
	if ((v = jsonr_get(doc, "c2c"))) {
		heading(f, 3, sec_id(sid, sizeof(sid), idx, "c2c"), label, "Core to core: one cache line between two CPUs, half a round trip");
		kv_table(f, v, c2c_rows, NCOLS(c2c_rows), NULL);
		snprintf(sid, sizeof(sid), "run%zu-c2c-heat", idx + 1);
		fputs("<figure>\n", f);
		c2c_write_heatmap(f, doc, sid, false);
		fputs("</figure>\n", f);
	}
	if ((v = jsonr_get(doc, "agreement"))) {
		const struct jsonr_value *ln = jsonr_get(v, "lines");

		heading(f, 3, sec_id(sid, sizeof(sid), idx, "agreement"), label,
			"Sections agree: one dependent load from the same set, as each section timed it");
		kv_table(f, v, agree_rows, NCOLS(agree_rows), NULL);
		for (const struct jsonr_value *l = ln && ln->type == JSONR_ARRAY ? ln->u.children.first : NULL; l; l = l->next) {
			const struct jsonr_value *set = jsonr_get(l, "set_bytes");
			char bytes[32] = "?";

			if (set && set->type == JSONR_NUMBER && set->u.number >= 0 && set->u.number < 1.8e19)
				report_format_bytes(bytes, sizeof(bytes), (size_t)set->u.number);
			snprintf(cap, sizeof(cap), "%s, %s pages", bytes,
				 jsonr_get_string(l, "pages") ? jsonr_get_string(l, "pages") : "?");
			table_rows(f, jsonr_get(l, "figures"), agree_cols, NCOLS(agree_cols), cap);
		}
	}
	if ((v = jsonr_get(doc, "window"))) {
		const struct jsonr_value *fl = jsonr_get(v, "fillers");

		heading(f, 3, sec_id(sid, sizeof(sid), idx, "window"), label, "Window: out-of-order structures behind a DRAM miss");
		kv_table(f, v, window_rows, NCOLS(window_rows), NULL);
		table_rows(f, jsonr_get(v, "summary"), wsummary_cols, NCOLS(wsummary_cols), "per structure");
		table_rows(f, fl, filler_cols, NCOLS(filler_cols), "fillers");
		for (const struct jsonr_value *fi = fl && fl->type == JSONR_ARRAY ? fl->u.children.first : NULL; fi; fi = fi->next) {
			snprintf(cap, sizeof(cap), "%s: points", jsonr_get_string(fi, "filler") ? jsonr_get_string(fi, "filler") : "?");
			fputs("<details><summary>", f);
			esc(f, cap);
			fputs("</summary>\n", f);
			table_rows(f, jsonr_get(fi, "points"), wpoint_cols, NCOLS(wpoint_cols), NULL);
			fputs("</details>\n", f);
		}
	}
	if ((v = jsonr_get(doc, "app")) && v->type == JSONR_OBJECT) {
		heading(f, 3, sec_id(sid, sizeof(sid), idx, "app"), label, "App: a real walk as K lanes against the chase curve");
		for (const struct jsonr_value *k = v->u.children.first; k; k = k->next) {
			const struct jsonr_value *vars = jsonr_get(k, "variants");

			if (k->key_len == 5 && !memcmp(k->key, "bzip2", 5)) {
				bzip2_tables(f, k);
				continue;
			}
			snprintf(cap, sizeof(cap), "%.*s", (int)k->key_len, k->key);
			kv_table(f, k, app_rows, NCOLS(app_rows), cap);
			for (const struct jsonr_value *va = vars && vars->type == JSONR_ARRAY ? vars->u.children.first : NULL; va;
			     va = va->next) {
				snprintf(cap, sizeof(cap), "%.*s %s: %s", (int)k->key_len, k->key,
					 jsonr_get_string(va, "name") ? jsonr_get_string(va, "name") : "?",
					 jsonr_get_string(va, "what") ? jsonr_get_string(va, "what") : "");
				table_rows(f, jsonr_get(va, "points"), app_point_cols, NCOLS(app_point_cols), cap);
			}
		}
	}
	heading(f, 3, sec_id(sid, sizeof(sid), idx, "warnings"), label, "Warnings");
	v = jsonr_get(doc, "warnings");
	if (v && v->type == JSONR_ARRAY && v->u.children.count) {
		fputs("<ul class=\"warn\">\n", f);
		for (const struct jsonr_value *w = v->u.children.first; w; w = w->next) {
			fputs("<li>", f);
			cell_value(f, w, F_TEXT);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	} else {
		fputs("<p>none</p>\n", f);
	}
}

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1120px;padding:0 1em;color:#111;background:#fff}\n"
	"h1{font-size:1.5em}h2{border-bottom:2px solid #0072b2;margin-top:2em}h3{font-size:1.05em;margin-top:1.6em}\n"
	".run{color:#666;font-weight:normal;font-size:.85em}\n"
	"table{border-collapse:collapse;margin:.5em 0 1em;font-size:.85em}\n"
	"caption{text-align:left;color:#444;padding:.2em 0;font-style:italic}\n"
	"th,td{border:1px solid #ccc;padding:.15em .5em;vertical-align:top}\n"
	"thead th{background:#eef3f8}table.kv th{text-align:left;background:#f6f6f6;font-weight:normal}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"figure{margin:1em 0}svg{max-width:100%;height:auto;border:1px solid #eee}\n"
	"ul.warn li{color:#8a3b00}nav a{margin-right:1em}\n"
	"table.summary{font-size:.95em}table.summary th{text-align:left;background:#f6f6f6}\n"
	"table.summary a{color:#0b4f8a;text-decoration:none}\n";

/* The headline table comes first: the figures people compare by. */
static int write_summary(FILE *f, const struct jsonr_value *const *docs, const char *const *labels, size_t ndocs)
{
	struct summary *sum = calloc(ndocs, sizeof(*sum));

	if (!sum)
		return -ENOMEM;
	for (size_t i = 0; i < ndocs; i++)
		summary_build(docs[i], &sum[i]);
	fputs("<h2 id=\"summary-head\">Summary</h2>\n", f);
	summary_write_html(f, sum, labels, ndocs);
	free(sum);
	return 0;
}

int html_write(FILE *f, const struct jsonr_value *const *docs, const char *const *labels, size_t ndocs)
{
	if (!ndocs)
		return -EINVAL;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>mlpscope: ", f);
	for (size_t i = 0; i < ndocs; i++) {
		esc(f, labels[i]);
		if (i + 1 < ndocs)
			fputs(" vs ", f);
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>mlpscope report</h1>\n", css);
	fputs("<p>", f);
	for (size_t i = 0; i < ndocs; i++) {
		const char *cpu = jsonr_get_string(docs[i], "provenance.cpu_model");
		const char *ts = jsonr_get_string(docs[i], "provenance.timestamp_utc");
		const char *ver = jsonr_get_string(docs[i], "version");

		fputs(i ? "<br>\n" : "", f);
		fprintf(f, "run %zu: <b>", i + 1);
		esc(f, labels[i]);
		fputs("</b>: ", f);
		esc(f, cpu ? cpu : "unknown CPU");
		fputs(", ", f);
		esc(f, ts ? ts : "no timestamp");
		fputs(", mlpscope ", f);
		esc(f, ver ? ver : "?");
	}
	fputs("</p>\n<nav><a href=\"#summary\">summary</a><a href=\"#plots\">plots</a>", f);
	for (size_t i = 0; i < ndocs; i++) {
		fprintf(f, "<a href=\"#run%zu\">", i + 1);
		esc(f, labels[i]);
		fputs("</a>", f);
	}
	fputs("</nav>\n", f);
	if (write_summary(f, docs, labels, ndocs))
		return -ENOMEM;
	fputs("<h2 id=\"plots\">Plots</h2>\n", f);
	for (int k = 0; k < PLOTS_COUNT; k++) {
		struct svg_plot p;
		int rc = plots_build((enum plots_kind)k, &p, docs, labels, ndocs);

		if (rc == 0) {
			fprintf(f, "<figure id=\"plot-%s\">\n", plots_name((enum plots_kind)k));
			rc = svg_plot_write(&p, f, false);
			fputs("</figure>\n", f);
		}
		svg_plot_free(&p);
		if (rc && rc != -ENOENT)
			return rc;
	}
	for (size_t i = 0; i < ndocs; i++)
		write_run(f, docs[i], labels[i], i);
	fputs("</body>\n</html>\n", f);
	return atomic_stream_error(f);
}

int svg_write_dir(const char *dir, const struct jsonr_value *const *docs, const char *const *labels, size_t ndocs)
{
	int rc = atomic_dir_begin(dir);

	if (rc)
		return rc;
	for (int k = 0; k < PLOTS_COUNT && !rc; k++) {
		struct svg_plot p;
		struct atomic_file a;
		char path[PATH_MAX];

		if ((size_t)snprintf(path, sizeof(path), "%s/%s.svg", dir, plots_name((enum plots_kind)k)) >= sizeof(path)) {
			rc = -ENAMETOOLONG;
			break;
		}
		rc = plots_build((enum plots_kind)k, &p, docs, labels, ndocs);
		if (rc) {
			svg_plot_free(&p);
			/* No such section in these runs: a plot left in DIR by an
			 * earlier run must not pass for one of this run. */
			if (rc == -ENOENT)
				rc = atomic_remove(path);
			continue;
		}
		rc = atomic_open(&a, path);
		if (!rc) {
			rc = svg_plot_write(&p, a.f, true);
			if (rc)
				atomic_abort(&a);
			else
				rc = atomic_commit(&a);
		}
		svg_plot_free(&p);
	}
	return atomic_dir_end(rc);
}
