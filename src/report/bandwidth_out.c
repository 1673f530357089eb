/*
 * The bandwidth section's writers: text, JSON and CSV. Every column names its
 * quantity and unit: GB/s are decimal, sizes binary; the efficiency table and
 * the byte counts say what is a model and what is not counted (read-for-
 * ownership), because an unlabelled bandwidth is the classic misreading.
 */
#include "report/bandwidth_out.h"
#include "util/format.h"
#include "report/csv.h"
#include "report/threads_out.h"

#include <math.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field bandwidth_point_fields[] = {
	JSONW_FIELD(UINT, "bytes_moved", struct bandwidth_point, bytes_moved),
	JSONW_FIELD(UINT, "bytes_measured", struct bandwidth_point, bytes_measured),
	JSONW_FIELD(DOUBLE, "overlap_pct", struct bandwidth_point, overlap_pct),
	JSONW_FIELD(DOUBLE, "start_skew_ns", struct bandwidth_point, start_skew_ns),
	JSONW_FIELD(UINT, "preempted_trials", struct bandwidth_point, preempted_trials),
};

static const struct jsonw_field bandwidth_result_fields[] = {
	JSONW_FIELD(UINT, "working_set_bytes", struct bandwidth_result, working_set_bytes),
	JSONW_FIELD(UINT, "window_bytes", struct bandwidth_result, window_bytes),
	JSONW_FIELD(UINT, "huge_bytes_obtained", struct bandwidth_result, huge_bytes_obtained),
	JSONW_FIELD(UINT, "line_bytes", struct bandwidth_result, line_bytes),
	JSONW_FIELD(UINT, "trials", struct bandwidth_result, trials),
};

static const struct jsonw_field bandwidth_efficiency_fields[] = {
	JSONW_FIELD(UINT, "spacing_bytes", struct bandwidth_efficiency, spacing_bytes),
	JSONW_FIELD(UINT, "footprint_bytes", struct bandwidth_efficiency, footprint_bytes),
	JSONW_FIELD(UINT, "nodes", struct bandwidth_efficiency, nodes),
	JSONW_FIELD(DOUBLE, "footprint_over_llc", struct bandwidth_efficiency, footprint_over_llc),
	JSONW_FIELD(BOOL, "fits_llc", struct bandwidth_efficiency, fits_llc),
	JSONW_FIELD(UINT, "hops_per_region", struct bandwidth_efficiency, hops),
	JSONW_FIELD(DOUBLE, "useful_bytes_per_access", struct bandwidth_efficiency, useful_bytes_per_access),
	JSONW_FIELD(DOUBLE, "lines_per_access_model", struct bandwidth_efficiency, lines_per_access),
	JSONW_FIELD(DOUBLE, "latency_small_ns", struct bandwidth_efficiency, latency_small_ns),
	JSONW_FIELD(DOUBLE, "latency_huge_ns", struct bandwidth_efficiency, latency_huge_ns),
	JSONW_FIELD(DOUBLE, "walk_lines_per_access_model", struct bandwidth_efficiency, walk_lines_per_access),
	JSONW_FIELD(DOUBLE, "moved_bytes_small_model", struct bandwidth_efficiency, moved_bytes_small),
	JSONW_FIELD(DOUBLE, "moved_bytes_huge_model", struct bandwidth_efficiency, moved_bytes_huge),
	JSONW_FIELD(DOUBLE, "efficiency_small_model", struct bandwidth_efficiency, efficiency_small),
	JSONW_FIELD(DOUBLE, "efficiency_huge_model", struct bandwidth_efficiency, efficiency_huge),
	JSONW_FIELD(UINT, "huge_bytes_obtained", struct bandwidth_efficiency, huge_bytes_obtained),
	JSONW_FIELD(BOOL, "layout_ok", struct bandwidth_efficiency, layout_ok),
};

/* A point whose trials were preempted says how many, and whether its
 * figure is one of them (every trial was: the best is shown anyway). */
static void write_preempted_text(const struct bandwidth_point *pt, FILE *f)
{
	if (pt->preempted_trials)
		fprintf(f, "  (%u of %u trials preempted%s)", pt->preempted_trials, pt->ntrials,
			pt->trial_preempted[pt->best_trial] ? ", all: best of them shown" : ", not used");
}

