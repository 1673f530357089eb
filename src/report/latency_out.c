/*
 * The latency section, text and JSON. Every column names its quantity and
 * unit; the prefetcher's effect and the translation cost are labelled as
 * differences of two measurements (by subtraction), since nothing here
 * counts prefetches or page walks (no PMU is assumed).
 */
#include "report/latency_out.h"
#include "exp/machine.h"
#include "report/csv.h"
#include "report/latency_keys.h"

#include "analyse/latency_levels.h"
#include "util/format.h"
#include "exp/latency_dist.h"

#include <inttypes.h>
#include <math.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field latency_point_fields[] = {
	JSONW_FIELD(DOUBLE, LATENCY_POINT_KEY_HUGE_FRACTION_OBTAINED, struct latency_point, huge_fraction),
	JSONW_FIELD(DOUBLE, LATENCY_POINT_KEY_CHASE_NS, struct latency_point, chase_ns),
	JSONW_FIELD(DOUBLE, LATENCY_POINT_KEY_STREAM_NS, struct latency_point, stream_ns),
	JSONW_FIELD(DOUBLE, LATENCY_POINT_KEY_PREFETCH_RATIO, struct latency_point, prefetch_ratio),
	JSONW_FIELD(DOUBLE, LATENCY_POINT_KEY_CHASE_CYCLES_MIN, struct latency_point, chase_cycles_min),
	JSONW_FIELD(DOUBLE, LATENCY_POINT_KEY_CHASE_CYCLES_MAX, struct latency_point, chase_cycles_max),
	JSONW_FIELD(BOOL, LATENCY_POINT_KEY_LAYOUT_OK, struct latency_point, layout_ok),
	JSONW_FIELD(UINT, LATENCY_POINT_KEY_CHASE_DISTINCT_LINES_WALKED, struct latency_point, chase_layout.distinct_lines_walked),
	JSONW_FIELD(UINT, LATENCY_POINT_KEY_STREAM_DISTINCT_LINES_WALKED, struct latency_point, stream_layout.distinct_lines_walked),
	JSONW_FIELD(UINT, LATENCY_POINT_KEY_EXPECTED_LINES, struct latency_point, chase_layout.expected_lines),
	JSONW_FIELD(HEX64, LATENCY_POINT_KEY_PERM_HASH, struct latency_point, perm_hash),
	JSONW_FIELD(UINT, LATENCY_POINT_KEY_CHASE_LOADS_PER_REGION, struct latency_point, chase_hops),
	JSONW_FIELD(UINT, LATENCY_POINT_KEY_STREAM_LOADS_PER_REGION, struct latency_point, stream_hops),
	JSONW_FIELD(BOOL, LATENCY_POINT_KEY_WARMED, struct latency_point, warmed),
	JSONW_FIELD(UINT, LATENCY_POINT_KEY_SETTLE_LOADS, struct latency_point, settle_loads),
	JSONW_FIELD(UINT, LATENCY_POINT_KEY_LEAD_IN_LOADS, struct latency_point, lead_in_hops),
};

static const struct jsonw_field latency_level_end_fields[] = {
	JSONW_FIELD(UINT, LATENCY_LEVEL_KEY_LEVEL, struct latency_level, level),
	JSONW_FIELD(UINT, LATENCY_LEVEL_KEY_SIZE_BYTES, struct latency_level, size_bytes),
	JSONW_FIELD(UINT, LATENCY_LEVEL_KEY_FIRST_BYTES, struct latency_level, first_bytes),
};

static const struct jsonw_field latency_level_fields[] = {
	JSONW_FIELD(DOUBLE, LATENCY_LEVEL_KEY_LATENCY_NS, struct latency_level, latency_ns),
	JSONW_FIELD(UINT, LATENCY_LEVEL_KEY_POINTS, struct latency_level, npoints),
	JSONW_FIELD(BOOL, LATENCY_LEVEL_KEY_REACHES_MAX, struct latency_level, reaches_max),
	JSONW_FIELD(UINT, LATENCY_LEVEL_KEY_REPORTED_BYTES, struct latency_level, reported_bytes),
};

static const struct jsonw_field latency_knee_fields[] = {
	JSONW_FIELD(UINT, LATENCY_KNEE_KEY_FROM_BYTES, struct latency_knee, from_bytes),
	JSONW_FIELD(UINT, LATENCY_KNEE_KEY_TO_BYTES, struct latency_knee, to_bytes),
	JSONW_FIELD(DOUBLE, LATENCY_KNEE_KEY_FROM_NS, struct latency_knee, from_ns),
	JSONW_FIELD(DOUBLE, LATENCY_KNEE_KEY_TO_NS, struct latency_knee, to_ns),
};

static const struct jsonw_field latency_reference_fields[] = {
	JSONW_FIELD(UINT, LATENCY_REFERENCE_KEY_LEVEL, struct latency_reference, level),
	JSONW_FIELD(UINT, LATENCY_REFERENCE_KEY_SIZE_BYTES, struct latency_reference, size_bytes),
	JSONW_FIELD(DOUBLE, LATENCY_REFERENCE_KEY_CURVE_NS, struct latency_reference, curve_ns),
	JSONW_FIELD(DOUBLE, LATENCY_REFERENCE_KEY_WARM_NS, struct latency_reference, warm_ns),
	JSONW_FIELD(UINT, LATENCY_REFERENCE_KEY_LOADS_PER_WALK, struct latency_reference, loads),
	JSONW_FIELD(DOUBLE, LATENCY_REFERENCE_KEY_DIFF_PCT, struct latency_reference, diff_pct),
	JSONW_FIELD(BOOL, LATENCY_REFERENCE_KEY_AGREES, struct latency_reference, agrees),
};

