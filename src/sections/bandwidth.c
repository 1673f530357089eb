/*
 * The `bandwidth` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: sequential read/write/copy bandwidth per thread and in total;
 * random-access efficiency.
 */
#include "sections/bandwidth.h"
#include "frame/registry.h"

#include "report/bandwidth_out.h"
#include "core/team.h"
#include "frame/plan.h"
#include "util/jsonw.h"

#include <math.h>

static const char bandwidth_help[] =
	"Streams a working set far beyond the last-level cache with scalar and the widest\n"
	"vector kernels this CPU runs (chosen at run time): read, write, copy, and\n"
	"non-temporal stores where the ISA has them, on 1, 2, 4 ... --threads threads\n"
	"pinned one per CPU. Decimal GB/s of the bytes the kernel names; a store's\n"
	"read-for-ownership traffic is not counted (the report says so). Then the\n"
	"efficiency of random access at node spacings 8, 64, 128 and 4096 B: useful bytes\n"
	"per access against the lines (and page-walk share, from small vs huge pages)\n"
	"the memory system must move, labelled a model: nothing counts the bytes.\n";

/* bandwidth's settings in the plan (budget.h): the streamed arena and
 * what each trial streams of it, the trials, and the random-access
 * efficiency arms' sets, their node cap and trials. */
struct bandwidth_knobs {
	size_t bytes, trial_bytes;
	unsigned trials;
	size_t eff_bytes, eff_max_nodes;
	unsigned eff_trials;
};
_Static_assert(sizeof(struct bandwidth_knobs) <= BUDGET_KNOB_BYTES, "bandwidth's knobs fit their slot");

#define MIB ((size_t)1 << 20)

/* The streamed arena and both efficiency arms' sets, held at once. */
static size_t bandwidth_peak_bytes(size_t bytes, size_t efficiency_bytes)
{
	return bytes + 2 * efficiency_bytes;
}

/* A quarter of the arena per trial, at least 64 MiB: four windows rotate,
 * so each comes back after three others evicted it. */
static size_t trial_bytes(size_t bytes)
{
	return bytes / 4 < 64 * MIB ? bytes : bytes / 4;
}

static void bandwidth_defaults(const struct budget *b, void *knobs)
{
	struct bandwidth_knobs *k = knobs;
	size_t mem = b->memory_set_bytes;
	bool q = b->quick;

	k->bytes = q ? mem / 2 : mem;
	k->trial_bytes = trial_bytes(k->bytes);
	k->trials = q ? 3 : 9;
	k->eff_bytes = mem;
	k->eff_max_nodes = q ? (size_t)2 << 20 : (size_t)8 << 20;
	k->eff_trials = q ? 3 : 6;
}

static double bandwidth_price(const struct budget *b, const void *knobs, size_t *peak)
{
	const struct bandwidth_knobs *k = knobs;
	const struct cost_facts *f = &b->facts;
	static const size_t spacings[4] = {8, 64, 128, 4096};
	unsigned counts_buf[BANDWIDTH_MAX_COUNTS], counts = team_thread_counts(f->cpus, counts_buf, BANDWIDTH_MAX_COUNTS);
	/* 8 kernels (read, write, copy scalar and widest; non-temporal write
	 * and copy), copy moving each byte twice: about 10 slices' worth per
	 * trial at each thread count, at the team's rate; then 5 mixes. */
	double team_gbps = f->rates.stream_gbps * (f->cpus > 1 ? 1.6 : 1.0);
	double slice_s = (double)k->trial_bytes / team_gbps / 1e9;
	double t = cost_touch_s(f, k->bytes) + (k->trials + 1) * (10.0 * counts + 6.0) * slice_s;

	for (unsigned i = 0; i < 4; i++) {
		size_t bytes = k->eff_bytes, nodes;

		if (bytes / spacings[i] > k->eff_max_nodes)
			bytes = k->eff_max_nodes * spacings[i];
		nodes = bytes / spacings[i];
		/* Per node, both arms: two builds (layout checks included) and
		 * half a miss's worth of the small-page arm's table walks; per
		 * byte, both arenas first touched fresh. Fitted on one recorded
		 * guest on eight rows, 64 Ki-8 Mi nodes over 16-256 MiB
		 * (0.28-1.58 s a row). Then the chase regions. */
		t += (double)nodes * (2 * f->rates.build_ns_per_node + 0.5 * f->rates.dram_ns) / 1e9 +
		     cost_fresh_touch_s(f, 2 * bytes) +
		     2.0 * (k->eff_trials + 1) * fmin(32768.0, (double)nodes / 2) * f->rates.dram_ns * 1.5 / 1e9;
	}
	*peak = bandwidth_peak_bytes(k->bytes, k->eff_bytes);
	return t;
}

