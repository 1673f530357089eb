/*
 * The headline summary, drawn from a parsed result document. One table of
 * sources, one row per section that contributes: a new section adds its
 * figures with one row and one small function here, and its key decides
 * whether it ran (absent: "not run"). Cache levels are the OS's (L1, L2,
 * L3 as sysfs reports them), each matched to a plateau the latency curve
 * found at that size (or, said so, one matched by rank whose end differs);
 * where none matches, the chase at the geometric middle between the level
 * below and this one is shown instead and says so,
 * because a cache with no plateau of its own (shared, partitioned or
 * contended) still has a latency a reader wants.
 */
#include "report/summary.h"

#include <math.h>
#include <string.h>

#include "util/format.h"
#include "util/jsonw.h"
#include "report/svg.h"

/* Row order, every row the summary may show. */
static const char *const lines[] = {
	"cache latency", "L1 latency", "L2 latency", "L3 latency", "L4 latency", "memory latency", "translation", "prefetcher",
	"MLP", "read bandwidth", "window", "TLB", "TLB, 4 KiB pages", "TLB, huge pages", "core to core", "noise floor", "warnings",
};

static const char *const level_line[] = { "L1 latency", "L2 latency", "L3 latency", "L4 latency" };

size_t summary_lines(const char **out, size_t max)
{
	size_t n = sizeof(lines) / sizeof(lines[0]);

	for (size_t i = 0; i < n && i < max; i++)
		out[i] = lines[i];
	return n;
}

static double num(const struct jsonr_value *v, const char *path)
{
	double d;

	return v && jsonr_get_number(v, path, &d) ? d : NAN;
}

static struct summary_figure *add(struct summary *s, const char *line, const char *section, const char *name,
				  double value, const char *unit, int decimals)
{
	struct summary_figure *g;

	if (!isfinite(value) || s->n == SUMMARY_MAX_FIGURES)
		return NULL;
	g = &s->fig[s->n++];
	memset(g, 0, sizeof(*g));
	g->line = line;
	g->section = section;
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->value = value;
	g->uncertainty = NAN;
	g->unit = unit;
	/* Three significant figures are all a latency carries here. */
	g->decimals = !strcmp(unit, "ns") && fabs(value) >= 10 && decimals > 1 ? 1 : decimals;
	return g;
}

static void fmt_bytes(char *out, size_t len, double b)
{
	if (b >= 1 && b < 1.8e19)
		report_format_bytes(out, len, (size_t)b);
	else
		snprintf(out, len, "?");
}

