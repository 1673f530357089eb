/*
 * Writers for the lanes (mlp) section: its setup, table and estimate as
 * text, and its JSON object. The table says which figures are throughput
 * and which are assumptions (one cache line per access), because a lanes
 * table read as latencies is the classic misreading of this experiment.
 */
#include "report/mlp_out.h"
#include "report/csv.h"
#include "report/plots.h"

#include "report/format.h"

#include <inttypes.h>

static void write_mlp_setup(const struct mlp_result *m, FILE *f)
{
	const struct layout_check *l = &m->layout;
	char ws[32], huge[32], total[32];

	report_format_bytes(ws, sizeof(ws), m->working_set_bytes);
	report_format_bytes(huge, sizeof(huge), m->huge_bytes_obtained);
	report_format_bytes(total, sizeof(total), m->total_bytes);
	fprintf(f, "\nmlp: memory-level parallelism from K lanes of dependent loads, %s pages requested\n",
		m->pages_requested);
	fprintf(f, "  working set %s: %zu nodes, one every %zu B (line %zu B)\n", ws, l->nodes,
		m->spacing_bytes, m->line_bytes);
	fprintf(f, "  page backing obtained: %s of %s in huge pages (%.1f%%, from /proc/self/smaps)\n",
		huge, total, m->total_bytes ? 100.0 * (double)m->huge_bytes_obtained / (double)m->total_bytes : 0.0);
	fprintf(f, "  layout check: walked %zu steps, %zu distinct nodes, %zu distinct lines (expected %zu): %s\n",
		l->steps_walked, l->distinct_nodes_walked, l->distinct_lines_walked, l->expected_lines,
		l->ok ? "ok" : "FAILED");
	fprintf(f, "  permutation: Sattolo, seed %" PRIu64 ", hash %016" PRIx64 "\n", m->perm_seed, m->perm_hash);
	fprintf(f, "  %zu accesses per timed region; %u trials x %u repeats per point, visited round-robin\n",
		m->accesses_per_point, m->trials_per_repeat, m->estimate.repeats);
	fprintf(f, "  noise floor of the min-of-3 estimator: %.1f%% (" REPORT_FLOOR_OWN ": its tolerance)\n",
		m->noise_floor_pct);
}

static void write_mlp_table(const struct mlp_result *m, FILE *f)
{
	unsigned c = 0;

	fprintf(f, "\n  %5s  %10s  %7s  %11s  %8s  %8s  %10s  %12s\n", "lanes", "time/acc", "speedup",
		"concurrency", "useful", "lines*", "lane walk", "control");
	fprintf(f, "  %5s  %10s  %7s  %11s  %8s  %8s  %10s  %12s\n", "K", "ns thrput", "x t1/tK",
		"t1/tK", "GB/s", "GB/s", "KiB/region", "ns/acc");
	for (unsigned i = 0; i < m->npoints; i++) {
		const struct mlp_point *p = &m->sweep[i];

		fprintf(f, "  %5u  %10.3f  %7.2f  %11.2f  %8.3f  %8.3f  %10.1f", p->lanes, p->ns_per_access,
			p->speedup, p->concurrency, p->useful_gbps, p->line_gbps,
			(double)(p->steps_per_lane * m->spacing_bytes) / 1024.0);
		if (c < m->ncontrol && m->control[c].lanes == p->lanes)
			fprintf(f, "  %12.3f", m->control[c++].ns_per_access);
		fputc('\n', f);
	}
	fprintf(f, "  time/acc: elapsed time / logical accesses, the reciprocal of throughput; a latency only at K=1.\n"
		   "  concurrency: t(1)/t(K), accesses in flight by Little's law.\n"
		   "  useful: 8 B per access; lines*: %zu B per access, an assumption (nothing counts lines here).\n"
		   "  control: one chain hopped K times per iteration (same loop overhead, no overlap).\n"
		   "  GB/s are decimal (1e9 B/s).\n",
		m->line_bytes);
}

