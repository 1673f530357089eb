/*
 * compare's table of two to sixteen runs: rows of one quantity per run,
 * grouped by section ("latency", "mlp (huge pages)"), and the settings that
 * decide what a group's numbers mean. Each section's view fills its groups
 * from its part of each document (struct view's compare hook); compare
 * (sections/compare.c) loads the files, judges which settings differ and
 * prints. Nothing here reads a file or prints.
 */
#ifndef MLPSCOPE_REPORT_COMPARE_TABLE_H
#define MLPSCOPE_REPORT_COMPARE_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "exp/policy.h"
#include "util/jsonr.h"

#define COMPARE_MAX_ROWS 96
#define COMPARE_MAX_SETTINGS 48

struct compare_row {
	char name[64];
	char unit[12];
	char group[24];
	double v[POLICY_COMPARE_MAX_RUNS];
	double unc[POLICY_COMPARE_MAX_RUNS];  /* +/- shown beside the value; NaN: none */
};

struct compare_setting {
	char group[24];          /* "" for the whole document */
	char name[48];
	bool skips;              /* a difference withholds the group's rows */
	char v[POLICY_COMPARE_MAX_RUNS][48];
};

struct compare_table {
	size_t n;
	const struct jsonr_value *docs[POLICY_COMPARE_MAX_RUNS];
	struct compare_row rows[COMPARE_MAX_ROWS];
	size_t nrows;
	struct compare_setting set[COMPARE_MAX_SETTINGS];
	size_t nset;
};

/* Run run's value v (+/- unc, NaN: none) of row name in group, in unit; the
 * row is added on first use, in the order rows are first set. Nothing when
 * v is not finite (the run did not measure it) or the table is full. */
void compare_table_row(struct compare_table *c, size_t run, const char *group, const char *name, const char *unit,
		       double v, double unc);

/* Run run's value of setting name in group, as text; v NULL: "(absent)".
 * skips: a difference between runs withholds the group's rows. */
void compare_table_setting(struct compare_table *c, size_t run, const char *group, const char *name, bool skips,
			   const struct jsonr_value *v);

/* The same for a number (not finite: absent). */
void compare_table_setting_num(struct compare_table *c, size_t run, const char *group, const char *name, bool skips,
			       double v);

#endif
