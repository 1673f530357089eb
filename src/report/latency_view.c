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

#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/compare_table.h"
#include "report/html_table.h"
#include "report/latency_keys.h"
#include "report/machine_keys.h"
#include "report/plots.h"
#include "report/summary.h"

static const struct html_col latency_rows[] = {
	{ "largest working set", LATENCY_KEY_MAX_BYTES, F_BYTES },
	{ "node spacing (B)", LATENCY_KEY_LINE_BYTES, F_TEXT },
	{ "trials per point", LATENCY_KEY_TRIALS, F_TEXT },
	{ "noise floor (%)", LATENCY_KEY_NOISE_FLOOR_PCT, 2 },
	{ "level tolerance (%)", LATENCY_KEY_LEVEL_TOLERANCE_PCT, 2 },
	{ "chase at max (ns)", LATENCY_KEY_CHASE_NS_AT_MAX, 2 },
	{ "stream at max (ns)", LATENCY_KEY_STREAM_NS_AT_MAX, 3 },
	{ "prefetcher effect at max (x, chase/stream)", LATENCY_KEY_PREFETCH_RATIO_AT_MAX, 1 },
	{ "small-page chase at max (ns)", LATENCY_KEY_SMALL_CHASE_NS_AT_MAX, 2 },
	{ "translation cost at max (ns per load, by subtraction)", LATENCY_KEY_TRANSLATION_NS_AT_MAX, 2 },
	{ "non-monotonic points", LATENCY_KEY_NON_MONOTONIC_FOUND, F_TEXT },
	{ "non-monotonic points in the sweep, before re-timing", LATENCY_KEY_NON_MONOTONIC_FOUND_IN_SWEEP, F_TEXT },
	{ "points re-timed", LATENCY_KEY_RETIMED_POINTS, F_TEXT },
};

static const struct html_col latency_point_cols[] = {
	{ "working set", LATENCY_POINT_KEY_SIZE_BYTES, F_BYTES },
	{ "pages", LATENCY_POINT_KEY_PAGES, F_TEXT },
	{ "chase (ns/load)", LATENCY_POINT_KEY_CHASE_NS, 3 },
	{ "stream +64 B (ns/load)", LATENCY_POINT_KEY_STREAM_NS, 3 },
	{ "prefetcher (x)", LATENCY_POINT_KEY_PREFETCH_RATIO, 2 },
	{ "chase cycles min", LATENCY_POINT_KEY_CHASE_CYCLES_MIN, 1 },
	{ "chase cycles max", LATENCY_POINT_KEY_CHASE_CYCLES_MAX, 1 },
	{ "layout ok", LATENCY_POINT_KEY_LAYOUT_OK, F_BOOL },
	{ "trials", LATENCY_POINT_KEY_TRIALS, F_TEXT },
	{ "sweep's chase (ns, before re-timing)", LATENCY_POINT_KEY_SWEEP_CHASE_NS, 3 },
};

static const struct html_col level_cols[] = {
	{ "level", LATENCY_LEVEL_KEY_LEVEL, F_TEXT },
	{ "from", LATENCY_LEVEL_KEY_FIRST_BYTES, F_BYTES },
	{ "ends at", LATENCY_LEVEL_KEY_SIZE_BYTES, F_BYTES },
	{ "capacity (half-way)", LATENCY_LEVEL_KEY_CAPACITY_BYTES, F_BYTES },
	{ "latency (ns)", LATENCY_LEVEL_KEY_LATENCY_NS, 2 },
	{ "points", LATENCY_LEVEL_KEY_POINTS, F_TEXT },
	{ "runs to max", LATENCY_LEVEL_KEY_REACHES_MAX, F_BOOL },
	{ "OS reports", LATENCY_LEVEL_KEY_REPORTED_BYTES, F_BYTES },
	{ "disagrees with OS", LATENCY_LEVEL_KEY_DISAGREES_WITH_REPORTED, F_BOOL },
};

static const struct html_col nonmono_cols[] = {
	{ "working set", LATENCY_FALL_KEY_SIZE_BYTES, F_BYTES },
	{ "latency (ns)", LATENCY_FALL_KEY_LATENCY_NS, 3 },
	{ "below", LATENCY_FALL_KEY_BELOW_SIZE_BYTES, F_BYTES },
	{ "its latency (ns)", LATENCY_FALL_KEY_BELOW_LATENCY_NS, 3 },
	{ "fall (%)", LATENCY_FALL_KEY_FALL_PCT, 1 },
};

