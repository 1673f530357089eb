/*
 * The latency section's view: as HTML tables the curve's summary, the levels
 * it found, the points below a smaller working set and every point; the
 * headline's cache and memory latencies; the latency and latency_dist plots;
 * its settings and rows in compare. Cache levels are the OS's (L1, L2, L3 as
 * sysfs reports them), each matched to a plateau the curve found at that
 * size (or, said so, one matched by rank whose end differs); where none
 * matches, the chase at the geometric middle between the level below and
 * this one is shown instead and says so, because a cache with no plateau of
 * its own (shared, partitioned or contended) still has a latency a reader
 * wants.
 */
#include "report/latency_out.h"

#include <math.h>
#include <string.h>

#include "report/compare_table.h"
#include "report/html_table.h"
#include "report/plots_dist.h"
#include "report/plots.h"
#include "report/summary.h"

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

static const char *const level_line[] = { "L1 latency", "L2 latency", "L3 latency", "L4 latency" };

/* OS-reported data/unified cache sizes by level (index 0 = L1), from the
 * machine section; without it, the sizes the latency levels were set beside. */
static int os_levels(const struct jsonr_value *doc, double size[4])
{
	const struct jsonr_value *c = jsonr_get(doc, "machine.caches_reported");
	const struct jsonr_value *lv = jsonr_get(doc, "latency.levels_detected");
	int n = 0;

	memset(size, 0, 4 * sizeof(double));
	for (const struct jsonr_value *e = c && c->type == JSONR_ARRAY ? c->u.children.first : NULL; e; e = e->next) {
		const char *type = jsonr_get_string(e, "type");
		double level = summary_number(e, "level"), bytes = summary_number(e, "size_bytes");

		if (type && strcmp(type, "Instruction") && level >= 1 && level <= 4 && bytes > 0)
			size[(int)level - 1] = bytes;
	}
	if (!size[0])
		for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e; e = e->next) {
			double r = summary_number(e, "reported_bytes");

			for (int i = 0; i < 4 && r > 0; i++) {
				if (size[i] == r)
					break;
				if (!size[i] || r < size[i]) {
					for (int j = 3; j > i; j--)
						size[j] = size[j - 1];
					size[i] = r;
					break;
				}
			}
		}
	while (n < 4 && size[n] > 0)
		n++;
	return n;
}

/* Cycles from ns with the core-clock range the latency section used. */
static void add_cycles(struct summary *s, const struct jsonr_value *l, const char *line, const char *name,
		       double ns, const char *from_ns)
{
	double lo = summary_number(l, "core_mhz_min"), hi = summary_number(l, "core_mhz_max");
	struct summary_figure *g;

	if (!(lo > 0 && hi >= lo))
		return;
	if ((g = summary_add(s, line, "latency", name, ns * (lo + hi) / 2000.0, "cycles", 1))) {
		/* The clock's range as +/-, where it shows at this precision. */
		if (ns * (hi - lo) / 2000.0 >= 0.05)
			g->uncertainty = ns * (hi - lo) / 2000.0;
		snprintf(g->from, sizeof(g->from), "%s x latency.core_mhz_min..max", from_ns);
	}
}

/* The huge-page point (or the only one) with the largest size <= target. */
static const struct jsonr_value *point_below(const struct jsonr_value *pts, double target, size_t *idx)
{
	const struct jsonr_value *best = NULL;
	size_t i = 0;

	for (const struct jsonr_value *p = pts && pts->type == JSONR_ARRAY ? pts->u.children.first : NULL; p;
	     p = p->next, i++) {
		const char *pages = jsonr_get_string(p, "pages");
		double b = summary_number(p, "size_bytes");

		if ((pages && strcmp(pages, "huge")) || !(b <= target) || !isfinite(summary_number(p, "chase_ns")))
			continue;
		if (!best || b > summary_number(best, "size_bytes")) {
			best = p;
			*idx = i;
		}
	}
	return best;
}

/* The level's figure from plateau e (index i) of the latency curve. */
static void add_plateau(struct summary *s, const struct jsonr_value *l, int n, const double os[4],
			const struct jsonr_value *e, size_t i, bool disagrees)
{
	struct summary_figure *g;
	char name[48], a[32], b[32];

	snprintf(name, sizeof(name), "l%d_latency_ns", n + 1);
	if (!(g = summary_add(s, level_line[n], "latency", name, summary_number(e, "latency_ns"), "ns", 2)))
		return;
	summary_format_bytes(a, sizeof(a), os[n]);
	summary_format_bytes(b, sizeof(b), summary_number(e, "size_bytes"));
	if (disagrees)
		snprintf(g->note, sizeof(g->note), "plateau ending at %s; the OS says %s", b, a);
	else
		snprintf(g->note, sizeof(g->note), "plateau matching the OS's %s", a);
	snprintf(g->from, sizeof(g->from), "latency.levels_detected[%zu].latency_ns", i);
	snprintf(name, sizeof(name), "l%d_latency_cycles", n + 1);
	add_cycles(s, l, level_line[n], name, g->value, g->from);
}

