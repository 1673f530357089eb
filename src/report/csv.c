/*
 * The CSV writer: each table is a list of columns over rows gathered from
 * one or more JSON arrays, with an optional leading column that says which
 * array a row came from (pages, traffic, filler), so one file holds every
 * arm in long form instead of one file per arm. The pages column is written
 * even for a single arm: tables from different runs then share one header.
 */
#include "report/csv.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/atomic.h"
#include "report/html.h"
#include "report/plots.h"

struct csv_col {
	const char *head;  /* column name, unit included */
	const char *key;   /* path inside one row object */
};

/* Rows from one array, tagged with the value of the leading column. */
struct csv_group {
	const char *tag;
	const struct jsonr_value *rows;
};

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_GROUPS 16

void csv_write_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Shortest text that strtod reads back as the same double: a CSV that
 * rounds is a different measurement from the JSON it came from. */
static void write_number(FILE *f, double v)
{
	char buf[40];

	if (!isfinite(v))
		return;  /* JSON has no NaN either: an empty field, like null */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

static void write_value(FILE *f, const struct jsonr_value *v)
{
	if (!v)
		return;
	switch (v->type) {
	case JSONR_NUMBER: write_number(f, v->u.number); break;
	case JSONR_BOOL: fputs(v->u.boolean ? "true" : "false", f); break;
	case JSONR_STRING: csv_write_field(f, v->u.string.bytes); break;
	default: break;  /* null, arrays, objects: empty */
	}
}

static int write_table(const char *dir, const char *name, const char *tag_head, const struct csv_group *g,
		       size_t ng, const struct csv_col *cols, size_t ncols)
{
	struct atomic_file a;
	char path[PATH_MAX];
	size_t rows = 0;
	int rc;

	for (size_t i = 0; i < ng; i++)
		rows += g[i].rows && g[i].rows->type == JSONR_ARRAY ? g[i].rows->u.children.count : 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.csv", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	/* No such table in this run: one left in DIR by an earlier run must not
	 * pass for one of this run. */
	if (!rows)
		return unlink(path) == 0 || errno == ENOENT ? 0 : -errno;
	rc = atomic_open(&a, path);
	if (rc)
		return rc;
	if (tag_head) {
		csv_write_field(a.f, tag_head);
		fputc(',', a.f);
	}
	for (size_t c = 0; c < ncols; c++) {
		csv_write_field(a.f, cols[c].head);
		fputs(c + 1 < ncols ? "," : "\r\n", a.f);
	}
	for (size_t i = 0; i < ng; i++) {
		if (!g[i].rows || g[i].rows->type != JSONR_ARRAY)
			continue;
		for (const struct jsonr_value *r = g[i].rows->u.children.first; r; r = r->next) {
			if (tag_head) {
				csv_write_field(a.f, g[i].tag ? g[i].tag : "");
				fputc(',', a.f);
			}
			for (size_t c = 0; c < ncols; c++) {
				write_value(a.f, jsonr_get(r, cols[c].key));
				fputs(c + 1 < ncols ? "," : "\r\n", a.f);
			}
		}
	}
	if (ferror(a.f)) {
		atomic_abort(&a);
		return -EIO;
	}
	return atomic_commit(&a);
}

static const struct csv_col latency_point_cols[] = {
	{ "size_bytes", "size_bytes" }, { "pages", "pages" }, { "huge_fraction_obtained", "huge_fraction_obtained" },
	{ "chase_ns", "chase_ns" }, { "stream_ns", "stream_ns" }, { "prefetch_ratio", "prefetch_ratio" },
	{ "chase_cycles_min", "chase_cycles_min" }, { "chase_cycles_max", "chase_cycles_max" },
	{ "layout_ok", "layout_ok" }, { "trials", "trials" },
};

static const struct csv_col level_cols[] = {
	{ "level", "level" }, { "first_bytes", "first_bytes" }, { "size_bytes", "size_bytes" },
	{ "capacity_bytes", "capacity_bytes" },
	{ "latency_ns", "latency_ns" }, { "points", "points" }, { "reaches_max", "reaches_max" },
	{ "reported_bytes", "reported_bytes" }, { "disagrees_with_reported", "disagrees_with_reported" },
};

static const struct csv_col cache_cols[] = {
	{ "level", "level" }, { "type", "type" }, { "size_bytes", "size_bytes" },
	{ "line_bytes", "line_bytes" }, { "ways", "ways" }, { "source", "source" },
};

static const struct csv_col estimator_cols[] = {
	{ "name", "name" }, { "unit", "unit" }, { "spread_pct", "spread_pct" },
};

static const struct csv_col sweep_cols[] = {
	{ "lanes", "lanes" }, { "steps_per_lane", "steps_per_lane" }, { "lane_walk_bytes", "lane_walk_bytes" },
	{ "ns_per_access", "ns_per_access" }, { "speedup", "speedup" }, { "concurrency", "concurrency" },
	{ "useful_gbps", "useful_gbps" }, { "line_gbps", "line_gbps" },
};

static const struct csv_col estimate_cols[] = {
	{ "fit_latency_ns", "estimate.fit_latency_ns" }, { "fit_saturation_lanes", "estimate.fit_saturation_lanes" },
	{ "fit_uncertainty_lanes", "estimate.fit_uncertainty" },
	{ "fit_plateau_concurrency", "estimate.fit_plateau_concurrency" },
	{ "fit_rms_log_residual", "estimate.fit_rms_log_residual" },
	{ "peak_concurrency", "estimate.peak_concurrency" }, { "peak_lanes", "estimate.peak_lanes" },
	{ "plateau_from_lanes", "estimate.plateau_from_lanes" }, { "flat_at_end", "estimate.flat_at_end" },
	{ "rule_5pct_lanes", "estimate.rule_5pct_lanes" }, { "rule_1pct_lanes", "estimate.rule_1pct_lanes" },
	{ "noise_floor_pct", "noise_floor_pct" }, { "working_set_bytes", "working_set_bytes" },
	{ "spacing_bytes", "spacing_bytes" }, { "huge_pct_obtained", "pages.huge_pct_obtained" },
};

static const struct csv_col kernel_cols[] = {
	{ "kernel", "kernel" }, { "op", "op" }, { "isa", "isa" }, { "width_bytes", "width_bytes" },
	{ "nontemporal", "nontemporal" }, { "threads", "threads" }, { "gbps", "gbps" },
	{ "bytes_moved", "bytes_moved" },
};

static const struct csv_col eff_cols[] = {
	{ "spacing_bytes", "spacing_bytes" }, { "footprint_bytes", "footprint_bytes" },
	{ "useful_bytes_per_access", "useful_bytes_per_access" }, { "latency_small_ns", "latency_small_ns" },
	{ "latency_huge_ns", "latency_huge_ns" }, { "walk_lines_per_access_model", "walk_lines_per_access_model" },
	{ "moved_bytes_small_model", "moved_bytes_small_model" }, { "moved_bytes_huge_model", "moved_bytes_huge_model" },
	{ "efficiency_small_model", "efficiency_small_model" }, { "efficiency_huge_model", "efficiency_huge_model" },
};

static const struct csv_col mc_cols[] = {
	{ "threads", "threads" }, { "lanes", "lanes" }, { "concurrency_total", "concurrency_total" },
	{ "accesses_per_ns", "accesses_per_ns" }, { "slowest_thread_ns_per_access", "slowest_thread_ns_per_access" },
};

static const struct csv_col curve_cols[] = {
	{ "delay_ns", "delay" }, { "idle", "idle" }, { "offered_gbps", "offered_gbps" },
	{ "bw_gbps", "bw_gbps" }, { "latency_ns", "latency_ns" },
};

static const struct csv_col filler_cols[] = {
	{ "filler", "filler" }, { "structure", "structure" }, { "step_n_fits", "step_n_fits" },
	{ "step_n_fails", "step_n_fails" }, { "capacity_entries", "capacity" },
	{ "capacity_low_entries", "capacity_low" }, { "capacity_high_entries", "capacity_high" },
	{ "ramp_onset_n", "ramp_onset_n" }, { "flat_ns_per_iter", "flat_ns_per_iter" },
	{ "jump_ratio", "jump_ratio" }, { "rms_rel_residual", "rms_rel_residual" },
};

static const struct csv_col wpoint_cols[] = {
	{ "n", "n" }, { "ns_per_iter", "ns_per_iter" }, { "trials", "trials" },
};

static int one(const char *dir, const char *name, const struct jsonr_value *rows, const struct csv_col *cols, size_t ncols)
{
	struct csv_group g = { NULL, rows };

	return write_table(dir, name, NULL, &g, 1, cols, ncols);
}

/* A one-element array view of obj, so a summary object is a one-row table. */
static void one_row(struct jsonr_value *arr, struct jsonr_value *row, const struct jsonr_value *obj)
{
	*row = *obj;
	row->next = NULL;
	memset(arr, 0, sizeof(*arr));
	arr->type = JSONR_ARRAY;
	arr->u.children.first = arr->u.children.last = row;
	arr->u.children.count = 1;
}

int csv_write_dir(const char *dir, const struct jsonr_value *doc)
{
	const struct jsonr_value *arms[2], *v, *ld;
	const char *pages[2];
	struct csv_group g[MAX_GROUPS] = { { NULL, NULL } };
	size_t na, ng;
	int rc = html_make_dir(dir);

	if (rc)
		return rc;
	if ((rc = one(dir, "latency_points", jsonr_get(doc, "latency.points"), latency_point_cols, NCOLS(latency_point_cols))) ||
	    (rc = one(dir, "latency_levels", jsonr_get(doc, "latency.levels_detected"), level_cols, NCOLS(level_cols))) ||
	    (rc = one(dir, "caches_reported", jsonr_get(doc, "machine.caches_reported"), cache_cols, NCOLS(cache_cols))) ||
	    (rc = one(dir, "noise_estimators", jsonr_get(doc, "noise.estimators"), estimator_cols, NCOLS(estimator_cols))) ||
	    (rc = one(dir, "bandwidth_kernels", jsonr_get(doc, "bandwidth.kernels"), kernel_cols, NCOLS(kernel_cols))) ||
	    (rc = one(dir, "bandwidth_efficiency", jsonr_get(doc, "bandwidth.efficiency"), eff_cols, NCOLS(eff_cols))) ||
	    (rc = one(dir, "multicore_points", jsonr_get(doc, "multicore.points"), mc_cols, NCOLS(mc_cols))) ||
	    (rc = one(dir, "window_fillers", jsonr_get(doc, "window.fillers"), filler_cols, NCOLS(filler_cols))))
		return rc;

	na = plots_mlp_arms(doc, arms, pages);
	for (size_t i = 0; i < na; i++)
		g[i] = (struct csv_group){ pages[i], jsonr_get(arms[i], "sweep") };
	if ((rc = write_table(dir, "mlp_sweep", "pages", g, na, sweep_cols, NCOLS(sweep_cols))))
		return rc;
	for (size_t i = 0; i < na; i++)
		g[i].rows = jsonr_get(arms[i], "control_unrolled");
	if ((rc = write_table(dir, "mlp_control", "pages", g, na, sweep_cols, NCOLS(sweep_cols))))
		return rc;
	/* One row per arm: the arm object itself is the row. */
	struct jsonr_value row[2], arr[2];

	for (size_t i = 0; i < na; i++) {
		one_row(&arr[i], &row[i], arms[i]);
		g[i].rows = &arr[i];
	}
	if ((rc = write_table(dir, "mlp_estimate", "pages", g, na, estimate_cols, NCOLS(estimate_cols))))
		return rc;

	ng = 0;
	if ((ld = jsonr_get(doc, "loaded"))) {
		const struct jsonr_value *ot = jsonr_get(ld, "other_traffic");

		g[ng++] = (struct csv_group){ jsonr_get_string(ld, "traffic") ? jsonr_get_string(ld, "traffic") : "read",
					      jsonr_get(ld, "curve") };
		for (v = ot && ot->type == JSONR_ARRAY ? ot->u.children.first : NULL; v && ng < MAX_GROUPS; v = v->next)
			g[ng++] = (struct csv_group){ jsonr_get_string(v, "traffic"), jsonr_get(v, "curve") };
	}
	if ((rc = write_table(dir, "loaded_curve", "traffic", g, ng, curve_cols, NCOLS(curve_cols))))
		return rc;

	ng = 0;
	v = jsonr_get(doc, "window.fillers");
	for (v = v && v->type == JSONR_ARRAY ? v->u.children.first : NULL; v && ng < MAX_GROUPS; v = v->next)
		g[ng++] = (struct csv_group){ jsonr_get_string(v, "filler"), jsonr_get(v, "points") };
	return write_table(dir, "window_points", "filler", g, ng, wpoint_cols, NCOLS(wpoint_cols));
}
