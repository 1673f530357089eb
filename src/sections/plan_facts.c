/*
 * The plan command: read another machine's facts and run the same planner
 * a measuring run uses (budget_make) for the sections the registry names,
 * then print what it would do and how long each section would take.
 */
#include "sections/plan_facts.h"

#include "util/jsonr.h"
#include "util/format.h"

int plan_cmd_from_file(const char *path, const char *command, bool quick, double budget_s,
		       const struct budget_row *rows, unsigned nrows, struct budget *b, char *err, size_t errlen)
{
	struct jsonr_doc doc = {0};
	struct cost_facts f;
	char why[200];
	int rc;

	if ((rc = jsonr_parse_file(path, 0, &doc, why, sizeof(why)))) {
		snprintf(err, errlen, "--from: %s (expected a result or a facts file)", why);
		return 2;
	}
	rc = cost_facts_from_json(doc.root, &f, why, sizeof(why));
	jsonr_free(&doc);
	if (rc) {
		snprintf(err, errlen, "--from: '%s': %s", path, why);
		return 2;
	}
	budget_make(b, &f, command, quick, budget_s, 0, rows, nrows);
	return 0;
}

void plan_cmd_print(const struct budget *b, FILE *f)
{
	char a[32], c[32], d[32], e[32], g[32];

	fprintf(f, "plan for %s on %s (facts: %s)\n", b->command, b->facts.machine, b->facts.rates.from);
	fprintf(f, "  rates: first touch %.2f GB/s, chain build %.0f ns/node, DRAM miss %.0f ns, stream %.1f GB/s\n",
		b->facts.rates.touch_gbps, b->facts.rates.build_ns_per_node, b->facts.rates.dram_ns,
		b->facts.rates.stream_gbps);
	fputs("  ", f);
	budget_write_plan_line(b, f);
	report_format_bytes(a, sizeof(a), b->memory_set_bytes);
	report_format_bytes(c, sizeof(c), b->planned_peak_bytes);
	report_format_bytes(d, sizeof(d), b->rss_cap_bytes);
	report_format_bytes(e, sizeof(e), b->memory_set_floor_bytes);
	report_format_bytes(g, sizeof(g), b->facts.llc_bytes);
	fprintf(f, "  sets past the caches %s (floor %s, twice the %s last cache); planned peak %s of a %s cap\n", a, e,
		g, c, d);
	if (b->planned_s <= b->budget_s)
		fprintf(f, "  fits the budget\n");
	else if (b->budget_given)
		fprintf(f, "  DOES NOT FIT the budget\n");
	else
		fprintf(f, "  OVER THE DEFAULT BUDGET by %.1f s: its smallest plan runs whole, nothing refused\n",
			b->over_budget_s);
}
