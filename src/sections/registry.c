/*
 * The registry: one row per command word, in the order --help lists them
 * and the full report runs and writes them (what the machine permits, how
 * noisy the instrument is, then the measurements that use that noise).
 *
 * Adding a section: its experiment (src/exp/NAME.{c,h}, with a result type
 * and a *_free if it owns heap memory), its writers (src/report/NAME_out.{c,h}:
 * text and JSON, CSV if it has tables), and here one row plus the small
 * static functions the row points at (options and plan into parameters,
 * results into the report). Document its JSON key in docs/OUTPUT.md; the
 * registry test fails until the row has help, a JSON writer and that key.
 * Its headline figures, if any, are one row in report/summary.c's sources
 * (read from its JSON; absent sections show as "not run").
 * Nothing else (main.c, cli.c, plan.c, text.c, json.c, csv.c) names it.
 */
#include "sections/registry.h"

#include "exp/app/app.h"
#include "exp/app/bzip2.h"
#include "exp/bandwidth.h"
#include "exp/c2c.h"
#include "exp/latency.h"
#include "exp/loaded.h"
#include "exp/mlp.h"
#include "exp/multicore.h"
#include "exp/noise.h"
#include "exp/tlb.h"
#include "exp/window.h"
#include "sections/compare.h"
#include "sections/model.h"
#include "sections/qmodel.h"
#include "sections/plan_facts.h"
#include "sections/trace.h"
#include "exp/machine.h"
#include "sections/plan.h"
#include "exp/policy.h"
#include "report/app_out.h"
#include "util/atomic.h"
#include "report/app_bzip2_out.h"
#include "bzip2/libbz2_ref.h"
#include "report/bandwidth_out.h"
#include "report/c2c_out.h"
#include "report/csv.h"
#include "util/format.h"
#include "report/html.h"
#include "report/latency_out.h"
#include "report/machine_out.h"
#include "report/mlp_out.h"
#include "report/noise_out.h"
#include "report/agree.h"
#include "report/tlb_out.h"
#include "report/window_out.h"
#include "exp/result.h"
#include "exp/app/sais.h"
#include "core/team.h"
#include "core/topo.h"
#include "util/usage.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool asked_for(const struct section_run *s, const char *name)
{
	return !strcmp(s->o->command->name, name);
}

static void progress_done(const struct section_run *s)
{
	if (s->progress && s->progress_done)
		s->progress_done();
}

/* A threaded section's err says what failed; -errno alone otherwise. */
static int threaded_failed(struct section_run *s, const char *name, int rc, const char *why)
{
	if (rc != -EINTR && rc != -EPROTO && why[0])
		snprintf(s->err, sizeof(s->err), "%s: %s (%s)", name, why, strerror(-rc));
	return rc;
}

/* The budget's sizes and trials, when the run has one (main.c measures
 * the rates and fits them); NULL: each section's own defaults. */
static const struct budget *budget_of(const struct section_run *s)
{
	return s->plan && s->plan->has_budget ? &s->plan->budget : NULL;
}

/* ---- machine ---- */

static int machine_section_run(struct section_run *s, void *result)
{
	struct machine_info *m = result;
	int rc = machine_probe(m, &s->r->clock);

	if (rc)
		return rc;
	/* Later sections turn ns into cycles with this range. */
	s->r->has_core_clock = !m->core_clock_rc;
	s->r->core_clock = m->core_clock;
	return 0;
}

static void machine_section_text(const void *res, FILE *f)
{
	machine_write_text(res, f);
}

static void machine_section_json(const void *res, struct jsonw *w, const char *key)
{
	(void)key;  /* machine_write_json names its own object "machine" */
	machine_write_json(w, res);
}

/* ---- noise ---- */

static int noise_section_run(struct section_run *s, void *result)
{
	struct noise_result *n = result;
	struct noise_params np = {.clock = &s->r->clock, .seed = s->o->seed, .stop = s->stop};
	int rc = noise_run(&np, n);

	if (rc)
		return rc;
	/* The run's one floor: every later section that names its floor as the
	 * run's reads it from here. */
	s->r->has_noise_floor = true;
	s->r->noise_floor_pct = n->floor_pct;
	s->r->noise_floor_from = n->floor_from;
	return 0;
}

static void noise_section_text(const void *res, FILE *f)
{
	report_write_noise_text(res, f);
}

static void noise_section_json(const void *res, struct jsonw *w, const char *key)
{
	report_write_noise_json(res, w, key);
}

/* ---- tlb ---- */

static int tlb_section_run(struct section_run *s, void *result)
{
	struct tlb_params tp = {
		.noise_floor_pct = s->r->noise_floor_pct,
		.seed = s->o->seed,
		.clock = &s->r->clock,
		.stop = s->stop,
		.progress = s->progress,
		.progress_ctx = s,
	};
	int rc;

	s->label = "tlb";
	/* --quick: two points per octave and three trials still find each
	 * step within a factor of 1.4. */
	if (s->o->quick) {
		tp.points_per_octave = 2;
		tp.trials = 3;
	}
	if (budget_of(s)) {
		tp.points_per_octave = budget_of(s)->tlb_points_per_octave;
		tp.trials = budget_of(s)->tlb_trials;
	}
	rc = tlb_run(&tp, result);
	progress_done(s);
	return rc;
}

static void tlb_section_text(const void *res, FILE *f)
{
	report_write_tlb_text(res, f);
}

static void tlb_section_json(const void *res, struct jsonw *w, const char *key)
{
	report_write_tlb_json(res, w, key);
}

/* A row's result when it ran in this report, else NULL. */
static const void *result_of(const struct report *r, const char *name)
{
	const struct section *row = registry_find(name);

	return row ? r->results[registry_index(row)] : NULL;
}

/* ---- latency ---- */

/* The huge-page TLB steps, as working-set bytes, for latency's level ends
 * and knees: its chains live in 2 MiB pages. */
static void fill_tlb_steps(const struct tlb_result *t, struct latency_params *lp)
{
	const struct tlb_series *s;

	if (!t || t->nseries < 2)
		return;
	s = &t->series[1];
	for (unsigned k = 0; k < s->nlevels && lp->ntlb < LATENCY_TLB_MAX; k++) {
		lp->tlb_reach_bytes[lp->ntlb] = s->levels[k].reach_bytes;
		lp->tlb_extra_ns[lp->ntlb++] = s->levels[k].extra_ns;
	}
}

/* Its largest size: the budget's (the memory set of policy.h, or --size),
 * else the plan's working set. */
static size_t latency_max_bytes(const struct plan *p)
{
	return p->has_budget ? p->budget.latency_max_bytes : p->working_set_bytes;
}

/* latency holds a huge-page and a small-page arena of its largest size at once. */
static int latency_section_plan(struct section_run *s, char *err, size_t errlen)
{
	size_t max = latency_max_bytes(s->plan), peak = 2 * max + max / 4;
	size_t avail = s->r->topo.mem_available_bytes;
	char a[32], b[32];

	if (!avail || peak <= avail)
		return 0;
	report_format_bytes(a, sizeof(a), peak);
	report_format_bytes(b, sizeof(b), avail);
	return usage_fail(err, errlen, "--size: this working set needs %s but only %s is available "
		    "(expected a smaller size; MemAvailable in /proc/meminfo)", a, b);
}

static void fill_reported_caches(const struct topo *t, size_t *out, int cap)
{
	int n = 0;

	for (int level = 1; level <= 4 && n < cap - 1; level++)
		for (int i = 0; i < t->ncaches; i++)
			if (t->caches[i].level == level && strcmp(t->caches[i].type, "Instruction") &&
			    t->caches[i].size_bytes && n < cap - 1)
				out[n++] = t->caches[i].size_bytes;
	out[n] = 0;
}

