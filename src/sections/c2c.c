/*
 * The `c2c` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: core-to-core latency: one cache line bounced between every
 * ordered pair of CPUs.
 */
#include "frame/registry.h"

#include "report/c2c_out.h"
#include "frame/plan.h"
#include "util/usage.h"

#include <string.h>

static const char c2c_help[] =
	"For every ordered pair of allowed CPUs (--threads N: the first N), a thread on\n"
	"each bounces one cache line: the first writes an odd value, the second answers\n"
	"with the next even one. Half a round trip is one transfer of the line from core\n"
	"to core, in ns; the minimum and the median of up to 64 samples of 200 round trips\n"
	"per pair, as a matrix (row: the CPU that owns the line, column: its partner) and\n"
	"a heat map in the HTML. Each pair gets a fresh 4 KiB page, mapped and first\n"
	"touched by the row's CPU, so the line lives on that CPU's memory node and no third\n"
	"core ever held it. Time per pair is bounded (the report spreads 4 s over the\n"
	"pairs, 0.5 to 25 ms each; alone, 16 s), so 256 CPUs take a known time, stated\n"
	"before it starts. Needs 2 CPUs.\n";

/* c2c's settings in the plan (budget.h): seconds spread over the pairs. */
struct c2c_knobs {
	double total_s;
};
_Static_assert(sizeof(struct c2c_knobs) <= BUDGET_KNOB_BYTES, "c2c's knobs fit their slot");

/* Seconds spread over the pairs without a budget: the experiment's
 * default; alone, 4x that, a fuller matrix (in the report the time is
 * shared with the rest). */
static double c2c_total_s(bool quick, bool alone)
{
	struct c2c_params cp;

	c2c_params_default(&cp, NULL, quick);
	return alone ? 4 * cp.total_budget_s : cp.total_budget_s;
}

static void c2c_defaults(const struct budget *b, void *knobs)
{
	((struct c2c_knobs *)knobs)->total_s = c2c_total_s(b->quick, !strcmp(b->command, "c2c"));
}

static double c2c_price(const struct budget *b, const void *knobs, size_t *peak)
{
	struct c2c_params cp;

	(void)peak;
	c2c_params_default(&cp, NULL, b->quick);
	cp.total_budget_s = ((const struct c2c_knobs *)knobs)->total_s;
	return b->facts.cpus < 2 ? 0 : c2c_estimate_s(&cp, b->facts.cpus, NULL);
}

static const struct budget_hooks c2c_budget = {.defaults = c2c_defaults, .price = c2c_price};

/* A line needs two cores to bounce between: asked for by name with one
 * CPU that is a usage error; in the full report the section is skipped. */
static int c2c_section_plan(struct section_run *s, char *err, size_t errlen)
{
	return section_plan_two_threads(s, "c2c", "2 CPUs, one at each end of the line",
					"2 CPUs (one at each end of the line)", err, errlen);
}

static int c2c_section_run(struct section_run *s, void *result)
{
	static char label[96];
	const struct c2c_knobs *k = section_knobs_of(s, &c2c_budget);
	struct c2c_params cp;
	char why[CLI_ERR_LEN] = "";
	double pair_ms, est;
	int rc;

	if (s->plan->threads < 2)
		return 1;  /* skipped; the plan warned */
	c2c_params_default(&cp, &s->r->clock, s->o->quick);
	cp.total_budget_s = k ? k->total_s : c2c_total_s(s->o->quick, section_asked_for(s, "c2c"));
	cp.max_cpus = s->plan->threads;
	cp.stop = s->stop;
	cp.progress = s->progress;
	cp.progress_ctx = s;
	est = c2c_estimate_s(&cp, s->plan->threads, &pair_ms);
	/* The cost, known before it starts: on a terminal, beside the progress. */
	snprintf(label, sizeof(label), "c2c (%u CPUs, at most %.1f ms per pair, %.1f s in all)", s->plan->threads, pair_ms, est);
	s->label = label;
	rc = c2c_run(&cp, result, why, sizeof(why));
	section_progress_done(s);
	if (rc)
		return section_threaded_done(s, "c2c", rc, why);
	if (((struct c2c_result *)result)->pairs_timed_out)
		result_warn(s->r, "c2c: %zu pair(s) timed out (a partner stopped answering for 0.2 s: "
			    "another process had its CPU)", ((struct c2c_result *)result)->pairs_timed_out);
	return 0;
}

static void c2c_section_free(void *res)
{
	c2c_result_free(res);
}

const struct section section_c2c = {
	.name = "c2c",
	.options = options_threaded,
	.summary = "core-to-core latency: one cache line bounced between every ordered pair of CPUs",
	.help = c2c_help, .kind = SECTION_MEASURE, .in_report = true, .threaded = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct c2c_result),
	.budget = &c2c_budget, .plan = c2c_section_plan, .run = c2c_section_run, .write_text = c2c_write_text,
	.write_json = c2c_write_json, .free = c2c_section_free,
	.view = &view_c2c,
};
