/*
 * The `bandwidth` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: sequential read/write/copy bandwidth per thread and in total;
 * random-access efficiency.
 */
#include "sections/registry.h"

#include "report/bandwidth_out.h"
#include "sections/plan.h"

static const char bandwidth_help[] =
	"Streams a working set far beyond the last-level cache with scalar and the widest\n"
	"vector kernels this CPU runs (chosen at run time): read, write, copy, and\n"
	"non-temporal stores where the ISA has them, on 1, 2, 4 ... --threads threads\n"
	"pinned one per CPU. Decimal GB/s of the bytes the kernel names; a store's\n"
	"read-for-ownership traffic is not counted (the report says so). Then the\n"
	"efficiency of random access at node spacings 8, 64, 128 and 4096 B: useful bytes\n"
	"per access against the lines (and page-walk share, from small vs huge pages)\n"
	"the memory system must move, labelled a model: nothing counts the bytes.\n";

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
	if (section_budget_of(s)) {
		const struct budget *b = section_budget_of(s);

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
		return section_threaded_failed(s, "bandwidth", rc, why);
	return 0;
}

static const struct team_placement *bandwidth_section_placement(const void *res)
{
	return &((const struct bandwidth_result *)res)->placement;
}

static void bandwidth_section_free(void *res)
{
	bandwidth_result_free(res);
}

const struct section section_bandwidth = {
	.name = "bandwidth",
	.options = "budget",
	.summary = "sequential read/write/copy bandwidth per thread and in total; random-access efficiency",
	.help = bandwidth_help, .kind = SECTION_MEASURE, .in_report = true, .threaded = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct bandwidth_result),
	.peak_bytes = bandwidth_section_peak, .run = bandwidth_section_run,
	.write_text = bandwidth_write_text, .write_json = bandwidth_write_json,
	.write_csv = bandwidth_write_csv, .placement = bandwidth_section_placement,
	.free = bandwidth_section_free,
	.view = &view_bandwidth,
};