static void bandwidth_memory_set(const struct budget *b, void *knobs, size_t to)
{
	struct bandwidth_knobs *k = knobs;

	(void)b;
	k->bytes = k->bytes > to ? to : k->bytes;
	k->trial_bytes = trial_bytes(k->bytes);
	k->eff_bytes = to;
}

static bool shrink_eff_nodes(struct budget *b, struct budget_section *s)
{
	struct bandwidth_knobs *k = BUDGET_KNOBS(s, struct bandwidth_knobs);

	/* 1 Mi nodes: 64 MiB at a line's spacing, still past most last
	 * caches (a row that is not says fits_llc) */
	if (k->eff_max_nodes <= ((size_t)1 << 20))
		return false;
	budget_note_count(b, "bandwidth efficiency chains (Mi nodes)", k->eff_max_nodes >> 20, k->eff_max_nodes >> 21, "");
	k->eff_max_nodes /= 2;
	return true;
}

static const struct budget_hooks bandwidth_budget = {
	.keep = BUDGET_KEEP_SUPPORT, .defaults = bandwidth_defaults, .price = bandwidth_price, .memory_set = bandwidth_memory_set,
	BUDGET_STEPS(BUDGET_STEP_DOWN(10, struct bandwidth_knobs, trials, 3, 3, "bandwidth trials"),
		     {.rank = 14, .fn = shrink_eff_nodes},
		     BUDGET_STEP_DOWN(15, struct bandwidth_knobs, eff_trials, 3, 3, "bandwidth efficiency trials")),
	BUDGET_FIELDS(JSONW_FIELD(UINT, "bandwidth_bytes", struct bandwidth_knobs, bytes),
		      JSONW_FIELD(UINT, "bandwidth_trials", struct bandwidth_knobs, trials),
		      JSONW_FIELD(UINT, "bandwidth_efficiency_max_nodes", struct bandwidth_knobs, eff_max_nodes)),
};

static size_t bandwidth_section_peak(const struct topo *t, bool quick, unsigned threads)
{
	struct bandwidth_params bp;

	(void)threads;
	bandwidth_params_default(&bp, NULL, t, quick);
	return bandwidth_peak_bytes(bp.working_set_bytes, bp.efficiency_bytes);
}

static int bandwidth_section_run(struct section_run *s, void *result)
{
	const struct bandwidth_knobs *k = section_knobs_of(s, &bandwidth_budget);
	struct bandwidth_params bp;
	char why[CLI_ERR_LEN] = "";

	bandwidth_params_default(&bp, &s->r->clock, &s->r->topo, s->o->quick);
	bp.run_floor_pct = report_run_floor_pct(s->r);
	if (k) {
		bp.working_set_bytes = k->bytes;
		bp.trial_bytes = k->trial_bytes;
		bp.trials = k->trials;
		bp.efficiency_bytes = k->eff_bytes;
		bp.efficiency_max_nodes = k->eff_max_nodes;
		bp.efficiency_trials = k->eff_trials;
	}
	bp.max_threads = s->o->threads;
	bp.seed = s->o->seed;
	bp.stop = s->stop;
	int rc = section_threaded_done(s, "bandwidth", bandwidth_run(&bp, result, why, sizeof(why)), why);
	const struct bandwidth_result *r = result;

	if (!rc && r->nimpossible)
		result_warn(s->r, "bandwidth: %u figure(s) above threads x the same kernel's one-thread GB/s after a "
			    "re-time, marked IMPOSSIBLE and left out of the summary", r->nimpossible);
	return rc;
}

static void bandwidth_section_free(void *res)
{
	bandwidth_result_free(res);
}

const struct section section_bandwidth = {
	.name = "bandwidth",
	.options = options_seeded_threaded,
	.summary = "sequential read/write/copy bandwidth per thread and in total; random-access efficiency",
	.help = bandwidth_help, .kind = SECTION_MEASURE, .in_report = true, .threaded = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct bandwidth_result), .needs = "noise",
	.budget = &bandwidth_budget, .peak_bytes = bandwidth_section_peak, .run = bandwidth_section_run,
	.write_text = bandwidth_write_text, .write_json = bandwidth_write_json,
	.write_csv = bandwidth_write_csv, .placement_offset = offsetof(struct bandwidth_result, placement),
	.free = bandwidth_section_free,
	.view = &view_bandwidth,
};

const struct bandwidth_result *bandwidth_section_result(const struct report *r)
{
	return registry_result(r, &section_bandwidth);
}
