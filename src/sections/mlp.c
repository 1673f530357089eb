/*
 * The `mlp` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: memory-level parallelism: K lanes of dependent loads.
 */
#include "sections/mlp.h"
#include "frame/registry.h"

#include "exp/cache_sizes.h"
#include "kern/lanes.h"
#include "report/mlp_out.h"
#include "sections/latency.h"
#include "frame/plan.h"
#include "util/format.h"
#include "util/jsonw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char mlp_help[] =
	"Builds one random cycle (Sattolo) through a working set far larger than the\n"
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
	"and the spacing, each case with its own layout check.\n"
	"After the sweep, a loaded probe: one dependent chase timed on a second CPU\n"
	"while K lanes run (K = 1, the knee, the largest), beside the same chase with\n"
	"that CPU idle: t_loaded(K) measured, and Little's law on the lanes' own rate.\n";

/* mlp's settings in the plan (budget.h): the set the price assumes (the
 * run's own is the plan's working set, which follows the memory set), the
 * trials and the repeated sweeps. */
struct mlp_knobs {
	size_t bytes;
	unsigned trials, repeats;
	bool levels;                 /* the full report's sweeps at the L2 and last-cache levels */
	bool loaded_probe;           /* t_loaded(K) timed while the lanes run (exp/mlp_probe.h) */
};
_Static_assert(sizeof(struct mlp_knobs) <= BUDGET_KNOB_BYTES, "mlp's knobs fit their slot");

/* Bytes between the chain's nodes the price assumes: one node per line. */
#define MLP_PRICED_SPACING 64

static void mlp_defaults(const struct budget *b, void *knobs)
{
	*(struct mlp_knobs *)knobs = (struct mlp_knobs){.bytes = b->memory_set_bytes, .trials = 6,
							.repeats = b->quick ? 1 : 3, .levels = b->full_report,
							.loaded_probe = true};
}

static double mlp_price(const struct budget *b, const void *knobs, size_t *peak)
{
	const struct mlp_knobs *k = knobs;
	const struct cost_facts *f = &b->facts;
	/* Fitted on one recorded guest at 256 MiB (1 x 3 trials: sweep 1.0 s at
	 * a 139 ns miss, 1.3 s with a re-time; 1 x 6: 3.8 s at 160 ns before
	 * the control arm's regions were quartered): about 2.2 M miss-times a
	 * trial (every K up to 32 once, the control arm's six quarter
	 * regions, each a whole miss per access) and 4 M whatever the trials
	 * (K = 1 and any IMPOSSIBLE point re-timed, the L1 kernels, an eighth
	 * of a region's warm-up per point). The setup is 1.65x a bare chain
	 * build (page collapse, the backing read, the order array). */
	double fixed = 4.0e6 * f->rates.dram_ns / 1e9, per_trial = 2.2e6 * f->rates.dram_ns / 1e9;
	double t = 1.65 * cost_build_s(f, k->bytes / MLP_PRICED_SPACING) + fixed + k->repeats * k->trials * per_trial;

	/* --levels (always in the full report): two more sweeps of one repeat
	 * in sets inside the caches, 2.2-2.6 s whatever the trials there
	 * (3.1 s at a 234 ns miss): mostly their chains and the K sweep's
	 * fixed costs. Where the OS reports no cache the levels are the
	 * latency curve's, inside the L1 and L2 (the L3 a guest is not told
	 * of rarely shows): 0.3 s on one recorded guest. */
	if (k->levels)
		t += f->llc_bytes ? 1.6 + 8e6 * f->rates.dram_ns / 1e9 : 0.3 + 1e6 * f->rates.dram_ns / 1e9;
	*peak = k->bytes + k->bytes / 16;
	/* The loaded probe: about 0.1 s of windows at a 150 ns miss, on the
	 * sweep's own chain (no memory of its own). */
	if (k->loaded_probe)
		t += mlp_probe_timed_seconds(f->rates.dram_ns);
	return t;
}

/* The last of mlp's steps: the levels' sweeps go, the memory sweep (the
 * headline Ks) stays whole; the report then has no per-level Ks. */
static bool shrink_levels(struct budget *b, struct budget_section *s)
{
	return budget_switch_off(b, &BUDGET_KNOBS(s, struct mlp_knobs)->levels,
				 "mlp: no sweeps at the L2 and last-cache levels (the memory sweep's Ks alone)");
}

