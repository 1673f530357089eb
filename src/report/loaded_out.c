/*
 * The loaded section's writers: text, JSON and CSV of one chaser's latency
 * while the other threads stream. Bandwidth is what the generators
 * delivered, decimal GB/s (bw_definition says how it is counted); each
 * point's per-region spread is printed beside its minimum.
 */
#include "report/loaded_out.h"
#include "util/format.h"
#include "report/csv.h"
#include "report/perm_out.h"
#include "report/threads_out.h"

#include "core/stats.h"

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field loaded_result_fields[] = {
	JSONW_FIELD(UINT, "generators", struct loaded_result, generators),
	JSONW_FIELD(UINT, "chase_bytes", struct loaded_result, chase_bytes),
	JSONW_FIELD(UINT, "gen_bytes", struct loaded_result, gen_bytes),
	JSONW_FIELD(UINT, "huge_bytes_obtained", struct loaded_result, huge_bytes_obtained),
	JSONW_FIELD(BOOL, "layout_ok", struct loaded_result, layout_ok),
	JSONW_FIELD(UINT, "trials", struct loaded_result, trials),
	JSONW_FIELD(UINT, "hops_per_region", struct loaded_result, hops),
	JSONW_FIELD(DOUBLE, "spin_ns_per_iter", struct loaded_result, spin_ns_per_iter),
	JSONW_FIELD(DOUBLE, "noise_floor_pct", struct loaded_result, noise_floor_pct),
	JSONW_FIELD(STRING, "bw_definition", struct loaded_result, bw_definition),
	JSONW_FIELD(DOUBLE, "idle_latency_ns", struct loaded_result, idle_latency_ns),
};

static const struct jsonw_field loaded_point_fields[] = {
	JSONW_FIELD(BOOL, "idle", struct loaded_point, idle),
	JSONW_FIELD(DOUBLE, "offered_gbps", struct loaded_point, offered_gbps),
	JSONW_FIELD(DOUBLE, "bw_gbps", struct loaded_point, bw_gbps),
	JSONW_FIELD(DOUBLE, "latency_ns", struct loaded_point, latency_ns),
};

/* One kind of traffic's curve: each delay's offered and delivered
 * bandwidth, the chase's latency over idle and its per-region spread, then
 * where the latency doubles. */
static void write_curve_text(const struct loaded_curve *c, FILE *f)
{
	fprintf(f, "  %s traffic:\n  %10s %14s %16s %11s %9s   %s\n", c->name, "delay ns", "offered GB/s",
		"delivered GB/s", "latency ns", "x idle", "per-region ns: p50 / p90 / p99 / max");
	for (unsigned i = 0; i < c->npoints; i++) {
		const struct loaded_point *pt = &c->points[i];
		struct stats_pcts q;

		stats_percentiles(pt->trials_latency_ns, pt->ntrials, &q);
		if (pt->idle)
			fprintf(f, "  %10s %14s %16s %11.1f %9.2f", "idle", "-", "-", pt->latency_ns,
				pt->latency_ns / c->idle_latency_ns);
		else
			fprintf(f, "  %10.0f %14.2f %16.2f %11.1f %9.2f", pt->delay_ns, pt->offered_gbps,
				pt->bw_gbps, pt->latency_ns, pt->latency_ns / c->idle_latency_ns);
		fprintf(f, "   %.1f / %.1f / %.1f / %.1f (%zu)", q.p50, q.p90, q.p99, q.max, q.n);
		if (pt->impossible)
			fprintf(f, "  IMPOSSIBLE: delivered above %s (bound %.2f GB/s); not in the knee",
				pt->bound_gbps < pt->offered_gbps ? "the run's stream peak" : "offered", pt->bound_gbps);
		if (pt->non_monotonic)
			fprintf(f, "  NON-MONOTONIC: %.1f%% below the %.1f ns at less load (a busier memory cannot answer "
				"sooner: that point is suspect)", pt->fall_pct, c->points[pt->fall_ref].latency_ns);
		fputc('\n', f);
	}
	if (c->double_reached)
		fprintf(f, "  latency doubles at %.2f GB/s delivered\n", c->bw_at_double_latency_gbps);
	else
		fprintf(f, "  latency doubles: not reached (at most x%.2f, at %.2f GB/s)\n",
			c->max_latency_ratio, c->bw_at_max_ratio_gbps);
}

void loaded_write_text(const void *result, FILE *f)
{
	const struct loaded_result *r = result;
	char fl[80];

	fprintf(f, "\nloaded: dependent-chase latency while %u generator thread%s stream%s lines, "
		"throttled by an injection delay\n", r->generators, r->generators == 1 ? "" : "s",
		r->generators == 1 ? "s" : "");
	fprintf(f, "  chase %.0f MiB, generators %.0f MiB; spin %.3f ns/iteration; floor %s\n",
		(double)r->chase_bytes / (1 << 20), (double)r->gen_bytes / (1 << 20), r->spin_ns_per_iter,
		report_format_floor(fl, sizeof(fl), r->noise_floor_pct, r->floor_from_run));
	if (r->perm_hash)
		perm_write_text(f, r->perm_seed, r->perm_hash, NULL);
	threads_write_placement_text(&r->placement, f);
	fprintf(f, "  thread 0 chases; bandwidth = %s\n", r->bw_definition);
	fprintf(f, "  idle latency %.1f ns\n", r->idle_latency_ns);
	for (unsigned k = 0; k < r->ncurves; k++)
		write_curve_text(&r->curves[k], f);
}

