/*
 * The plan: options resolved against this machine (default working set from
 * the reported caches and free memory, the CPU to pin) and checked, so that
 * every refusal happens before any long work starts.
 */
#ifndef MLPSCOPE_FRAME_PLAN_H
#define MLPSCOPE_FRAME_PLAN_H

#include "core/arena.h"
#include "frame/budget.h"
#include "frame/options.h"
#include "core/clock.h"
#include "run/run.h"
#include "core/topo.h"

/* What the plan assumes of the options it resolves when they are not
 * given; the sections that declare --spacing, --pages and --accesses say
 * these same values in their help. */
#define PLAN_SPACING_DEFAULT 64
#define PLAN_PAGES_DEFAULT PAGES_CHOICE_HUGE
#define PLAN_ACCESSES_DEFAULT ((size_t)1 << 18)

struct plan {
	size_t working_set_bytes;
	size_t spacing_bytes;
	size_t accesses;
	int cpu;
	int npages;
	enum page_request pages[2];
	unsigned threads;            /* resolved --threads, when a threaded section runs */
	/* Sizes and trials of every section, fitted to --budget from the rates
	 * measured at the start (main.c); has_budget false until then, and the
	 * sections' own defaults stand (tests, a planless caller). */
	bool has_budget;
	struct budget budget;
};

/* Resolve and validate what every measuring command shares (working set,
 * spacing, page kinds, accesses per region, CPU), read by name from the
 * options the command's sections declare. Returns 0, or 2 with a one-line
 * message in err. Warnings (a working set that fits a reported cache, a
 * default shrunk to fit free memory) go into r. What one section alone
 * checks is its registry row's plan hook (registry_plan). */
/* --size as given, in bytes; 0 when it was not (the machine's default). */
size_t plan_size_given(const struct options *o);

int plan_make(const struct options *o, const struct topo *t, struct plan *p,
	      struct report *r, char *err, size_t errlen);

/* Bytes a run of this plan holds at its peak, for the free-memory check. */
size_t plan_peak_bytes(size_t working_set_bytes, size_t spacing_bytes);

/* Lengthen timed regions, if needed, so the timer's own cost stays under 1%
 * of the shortest plausible region. */
void plan_fit_clock(struct plan *p, const struct clock_info *c, struct report *r);

/* Measure the cost model's rates (under a second), then fit every
 * section's sizes and trials to --budget (budget_make) for command over
 * rows[0..nrows) in report order. Never fails: with no rates it assumes a
 * slow machine's and warns. Sets r->budget. */
void plan_budget(struct plan *p, const struct options *o, struct report *r, const char *command,
		 const struct budget_row *rows, unsigned nrows);

#endif
