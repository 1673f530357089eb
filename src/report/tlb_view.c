/*
 * The TLB section's view: the translation steps found by one load per page,
 * beside what the CPU reports, as HTML tables.
 */
#include "report/tlb_out.h"

#include "report/html_table.h"

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

static void tlb_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	html_section_heading(f, c, "tlb", "TLB: one load per page, steps in ns per load");
	HTML_KV(f, v, tlb_rows, NULL);
	HTML_ROWS(f, jsonr_get(v, "levels"), tlb_level_cols, "steps (translation, by subtraction)");
}

const struct view view_tlb = { .section = "tlb", .html = tlb_html };
