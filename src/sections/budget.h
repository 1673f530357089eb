/*
 * The budget: every section's sizes and trial counts, chosen so that the
 * whole run fits a time budget on the machine it runs on, from the cost
 * model's rates (cost.h) and never from the cache size the OS claims alone.
 * budget_make is pure (facts in, plan out), so the same planner runs for a
 * machine we do not have (`mlpscope plan --from FACTS`) and in tests. The
 * estimates price what each section does (arenas touched, chains built and
 * verified, timed regions, warm-up walks); they are checked against the
 * time each section took, reported side by side.
 */
#ifndef MLPSCOPE_SECTIONS_BUDGET_H
#define MLPSCOPE_SECTIONS_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "exp/cost.h"

struct jsonw;

#define BUDGET_SECTIONS 16
#define BUDGET_NOTES 16

/* --budget: seconds, default by command. */
#define BUDGET_REPORT_S 90.0
#define BUDGET_QUICK_S 20.0
#define BUDGET_MIN_S 5.0
#define BUDGET_MAX_S 86400.0

/* Peak resident memory allowed: this, or what the sets at their floor need
 * (BUDGET_FLOOR_PEAK times the floor: bandwidth's three arenas, latency's
 * two and a quarter) where that is more; never over a quarter of MemTotal. */
#define BUDGET_RSS_CAP_BYTES ((size_t)2500 * 1000 * 1000)
#define BUDGET_FLOOR_PEAK 3.25

struct budget_section {
	const char *name;            /* registry row name */
	bool runs;                   /* part of this command */
	bool refused;                /* cannot give a defensible figure in its share: not run */
	double planned_s;
	double actual_s;             /* NAN until it ran */
	size_t peak_bytes;           /* memory it holds at its peak (planned) */
};

struct budget {
	double budget_s;
	bool quick;
	const char *command;         /* "report", or the section asked for */
	struct cost_facts facts;

	/* Sets that must miss every cache (exp/policy.h): 8x the last cache
	 * the OS reports, shrunk for time or memory down to the floor, twice
	 * it; under the floor only when nothing else fits, and then the
	 * largest set may be cache-resident (under_floor, said in the notes). */
	size_t memory_set_bytes, memory_set_floor_bytes;
	bool memory_set_under_floor;
	size_t size_bytes;           /* --size, 0: none */

	size_t latency_max_bytes;
	unsigned latency_trials, latency_points_per_octave, latency_steady_visits;
	bool latency_near_caches;    /* five more points around each reported cache size */
	/* The steady sweep's work (exp/latency.h, issue 21): trials split over
	 * passes, each size's block after warm_walks full walks when the set is
	 * at most warm_max, every region region_hops loads. */
	unsigned latency_passes, latency_warm_walks;
	size_t latency_warm_max_bytes, latency_region_hops;

	size_t mlp_bytes;
	unsigned mlp_trials, mlp_repeats;

	size_t bandwidth_bytes;      /* mapped; each trial streams bandwidth_trial_bytes of it */
	size_t bandwidth_trial_bytes;
	unsigned bandwidth_trials;
	size_t bandwidth_eff_bytes, bandwidth_eff_max_nodes;
	unsigned bandwidth_eff_trials;

	size_t multicore_bytes;      /* per thread */
	unsigned multicore_trials, multicore_lanes;

	size_t loaded_chase_bytes, loaded_gen_bytes;
	unsigned loaded_trials;

	unsigned tlb_points_per_octave, tlb_trials;

	size_t window_bytes;
	unsigned window_trials;

	size_t app_bytes;            /* app KERNEL's footprint (the full report walks a bzip2 block) */
	unsigned app_trials;
	size_t app_walk_rows;        /* bwt: rows per swept walk of the lanes variants, whatever the table */

	double c2c_s;                /* spread over the pairs */

	struct budget_section sec[BUDGET_SECTIONS];
	unsigned nsec;
	double planned_s, actual_s;
	size_t rss_cap_bytes, planned_peak_bytes, peak_rss_bytes;
	char notes[BUDGET_NOTES][200];   /* what was shrunk or refused, and why */
	char note_knob[BUDGET_NOTES][64], note_from[BUDGET_NOTES][24]; /* one note per knob, steps merged */
	unsigned nnotes;
};

/* Plan command (a registry row name, "report" for the full report) on the
 * machine f within budget_s seconds (0: the default for command and quick),
 * its running sections names[0..nnames) in report order. size_bytes: the
 * user's --size, which fixes latency's, mlp's, window's and app's set (0:
 * the planner's). Pure. */
void budget_make(struct budget *b, const struct cost_facts *f, const char *command, bool quick, double budget_s,
		 size_t size_bytes, const char *const *names, unsigned nnames);

/* The section's slot, or NULL when it is not planned. */
struct budget_section *budget_section(struct budget *b, const char *name);

/* "planned 74 s: latency 21 s, mlp 12 s, ..." on one line, then what was shrunk. */
void budget_write_plan_line(const struct budget *b, FILE *f);

/* "" or, where the sets past the caches went under their floor, the line
 * that says the largest set may be cache-resident and why. */
void budget_memory_set_warning(const struct budget *b, char *out, size_t len);

/* The closing block: planned against actual per section, notes, peak RSS. */
void budget_write_text(const struct budget *b, FILE *f);

/* The `plan` object of the JSON result. */
void budget_write_json(const struct budget *b, struct jsonw *w, const char *key);

/* Peak resident set of this process so far (getrusage ru_maxrss), bytes. */
size_t budget_peak_rss_bytes(void);

#endif