static int latency_section_run(struct section_run *s, void *result)
{
	struct latency_result *l = result;
	struct report *r = s->r;
	struct latency_params lp = {
		.max_bytes = latency_max_bytes(s->plan),
		.points_near_caches = true,
		.line_bytes = r->topo.line_bytes,
		.noise_floor_pct = r->noise_floor_pct,
		.seed = s->o->seed,
		.clock = &r->clock,
		.stop = s->stop,
		.progress = s->progress,
		.progress_ctx = s,
	};
	struct machine_core_clock cc;
	int rc;

	s->label = "latency";
	fill_reported_caches(&r->topo, lp.reported_cache_bytes, LATENCY_CACHES_MAX);
	fill_tlb_steps(result_of(r, "tlb"), &lp);
	/* --quick: two points per octave, three trials, one steady-state visit. */
	if (s->o->quick) {
		lp.points_per_octave = 2;
		lp.trials = 3;
		lp.steady_visits = 1;
	}
	if (budget_of(s)) {
		lp.points_per_octave = budget_of(s)->latency_points_per_octave;
		lp.trials = budget_of(s)->latency_trials;
		lp.steady_visits = budget_of(s)->latency_steady_visits;
		lp.points_near_caches = budget_of(s)->latency_near_caches;
		lp.warm_max_bytes = budget_of(s)->latency_warm_max_bytes;
		lp.passes = budget_of(s)->latency_passes;
		lp.warm_walks = budget_of(s)->latency_warm_walks;
		/* region_hops stays latency.c's own: it raises the default where the
		 * clock's minimum region needs more loads (the budget prices 65536). */
	}
	/* Cycles need a core-clock estimate: the machine section's when it ran,
	 * else a quick one here (35 ms). */
	if (r->has_core_clock)
		cc = r->core_clock;
	else if (machine_estimate_core_clock(&r->clock, MACHINE_CLOCK_SAMPLES, MACHINE_CLOCK_SAMPLE_MS, &cc))
		cc.min_mhz = cc.max_mhz = 0;
	lp.core_mhz_min = cc.min_mhz;
	lp.core_mhz_max = cc.max_mhz;
	rc = latency_run(&lp, l);
	progress_done(s);
	if (rc)
		return rc;
	if (l->nfalls_found)
		result_warn(r, "latency: the curve falls where it must rise at %zu point(s): a probable layout or "
			    "measurement fault, not smoothed", l->nfalls_found);
	for (unsigned i = 0; i < l->npoints; i++) {
		const struct latency_point *p = &l->points[i];
		char sz[32];

		if (!p->steady_checked || p->steady_ok)
			continue;
		report_format_bytes(sz, sizeof(sz), p->size_bytes);
		result_warn(r, "latency: %s (%s pages) is not steady: %.2f ns, %.2f ns after a warm start over regions "
			    "4x longer", sz, arena_request_name(p->pages), p->chase_ns, p->steady_long_ns);
	}
	for (unsigned i = 0; i < l->nrefs; i++) {
		char sz[32];

		if (l->refs[i].agrees)
			continue;
		report_format_bytes(sz, sizeof(sz), l->refs[i].size_bytes);
		result_warn(r, "latency: level %u at %s: the curve reads %.2f ns, a back-to-back warm chase %.2f ns "
			    "(beyond the %.1f%% tolerance)", l->refs[i].level, sz, l->refs[i].curve_ns, l->refs[i].warm_ns,
			    l->tolerance_pct);
	}
	return 0;
}

static void latency_section_text(const void *res, FILE *f)
{
	report_write_latency_text(res, f);
}

static void latency_section_json(const void *res, struct jsonw *w, const char *key)
{
	report_write_latency_json(res, w, key);
}

/* ---- mlp ---- */

/* --levels: the same sweep (one repeat) at a working set in the L2 and in
 * the last cache; the main sweep is the level past it. */
static int mlp_levels_section_run(struct section_run *s, struct mlp_arms *a)
{
	const struct plan *plan = s->plan;
	const struct options *o = s->o;
	struct report *r = s->r;
	struct mlp_result *m = calloc(1, sizeof(*m));
	uint64_t w0 = clock_wall_ns();
	int rc = 0;

	if (!m)
		return -ENOMEM;
	a->nlevels = mlp_levels_plan_curve(&r->topo, result_of(r, "latency"), plan->working_set_bytes, a->levels);
	for (unsigned i = 0; i < a->nlevels && !rc; i++) {
		struct mlp_level *lv = &a->levels[i];
		struct mlp_params mp = {
			.working_set_bytes = lv->working_set_bytes,
			.spacing_bytes = plan->spacing_bytes,
			.line_bytes = r->topo.line_bytes,
			.pages = plan->pages[0],
			.max_lanes = o->max_lanes,
			.repeats = 1,
			.trials = o->trials ? o->trials : budget_of(s) ? budget_of(s)->mlp_trials : POLICY_MLP_TRIALS_DEFAULT,
			.accesses = plan->accesses,
			.seed = o->seed,
			.clock = &r->clock,
			.stop = s->stop,
		};

		if (lv->from_main_sweep) {
			mlp_level_take(lv, &a->arm[0]);
			continue;
		}
		s->label = "mlp (levels)";
		rc = mlp_run(&mp, m);
		if (!rc)
			mlp_level_take(lv, m);
		else if (rc == -EPROTO)
			snprintf(s->err, sizeof(s->err), "mlp --levels: the layout check failed at %zu bytes",
				 lv->working_set_bytes);
		mlp_result_free(m);
	}
	progress_done(s);
	mlp_levels_mark_resident(a->levels, a->nlevels);
	a->levels_seconds = (double)(clock_wall_ns() - w0) / 1e9;
	free(m);
	return rc;
}

/* --read-size: payload and spacing varied, at most 256 MiB (8x a 32 MiB
 * last cache; every case rebuilds the cycle, so this bounds the cost). */
static int mlp_read_size_section_run(struct section_run *s, struct mlp_arms *a)
{
	size_t ws = s->plan->working_set_bytes < ((size_t)256 << 20) ? s->plan->working_set_bytes : (size_t)256 << 20;
	int rc;

	s->label = "mlp (read size)";
	rc = mlp_payload_run(ws, s->r->topo.line_bytes, s->plan->accesses, 3, a->arm[0].noise_floor_pct, s->o->seed,
			     &s->r->clock, s->stop, &a->read_size);
	a->has_read_size = !rc;
	if (rc == -EPROTO) {
		const struct mlp_payload_case *c = &a->read_size.c[a->read_size.ncases - 1];

		snprintf(s->err, sizeof(s->err), "mlp --read-size: layout check failed for %s: %zu distinct lines "
			 "walked, %zu claimed; refusing to report", c->what, c->layout.distinct_lines_walked,
			 c->layout.expected_lines);
	}
	return rc;
}

static int mlp_section_run(struct section_run *s, void *result)
{
	struct mlp_arms *a = result;
	const struct plan *plan = s->plan;
	const struct options *o = s->o;
	struct report *r = s->r;

	for (int i = 0; i < plan->npages; i++) {
		struct mlp_params mp = {
			.working_set_bytes = plan->working_set_bytes,
			.spacing_bytes = plan->spacing_bytes,
			.line_bytes = r->topo.line_bytes,
			.pages = plan->pages[i],
			.max_lanes = o->max_lanes,
			.repeats = o->repeat_given || !budget_of(s) ? o->repeat : budget_of(s)->mlp_repeats,
			.trials = o->trials ? o->trials : budget_of(s) ? budget_of(s)->mlp_trials : POLICY_MLP_TRIALS_DEFAULT,
			.accesses = plan->accesses,
			.seed = o->seed,
			.clock = &r->clock,
			.stop = s->stop,
			.progress = s->progress,
			.progress_ctx = s,
		};
		struct mlp_result *m = &a->arm[i];
		int rc;

		s->label = plan->pages[i] == PAGES_HUGE ? "mlp (huge pages)" : "mlp (small pages)";
		rc = mlp_run(&mp, m);
		progress_done(s);
		a->n = i + 1;
		if (rc == -EPROTO)
			snprintf(s->err, sizeof(s->err), "layout check failed: walked %zu steps, %zu distinct nodes, "
				 "%zu distinct lines, expected %zu nodes and %zu lines; refusing to report",
				 m->layout.steps_walked, m->layout.distinct_nodes_walked,
				 m->layout.distinct_lines_walked, m->layout.nodes, m->layout.expected_lines);
		if (rc)
			return rc;
		if (plan->pages[i] == PAGES_HUGE && m->huge_bytes_obtained < m->total_bytes * 9 / 10)
			result_warn(r, "huge pages requested but %.1f%% obtained (THP off, fragmented, or "
				    "MADV_COLLAPSE errno %d): translation misses are part of this result",
				    m->total_bytes ? 100.0 * (double)m->huge_bytes_obtained / (double)m->total_bytes : 0.0,
				    m->collapse_errno);
		if (!m->estimate.flat_at_end)
			result_warn(r, "mlp (%s pages): the curve was still falling at --max-lanes %u; "
				    "the plateau may lie beyond it", m->pages_requested, o->max_lanes);
		if (m->estimate.repeats_agreeing < m->estimate.repeats)
			result_warn(r, "mlp (%s pages): only %u of %u sweeps agreed on the saturation",
				    m->pages_requested, m->estimate.repeats_agreeing, m->estimate.repeats);
	}
	/* The full report sweeps the levels too: the two extra sweeps cost about
	 * a third of a memory sweep (priced in budget.c), and they are the
	 * evidence that tells a core-wide cap from one on requests that leave
	 * the last cache. */
	if (o->levels || o->command->kind == SECTION_REPORT) {
		int rc = mlp_levels_section_run(s, a);

		if (rc)
			return rc;
	}
	return o->read_size ? mlp_read_size_section_run(s, a) : 0;
}

static void mlp_section_text(const void *res, FILE *f)
{
	mlp_write_text(res, f);
}

static void mlp_section_json(const void *res, struct jsonw *w, const char *key)
{
	mlp_write_json(w, key, res);
}

static void mlp_section_free(void *res)
{
	mlp_arms_free(res);
}

/* ---- bandwidth ---- */

