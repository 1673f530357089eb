/*
 * The TLB section's view: the translation steps found by one load per page,
 * beside what the CPU reports, as HTML tables and as the headline's entries
 * per level and page size.
 */
#include "report/tlb_out.h"

#include <math.h>
#include <string.h>

#include "report/html_table.h"
#include "report/summary.h"

static const struct html_col tlb_rows[] = {
	{ "huge pages give huge-page reach", "huge_reach_effective", F_BOOL },
	{ "TLB sizes reported by the CPU", "reported_known", F_BOOL }, { "trials", "trials", F_TEXT },
	{ "noise floor (%)", "noise_floor_pct", 2 },
};

static const struct html_col tlb_level_cols[] = {
	{ "entries", "entries", F_TEXT }, { "reach", "reach_bytes", F_BYTES },
	{ "arena page", "page_bytes", F_BYTES }, { "extra past it (ns/load)", "extra_ns", 1 },
	{ "CPU reports (entries)", "reported_entries", F_TEXT }, { "agrees", "agrees_with_reported", F_BOOL },
};

static const struct html_rows_table tlb_tables[] = {
	HTML_ROWS_TABLE("levels", tlb_level_cols, "steps (translation, by subtraction)"),
};

/* Each series whose steps the floor hid: the summary has no TLB row for
 * it, and says why rather than leaving the row out in silence. */
static void hidden_steps(struct summary *s, const struct jsonr_value *t)
{
	const struct jsonr_value *walk = jsonr_get(t, "walk");
	bool hidden;

	for (const struct jsonr_value *e = walk && walk->type == JSONR_ARRAY ? walk->u.children.first : NULL; e;
	     e = e->next)
		if (jsonr_get_bool(e, "steps_hidden_by_floor", &hidden) && hidden)
			summary_hidden(s, "noise floor %.1f%%: TLB steps not shown (%s pages: a step under the floor is "
				       "not told from noise; the extra per load rose to %.1f ns)",
				       summary_number(t, "noise_floor_pct"),
				       summary_number(e, "page_bytes") > 4096 ? "huge" : "4 KiB",
				       summary_number(e, "max_extra_ns"));
}

static void add_tlb(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *t)
{
	const struct jsonr_value *lv = jsonr_get(t, "levels");
	size_t i = 0;
	/* Levels are counted per page size: one name, one quantity, whichever
	 * levels the other page size found (a fleet compares like with like). */
	unsigned nsmall = 0, nhuge = 0;
	bool eff;

	(void)doc;
	for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e;
	     e = e->next, i++) {
		struct summary_figure *g;
		bool huge = summary_number(e, "page_bytes") > 4096;
		char name[48], reach[32];

		/* A step the run marked impossible (above one page walk's
		 * cost) is no headline figure. */
		if (jsonr_is_true(e, "impossible"))
			continue;
		snprintf(name, sizeof(name), "tlb_%s_level%u_entries", huge ? "huge" : "small", huge ? ++nhuge : ++nsmall);
		if (!(g = summary_add(s, huge ? "TLB, huge pages" : "TLB, 4 KiB pages", "tlb", name,
				      summary_number(e, "entries"), "entries", 0)))
			continue;
		summary_format_bytes(reach, sizeof(reach), summary_number(e, "reach_bytes"));
		if (isfinite(summary_number(e, "extra_ns")))
			snprintf(g->note, sizeof(g->note), "%s, +%.1f ns past it", reach, summary_number(e, "extra_ns"));
		else
			snprintf(g->note, sizeof(g->note), "%s", reach);
		snprintf(g->from, sizeof(g->from), "tlb.levels[%zu].entries", i);
	}
	hidden_steps(s, t);
	if (jsonr_get_bool(t, "huge_reach_effective", &eff)) {
		struct summary_figure *g = summary_add(s, "TLB, huge pages", "tlb", "tlb_huge_reach_effective", eff ? 1 : 0, "", 0);

		if (g) {
			g->yesno = true;
			snprintf(g->what, sizeof(g->what), "huge-page reach:");
			snprintf(g->from, sizeof(g->from), "tlb.huge_reach_effective");
		}
	}
}

/* "tlb_huge_level2_entries": the pages and the level within them. */
static bool prom_tlb(const struct summary_figure *g, char *labels, size_t len, double *value)
{
	char pages[8];
	unsigned level;

	*value = g->value;
	if (sscanf(g->name, "tlb_%5[a-z]_level%u_entries", pages, &level) != 2)
		return false;
	snprintf(labels, len, "level=\"%u\",pages=\"%s\"", level, pages);
	return true;
}

static const struct view_prom_family tlb_prom[] = {
	{"mlpscope_tlb_entries", "TLB level entries from the tlb section's steps", 10, 0, NULL, prom_tlb},
	{"mlpscope_tlb_huge_reach_effective", "1 when 2 MiB pages gave huge-page TLB reach", 11, 0,
	 "tlb_huge_reach_effective", NULL},
};

const struct view view_tlb = {
	.section = "tlb", VIEW_HTML_SECTION("TLB: one load per page, steps in ns per load", tlb_rows, tlb_tables),
	.summary_line = "TLB", .summary = add_tlb, VIEW_PROM(tlb_prom),
};