static const struct html_rows_table latency_tables[] = {
	HTML_ROWS_TABLE(LATENCY_KEY_LEVELS_DETECTED, level_cols, "levels detected (plateaus within the tolerance)"),
	HTML_ROWS_TABLE(LATENCY_KEY_NON_MONOTONIC, nonmono_cols, "points below a smaller working set (faults, not smoothed)"),
	HTML_ROWS_TABLE(LATENCY_KEY_POINTS, latency_point_cols, "points (minimum over trials)"),
};

static const char *const level_line[] = { "L1 latency", "L2 latency", "L3 latency", "L4 latency" };

/* OS-reported data/unified cache sizes by level (index 0 = L1), from the
 * machine section; without it, the sizes the latency levels were set beside. */
static int os_levels(const struct jsonr_value *doc, double size[4])
{
	const struct jsonr_value *c = jsonr_get(doc, "machine." MACHINE_KEY_CACHES_REPORTED);
	const struct jsonr_value *lv = jsonr_get(doc, "latency." LATENCY_KEY_LEVELS_DETECTED);
	int n = 0;

	memset(size, 0, 4 * sizeof(double));
	for (const struct jsonr_value *e = c && c->type == JSONR_ARRAY ? c->u.children.first : NULL; e; e = e->next) {
		const char *type = jsonr_get_string(e, MACHINE_CACHE_KEY_TYPE);
		double level = summary_number(e, MACHINE_CACHE_KEY_LEVEL), bytes = summary_number(e, MACHINE_CACHE_KEY_SIZE_BYTES);

		if (type && strcmp(type, "Instruction") && level >= 1 && level <= 4 && bytes > 0)
			size[(int)level - 1] = bytes;
	}
	if (!size[0])
		for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e; e = e->next) {
			double r = summary_number(e, LATENCY_LEVEL_KEY_REPORTED_BYTES);

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
	double lo = summary_number(l, LATENCY_KEY_CORE_MHZ_MIN), hi = summary_number(l, LATENCY_KEY_CORE_MHZ_MAX);
	const struct jsonr_value *steady = jsonr_get(l, LATENCY_KEY_CORE_CLOCK_STEADY);
	struct summary_figure *g;

	/* A clock that moved between its samples makes no cycle figure: the
	 * latency section said so among the warnings. */
	if (!(lo > 0 && hi >= lo) || (steady && steady->type == JSONR_BOOL && !steady->u.boolean))
		return;
	if ((g = summary_add(s, line, "latency", name, ns * (lo + hi) / 2000.0, "cycles", 1))) {
		/* The clock's range as +/-, where it shows at this precision. */
		if (ns * (hi - lo) / 2000.0 >= 0.05)
			g->uncertainty = ns * (hi - lo) / 2000.0;
		snprintf(g->from, sizeof(g->from), "%s x latency." LATENCY_KEY_CORE_MHZ_MIN "..max", from_ns);
	}
}