static const struct jsonw_field latency_second_look_fields[] = {
	JSONW_FIELD(UINT, LATENCY_KEY_NON_MONOTONIC_FOUND, struct latency_result, nfalls_found),
	JSONW_FIELD(UINT, LATENCY_KEY_NON_MONOTONIC_FOUND_IN_SWEEP, struct latency_result, nfalls_sweep),
	JSONW_FIELD(UINT, LATENCY_KEY_RETIMED_POINTS, struct latency_result, nretimed),
	JSONW_FIELD(UINT, LATENCY_KEY_RETIME_SKIPPED, struct latency_result, retime_skipped),
	JSONW_FIELD(UINT, LATENCY_KEY_PLACEMENT_CHECKED, struct latency_result, nplaced),
	JSONW_FIELD(UINT, LATENCY_KEY_PLACEMENT_SKIPPED, struct latency_result, placement_skipped),
	JSONW_FIELD(UINT, LATENCY_KEY_PLACEMENT_SENSITIVE, struct latency_result, placement_sensitive),
};

static const struct jsonw_field latency_at_max_fields[] = {
	JSONW_FIELD(UINT, LATENCY_KEY_WARM_REFERENCES_DISAGREE, struct latency_result, refs_disagree),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_PREFETCH_RATIO_AT_MAX, struct latency_result, prefetch_ratio_at_max),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_CHASE_NS_AT_MAX, struct latency_result, chase_ns_at_max),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_STREAM_NS_AT_MAX, struct latency_result, stream_ns_at_max),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_SMALL_CHASE_NS_AT_MAX, struct latency_result, small_chase_ns_at_max),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_TRANSLATION_NS_AT_MAX, struct latency_result, translation_ns_at_max),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_WHOLE_WALK_NS_AT_MAX, struct latency_result, whole_walk_ns_at_max),
	JSONW_FIELD(UINT, LATENCY_KEY_WHOLE_WALK_LOADS, struct latency_result, whole_walk_loads),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_WHOLE_WALK_REGIONS_NS, struct latency_result, whole_walk_regions_ns),
};

static const struct jsonw_field latency_run_fields[] = {
	JSONW_FIELD(UINT, LATENCY_KEY_MAX_BYTES, struct latency_result, max_bytes),
	JSONW_FIELD(UINT, LATENCY_KEY_LINE_BYTES, struct latency_result, line_bytes),
	JSONW_FIELD(UINT, LATENCY_KEY_TRIALS, struct latency_result, trials),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_NOISE_FLOOR_PCT, struct latency_result, noise_floor_pct),
	JSONW_FIELD(DOUBLE, LATENCY_KEY_LEVEL_TOLERANCE_PCT, struct latency_result, tolerance_pct),
	JSONW_FIELD(UINT, LATENCY_KEY_REGION_LOADS, struct latency_result, region_hops),
	JSONW_FIELD(UINT, LATENCY_KEY_PASSES, struct latency_result, passes),
	JSONW_FIELD(UINT, LATENCY_KEY_WARM_WALKS, struct latency_result, warm_walks),
	JSONW_FIELD(UINT, LATENCY_KEY_WARM_MAX_BYTES, struct latency_result, warm_max_bytes),
	JSONW_FIELD(UINT, LATENCY_KEY_REFERENCE_WALKS, struct latency_result, reference_walks),
	JSONW_FIELD(UINT, LATENCY_KEY_ARENA_HUGE_BYTES, struct latency_result, arena_huge_bytes),
	JSONW_FIELD(UINT, LATENCY_KEY_ARENA_HUGE_OBTAINED_BYTES, struct latency_result, arena_huge_obtained_bytes),
	JSONW_FIELD(UINT, LATENCY_KEY_ARENA_SMALL_BYTES, struct latency_result, arena_small_bytes),
	JSONW_FIELD(UINT, LATENCY_KEY_ARENA_SMALL_OBTAINED_HUGE_BYTES, struct latency_result, arena_small_obtained_bytes),
	JSONW_FIELD(INT, LATENCY_KEY_COLLAPSE_ERRNO, struct latency_result, collapse_errno),
};

