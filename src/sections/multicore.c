/*
 * The `multicore` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: the lanes sweep on T threads at once: total concurrency against
 * K and T.
 */
#include "sections/registry.h"

#include "report/bandwidth_out.h"
#include "sections/plan.h"

static const char multicore_help[] =
	"Runs the mlp lanes sweep on 1, 2, 4 ... --threads threads at once, each pinned to\n"
	"its own CPU with its own chain in its own arena: the aggregate access rate (all\n"
	"accesses over the team's common span) and the total concurrency (that rate times\n"
	"one thread's t(1), by Little's law) against K and T, and where the shared memory\n"
	"system saturates.\n";

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
	if (section_budget_of(s)) {
		mp.per_thread_bytes = section_budget_of(s)->multicore_bytes;
		mp.trials = section_budget_of(s)->multicore_trials;
		mp.max_lanes = section_budget_of(s)->multicore_lanes;
	}
	mp.max_threads = s->o->threads;
	mp.seed = s->o->seed;
	mp.stop = s->stop;
	if ((rc = multicore_run(&mp, result, why, sizeof(why))))
		return section_threaded_failed(s, "multicore", rc, why);
	return 0;
}

static const struct team_placement *multicore_section_placement(const void *res)
{
	return &((const struct multicore_result *)res)->placement;
}

static void multicore_section_free(void *res)
{
	multicore_result_free(res);
}

const struct section section_multicore = {
	.name = "multicore",
	.options = "budget",
	.summary = "the lanes sweep on T threads at once: total concurrency against K and T",
	.help = multicore_help, .kind = SECTION_MEASURE, .in_report = true, .threaded = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct multicore_result),
	.peak_bytes = multicore_section_peak, .run = multicore_section_run,
	.write_text = multicore_write_text, .write_json = multicore_write_json,
	.write_csv = multicore_write_csv, .placement = multicore_section_placement,
	.free = multicore_section_free,
	.view = &view_multicore,
};