static size_t bandwidth_section_peak(const struct topo *t, bool quick, unsigned threads)
{
	struct bandwidth_params bp;

	(void)threads;
	bandwidth_params_default(&bp, NULL, t, quick);
	return bp.working_set_bytes + 2 * bp.efficiency_bytes;
}

static int bandwidth_section_run(struct section_run *s, void *result)
{
	struct bandwidth_params bp;
	char why[CLI_ERR_LEN] = "";
	int rc;

	bandwidth_params_default(&bp, &s->r->clock, &s->r->topo, s->o->quick);
	if (budget_of(s)) {
		const struct budget *b = budget_of(s);

		bp.working_set_bytes = b->bandwidth_bytes;
		bp.trial_bytes = b->bandwidth_trial_bytes;
		bp.trials = b->bandwidth_trials;
		bp.efficiency_bytes = b->bandwidth_eff_bytes;
		bp.efficiency_max_nodes = b->bandwidth_eff_max_nodes;
		bp.efficiency_trials = b->bandwidth_eff_trials;
	}
	bp.max_threads = s->o->threads;
	bp.seed = s->o->seed;
	bp.stop = s->stop;
	if ((rc = bandwidth_run(&bp, result, why, sizeof(why))))
		return threaded_failed(s, "bandwidth", rc, why);
	return 0;
}

static void bandwidth_section_text(const void *res, FILE *f)
{
	bandwidth_write_text(res, f);
}

static void bandwidth_section_json(const void *res, struct jsonw *w, const char *key)
{
	bandwidth_write_json(w, key, res);
}

static const struct team_placement *bandwidth_section_placement(const void *res)
{
	return &((const struct bandwidth_result *)res)->placement;
}

static void bandwidth_section_free(void *res)
{
	bandwidth_result_free(res);
}

/* ---- multicore ---- */

static size_t multicore_section_peak(const struct topo *t, bool quick, unsigned threads)
{
	struct multicore_params mp;

	multicore_params_default(&mp, NULL, t, quick);
	/* each thread's arena plus its cycle order (4 B per node) */
	return (size_t)threads * (mp.per_thread_bytes + mp.per_thread_bytes / 16);
}

static int multicore_section_run(struct section_run *s, void *result)
{
	struct multicore_params mp;
	char why[CLI_ERR_LEN] = "";
	int rc;

	multicore_params_default(&mp, &s->r->clock, &s->r->topo, s->o->quick);
	if (budget_of(s)) {
		mp.per_thread_bytes = budget_of(s)->multicore_bytes;
		mp.trials = budget_of(s)->multicore_trials;
		mp.max_lanes = budget_of(s)->multicore_lanes;
	}
	mp.max_threads = s->o->threads;
	mp.seed = s->o->seed;
	mp.stop = s->stop;
	if ((rc = multicore_run(&mp, result, why, sizeof(why))))
		return threaded_failed(s, "multicore", rc, why);
	return 0;
}

static void multicore_section_text(const void *res, FILE *f)
{
	multicore_write_text(res, f);
}

static void multicore_section_json(const void *res, struct jsonw *w, const char *key)
{
	multicore_write_json(w, key, res);
}

static const struct team_placement *multicore_section_placement(const void *res)
{
	return &((const struct multicore_result *)res)->placement;
}

static void multicore_section_free(void *res)
{
	multicore_result_free(res);
}

/* ---- loaded ---- */

static size_t loaded_section_peak(const struct topo *t, bool quick, unsigned threads)
{
	struct loaded_params lp;

	if (threads < 2)
		return 0;  /* it will not run */
	loaded_params_default(&lp, NULL, t, quick);
	return lp.chase_bytes + lp.gen_bytes;
}

/* One CPU cannot both chase and generate load: asked for by name that is a
 * usage error; in the full report the section is skipped. */
static int loaded_section_plan(struct section_run *s, char *err, size_t errlen)
{
	unsigned n = s->plan->threads;

	if (n >= 2)
		return 0;
	if (asked_for(s, "loaded"))
		return usage_fail(err, errlen, "loaded: needs 2 threads, one chaser and one load generator, but "
			    "%u %s available (expected --threads 2 or more, on a machine with 2+ CPUs)",
			    n, n == 1 ? "is" : "are");
	result_warn(s->r, "loaded: skipped, it needs 2 threads (one chaser, one load generator)");
	return 0;
}

static int loaded_section_run(struct section_run *s, void *result)
{
	struct loaded_params lp;
	char why[CLI_ERR_LEN] = "";
	int rc;

	if (s->plan->threads < 2)
		return 1;  /* skipped; the plan warned */
	loaded_params_default(&lp, &s->r->clock, &s->r->topo, s->o->quick);
	if (budget_of(s)) {
		lp.chase_bytes = budget_of(s)->loaded_chase_bytes;
		lp.gen_bytes = budget_of(s)->loaded_gen_bytes;
		lp.trials = budget_of(s)->loaded_trials;
	}
	lp.threads = s->o->threads;
	lp.seed = s->o->seed;
	lp.stop = s->stop;
	if ((rc = loaded_run(&lp, result, why, sizeof(why))))
		return threaded_failed(s, "loaded", rc, why);
	return 0;
}

static void loaded_section_text(const void *res, FILE *f)
{
	loaded_write_text(res, f);
}

static void loaded_section_json(const void *res, struct jsonw *w, const char *key)
{
	loaded_write_json(w, key, res);
}

static const struct team_placement *loaded_section_placement(const void *res)
{
	return &((const struct loaded_result *)res)->placement;
}

/* ---- c2c ---- */

/* A line needs two cores to bounce between: asked for by name with one
 * CPU that is a usage error; in the full report the section is skipped. */
static int c2c_section_plan(struct section_run *s, char *err, size_t errlen)
{
	unsigned n = s->plan->threads;

	if (n >= 2)
		return 0;
	if (asked_for(s, "c2c"))
		return usage_fail(err, errlen, "c2c: needs 2 CPUs, one at each end of the line, but %u %s available "
			    "(expected --threads 2 or more, on a machine with 2+ CPUs)", n, n == 1 ? "is" : "are");
	result_warn(s->r, "c2c: skipped, it needs 2 CPUs (one at each end of the line)");
	return 0;
}

static int c2c_section_run(struct section_run *s, void *result)
{
	static char label[96];
	struct c2c_params cp;
	char why[CLI_ERR_LEN] = "";
	double pair_ms, est;
	int rc;

	if (s->plan->threads < 2)
		return 1;  /* skipped; the plan warned */
	c2c_params_default(&cp, &s->r->clock, s->o->quick);
	/* Alone, a fuller matrix: the report's budget is shared with the rest. */
	if (asked_for(s, "c2c"))
		cp.total_budget_s *= 4;
	if (budget_of(s))
		cp.total_budget_s = budget_of(s)->c2c_s;
	cp.max_cpus = s->plan->threads;
	cp.stop = s->stop;
	cp.progress = s->progress;
	cp.progress_ctx = s;
	est = c2c_estimate_s(&cp, s->plan->threads, &pair_ms);
	/* The cost, known before it starts: on a terminal, beside the progress. */
	snprintf(label, sizeof(label), "c2c (%u CPUs, at most %.1f ms per pair, %.1f s in all)", s->plan->threads, pair_ms, est);
	s->label = label;
	rc = c2c_run(&cp, result, why, sizeof(why));
	progress_done(s);
	if (rc)
		return threaded_failed(s, "c2c", rc, why);
	if (((struct c2c_result *)result)->pairs_timed_out)
		result_warn(s->r, "c2c: %zu pair(s) timed out (a partner stopped answering for 0.2 s: "
			    "another process had its CPU)", ((struct c2c_result *)result)->pairs_timed_out);
	return 0;
}

static void c2c_section_text(const void *res, FILE *f)
{
	c2c_write_text(res, f);
}

static void c2c_section_json(const void *res, struct jsonw *w, const char *key)
{
	c2c_write_json(w, key, res);
}

static void c2c_section_free(void *res)
{
	c2c_result_free(res);
}

/* ---- agreement ---- */

/* Derived, not measured: latency, mlp K=1 and loaded idle side by side. */
static int agreement_section_run(struct section_run *s, void *result)
{
	const struct mlp_arms *m = result_of(s->r, "mlp");

	agree_compute(result_of(s->r, "latency"), m ? m->arm : NULL, m ? (unsigned)m->n : 0,
		      result_of(s->r, "loaded"), s->r->has_noise_floor ? s->r->noise_floor_pct : NAN, result);
	return ((const struct agree_result *)result)->nlines ? 0 : 1;
}

static void agreement_section_text(const void *res, FILE *f)
{
	agree_write_text(res, f);
}

static void agreement_section_json(const void *res, struct jsonw *w, const char *key)
{
	agree_write_json(res, w, key);
}

/* ---- window ---- */

static int window_section_plan(struct section_run *s, char *err, size_t errlen)
{
	const struct options *o = s->o;

	if (o->size_bytes && o->size_bytes < WINDOW_MIN_BYTES)
		return usage_fail(err, errlen, "--size: window's chases need at least 4 MiB, far beyond the last-level "
			    "cache (expected e.g. 256M)");
	if (o->trials > POLICY_WINDOW_TRIALS_MAX)
		return usage_fail(err, errlen, "--trials: '%u' is too many for window (expected 3, 6, ... %d)", o->trials,
			    POLICY_WINDOW_TRIALS_MAX);
	return 0;
}