static double pct(size_t part, size_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void write_points_text(const struct latency_result *r, FILE *f)
{
	bool cycles = r->core_mhz_min > 0 && r->core_mhz_max > 0 && !r->core_clock_unsteady;

	fprintf(f, "\n  %-10s  %-5s  %12s  %14s  %12s  %15s  %6s  %6s\n", "working", "pages", "chase ns/load",
		"stream ns/load", "prefetcher", cycles ? "chase cycles" : "", "layout", "trials");
	fprintf(f, "  %-10s  %-5s  %12s  %14s  %12s  %15s  %6s  %6s\n", "set", "", "(latency)",
		"(+64 B, prefetchable)", "x, chase/strm", cycles ? "(clock range)" : "", "check", "");
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct latency_point *p = &r->points[i];
		char size[32], cyc[32] = "";

		if (i == r->ncurve)
			fprintf(f, "  -- small pages: the same chains, translation by subtraction --\n");
		report_format_bytes(size, sizeof(size), p->size_bytes);
		if (cycles)
			snprintf(cyc, sizeof(cyc), "%.1f-%.1f", p->chase_cycles_min, p->chase_cycles_max);
		fprintf(f, "  %-10s  %-5s  %12.3f  %14.3f  %12.2f  %15s  %6s  %6u\n", size,
			arena_request_name(p->pages), p->chase_ns, p->stream_ns, p->prefetch_ratio, cyc,
			p->layout_ok ? "ok" : "FAILED", p->ntrials);
	}
}

/* One line per chosen size: how far the per-region times spread above the
 * minimum the tables report; a quiet machine keeps p90 near p50. */
static void write_dist_text(const struct latency_result *r, FILE *f)
{
	struct latency_dist d[LATENCY_DIST_MAX];
	unsigned n = latency_dist_select(r, d, LATENCY_DIST_MAX);

	if (!n)
		return;
	fprintf(f, "\n  chase per-region times (ns per load) at chosen sizes: the distribution behind each minimum\n");
	for (unsigned i = 0; i < n; i++) {
		char sz[32], what[24];

		report_format_bytes(sz, sizeof(sz), d[i].size_bytes);
		if (d[i].level)
			snprintf(what, sizeof(what), "level %u", d[i].level);
		else
			snprintf(what, sizeof(what), "largest");
		fprintf(f, "  %-10s %-8s min %8.2f  p50 %8.2f  p90 %8.2f  p99 %8.2f  max %8.2f  (%zu regions, "
			"max %+.1f%% over min)\n", sz, what, d[i].min_ns, d[i].pct.p50, d[i].pct.p90, d[i].pct.p99,
			d[i].pct.max, d[i].pct.n, 100 * (d[i].pct.max / d[i].min_ns - 1));
	}
	if (d[0].pct.n < 100)
		fprintf(f, "  (with %zu regions per size p99 interpolates towards the maximum)\n", d[0].pct.n);
}

/* The points re-timed because a larger set after them read faster: both
 * figures, and whether the second look read lower (a state the machine was
 * in, e.g. the edge of a shared cache's share, which settles either way). */
static void write_retimed_text(const struct latency_result *r, FILE *f)
{
	double tol = isfinite(r->noise_floor_pct) && r->noise_floor_pct > 0 ? r->noise_floor_pct / 100.0 : 0.0;

	for (unsigned i = 0; i < r->ncurve; i++) {
		const struct latency_point *p = &r->points[i];
		double again;
		char sz[32];

		if (!p->nretime)
			continue;
		again = stats_min(p->retime_trials_ns, p->nretime);
		report_format_bytes(sz, sizeof(sz), p->size_bytes);
		fprintf(f, "  re-timed: %s read %.2f ns in the sweep, above a larger set; after a fresh warm start %.2f ns "
			"(min of %u regions): %s\n", sz, p->sweep_chase_ns, again, p->nretime,
			again < p->sweep_chase_ns * (1.0 - tol)
				? "its state, not its size (what ran before decides, as at the edge of a shared "
				  "cache's share); the curve keeps the minimum"
				: "the same within the floor");
	}
	if (r->retime_skipped)
		fprintf(f, "  %u point(s) above a fall not re-timed (at most %d, within 5%% of the sweep's time)\n",
			r->retime_skipped, LATENCY_RETIME_POINTS_MAX);
}

/* The points timed on two allocations (exp/latency.c, "placement"): both
 * minima, the spread, and which way the verdict went. */
static void write_placement_text(const struct latency_result *r, FILE *f)
{
	if (!r->nplaced && !r->placement_skipped)
		return;
	fprintf(f, "  placement: %u set(s) at the levels' ends timed on the arena and on an allocation of their own "
		"(blocks alternated; the curve keeps the minimum)%s\n", r->nplaced,
		r->placement_sensitive ? "" : ": none placement-sensitive beyond the tolerance");
	for (unsigned i = 0; i < r->ncurve; i++) {
		const struct latency_point *p = &r->points[i];
		char sz[32];

		if (!p->nalloc_trials)
			continue;
		report_format_bytes(sz, sizeof(sz), p->size_bytes);
		fprintf(f, "    %-10s arena %8.2f ns, own allocation %8.2f ns: spread %.1f%%%s\n", sz, p->alloc_ns[0],
			p->alloc_ns[1], p->placement_spread_pct,
			p->placement_sensitive ? ": PLACEMENT-SENSITIVE (which pages hold the set decides its figure; "
						 "the minimum is given)" : "");
	}
	if (r->placement_skipped)
		fprintf(f, "    %u set(s) at a level's end not placed (cost past %.0f%% of the sweep's time, or their "
			"mapping)\n", r->placement_skipped, 100.0 * LATENCY_PLACEMENT_SHARE);
}

/* The run's frame: the sizes, the arenas as obtained, trials, the noise
 * floor and the core clock the cycle figures rest on. */
