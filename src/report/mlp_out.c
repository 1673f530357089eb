/*
 * Writers for the lanes (mlp) section: its setup, table and estimate as
 * text, and its JSON object. The table says which figures are throughput
 * and which are assumptions (one cache line per access), because a lanes
 * table read as latencies is the classic misreading of this experiment.
 */
#include "report/mlp_out.h"
#include "report/mlp_probe_out.h"
#include "report/csv.h"
#include "report/perm_out.h"
#include "report/plots.h"

#include "core/bounds.h"
#include "util/format.h"

#include <inttypes.h>
#include <math.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field mlp_estimate_fields[] = {
	JSONW_FIELD(DOUBLE, "fit_latency_ns", struct mlp_estimate, fit_latency_ns),
	JSONW_FIELD(DOUBLE, "fit_saturation_lanes", struct mlp_estimate, fit_saturation_lanes),
	JSONW_FIELD(DOUBLE, "fit_plateau_concurrency", struct mlp_estimate, fit_plateau_concurrency),
	JSONW_FIELD(DOUBLE, "fit_uncertainty", struct mlp_estimate, fit_uncertainty),
	JSONW_FIELD(DOUBLE, "fit_rms_log_residual", struct mlp_estimate, fit_rms_log_residual),
	JSONW_FIELD(DOUBLE, "peak_concurrency", struct mlp_estimate, peak_concurrency),
	JSONW_FIELD(UINT, "peak_lanes", struct mlp_estimate, peak_lanes),
	JSONW_FIELD(UINT, "plateau_from_lanes", struct mlp_estimate, plateau_from_lanes),
	JSONW_FIELD(BOOL, "flat_at_end", struct mlp_estimate, flat_at_end),
	JSONW_FIELD(UINT, "repeats", struct mlp_estimate, repeats),
	JSONW_FIELD(UINT, "repeats_agreeing", struct mlp_estimate, repeats_agreeing),
};

static const struct jsonw_field mlp_level_setup_fields[] = {
	JSONW_FIELD(BOOL, "measured", struct mlp_level, measured),
	JSONW_FIELD(BOOL, "from_main_sweep", struct mlp_level, from_main_sweep),
	JSONW_FIELD(BOOL, "resident", struct mlp_level, resident),
	JSONW_FIELD(BOOL, "layout_ok", struct mlp_level, layout_ok),
	JSONW_FIELD(DOUBLE, "t1_ns", struct mlp_level, t1_ns),
};

static const struct jsonw_field mlp_level_fit_fields[] = {
	JSONW_FIELD(DOUBLE, "ks", struct mlp_level, ks),
	JSONW_FIELD(DOUBLE, "ks_uncertainty", struct mlp_level, ks_uncertainty),
	JSONW_FIELD(DOUBLE, "plateau_concurrency", struct mlp_level, plateau_concurrency),
	JSONW_FIELD(DOUBLE, "peak_concurrency", struct mlp_level, peak_concurrency),
	JSONW_FIELD(UINT, "peak_lanes", struct mlp_level, peak_lanes),
	JSONW_FIELD(UINT, "plateau_from_lanes", struct mlp_level, plateau_from_lanes),
	JSONW_FIELD(DOUBLE, "noise_floor_pct", struct mlp_level, noise_floor_pct),
};

static const struct jsonw_field mlp_payload_case_fields[] = {
	JSONW_FIELD(STRING, "case", struct mlp_payload_case, what),
	JSONW_FIELD(UINT, "payload_bytes", struct mlp_payload_case, payload_bytes),
	JSONW_FIELD(UINT, "spacing_bytes", struct mlp_payload_case, spacing_bytes),
	JSONW_FIELD(UINT, "shift_bytes", struct mlp_payload_case, shift_bytes),
	JSONW_FIELD(UINT, "lines_per_node", struct mlp_payload_case, lines_per_node),
	JSONW_FIELD(BOOL, "layout_ok", struct mlp_payload_case, layout.ok),
	JSONW_FIELD(UINT, "distinct_lines_walked", struct mlp_payload_case, layout.distinct_lines_walked),
	JSONW_FIELD(UINT, "expected_lines", struct mlp_payload_case, layout.expected_lines),
	JSONW_FIELD(DOUBLE, "t1_ns", struct mlp_payload_case, t1_ns),
	JSONW_FIELD(DOUBLE, "ks", struct mlp_payload_case, ks),
	JSONW_FIELD(DOUBLE, "ks_uncertainty", struct mlp_payload_case, ks_uncertainty),
	JSONW_FIELD(DOUBLE, "plateau_concurrency", struct mlp_payload_case, plateau_concurrency),
	JSONW_FIELD(DOUBLE, "best_ns_per_access", struct mlp_payload_case, best_ns),
	JSONW_FIELD(UINT, "best_lanes", struct mlp_payload_case, best_lanes),
	JSONW_FIELD(DOUBLE, "useful_gbps", struct mlp_payload_case, useful_gbps),
	JSONW_FIELD(DOUBLE, "line_gbps", struct mlp_payload_case, line_gbps),
};