/* The huge-page point (or the only one) with the largest size <= target. */
static const struct jsonr_value *point_below(const struct jsonr_value *pts, double target, size_t *idx)
{
	const struct jsonr_value *best = NULL;
	size_t i = 0;

	for (const struct jsonr_value *p = pts && pts->type == JSONR_ARRAY ? pts->u.children.first : NULL; p;
	     p = p->next, i++) {
		const char *pages = jsonr_get_string(p, LATENCY_POINT_KEY_PAGES);
		double b = summary_number(p, LATENCY_POINT_KEY_SIZE_BYTES);

		if ((pages && strcmp(pages, "huge")) || !(b <= target) || !isfinite(summary_number(p, LATENCY_POINT_KEY_CHASE_NS)))
			continue;
		if (!best || b > summary_number(best, LATENCY_POINT_KEY_SIZE_BYTES)) {
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

	snprintf(name, sizeof(name), LATENCY_FIGURE_LEVEL_NS, n + 1);
	if (!(g = summary_add(s, level_line[n], "latency", name, summary_number(e, LATENCY_LEVEL_KEY_LATENCY_NS), "ns", 2)))
		return;
	summary_format_bytes(a, sizeof(a), os[n]);
	summary_format_bytes(b, sizeof(b), summary_number(e, LATENCY_LEVEL_KEY_SIZE_BYTES));
	if (disagrees)
		snprintf(g->note, sizeof(g->note), "plateau ending at %s; the OS says %s", b, a);
	else
		snprintf(g->note, sizeof(g->note), "plateau matching the OS's %s", a);
	snprintf(g->from, sizeof(g->from), "latency." LATENCY_KEY_LEVELS_DETECTED "[%zu]." LATENCY_LEVEL_KEY_LATENCY_NS, i);
	snprintf(name, sizeof(name), LATENCY_FIGURE_LEVEL_CYCLES, n + 1);
	add_cycles(s, l, level_line[n], name, g->value, g->from);
}

/* Level n's latency: the plateau the curve matched to the OS's size; else
 * one matched by rank only (its end disagrees with the OS) when it starts
 * past the level below, which a guest's partial L3 does; else the chase at
 * the geometric middle of the level, labelled as such. */
static void add_level(struct summary *s, const struct jsonr_value *l, int n, const double os[4])
{
	const struct jsonr_value *lv = jsonr_get(l, LATENCY_KEY_LEVELS_DETECTED), *p, *by_rank = NULL;
	char name[48], from[96], a[32], b[32];
	struct summary_figure *g;
	size_t i = 0, rank_i = 0;
	double target, memory_from = NAN;

	for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e;
	     e = e->next, i++) {
		bool disagrees = false, tlb_step = false, reaches_max = false;

		jsonr_get_bool(e, LATENCY_LEVEL_KEY_DISAGREES_WITH_REPORTED, &disagrees);
		/* A level that starts at a TLB reach is not a cache. */
		jsonr_get_bool(e, LATENCY_LEVEL_KEY_TLB_STEP, &tlb_step);
		jsonr_get_bool(e, LATENCY_LEVEL_KEY_REACHES_MAX, &reaches_max);
		if (reaches_max && !(memory_from > 0))
			memory_from = summary_number(e, LATENCY_LEVEL_KEY_FIRST_BYTES);
		if (summary_number(e, LATENCY_LEVEL_KEY_REPORTED_BYTES) != os[n] || tlb_step ||
		    !isfinite(summary_number(e, LATENCY_LEVEL_KEY_LATENCY_NS)))
			continue;
		if (!disagrees) {
			add_plateau(s, l, n, os, e, i, false);
			return;
		}
		if (!by_rank && summary_number(e, LATENCY_LEVEL_KEY_FIRST_BYTES) > (n ? os[n - 1] : 0)) {
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
	if (!(p = point_below(jsonr_get(l, LATENCY_KEY_POINTS), target, &i)) ||
	    summary_number(p, LATENCY_POINT_KEY_SIZE_BYTES) <= (n ? os[n - 1] : 0))
		return;
	snprintf(name, sizeof(name), LATENCY_FIGURE_LEVEL_NS, n + 1);
	if (!(g = summary_add(s, level_line[n], "latency", name, summary_number(p, LATENCY_POINT_KEY_CHASE_NS), "ns", 2)))
		return;
	summary_format_bytes(a, sizeof(a), summary_number(p, LATENCY_POINT_KEY_SIZE_BYTES));
	summary_format_bytes(b, sizeof(b), os[n]);
	snprintf(g->note, sizeof(g->note), "chase at %s: no plateau matched the OS's %s", a, b);
	snprintf(g->from, sizeof(g->from), "latency." LATENCY_KEY_POINTS "[%zu]." LATENCY_POINT_KEY_CHASE_NS, i);
	snprintf(from, sizeof(from), "%s", g->from);
	snprintf(name, sizeof(name), LATENCY_FIGURE_LEVEL_CYCLES, n + 1);
	add_cycles(s, l, level_line[n], name, g->value, from);
}

/* The headline must not hide latency's own steady-state verdict: when the
 * largest huge-page point read slower than its 4x-longer regions, say so
 * and give the steadier figure beside it (the value stays the section's). */
static void note_unsteady(struct summary_figure *g, const struct jsonr_value *l, double max_bytes)
{
	const struct jsonr_value *pts = jsonr_get(l, LATENCY_KEY_POINTS);
	size_t used = strlen(g->note);

	for (const struct jsonr_value *p = pts && pts->type == JSONR_ARRAY ? pts->u.children.first : NULL; p;
	     p = p->next) {
		const char *pages = jsonr_get_string(p, LATENCY_POINT_KEY_PAGES);
		bool steady = true;

		if (summary_number(p, LATENCY_POINT_KEY_SIZE_BYTES) != max_bytes || !pages || strcmp(pages, "huge") ||
		    !jsonr_get_bool(p, LATENCY_POINT_KEY_STEADY_OK, &steady) || steady ||
		    !isfinite(summary_number(p, LATENCY_POINT_KEY_STEADY_LONG_NS)))
			continue;
		snprintf(g->note + used, sizeof(g->note) - used, "; NOT STEADY: %.1f ns over 4x longer regions",
			 summary_number(p, LATENCY_POINT_KEY_STEADY_LONG_NS));
		return;
	}
}

/* Where the OS reports no caches (a guest, an unknown CPU) the levels are
 * the curve's own plateaus, caches only: not a TLB step, not memory. */
static void add_measured_levels(struct summary *s, const struct jsonr_value *l)
{
	const struct jsonr_value *lv = jsonr_get(l, LATENCY_KEY_LEVELS_DETECTED);
	size_t i = 0;
	int n = 0;

	for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e && n < 4;
	     e = e->next, i++) {
		bool tlb_step = false, reaches_max = false;
		struct summary_figure *g;
		char name[48], a[32];

		jsonr_get_bool(e, LATENCY_LEVEL_KEY_TLB_STEP, &tlb_step);
		jsonr_get_bool(e, LATENCY_LEVEL_KEY_REACHES_MAX, &reaches_max);
		if (tlb_step || reaches_max || !isfinite(summary_number(e, LATENCY_LEVEL_KEY_LATENCY_NS)))
			continue;
		snprintf(name, sizeof(name), LATENCY_FIGURE_LEVEL_NS, n + 1);
		if (!(g = summary_add(s, level_line[n], "latency", name, summary_number(e, LATENCY_LEVEL_KEY_LATENCY_NS), "ns", 2)))
			continue;
		summary_format_bytes(a, sizeof(a), summary_number(e, LATENCY_LEVEL_KEY_SIZE_BYTES));
		snprintf(g->note, sizeof(g->note), "plateau ending at %s; the OS reports no cache sizes", a);
		snprintf(g->from, sizeof(g->from), "latency." LATENCY_KEY_LEVELS_DETECTED "[%zu]." LATENCY_LEVEL_KEY_LATENCY_NS, i);
		snprintf(name, sizeof(name), LATENCY_FIGURE_LEVEL_CYCLES, n + 1);
		add_cycles(s, l, level_line[n], name, g->value, g->from);
		n++;
	}
}

static void add_latency(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *l)
{
	double os[4], max = summary_number(l, LATENCY_KEY_MAX_BYTES);
	double huge = summary_number(l, LATENCY_KEY_ARENA_HUGE_OBTAINED_BYTES);
	double total = summary_number(l, LATENCY_KEY_ARENA_HUGE_BYTES);
	int nlev = os_levels(doc, os);
	struct summary_figure *g;
	char a[32];

	for (int n = 0; n < nlev; n++)
		add_level(s, l, n, os);
	if (!nlev)
		add_measured_levels(s, l);
	summary_format_bytes(a, sizeof(a), max);
	if ((g = summary_add(s, "memory latency", "latency", LATENCY_FIGURE_MEMORY_LATENCY_NS,
			     summary_number(l, LATENCY_KEY_CHASE_NS_AT_MAX), "ns", 1))) {
		double whole = summary_number(l, LATENCY_KEY_WHOLE_WALK_NS_AT_MAX);
		double region = summary_number(l, LATENCY_KEY_REGION_LOADS);
		size_t used;

		if (total > 0 && isfinite(huge))
			snprintf(g->note, sizeof(g->note), "at %s, huge pages %.0f%% obtained", a, 100.0 * huge / total);
		else
			snprintf(g->note, sizeof(g->note), "at %s, huge pages requested", a);
		/* Which estimator, and the plain chase's beside it. */
		used = strlen(g->note);
		if (isfinite(region) && region > 0 && isfinite(whole) && whole > 0)
			snprintf(g->note + used, sizeof(g->note) - used, "; min over %.0f-load regions; whole walks %.1f ns",
				 region, whole);
		snprintf(g->from, sizeof(g->from), "latency." LATENCY_KEY_CHASE_NS_AT_MAX);
		note_unsteady(g, l, max);
		add_cycles(s, l, "memory latency", LATENCY_FIGURE_MEMORY_LATENCY_CYCLES, g->value, g->from);
	}
	if ((g = summary_add(s, "memory latency", "latency", LATENCY_FIGURE_MEMORY_SMALL_PAGES_NS,
			     summary_number(l, LATENCY_KEY_SMALL_CHASE_NS_AT_MAX), "ns", 1))) {
		snprintf(g->what, sizeof(g->what), "small pages");
		snprintf(g->from, sizeof(g->from), "latency." LATENCY_KEY_SMALL_CHASE_NS_AT_MAX);
	}
	if ((g = summary_add(s, "translation", "latency", LATENCY_FIGURE_TRANSLATION_NS,
			     summary_number(l, LATENCY_KEY_TRANSLATION_NS_AT_MAX), "ns", 1))) {
		snprintf(g->note, sizeof(g->note), "per load, small minus huge pages at %s", a);
		snprintf(g->from, sizeof(g->from), "latency." LATENCY_KEY_TRANSLATION_NS_AT_MAX);
	}
	if ((g = summary_add(s, "prefetcher", "latency", LATENCY_FIGURE_PREFETCH_RATIO,
			     summary_number(l, LATENCY_KEY_PREFETCH_RATIO_AT_MAX), "x", 1))) {
		snprintf(g->note, sizeof(g->note), "random chase / +64 B stream at %s", a);
		snprintf(g->from, sizeof(g->from), "latency." LATENCY_KEY_PREFETCH_RATIO_AT_MAX);
	}
}

static void compare_latency(struct compare_table *c, size_t i, const struct jsonr_value *doc,
			    const struct jsonr_value *part)
{
	const struct jsonr_value *l = part, *lv;
	size_t k = 0;

	(void)doc;
	compare_table_setting(c, i, "latency", "largest working set (bytes)", true, jsonr_get(l, LATENCY_KEY_MAX_BYTES));
	compare_table_setting(c, i, "latency", "node spacing (bytes)", true, jsonr_get(l, LATENCY_KEY_LINE_BYTES));
	compare_table_setting(c, i, "latency", "trials per point", true, jsonr_get(l, LATENCY_KEY_TRIALS));
	lv = jsonr_get(l, LATENCY_KEY_LEVELS_DETECTED);
	/* Levels pair by position only when every run found as many: otherwise
	 * level 4 of one run may be level 5 of the other. */
	compare_table_setting_num(c, i, "latency levels", "levels detected (pairing by position)", true,
				  lv && lv->type == JSONR_ARRAY ? (double)lv->u.children.count : 0);
	for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e; e = e->next) {
		char name[64];

		snprintf(name, sizeof(name), "latency, detected level %zu", ++k);
		compare_table_row(c, i, "latency levels", name, "ns", summary_number(e, LATENCY_LEVEL_KEY_LATENCY_NS), NAN);
	}
	compare_table_row(c, i, "latency", "latency at the largest working set", "ns",
			  summary_number(l, LATENCY_KEY_CHASE_NS_AT_MAX), NAN);
	compare_table_row(c, i, "latency", "small pages at the largest set", "ns",
			  summary_number(l, LATENCY_KEY_SMALL_CHASE_NS_AT_MAX), NAN);
	compare_table_row(c, i, "latency", "translation cost at the largest set", "ns",
			  summary_number(l, LATENCY_KEY_TRANSLATION_NS_AT_MAX), NAN);
	compare_table_row(c, i, "latency", "prefetcher effect at the largest set", "x",
			  summary_number(l, LATENCY_KEY_PREFETCH_RATIO_AT_MAX), NAN);
}

/* A cache level as an int, 0 when absent or not 1..8: converting a NaN or
 * out-of-range double to int is undefined behaviour, so it is never done. */
static int level_of(const struct jsonr_value *c)
{
	double l = summary_number(c, MACHINE_CACHE_KEY_LEVEL);

	return l >= 1 && l <= 8 ? (int)l : 0;
}

struct os_cache {
	double size_bytes;
	int level;
	char type;
};

/* Latency against working set: per page kind the chase and the +64 B
 * stream, a bar over each detected level, the OS's cache sizes dashed. */
static int latency_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	struct os_cache seen[32];
	size_t nseen = 0;
	int drawn = 0;

	svg_plot_init(p, "latency", "Latency against working set",
		      "working set (bytes, binary units; log scale)", SVG_LOG2,
		      "latency (ns per dependent load; log scale)", SVG_LOG10);
	p->x.ticks = SVG_TICKS_BYTES;
	snprintf(p->note, sizeof(p->note), "random chase: a latency; +64 B stream: prefetchable; bars: detected levels; grey dashed: cache sizes the OS reports");
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *pts = jsonr_get(docs[d], "latency." LATENCY_KEY_POINTS);
		const char *kinds[4];
		size_t nkinds = 0;
		int chase_color = -1;

		if (!pts || pts->type != JSONR_ARRAY)
			continue;
		drawn = 1;
		/* One chase and one stream curve per page kind, in file order. */
		for (const struct jsonr_value *pt = pts->u.children.first; pt; pt = pt->next) {
			const char *k = jsonr_get_string(pt, LATENCY_POINT_KEY_PAGES);
			size_t i;

			if (!k)
				k = "?";
			for (i = 0; i < nkinds && strcmp(kinds[i], k); i++)
				;
			if (i == nkinds && nkinds < 4)
				kinds[nkinds++] = k;
		}
		for (size_t i = 0; i < nkinds; i++) {
			char what[96], lab[128];
			int sc, ss;
			bool lines;
			size_t count = 0;

			for (const struct jsonr_value *pt = pts->u.children.first; pt; pt = pt->next) {
				const char *k = jsonr_get_string(pt, LATENCY_POINT_KEY_PAGES);

				count += k && !strcmp(k, kinds[i]);
			}
			lines = count > 1;
			snprintf(what, sizeof(what), "random chase, %s pages", kinds[i]);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			sc = svg_plot_series(p, lab, SVG_POINTS | (lines ? SVG_LINES : 0), SVG_AUTO, SVG_AUTO);
			snprintf(what, sizeof(what), "+64 B stream, %s pages", kinds[i]);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			ss = svg_plot_series(p, lab, SVG_POINTS | (lines ? SVG_LINES : 0), SVG_AUTO, SVG_AUTO);
			if (sc < 0 || ss < 0)
				return -ENOMEM;
			if (i == 0)
				chase_color = p->series[sc].color;
			for (const struct jsonr_value *pt = pts->u.children.first; pt; pt = pt->next) {
				const char *k = jsonr_get_string(pt, LATENCY_POINT_KEY_PAGES);
				double x = summary_number(pt, LATENCY_POINT_KEY_SIZE_BYTES);

				if (!k || strcmp(k, kinds[i]))
					continue;
				svg_plot_point(p, sc, x, summary_number(pt, LATENCY_POINT_KEY_CHASE_NS), NAN);
				svg_plot_point(p, ss, x, summary_number(pt, LATENCY_POINT_KEY_STREAM_NS), NAN);
			}
		}
		/* Detected levels: a bar over the sizes each plateau spans. */
		const struct jsonr_value *lv = jsonr_get(docs[d], "latency." LATENCY_KEY_LEVELS_DETECTED);
		for (const struct jsonr_value *l = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; l; l = l->next) {
			char what[96], lab[128];

			snprintf(what, sizeof(what), "level %.0f: %.3g ns", summary_number(l, LATENCY_LEVEL_KEY_LEVEL),
				 summary_number(l, LATENCY_LEVEL_KEY_LATENCY_NS));
			plots_label(lab, sizeof(lab), labels[d], n, what);
			svg_plot_hseg(p, summary_number(l, LATENCY_LEVEL_KEY_FIRST_BYTES), summary_number(l, LATENCY_LEVEL_KEY_SIZE_BYTES),
				      summary_number(l, LATENCY_LEVEL_KEY_LATENCY_NS), n > 1 ? "" : lab, chase_color);
		}
		/* The OS's claims, once per distinct size across runs. */
		const struct jsonr_value *cr = jsonr_get(docs[d], "machine." MACHINE_KEY_CACHES_REPORTED);
		for (const struct jsonr_value *c = cr && cr->type == JSONR_ARRAY ? cr->u.children.first : NULL; c; c = c->next) {
			const char *type = jsonr_get_string(c, MACHINE_CACHE_KEY_TYPE);
			double size = summary_number(c, MACHINE_CACHE_KEY_SIZE_BYTES);
			int level = level_of(c);
			char t = type ? type[0] : '?', sz[32], lab[128];
			size_t i;

			if (t == 'I' || !(size > 0))  /* instruction caches hold no data */
				continue;
			for (i = 0; i < nseen && !(seen[i].size_bytes == size && seen[i].level == level); i++)
				;
			if (i < nseen || nseen == sizeof(seen) / sizeof(seen[0]))
				continue;
			seen[nseen++] = (struct os_cache){ size, level, t };
			plots_format_bytes(sz, sizeof(sz), size);
			if (level)
				snprintf(lab, sizeof(lab), "L%d%s %s (OS)", level, t == 'D' ? "d" : "", sz);
			else
				snprintf(lab, sizeof(lab), "L?%s %s (OS)", t == 'D' ? "d" : "", sz);
			svg_plot_vline(p, size, lab, SVG_GREY, true);
		}
	}
	return plots_done(p, drawn);
}