static void write_setup_text(const struct latency_result *r, const char *max, FILE *f)
{
	char a[32], b[32];

	fprintf(f, "\nlatency: ns per dependent load, random chase vs +%zu B stream, up to %s\n", r->line_bytes, max);
	report_format_bytes(a, sizeof(a), r->arena_huge_obtained_bytes);
	report_format_bytes(b, sizeof(b), r->arena_huge_bytes);
	fprintf(f, "  huge-page arena: %s of %s obtained huge (%.0f%%, from /proc/self/smaps)\n", a, b,
		pct(r->arena_huge_obtained_bytes, r->arena_huge_bytes));
	if (r->arena_small_bytes) {
		report_format_bytes(a, sizeof(a), r->arena_small_obtained_bytes);
		report_format_bytes(b, sizeof(b), r->arena_small_bytes);
		fprintf(f, "  small-page arena: %s of %s huge (%.0f%%; 0%% is what was asked)\n", a, b,
			pct(r->arena_small_obtained_bytes, r->arena_small_bytes));
	}
	report_format_bytes(a, sizeof(a), r->warm_max_bytes);
	fprintf(f, "  %u trials per point in %u pass(es) over the sizes (ascending, then descending), each size a "
		"block of back-to-back\n  regions of %zu loads after %u full untimed walk(s) of the set (sets up to %s, "
		"the caches the OS reports)\n  or a lead-in of one load per 4 KiB (larger sets), then regions until it "
		"settles; each value the minimum;\n  layout checked at every size\n", r->trials, r->passes,
		r->region_hops, r->warm_walks, a);
	if (isfinite(r->noise_floor_pct))
		fprintf(f, "  noise floor %.2f%% (" REPORT_FLOOR_RUN "); levels use a tolerance of %.1f%%\n",
			r->noise_floor_pct, r->tolerance_pct);
	else
		fprintf(f, "  noise floor not known (the noise section did not run); levels use a tolerance of %.1f%%\n",
			r->tolerance_pct);
	if (r->core_mhz_min > 0 && r->core_clock_unsteady) {
		struct machine_clock_state clk;

		machine_core_clock_state(r->core_mhz_min, r->core_mhz_max, r->noise_floor_pct, &clk);
		fprintf(f, "  core clock NOT STEADY: its samples read %.0f-%.0f MHz (%.0f%% apart, beyond the %.1f%% "
			"tolerance): no cycle figures given, ns only\n", r->core_mhz_min, r->core_mhz_max, clk.spread_pct,
			clk.tolerance_pct);
	} else if (r->core_mhz_min > 0) {
		fprintf(f, "  cycles from a core clock of %.0f-%.0f MHz (estimated, not read from a counter)\n",
			r->core_mhz_min, r->core_mhz_max);
	}
}

/* The levels' table and the OS's caches the curve shows no plateau for,
 * with the table's footnotes. */
static void write_levels_text(const struct latency_result *r, FILE *f)
{
	fprintf(f, "\n  %-6s  %-12s  %-12s  %-12s  %14s  %-12s  %s\n", "level", "from", "ends at*", "half-way**",
		"latency ns", "OS reports", "note");
	for (unsigned i = 0; i < r->nlevels; i++) {
		const struct latency_level *l = &r->levels[i];
		char from[32], to[32], cap[32] = "-", rep[32] = "-", note[160] = "";

		report_format_bytes(from, sizeof(from), l->first_bytes);
		report_format_bytes(to, sizeof(to), l->size_bytes);
		if (l->capacity_bytes)
			report_format_bytes(cap, sizeof(cap), l->capacity_bytes);
		if (l->reported_bytes)
			report_format_bytes(rep, sizeof(rep), l->reported_bytes);
		if (l->reaches_max)
			snprintf(note, sizeof(note), "runs to the largest size: memory, or not exhausted");
		else if (l->tlb)
			snprintf(note, sizeof(note), "a TLB step (its start is a TLB reach the tlb section measured), not a cache");
		else if (l->disagrees) {
			char shown[32];

			/* The half-way point is where half the set still hits: the
			 * most of this cache the curve can be said to show. */
			report_format_bytes(shown, sizeof(shown), l->capacity_bytes ? l->capacity_bytes : l->size_bytes);
			snprintf(note, sizeof(note), "the L%u, but the curve shows %s of the OS's %s (beyond 2x): a share "
				 "of a shared cache, or contended", l->cache_level, shown, rep);
		} else if (l->reported_bytes)
			snprintf(note, sizeof(note), "the L%u: the curve confirms the OS size (end within 2x)", l->cache_level);
		fprintf(f, "  %-6u  %-12s  %-12s  %-12s  %14.2f  %-12s  %s\n", l->level, from,
			l->reaches_max ? "(max)" : to, cap, l->latency_ns, rep, note);
	}
	for (unsigned i = 0; i < r->nmissing; i++) {
		const struct latency_missing *m = &r->missing[i];
		char rep[32], lo[32] = "the smallest size", hi[32] = "the largest size";

		report_format_bytes(rep, sizeof(rep), m->reported_bytes);
		if (m->after_bytes)
			report_format_bytes(lo, sizeof(lo), m->after_bytes);
		if (m->before_bytes)
			report_format_bytes(hi, sizeof(hi), m->before_bytes);
		fprintf(f, "  L%u %s (OS): no plateau of its own between %s and %s; latency rises smoothly there",
			m->cache_index + 1, rep, lo, hi);
		if (m->after_bytes && m->before_bytes)
			fprintf(f, " (%.1f to %.1f ns)", m->after_ns, m->before_ns);
		fprintf(f, ": shared, partitioned or contended\n");
	}
	fprintf(f, "  * ends at: the last size within the tolerance of the level's latency (plus the TLB's measured\n"
		   "    extra past each TLB reach): what is compared with the OS-reported size.\n"
		   "  ** half-way: where the rise to the next level is half done (the geometric mean of the two\n"
		   "    latencies), where about half the working set misses: a second figure, compared with nothing.\n");
}