static void write_mlp_setup(const struct mlp_result *m, FILE *f)
{
	const struct layout_check *l = &m->layout;
	char ws[32], huge[32], total[32], fl[96];

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
	perm_write_text(f, m->perm_seed, m->perm_hash, NULL);
	fprintf(f, "  %zu accesses per timed region; %u trials x %u repeats per point, visited round-robin\n",
		m->accesses_per_point, m->trials_per_repeat, m->estimate.repeats);
	fprintf(f, "  noise floor of the min-of-3 estimator: %s: its tolerance\n",
		report_format_floor(fl, sizeof(fl), m->noise_floor_pct, m->floor_from_run));
}

const char *mlp_fall_clause(char *buf, size_t len, const char *whose, double speedup, unsigned lanes)
{
	snprintf(buf, len, "; a load's latency falls after traffic here (%s control ran %.2fx its K = 1 speed after "
		 "K = %u)", whose, speedup, lanes);
	return buf;
}

/* What the bound check did: the re-time, and the points it left marked. */
static void write_bounds_note(const struct mlp_result *m, FILE *f)
{
	double fall;
	unsigned at;

	if (!m->nimpossible) {
		if (m->retimed_points)
			fprintf(f, "  re-timed once: K = 1 and %u point(s) whose speedup exceeded K; the row(s) above are\n"
				   "  the re-timed figures, now within their bounds.\n", m->retimed_points - 1);
		return;
	}
	fprintf(f, "  IMPOSSIBLE: %u speedup(s) above K (K lanes overlap at most K misses) after K = 1 and\n"
		   "  them were re-timed once; left out of the fit, the rules, the peak and the plateau.\n",
		m->nimpossible);
	if (mlp_latency_falls_after_traffic(m, &fall, &at))
		fprintf(f, "  the state: the control ran %.2fx its K = 1 speed right after K = %u lanes: a load's\n"
			   "  latency here falls after traffic, so t(1) (idle) against t(K) (loaded) can pass K.\n",
			fall, at);
}

static void write_mlp_table(const struct mlp_result *m, FILE *f)
{
	unsigned c = 0;

	/* One column: speedup and the Little's-law concurrency are one number,
	 * t(1)/t(K); printing it twice read as two measurements. */
	fprintf(f, "\n  %5s  %10s  %7s  %8s  %8s  %10s  %12s\n", "lanes", "time/acc", "speedup",
		"useful", "lines*", "lane walk", "control");
	fprintf(f, "  %5s  %10s  %7s  %8s  %8s  %10s  %12s\n", "K", "ns thrput", "t1/tK",
		"GB/s", "GB/s", "KiB/region", "ns/acc");
	for (unsigned i = 0; i < m->npoints; i++) {
		const struct mlp_point *p = &m->sweep[i];

		fprintf(f, "  %5u  %10.3f  %7.2f  %8.3f  %8.3f  %10.1f", p->lanes, p->ns_per_access,
			p->speedup, p->useful_gbps, p->line_gbps,
			(double)(p->steps_per_lane * m->spacing_bytes) / 1024.0);
		if (c < m->ncontrol && m->control[c].lanes == p->lanes)
			fprintf(f, "  %12.3f", m->control[c++].ns_per_access);
		else if (p->impossible)
			fprintf(f, "  %12s", "");
		if (p->impossible)
			fprintf(f, "  IMPOSSIBLE: t1/tK above K = %u (bound %.2f with the floor)", p->lanes,
				bounds_limit(p->lanes, bounds_ratio_floor_pct(m->noise_floor_pct)));
		fputc('\n', f);
	}
	write_bounds_note(m, f);
	fprintf(f, "  time/acc: elapsed time / logical accesses, the reciprocal of throughput; a latency only at K=1.\n"
		   "  speedup: t(1)/t(K); read by Little's law it is also the accesses in flight if each took t(1)\n"
		   "  (concurrency_littles_law in JSON): an inference from timing, not a count of misses.\n"
		   "  useful: 8 B per access; lines*: %zu B per access, an assumption (nothing counts lines here).\n"
		   "  control: one chain hopped K times per iteration (same loop overhead, no overlap), over a quarter of\n"
		   "  the accesses (each is a whole miss).\n"
		   "  GB/s are decimal (1e9 B/s).\n",
		m->line_bytes);
}

