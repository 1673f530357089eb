/*
 * The JSON result document. Keys carry their unit (ns, bytes, gbps, pct);
 * the schema is documented key by key in docs/OUTPUT.md and is only ever
 * extended, never renamed, because other tools read it.
 */
#include "report/report.h"

#include "report/jsonw.h"
#include "report/app_out.h"
#include "report/bandwidth_out.h"
#include "report/latency_out.h"
#include "report/machine_out.h"
#include "report/noise_out.h"
#include "report/window_out.h"

#include <inttypes.h>
#include <stdio.h>

static void write_clock(struct jsonw *w, const struct clock_info *c)
{
	jsonw_object_begin(w, "clock");
	jsonw_string(w, "source", c->source);
	jsonw_double(w, "ticks_per_ns", c->ticks_per_ns);
	jsonw_bool(w, "invariant", c->invariant);
	jsonw_double(w, "calibration_spread_pct", c->calibration_spread_pct);
	jsonw_double(w, "resolution_ns", clock_ticks_to_ns(c, c->resolution_ticks));
	jsonw_double(w, "empty_region_ns", clock_ticks_to_ns(c, c->empty_region_ticks));
	jsonw_double(w, "min_region_ns", c->min_region_ns);
	jsonw_object_end(w);
}

static void write_team(struct jsonw *w, const char *key, const struct team_placement *pl)
{
	jsonw_array_begin(w, key);
	for (unsigned i = 0; i < pl->nthreads; i++)
		jsonw_int(w, NULL, pl->cpu[i]);
	jsonw_array_end(w);
}

/* Where each multi-threaded section ran: thread i was pinned to cpus[i]. */
static void write_thread_placement(struct jsonw *w, const struct report *r)
{
	jsonw_object_begin(w, "thread_placement");
	if (r->has_bandwidth)
		write_team(w, "bandwidth", &r->bandwidth.placement);
	if (r->has_multicore)
		write_team(w, "multicore", &r->multicore.placement);
	if (r->has_loaded)
		write_team(w, "loaded", &r->loaded.placement);
	jsonw_object_end(w);
}

static void write_provenance(struct jsonw *w, const struct report *r)
{
	const struct provenance *p = &r->prov;

	jsonw_object_begin(w, "provenance");
	jsonw_string(w, "binary_sha256", p->binary_sha256);
	jsonw_string(w, "compiler", p->compiler);
	jsonw_string(w, "cflags", p->cflags);
	jsonw_string(w, "cpu_model", r->topo.cpu_model);
	jsonw_string(w, "arch", p->arch);
	jsonw_string(w, "kernel", p->kernel);
	jsonw_string(w, "timestamp_utc", p->timestamp_utc);
	jsonw_string(w, "affinity", r->topo.affinity);
	jsonw_int(w, "cpu_pinned", r->topo.cpu);
	jsonw_int(w, "online_cpus", r->topo.online_cpus);
	write_clock(w, &r->clock);
	write_thread_placement(w, r);
	jsonw_uint(w, "seed", p->seed);
	jsonw_object_end(w);
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

void report_write_json(const struct report *r, FILE *f)
{
	struct jsonw w;

	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	jsonw_string(&w, "version", r->version);
	jsonw_int(&w, "schema_version", REPORT_SCHEMA_VERSION);
	write_provenance(&w, r);
	if (r->has_machine)
		machine_write_json(&w, &r->machine);
	if (r->has_noise)
		report_write_noise_json(&r->noise, &w, "noise");
	if (r->has_latency)
		report_write_latency_json(&r->latency, &w, "latency");
	if (r->nmlp == 1) {
		write_mlp(&w, "mlp", &r->mlp[0]);
	} else if (r->nmlp == 2) {
		jsonw_object_begin(&w, "mlp");
		write_mlp(&w, "small", &r->mlp[0]);
		write_mlp(&w, "huge", &r->mlp[1]);
		jsonw_object_end(&w);
	}
	if (r->has_bandwidth)
		bandwidth_write_json(&w, "bandwidth", &r->bandwidth);
	if (r->has_multicore)
		multicore_write_json(&w, "multicore", &r->multicore);
	if (r->has_loaded)
		loaded_write_json(&w, "loaded", &r->loaded);
	if (r->has_window)
		window_write_json(&w, &r->window);
	if (r->has_app)
		app_write_json(&r->app, &w, "app");
	jsonw_array_begin(&w, "warnings");
	for (int i = 0; i < r->nwarnings; i++)
		jsonw_string(&w, NULL, r->warnings[i]);
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	jsonw_finish(&w);
}