/* Each knee: a cache level ending, or a TLB reach the tlb section measured. */
static void write_knees_text(const struct latency_result *r, FILE *f)
{
	for (unsigned i = 0; i < r->nknees; i++) {
		const struct latency_knee *k = &r->knees[i];
		char s0[32], s1[32], reach[32];

		report_format_bytes(s0, sizeof(s0), k->from_bytes);
		report_format_bytes(s1, sizeof(s1), k->to_bytes);
		if (k->tlb_reach_bytes) {
			report_format_bytes(reach, sizeof(reach), k->tlb_reach_bytes);
			if (k->tlb)
				fprintf(f, "  knee %s -> %s: %.2f -> %.2f ns: a TLB knee (the tlb section's reach %s, "
					"+%.2f ns), not a cache\n", s0, s1, k->from_ns, k->to_ns, reach, k->tlb_step_ns);
			else
				fprintf(f, "  knee %s -> %s: %.2f -> %.2f ns: at the TLB reach %s, but more than its +%.2f ns: "
					"a cache runs out there too\n", s0, s1, k->from_ns, k->to_ns, reach, k->tlb_step_ns);
		} else {
			fprintf(f, "  knee %s -> %s: %.2f -> %.2f ns: a cache level ends\n", s0, s1, k->from_ns, k->to_ns);
		}
	}
}

/* The steady-state check: every size re-timed over longer regions. */
static void write_steady_text(const struct latency_result *r, FILE *f)
{
	if (r->steady_checked) {
		const struct latency_point *p;

		fprintf(f, "  steady state: every size (%u) re-timed after its own warm walk or lead-in, over regions 4x "
			"longer: ", r->steady_checked);
		if (!r->steady_failed)
			fprintf(f, "all agree within %.1f%%\n", r->tolerance_pct);
		else
			fprintf(f, "%u DIFFER beyond %.1f%% (the figure was not taken warm: it is not steady)\n",
				r->steady_failed, r->tolerance_pct);
		for (unsigned i = 0; (p = latency_next_unsteady(r, &i));) {
			char sz[32];

			report_format_bytes(sz, sizeof(sz), p->size_bytes);
			fprintf(f, "    NOT STEADY: %s %s pages: %.2f ns over %zu-load regions, %.2f ns over 4x after a "
				"warm start (%+.1f%%)%s\n", sz, arena_request_name(p->pages), p->chase_ns, p->chase_hops,
				p->steady_long_ns, p->steady_diff_pct,
				latency_on_a_rise(r, p) ? "; on the rise between two levels, where a shared cache's state can move" : "");
		}
	}
}

/* The warm reference at each level's middle against the curve. */
static void write_refs_text(const struct latency_result *r, FILE *f)
{
	if (r->nrefs) {
		fprintf(f, "  warm reference: at each level's middle, the same chase walked back to back (%u walks after "
			"a full one), against the curve:\n", r->reference_walks);
		for (unsigned i = 0; i < r->nrefs; i++) {
			const struct latency_reference *x = &r->refs[i];
			char sz[32];

			report_format_bytes(sz, sizeof(sz), x->size_bytes);
			fprintf(f, "    level %u at %-10s curve %8.2f ns, back to back %8.2f ns (%+.1f%%): %s\n", x->level, sz,
				x->curve_ns, x->warm_ns, x->diff_pct,
				x->agrees ? "agree"
				: x->curve_ns > x->warm_ns ? "DISAGREE beyond the tolerance: the curve is not what a warm chase reads"
				: "DISAGREE beyond the tolerance: the curve reads faster than a warm chase (a curve too fast, or "
				  "the reference's moment slow)");
		}
	}
}

/* The figures at the largest size: prefetch effect, the estimators
 * against each other, translation cost. */
