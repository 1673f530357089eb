/*
 * The `plan` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: the planner alone, on another machine's facts: plan --from
 * RESULT.json.
 */
#include "frame/registry.h"

#include "sections/plan_facts.h"
#include "util/usage.h"

static const char plan_help[] =
	"mlpscope plan --from FILE [COMMAND] [--quick] [--budget S]: runs the planner a\n"
	"measuring run uses, fed the facts in FILE (a result's `plan.facts`, or a facts\n"
	"file holding that object: caches, CPUs, memory, and the cost model's rates of\n"
	"first touch, chain build, DRAM miss and stream), for COMMAND (default report),\n"
	"and prints the time it would plan per section, what it would shrink to fit\n"
	"the budget and the peak memory. Measures nothing. See docs/METHODOLOGY.md.\n";

/* --from: the result whose facts the planner reads; --budget as a run's. */
static const struct option_spec plan_from_opt = {
	.name = "from", .arg = "FILE", .kind = OPTION_STRING,
	.help = "the machine's facts: an mlpscope JSON result with plan.facts, or a facts file (required)",
};

static const struct option_spec *const plan_options[] = {&plan_from_opt, &option_budget, NULL};

/* `mlpscope plan --from FILE [COMMAND]`: the planner on that machine's facts. */
static int plan_section_command(const struct options *o, char *err, size_t errlen)
{
	static struct budget b;
	const char *name = o->npaths ? o->paths[0] : "report";
	struct budget_row rows[BUDGET_SECTIONS];
	const struct section *cmd = registry_find(name);
	unsigned n;
	int rc;

	if (!cmd || (cmd->kind != SECTION_REPORT && cmd->kind != SECTION_MEASURE) || cmd->report_only)
		return usage_fail(err, errlen, "plan: '%s' is not a measuring command (expected report, latency, mlp, "
			    "window, app ...)", name);
	n = registry_budget_rows(cmd, rows, BUDGET_SECTIONS);
	if ((rc = plan_cmd_from_file(option_text(o, &plan_from_opt),
				     cmd->kind == SECTION_REPORT ? BUDGET_FULL_REPORT : cmd->name, o->quick,
				     o->budget_s, rows, n, &b, err, errlen)))
		return rc;
	plan_cmd_print(&b, stdout);
	return 0;
}

const struct section section_plan = {
	.name = "plan",
	.options = plan_options,
	.summary = "the planner alone, on another machine's facts: plan --from RESULT.json",
	.help = plan_help, .kind = SECTION_FILE_COMMAND, .operands = SECTION_ARGS_OPTIONAL,
	.operand_name = "command", .needs_from = true,
	.usage = "mlpscope plan --from FILE [COMMAND] [--quick] [--budget S]",
	.command = plan_section_command,
};
