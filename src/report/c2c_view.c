/*
 * The core-to-core section's view: the headline of the pairs and the
 * heatmap of every ordered pair (c2c_write_heatmap) in the HTML page, and
 * the median and minimum in the summary.
 */
#include "report/c2c_out.h"

#include <math.h>
#include <string.h>

#include "report/html_table.h"
#include "report/summary.h"

static const struct html_col c2c_rows[] = {
	{ "quantity", "quantity", F_TEXT }, { "placement", "placement", F_TEXT },
	{ "min over pairs (ns)", "min_ns", 1 }, { "median of the pair medians (ns)", "median_ns", 1 },
	{ "ordered pairs", "pairs", F_TEXT }, { "pairs timed out", "pairs_timed_out", F_TEXT },
	{ "time per pair at most (ms)", "pair_budget_ms", 1 }, { "planned at most (s)", "estimated_seconds", 2 },
	{ "took (s)", "seconds", 2 },
};

static void c2c_html(FILE *f, const struct jsonr_value *v, const struct html_ctx *c)
{
	char sid[48];

	html_section_heading(f, c, "c2c", "Core to core: one cache line between two CPUs, half a round trip");
	HTML_KV(f, v, c2c_rows, NULL);
	snprintf(sid, sizeof(sid), "run%zu-c2c-heat", c->run + 1);
	fputs("<figure>\n", f);
	c2c_write_heatmap(f, c->doc, sid, false);
	fputs("</figure>\n", f);
}

static void add_c2c(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *c)
{
	struct summary_figure *g;

	(void)doc;
	if ((g = summary_add(s, "core to core", "c2c", "c2c_median_ns", summary_number(c, "median_ns"), "ns", 1))) {
		snprintf(g->what, sizeof(g->what), "median");
		snprintf(g->note, sizeof(g->note), "round trip / 2 over %.0f CPU pairs", summary_number(c, "pairs"));
		snprintf(g->from, sizeof(g->from), "c2c.median_ns");
	}
	if ((g = summary_add(s, "core to core", "c2c", "c2c_min_ns", summary_number(c, "min_ns"), "ns", 1))) {
		snprintf(g->what, sizeof(g->what), "min");
		snprintf(g->from, sizeof(g->from), "c2c.min_ns");
	}
}

static const struct view_fleet_column c2c_fleet[] = { { "c2c_median_ns", "c2c ns", 8, false, NULL } };

/* The median or the minimum over the pairs. */
static bool prom_c2c(const struct summary_figure *g, char *labels, size_t len, double *value)
{
	*value = g->value;
	snprintf(labels, len, "stat=\"%s\"", strcmp(g->name, "c2c_min_ns") ? "median" : "min");
	return !strcmp(g->name, "c2c_median_ns") || !strcmp(g->name, "c2c_min_ns");
}

static const struct view_prom_family c2c_prom[] = {
	{"mlpscope_c2c_latency_seconds", "Core-to-core cache-line latency over CPU pairs", 12, 1e-9, NULL, prom_c2c},
};

const struct view view_c2c = {
	.section = "c2c", .html = c2c_html,
	.summary_line = "core to core", .summary = add_c2c, VIEW_FLEET(c2c_fleet), VIEW_PROM(c2c_prom),
};