static void write_at_max_text(const struct latency_result *r, const char *max, FILE *f)
{
	fprintf(f, "\n  at %s: chase %.2f ns, stream %.3f ns: prefetcher effect, by subtraction: %.1fx\n", max,
		r->chase_ns_at_max, r->stream_ns_at_max, r->prefetch_ratio_at_max);
	if (r->whole_walk_loads && isfinite(r->whole_walk_ns_at_max))
		fprintf(f, "  at %s: chase %.2f ns is the minimum over regions of %zu loads (the memory latency given); "
			"whole walks\n  of %zu loads (a plain chase's estimator; the minimum of %u) read %.2f ns (%+.1f%%)\n",
			max, r->chase_ns_at_max, r->region_hops, r->whole_walk_loads, LATENCY_WHOLE_WALKS,
			r->whole_walk_ns_at_max, 100.0 * (r->whole_walk_ns_at_max / r->chase_ns_at_max - 1.0));
	if (r->whole_walk_loads && isfinite(r->whole_walk_ns_at_max) && isfinite(r->whole_walk_regions_ns))
		fprintf(f, "  at %s, the same moment: regions of %zu loads right after the whole walk %.2f ns; whole walk "
			"against them %+.1f%% (the estimators), the sweep's regions against them %+.1f%% (the host's "
			"moment)\n", max, r->region_hops, r->whole_walk_regions_ns,
			100.0 * (r->whole_walk_ns_at_max / r->whole_walk_regions_ns - 1.0),
			100.0 * (r->chase_ns_at_max / r->whole_walk_regions_ns - 1.0));
	if (isfinite(r->translation_ns_at_max))
		fprintf(f, "  at %s: small pages %.2f ns - huge pages %.2f ns: translation cost, by subtraction: "
			"%.2f ns per load\n", max, r->small_chase_ns_at_max, r->chase_ns_at_max, r->translation_ns_at_max);
}

/* Where the curve falls as the set grows, re-timed, never smoothed. */
static void write_falls_text(const struct latency_result *r, FILE *f)
{
	if (r->nfalls_found == 0)
		fprintf(f, "  the chase curve never falls by more than the floor as the working set grows%s\n",
			r->nfalls_sweep ? " (once re-timed)" : "");
	for (unsigned i = 0; i < r->nfalls; i++) {
		const struct curve_fall *x = &r->falls[i];
		char s0[32], s1[32];

		report_format_bytes(s0, sizeof(s0), (size_t)x->ref_x);
		report_format_bytes(s1, sizeof(s1), (size_t)x->x);
		/* Re-timed and still above: the set itself reads slower, whatever ran
		 * before it (where it lives: host pages, a memory node the guest
		 * cannot see), not the moment. */
		fprintf(f, "  NON-MONOTONIC: %s at %.2f ns is %.1f%% below %s at %.2f ns: %s, not smoothed\n", s1,
			x->y, x->fall_pct, s0, x->ref_y,
			r->points[x->ref_index].nretime ? "re-timed, it stays: that set itself reads slower "
							  "(its layout, or where its memory lives)"
							: "a probable layout or measurement fault");
	}
}

void latency_write_text(const void *result, FILE *f)
{
	const struct latency_result *r = result;
	char max[32];

	report_format_bytes(max, sizeof(max), r->max_bytes);
	write_setup_text(r, max, f);
	write_points_text(r, f);
	write_levels_text(r, f);
	write_knees_text(r, f);
	write_steady_text(r, f);
	write_refs_text(r, f);
	write_dist_text(r, f);
	write_at_max_text(r, max, f);
	write_retimed_text(r, f);
	write_placement_text(r, f);
	write_falls_text(r, f);
	fprintf(f, "  setup %.1f s (map, build, verify), sweep %.1f s\n", r->setup_seconds, r->sweep_seconds);
}

static void point_members(struct jsonw *w, const void *e)
{
	const struct latency_point *p = e;

	jsonw_uint(w, LATENCY_POINT_KEY_SIZE_BYTES, p->size_bytes);
	jsonw_string(w, LATENCY_POINT_KEY_PAGES, arena_request_name(p->pages));
	JSONW_FIELDS(w, p, latency_point_fields);
	if (p->steady_checked) {
		jsonw_double(w, LATENCY_POINT_KEY_STEADY_LONG_NS, p->steady_long_ns);
		jsonw_double(w, LATENCY_POINT_KEY_STEADY_DIFF_PCT, p->steady_diff_pct);
		jsonw_bool(w, LATENCY_POINT_KEY_STEADY_OK, p->steady_ok);
	} else {
		jsonw_null(w, LATENCY_POINT_KEY_STEADY_LONG_NS);
		jsonw_null(w, LATENCY_POINT_KEY_STEADY_DIFF_PCT);
		jsonw_null(w, LATENCY_POINT_KEY_STEADY_OK);
	}
	jsonw_uint(w, LATENCY_POINT_KEY_TRIALS, p->ntrials);
	jsonw_double_array(w, LATENCY_POINT_KEY_CHASE_TRIALS_NS, p->chase_trials_ns, p->ntrials);
	jsonw_double_array(w, LATENCY_POINT_KEY_STREAM_TRIALS_NS, p->stream_trials_ns, p->ntrials);
	jsonw_double(w, LATENCY_POINT_KEY_SWEEP_CHASE_NS, p->sweep_chase_ns);
	jsonw_double_array(w, LATENCY_POINT_KEY_RETIME_TRIALS_NS, p->retime_trials_ns, p->nretime);
	if (p->nalloc_trials) {
		jsonw_object_begin(w, LATENCY_POINT_KEY_PLACEMENT);
		jsonw_double(w, LATENCY_PLACEMENT_KEY_ARENA_NS, p->alloc_ns[0]);
		jsonw_double(w, LATENCY_PLACEMENT_KEY_OWN_ALLOCATION_NS, p->alloc_ns[1]);
		jsonw_double(w, LATENCY_PLACEMENT_KEY_MIN_NS, fmin(p->alloc_ns[0], p->alloc_ns[1]));
		jsonw_double(w, LATENCY_PLACEMENT_KEY_SPREAD_PCT, p->placement_spread_pct);
		jsonw_bool(w, LATENCY_PLACEMENT_KEY_PLACEMENT_SENSITIVE, p->placement_sensitive);
		jsonw_double_array(w, LATENCY_PLACEMENT_KEY_ARENA_TRIALS_NS, p->alloc_trials_ns[0], p->nalloc_trials);
		jsonw_double_array(w, LATENCY_PLACEMENT_KEY_OWN_ALLOCATION_TRIALS_NS, p->alloc_trials_ns[1], p->nalloc_trials);
		jsonw_object_end(w);
	} else
		jsonw_null(w, LATENCY_POINT_KEY_PLACEMENT);
}