static void write_mlp_estimate(const struct mlp_result *m, FILE *f)
{
	const struct mlp_estimate *e = &m->estimate;

	fprintf(f, "\n  estimate:\n");
	fprintf(f, "    fit t(K) = max(L/K, L/Ks):  Ks = %.1f +/- %.1f lanes, L = %.1f ns, "
		"plateau concurrency %.1f (rms residual %.1f%%)\n",
		e->fit_saturation_lanes, e->fit_uncertainty, e->fit_latency_ns,
		e->fit_plateau_concurrency, 100.0 * e->fit_rms_log_residual);
	fprintf(f, "    peak concurrency observed:  %.1f at K = %u\n", e->peak_concurrency, e->peak_lanes);
	fprintf(f, "    plateau from:               K = %u (first K within the floor of the best time)\n",
		e->plateau_from_lanes);
	fprintf(f, "    curve flat over the last 8 K: %s\n",
		e->flat_at_end ? "yes" : "NO: still improving at the cap; raise --max-lanes");
	fprintf(f, "    older tools' rules:         first K adding <5%%: %zu, <1%%: %zu "
		"(noise-sensitive; shown for comparison)\n", e->rule_5pct_lanes, e->rule_1pct_lanes);
	fprintf(f, "    repeats: %u, agreeing on Ks within 1 lane or 10%%: %u (Ks:", e->repeats,
		e->repeats_agreeing);
	for (unsigned i = 0; i < e->repeats; i++)
		fprintf(f, " %.1f", e->repeat_saturation_lanes[i]);
	fprintf(f, ")\n  setup %.1f s, sweep %.1f s\n", m->setup_seconds, m->sweep_seconds);
}

static void write_point(struct jsonw *w, const struct mlp_point *pt, size_t spacing_bytes)
{
	jsonw_object_begin(w, NULL);
	jsonw_uint(w, "lanes", pt->lanes);
	jsonw_uint(w, "steps_per_lane", pt->steps_per_lane);
	jsonw_uint(w, "lane_walk_bytes", pt->steps_per_lane * spacing_bytes);
	jsonw_double(w, "ns_per_access", pt->ns_per_access);
	jsonw_double(w, "speedup", pt->speedup);
	jsonw_double(w, "concurrency", pt->concurrency);
	jsonw_double(w, "useful_gbps", pt->useful_gbps);
	jsonw_double(w, "line_gbps", pt->line_gbps);
	jsonw_double_array(w, "trials_ns", pt->trials_ns, pt->ntrials);
	jsonw_object_end(w);
}

static void write_estimate(struct jsonw *w, const struct mlp_estimate *e)
{
	jsonw_object_begin(w, "estimate");
	jsonw_uint(w, "rule_5pct_lanes", e->rule_5pct_lanes);
	jsonw_uint(w, "rule_1pct_lanes", e->rule_1pct_lanes);
	jsonw_string(w, "fit_model", "t(K) = max(L/K, L/Ks), least squares on log t");
	jsonw_double(w, "fit_latency_ns", e->fit_latency_ns);
	jsonw_double(w, "fit_saturation_lanes", e->fit_saturation_lanes);
	jsonw_double(w, "fit_plateau_concurrency", e->fit_plateau_concurrency);
	jsonw_double(w, "fit_uncertainty", e->fit_uncertainty);
	jsonw_double(w, "fit_rms_log_residual", e->fit_rms_log_residual);
	jsonw_double(w, "peak_concurrency", e->peak_concurrency);
	jsonw_uint(w, "peak_lanes", e->peak_lanes);
	jsonw_uint(w, "plateau_from_lanes", e->plateau_from_lanes);
	jsonw_bool(w, "flat_at_end", e->flat_at_end);
	jsonw_uint(w, "repeats", e->repeats);
	jsonw_uint(w, "repeats_agreeing", e->repeats_agreeing);
	jsonw_double_array(w, "repeat_saturation_lanes", e->repeat_saturation_lanes, e->repeats);
	jsonw_object_end(w);
}

