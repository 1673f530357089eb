/*
 * The agreement section's text and JSON: one line per working set and page
 * size, latency first, each other figure with its difference and, beyond
 * the floor, the reason the results show (analyse/agreement.c finds them).
 */
#include "report/agreement_out.h"

#include "util/format.h"
#include "util/jsonw.h"

#include <stdio.h>

void agreement_write_text(const void *result, FILE *f)
{
	const struct agreement_result *a = result;

	if (!a->nlines)
		return;
	fprintf(f, "\nsections agree: one random dependent load from the same working set and page size, ns per load;\n"
		   "  tolerance: the noise floor, %.1f%%; latency is the reference (it checks its steady state)\n",
		a->tolerance_pct);
	for (unsigned i = 0; i < a->nlines; i++) {
		const struct agreement_line *ln = &a->lines[i];
		char set[32];

		report_format_bytes(set, sizeof(set), ln->set_bytes);
		fprintf(f, "  %s, %s pages:", set, ln->huge ? "huge" : "small");
		for (unsigned j = 0; j < ln->nfig; j++) {
			fprintf(f, "%s %s %.1f", j ? " |" : "", ln->fig[j].section, ln->fig[j].ns);
			if (j)
				fprintf(f, " (%+.1f%%%s)", ln->fig[j].diff_pct, ln->fig[j].differs ? ", DIFFERS" : "");
		}
		fputc('\n', f);
		for (unsigned j = 0; j < ln->nfig; j++)
			if (ln->fig[j].reason[0])
				fprintf(f, "    %s: %s\n", ln->fig[j].section, ln->fig[j].reason);
	}
}

/* A figure's keys in the JSON object, in order (docs/OUTPUT.md). */
static const struct jsonw_field agreement_figure_fields[] = {
	JSONW_FIELD(STRING, "section", struct agreement_figure, section),
	JSONW_FIELD(DOUBLE, "ns_per_load", struct agreement_figure, ns),
	JSONW_FIELD(UINT, "set_bytes", struct agreement_figure, set_bytes),
	JSONW_FIELD(DOUBLE, "huge_fraction_obtained", struct agreement_figure, huge_fraction),
	JSONW_FIELD(DOUBLE, "diff_pct", struct agreement_figure, diff_pct),
	JSONW_FIELD(BOOL, "differs", struct agreement_figure, differs),
};

static void figure_members(struct jsonw *w, const void *e)
{
	const struct agreement_figure *g = e;

	JSONW_FIELDS(w, g, agreement_figure_fields);
	jsonw_string_or_null(w, "reason", g->reason[0], g->reason);
}

static void line_members(struct jsonw *w, const void *e)
{
	const struct agreement_line *ln = e;

	jsonw_uint(w, "set_bytes", ln->set_bytes);
	jsonw_string(w, "pages", ln->huge ? "huge" : "small");
	JSONW_OBJECT_ARRAY_EACH(w, "figures", ln->fig, ln->nfig, figure_members);
}

void agreement_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct agreement_result *a = result;

	if (!a->nlines)
		return;
	jsonw_object_begin(w, key);
	jsonw_double(w, "tolerance_pct", a->tolerance_pct);
	JSONW_OBJECT_ARRAY_EACH(w, "lines", a->lines, a->nlines, line_members);
	jsonw_object_end(w);
}