static void level_members(struct jsonw *w, const void *e)
{
	const struct latency_level *l = e;

	JSONW_FIELDS(w, l, latency_level_end_fields);
	jsonw_uint_or_null(w, LATENCY_LEVEL_KEY_CAPACITY_BYTES, l->capacity_bytes, l->capacity_bytes);
	JSONW_FIELDS(w, l, latency_level_fields);
	jsonw_uint_or_null(w, LATENCY_LEVEL_KEY_CACHE_LEVEL, l->cache_level, l->cache_level);
	jsonw_bool(w, LATENCY_LEVEL_KEY_DISAGREES_WITH_REPORTED, l->disagrees);
	jsonw_bool(w, LATENCY_LEVEL_KEY_TLB_STEP, l->tlb);
}

/* An OS cache with no plateau: the levels' ends around it, NAN where none. */
static void missing_members(struct jsonw *w, const void *e)
{
	const struct latency_missing *m = e;

	jsonw_uint(w, LATENCY_MISSING_KEY_REPORTED_BYTES, m->reported_bytes);
	jsonw_uint(w, LATENCY_MISSING_KEY_CACHE_LEVEL, m->cache_index + 1);
	jsonw_uint(w, LATENCY_MISSING_KEY_AFTER_BYTES, m->after_bytes);
	jsonw_uint(w, LATENCY_MISSING_KEY_BEFORE_BYTES, m->before_bytes);
	jsonw_double(w, LATENCY_MISSING_KEY_AFTER_NS, m->after_bytes ? m->after_ns : NAN);
	jsonw_double(w, LATENCY_MISSING_KEY_BEFORE_NS, m->before_bytes ? m->before_ns : NAN);
}

static void knee_members(struct jsonw *w, const void *e)
{
	const struct latency_knee *k = e;

	JSONW_FIELDS(w, k, latency_knee_fields);
	jsonw_string(w, LATENCY_KNEE_KEY_KIND, k->tlb ? "tlb" : k->tlb_reach_bytes ? "tlb+cache" : "cache");
	if (k->tlb_reach_bytes) {
		jsonw_uint(w, LATENCY_KNEE_KEY_TLB_REACH_BYTES, k->tlb_reach_bytes);
		jsonw_double(w, LATENCY_KNEE_KEY_TLB_STEP_NS, k->tlb_step_ns);
	} else {
		jsonw_null(w, LATENCY_KNEE_KEY_TLB_REACH_BYTES);
		jsonw_null(w, LATENCY_KNEE_KEY_TLB_STEP_NS);
	}
}

/* A fall's sizes are doubles (the series given); JSON holds them whole. */
static void fall_members(struct jsonw *w, const void *e)
{
	const struct curve_fall *x = e;

	jsonw_uint(w, LATENCY_FALL_KEY_SIZE_BYTES, (uint64_t)x->x);
	jsonw_double(w, LATENCY_FALL_KEY_LATENCY_NS, x->y);
	jsonw_uint(w, LATENCY_FALL_KEY_BELOW_SIZE_BYTES, (uint64_t)x->ref_x);
	jsonw_double(w, LATENCY_FALL_KEY_BELOW_LATENCY_NS, x->ref_y);
	jsonw_double(w, LATENCY_FALL_KEY_FALL_PCT, x->fall_pct);
}