static void write_mlp(struct jsonw *w, const char *key, const struct mlp_result *m)
{
	const struct layout_check *l = &m->layout;
	char hash[24];

	jsonw_object_begin(w, key);
	jsonw_uint(w, "working_set_bytes", m->working_set_bytes);
	jsonw_uint(w, "spacing_bytes", m->spacing_bytes);
	jsonw_uint(w, "line_bytes", m->line_bytes);
	jsonw_object_begin(w, "pages");
	jsonw_string(w, "requested", m->pages_requested);
	jsonw_uint(w, "huge_bytes_obtained", m->huge_bytes_obtained);
	jsonw_uint(w, "total_bytes", m->total_bytes);
	jsonw_double(w, "huge_pct_obtained",
		     m->total_bytes ? 100.0 * (double)m->huge_bytes_obtained / (double)m->total_bytes : 0.0);
	jsonw_int(w, "collapse_errno", m->collapse_errno);
	jsonw_object_end(w);
	jsonw_object_begin(w, "layout_check");
	jsonw_uint(w, "nodes", l->nodes);
	jsonw_uint(w, "expected_lines", l->expected_lines);
	jsonw_uint(w, "steps_walked", l->steps_walked);
	jsonw_uint(w, "distinct_nodes_walked", l->distinct_nodes_walked);
	jsonw_uint(w, "distinct_lines_walked", l->distinct_lines_walked);
	jsonw_bool(w, "closed", l->closed);
	jsonw_bool(w, "ok", l->ok);
	jsonw_object_end(w);
	snprintf(hash, sizeof(hash), "%016" PRIx64, m->perm_hash);
	jsonw_object_begin(w, "permutation");
	jsonw_string(w, "algorithm", "sattolo/xoshiro256**");
	jsonw_uint(w, "seed", m->perm_seed);
	jsonw_string(w, "hash_fnv1a64", hash);
	jsonw_object_end(w);
	jsonw_string(w, "quantity", "throughput: elapsed ns per logical 8-byte load (reciprocal of access rate)");
	jsonw_uint(w, "accesses_per_point", m->accesses_per_point);
	jsonw_uint(w, "trials_per_repeat", m->trials_per_repeat);
	jsonw_double(w, "noise_floor_pct", m->noise_floor_pct);
	jsonw_string(w, "noise_floor_method",
		     "upper quartile over lane counts of the spread (max/min - 1) of min-of-3 trial groups");
	jsonw_array_begin(w, "sweep");
	for (unsigned i = 0; i < m->npoints; i++)
		write_point(w, &m->sweep[i], m->spacing_bytes);
	jsonw_array_end(w);
	jsonw_array_begin(w, "control_unrolled");
	for (unsigned i = 0; i < m->ncontrol; i++)
		write_point(w, &m->control[i], m->spacing_bytes);
	jsonw_array_end(w);
	write_estimate(w, &m->estimate);
	jsonw_object_begin(w, "timing");
	jsonw_double(w, "setup_s", m->setup_seconds);
	jsonw_double(w, "sweep_s", m->sweep_seconds);
	jsonw_object_end(w);
	jsonw_object_end(w);
}

void mlp_write_text(const struct mlp_arms *a, FILE *f)
{
	for (int i = 0; i < a->n; i++) {
		write_mlp_setup(&a->arm[i], f);
		write_mlp_table(&a->arm[i], f);
		write_mlp_estimate(&a->arm[i], f);
	}
}

/* One arm is the object itself; --pages both nests them as small and huge. */
void mlp_write_json(struct jsonw *w, const char *key, const struct mlp_arms *a)
{
	if (a->n == 1) {
		write_mlp(w, key, &a->arm[0]);
	} else if (a->n == 2) {
		jsonw_object_begin(w, key);
		write_mlp(w, "small", &a->arm[0]);
		write_mlp(w, "huge", &a->arm[1]);
		jsonw_object_end(w);
	}
}

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

int mlp_write_csv(const char *dir, const struct jsonr_value *doc)
{
	const struct jsonr_value *arms[2];
	const char *pages[2];
	struct csv_group g[2] = { { NULL, NULL } };
	struct jsonr_value row[2], arr[2];
	size_t na = plots_mlp_arms(doc, arms, pages);
	int rc;

	for (size_t i = 0; i < na; i++)
		g[i] = (struct csv_group){ pages[i], jsonr_get(arms[i], "sweep") };
	if ((rc = csv_write_table(dir, "mlp_sweep", "pages", g, na, sweep_cols, CSV_NCOLS(sweep_cols))))
		return rc;
	for (size_t i = 0; i < na; i++)
		g[i].rows = jsonr_get(arms[i], "control_unrolled");
	if ((rc = csv_write_table(dir, "mlp_control", "pages", g, na, sweep_cols, CSV_NCOLS(sweep_cols))))
		return rc;
	/* One row per arm: the arm object itself is the row. */
	for (size_t i = 0; i < na; i++) {
		csv_one_row(&arr[i], &row[i], arms[i]);
		g[i].rows = &arr[i];
	}
	return csv_write_table(dir, "mlp_estimate", "pages", g, na, estimate_cols, CSV_NCOLS(estimate_cols));
}
