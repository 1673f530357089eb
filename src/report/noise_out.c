/*
 * The noise section, text and JSON. The text says which spread is the
 * tolerance and why the paired ratio exists, because a floor read as "the
 * machine's precision" rather than "this estimator's, today" is the usual
 * misreading.
 */
#include "report/noise_out.h"
#include "report/csv.h"

#include "util/format.h"
#include "core/stats.h"

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field noise_result_fields[] = {
	JSONW_FIELD(UINT, "arm_a_bytes", struct noise_result, arm_a_bytes),
	JSONW_FIELD(UINT, "arm_b_bytes", struct noise_result, arm_b_bytes),
	JSONW_FIELD(UINT, "arm_a_loads_per_region", struct noise_result, arm_a_hops),
	JSONW_FIELD(UINT, "arm_b_loads_per_region", struct noise_result, arm_b_hops),
	JSONW_FIELD(DOUBLE, "region_target_ns", struct noise_result, region_ns),
	JSONW_FIELD(BOOL, "layout_ok", struct noise_result, layout_ok),
	JSONW_FIELD(UINT, "huge_bytes_obtained", struct noise_result, huge_bytes_obtained),
	JSONW_FIELD(DOUBLE, "seconds", struct noise_result, seconds),
};

void noise_write_text(const void *result, FILE *f)
{
	const struct noise_result *r = result;
	char a[32], b[32];

	report_format_bytes(a, sizeof(a), r->arm_a_bytes);
	report_format_bytes(b, sizeof(b), r->arm_b_bytes);
	fprintf(f, "\nnoise: the instrument's noise floor, spread = max/min - 1 of repeated estimates\n");
	fprintf(f, "  probe: %s random chase, %zu loads per timed region, %u groups of min-of-%d\n", a,
		r->arm_a_hops, r->groups, NOISE_GROUP_RUNS);
	fprintf(f, "  arms: A %s (L1-resident), B %s (L2-resident), timed back to back in each iteration\n", a, b);
	fprintf(f, "\n  %-28s  %-10s  %12s  %12s  %10s\n", "estimator", "unit", "min", "max", "spread %");
	fprintf(f, "  %-28s  %-10s  %12.4f  %12.4f  %10.2f\n", "probe: single runs", "ns/load",
		stats_min(r->probe_runs_ns, (size_t)r->groups * NOISE_GROUP_RUNS),
		stats_max(r->probe_runs_ns, (size_t)r->groups * NOISE_GROUP_RUNS), r->probe_runs_spread_pct);
	fprintf(f, "  %-28s  %-10s  %12.4f  %12.4f  %10.2f\n", "probe: min-of-3", "ns/load",
		stats_min(r->probe_minima_ns, r->groups), stats_max(r->probe_minima_ns, r->groups),
		r->probe_minima_spread_pct);
	for (unsigned e = 0; e < NOISE_ESTIMATORS; e++) {
		const struct noise_estimator *est = &r->estimators[e];

		fprintf(f, "  %-28s  %-10s  %12.4f  %12.4f  %10.2f\n", est->name, est->unit,
			stats_min(est->values, r->groups), stats_max(est->values, r->groups), est->spread_pct);
	}
	fprintf(f, "\n  noise floor: %.2f%% (widest of the min-of-3 estimators, set by %s): the run's floor,\n"
		"  the tolerance of each section that says \"%s\"; a section whose points are noisier\n"
		"  than an L1 chase measures its own with the same estimator and says \"%s\"\n",
		r->floor_pct, r->floor_from, REPORT_FLOOR_RUN, REPORT_FLOOR_OWN);
	fprintf(f, "  the paired ratio divides inside one iteration, so a clock change slower than an iteration\n"
		"  cancels; a ratio of minima may take its two minima from different clock states.\n");
}

void noise_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct noise_result *r = result;
	size_t runs = (size_t)r->groups * NOISE_GROUP_RUNS;

	jsonw_object_begin(w, key);
	jsonw_double(w, "floor_pct", r->floor_pct);
	jsonw_string(w, "floor_from", r->floor_from);
	jsonw_array_begin(w, "estimators");
	jsonw_object_begin(w, NULL);
	jsonw_string(w, "name", "probe_min_of_3");
	jsonw_string(w, "unit", "ns/load");
	jsonw_double(w, "spread_pct", r->probe_minima_spread_pct);
	jsonw_double_array(w, "values", r->probe_minima_ns, r->groups);
	jsonw_object_end(w);
	for (unsigned e = 0; e < NOISE_ESTIMATORS; e++) {
		jsonw_object_begin(w, NULL);
		jsonw_string(w, "name", r->estimators[e].name);
		jsonw_string(w, "unit", r->estimators[e].unit);
		jsonw_double(w, "spread_pct", r->estimators[e].spread_pct);
		jsonw_double_array(w, "values", r->estimators[e].values, r->groups);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_double(w, "probe_runs_spread_pct", r->probe_runs_spread_pct);
	jsonw_double(w, "probe_minima_spread_pct", r->probe_minima_spread_pct);
	jsonw_double_array(w, "probe_minima_ns", r->probe_minima_ns, r->groups);
	jsonw_double_array(w, "probe_runs_ns", r->probe_runs_ns, runs);
	jsonw_double_array(w, "arm_a_runs_ns", r->arm_a_runs_ns, runs);
	jsonw_double_array(w, "arm_b_runs_ns", r->arm_b_runs_ns, runs);
	jsonw_uint(w, "groups", r->groups);
	jsonw_uint(w, "runs_per_group", NOISE_GROUP_RUNS);
	JSONW_FIELDS(w, r, noise_result_fields);
	jsonw_object_end(w);
}

static const struct csv_col estimator_cols[] = {
	{ "name", "name" }, { "unit", "unit" }, { "spread_pct", "spread_pct" },
};

int noise_write_csv(const char *dir, const struct jsonr_value *doc)
{
	return csv_write_rows(dir, "noise_estimators", jsonr_get(doc, "noise.estimators"), estimator_cols,
			      CSV_NCOLS(estimator_cols));
}