/* --dump-code: raw machine code of one probe, for a disassembler. */
static int window_section_instead(struct section_run *s)
{
	int rc;

	if (!s->plan->dump_code)
		return -1;
	if (isatty(STDOUT_FILENO)) {
		snprintf(s->err, sizeof(s->err), "--dump-code: refusing to write machine code to a terminal "
			 "(expected a redirect, e.g. > probe.bin)");
		return 2;
	}
	rc = window_dump_code(s->plan->dump_filler, s->plan->dump_n, stdout);
	if (rc == -ENOTSUP) {
		snprintf(s->err, sizeof(s->err), "window: the probe is unsupported on this ISA (x86-64 and AArch64 only)");
		return 0;
	}
	if (rc || fflush(stdout)) {
		snprintf(s->err, sizeof(s->err), "--dump-code: %s", strerror(rc ? -rc : errno));
		return 1;
	}
	return 0;
}

static int window_section_run(struct section_run *s, void *result)
{
	const struct options *o = s->o;
	struct window_params wp;
	int rc;

	window_params_default(&wp, topo_largest_cache_bytes(&s->r->topo), &s->r->clock, s->stop);
	if (budget_of(s)) {
		wp.working_set_bytes = budget_of(s)->window_bytes;
		wp.trials = budget_of(s)->window_trials;
	}
	if (o->size_bytes)
		wp.working_set_bytes = s->plan->working_set_bytes;
	if (o->trials)
		wp.trials = o->trials;
	if (o->max_n)
		wp.max_n = o->max_n;
	wp.filler_mask = s->plan->window_fillers;
	wp.seed = o->seed;
	wp.progress = s->progress;
	wp.progress_ctx = s;
	s->label = "window";
	rc = window_run(&wp, result);
	progress_done(s);
	if (rc == -ENOTSUP) {
		result_warn(s->r, "window: the probe is unsupported on this ISA (x86-64 and AArch64 only)");
		return 1;
	}
	return rc;
}

static void window_section_text(const void *res, FILE *f)
{
	window_write_text(res, f);
}

static void window_section_json(const void *res, struct jsonw *w, const char *key)
{
	(void)key;  /* window_write_json names its own object "window" */
	window_write_json(w, res);
}

/* ---- app ---- */

#define APP_MIN_DEFAULT_FOOTPRINT ((size_t)8 << 20)
#define APP_MAX_DEFAULT_FOOTPRINT ((size_t)64 << 20)
#define APP_BZIP2_BLOCK_BYTES 900000

/* The kernel: the operand, or bwt in the full report. */
static const char *app_kernel(const struct options *o)
{
	return o->npaths ? o->paths[0] : "bwt";
}

/* The walked structure's bytes: --size, else 2x the largest reported
 * cache, 8 to 64 MiB: past any L3 share a guest gets, and bwt's narrow
 * table holds 2^24 rows, so a larger one only multiplies the suffix sort
 * and the walk (a claimed 260 MiB L3 made it 520 MiB and 4 minutes). In
 * the full report bwt inverts one BWT block of generated text at bzip2's
 * block size (cache-resident, and labelled so) instead. */
static size_t app_footprint(const struct options *o, const struct topo *t)
{
	size_t fp = 2 * topo_largest_cache_bytes(t);

	if (o->size_bytes)
		return o->size_bytes;
	return fp < APP_MIN_DEFAULT_FOOTPRINT ? APP_MIN_DEFAULT_FOOTPRINT : fp > APP_MAX_DEFAULT_FOOTPRINT ? APP_MAX_DEFAULT_FOOTPRINT : fp;
}

/* The level-2 data (or unified) cache the OS reports, 0 when none. */
static size_t app_l2_bytes(const struct topo *t)
{
	for (int i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == 2 && strcmp(t->caches[i].type, "Instruction"))
			return t->caches[i].size_bytes;
	return 0;
}

/* The full report inverts one BWT block of generated (markov) text at
 * bzip2's largest block size, 900,000 bytes; no bzip2 data is decoded:
 * a walk past the last cache with its chase reference costs about a minute
 * here, which the report's 90 s budget cannot hold; `app bwt` does that. */
static bool app_bzip2(const struct section_run *s)
{
	return s->o->bzip2 || (!asked_for(s, "app") && !s->o->text_path);
}

/* `app bzip2 [FILE.bz2]`: libbz2 is required (the check), and a file is
 * decoded once here so bad input is one line and exit 2 before anything
 * is measured. */
static int app_bzip2_plan(struct section_run *s, char *err, size_t errlen)
{
	const struct options *o = s->o;
	char why[CLI_ERR_LEN];
	struct stat st;
	int rc;

	if (o->text_path || o->input || o->bzip2 || o->size_bytes)
		return usage_fail(err, errlen, "app bzip2: --text, --input, --bzip2 and --size are bwt's (expected app bzip2 "
			    "[FILE.bz2])");
	if (o->layout && app_bzip2_parse_layout(o->layout) < 0)
		return usage_fail(err, errlen, "--layout: '%s' is not a layout (expected registers or state)", o->layout);
	if (o->prefetch && app_bzip2_parse_prefetch(o->prefetch) < 0)
		return usage_fail(err, errlen, "--prefetch: '%s' is not a prefetch policy (expected off, next or two)",
			    o->prefetch);
	if (o->output_buffer && app_bzip2_parse_output(o->output_buffer) < 0)
		return usage_fail(err, errlen, "--output-buffer: '%s' is not a lifetime (expected reused or fresh)",
			    o->output_buffer);
	if (o->lanes && o->layout && app_bzip2_parse_layout(o->layout) == BZ2_LAYOUT_REGISTERS &&
	    !app_bzip2_registers_k(o->lanes))
		return usage_fail(err, errlen, "--lanes: '%u' has no registers loop (expected 1, 2, 4, 8, 12, 16, 24 or 32, "
			    "or --layout state)", o->lanes);
	if (o->lanes && o->lanes > o->max_lanes)
		return usage_fail(err, errlen, "--lanes: '%u' is above --max-lanes %u (expected at most that)", o->lanes,
			    o->max_lanes);
	if (o->segments && o->lanes && o->segments < o->lanes)
		return usage_fail(err, errlen, "--segments: '%u' is fewer than --lanes %u (expected at least K)", o->segments,
			    o->lanes);
	if (!bz2_ref_available()) {
		bz2_ref_decode(NULL, 0, NULL, NULL, NULL, 0, why, sizeof(why));
		return usage_fail(err, errlen, "app bzip2: %s: our decoder has nothing to be checked against", why);
	}
	/* The file is held whole, plus about 20 MB of decoder buffers per worker. */
	if (o->npaths > 1 && !stat(o->paths[1], &st) && s->r->topo.mem_available_bytes &&
	    (size_t)st.st_size > s->r->topo.mem_available_bytes / 2) {
		char a[32], b[32];

		report_format_bytes(a, sizeof(a), (size_t)st.st_size);
		report_format_bytes(b, sizeof(b), s->r->topo.mem_available_bytes);
		return usage_fail(err, errlen, "app bzip2: %s: %s is over half of MemAvailable (%s) (expected a smaller file)",
			    o->paths[1], a, b);
	}
	if (o->npaths > 1 && (rc = app_bzip2_validate(o->paths[1], why, sizeof(why))))
		return usage_fail(err, errlen, "app bzip2: %s", why);
	return 0;
}

static int app_bzip2_section_run(struct section_run *s, struct app_result *res, bool short_form)
{
	const struct options *o = s->o;
	struct app_bzip2_params p = {
		.path = o->npaths > 1 ? o->paths[1] : NULL,
		.default_text_bytes = short_form ? ((size_t)2 << 20) : ((size_t)8 << 20),
		.max_k = o->max_lanes < 32 ? o->max_lanes : 32,
		.trials = short_form ? 1 : (o->trials ? (o->trials < 15 ? o->trials : 15) : 3),
		.max_workers = 2,
		.tools = !short_form,
		.seed = o->seed,
		.clock = &s->r->clock,
		.stop = s->stop,
		.only_k = short_form ? 0 : o->lanes,
		.segments = short_form ? 0 : o->segments,
		.layout = !short_form && o->layout ? app_bzip2_parse_layout(o->layout) : -1,
		.prefetch = !short_form && o->prefetch ? app_bzip2_parse_prefetch(o->prefetch) : -1,
		.output_fresh = !short_form && o->output_buffer ? app_bzip2_parse_output(o->output_buffer) : -1,
	};
	int rc, allowed = team_allowed_cpus(NULL, 0);

	if (o->threads)
		p.max_workers = o->threads;
	else if (allowed > 0)
		p.max_workers = (unsigned)allowed;
	if (p.max_workers > APP_BZ2_WORKERS_MAX)
		p.max_workers = APP_BZ2_WORKERS_MAX;
	if (short_form && p.max_k > 8)
		p.max_k = 8;
	res->bzip2 = calloc(1, sizeof(*res->bzip2));
	if (!res->bzip2)
		return -ENOMEM;
	rc = app_bzip2_run(&p, res->bzip2, s->err, sizeof(s->err));
	if (rc == -EPROTO) {
		char why[sizeof(s->err)];

		snprintf(why, sizeof(why), "%s", s->err);
		snprintf(s->err, sizeof(s->err), "app bzip2: check failed: %.200s; refusing to report", why);
	} else if (rc && rc != -EINTR && s->err[0]) {
		char why[sizeof(s->err)];

		snprintf(why, sizeof(why), "%s", s->err);
		snprintf(s->err, sizeof(s->err), "app bzip2: %.240s", why);
	}
	if (rc) {
		free(res->bzip2);
		res->bzip2 = NULL;
	}
	return rc;
}

