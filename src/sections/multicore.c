/*
 * The `multicore` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: the lanes sweep on T threads at once: total concurrency against
 * K and T.
 */
#include "sections/multicore.h"
#include "frame/registry.h"

#include "report/multicore_out.h"
#include "core/team.h"
#include "frame/plan.h"
#include "sections/mlp.h"
#include "util/jsonw.h"

static const char multicore_help[] =
	"Runs the mlp lanes sweep on 1, 2, 4 ... --threads threads at once, each pinned to\n"
	"its own CPU with its own chain in its own arena: the aggregate access rate (all\n"
	"accesses over the team's common span) and the total concurrency (that rate times\n"
	"one thread's t(1), by Little's law) against K and T, and where the shared memory\n"
	"system saturates.\n";

/* multicore's settings in the plan (budget.h): each thread's set, the
 * trials and the largest lane count. */
struct multicore_knobs {
	size_t bytes;                /* per thread */
	unsigned trials, lanes;
};
_Static_assert(sizeof(struct multicore_knobs) <= BUDGET_KNOB_BYTES, "multicore's knobs fit their slot");

/* Each thread's arena plus its cycle order (4 B per node), on every thread. */
static size_t multicore_peak_bytes(size_t threads, size_t per_thread_bytes)
{
	return threads * (per_thread_bytes + per_thread_bytes / 16);
}

static void multicore_defaults(const struct budget *b, void *knobs)
{
	bool q = b->quick;

	*(struct multicore_knobs *)knobs = (struct multicore_knobs){
		.bytes = q ? b->memory_set_bytes / 4 : b->memory_set_bytes / 2, .trials = q ? 3 : 9, .lanes = q ? 16 : 48};
}

static double multicore_price(const struct budget *b, const void *knobs, size_t *peak)
{
	const struct multicore_knobs *k = knobs;
	const struct cost_facts *f = &b->facts;
	unsigned counts_buf[MULTICORE_MAX_COUNTS], counts = team_thread_counts(f->cpus, counts_buf, MULTICORE_MAX_COUNTS);
	/* every thread builds its own chain at once; then per thread count,
	 * lanes x trials regions of 32768 accesses at about L/min(K, 10). */
	double per_region = 0, t;

	for (unsigned l = 1; l <= k->lanes; l++)
		per_region += 32768.0 * f->rates.dram_ns / (l < 10 ? l : 10) / 1e9;
	/* 1.3: fitted on another recorded guest (1.4 and 2.4 s against 1.2 and
	 * 1.7 s priced) */
	t = 1.3 * (cost_build_s(f, k->bytes / 64) * (f->cpus > 1 ? 1.3 : 1.0) + counts * k->trials * per_region);
	*peak = multicore_peak_bytes(f->cpus, k->bytes);
	return t;
}

static void multicore_memory_set(const struct budget *b, void *knobs, size_t to)
{
	struct multicore_knobs *k = knobs;

	(void)b;
	k->bytes = k->bytes > to / 2 ? to / 2 : k->bytes;
}

/* multicore holds a set per thread: on many CPUs their sum passes the cap
 * long before any one set is small. Halve each while together they still
 * reach the floor (the team's working set past the caches). */
static bool shrink_set(struct budget *b, struct budget_section *s)
{
	struct multicore_knobs *k = BUDGET_KNOBS(s, struct multicore_knobs);
	size_t to = k->bytes / 2, cpus = b->facts.cpus ? b->facts.cpus : 1;

	if (s->peak_bytes <= b->rss_cap_bytes || cpus * to < b->memory_set_floor_bytes)
		return false;
	budget_note_bytes(b, "multicore: each thread's set", k->bytes, to, "");
	k->bytes = to;
	return true;
}

static const struct budget_hooks multicore_budget = {
	.defaults = multicore_defaults, .price = multicore_price, .memory_set = multicore_memory_set,
	.memory_step = shrink_set,
	BUDGET_STEPS(BUDGET_STEP_DOWN(12, struct multicore_knobs, trials, 3, 3, "multicore trials")),
	BUDGET_FIELDS(JSONW_FIELD(UINT, "multicore_bytes_per_thread", struct multicore_knobs, bytes),
		      JSONW_FIELD(UINT, "multicore_trials", struct multicore_knobs, trials)),
};

static size_t multicore_section_peak(const struct topo *t, bool quick, unsigned threads)
{
	struct multicore_params mp;

	multicore_params_default(&mp, NULL, t, quick);
	return multicore_peak_bytes(threads, mp.per_thread_bytes);
}

/* Concurrency above T x K, and the cause where mlp's control arm showed
 * it in this run: a load's latency that falls after traffic. Every
 * trial of T = 1, K = 1 (the t(1) each figure is divided by) follows
 * the largest team's traffic, the others each their own point's, so
 * the state moves the ratio and no arm of this section can show it. */
static void warn_impossible(struct report *r, const struct multicore_result *m)
{
	char state[128];

	result_warn(r, "multicore: %u concurrency figure(s) above threads x lanes after a re-time, marked IMPOSSIBLE "
		    "and left out of the saturation%s", m->nimpossible, mlp_section_fall_clause(r, state, sizeof(state)));
}

static int multicore_section_run(struct section_run *s, void *result)
{
	const struct multicore_knobs *k = section_knobs_of(s, &multicore_budget);
	struct multicore_params mp;
	char why[CLI_ERR_LEN] = "";

	multicore_params_default(&mp, &s->r->clock, &s->r->topo, s->o->quick);
	mp.run_floor_pct = report_run_floor_pct(s->r);
	if (k) {
		mp.per_thread_bytes = k->bytes;
		mp.trials = k->trials;
		mp.max_lanes = k->lanes;
	}
	mp.max_threads = s->o->threads;
	mp.seed = s->o->seed;
	mp.stop = s->stop;
	int rc = section_threaded_done(s, "multicore", multicore_run(&mp, result, why, sizeof(why)), why);
	const struct multicore_result *r = result;

	if (!rc && r->nimpossible)
		warn_impossible(s->r, r);
	return rc;
}

static void multicore_section_free(void *res)
{
	multicore_result_free(res);
}

const struct section section_multicore = {
	.name = "multicore",
	.options = options_seeded_threaded,
	.summary = "the lanes sweep on T threads at once: total concurrency against K and T",
	.help = multicore_help, .kind = SECTION_MEASURE, .in_report = true, .threaded = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct multicore_result), .needs = "noise",
	.budget = &multicore_budget, .peak_bytes = multicore_section_peak, .run = multicore_section_run,
	.write_text = multicore_write_text, .write_json = multicore_write_json,
	.write_csv = multicore_write_csv, .placement_offset = offsetof(struct multicore_result, placement),
	.free = multicore_section_free,
	.view = &view_multicore,
};

const struct multicore_result *multicore_section_result(const struct report *r)
{
	return registry_result(r, &section_multicore);
}