/* Level n's latency: the plateau the curve matched to the OS's size; else
 * one matched by rank only (its end disagrees with the OS) when it starts
 * past the level below, which a guest's partial L3 does; else the chase at
 * the geometric middle of the level, labelled as such. */
static void add_level(struct summary *s, const struct jsonr_value *l, int n, const double os[4])
{
	const struct jsonr_value *lv = jsonr_get(l, "levels_detected"), *p, *by_rank = NULL;
	char name[48], from[96], a[32], b[32];
	struct summary_figure *g;
	size_t i = 0, rank_i = 0;
	double target, memory_from = NAN;

	for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e;
	     e = e->next, i++) {
		bool disagrees = false, tlb_step = false, reaches_max = false;

		jsonr_get_bool(e, "disagrees_with_reported", &disagrees);
		/* A level that starts at a TLB reach is not a cache. */
		jsonr_get_bool(e, "tlb_step", &tlb_step);
		jsonr_get_bool(e, "reaches_max", &reaches_max);
		if (reaches_max && !(memory_from > 0))
			memory_from = summary_number(e, "first_bytes");
		if (summary_number(e, "reported_bytes") != os[n] || tlb_step || !isfinite(summary_number(e, "latency_ns")))
			continue;
		if (!disagrees) {
			add_plateau(s, l, n, os, e, i, false);
			return;
		}
		if (!by_rank && summary_number(e, "first_bytes") > (n ? os[n - 1] : 0)) {
			by_rank = e;
			rank_i = i;
		}
	}
	if (by_rank) {
		add_plateau(s, l, n, os, by_rank, rank_i, true);
		return;
	}
	/* No plateau of its own: the chase half-way (geometrically) into it,
	 * never a point past where the curve reaches memory. */
	target = n ? sqrt(os[n - 1] * os[n]) : os[0] / 2;
	if (memory_from > 0 && target >= memory_from)
		target = memory_from * 0.99;
	if (!(p = point_below(jsonr_get(l, "points"), target, &i)) || summary_number(p, "size_bytes") <= (n ? os[n - 1] : 0))
		return;
	snprintf(name, sizeof(name), "l%d_latency_ns", n + 1);
	if (!(g = summary_add(s, level_line[n], "latency", name, summary_number(p, "chase_ns"), "ns", 2)))
		return;
	summary_format_bytes(a, sizeof(a), summary_number(p, "size_bytes"));
	summary_format_bytes(b, sizeof(b), os[n]);
	snprintf(g->note, sizeof(g->note), "chase at %s: no plateau matched the OS's %s", a, b);
	snprintf(g->from, sizeof(g->from), "latency.points[%zu].chase_ns", i);
	snprintf(from, sizeof(from), "%s", g->from);
	snprintf(name, sizeof(name), "l%d_latency_cycles", n + 1);
	add_cycles(s, l, level_line[n], name, g->value, from);
}

/* The headline must not hide latency's own steady-state verdict: when the
 * largest huge-page point read slower than its 4x-longer regions, say so
 * and give the steadier figure beside it (the value stays the section's). */
static void note_unsteady(struct summary_figure *g, const struct jsonr_value *l, double max_bytes)
{
	const struct jsonr_value *pts = jsonr_get(l, "points");
	size_t used = strlen(g->note);

	for (const struct jsonr_value *p = pts && pts->type == JSONR_ARRAY ? pts->u.children.first : NULL; p;
	     p = p->next) {
		const char *pages = jsonr_get_string(p, "pages");
		bool steady = true;

		if (summary_number(p, "size_bytes") != max_bytes || !pages || strcmp(pages, "huge") ||
		    !jsonr_get_bool(p, "steady_ok", &steady) || steady || !isfinite(summary_number(p, "steady_long_ns")))
			continue;
		snprintf(g->note + used, sizeof(g->note) - used, "; NOT STEADY: %.1f ns over 4x longer regions",
			 summary_number(p, "steady_long_ns"));
		return;
	}
}