void bandwidth_write_text(const void *result, FILE *f)
{
	const struct bandwidth_result *r = result;
	char fl[80];

	fprintf(f, "\nbandwidth: sequential streams, decimal GB/s, best of %u trials\n", r->trials);
	fprintf(f, "  working set %.0f MiB (each trial streams a %.0f MiB window of it, the next trial the next), "
		"%.1f%% in huge pages (obtained); floor %s\n",
		(double)r->working_set_bytes / (1 << 20), (double)r->window_bytes / (1 << 20),
		r->working_set_bytes ? 100.0 * (double)r->huge_bytes_obtained / (double)r->working_set_bytes : 0.0,
		report_format_floor(fl, sizeof(fl), r->noise_floor_pct, r->floor_from_run));
	threads_write_placement_text(&r->placement, f);
	fprintf(f, "  %-16s %7s %10s  %s\n", "kernel", "threads", "GB/s", "per thread GB/s");
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct bandwidth_point *pt = &r->points[i];

		fprintf(f, "  %-16s %7u %10.2f  ", pt->kernel->name, pt->threads, pt->gbps);
		for (unsigned t = 0; t < pt->threads && t < 16; t++)
			fprintf(f, "%s%.2f", t ? " " : "", pt->per_thread_gbps[t]);
		fprintf(f, "%s", pt->threads > 16 ? " ..." : "");
		if (pt->impossible)
			fprintf(f, "  IMPOSSIBLE: above %u x 1 thread (bound %.2f GB/s)", pt->threads, pt->bound_gbps);
		write_preempted_text(pt, f);
		fprintf(f, "\n");
	}
	if (isfinite(r->overlap_min_pct))
		fprintf(f, "  threads stream together (all stop when the first ends its slice): windows overlap "
			"%.1f%% of the span at worst (self-check: >= %.0f%%: %s)\n", r->overlap_min_pct,
			BANDWIDTH_OVERLAP_MIN_PCT, r->overlap_ok ? "ok" : "FLAGGED");
	if (r->overlap_note[0])
		fprintf(f, "  flag: %s\n", r->overlap_note);
	fprintf(f, "  read-for-ownership counted: %s (%s)\n", r->rfo_counted ? "yes" : "no", r->rfo_note);
	if (isfinite(r->read_scaling))
		fprintf(f, "  widest read, most threads / 1 thread: %.2fx\n", r->read_scaling);
	if (r->scaling_note[0])
		fprintf(f, "  note: %s\n", r->scaling_note);
	if (r->nmixes) {
		fprintf(f, "\n  injection bandwidth by read:write mix, %u threads, 8-byte scalar kernels (%s)\n",
			r->mixes[0].pt.threads, r->mix_note);
		fprintf(f, "  %-18s %7s %14s %6s %18s\n", "kernel", "mix", "GB/s (named)", "x RFO", "GB/s moved (model)");
		for (unsigned i = 0; i < r->nmixes; i++) {
			const struct bandwidth_mix *m = &r->mixes[i];
			char mix[24];

			if (m->write_lines)
				snprintf(mix, sizeof(mix), "%u:%u%s", m->read_lines, m->write_lines,
					 m->pt.kernel->nontemporal ? " nt" : "");
			else
				snprintf(mix, sizeof(mix), "reads");
			fprintf(f, "  %-18s %7s %14.2f %6.2f %18.2f", m->pt.kernel->name, mix, m->pt.gbps, m->rfo_factor,
				m->moved_gbps);
			write_preempted_text(&m->pt, f);
			fprintf(f, "\n");
		}
	}
	if (!r->efficiency_measured)
		return;
	fprintf(f, "\n  random-access efficiency (%s)\n", r->efficiency_note);
	fprintf(f, "  %8s %10s %8s %10s %10s %8s %12s %12s %9s %9s\n", "spacing", "footprint", "useful",
		"small ns", "huge ns", "walk", "moved small", "moved huge", "eff small", "eff huge");
	for (unsigned s = 0; s < BANDWIDTH_EFF_SPACINGS; s++) {
		const struct bandwidth_efficiency *e = &r->eff[s];

		fprintf(f, "  %6zu B %6.0f MiB %6.0f B %10.1f %10.1f %8.2f %10.0f B %10.0f B %8.1f%% %8.1f%%\n",
			e->spacing_bytes, (double)e->footprint_bytes / (1 << 20), e->useful_bytes_per_access,
			e->latency_small_ns, e->latency_huge_ns, e->walk_lines_per_access, e->moved_bytes_small,
			e->moved_bytes_huge, 100 * e->efficiency_small, 100 * e->efficiency_huge);
		if (e->fits_llc)
			fprintf(f, "  %6zu B: its lines are %.1fx the last-level cache, so many of these loads hit "
				"it: this row understates memory traffic\n", e->spacing_bytes, e->footprint_over_llc);
	}
}

/* What every timed point records of its own timing, kernels and mixes
 * alike: the bytes, how well the threads overlapped, the trials behind it. */
