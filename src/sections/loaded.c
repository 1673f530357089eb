/*
 * The `loaded` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: latency under load: one chaser while other threads generate
 * traffic.
 */
#include "sections/registry.h"

#include "report/bandwidth_out.h"
#include "sections/plan.h"
#include "util/usage.h"

static const char loaded_help[] =
	"One pinned thread runs the dependent chase while the others generate read (and\n"
	"read/write) traffic, throttled by an injection delay swept from none to idle.\n"
	"Output: the idle latency, latency against delivered bandwidth, and the bandwidth\n"
	"at which latency doubles (or that it was not reached). Needs 2 CPUs.\n";

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
	struct loaded_params lp;
	char why[CLI_ERR_LEN] = "";
	int rc;

	if (s->plan->threads < 2)
		return 1;  /* skipped; the plan warned */
	loaded_params_default(&lp, &s->r->clock, &s->r->topo, s->o->quick);
	if (section_budget_of(s)) {
		lp.chase_bytes = section_budget_of(s)->loaded_chase_bytes;
		lp.gen_bytes = section_budget_of(s)->loaded_gen_bytes;
		lp.trials = section_budget_of(s)->loaded_trials;
	}
	lp.threads = s->o->threads;
	lp.seed = s->o->seed;
	lp.stop = s->stop;
	if ((rc = loaded_run(&lp, result, why, sizeof(why))))
		return section_threaded_failed(s, "loaded", rc, why);
	return 0;
}

static const struct team_placement *loaded_section_placement(const void *res)
{
	return &((const struct loaded_result *)res)->placement;
}

const struct section section_loaded = {
	.name = "loaded",
	.options = "budget",
	.summary = "latency under load: one chaser while other threads generate traffic",
	.help = loaded_help, .kind = SECTION_MEASURE, .in_report = true, .threaded = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct loaded_result),
	.plan = loaded_section_plan, .peak_bytes = loaded_section_peak, .run = loaded_section_run,
	.write_text = loaded_write_text, .write_json = loaded_write_json,
	.write_csv = loaded_write_csv, .placement = loaded_section_placement,
	.view = &view_loaded,
};
