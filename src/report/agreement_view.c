/*
 * The agreement section's view: per working set, the one dependent load as
 * each section timed it, and which differ beyond the run's noise floor, as
 * HTML tables.
 */
#include "report/agreement_out.h"

#include "report/html_table.h"
#include "util/format.h"

static const struct html_col agree_rows[] = {
	{ "tolerance (the run's noise floor) %", "tolerance_pct", 2 },
};

static const struct html_col agree_cols[] = {
	{ "section", "section", F_TEXT }, { "ns per load", "ns_per_load", 2 },
	{ "working set", "set_bytes", F_BYTES }, { "huge-page fraction obtained", "huge_fraction_obtained", 2 },
	{ "difference from latency %", "diff_pct", 1 }, { "beyond the floor", "differs", F_BOOL },
	{ "why, from the results", "reason", F_TEXT },
};

static void agreement_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	const struct jsonr_value *ln = jsonr_get(v, "lines");
	char cap[192];

	html_section_heading(f, c, "agreement", "Sections agree: one dependent load from the same set, as each section timed it");
	HTML_KV(f, v, agree_rows, NULL);
	for (const struct jsonr_value *l = ln && ln->type == JSONR_ARRAY ? ln->u.children.first : NULL; l; l = l->next) {
		const struct jsonr_value *set = jsonr_get(l, "set_bytes");
		char bytes[32] = "?";

		if (set && set->type == JSONR_NUMBER && set->u.number >= 0 && set->u.number < 1.8e19)
			report_format_bytes(bytes, sizeof(bytes), (size_t)set->u.number);
		snprintf(cap, sizeof(cap), "%s, %s pages", bytes,
			 jsonr_get_string(l, "pages") ? jsonr_get_string(l, "pages") : "?");
		HTML_ROWS(f, jsonr_get(l, "figures"), agree_cols, cap);
	}
}

const struct view view_agreement = { .section = "agreement", .html = agreement_html };