static void write_mlp_estimate(const struct mlp_result *m, FILE *f)
{
	const struct mlp_estimate *e = &m->estimate;

	fprintf(f, "\n  estimate:\n");
	char unc[48];

	if (isfinite(e->fit_uncertainty))
		snprintf(unc, sizeof(unc), " +/- %.1f", e->fit_uncertainty);
	else
		snprintf(unc, sizeof(unc), " (no floor known: no uncertainty)");
	fprintf(f, "    fit t(K) = max(L/K, L/Ks):  Ks = %.1f%s lanes, L = %.1f ns, "
		"plateau concurrency %.1f (rms residual %.1f%%)\n",
		e->fit_saturation_lanes, unc, e->fit_latency_ns,
		e->fit_plateau_concurrency, 100.0 * e->fit_rms_log_residual);
	if (m->nimpossible)
		fprintf(f, "    from %u of the %u K: the others' speedups are IMPOSSIBLE (above K)\n",
			m->npoints - m->nimpossible, m->npoints);
	fprintf(f, "    peak concurrency observed:  %.1f at K = %u\n", e->peak_concurrency, e->peak_lanes);
	fprintf(f, "    plateau from:               K = %u (first K within the floor of the best time)\n",
		e->plateau_from_lanes);
	fprintf(f, "    curve flat over the last 8 K: %s\n",
		e->flat_at_end ? "yes" : "NO: still improving at the cap; raise --max-lanes");
	fprintf(f, "    older tools' rules:         last K before a lane adds <5%%: %zu, <1%%: %zu "
		"(noise-sensitive; shown for comparison)\n", e->rule_5pct_lanes, e->rule_1pct_lanes);
	fprintf(f, "    repeats: %u, agreeing on Ks within 1 lane or 10%%: %u (Ks:", e->repeats,
		e->repeats_agreeing);
	for (unsigned i = 0; i < e->repeats; i++)
		fprintf(f, " %.1f", e->repeat_saturation_lanes[i]);
	fprintf(f, ")\n  setup %.1f s, sweep %.1f s\n", m->setup_seconds, m->sweep_seconds);
}

/* core: the lanes arm's point gets the kernel's counts and its
 * L1-resident time; NULL for the control arm. */
static void write_point(struct jsonw *w, const struct mlp_point *pt, size_t spacing_bytes,
			const struct mlp_core *core)
{
	jsonw_object_begin(w, NULL);
	jsonw_uint(w, "lanes", pt->lanes);
	jsonw_uint(w, "steps_per_lane", pt->steps_per_lane);
	jsonw_uint(w, "lane_walk_bytes", pt->steps_per_lane * spacing_bytes);
	jsonw_double(w, "ns_per_access", pt->ns_per_access);
	jsonw_double(w, "speedup", pt->speedup);
	jsonw_double(w, "concurrency_littles_law", pt->concurrency);
	jsonw_double(w, "concurrency", pt->concurrency);  /* deprecated: concurrency_littles_law */
	jsonw_double(w, "useful_gbps", pt->useful_gbps);
	jsonw_double(w, "line_gbps", pt->line_gbps);
	if (pt->impossible) {
		jsonw_bool(w, "impossible", true);
		jsonw_double(w, "speedup_bound", pt->lanes);
	}
	jsonw_double_array(w, "trials_ns", pt->trials_ns, pt->ntrials);
	if (core && core->measured && pt->lanes >= 1 && pt->lanes <= core->npoints) {
		unsigned i = pt->lanes - 1;

		if (core->instructions_per_access[i] > 0) {
			jsonw_double(w, "instructions_per_access", core->instructions_per_access[i]);
			jsonw_double(w, "loads_per_access", core->loads_per_access[i]);
			jsonw_double(w, "stores_per_access", core->stores_per_access[i]);
		} else {
			jsonw_null(w, "instructions_per_access");
			jsonw_null(w, "loads_per_access");
			jsonw_null(w, "stores_per_access");
		}
		jsonw_double(w, "core_ns_per_access", core->ns_per_access[i]);
	}
	jsonw_object_end(w);
}