/* The loaded probe goes after mlp's trials and levels: it is the one
 * figure no other sweep gives (t_loaded beside t(1)), and a fraction of a
 * second. */
static bool shrink_probe(struct budget *b, struct budget_section *s)
{
	return budget_switch_off(b, &BUDGET_KNOBS(s, struct mlp_knobs)->loaded_probe,
				 "mlp: no loaded probe (t_loaded(K) while the lanes run)");
}

static const struct budget_hooks mlp_budget = {
	.alone_budget_s = 15.0, .keep = BUDGET_KEEP_HEADLINE, .defaults = mlp_defaults, .price = mlp_price,
	BUDGET_SET(struct mlp_knobs, bytes, BUDGET_SET_SIZE | BUDGET_SET_MEMORY | BUDGET_SET_FIT),
	BUDGET_STEPS(BUDGET_STEP_DOWN(18, struct mlp_knobs, repeats, 1, 1, "mlp repeats (sweeps)"),
		     BUDGET_STEP_DOWN(23, struct mlp_knobs, trials, 3, 3, "mlp trials"),
		     {.rank = 24, .fn = shrink_levels},
		     {.rank = 26, .fn = shrink_probe}),
	BUDGET_FIELDS(JSONW_FIELD(UINT, "mlp_bytes", struct mlp_knobs, bytes),
		      JSONW_FIELD(UINT, "mlp_trials", struct mlp_knobs, trials),
		      JSONW_FIELD(UINT, "mlp_repeats", struct mlp_knobs, repeats),
		      JSONW_FIELD(BOOL, "mlp_levels", struct mlp_knobs, levels),
		      JSONW_FIELD(BOOL, "mlp_loaded_probe", struct mlp_knobs, loaded_probe)),
};

/* The options mlp reads; --size, --spacing, --pages and --accesses reach it
 * resolved through the plan, --budget through its budget hooks. */
static const struct option_spec mlp_size_opt = {
	.name = "size", .arg = "SIZE", .kind = OPTION_SIZE,
	.deflt = "8x the largest reported cache, 256 MiB to 512 MiB",
	.help = "working set, e.g. 1G or 512MiB",
};
static const struct option_spec mlp_spacing_opt = {
	.name = "spacing", .arg = "BYTES", .kind = OPTION_SPACING, .lo = 8, .hi = 2u << 20,
	.value = PLAN_SPACING_DEFAULT, .deflt = "64: one node per line",
	.help = "bytes between chain nodes, a power of two from 8 to 2MiB",
};
static const struct option_spec mlp_pages_opt = {
	.name = "pages", .arg = "KIND", .kind = OPTION_PAGES, .value = PLAN_PAGES_DEFAULT, .deflt = "huge",
	.help = "page backing to request: small, huge or both",
};
static const struct option_spec mlp_max_lanes_opt = {
	.name = "max-lanes", .arg = "N", .kind = OPTION_UINT, .lo = 1, .hi = LANES_MAX, .value = 64, .deflt = "64",
	.help = "largest lane count swept, 1..128",
};
static const struct option_spec mlp_repeat_opt = {
	.name = "repeat", .arg = "N", .kind = OPTION_UINT, .lo = 1, .hi = POLICY_REPEAT_MAX,
	.deflt = "3, 1 with --quick; fewer on a short budget", .help = "sweeps per run, compared for agreement, 1..16",
};
static const struct option_spec mlp_trials_opt = {
	.name = "trials", .arg = "N", .kind = OPTION_UINT, .lo = 3, .hi = POLICY_TRIALS_MAX, .step = 3,
	.deflt = "6; fewer on a short budget",
	.help = "trials per point per sweep, a multiple of 3",
};
static const struct option_spec mlp_accesses_opt = {
	.name = "accesses", .arg = "N", .kind = OPTION_SIZE, .lo = 1024, .hi = 1ull << 30,
	.value = PLAN_ACCESSES_DEFAULT, .deflt = "256Ki", .help = "logical accesses per timed region, 1024..1Gi",
};
static const struct option_spec mlp_levels_opt = {
	.name = "levels", .kind = OPTION_FLAG,
	.help = "also sweep at working sets in the L2 and the last cache (OS sizes), 1-2 s more here",
};
static const struct option_spec mlp_read_size_opt = {
	.name = "read-size", .kind = OPTION_FLAG,
	.help = "also vary the bytes read per node (8..128) and node spacing, each with its layout check",
};