/* Bins of the latency_dist histogram: regions over their minimum, from 1
 * (the minimum) up to the largest ratio seen, in DIST_BINS equal steps. */
#define DIST_BINS 16

/* The smallest finite positive value of an array, NAN when none. */
static double arr_min(const struct jsonr_value *a)
{
	double m = NAN;

	for (const struct jsonr_value *v = a && a->type == JSONR_ARRAY ? a->u.children.first : NULL; v; v = v->next)
		if (v->type == JSONR_NUMBER && isfinite(v->u.number) && v->u.number > 0 && !(v->u.number >= m))
			m = v->u.number;
	return m;
}

static unsigned total(const unsigned *counts)
{
	unsigned t = 0;

	for (unsigned b = 0; b < DIST_BINS; b++)
		t += counts[b];
	return t;
}

/* Add a's values over base to counts[] (bins of width w from 1); returns
 * the largest ratio, or when w is 0 only finds it. */
static double bin_array(const struct jsonr_value *a, double base, double w, unsigned *counts)
{
	double hi = 1;

	for (const struct jsonr_value *v = a && a->type == JSONR_ARRAY ? a->u.children.first : NULL; v; v = v->next) {
		double r;
		size_t b;

		if (v->type != JSONR_NUMBER || !isfinite(v->u.number) || !(base > 0))
			continue;
		r = v->u.number / base;
		hi = r > hi ? r : hi;
		if (w <= 0)
			continue;
		b = r <= 1 ? 0 : (size_t)((r - 1) / w);
		counts[b < DIST_BINS ? b : DIST_BINS - 1]++;
	}
	return hi;
}