static void write_core(struct jsonw *w, const struct mlp_core *c)
{
	jsonw_object_begin(w, "core");
	jsonw_bool(w, "measured", c->measured);
	jsonw_uint(w, "chain_bytes", c->chain_bytes);
	if (c->issue_per_ns > 0) {
		jsonw_double(w, "issue_per_ns", c->issue_per_ns);
		jsonw_uint(w, "issue_at_lanes", c->issue_at_lanes);
	} else {
		jsonw_null(w, "issue_per_ns");
		jsonw_null(w, "issue_at_lanes");
	}
	jsonw_string(w, "count_source", c->count_source ? c->count_source : "not run");
	jsonw_string(w, "method", "each lanes_K on an L1-resident chain (every load hits): core_ns_per_access; "
		     "issue_per_ns is the best instructions_per_access / core_ns_per_access over K");
	jsonw_object_end(w);
}

static void write_estimate(struct jsonw *w, const struct mlp_estimate *e)
{
	jsonw_object_begin(w, "estimate");
	jsonw_uint(w, "rule_5pct_lanes", e->rule_5pct_lanes);
	jsonw_uint(w, "rule_1pct_lanes", e->rule_1pct_lanes);
	jsonw_string(w, "fit_model", "t(K) = max(L/K, L/Ks), least squares on log t");
	JSONW_FIELDS(w, e, mlp_estimate_fields);
	jsonw_double_array(w, "repeat_saturation_lanes", e->repeat_saturation_lanes, e->repeats);
	jsonw_object_end(w);
}

static void level_members(struct jsonw *w, const void *e)
{
	const struct mlp_level *lv = e;

	jsonw_string(w, "level", lv->name);
	jsonw_uint(w, "working_set_bytes", lv->working_set_bytes);
	jsonw_string(w, "size_from", lv->size_from);
	jsonw_string_or_null(w, "size_source", lv->size_source, lv->size_source);
	jsonw_string(w, "footprint_held", "total");
	JSONW_FIELDS(w, lv, mlp_level_setup_fields);
	jsonw_bool(w, "saturated", mlp_level_saturated(lv));
	JSONW_FIELDS(w, lv, mlp_level_fit_fields);
	jsonw_double_array(w, "ns_per_access", lv->ns_per_access, lv->npoints);
	jsonw_double_array(w, "concurrency_littles_law", lv->concurrency, lv->npoints);
	jsonw_double_array(w, "concurrency", lv->concurrency, lv->npoints);  /* deprecated */
	jsonw_double(w, "seconds", lv->seconds);
	jsonw_bool(w, "non_monotonic", lv->non_monotonic);
	if (lv->non_monotonic)
		jsonw_double(w, "fall_pct", lv->fall_pct);
}

static void write_levels(struct jsonw *w, const struct mlp_arms *a)
{
	JSONW_OBJECT_ARRAY_EACH(w, "levels", a->levels, a->nlevels, level_members);
	jsonw_double(w, "levels_seconds", a->levels_seconds);
}