static const struct option_spec *const mlp_options[] = {
	&mlp_size_opt, &mlp_spacing_opt, &mlp_pages_opt, &mlp_max_lanes_opt, &mlp_repeat_opt, &mlp_trials_opt,
	&mlp_accesses_opt, &mlp_levels_opt, &mlp_read_size_opt, &option_seed, &option_budget, NULL,
};

/* The report's level sweeps, unless the budget gave them up. */
static bool mlp_levels_planned(const struct section_run *s)
{
	const struct mlp_knobs *k = section_knobs_of(s, &mlp_budget);

	return !k || k->levels;
}

/* The loaded probe after the memory sweep, unless the budget gave it up. */
static bool mlp_probe_planned(const struct section_run *s)
{
	const struct mlp_knobs *k = section_knobs_of(s, &mlp_budget);

	return !k || k->loaded_probe;
}

/* Sweeps per run: --repeat when given, else the budget's, else --repeat's default. */
static unsigned mlp_repeats(const struct section_run *s)
{
	const struct mlp_knobs *k = section_knobs_of(s, &mlp_budget);

	unsigned given = (unsigned)option_number(s->o, &mlp_repeat_opt);

	if (given || k)
		return given ? given : k->repeats;
	return s->o->quick ? POLICY_REPEAT_QUICK : POLICY_REPEAT_DEFAULT;
}

/* Trials per point: --trials, else the budget's, else the policy's. */
static unsigned mlp_trials(const struct section_run *s)
{
	const struct mlp_knobs *k = section_knobs_of(s, &mlp_budget);

	unsigned given = (unsigned)option_number(s->o, &mlp_trials_opt);

	return given ? given : k ? k->trials : POLICY_MLP_TRIALS_DEFAULT;
}

/* The memory set was sized before anything ran, from the OS's caches; the
 * run's latency curve may show a larger one (an OS that reports none, or a
 * claim the curve disproves). Under twice it, say so: loads of the largest
 * set may hit that cache. */
static void warn_if_cache_resident(struct report *r, size_t set_bytes)
{
	struct latency_curve curve;
	const struct latency_curve *lat = latency_curve_of(latency_section_result(r), &curve);
	struct cache_sizes c;
	char a[32], b[32];

	cache_sizes_of(&r->topo, lat, &c);
	if (!lat || strcmp(c.largest.from, CACHE_FROM_CURVE) || set_bytes >= 2 * c.largest.bytes)
		return;
	report_format_bytes(a, sizeof(a), set_bytes);
	report_format_bytes(b, sizeof(b), c.largest.bytes);
	result_warn(r, "mlp: the memory set (%s) is under twice the largest cache the latency curve shows (%s): the "
		    "largest set may be cache-resident", a, b);
}

/* One lanes sweep as the plan and options set it, at working_set_bytes on
 * pages, repeated `repeats` times; the main sweep adds its progress and
 * loaded probe. */
/* Speed-ups above K, and the cause where the control arm shows it: a
 * load's latency that falls after traffic (a memory clock or power state
 * that follows demand), a state of the machine, not of the lanes. */
static void warn_impossible(struct report *r, const struct mlp_result *m)
{
	char state[128] = "";
	double fall;
	unsigned at;

	if (mlp_latency_falls_after_traffic(m, &fall, &at))
		mlp_fall_clause(state, sizeof(state), "the", fall, at);
	result_warn(r, "mlp (%s pages): %u speedup(s) t(1)/t(K) above K after a re-time, marked IMPOSSIBLE and left "
		    "out of the fit%s", m->pages_requested, m->nimpossible, state);
}

static struct mlp_params sweep_params(const struct section_run *s, size_t working_set_bytes,
				      enum page_request pages, unsigned repeats)
{
	return (struct mlp_params){
		.working_set_bytes = working_set_bytes,
		.spacing_bytes = s->plan->spacing_bytes,
		.line_bytes = s->r->topo.line_bytes,
		.pages = pages,
		.max_lanes = option_number(s->o, &mlp_max_lanes_opt),
		.repeats = repeats,
		.trials = mlp_trials(s),
		.accesses = s->plan->accesses,
		.seed = s->o->seed,
		.run_floor_pct = report_run_floor_pct(s->r),
		.clock = &s->r->clock,
		.stop = s->stop,
	};
}