static void app_section_free(void *result)
{
	struct app_result *res = result;

	free(res->bzip2);
	res->bzip2 = NULL;
}

static int app_section_plan(struct section_run *s, char *err, size_t errlen)
{
	const struct options *o = s->o;
	const struct topo *t = &s->r->topo;
	const char *kernel = app_kernel(o);
	size_t fp = app_footprint(o, t), text_bytes, peak;
	enum textgen_kind kind;
	struct stat st;
	char a[32], b[32];

	if (!strcmp(kernel, "bzip2"))
		return app_bzip2_plan(s, err, errlen);
	if (app_kernel_find(kernel))
		return usage_fail(err, errlen, "app: '%s' is not a kernel (expected bwt, hash, search, gather or bzip2)", kernel);
	if (o->lanes || o->segments || o->layout || o->prefetch || o->output_buffer)
		return usage_fail(err, errlen, "app %s: --lanes, --segments, --layout, --prefetch and --output-buffer are "
			    "bzip2's axes (expected app bzip2)", kernel);
	if (o->input && textgen_parse(o->input, &kind))
		return usage_fail(err, errlen, "--input: '%s' is not an input (expected random, markov or repeat)", o->input);
	if (!!o->text_path + !!o->input + o->bzip2 > 1)
		return usage_fail(err, errlen, "app: --text, --input and --bzip2 each choose the input (expected one of them)");
	if ((o->text_path || o->input || o->bzip2) && strcmp(kernel, "bwt"))
		return usage_fail(err, errlen, "app %s: --text, --input and --bzip2 are bwt's inputs (expected app bwt)",
			    kernel);
	text_bytes = app_bzip2(s) ? APP_BZIP2_BLOCK_BYTES : app_bwt_text_bytes(fp);
	if (o->text_path) {
		if (stat(o->text_path, &st))
			return usage_fail(err, errlen, "--text: cannot read '%s': %s (expected a readable file)", o->text_path,
				    strerror(errno));
		if (!S_ISREG(st.st_mode) || st.st_size < 1)
			return usage_fail(err, errlen, "--text: '%s' is %s (expected a file of at least 1 byte)", o->text_path,
				    S_ISREG(st.st_mode) ? "empty" : "not a regular file");
		text_bytes = (size_t)st.st_size;
	}
	/* bwt: the suffix sort's scratch or the table; the others: the table
	 * and a quarter more (indices, queries, a second layout). */
	peak = strcmp(kernel, "bwt") ? 2 * fp + fp / 4 : app_bwt_peak_bytes(text_bytes);
	if ((t->mem_available_bytes && peak > t->mem_available_bytes / 10 * 9) ||
	    (!strcmp(kernel, "bwt") && text_bytes > SAIS_MAX_BYTES)) {
		report_format_bytes(a, sizeof(a), peak);
		report_format_bytes(b, sizeof(b), t->mem_available_bytes);
		return usage_fail(err, errlen, "%s: app %s needs %s at its peak, over 90%% of MemAvailable (%s), or more "
			    "text than the suffix sorter's 2^31 - 3 bytes (expected a smaller %s)",
			    o->text_path ? "--text" : "--size", kernel, a, b, o->text_path ? "file" : "size");
	}
	return 0;
}

static int app_section_run(struct section_run *s, void *result)
{
	const struct options *o = s->o;
	struct report *r = s->r;
	const char *kernel = app_kernel(o);
	struct app_result *res = result;
	struct app_kernel_result *k = &res->kernels[0];
	struct app_params ap = {
		.footprint_bytes = app_footprint(o, &r->topo),
		.largest_cache_bytes = topo_largest_cache_bytes(&r->topo),
		.l2_bytes = app_l2_bytes(&r->topo),
		.line_bytes = r->topo.line_bytes,
		.pages = s->plan->pages[s->plan->npages - 1],
		.max_k = o->max_lanes < APP_K_MAX ? o->max_lanes : APP_K_MAX,
		.trials = o->trials ? (o->trials < APP_TRIALS_MAX ? o->trials : APP_TRIALS_MAX)
			  : budget_of(s) ? budget_of(s)->app_trials : 3,
		.seed = o->seed,
		.chase = true,
		.clock = &r->clock,
		.stop = s->stop,
		.input = TEXTGEN_MARKOV,
		.text_path = o->text_path,
		.bzip2 = app_bzip2(s),
	};
	int rc;

	if (!strcmp(kernel, "bzip2"))
		return app_bzip2_section_run(s, res, false);
	if (o->input)
		textgen_parse(o->input, &ap.input);
	/* The swept walks decode a fixed number of rows whatever the table
	 * (the first walk after the build, and the ring, still decode it all). */
	if (budget_of(s))
		ap.walk_rows = budget_of(s)->app_walk_rows;
	rc = app_run(kernel, &ap, k, s->err, sizeof(s->err));
	if (rc == -EPROTO)
		snprintf(s->err, sizeof(s->err), "app %s: check failed: %s; refusing to report", kernel,
			 k->check.failure);
	else if (rc && rc != -EINTR && s->err[0]) {
		char why[sizeof(s->err)];

		snprintf(why, sizeof(why), "%s", s->err);
		snprintf(s->err, sizeof(s->err), "app %s: %.200s", kernel, why);
	}
	if (rc)
		return rc;
	res->nkernels = 1;
	/* The full report: the decoder's short form too (2 MB of text, one
	 * trial, K up to 8, no tools: a few seconds); --quick leaves it out,
	 * its 20 s go to the memory figures. */
	if (!asked_for(s, "app") && !o->quick && bz2_ref_available() && (rc = app_bzip2_section_run(s, res, true)))
		return rc;
	if (o->text_path)
		result_warn(r, "app %s: --text '%s': the round trip held (%u runs, every output equal to the file)",
			    kernel, o->text_path, k->check.runs_checked);
	if (k->may_fit_cache && (!o->size_bytes || ap.bzip2))
		result_warn(r, "app %s: the %zu-byte footprint may fit in the largest reported cache: R compares "
			    "cache behaviour, not memory", kernel, k->footprint_bytes);
	if (ap.pages == PAGES_HUGE && k->huge_bytes_obtained < k->total_bytes * 9 / 10)
		result_warn(r, "app %s: huge pages requested but %.1f%% obtained: translation misses are part of "
			    "this result", kernel,
			    k->total_bytes ? 100.0 * (double)k->huge_bytes_obtained / (double)k->total_bytes : 0.0);
	return 0;
}

static void app_section_text(const void *res, FILE *f)
{
	const struct app_result *r = res;

	app_write_text(r, f);
	if (r->bzip2)
		app_bzip2_write_text(r->bzip2, f);
}

static void app_section_json(const void *res, struct jsonw *w, const char *key)
{
	app_write_json(res, w, key);
}

/* ---- plan ---- */

/* The sections command would run, in report order; 0 when it is not a
 * measuring command. */
static unsigned planned_sections(const struct section *cmd, const char **names, unsigned cap)
{
	unsigned n = 0;

	for (size_t i = 0; i < registry_count && n < cap; i++)
		if (registry_runs(cmd, &registry[i]))
			names[n++] = registry[i].name;
	return n;
}

/* `mlpscope plan --from FILE [COMMAND]`: the planner on that machine's facts. */
static int plan_section_command(const struct options *o, char *err, size_t errlen)
{
	static struct budget b;
	const char *name = o->npaths ? o->paths[0] : "report", *names[BUDGET_SECTIONS];
	const struct section *cmd = registry_find(name);
	unsigned n;
	int rc;

	if (!cmd || (cmd->kind != SECTION_REPORT && cmd->kind != SECTION_MEASURE) || cmd->report_only)
		return usage_fail(err, errlen, "plan: '%s' is not a measuring command (expected report, latency, mlp, "
			    "window, app ...)", name);
	n = planned_sections(cmd, names, BUDGET_SECTIONS);
	if ((rc = plan_cmd_from_file(o->from_path, cmd->kind == SECTION_REPORT ? "report" : cmd->name, o->quick,
				     o->budget_s, names, n, &b, err, errlen)))
		return rc;
	plan_cmd_print(&b, stdout);
	return 0;
}