void loaded_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct loaded_result *r = result;

	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, r, loaded_result_fields);
	jsonw_uint(w, "non_monotonic_found", r->nfalls);
	if (r->perm_hash)
		perm_write_json(w, r->perm_seed, r->perm_hash, NULL);
	jsonw_string(w, "noise_floor_source", report_floor_source(r->noise_floor_pct, r->floor_from_run));
	/* The read curve at top level (the keys), every curve below. */
	for (unsigned k = 0; k < r->ncurves; k++) {
		const struct loaded_curve *c = &r->curves[k];

		if (k == 0)
			jsonw_array_begin(w, "curve");
		else
			jsonw_object_begin(w, NULL);
		if (k > 0) {
			jsonw_string(w, "traffic", c->name);
			jsonw_double(w, "idle_latency_ns", c->idle_latency_ns);
			jsonw_array_begin(w, "curve");
		}
		for (unsigned i = 0; i < c->npoints; i++) {
			const struct loaded_point *pt = &c->points[i];

			jsonw_object_begin(w, NULL);
			jsonw_double_or_null(w, "delay", !pt->idle, pt->delay_ns);
			JSONW_FIELDS(w, pt, loaded_point_fields);
			if (pt->impossible) {
				jsonw_bool(w, "impossible", true);
				jsonw_double(w, "bound_gbps", pt->bound_gbps);
			}
			if (pt->non_monotonic) {
				jsonw_bool(w, "non_monotonic", true);
				jsonw_double(w, "fall_pct", pt->fall_pct);
				jsonw_double(w, "ref_latency_ns", c->points[pt->fall_ref].latency_ns);
			}
			{
				struct stats_pcts q;

				stats_percentiles(pt->trials_latency_ns, pt->ntrials, &q);
				jsonw_uint(w, "latency_regions", q.n);
				jsonw_double(w, "latency_p50_ns", q.p50);
				jsonw_double(w, "latency_p90_ns", q.p90);
				jsonw_double(w, "latency_p99_ns", q.p99);
				jsonw_double(w, "latency_max_ns", q.max);
				jsonw_double_array(w, "latency_region_ns", pt->trials_latency_ns, pt->ntrials);
			}
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		if (k == 0) {
			jsonw_string(w, "delay_unit", "ns");
			jsonw_double_or_null(w, "bw_at_double_latency_gbps", c->double_reached, c->bw_at_double_latency_gbps);
			jsonw_bool(w, "double_latency_reached", c->double_reached);
			jsonw_double(w, "max_latency_ratio", c->max_latency_ratio);
			jsonw_double(w, "bw_at_max_ratio_gbps", c->bw_at_max_ratio_gbps);
			if (r->ncurves > 1)
				jsonw_array_begin(w, "other_traffic");
		} else {
			jsonw_double_or_null(w, "bw_at_double_latency_gbps", c->double_reached, c->bw_at_double_latency_gbps);
			jsonw_bool(w, "double_latency_reached", c->double_reached);
			jsonw_double(w, "max_latency_ratio", c->max_latency_ratio);
			jsonw_object_end(w);
		}
	}
	if (r->ncurves > 1)
		jsonw_array_end(w);
	jsonw_string(w, "traffic", "read");
	threads_write_json_close(w, &r->placement, r->seconds);
}

static const struct csv_col curve_cols[] = {
	{ "delay_ns", "delay" }, { "idle", "idle" }, { "offered_gbps", "offered_gbps" },
	{ "bw_gbps", "bw_gbps" }, { "latency_ns", "latency_ns" },
};

int loaded_write_csv(const char *dir, const struct jsonr_value *doc)
{
	struct csv_group g[CSV_MAX_GROUPS] = { { NULL, NULL } };
	const struct jsonr_value *ld = jsonr_get(doc, "loaded"), *v;
	size_t ng = 0;

	if (ld) {
		const struct jsonr_value *ot = jsonr_get(ld, "other_traffic");

		g[ng++] = (struct csv_group){ jsonr_get_string(ld, "traffic") ? jsonr_get_string(ld, "traffic") : "read",
					      jsonr_get(ld, "curve") };
		for (v = ot && ot->type == JSONR_ARRAY ? ot->u.children.first : NULL; v && ng < CSV_MAX_GROUPS; v = v->next)
			g[ng++] = (struct csv_group){ jsonr_get_string(v, "traffic"), jsonr_get(v, "curve") };
	}
	return csv_write_table(dir, "loaded_curve", "traffic", g, ng, curve_cols, CSV_NCOLS(curve_cols));
}