/* One pass over every series' arrays: w 0 finds the largest ratio, else
 * draws. The loaded curve's points pool into one series per run, each
 * point over its own minimum. */
static double walk(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n,
		   double w, int *drawn)
{
	double hi = 1;

	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *pc = jsonr_get(docs[d], "latency." LATENCY_KEY_PERCENTILES);
		const struct jsonr_value *lc = jsonr_get(docs[d], "loaded.curve");

		for (const struct jsonr_value *e = pc && pc->type == JSONR_ARRAY ? pc->u.children.first : NULL; e;
		     e = e->next) {
			unsigned counts[DIST_BINS] = {0};
			const struct jsonr_value *a = jsonr_get(e, LATENCY_PERCENTILE_KEY_REGION_NS);
			double base = arr_min(a), sz = summary_number(e, LATENCY_PERCENTILE_KEY_SIZE_BYTES), r;
			double lv = summary_number(e, LATENCY_PERCENTILE_KEY_LEVEL);
			char what[96], lab[160];
			int s;

			r = bin_array(a, base, w, counts);
			hi = r > hi ? r : hi;
			/* A series with no regions would pin the y axis at 0..0. */
			if (w <= 0 || !isfinite(base) || !total(counts))
				continue;
			if (lv >= 1)
				snprintf(what, sizeof(what), "chase %.0f KiB (level %.0f)", sz / 1024, lv);
			else
				snprintf(what, sizeof(what), "chase %.0f KiB (largest)", sz / 1024);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			if ((s = svg_plot_series(p, lab, SVG_LINES, SVG_AUTO, SVG_AUTO)) < 0)
				return NAN;
			for (unsigned b = 0; b < DIST_BINS; b++) {
				svg_plot_point(p, s, 1 + b * w, counts[b], NAN);
				svg_plot_point(p, s, 1 + (b + 1) * w, counts[b], NAN);
			}
			*drawn = 1;
		}
		if (lc && lc->type == JSONR_ARRAY) {
			unsigned counts[DIST_BINS] = {0};
			char lab[160];
			int s;

			for (const struct jsonr_value *e = lc->u.children.first; e; e = e->next) {
				const struct jsonr_value *a = jsonr_get(e, "latency_region_ns");
				double r = bin_array(a, arr_min(a), w, counts);

				hi = r > hi ? r : hi;
			}
			/* Results saved before the region times were kept have none. */
			if (w <= 0 || !total(counts))
				continue;
			plots_label(lab, sizeof(lab), labels[d], n, "loaded (every point, each over its own minimum)");
			if ((s = svg_plot_series(p, lab, SVG_LINES | SVG_DASHED, SVG_AUTO, SVG_AUTO)) < 0)
				return NAN;
			for (unsigned b = 0; b < DIST_BINS; b++) {
				svg_plot_point(p, s, 1 + b * w, counts[b], NAN);
				svg_plot_point(p, s, 1 + (b + 1) * w, counts[b], NAN);
			}
			*drawn = 1;
		}
	}
	return hi;
}