/* ---- the table ---- */

const struct section registry[] = {
	{
		.name = "report",
		.summary = "the full report (default): every section below, in order",
		.help = "Runs every measuring section in order and writes one text report (and, with\n"
			"--json, one JSON document): machine, noise, tlb, latency, mlp, bandwidth,\n"
			"multicore, loaded, c2c, a closing block where the sections that time one\n"
			"dependent load from memory agree or say why not, and app bwt on one block of\n"
			"generated text. window runs on its own (budget 30 s). The run is sized to\n"
			"--budget (90 s; 20 s with --quick): rates measured in the first half second\n"
			"price each section, the plan is printed before the work and set against the\n"
			"time taken at the end, and what had to shrink to fit is listed. --quick keeps\n"
			"a useful report short: one mlp sweep, a coarser latency curve, fewer trials.\n",
		.kind = SECTION_REPORT,
		.outputs = SECTION_OUT_ALL,
	},
	{
		.name = "machine",
		.summary = "what this machine permits: CPU, caches, pages, timer, core clock, PMU",
		.help = "Identifies the CPU (model, family/model/stepping, relevant ISA features), lists\n"
			"the caches as sysfs and the CPU itself (CPUID, CTR_EL0) report them and where they\n"
			"disagree, the page sizes, THP mode and hugetlb pools, the timer, and a core-clock\n"
			"range timed with a chain of dependent adds (never /proc/cpuinfo alone). It probes\n"
			"the PMU: whether perf_event_open can count cycles (the errno when not), the\n"
			"paranoid level, and user-space RDPMC executed in a forked child, reporting the\n"
			"signal it died of. It then says which claims follow: with no PMU, misses cannot\n"
			"be counted and every figure is bounded by timing.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct machine_info),
		.run = machine_section_run,
		.write_text = machine_section_text,
		.write_json = machine_section_json,
		.write_csv = machine_write_csv,
	},
	{
		.name = "noise",
		.summary = "the instrument's own noise floor: the spread of its estimators",
		.help = "Times a short L1-resident chase min-of-3, 14 times, and reports the spread of\n"
			"those minima (the estimator's noise floor) next to the spread of the single runs.\n"
			"Then compares an L1-resident and an L2-resident chase by four estimators: each\n"
			"arm alone, the ratio of minima, and the paired ratio (divide inside each\n"
			"iteration, then take the minimum, so clock drift cancels in each quotient). The\n"
			"widest spread is this run's tolerance; which estimator is steadiest changes\n"
			"with how hard the clock moves, so none is asserted.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct noise_result),
		.run = noise_section_run,
		.write_text = noise_section_text,
		.write_json = noise_section_json,
		.write_csv = noise_write_csv,
	},
	{
		.name = "tlb",
		.summary = "the TLB: one load per 4 KiB page, pages swept in count, small and huge pages",
		.help = "Chases one load per 4 KiB page (the line offset rotating from page to page, so\n"
			"the lines spread over every cache set) through 8 to 32768 pages in random\n"
			"order, in a small-page and in a huge-page arena, against a control that visits\n"
			"the same number of lines packed densely. The extra per load is translation, by\n"
			"subtraction: its steps are the TLB levels (entries, reach, extra ns), the last\n"
			"plateau the page-walk cost. Where the huge-page arena steps at the small-page\n"
			"counts, 2 MiB pages give only 4 KiB reach (a guest on small host pages). The\n"
			"steps are set beside the TLB sizes CPUID reports (unknown off x86-64).\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct tlb_result),
		.needs = "noise",
		.run = tlb_section_run,
		.write_text = tlb_section_text,
		.write_json = tlb_section_json,
	},
	{
		.name = "latency",
		.summary = "latency across the hierarchy: random chase vs +64 B stream, small vs huge pages",
		.help = "Working sets from 4 KiB to --size (default 256-512 MiB), four per octave and\n"
			"denser near the reported cache sizes, each measured as a dependent random chase\n"
			"(latency) and as a +64 B sequential chain (a stream the prefetcher can follow):\n"
			"their ratio is the prefetcher's effect, by subtraction. The largest sizes also\n"
			"run on small pages: small minus huge is translation cost, by subtraction, with\n"
			"the backing obtained for both. Each size is timed in blocks of back-to-back\n"
			"regions of a fixed number of loads, after a full walk of the set (sets that may\n"
			"fit the caches) or an untimed lead-in (larger sets), in two passes over the\n"
			"sizes, ascending then descending. Every size is re-timed after its own warm\n"
			"start over regions 4x longer: a point that read slower beyond the floor is\n"
			"flagged NOT STEADY. Each level's middle is also timed as a back-to-back warm\n"
			"chase, printed beside the curve. The layout check runs at every size; a level\n"
			"ends where its latency leaves the plateau (the tlb section's steps allowed for:\n"
			"it runs first) and that end is set beside the OS-reported sizes (a short\n"
			"plateau is named as a share of its cache); an OS cache with no plateau of its\n"
			"own is named; knees at a TLB reach are labelled TLB knees. A curve that falls\n"
			"where it must rise is flagged.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct latency_result),
		.needs = "tlb",
		.plan = latency_section_plan,
		.run = latency_section_run,
		.write_text = latency_section_text,
		.write_json = latency_section_json,
		.write_csv = latency_write_csv,
	},
	{
		.name = "mlp",
		.summary = "memory-level parallelism: K lanes of dependent loads",
		.help = "Builds one random cycle (Sattolo) through a working set far larger than the\n"
			"last-level cache, one node per --spacing bytes, and walks it with K independent\n"
			"lanes of dependent loads. Total accesses per timed region are held fixed while\n"
			"K sweeps 1, 2, 3...; time per access falls as L/K until a resource saturates.\n\n"
			"Reported per K: time per access (the reciprocal of throughput, not a latency),\n"
			"speedup and concurrency t(1)/t(K) (Little's law), bandwidth as useful bytes\n"
			"(8 B/access) and as lines (an assumption), and a control arm (one chain unrolled\n"
			"K times). Estimate: a fit of t(K) = max(L/K, L/Ks) with an uncertainty from this\n"
			"run's noise floor, the peak concurrency seen, and the older 5%/1% rules.\n"
			"The chain is walked once before timing and must visit every node and line\n"
			"exactly once; the page backing reported is the one obtained (smaps).\n"
			"Then each kernel on an L1-resident chain: the core's own cost per access and\n"
			"the issue rate `model` uses. --levels also sweeps at half the L2 and half the\n"
			"last cache the OS reports (total footprint held): Ks and plateau per level.\n"
			"--read-size varies the bytes read per node (8..128, a node crossing a line)\n"
			"and the spacing, each case with its own layout check.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct mlp_arms),
		.run = mlp_section_run,
		.write_text = mlp_section_text,
		.write_json = mlp_section_json,
		.write_csv = mlp_write_csv,
		.free = mlp_section_free,
	},
	{
		.name = "bandwidth",
		.summary = "sequential read/write/copy bandwidth per thread and in total; random-access efficiency",
		.help = "Streams a working set far beyond the last-level cache with scalar and the widest\n"
			"vector kernels this CPU runs (chosen at run time): read, write, copy, and\n"
			"non-temporal stores where the ISA has them, on 1, 2, 4 ... --threads threads\n"
			"pinned one per CPU. Decimal GB/s of the bytes the kernel names; a store's\n"
			"read-for-ownership traffic is not counted (the report says so). Then the\n"
			"efficiency of random access at node spacings 8, 64, 128 and 4096 B: useful bytes\n"
			"per access against the lines (and page-walk share, from small vs huge pages)\n"
			"the memory system must move, labelled a model: nothing counts the bytes.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct bandwidth_result),
		.threaded = true,
		.peak_bytes = bandwidth_section_peak,
		.run = bandwidth_section_run,
		.write_text = bandwidth_section_text,
		.write_json = bandwidth_section_json,
		.write_csv = bandwidth_write_csv,
		.placement = bandwidth_section_placement,
		.free = bandwidth_section_free,
	},
	{
		.name = "multicore",
		.summary = "the lanes sweep on T threads at once: total concurrency against K and T",
		.help = "Runs the mlp lanes sweep on 1, 2, 4 ... --threads threads at once, each pinned to\n"
			"its own CPU with its own chain in its own arena: the aggregate access rate (all\n"
			"accesses over the team's common span) and the total concurrency (that rate times\n"
			"one thread's t(1), by Little's law) against K and T, and where the shared memory\n"
			"system saturates.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct multicore_result),
		.threaded = true,
		.peak_bytes = multicore_section_peak,
		.run = multicore_section_run,
		.write_text = multicore_section_text,
		.write_json = multicore_section_json,
		.write_csv = multicore_write_csv,
		.placement = multicore_section_placement,
		.free = multicore_section_free,
	},
	{
		.name = "loaded",
		.summary = "latency under load: one chaser while other threads generate traffic",
		.help = "One pinned thread runs the dependent chase while the others generate read (and\n"
			"read/write) traffic, throttled by an injection delay swept from none to idle.\n"
			"Output: the idle latency, latency against delivered bandwidth, and the bandwidth\n"
			"at which latency doubles (or that it was not reached). Needs 2 CPUs.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct loaded_result),
		.plan = loaded_section_plan,
		.threaded = true,
		.peak_bytes = loaded_section_peak,
		.run = loaded_section_run,
		.write_text = loaded_section_text,
		.write_json = loaded_section_json,
		.write_csv = loaded_write_csv,
		.placement = loaded_section_placement,
	},
	{
		.name = "c2c",
		.summary = "core-to-core latency: one cache line bounced between every ordered pair of CPUs",
		.help = "For every ordered pair of allowed CPUs (--threads N: the first N), a thread on\n"
			"each bounces one cache line: the first writes an odd value, the second answers\n"
			"with the next even one. Half a round trip is one transfer of the line from core\n"
			"to core, in ns; the minimum and the median of up to 64 samples of 200 round trips\n"
			"per pair, as a matrix (row: the CPU that owns the line, column: its partner) and\n"
			"a heat map in the HTML. Each pair gets a fresh 4 KiB page, mapped and first\n"
			"touched by the row's CPU, so the line lives on that CPU's memory node and no third\n"
			"core ever held it. Time per pair is bounded (the report spreads 4 s over the\n"
			"pairs, 0.5 to 25 ms each; alone, 16 s), so 256 CPUs take a known time, stated\n"
			"before it starts. Needs 2 CPUs.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct c2c_result),
		.plan = c2c_section_plan,
		.threaded = true,
		.run = c2c_section_run,
		.write_text = c2c_section_text,
		.write_json = c2c_section_json,
		.free = c2c_section_free,
	},
	{
		.name = "agreement",
		.summary = "sections agree: latency, mlp K=1 and loaded idle at the same set (in the full report)",
		.help = "Not a command: the full report's closing block. Where latency, mlp at K = 1\n"
			"and loaded's idle point each time one random dependent load from the same\n"
			"working set and page size, it sets them on one line and flags a difference\n"
			"beyond the noise floor with the cause the results show: a different working\n"
			"set, a different page backing obtained, a lead-in too short to warm the\n"
			"paging structures, latency's own steady-state flag, or other threads running.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.report_only = true,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct agree_result),
		.run = agreement_section_run,
		.write_text = agreement_section_text,
		.write_json = agreement_section_json,
	},
	{
		.name = "window",
		.summary = "out-of-order structure sizes: reorder buffer, register files, load/store queues",
		.help = "Two independent pointer chases that miss to DRAM, with N filler instructions\n"
			"after each miss, in a loop generated at run time (mapped writable, then\n"
			"executable; never both). While the second miss fits in the window behind the\n"
			"first one's fillers the two overlap; once it does not, they serialise and an\n"
			"iteration costs about twice as much. N is swept coarsely, then refined; the step\n"
			"and the ramp before it are fitted as flat-ramp-flat and reported as the N on\n"
			"both sides (\"fits at 136, not at 138\"). Fillers and what they fill: nop, mov,\n"
			"zero_idiom, fmov (reorder buffer; the last three are handled at rename, for cores\n"
			"that drop nops), int_add (integer registers), fp_add (FP/vector registers), store\n"
			"(store queue), load_fp (load queue), and store_nop / load_fp_nop (1:1 with nops: a\n"
			"step at twice N means the limit counts stores or loads, not instructions). Each\n"
			"step is repeated at the end (a structure at half its size says a sibling thread\n"
			"was active); a summary per structure names the filler its figure comes from and\n"
			"any filler that disagrees.\n"
			"--dump-code nop:64 > probe.bin writes one probe's machine code for a disassembler.\n"
			"x86-64 and AArch64 only; elsewhere the command says so and exits 0.\n",
		.kind = SECTION_MEASURE,
		.in_report = false,
		.outputs = SECTION_OUT_ALL,
		.result_bytes = sizeof(struct window_result),
		.plan = window_section_plan,
		.instead = window_section_instead,
		.run = window_section_run,
		.write_text = window_section_text,
		.write_json = window_section_json,
		.write_csv = window_write_csv,
	},
	{
		.name = "app",
		.summary = "a real walk as K lanes against the chase curve: app bwt|hash|search|gather|bzip2",
		.help = "mlpscope app KERNEL: a real dependent walk run as K interleaved lanes, the same\n"
			"total work at every K, against the mlp chase curve measured in the same run at\n"
			"the same footprint (--size, default 2x the largest reported cache, 8 to 64\n"
			"MiB) and page request. Reported per K and variant: items/s, ns per item and per\n"
			"dependent load, S_app = t(1)/t(K), the chase's S_chase at the same K,\n"
			"R = S_app/S_chase, knees, the occupancy Little's law infers, and the line\n"
			"\"chase predicts S = x at K = k; KERNEL got y (R = y/x)\". Setup is timed apart;\n"
			"every run's output is checked outside the timed region and a mismatch is an\n"
			"error.\n"
			"  bwt     the inverse Burrows-Wheeler walk a bzip2 decoder makes, on a BWT this\n"
			"          kernel builds itself (no bzip2 data is decoded): input --input\n"
			"          random|markov|repeat, --text FILE or --bzip2 (900,000 bytes of markov\n"
			"          text, bzip2's largest block size);\n"
			"          own suffix array (SA-IS), bzip2's T-vector table, K segments with exact\n"
			"          start rows in lockstep; a runtime-K state array and generated register\n"
			"          lanes (make app-spills counts their stack accesses). Tables of 64 to\n"
			"          128 MiB are 64 MiB: 32-bit words hold 2^24 rows. Each swept walk\n"
			"          decodes 4 Mi rows whatever the table (checked row by row).\n"
			"  hash    chained probes: an AMAC ring of K lookups and K lockstep lookups\n"
			"          against the plain loop, hit fractions 1.0 and 0.5; linear probing as\n"
			"          the control.\n"
			"  search  lower_bound of K queries in lockstep over a sorted array and its\n"
			"          Eytzinger layout, with and without prefetch.\n"
			"  gather  sum += a[idx[i]]: independent loads, the ceiling the core reaches by\n"
			"          itself.\n"
			"  bzip2 [FILE.bz2]  our own bzip2 decoder over the whole file (default: 8 MB of\n"
			"          generated text compressed at run time by libbz2 at level 9), every\n"
			"          output checked byte for byte (SHA-256) against libbz2's. The walk\n"
			"          runs as K = 1..32 lanes (--max-lanes) from 4K random start rows\n"
			"          (a first pass of 4K draws, no walk; the cost is one copy of the\n"
			"          block and the longest segment's tail), registers and state\n"
			"          layouts; at K = 8 prefetch next (each lane's next row as soon as\n"
			"          known) and two (the row two lanes on), and a fresh output buffer\n"
			"          per block. Per variant: cold and warm seconds, MB/s, stage times\n"
			"          (decode, table, starts, traversal, assembly, rle, crc), f, s and\n"
			"          1/((1-f)+f/s) beside the measured speedup; libbz2 on one thread,\n"
			"          bzip2/lbzip2 -dc when installed; 1..--threads block-parallel\n"
			"          workers. Bad input: one line naming file, block and byte, exit 2.\n"
			"The full report runs bwt on one 900,000-byte block of generated markov text\n"
			"(the --bzip2 preset), which fits a cache (its budget\n"
			"cannot hold a walk past the last cache; app bwt makes one).\n"
			"--trials N (default 3), --max-lanes caps K at 32; with --pages both, huge.\n",
		.kind = SECTION_MEASURE,
		.in_report = true,
		.outputs = SECTION_OUT_ALL,
		.operands = SECTION_ARGS_ONE,
		.operand_name = "kernel",
		.usage = "mlpscope app bwt|hash|search|gather|bzip2 [FILE.bz2]",
		.result_bytes = sizeof(struct app_result),
		.plan = app_section_plan,
		.run = app_section_run,
		.free = app_section_free,
		.write_text = app_section_text,
		.write_json = app_section_json,
		.write_csv = app_write_csv,
	},
	{
		.name = "model",
		.summary = "the envelope: which resource could bind each point of a measured lanes curve",
		.help = "mlpscope model --from run.json [window.json] [--json FILE]: reads a measured\n"
			"result and prints, per lane count K, a lower bound on time per access from each\n"
			"resource separately, every term with its source: L/K (L = t(1)); u/P (u the\n"
			"instructions per access counted in the compiled kernel, P the issue rate the mlp\n"
			"section measured on the same kernels L1-resident); the same kernel's L1-resident\n"
			"time; line/B with B the bandwidth section's read on one thread and on all (never\n"
			"the sweep being explained); L x loads/Q and L x instructions/ROB with Q and ROB\n"
			"from window (in the file, or a second file). Then the binding term, its margin\n"
			"to the next, the latency under load at that K's traffic (from the loaded\n"
			"section) with Little's law, and what could set the plateau, with the evidence\n"
			"for and against each candidate. No measurement is made; see docs/MODEL.md.\n",
		.kind = SECTION_FILE_COMMAND,
		.needs_from = true,
		.outputs = SECTION_OUT_JSON,
		.operands = SECTION_ARGS_OPTIONAL,
		.operand_name = "window result",
		.usage = "mlpscope model --from run.json [window.json] [--json FILE]",
		.command = cmd_model,
	},
	{
		.name = "qmodel",
		.summary = "the queue model: K dependent chains against latency, a queue cap and a data path",
		.help = "mlpscope qmodel [--latency TICKS] [--chains LIST] [--requests N] [--queue Q]\n"
			"[--bytes-per-tick B]: simulates requests that each stay outstanding L ticks,\n"
			"at most Q at once, through a data path of B bytes per tick, fed by K dependent\n"
			"chains (each issues its next request when the last completes) and by a stream\n"
			"of independent ones. Prints the makespan, the time per request, the mean and\n"
			"peak outstanding the memory saw, and the bound max(L/K, L/Q, bytes/B) with\n"
			"its binding term. A tick is the caller's unit. With no option it answers the\n"
			"textbook case: 64 misses at L = 200 cycles take 12,800 cycles at K = 1, 1,600\n"
			"at K = 8 and 800 at K = 16. No measurement is made; see docs/MODEL.md.\n",
		.kind = SECTION_FILE_COMMAND,
		.usage = "mlpscope qmodel [--latency TICKS] [--chains LIST] [--requests N] [--queue Q] [--bytes-per-tick B]",
		.command = cmd_qmodel,
	},
	{
		.name = "plan",
		.summary = "the planner alone, on another machine's facts: plan --from RESULT.json",
		.help = "mlpscope plan --from FILE [COMMAND] [--quick] [--budget S]: runs the planner a\n"
			"measuring run uses, fed the facts in FILE (a result's `plan.facts`, or a facts\n"
			"file holding that object: caches, CPUs, memory, and the cost model's rates of\n"
			"first touch, chain build, DRAM miss and stream), for COMMAND (default report),\n"
			"and prints the time it would plan per section, what it would shrink to fit\n"
			"the budget and the peak memory. Measures nothing. See docs/METHODOLOGY.md.\n",
		.kind = SECTION_FILE_COMMAND,
		.needs_from = true,
		.operands = SECTION_ARGS_OPTIONAL,
		.operand_name = "command",
		.usage = "mlpscope plan --from FILE [COMMAND] [--quick] [--budget S]",
		.command = plan_section_command,
	},
	{
		.name = "trace",
		.summary = "characterise a program's memory trace (valgrind lackey format)",
		.help = "mlpscope trace FILE [--from run.json] [--latency TICKS] [--json FILE]: reads\n"
			"a trace written by\n"
			"  valgrind --tool=lackey --trace-mem=yes --log-file=FILE prog\n"
			"and reports its footprint, line-level reuse distances (and so the hit rate an\n"
			"LRU cache of each size this machine reports would give), stride regularity,\n"
			"the read/write mix and useful bytes per line delivered. Line requests (one\n"
			"per change of line) run through a stated timing model: one tick per\n"
			"instruction record, each request outstanding L ticks (--latency; else the\n"
			"--from result's t(1) in core cycles; else 200), dependences ignored; it\n"
			"reports mean and peak outstanding, bytes delivered and used, and the\n"
			"characteriser's flags. With --from, a lower bound on the time of its misses\n"
			"from terms measured apart from the lanes sweep: t(1), window's load queue,\n"
			"the bandwidth section's reads. Malformed lines are counted and the first few\n"
			"reported with their line numbers; never fatal. See docs/MODEL.md.\n",
		.kind = SECTION_FILE_COMMAND,
		.outputs = SECTION_OUT_JSON,
		.operands = SECTION_ARGS_ONE,
		.operand_name = "trace file",
		.usage = "mlpscope trace FILE [--from run.json] [--latency TICKS] [--json FILE]",
		.command = cmd_trace,
	},
	{
		.name = "compare",
		.summary = "compare results side by side: mlpscope compare A.json B.json [C.json...]",
		.help = "Reads two to sixteen mlpscope JSON results and prints their headline figures\n"
			"side by side (latency per level and at the largest size, the MLP estimate,\n"
			"peak concurrency, read bandwidth, window capacities, idle latency under load)\n"
			"with ratios to the first. Quantities are compared only where the settings that\n"
			"define them match; every mismatch is listed with the rows it made skip. With\n"
			"--html FILE, the curves of all runs on the same axes; with --svg DIR, the plots.\n"
			"With three or more runs it adds the fleet table: one row of headline figures\n"
			"per run. Given a directory (its *.json files, up to 1024) or --sort FIGURE, it\n"
			"prints only that table, best first by FIGURE (default memory_latency_ns), with\n"
			"the settings that differ across the runs; --html FILE then holds the table.\n"
			"A file that is not mlpscope's, is truncated, or has a newer schema: exit 2.\n",
		.kind = SECTION_FILE_COMMAND,
		.outputs = SECTION_OUT_HTML | SECTION_OUT_SVG,
		.operands = SECTION_ARGS_MANY,
		.usage = "mlpscope compare A.json B.json [C.json...] | DIR [--sort FIGURE]",
		.command = cmd_compare,
	},
	{
		.name = "help",
		.summary = "what a command measures and how (help CMD)",
		.kind = SECTION_HELP,
		/* help has always ignored output flags; refusing them is a change
		 * of behaviour left for its own commit. */
		.outputs = SECTION_OUT_ALL,
		.operands = SECTION_ARGS_TOPIC,
	},
};