/* ---- latency ---- */

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
		double level = num(e, "level"), bytes = num(e, "size_bytes");

		if (type && strcmp(type, "Instruction") && level >= 1 && level <= 4 && bytes > 0)
			size[(int)level - 1] = bytes;
	}
	if (!size[0])
		for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e; e = e->next) {
			double r = num(e, "reported_bytes");

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
	double lo = num(l, "core_mhz_min"), hi = num(l, "core_mhz_max");
	struct summary_figure *g;

	if (!(lo > 0 && hi >= lo))
		return;
	if ((g = add(s, line, "latency", name, ns * (lo + hi) / 2000.0, "cycles", 1))) {
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
		double b = num(p, "size_bytes");

		if ((pages && strcmp(pages, "huge")) || !(b <= target) || !isfinite(num(p, "chase_ns")))
			continue;
		if (!best || b > num(best, "size_bytes")) {
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
	if (!(g = add(s, level_line[n], "latency", name, num(e, "latency_ns"), "ns", 2)))
		return;
	fmt_bytes(a, sizeof(a), os[n]);
	fmt_bytes(b, sizeof(b), num(e, "size_bytes"));
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
			memory_from = num(e, "first_bytes");
		if (num(e, "reported_bytes") != os[n] || tlb_step || !isfinite(num(e, "latency_ns")))
			continue;
		if (!disagrees) {
			add_plateau(s, l, n, os, e, i, false);
			return;
		}
		if (!by_rank && num(e, "first_bytes") > (n ? os[n - 1] : 0)) {
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
	if (!(p = point_below(jsonr_get(l, "points"), target, &i)) || num(p, "size_bytes") <= (n ? os[n - 1] : 0))
		return;
	snprintf(name, sizeof(name), "l%d_latency_ns", n + 1);
	if (!(g = add(s, level_line[n], "latency", name, num(p, "chase_ns"), "ns", 2)))
		return;
	fmt_bytes(a, sizeof(a), num(p, "size_bytes"));
	fmt_bytes(b, sizeof(b), os[n]);
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

		if (num(p, "size_bytes") != max_bytes || !pages || strcmp(pages, "huge") ||
		    !jsonr_get_bool(p, "steady_ok", &steady) || steady || !isfinite(num(p, "steady_long_ns")))
			continue;
		snprintf(g->note + used, sizeof(g->note) - used, "; NOT STEADY: %.1f ns over 4x longer regions",
			 num(p, "steady_long_ns"));
		return;
	}
}

static void add_latency(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *l)
{
	double os[4], max = num(l, "max_bytes"), huge = num(l, "arena_huge_obtained_bytes");
	double total = num(l, "arena_huge_bytes");
	int nlev = os_levels(doc, os);
	struct summary_figure *g;
	char a[32];

	for (int n = 0; n < nlev; n++)
		add_level(s, l, n, os);
	fmt_bytes(a, sizeof(a), max);
	if ((g = add(s, "memory latency", "latency", "memory_latency_ns", num(l, "chase_ns_at_max"), "ns", 1))) {
		if (total > 0 && isfinite(huge))
			snprintf(g->note, sizeof(g->note), "at %s, huge pages %.0f%% obtained", a, 100.0 * huge / total);
		else
			snprintf(g->note, sizeof(g->note), "at %s, huge pages requested", a);
		snprintf(g->from, sizeof(g->from), "latency.chase_ns_at_max");
		note_unsteady(g, l, max);
		add_cycles(s, l, "memory latency", "memory_latency_cycles", g->value, g->from);
	}
	if ((g = add(s, "memory latency", "latency", "memory_latency_small_pages_ns", num(l, "small_chase_ns_at_max"), "ns", 1))) {
		snprintf(g->what, sizeof(g->what), "small pages");
		snprintf(g->from, sizeof(g->from), "latency.small_chase_ns_at_max");
	}
	if ((g = add(s, "translation", "latency", "translation_ns", num(l, "translation_ns_at_max"), "ns", 1))) {
		snprintf(g->note, sizeof(g->note), "per load, small minus huge pages at %s", a);
		snprintf(g->from, sizeof(g->from), "latency.translation_ns_at_max");
	}
	if ((g = add(s, "prefetcher", "latency", "prefetch_ratio", num(l, "prefetch_ratio_at_max"), "x", 1))) {
		snprintf(g->note, sizeof(g->note), "random chase / +64 B stream at %s", a);
		snprintf(g->from, sizeof(g->from), "latency.prefetch_ratio_at_max");
	}
}

/* ---- mlp ---- */

static void add_mlp(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *m)
{
	const struct jsonr_value *arm = m;
	const char *key = "mlp", *pages;
	char from[64];
	struct summary_figure *g;

	(void)doc;
	/* --pages both: the huge-page arm is the one without translation misses. */
	if (!jsonr_member(m, "sweep")) {
		if ((arm = jsonr_member(m, "huge")))
			key = "mlp.huge";
		else if ((arm = jsonr_member(m, "small")))
			key = "mlp.small";
		else
			return;
	}
	pages = jsonr_get_string(arm, "pages.requested");
	snprintf(from, sizeof(from), "%s.estimate.fit_saturation_lanes", key);
	if ((g = add(s, "MLP", "mlp", "mlp_saturation_lanes", num(arm, "estimate.fit_saturation_lanes"), "lanes", 1))) {
		snprintf(g->what, sizeof(g->what), "Ks");
		g->uncertainty = num(arm, "estimate.fit_uncertainty");
		snprintf(g->note, sizeof(g->note), "%s pages", pages ? pages : "?");
		snprintf(g->from, sizeof(g->from), "%s", from);
	}
	if ((g = add(s, "MLP", "mlp", "mlp_plateau_concurrency", num(arm, "estimate.fit_plateau_concurrency"), "", 1))) {
		snprintf(g->what, sizeof(g->what), "plateau concurrency");
		snprintf(g->from, sizeof(g->from), "%s.estimate.fit_plateau_concurrency", key);
	}
}

/* ---- bandwidth ---- */

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
			maxt = fmax(maxt, num(e, "threads"));
	}
	for (const struct jsonr_value *e = k && k->type == JSONR_ARRAY ? k->u.children.first : NULL; e;
	     e = e->next, i++) {
		const char *op = jsonr_get_string(e, "op");
		double t = num(e, "threads"), v = num(e, "gbps");

		if (!op || strcmp(op, "read") || !isfinite(v))
			continue;
		if (t == 1 && (!best1 || v > num(best1, "gbps"))) {
			best1 = e;
			i1 = i;
		}
		if (t == maxt && maxt > 1 && (!bestn || v > num(bestn, "gbps"))) {
			bestn = e;
			in = i;
		}
	}
	if (best1 && (g = add(s, "read bandwidth", "bandwidth", "read_gbps_1_thread", num(best1, "gbps"), "GB/s", 1))) {
		snprintf(g->what, sizeof(g->what), "1 thread");
		snprintf(g->note, sizeof(g->note), "%s", jsonr_get_string(best1, "kernel") ? jsonr_get_string(best1, "kernel") : "?");
		snprintf(g->from, sizeof(g->from), "bandwidth.kernels[%zu].gbps", i1);
	}
	if (bestn && (g = add(s, "read bandwidth", "bandwidth", "read_gbps_all_threads", num(bestn, "gbps"), "GB/s", 1))) {
		snprintf(g->what, sizeof(g->what), "%.0f threads", maxt);
		snprintf(g->note, sizeof(g->note), "%s", jsonr_get_string(bestn, "kernel") ? jsonr_get_string(bestn, "kernel") : "?");
		snprintf(g->from, sizeof(g->from), "bandwidth.kernels[%zu].gbps", in);
	}
}

