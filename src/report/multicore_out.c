/*
 * The multicore section's writers: text, JSON and CSV of K lanes on each of T
 * threads at once. Concurrency is by Little's law over the team's accesses;
 * the text says so beside the figures (concurrency_definition).
 */
#include "report/multicore_out.h"
#include "util/format.h"
#include "report/csv.h"
#include "report/perm_out.h"
#include "report/threads_out.h"

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field multicore_result_fields[] = {
	JSONW_FIELD(UINT, "per_thread_bytes", struct multicore_result, per_thread_bytes),
	JSONW_FIELD(UINT, "spacing_bytes", struct multicore_result, spacing_bytes),
	JSONW_FIELD(STRING, "pages_requested", struct multicore_result, pages_requested),
	JSONW_FIELD(UINT, "huge_bytes_obtained", struct multicore_result, huge_bytes_obtained),
	JSONW_FIELD(UINT, "total_bytes", struct multicore_result, total_bytes),
	JSONW_FIELD(BOOL, "layout_ok", struct multicore_result, layout_ok),
	JSONW_FIELD(UINT, "accesses_per_region", struct multicore_result, accesses),
	JSONW_FIELD(UINT, "trials", struct multicore_result, trials),
	JSONW_FIELD(DOUBLE, "t1_single_ns", struct multicore_result, t1_single_ns),
	JSONW_FIELD(STRING, "concurrency_definition", struct multicore_result, concurrency_definition),
	JSONW_FIELD(DOUBLE, "noise_floor_pct", struct multicore_result, noise_floor_pct),
};

static const struct jsonw_field multicore_point_fields[] = {
	JSONW_FIELD(UINT, "threads", struct multicore_point, threads),
	JSONW_FIELD(UINT, "lanes", struct multicore_point, lanes),
	JSONW_FIELD(DOUBLE, "concurrency_total", struct multicore_point, concurrency_total),
	JSONW_FIELD(DOUBLE, "accesses_per_ns", struct multicore_point, accesses_per_ns),
	JSONW_FIELD(DOUBLE, "slowest_thread_ns_per_access", struct multicore_point, slowest_thread_ns),
};

static const struct jsonw_field multicore_saturation_fields[] = {
	JSONW_FIELD(UINT, "threads", struct multicore_saturation, threads),
	JSONW_FIELD(DOUBLE, "peak_accesses_per_ns", struct multicore_saturation, peak_accesses_per_ns),
	JSONW_FIELD(DOUBLE, "peak_concurrency_total", struct multicore_saturation, peak_concurrency_total),
	JSONW_FIELD(UINT, "peak_lanes", struct multicore_saturation, peak_lanes),
	JSONW_FIELD(UINT, "plateau_from_lanes", struct multicore_saturation, plateau_from_lanes),
};

/* Each thread count's peak and where it plateaus, then whether adding
 * threads still raised the peak rate (the shared memory system's limit). */
static void write_saturation_text(const struct multicore_result *r, FILE *f)
{
	for (unsigned c = 0; c < r->ncounts; c++) {
		const struct multicore_saturation *s = &r->sat[c];

		fprintf(f, "  T=%u: peak %.4f accesses/ns (concurrency %.2f) at K=%u; within the floor of it from K=%u%s\n",
			s->threads, s->peak_accesses_per_ns, s->peak_concurrency_total, s->peak_lanes,
			s->plateau_from_lanes, s->peak_lanes == r->max_lanes ? " (still rising at the largest K)" : "");
	}
	if (r->saturated_at_threads)
		fprintf(f, "  shared memory system saturates at %u threads (more add less than the floor)\n",
			r->saturated_at_threads);
	else if (r->ncounts > 1)
		fprintf(f, "  no saturation across threads: the largest T still adds %.0f%% to the peak rate\n",
			100 * (r->rate_gain_last - 1));
}

void multicore_write_text(const void *result, FILE *f)
{
	const struct multicore_result *r = result;
	char fl[80];

	fprintf(f, "\nmulticore: K lanes of dependent loads on each of T threads at once, own chain each\n");
	fprintf(f, "  %.0f MiB per thread, %s pages requested, %.0f MiB of %.0f MiB huge (obtained); "
		"layout %s; floor %s\n", (double)r->per_thread_bytes / (1 << 20), r->pages_requested,
		(double)r->huge_bytes_obtained / (1 << 20), (double)r->total_bytes / (1 << 20),
		r->layout_ok ? "ok" : "FAILED", report_format_floor(fl, sizeof(fl), r->noise_floor_pct, r->floor_from_run));
	if (r->perm_hash)
		perm_write_text(f, r->perm_seed, r->perm_hash, MULTICORE_CHAIN_SEEDS);
	threads_write_placement_text(&r->placement, f);
	fprintf(f, "  t1_single %.1f ns; %s\n", r->t1_single_ns, r->concurrency_definition);
	fprintf(f, "  %7s %5s %17s %15s %18s\n", "threads", "K", "concurrency_total", "accesses/ns",
		"slowest thread ns");
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct multicore_point *pt = &r->points[i];

		fprintf(f, "  %7u %5u %17.2f %15.4f %18.2f", pt->threads, pt->lanes, pt->concurrency_total,
			pt->accesses_per_ns, pt->slowest_thread_ns);
		if (pt->impossible)
			fprintf(f, "  IMPOSSIBLE: above T x K = %u; not in the saturation", pt->threads * pt->lanes);
		fputc('\n', f);
	}
	write_saturation_text(r, f);
}

/* A point's keys, and its mark where its concurrency broke T x K. */
static void point_members(struct jsonw *w, const void *e)
{
	const struct multicore_point *pt = e;

	JSONW_FIELDS(w, pt, multicore_point_fields);
	if (pt->impossible) {
		jsonw_bool(w, "impossible", true);
		jsonw_double(w, "concurrency_bound", (double)pt->threads * pt->lanes);
	}
}

void multicore_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct multicore_result *r = result;

	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, r, multicore_result_fields);
	if (r->perm_hash)
		perm_write_json(w, r->perm_seed, r->perm_hash, MULTICORE_CHAIN_SEEDS);
	jsonw_string(w, "noise_floor_source", report_floor_source(r->noise_floor_pct, r->floor_from_run));
	JSONW_OBJECT_ARRAY_EACH(w, "points", r->points, r->npoints, point_members);
	JSONW_OBJECT_ARRAY(w, "saturation", r->sat, r->ncounts, multicore_saturation_fields);
	jsonw_uint_or_null(w, "saturated_at_threads", r->saturated_at_threads, r->saturated_at_threads);
	jsonw_double(w, "rate_gain_last_threads", r->rate_gain_last);
	threads_write_json_close(w, &r->placement, r->seconds);
}

static const struct csv_col mc_cols[] = {
	{ "threads", "threads" }, { "lanes", "lanes" }, { "concurrency_total", "concurrency_total" },
	{ "accesses_per_ns", "accesses_per_ns" }, { "slowest_thread_ns_per_access", "slowest_thread_ns_per_access" },
};

int multicore_write_csv(const char *dir, const struct jsonr_value *doc)
{
	return csv_write_rows(dir, "multicore_points", jsonr_get(doc, "multicore.points"), mc_cols,
			      CSV_NCOLS(mc_cols));
}