/* --levels: the same sweep (one repeat) at a working set in the L2 and in
 * the last cache; the main sweep is the level past it. */
static int mlp_levels_section_run(struct section_run *s, struct mlp_arms *a)
{
	const struct plan *plan = s->plan;
	struct report *r = s->r;
	struct mlp_result *m = calloc(1, sizeof(*m));
	struct latency_curve curve;
	uint64_t w0 = clock_wall_ns();
	int rc = 0;

	if (!m)
		return -ENOMEM;
	warn_if_cache_resident(r, plan->working_set_bytes);
	a->nlevels = mlp_levels_plan_curve(&r->topo, latency_curve_of(latency_section_result(r), &curve),
					   plan->working_set_bytes, a->levels);
	for (unsigned i = 0; i < a->nlevels && !rc; i++) {
		struct mlp_level *lv = &a->levels[i];
		struct mlp_params mp = sweep_params(s, lv->working_set_bytes, plan->pages[0], 1);

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
	section_progress_done(s);
	mlp_levels_mark_resident(a->levels, a->nlevels);
	if (mlp_levels_mark_falls(a->levels, a->nlevels))
		result_warn(r, "mlp --levels: t(1) falls by more than the floor from a smaller level to a larger one "
			    "(NON-MONOTONIC in the levels table): one of the two rows is suspect");
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
		struct mlp_params mp = sweep_params(s, plan->working_set_bytes, plan->pages[i], mlp_repeats(s));
		struct mlp_result *m = &a->arm[i];
		int rc;

		mp.progress = s->progress;
		mp.progress_ctx = s;
		mp.loaded_probe = mlp_probe_planned(s);

		s->label = plan->pages[i] == PAGES_HUGE ? "mlp (huge pages)" : "mlp (small pages)";
		rc = mlp_run(&mp, m);
		section_progress_done(s);
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
				    "the plateau may lie beyond it", m->pages_requested,
				    (unsigned)option_number(o, &mlp_max_lanes_opt));
		if (m->nimpossible)
			warn_impossible(r, m);
		if (m->probe.nimpossible)
			result_warn(r, "mlp (%s pages): %u loaded-probe time(s) below the idle probe's after a re-time, "
				    "marked IMPOSSIBLE", m->pages_requested, m->probe.nimpossible);
		if (m->estimate.repeats_agreeing < m->estimate.repeats)
			result_warn(r, "mlp (%s pages): only %u of %u sweeps agreed on the saturation",
				    m->pages_requested, m->estimate.repeats_agreeing, m->estimate.repeats);
	}
	/* The full report sweeps the levels too: the two extra sweeps cost about
	 * a third of a memory sweep (priced in budget.c), and they are the
	 * evidence that tells a core-wide cap from one on requests that leave
	 * the last cache. */
	if (option_flag(o, &mlp_levels_opt) || (o->command->kind == SECTION_REPORT && mlp_levels_planned(s))) {
		int rc = mlp_levels_section_run(s, a);

		if (rc)
			return rc;
	}
	return option_flag(o, &mlp_read_size_opt) ? mlp_read_size_section_run(s, a) : 0;
}

static void mlp_section_free(void *res)
{
	mlp_arms_free(res);
}

const struct section section_mlp = {
	.name = "mlp", .summary = "memory-level parallelism: K lanes of dependent loads",
	.options = mlp_options,
	.help = mlp_help, .kind = SECTION_MEASURE, .in_report = true, .outputs = SECTION_OUT_ALL,
	.result_bytes = sizeof(struct mlp_arms), .needs = "noise", .budget = &mlp_budget, .run = mlp_section_run,
	.write_text = mlp_write_text, .write_json = mlp_write_json, .write_csv = mlp_write_csv,
	.free = mlp_section_free,
	.view = &view_mlp,
};

const struct mlp_arms *mlp_section_result(const struct report *r)
{
	return registry_result(r, &section_mlp);
}

const char *mlp_section_fall_clause(const struct report *r, char *buf, size_t len)
{
	const struct mlp_arms *a = mlp_section_result(r);
	double fall;
	unsigned at;

	for (int i = 0; a && i < a->n; i++)
		if (mlp_latency_falls_after_traffic(&a->arm[i], &fall, &at))
			return mlp_fall_clause(buf, len, "mlp's", fall, at);
	return "";
}
