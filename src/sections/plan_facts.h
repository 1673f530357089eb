/*
 * The plan command: the planner alone, fed another machine's facts (its
 * caches, CPUs, memory and the cost model's rates, from a result's `plan`
 * object or a facts file), so a budget can be checked for a machine we do
 * not have. Measures nothing. Which sections run is the registry's to say:
 * its `plan` row resolves them and calls in here.
 */
#ifndef MLPSCOPE_SECTIONS_PLAN_FACTS_H
#define MLPSCOPE_SECTIONS_PLAN_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "frame/budget.h"

/* Plan command ("report" or a section) over rows[0..nrows) (budget.h), on
 * the facts in the JSON file at path, within budget_s (0: the default) and
 * quick. 0, or 2 with err naming the file and the key that is missing. */
int plan_cmd_from_file(const char *path, const char *command, bool quick, double budget_s,
		       const struct budget_row *rows, unsigned nrows, struct budget *b, char *err, size_t errlen);

/* What `mlpscope plan` prints: the facts, the plan line, what shrank, the
 * memory set and peak, and whether it fits. */
void plan_cmd_print(const struct budget *b, FILE *f);

#endif