/* ---- window ---- */

/* window.summary is an object keyed by structure (window_out.c), each
 * member with its words, whether it was measured and its capacity. */
static void add_window(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *w)
{
	const struct jsonr_value *sum = jsonr_get(w, "summary");

	(void)doc;
	for (const struct jsonr_value *e = sum && sum->type == JSONR_OBJECT ? sum->u.children.first : NULL; e;
	     e = e->next) {
		const char *st = jsonr_get_string(e, "structure");
		struct summary_figure *g;
		char name[80];

		snprintf(name, sizeof(name), "window_%.*s_entries", (int)e->key_len, e->key);
		if (!(g = add(s, "window", "window", name, num(e, "capacity"), "", 1)))
			continue;
		snprintf(g->what, sizeof(g->what), "%s", st ? st : "?");
		snprintf(g->from, sizeof(g->from), "window.summary.%.*s.capacity", (int)e->key_len, e->key);
	}
}

/* ---- tlb ---- */

static void add_tlb(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *t)
{
	const struct jsonr_value *lv = jsonr_get(t, "levels");
	size_t i = 0;
	bool eff;

	(void)doc;
	for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e;
	     e = e->next, i++) {
		struct summary_figure *g;
		bool huge = num(e, "page_bytes") > 4096;
		char name[48], reach[32];

		snprintf(name, sizeof(name), "tlb_level%zu_entries", i + 1);
		if (!(g = add(s, huge ? "TLB, huge pages" : "TLB, 4 KiB pages", "tlb", name, num(e, "entries"), "entries", 0)))
			continue;
		fmt_bytes(reach, sizeof(reach), num(e, "reach_bytes"));
		if (isfinite(num(e, "extra_ns")))
			snprintf(g->note, sizeof(g->note), "%s, +%.1f ns past it", reach, num(e, "extra_ns"));
		else
			snprintf(g->note, sizeof(g->note), "%s", reach);
		snprintf(g->from, sizeof(g->from), "tlb.levels[%zu].entries", i);
	}
	if (jsonr_get_bool(t, "huge_reach_effective", &eff)) {
		struct summary_figure *g = add(s, "TLB, huge pages", "tlb", "tlb_huge_reach_effective", eff ? 1 : 0, "", 0);

		if (g) {
			g->yesno = true;
			snprintf(g->what, sizeof(g->what), "huge-page reach:");
			snprintf(g->from, sizeof(g->from), "tlb.huge_reach_effective");
		}
	}
}