/* A histogram of per-region times over their minimum, drawn as steps (a
 * flat top across each bin): a quiet machine puts nearly every region in
 * the first bin or two; interference (another task, a frequency change)
 * shows as a tail to the right, which the minimum the tables report hides
 * on purpose. The chase at the sizes latency.percentiles names, and
 * loaded's per-point region times, each over its own minimum so sizes of
 * 1 ns and 100 ns share one axis. */
static int latency_dist_plot(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels,
			     size_t n)
{
	int drawn = 0;
	double hi, w;

	svg_plot_init(p, "latency_dist", "Latency distribution: per-region times over their minimum",
		      "region time / minimum (1 = the minimum the tables report)", SVG_LINEAR,
		      "regions per bin", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "a tail to the right: regions slowed by interference; chase at chosen sizes, "
		 "loaded dashed");
	p->y.include_zero = true;
	hi = walk(p, docs, labels, n, 0, &drawn);
	/* At least a 1% bin, so a quiet run's single spike has width. */
	w = fmax((hi - 1) / DIST_BINS * 1.0001, 0.01 / DIST_BINS);
	walk(p, docs, labels, n, w, &drawn);
	return plots_done(p, drawn);
}

static const struct view_plot latency_plots[] = {
	{ "latency", 0, latency_plot }, { "latency_dist", 8, latency_dist_plot },
};

