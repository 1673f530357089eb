/*
 * The run object: what one run holds while it measures and writes. The
 * facts every section shares (the clock, the topology, the run's noise
 * floor and core clock, the warnings, the plan's budget) and one result per
 * registry row. A section reads another's result only through the typed
 * accessor that section exports (sections/NAME.h), never by its name or
 * index. Its own layer: the sections and the front door fill it; no
 * experiment, analysis or writer sees it.
 */
#ifndef MLPSCOPE_RUN_RUN_H
#define MLPSCOPE_RUN_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/clock.h"
#include "core/topo.h"
#include "exp/machine.h"
#include "exp/result.h"

#define REPORT_MAX_WARNINGS 16

#define REPORT_MAX_SECTIONS 24

struct budget;

struct report {
	const char *version;
	struct provenance prov;
	struct clock_info clock;
	struct topo topo;
	/* The run's noise floor, measured once by the noise section and the
	 * tolerance of every later section that names it as its floor. */
	bool has_noise_floor;
	double noise_floor_pct;
	const char *noise_floor_from;  /* the estimator that set it */
	/* The core-clock range the machine section timed, for cycle figures. */
	bool has_core_clock;
	struct machine_core_clock core_clock;
	/* The plan's budget: estimates, actual times, peak RSS (NULL: none). */
	const struct budget *budget;
	/* One per registry row, by its index; NULL: the row did not run. */
	void *results[REPORT_MAX_SECTIONS];
	int nwarnings;
	char warnings[REPORT_MAX_WARNINGS][240];
};

/* The run's noise floor in percent, NaN when the noise section did not run:
 * the fallback of a section whose own floor has too few groups. */
double report_run_floor_pct(const struct report *r);

/* printf-style; silently drops warnings past REPORT_MAX_WARNINGS. */
void result_warn(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