/* ---- c2c ---- */

static void add_c2c(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *c)
{
	struct summary_figure *g;

	(void)doc;
	if ((g = add(s, "core to core", "c2c", "c2c_median_ns", num(c, "median_ns"), "ns", 1))) {
		snprintf(g->what, sizeof(g->what), "median");
		snprintf(g->note, sizeof(g->note), "round trip / 2 over %.0f CPU pairs", num(c, "pairs"));
		snprintf(g->from, sizeof(g->from), "c2c.median_ns");
	}
	if ((g = add(s, "core to core", "c2c", "c2c_min_ns", num(c, "min_ns"), "ns", 1))) {
		snprintf(g->what, sizeof(g->what), "min");
		snprintf(g->from, sizeof(g->from), "c2c.min_ns");
	}
}

/* ---- noise ---- */

static void add_noise(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *n)
{
	struct summary_figure *g;
	const char *by = jsonr_get_string(n, "floor_from");

	(void)doc;
	if ((g = add(s, "noise floor", "noise", "noise_floor_pct", num(n, "floor_pct"), "%", 2))) {
		snprintf(g->note, sizeof(g->note), "the tolerance of later sections; set by %s", by ? by : "?");
		snprintf(g->from, sizeof(g->from), "noise.floor_pct");
	}
}

/* The sections that contribute, each under its JSON key. */
static const struct source {
	const char *section;
	const char *line;  /* the row "not run" is shown on */
	void (*add)(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *sec);
} sources[] = {
	{ "latency", "cache latency", add_latency },
	{ "mlp", "MLP", add_mlp },
	{ "bandwidth", "read bandwidth", add_bandwidth },
	{ "window", "window", add_window },
	{ "tlb", "TLB", add_tlb },
	{ "c2c", "core to core", add_c2c },
	{ "noise", "noise floor", add_noise },
};

void summary_build(const struct jsonr_value *doc, struct summary *s)
{
	const struct jsonr_value *w;
	struct summary_figure *g;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		const struct jsonr_value *sec = jsonr_get(doc, sources[i].section);

		if (sec && sec->type == JSONR_OBJECT)
			sources[i].add(s, doc, sec);
		else if (s->nabsent < SUMMARY_MAX_ABSENT)
			s->absent[s->nabsent++] = (struct summary_absent){ sources[i].line, sources[i].section };
	}
	w = jsonr_get(doc, "warnings");
	if ((g = add(s, "warnings", "warnings", "warnings_count",
		     w && w->type == JSONR_ARRAY ? (double)w->u.children.count : NAN, "", 0))) {
		snprintf(g->note, sizeof(g->note), "listed at the end");
		snprintf(g->from, sizeof(g->from), "warnings");
	}
}

const struct summary_figure *summary_find(const struct summary *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->fig[i].name, name))
			return &s->fig[i];
	return NULL;
}

void summary_format_value(char *out, size_t len, const struct summary_figure *g)
{
	if (g->yesno)
		snprintf(out, len, "%s", g->value ? "yes" : "no");
	else if (isfinite(g->uncertainty))
		snprintf(out, len, "%.*f +/- %.*f%s%s", g->decimals, g->value, g->decimals, g->uncertainty,
			 g->unit[0] ? " " : "", g->unit);
	else
		snprintf(out, len, "%.*f%s%s", g->decimals, g->value, g->unit[0] ? " " : "", g->unit);
}

/* One figure as "what value (note)". */
static void format_figure(char *out, size_t len, const struct summary_figure *g)
{
	char v[64];

	summary_format_value(v, sizeof(v), g);
	snprintf(out, len, "%s%s%s%s%s%s", g->what, g->what[0] ? " " : "", v, g->note[0] ? " (" : "", g->note,
		 g->note[0] ? ")" : "");
}