static void write_levels_text(const struct mlp_arms *a, FILE *f)
{
	fprintf(f, "\n  levels: the same sweep at one working set per level; the total footprint (the whole cycle)\n"
		   "  is held at each size and every lane walks its own stretch of it. Each size is inside the latency\n"
		   "  curve's plateau for that cache where the curve shows one, else half the OS's claim (size from).\n"
		   "  Ks and the plateau are a saturation of this kernel at that level, not a queue's capacity:\n"
		   "  where they move between levels, no single queue set them.\n");
	fprintf(f, "  %-20s %11s %9s %14s %9s %11s  %s\n", "level", "working set", "t(1) ns", "Ks (lanes)", "plateau",
		"peak (K)", "size from");
	for (unsigned i = 0; i < a->nlevels; i++) {
		const struct mlp_level *lv = &a->levels[i];
		char ws[32], ks[32], peak[32];

		report_format_bytes(ws, sizeof(ws), lv->working_set_bytes);
		if (mlp_level_saturated(lv) && isfinite(lv->ks_uncertainty))
			snprintf(ks, sizeof(ks), "%.1f +/- %.1f", lv->ks, lv->ks_uncertainty);
		else if (mlp_level_saturated(lv))
			snprintf(ks, sizeof(ks), "%.1f", lv->ks);
		else
			snprintf(ks, sizeof(ks), "not saturated");
		snprintf(peak, sizeof(peak), "%.1f (%u)", lv->peak_concurrency, lv->peak_lanes);
		fprintf(f, "  %-20s %11s %9.2f %14s %9.1f %11s  %s\n", lv->name, ws, lv->t1_ns, ks,
			lv->plateau_concurrency, peak, lv->size_from);
	}
	for (unsigned i = 0; i < a->nlevels; i++)
		if (a->levels[i].non_monotonic)
			fprintf(f, "  NON-MONOTONIC: %s t(1) %.2f ns is %.1f%% below a smaller level's: a larger set cannot "
				"reach a nearer cache, one of the two rows is suspect\n", a->levels[i].name,
				a->levels[i].t1_ns, a->levels[i].fall_pct);
	for (unsigned i = 0; i < a->nlevels; i++)
		if (a->levels[i].measured && !mlp_level_saturated(&a->levels[i]))
			fprintf(f, "  %s: not saturated: the peak %.1f (K = %u) is beyond its plateau %.1f by more than two\n"
				"  floors (%.1f%%): the curve still rises or alternates, so no Ks is given for it.\n",
				a->levels[i].name, a->levels[i].peak_concurrency, a->levels[i].peak_lanes,
				a->levels[i].plateau_concurrency, 100 * mlp_level_floor_frac(&a->levels[i]));
	for (unsigned i = 0; i < a->nlevels; i++)
		if (!a->levels[i].from_main_sweep && !a->levels[i].resident)
			fprintf(f, "  %s: t(1) is not under half of memory's: the chain did not stay in that cache (the\n"
				"  last cache is shared with the other CPUs), so its row is not that cache's figure.\n",
				a->levels[i].name);
	fprintf(f, "  extra level sweeps: %.1f s\n", a->levels_seconds);
}

/* A read-size case: its lane counts as numbers, beside its times. */
static void read_size_members(struct jsonw *w, const void *e)
{
	const struct mlp_payload_case *c = e;
	double lanes[MLP_PAYLOAD_KS];

	for (unsigned j = 0; j < c->nk; j++)
		lanes[j] = c->lanes[j];
	JSONW_FIELDS(w, c, mlp_payload_case_fields);
	jsonw_double_array(w, "lanes", lanes, c->nk);
	jsonw_double_array(w, "ns_per_access", c->ns_per_access, c->nk);
}

static void write_read_size(struct jsonw *w, const struct mlp_payload *p)
{
	JSONW_OBJECT_ARRAY_EACH(w, "read_size", p->c, p->ncases, read_size_members);
	jsonw_object_begin(w, "read_size_setup");
	jsonw_uint(w, "working_set_bytes", p->working_set_bytes);
	jsonw_uint(w, "huge_bytes_obtained", p->huge_bytes_obtained);
	jsonw_uint(w, "total_bytes", p->total_bytes);
	jsonw_string(w, "kernel", "payload_walk: lanes in an array, each hop reads payload_bytes from its node; "
		     "compare cases with each other, not with the sweep's generated kernels");
	jsonw_double(w, "seconds", p->seconds);
	jsonw_object_end(w);
}