const size_t registry_count = sizeof(registry) / sizeof(registry[0]);

const struct section *registry_find(const char *name)
{
	for (size_t i = 0; i < registry_count; i++)
		if (!strcmp(registry[i].name, name))
			return &registry[i];
	return NULL;
}

size_t registry_index(const struct section *s)
{
	return (size_t)(s - registry);
}

bool registry_runs(const struct section *cmd, const struct section *s)
{
	if (s->kind != SECTION_MEASURE)
		return false;
	if (s == cmd || (cmd->kind == SECTION_REPORT && s->in_report))
		return true;
	/* What cmd needs, and what that needs (latency -> tlb -> noise). */
	for (const struct section *n = cmd; n && n->needs; n = registry_find(n->needs))
		if (!strcmp(n->needs, s->name))
			return true;
	return false;
}

/* The threaded sections run one after another, each holding its arenas:
 * the largest of them must fit in MemAvailable. */
static int check_threaded_memory(const struct section_run *s, char *err, size_t errlen)
{
	const struct topo *t = &s->r->topo;
	unsigned threads = s->plan->threads;
	size_t need = 0;
	const char *who = "";
	char a[32], b[32];

	for (size_t i = 0; i < registry_count; i++) {
		size_t bytes;

		if (!registry[i].peak_bytes || !registry_runs(s->o->command, &registry[i]))
			continue;
		if ((bytes = registry[i].peak_bytes(t, s->o->quick, threads)) > need) {
			need = bytes;
			who = registry[i].name;
		}
	}
	if (!t->mem_available_bytes || need <= t->mem_available_bytes)
		return 0;
	report_format_bytes(a, sizeof(a), need);
	report_format_bytes(b, sizeof(b), t->mem_available_bytes);
	return usage_fail(err, errlen, "--threads: %s on %u threads needs %s but only %s is available "
		    "(expected fewer --threads; MemAvailable in /proc/meminfo)", who, threads, a, b);
}

