/*
 * Writers for the throughput-side sections. Every column names its quantity
 * and unit: GB/s are decimal, sizes binary; the efficiency table and the
 * byte counts say what is a model and what is not counted (read-for-
 * ownership), because an unlabelled bandwidth is the classic misreading.
 */
#include "report/bandwidth_out.h"
#include "report/csv.h"
#include "util/format.h"

#include "core/stats.h"

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

/* "4.2% (whose)", or why there is no floor: one min-of-3 group (--quick)
 * has no spread. */
static const char *floor_text(double pct, char *buf, size_t len)
{
	if (isnan(pct))
		snprintf(buf, len, "n/a (one min-of-3 group per point)");
	else
		snprintf(buf, len, "%.1f%% (" REPORT_FLOOR_OWN ")", pct);
	return buf;
}

static void write_placement_json(struct jsonw *w, const struct team_placement *pl)
{
	jsonw_array_begin(w, "placement");
	for (unsigned i = 0; i < pl->nthreads; i++) {
		jsonw_object_begin(w, NULL);
		jsonw_uint(w, "thread", i);
		jsonw_int(w, "cpu", pl->cpu[i]);
		jsonw_int(w, "observed_cpu", pl->observed_cpu[i]);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

static void write_placement_text(const struct team_placement *pl, FILE *f)
{
	char cpus[1024];

	team_format_placement(pl, cpus, sizeof(cpus));
	fprintf(f, "  threads pinned one per CPU, thread i -> CPU: %s\n", cpus);
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
		floor_text(r->noise_floor_pct, fl, sizeof(fl)));
	write_placement_text(&r->placement, f);
	fprintf(f, "  %-16s %7s %10s  %s\n", "kernel", "threads", "GB/s", "per thread GB/s");
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct bandwidth_point *pt = &r->points[i];

		fprintf(f, "  %-16s %7u %10.2f  ", pt->kernel->name, pt->threads, pt->gbps);
		for (unsigned t = 0; t < pt->threads && t < 16; t++)
			fprintf(f, "%s%.2f", t ? " " : "", pt->per_thread_gbps[t]);
		fprintf(f, "%s", pt->threads > 16 ? " ..." : "");
		if (pt->preempted_trials)
			fprintf(f, "  (%u of %u trials preempted%s)", pt->preempted_trials, pt->ntrials,
				pt->trial_preempted[pt->best_trial] ? ", all: best of them shown" : ", not used");
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
			if (m->pt.preempted_trials)
				fprintf(f, "  (%u of %u trials preempted%s)", m->pt.preempted_trials, m->pt.ntrials,
					m->pt.trial_preempted[m->pt.best_trial] ? ", all: best of them shown" : ", not used");
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

void bandwidth_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct bandwidth_result *r = result;

	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, r, bandwidth_result_fields);
	jsonw_string(w, "estimator", "min time of trials (max GB/s); total = all bytes / (last end - first start); "
				     "every thread stops once the first has streamed its whole slice");
	jsonw_double(w, "noise_floor_pct", r->noise_floor_pct);
	jsonw_bool(w, "rfo_counted", r->rfo_counted);
	jsonw_string(w, "rfo_note", r->rfo_note);
	jsonw_array_begin(w, "kernels");
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct bandwidth_point *pt = &r->points[i];

		jsonw_object_begin(w, NULL);
		jsonw_string(w, "kernel", pt->kernel->name);
		jsonw_string(w, "op", stream_op_name(pt->kernel->op));
		jsonw_string(w, "isa", pt->kernel->isa);
		jsonw_uint(w, "width_bytes", pt->kernel->width_bytes);
		jsonw_bool(w, "nontemporal", pt->kernel->nontemporal);
		jsonw_uint(w, "threads", pt->threads);
		jsonw_double(w, "gbps", pt->gbps);
		write_point_timing(w, pt);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
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
		jsonw_array_begin(w, "points");
		for (unsigned i = 0; i < r->nmixes; i++) {
			const struct bandwidth_mix *m = &r->mixes[i];
			const struct bandwidth_point *pt = &m->pt;

			jsonw_object_begin(w, NULL);
			jsonw_string(w, "kernel", pt->kernel->name);
			jsonw_uint(w, "read_lines", m->read_lines);
			jsonw_uint(w, "write_lines", m->write_lines);
			jsonw_bool(w, "nontemporal", pt->kernel->nontemporal);
			jsonw_uint(w, "width_bytes", pt->kernel->width_bytes);
			jsonw_double(w, "gbps", pt->gbps);
			jsonw_double(w, "rfo_factor_model", m->rfo_factor);
			jsonw_double(w, "moved_gbps_model", m->moved_gbps);
			write_point_timing(w, pt);
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		jsonw_object_end(w);
	} else {
		jsonw_null(w, "mixes");
	}
	jsonw_string(w, "efficiency_note", r->efficiency_note);
	jsonw_array_begin(w, "efficiency");
	for (unsigned s = 0; r->efficiency_measured && s < BANDWIDTH_EFF_SPACINGS; s++) {
		const struct bandwidth_efficiency *e = &r->eff[s];

		jsonw_object_begin(w, NULL);
		JSONW_FIELDS(w, e, bandwidth_efficiency_fields);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	write_placement_json(w, &r->placement);
	jsonw_double(w, "seconds", r->seconds);
	jsonw_object_end(w);
}

void multicore_write_text(const void *result, FILE *f)
{
	const struct multicore_result *r = result;
	char fl[80];

	fprintf(f, "\nmulticore: K lanes of dependent loads on each of T threads at once, own chain each\n");
	fprintf(f, "  %.0f MiB per thread, %s pages requested, %.0f MiB of %.0f MiB huge (obtained); "
		"layout %s; floor %s\n", (double)r->per_thread_bytes / (1 << 20), r->pages_requested,
		(double)r->huge_bytes_obtained / (1 << 20), (double)r->total_bytes / (1 << 20),
		r->layout_ok ? "ok" : "FAILED", floor_text(r->noise_floor_pct, fl, sizeof(fl)));
	write_placement_text(&r->placement, f);
	fprintf(f, "  t1_single %.1f ns; %s\n", r->t1_single_ns, r->concurrency_definition);
	fprintf(f, "  %7s %5s %17s %15s %18s\n", "threads", "K", "concurrency_total", "accesses/ns",
		"slowest thread ns");
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct multicore_point *pt = &r->points[i];

		fprintf(f, "  %7u %5u %17.2f %15.4f %18.2f\n", pt->threads, pt->lanes, pt->concurrency_total,
			pt->accesses_per_ns, pt->slowest_thread_ns);
	}
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

void multicore_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct multicore_result *r = result;

	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, r, multicore_result_fields);
	JSONW_OBJECT_ARRAY(w, "points", r->points, r->npoints, multicore_point_fields);
	JSONW_OBJECT_ARRAY(w, "saturation", r->sat, r->ncounts, multicore_saturation_fields);
	jsonw_uint_or_null(w, "saturated_at_threads", r->saturated_at_threads, r->saturated_at_threads);
	jsonw_double(w, "rate_gain_last_threads", r->rate_gain_last);
	write_placement_json(w, &r->placement);
	jsonw_double(w, "seconds", r->seconds);
	jsonw_object_end(w);
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
		floor_text(r->noise_floor_pct, fl, sizeof(fl)));
	write_placement_text(&r->placement, f);
	fprintf(f, "  thread 0 chases; bandwidth = %s\n", r->bw_definition);
	fprintf(f, "  idle latency %.1f ns\n", r->idle_latency_ns);
	for (unsigned k = 0; k < r->ncurves; k++) {
		const struct loaded_curve *c = &r->curves[k];

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
			fprintf(f, "   %.1f / %.1f / %.1f / %.1f (%zu)\n", q.p50, q.p90, q.p99, q.max, q.n);
		}
		if (c->double_reached)
			fprintf(f, "  latency doubles at %.2f GB/s delivered\n", c->bw_at_double_latency_gbps);
		else
			fprintf(f, "  latency doubles: not reached (at most x%.2f, at %.2f GB/s)\n",
				c->max_latency_ratio, c->bw_at_max_ratio_gbps);
	}
}