static const struct view_fleet_column latency_fleet[] = {
	{ "l1_latency_ns", "L1 ns", 0, false, NULL }, { "l2_latency_ns", "L2 ns", 1, false, NULL },
	{ "l3_latency_ns", "L3 ns", 2, false, NULL }, { LATENCY_FIGURE_MEMORY_LATENCY_NS, "mem ns", 3, false, NULL },
	{ LATENCY_FIGURE_TRANSLATION_NS, "xlat ns", 4, false, NULL },
};
static const struct view_fleet_setting latency_fleet_settings[] = { { "latency." LATENCY_KEY_MAX_BYTES, 2 } };
/* small minus huge pages: the floor is a share of what was subtracted from */
static const struct view_fleet_scale latency_fleet_scales[] = {
	{ LATENCY_FIGURE_TRANSLATION_NS, LATENCY_FIGURE_MEMORY_SMALL_PAGES_NS },
};

/* "l2_latency_ns" / "memory_latency_cycles": the level and the unit. */
static bool latency_level_of(const struct summary_figure *g, const char *unit, char *labels, size_t len)
{
	unsigned level;
	char word[48];

	if (sscanf(g->name, "l%u_latency_%47s", &level, word) == 2 && !strcmp(word, unit)) {
		snprintf(labels, len, "level=\"%u\"", level);
		return true;
	}
	snprintf(word, sizeof(word), "memory_latency_%s", unit);
	if (strcmp(g->name, word))
		return false;
	snprintf(labels, len, "level=\"memory\"");
	return true;
}