int registry_plan(struct section_run *s, char *err, size_t errlen)
{
	bool threaded = false;
	int rc;

	for (size_t i = 0; i < registry_count; i++)
		threaded |= registry[i].threaded && registry_runs(s->o->command, &registry[i]);
	if (threaded) {
		char why[CLI_ERR_LEN];

		if (team_resolve_threads(s->o->threads, &s->plan->threads, why, sizeof(why)))
			return usage_fail(err, errlen, "%s (expected 1..%d)", why, team_allowed_cpus(NULL, 0));
		if (check_threaded_memory(s, err, errlen))
			return 2;
	}
	for (size_t i = 0; i < registry_count; i++)
		if (registry[i].plan && registry_runs(s->o->command, &registry[i]) &&
		    (rc = registry[i].plan(s, err, errlen)))
			return rc;
	return 0;
}

void registry_free_results(struct report *r)
{
	for (size_t i = 0; i < registry_count && i < REPORT_MAX_SECTIONS; i++) {
		if (!r->results[i])
			continue;
		if (registry[i].free)
			registry[i].free(r->results[i]);
		free(r->results[i]);
		r->results[i] = NULL;
	}
}

int registry_write_csv(const char *dir, const struct jsonr_value *doc)
{
	int rc = atomic_dir_begin(dir);

	if (rc)
		return rc;
	for (size_t i = 0; i < registry_count && !rc; i++)
		if (registry[i].write_csv)
			rc = registry[i].write_csv(dir, doc);
	return atomic_dir_end(rc);
}
