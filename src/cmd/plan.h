/*
 * The plan command: the planner alone, fed another machine's facts (its
 * caches, CPUs, memory and the cost model's rates, from a result's `plan`
 * object or a facts file), so a budget can be checked for a machine we do
 * not have. Measures nothing.
 */
#ifndef MLPSCOPE_CMD_PLAN_H
#define MLPSCOPE_CMD_PLAN_H

#include <stddef.h>
#include <stdio.h>

#include "budget.h"
#include "options.h"

/* Plan command_name ("report" or a section) on the facts in the JSON file
 * at path, within budget_s (0: the default) and quick. 0, or 2 with err
 * naming the file and the key that is missing. */
int plan_cmd_from_file(const char *path, const char *command_name, bool quick, double budget_s, struct budget *b,
		       char *err, size_t errlen);

/* `mlpscope plan --from FILE [COMMAND] [--quick] [--budget S]`: the plan line,
 * then each section's sizes; exit status as model's. */
int cmd_plan(const struct options *o, char *err, size_t errlen);

#endif