static const struct summary_absent *absent_on(const struct summary *s, const char *line)
{
	for (size_t i = 0; i < s->nabsent; i++)
		if (!strcmp(s->absent[i].line, line))
			return &s->absent[i];
	return NULL;
}

void summary_write_text(const struct summary *s, FILE *f)
{
	const size_t nlines = sizeof(lines) / sizeof(lines[0]);

	fprintf(f, "summary (from the sections below, cycles at the timed core clock; --json names each figure's key):\n");
	for (size_t l = 0; l < nlines; l++) {
		bool any = false;

		for (size_t i = 0; i < s->n; i++) {
			char buf[320];

			if (strcmp(s->fig[i].line, lines[l]))
				continue;
			format_figure(buf, sizeof(buf), &s->fig[i]);
			if (any)
				fprintf(f, ", %s", buf);
			else
				fprintf(f, "  %-16s %s", lines[l], buf);
			any = true;
		}
		if (any)
			fputc('\n', f);
	}
	for (size_t i = 0; i < s->nabsent; i++)
		fprintf(f, "  %-16s not run (mlpscope %s)\n", s->absent[i].line, s->absent[i].section);
}

void summary_write_json(const struct summary *s, struct jsonw *w)
{
	jsonw_object_begin(w, "summary");
	jsonw_array_begin(w, "figures");
	for (size_t i = 0; i < s->n; i++) {
		const struct summary_figure *g = &s->fig[i];

		jsonw_object_begin(w, NULL);
		jsonw_string(w, "name", g->name);
		jsonw_string(w, "line", g->line);
		if (g->what[0])
			jsonw_string(w, "what", g->what);
		if (g->yesno)
			jsonw_bool(w, "value", g->value != 0);
		else
			jsonw_double(w, "value", g->value);
		if (isfinite(g->uncertainty))
			jsonw_double(w, "uncertainty", g->uncertainty);
		jsonw_string(w, "unit", g->unit);
		if (g->note[0])
			jsonw_string(w, "note", g->note);
		jsonw_string(w, "section", g->section);
		jsonw_string(w, "from", g->from);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_array_begin(w, "not_run");
	for (size_t i = 0; i < s->nabsent; i++)
		jsonw_string(w, NULL, s->absent[i].section);
	jsonw_array_end(w);
	jsonw_object_end(w);
}

void summary_write_html(FILE *f, const struct summary *s, const char *const *labels, size_t n)
{
	const size_t nlines = sizeof(lines) / sizeof(lines[0]);

	fputs("<table class=\"summary\" id=\"summary\">\n<caption>headline figures: each links to the section "
	      "it came from</caption>\n<thead><tr><th></th>", f);
	for (size_t r = 0; r < n; r++) {
		fputs("<th>", f);
		svg_escape(f, labels[r]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n", f);
	for (size_t l = 0; l < nlines; l++) {
		bool any = false;

		for (size_t r = 0; r < n && !any; r++) {
			for (size_t i = 0; i < s[r].n && !any; i++)
				any = !strcmp(s[r].fig[i].line, lines[l]);
			any |= absent_on(&s[r], lines[l]) != NULL;
		}
		if (!any)
			continue;
		fputs("<tr><th>", f);
		svg_escape(f, lines[l]);
		fputs("</th>", f);
		for (size_t r = 0; r < n; r++) {
			const struct summary_absent *ab = absent_on(&s[r], lines[l]);
			bool first = true;

			fputs("<td>", f);
			for (size_t i = 0; i < s[r].n; i++) {
				const struct summary_figure *g = &s[r].fig[i];
				char buf[320];

				if (strcmp(g->line, lines[l]))
					continue;
				format_figure(buf, sizeof(buf), g);
				fprintf(f, "%s<a href=\"#run%zu-%s\" title=\"", first ? "" : "<br>", r + 1, g->section);
				svg_escape(f, g->from);
				fputs("\">", f);
				svg_escape(f, buf);
				fputs("</a>", f);
				first = false;
			}
			if (first)
				fprintf(f, "%s", ab ? "not run" : "-");
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}