static void write_read_size_text(const struct mlp_payload *p, FILE *f)
{
	char ws[32];

	report_format_bytes(ws, sizeof(ws), p->working_set_bytes);
	fprintf(f, "\n  read size and spacing (%s, one kernel for every case: compare rows with each other):\n", ws);
	fprintf(f, "  %7s %7s %5s %5s %8s %14s %8s %8s %8s  %s\n", "payload", "spacing", "shift", "lines", "t(1) ns",
		"Ks (lanes)", "best ns", "useful", "lines*", "case (layout check)");
	for (unsigned i = 0; i < p->ncases; i++) {
		const struct mlp_payload_case *c = &p->c[i];
		char ks[32];

		snprintf(ks, sizeof(ks), "%.1f +/- %.1f", c->ks, c->ks_uncertainty);
		fprintf(f, "  %6zuB %6zuB %4zuB %5zu %8.1f %14s %8.2f %8.2f %8.2f  %s (%zu lines of %zu: %s)\n",
			c->payload_bytes, c->spacing_bytes, c->shift_bytes, c->lines_per_node, c->t1_ns, ks, c->best_ns,
			c->useful_gbps, c->line_gbps, c->what, c->layout.distinct_lines_walked, c->layout.expected_lines,
			c->layout.ok ? "ok" : "FAILED");
	}
	fprintf(f, "  useful: payload bytes / best time, GB/s; lines*: lines per node x line / best time (an "
		"assumption).\n  setup and sweep %.1f s\n", p->seconds);
}

static void write_mlp(struct jsonw *w, const char *key, const struct mlp_result *m, const struct mlp_arms *a)
{
	const struct layout_check *l = &m->layout;

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
	perm_write_layout_check_json(w, l, true);
	perm_write_json(w, m->perm_seed, m->perm_hash, NULL);
	jsonw_string(w, "quantity", "throughput: elapsed ns per logical 8-byte load (reciprocal of access rate)");
	jsonw_uint(w, "accesses_per_point", m->accesses_per_point);
	jsonw_uint(w, "trials_per_repeat", m->trials_per_repeat);
	jsonw_double(w, "noise_floor_pct", m->noise_floor_pct);
	jsonw_string(w, "noise_floor_source", report_floor_source(m->noise_floor_pct, m->floor_from_run));
	jsonw_string(w, "noise_floor_method",
		     "upper quartile over lane counts of the spread (max/min - 1) of min-of-3 trial groups");
	jsonw_uint(w, "impossible_points", m->nimpossible);
	jsonw_uint(w, "retimed_points", m->retimed_points);
	jsonw_array_begin(w, "sweep");
	for (unsigned i = 0; i < m->npoints; i++)
		write_point(w, &m->sweep[i], m->spacing_bytes, &m->core);
	jsonw_array_end(w);
	jsonw_array_begin(w, "control_unrolled");
	for (unsigned i = 0; i < m->ncontrol; i++)
		write_point(w, &m->control[i], m->spacing_bytes, NULL);
	jsonw_array_end(w);
	write_estimate(w, &m->estimate);
	write_core(w, &m->core);
	mlp_probe_write_json(w, &m->probe);
	if (a && a->nlevels)
		write_levels(w, a);
	if (a && a->has_read_size)
		write_read_size(w, &a->read_size);
	jsonw_object_begin(w, "timing");
	jsonw_double(w, "setup_s", m->setup_seconds);
	jsonw_double(w, "sweep_s", m->sweep_seconds);
	jsonw_object_end(w);
	jsonw_object_end(w);
}

void mlp_write_text(const void *result, FILE *f)
{
	const struct mlp_arms *a = result;

	for (int i = 0; i < a->n; i++) {
		write_mlp_setup(&a->arm[i], f);
		write_mlp_table(&a->arm[i], f);
		write_mlp_estimate(&a->arm[i], f);
		mlp_probe_write_text(&a->arm[i].probe, f);
	}
	if (a->nlevels)
		write_levels_text(a, f);
	if (a->has_read_size)
		write_read_size_text(&a->read_size, f);
}

/* One arm is the object itself; --pages both nests them as small and huge. */
void mlp_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct mlp_arms *a = result;

	if (a->n == 1) {
		write_mlp(w, key, &a->arm[0], a);
	} else if (a->n == 2) {
		jsonw_object_begin(w, key);
		write_mlp(w, "small", &a->arm[0], a);
		write_mlp(w, "huge", &a->arm[1], NULL);
		jsonw_object_end(w);
	}
}

static const struct csv_col sweep_cols[] = {
	{ "lanes", "lanes" }, { "steps_per_lane", "steps_per_lane" }, { "lane_walk_bytes", "lane_walk_bytes" },
	{ "ns_per_access", "ns_per_access" }, { "speedup", "speedup" },
	{ "concurrency_littles_law", "concurrency_littles_law" },
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
	size_t na = mlp_arms_of(doc, arms, pages);
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