void latency_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct latency_result *r = result;

	jsonw_object_begin(w, key);
	JSONW_OBJECT_ARRAY_EACH(w, LATENCY_KEY_POINTS, r->points, r->npoints, point_members);
	JSONW_OBJECT_ARRAY_EACH(w, LATENCY_KEY_LEVELS_DETECTED, r->levels, r->nlevels, level_members);
	JSONW_OBJECT_ARRAY_EACH(w, LATENCY_KEY_REPORTED_WITHOUT_PLATEAU, r->missing, r->nmissing, missing_members);
	JSONW_OBJECT_ARRAY_EACH(w, LATENCY_KEY_KNEES, r->knees, r->nknees, knee_members);
	jsonw_uint(w, LATENCY_KEY_STEADY_CHECKED, r->steady_checked);
	jsonw_uint(w, LATENCY_KEY_STEADY_FAILED, r->steady_failed);
	JSONW_OBJECT_ARRAY(w, LATENCY_KEY_WARM_REFERENCES, r->refs, r->nrefs, latency_reference_fields);
	JSONW_FIELDS(w, r, latency_at_max_fields);
	JSONW_OBJECT_ARRAY_EACH(w, LATENCY_KEY_NON_MONOTONIC, r->falls, r->nfalls, fall_members);
	JSONW_FIELDS(w, r, latency_second_look_fields);
	{
		struct latency_dist d[LATENCY_DIST_MAX];
		unsigned nd = latency_dist_select(r, d, LATENCY_DIST_MAX);

		jsonw_array_begin(w, LATENCY_KEY_PERCENTILES);
		for (unsigned i = 0; i < nd; i++) {
			const struct latency_point *p = &r->points[d[i].point];

			jsonw_object_begin(w, NULL);
			jsonw_uint(w, LATENCY_PERCENTILE_KEY_SIZE_BYTES, d[i].size_bytes);
			/* null, not 0: a level key holds a cache level (1..8) wherever
			 * it appears, and the reader of saved results checks that. */
			jsonw_uint_or_null(w, LATENCY_PERCENTILE_KEY_LEVEL, d[i].level, d[i].level);
			jsonw_uint(w, LATENCY_PERCENTILE_KEY_REGIONS, d[i].pct.n);
			jsonw_double(w, LATENCY_PERCENTILE_KEY_MIN_NS, d[i].min_ns);
			jsonw_double(w, LATENCY_PERCENTILE_KEY_P50_NS, d[i].pct.p50);
			jsonw_double(w, LATENCY_PERCENTILE_KEY_P90_NS, d[i].pct.p90);
			jsonw_double(w, LATENCY_PERCENTILE_KEY_P99_NS, d[i].pct.p99);
			jsonw_double(w, LATENCY_PERCENTILE_KEY_MAX_NS, d[i].pct.max);
			jsonw_double_array(w, LATENCY_PERCENTILE_KEY_REGION_NS, p->chase_trials_ns, p->ntrials);
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
	}
	JSONW_FIELDS(w, r, latency_run_fields);
	jsonw_double(w, LATENCY_KEY_CORE_MHZ_MIN, r->core_mhz_min > 0 ? r->core_mhz_min : NAN);
	jsonw_double(w, LATENCY_KEY_CORE_MHZ_MAX, r->core_mhz_max > 0 ? r->core_mhz_max : NAN);
	jsonw_bool_or_null(w, LATENCY_KEY_CORE_CLOCK_STEADY, r->core_mhz_min > 0, !r->core_clock_unsteady);
	jsonw_uint(w, LATENCY_KEY_SEED, r->seed);
	jsonw_double(w, LATENCY_KEY_SETUP_SECONDS, r->setup_seconds);
	jsonw_double(w, LATENCY_KEY_SWEEP_SECONDS, r->sweep_seconds);
	jsonw_object_end(w);
}

static const struct csv_col latency_point_cols[] = {
	{ "size_bytes", LATENCY_POINT_KEY_SIZE_BYTES }, { "pages", LATENCY_POINT_KEY_PAGES },
	{ "huge_fraction_obtained", LATENCY_POINT_KEY_HUGE_FRACTION_OBTAINED },
	{ "chase_ns", LATENCY_POINT_KEY_CHASE_NS }, { "stream_ns", LATENCY_POINT_KEY_STREAM_NS },
	{ "prefetch_ratio", LATENCY_POINT_KEY_PREFETCH_RATIO },
	{ "chase_cycles_min", LATENCY_POINT_KEY_CHASE_CYCLES_MIN }, { "chase_cycles_max", LATENCY_POINT_KEY_CHASE_CYCLES_MAX },
	{ "layout_ok", LATENCY_POINT_KEY_LAYOUT_OK }, { "trials", LATENCY_POINT_KEY_TRIALS },
};

static const struct csv_col level_cols[] = {
	{ "level", LATENCY_LEVEL_KEY_LEVEL }, { "first_bytes", LATENCY_LEVEL_KEY_FIRST_BYTES },
	{ "size_bytes", LATENCY_LEVEL_KEY_SIZE_BYTES }, { "capacity_bytes", LATENCY_LEVEL_KEY_CAPACITY_BYTES },
	{ "latency_ns", LATENCY_LEVEL_KEY_LATENCY_NS }, { "points", LATENCY_LEVEL_KEY_POINTS },
	{ "reaches_max", LATENCY_LEVEL_KEY_REACHES_MAX }, { "reported_bytes", LATENCY_LEVEL_KEY_REPORTED_BYTES },
	{ "disagrees_with_reported", LATENCY_LEVEL_KEY_DISAGREES_WITH_REPORTED },
};

static const struct csv_rows_table csv_tables[] = {
	CSV_ROWS_TABLE("latency_points", "latency." LATENCY_KEY_POINTS, latency_point_cols),
	CSV_ROWS_TABLE("latency_levels", "latency." LATENCY_KEY_LEVELS_DETECTED, level_cols),
};

int latency_write_csv(const char *dir, const struct jsonr_value *doc)
{
	return csv_write_row_tables(dir, doc, csv_tables, CSV_NCOLS(csv_tables));
}