void loaded_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct loaded_result *r = result;

	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, r, loaded_result_fields);
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
	write_placement_json(w, &r->placement);
	jsonw_double(w, "seconds", r->seconds);
	jsonw_object_end(w);
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

static const struct csv_col mc_cols[] = {
	{ "threads", "threads" }, { "lanes", "lanes" }, { "concurrency_total", "concurrency_total" },
	{ "accesses_per_ns", "accesses_per_ns" }, { "slowest_thread_ns_per_access", "slowest_thread_ns_per_access" },
};

static const struct csv_col curve_cols[] = {
	{ "delay_ns", "delay" }, { "idle", "idle" }, { "offered_gbps", "offered_gbps" },
	{ "bw_gbps", "bw_gbps" }, { "latency_ns", "latency_ns" },
};

int bandwidth_write_csv(const char *dir, const struct jsonr_value *doc)
{
	int rc;

	if ((rc = csv_write_rows(dir, "bandwidth_kernels", jsonr_get(doc, "bandwidth.kernels"), kernel_cols,
				 CSV_NCOLS(kernel_cols))))
		return rc;
	return csv_write_rows(dir, "bandwidth_efficiency", jsonr_get(doc, "bandwidth.efficiency"), eff_cols,
			      CSV_NCOLS(eff_cols));
}

int multicore_write_csv(const char *dir, const struct jsonr_value *doc)
{
	return csv_write_rows(dir, "multicore_points", jsonr_get(doc, "multicore.points"), mc_cols,
			      CSV_NCOLS(mc_cols));
}

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
