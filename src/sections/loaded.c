/*
 * The `loaded` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: latency under load: one chaser while other threads generate
 * traffic.
 */
#include "sections/loaded.h"
#include "frame/registry.h"
#include "sections/bandwidth.h"

#include "report/loaded_out.h"
#include "frame/plan.h"
#include "util/jsonw.h"
#include "util/usage.h"

static const char loaded_help[] =
	"One pinned thread runs the dependent chase while the others generate read (and\n"
	"read/write) traffic, throttled by an injection delay swept from none to idle.\n"
	"Output: the idle latency, latency against delivered bandwidth, and the bandwidth\n"
	"at which latency doubles (or that it was not reached). Needs 2 CPUs.\n";

/* loaded's settings in the plan (budget.h): the chaser's set, the
 * generators' set and the trials. */
struct loaded_knobs {
	size_t chase_bytes, gen_bytes;
	unsigned trials;
};
_Static_assert(sizeof(struct loaded_knobs) <= BUDGET_KNOB_BYTES, "loaded's knobs fit their slot");

static void loaded_memory_set(const struct budget *b, void *knobs, size_t to)
{
	struct loaded_knobs *k = knobs;

	(void)b;
	k->chase_bytes = to / 2;
	k->gen_bytes = to;
}

static void loaded_defaults(const struct budget *b, void *knobs)
{
	loaded_memory_set(b, knobs, b->memory_set_bytes);
	((struct loaded_knobs *)knobs)->trials = b->quick ? 3 : 9;
}

static double loaded_price(const struct budget *b, const void *knobs, size_t *peak)
{
	const struct loaded_knobs *k = knobs;
	const struct cost_facts *f = &b->facts;
	double delays = b->quick ? 6 : 12, kinds = b->quick ? 1 : 2;
	/* per delay and kind: the generators alone (2 ms) and trials of the
	 * chase beside them (32768 hops, slower under load) */
	double t = cost_build_s(f, k->chase_bytes / 64) + cost_touch_s(f, k->gen_bytes) +
		   kinds * (delays + 1) * (2e-3 + k->trials * (b->quick ? 16384.0 : 32768.0) * f->rates.dram_ns * 1.9 / 1e9);

	/* fitted on another recorded guest: 2.6-3.2 s against 2.4 s priced, 0.8 s
	 * against 0.4 with --quick (the teams' start and the rate windows) */
	t = 1.15 * t + 0.3;

	*peak = f->cpus < 2 ? 0 : k->chase_bytes + k->gen_bytes;
	return f->cpus < 2 ? 0 : t;
}

static const struct budget_hooks loaded_budget = {
	.defaults = loaded_defaults, .price = loaded_price, .memory_set = loaded_memory_set,
	BUDGET_STEPS(BUDGET_STEP_DOWN(13, struct loaded_knobs, trials, 3, 3, "loaded trials")),
	BUDGET_FIELDS(JSONW_FIELD(UINT, "loaded_chase_bytes", struct loaded_knobs, chase_bytes),
		      JSONW_FIELD(UINT, "loaded_gen_bytes", struct loaded_knobs, gen_bytes),
		      JSONW_FIELD(UINT, "loaded_trials", struct loaded_knobs, trials)),
};

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
	return section_plan_two_threads(s, "loaded", "2 threads, one chaser and one load generator",
					"2 threads (one chaser, one load generator)", err, errlen);
}

static int loaded_section_run(struct section_run *s, void *result)
{
	const struct loaded_knobs *k = section_knobs_of(s, &loaded_budget);
	struct loaded_params lp;
	char why[CLI_ERR_LEN] = "";

	if (s->plan->threads < 2)
		return 1;  /* skipped; the plan warned */
	loaded_params_default(&lp, &s->r->clock, &s->r->topo, s->o->quick);
	lp.run_floor_pct = report_run_floor_pct(s->r);
	if (k) {
		lp.chase_bytes = k->chase_bytes;
		lp.gen_bytes = k->gen_bytes;
		lp.trials = k->trials;
	}
	lp.threads = s->o->threads;
	lp.seed = s->o->seed;
	/* The streams ran before this section in a full report: what this
	 * memory delivered to any team bounds what the generators can. */
	if (bandwidth_section_result(s->r))
		lp.stream_peak_gbps = bandwidth_peak_gbps(bandwidth_section_result(s->r));
	lp.stop = s->stop;
	int rc = section_threaded_done(s, "loaded", loaded_run(&lp, result, why, sizeof(why)), why);
	const struct loaded_result *r = result;

	if (!rc && r->nimpossible)
		result_warn(s->r, "loaded: %u point(s) delivered more than the generators offered alone (after the "
			    "offer was measured again) or the run's stream peak: marked IMPOSSIBLE and left out of "
			    "where latency doubles",
			    r->nimpossible);
	if (!rc && r->nfalls)
		result_warn(s->r, "loaded: latency falls by more than the %.1f%% floor at %u point(s) as offered load "
			    "rises (NON-MONOTONIC in the curve): the less loaded point is suspect",
			    r->noise_floor_pct, r->nfalls);
	return rc;
}

const struct section section_loaded = {
	.name = "loaded",
	.options = options_seeded_threaded,
	.summary = "latency under load: one chaser while other threads generate traffic",
	.help = loaded_help, .kind = SECTION_MEASURE, .in_report = true, .threaded = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct loaded_result), .needs = "noise",
	.budget = &loaded_budget, .plan = loaded_section_plan, .peak_bytes = loaded_section_peak, .run = loaded_section_run,
	.write_text = loaded_write_text, .write_json = loaded_write_json,
	.write_csv = loaded_write_csv, .placement_offset = offsetof(struct loaded_result, placement),
	.view = &view_loaded,
};

const struct loaded_result *loaded_section_result(const struct report *r)
{
	return registry_result(r, &section_loaded);
}