static void add_latency(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *l)
{
	double os[4], max = summary_number(l, "max_bytes"), huge = summary_number(l, "arena_huge_obtained_bytes");
	double total = summary_number(l, "arena_huge_bytes");
	int nlev = os_levels(doc, os);
	struct summary_figure *g;
	char a[32];

	for (int n = 0; n < nlev; n++)
		add_level(s, l, n, os);
	summary_format_bytes(a, sizeof(a), max);
	if ((g = summary_add(s, "memory latency", "latency", "memory_latency_ns",
			     summary_number(l, "chase_ns_at_max"), "ns", 1))) {
		if (total > 0 && isfinite(huge))
			snprintf(g->note, sizeof(g->note), "at %s, huge pages %.0f%% obtained", a, 100.0 * huge / total);
		else
			snprintf(g->note, sizeof(g->note), "at %s, huge pages requested", a);
		snprintf(g->from, sizeof(g->from), "latency.chase_ns_at_max");
		note_unsteady(g, l, max);
		add_cycles(s, l, "memory latency", "memory_latency_cycles", g->value, g->from);
	}
	if ((g = summary_add(s, "memory latency", "latency", "memory_latency_small_pages_ns",
			     summary_number(l, "small_chase_ns_at_max"), "ns", 1))) {
		snprintf(g->what, sizeof(g->what), "small pages");
		snprintf(g->from, sizeof(g->from), "latency.small_chase_ns_at_max");
	}
	if ((g = summary_add(s, "translation", "latency", "translation_ns",
			     summary_number(l, "translation_ns_at_max"), "ns", 1))) {
		snprintf(g->note, sizeof(g->note), "per load, small minus huge pages at %s", a);
		snprintf(g->from, sizeof(g->from), "latency.translation_ns_at_max");
	}
	if ((g = summary_add(s, "prefetcher", "latency", "prefetch_ratio",
			     summary_number(l, "prefetch_ratio_at_max"), "x", 1))) {
		snprintf(g->note, sizeof(g->note), "random chase / +64 B stream at %s", a);
		snprintf(g->from, sizeof(g->from), "latency.prefetch_ratio_at_max");
	}
}

static void compare_latency(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			    const struct jsonr_value *part)
{
	const struct jsonr_value *l = part, *lv;
	size_t k = 0;

	(void)doc;
	compare_table_setting(c, i, "latency", "largest working set (bytes)", true, jsonr_get(l, "max_bytes"));
	compare_table_setting(c, i, "latency", "node spacing (bytes)", true, jsonr_get(l, "line_bytes"));
	compare_table_setting(c, i, "latency", "trials per point", true, jsonr_get(l, "trials"));
	lv = jsonr_get(l, "levels_detected");
	/* Levels pair by position only when every run found as many: otherwise
	 * level 4 of one run may be level 5 of the other. */
	compare_table_setting_num(c, i, "latency levels", "levels detected (pairing by position)", true,
				  lv && lv->type == JSONR_ARRAY ? (double)lv->u.children.count : 0);
	for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e; e = e->next) {
		char name[64];

		snprintf(name, sizeof(name), "latency, detected level %zu", ++k);
		compare_table_row(c, i, "latency levels", name, "ns", summary_number(e, "latency_ns"), NAN);
	}
	compare_table_row(c, i, "latency", "latency at the largest working set", "ns",
			  summary_number(l, "chase_ns_at_max"), NAN);
	compare_table_row(c, i, "latency", "small pages at the largest set", "ns",
			  summary_number(l, "small_chase_ns_at_max"), NAN);
	compare_table_row(c, i, "latency", "translation cost at the largest set", "ns",
			  summary_number(l, "translation_ns_at_max"), NAN);
	compare_table_row(c, i, "latency", "prefetcher effect at the largest set", "x",
			  summary_number(l, "prefetch_ratio_at_max"), NAN);
}

static const struct view_plot latency_plots[] = {
	{ "latency", 0, plots_latency }, { "latency_dist", 8, plots_latency_dist },
};

static const struct view_fleet_column latency_fleet[] = {
	{ "l1_latency_ns", "L1 ns", 0, false, NULL }, { "l2_latency_ns", "L2 ns", 1, false, NULL },
	{ "l3_latency_ns", "L3 ns", 2, false, NULL }, { "memory_latency_ns", "mem ns", 3, false, NULL },
	{ "translation_ns", "xlat ns", 4, false, NULL },
};
static const struct view_fleet_setting latency_fleet_settings[] = { { "latency.max_bytes", 2 } };

const struct view view_latency = {
	.section = "latency", .html = latency_html, VIEW_PLOTS(latency_plots), .compare = compare_latency,
	.summary_line = "cache latency", .summary = add_latency,
	VIEW_FLEET(latency_fleet), VIEW_FLEET_SETTINGS(latency_fleet_settings),
};