static bool prom_latency_ns(const struct summary_figure *g, char *labels, size_t len, double *value)
{
	*value = g->value;
	return latency_level_of(g, "ns", labels, len);
}

static bool prom_latency_cycles(const struct summary_figure *g, char *labels, size_t len, double *value)
{
	*value = g->value;
	return latency_level_of(g, "cycles", labels, len);
}

static const struct view_prom_family latency_prom[] = {
	{"mlpscope_latency_seconds", "Dependent-load latency per cache level (OS-reported) and from memory", 0, 1e-9,
	 NULL, prom_latency_ns},
	{"mlpscope_latency_cycles", "The same latencies in core cycles (ns x the timed core clock)", 1, 0, NULL,
	 prom_latency_cycles},
	{"mlpscope_memory_latency_small_pages_seconds", "Memory latency on small pages", 2, 1e-9,
	 LATENCY_FIGURE_MEMORY_SMALL_PAGES_NS, NULL},
	{"mlpscope_translation_seconds", "Small minus huge pages at the largest size: translation", 3, 1e-9,
	 LATENCY_FIGURE_TRANSLATION_NS, NULL},
	{"mlpscope_prefetch_ratio", "Random chase over +64 B stream at the largest size", 4, 0,
	 LATENCY_FIGURE_PREFETCH_RATIO, NULL},
};

const struct view view_latency = {
	.section = "latency",
	VIEW_HTML_SECTION("Latency: ns per dependent load, random chase vs +64 B stream", latency_rows, latency_tables),
	VIEW_PLOTS(latency_plots), .compare = compare_latency,
	.summary_line = "cache latency", .summary = add_latency,
	VIEW_FLEET(latency_fleet), VIEW_FLEET_SETTINGS(latency_fleet_settings), VIEW_FLEET_SCALES(latency_fleet_scales),
	VIEW_PROM(latency_prom),
};
