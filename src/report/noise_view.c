/*
 * The noise section's view: the instrument's noise floor and the spread of
 * each estimator behind it, as HTML tables, and the floor in the headline.
 */
#include "report/noise_out.h"

#include <math.h>
#include <string.h>

#include "report/html_table.h"
#include "report/summary.h"

static const struct html_col noise_rows[] = {
	{ "noise floor (%)", "floor_pct", 2 }, { "set by", "floor_from", F_TEXT },
	{ "probe: min-of-3 spread (%)", "probe_minima_spread_pct", 2 },
	{ "probe: single-run spread (%)", "probe_runs_spread_pct", 2 }, { "groups x runs", "groups", F_TEXT },
	{ "runs per group", "runs_per_group", F_TEXT }, { "arm A (L1-resident)", "arm_a_bytes", F_BYTES },
	{ "arm B (L2-resident)", "arm_b_bytes", F_BYTES },
};

static const struct html_col estimator_cols[] = {
	{ "estimator", "name", F_TEXT }, { "unit", "unit", F_TEXT }, { "spread (%)", "spread_pct", 2 },
	{ "values", "values", F_LIST },
};

static const struct html_rows_table noise_tables[] = {
	HTML_ROWS_TABLE("estimators", estimator_cols, "spread = max/min - 1 of repeated estimates"),
};

static void add_noise(struct summary *s, const struct jsonr_value *doc, const struct jsonr_value *n)
{
	struct summary_figure *g;
	const char *by = jsonr_get_string(n, "floor_from");

	(void)doc;
	if ((g = summary_add(s, "noise floor", "noise", "noise_floor_pct", summary_number(n, "floor_pct"), "%", 2))) {
		snprintf(g->note, sizeof(g->note), "the tolerance of later sections; set by %s", by ? by : "?");
		snprintf(g->from, sizeof(g->from), "noise.floor_pct");
	}
}

/* The sections that contribute, each under its JSON key. */

/* Late in the fleet table, beside the warnings: how far to trust the rest. */
static const struct view_fleet_column noise_fleet[] = { { "noise_floor_pct", "floor %", 9, false, NULL } };

static const struct view_prom_family noise_prom[] = {
	{"mlpscope_noise_floor_percent", "The run's noise floor (its tolerance), percent", 13, 0, "noise_floor_pct", NULL},
};

const struct view view_noise = {
	.section = "noise", VIEW_HTML_SECTION("Noise: the instrument's noise floor", noise_rows, noise_tables),
	.summary_line = "noise floor", .summary = add_noise, VIEW_FLEET(noise_fleet), VIEW_PROM(noise_prom),
};