static void write_point_timing(struct jsonw *w, const struct bandwidth_point *pt)
{
	JSONW_FIELDS(w, pt, bandwidth_point_fields);
	jsonw_bool(w, "best_trial_preempted", pt->trial_preempted[pt->best_trial]);
	jsonw_double_array(w, "per_thread_gbps", pt->per_thread_gbps, pt->threads);
	jsonw_double_array(w, "trials_gbps", pt->trials_gbps, pt->ntrials);
}

static void kernel_members(struct jsonw *w, const void *e)
{
	const struct bandwidth_point *pt = e;

	jsonw_string(w, "kernel", pt->kernel->name);
	jsonw_string(w, "op", stream_op_name(pt->kernel->op));
	jsonw_string(w, "isa", pt->kernel->isa);
	jsonw_uint(w, "width_bytes", pt->kernel->width_bytes);
	jsonw_bool(w, "nontemporal", pt->kernel->nontemporal);
	jsonw_uint(w, "threads", pt->threads);
	jsonw_double(w, "gbps", pt->gbps);
	if (pt->impossible) {
		jsonw_bool(w, "impossible", true);
		jsonw_double(w, "bound_gbps", pt->bound_gbps);
	}
	write_point_timing(w, pt);
}

/* A read:write mix: what the kernel names, and what the model says moved. */
static void mix_members(struct jsonw *w, const void *e)
{
	const struct bandwidth_mix *m = e;
	const struct bandwidth_point *pt = &m->pt;

	jsonw_string(w, "kernel", pt->kernel->name);
	jsonw_uint(w, "read_lines", m->read_lines);
	jsonw_uint(w, "write_lines", m->write_lines);
	jsonw_bool(w, "nontemporal", pt->kernel->nontemporal);
	jsonw_uint(w, "width_bytes", pt->kernel->width_bytes);
	jsonw_double(w, "gbps", pt->gbps);
	jsonw_double(w, "rfo_factor_model", m->rfo_factor);
	jsonw_double(w, "moved_gbps_model", m->moved_gbps);
	write_point_timing(w, pt);
}

void bandwidth_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct bandwidth_result *r = result;

	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, r, bandwidth_result_fields);
	jsonw_string(w, "estimator", "min time of trials (max GB/s); total = all bytes / (last end - first start); "
				     "every thread stops once the first has streamed its whole slice");
	jsonw_double(w, "noise_floor_pct", r->noise_floor_pct);
	jsonw_string(w, "noise_floor_source", report_floor_source(r->noise_floor_pct, r->floor_from_run));
	jsonw_bool(w, "rfo_counted", r->rfo_counted);
	jsonw_string(w, "rfo_note", r->rfo_note);
	JSONW_OBJECT_ARRAY_EACH(w, "kernels", r->points, r->npoints, kernel_members);
	jsonw_double(w, "overlap_min_pct", r->overlap_min_pct);
	jsonw_double(w, "overlap_threshold_pct", BANDWIDTH_OVERLAP_MIN_PCT);
	jsonw_bool(w, "overlap_ok", r->overlap_ok);
	jsonw_string_or_null(w, "overlap_note", r->overlap_note[0], r->overlap_note);
	jsonw_double(w, "read_scaling", r->read_scaling);
	jsonw_string_or_null(w, "scaling_note", r->scaling_note[0], r->scaling_note);
	if (r->nmixes) {
		jsonw_object_begin(w, "mixes");
		jsonw_string(w, "note", r->mix_note);
		jsonw_uint(w, "threads", r->mixes[0].pt.threads);
		JSONW_OBJECT_ARRAY_EACH(w, "points", r->mixes, r->nmixes, mix_members);
		jsonw_object_end(w);
	} else {
		jsonw_null(w, "mixes");
	}
	jsonw_string(w, "efficiency_note", r->efficiency_note);
	JSONW_OBJECT_ARRAY(w, "efficiency", r->eff, r->efficiency_measured ? BANDWIDTH_EFF_SPACINGS : 0,
			   bandwidth_efficiency_fields);
	threads_write_json_close(w, &r->placement, r->seconds);
}

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

static const struct csv_rows_table csv_tables[] = {
	CSV_ROWS_TABLE("bandwidth_kernels", "bandwidth.kernels", kernel_cols),
	CSV_ROWS_TABLE("bandwidth_efficiency", "bandwidth.efficiency", eff_cols),
};

int bandwidth_write_csv(const char *dir, const struct jsonr_value *doc)
{
	return csv_write_row_tables(dir, doc, csv_tables, CSV_NCOLS(csv_tables));
}
