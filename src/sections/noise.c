/*
 * The `noise` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: the instrument's own noise floor: the spread of its estimators.
 */
#include "frame/registry.h"

#include "run/run.h"
#include "report/noise_out.h"
#include "frame/budget.h"

static const char noise_help[] =
	"Times a short L1-resident chase min-of-3, 14 times, and reports the spread of\n"
	"those minima (the estimator's noise floor) next to the spread of the single runs.\n"
	"Then compares an L1-resident and an L2-resident chase by four estimators: each\n"
	"arm alone, the ratio of minima, and the paired ratio (divide inside each\n"
	"iteration, then take the minimum, so clock drift cancels in each quotient). The\n"
	"widest spread is this run's tolerance; which estimator is steadiest changes\n"
	"with how hard the clock moves, so none is asserted.\n";

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

const struct section section_noise = {
	.name = "noise",
	.options = options_seeded,
	.budget = &budget_prerequisite,
	.summary = "the instrument's own noise floor: the spread of its estimators",
	.help = noise_help, .kind = SECTION_MEASURE, .in_report = true, .outputs = SECTION_OUT_ALL,
	.result_bytes = sizeof(struct noise_result), .run = noise_section_run,
	.write_text = noise_write_text, .write_json = noise_write_json,
	.write_csv = noise_write_csv,
	.view = &view_noise,
};
