/*
 * The result model: what a run measured, with its unit in every name, the
 * raw samples behind each figure, and the provenance that ties it to a
 * binary, a machine and a layout. Each section's result is its own type in
 * its own exp/ header, held here by registry row (results[]); the report
 * itself knows only what every section shares: the clock, the topology, the
 * run's noise floor and core clock, and the warnings.
 */
#ifndef MLPSCOPE_EXP_RESULT_H
#define MLPSCOPE_EXP_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clock.h"
#include "exp/machine.h"
#include "core/topo.h"

struct provenance {
	char binary_sha256[65];
	char compiler[128];
	const char *cflags;
	char kernel[256];
	char timestamp_utc[32];
	char arch[16];
	uint64_t seed;
	/* The pinned CPU's kind (core/coretype.h), "" when unpinned or unstated:
	 * on a hybrid or big.LITTLE part the figures are that core's. */
	char cpu_pinned_type[CORETYPE_NAME_LEN];
	int core_type_count;     /* kinds the host states; the header names one only when > 1 */
};

/* The JSON document's schema: only ever extended, never renamed; a reader
 * refuses a newer one. */
#define RESULT_SCHEMA_VERSION 1

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

/* printf-style; silently drops warnings past REPORT_MAX_WARNINGS. */
void result_warn(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
