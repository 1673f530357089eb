/*
 * The budget: every section's sizes and trial counts, chosen so that the
 * whole run fits a time budget on the machine it runs on, from the cost
 * model's rates (cost.h) and never from the cache size the OS claims alone.
 * budget_make is pure (facts in, plan out), so the same planner runs for a
 * machine we do not have (`mlpscope plan --from FACTS`) and in tests. The
 * estimates price what each section does (arenas touched, chains built and
 * verified, timed regions, warm-up walks); they are checked against the
 * time each section took, reported side by side. Each section's part (its
 * settings, their defaults, its price and shrink steps) is a struct
 * budget_hooks beside its own glue in sections/NAME.c; the planner only
 * loops over them and names none.
 */
#ifndef MLPSCOPE_FRAME_BUDGET_H
#define MLPSCOPE_FRAME_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "exp/cost.h"

struct jsonw;
struct jsonw_field;

#define BUDGET_SECTIONS 16
#define BUDGET_NOTES 24

/* --budget: seconds, default by command. A default is a promise, not a
 * gate: a run without --budget that cannot hold its smallest plan runs it
 * and says by how much it is over; only a budget the user gave refuses. */
#define BUDGET_REPORT_S 45.0
#define BUDGET_QUICK_S 10.0
#define BUDGET_MIN_S 5.0
/* A run that takes more than this times its budget says so. */
#define BUDGET_OVERRUN 1.1
#define BUDGET_MAX_S 86400.0

/* Peak resident memory allowed: this, or what the sets at their floor need
 * (BUDGET_FLOOR_PEAK times the floor: bandwidth's three arenas, latency's
 * two and a quarter) where that is more; never over a quarter of MemTotal. */
#define BUDGET_RSS_CAP_BYTES ((size_t)2500 * 1000 * 1000)
#define BUDGET_FLOOR_PEAK 3.25

/* Room for one section's knobs (its budget settings struct). */
#define BUDGET_KNOB_BYTES 96
/* The command word of the full report. */
#define BUDGET_FULL_REPORT "report"

struct budget;
struct budget_section;

/* A shrink step: lowers one knob of s one notch and writes it down
 * (budget_note_*); false when the knob is already at its floor. s is NULL
 * for the planner's own steps (the sets past the caches). */
typedef bool (*budget_step_fn)(struct budget *b, struct budget_section *s);

struct budget_step {
	/* The order over every section's steps, ascending: what costs a figure
	 * least first (10-29: trials past the first min-of-3 groups, then
	 * points; a headline section's from BUDGET_RANK_HEADLINE, after every
	 * other's), the sets past the caches at 30 and under their floor at 40. */
	unsigned rank;
	budget_step_fn fn;           /* NULL: lower the unsigned knob at knob_offset */
	size_t knob_offset;
	unsigned floor, step;        /* by step while over floor */
	const char *what;            /* the knob as the notes name it */
};

/* The common step: an unsigned knob of the section's settings struct type
 * lowered by step_ while it is over floor_, written down as what_. */
#define BUDGET_STEP_DOWN(rank_, type, member, floor_, step_, what_) \
	{.rank = (rank_), .knob_offset = offsetof(type, member), .floor = (floor_), .step = (step_), .what = (what_)}
/* A hooks initializer's steps and plan keys, each a list in place. */
#define BUDGET_STEPS(...) \
	.steps = (const struct budget_step[]){__VA_ARGS__}, \
	.nsteps = sizeof((const struct budget_step[]){__VA_ARGS__}) / sizeof(struct budget_step)
#define BUDGET_FIELDS(...) \
	.fields = (const struct jsonw_field[]){__VA_ARGS__}, \
	.nfields = sizeof((const struct jsonw_field[]){__VA_ARGS__}) / sizeof(struct jsonw_field)

/* What a section is kept for, when the plan must shrink or (a budget the
 * user gave) refuse: the lowest gives up its work first. The latency curve
 * and the MLP headline are what the tool is run for; their shrink steps
 * rank after every other section's (below the sets past the caches). */
enum budget_keep {
	BUDGET_KEEP_EXTRA = 0,       /* a section the summary can do without */
	BUDGET_KEEP_SUPPORT = 1,     /* a summary line, or what a headline section reads */
	BUDGET_KEEP_HEADLINE = 2,    /* latency, mlp */
};
/* Headline sections' time steps rank from here (every other section's
 * under it, the sets past the caches at 30). */
#define BUDGET_RANK_HEADLINE 18

/* How a section's working set (a size_t knob) follows the plan. */
enum budget_set_follows {
	BUDGET_SET_SIZE = 1u << 0,    /* --size fixes it */
	BUDGET_SET_MEMORY = 1u << 1,  /* at most the sets past the caches, unless --size fixed it */
	BUDGET_SET_FIT = 1u << 2,     /* at most the plan's working set (a share of MemAvailable) */
};
#define BUDGET_SET(type, member, follows) .set_offset = offsetof(type, member), .set_follows = (follows)

/* One section's part in the plan, beside its settings in sections/NAME.c
 * and named by its descriptor (struct section's .budget). Every hook may
 * be NULL. knobs: the section's own settings struct, in its slot. */
struct budget_hooks {
	double alone_budget_s;       /* default --budget when asked for alone; 0: 30 s */
	bool never_refused;          /* every other section reads what it measures */
	unsigned keep;               /* enum budget_keep: refused in ascending order, dearest first within one */
	/* Its defaults, from b's facts, quick, command and memory_set_bytes. */
	void (*defaults)(const struct budget *b, void *knobs);
	/* Seconds it takes, and the memory it holds at its peak. */
	double (*price)(const struct budget *b, const void *knobs, size_t *peak_bytes);
	/* Its working set, BUDGET_SET(): what follows the plan's sizes. */
	size_t set_offset;
	unsigned set_follows;        /* enum budget_set_follows; 0: none */
	/* Its other sets once those past the caches are at most to_bytes. */
	void (*memory_set)(const struct budget *b, void *knobs, size_t to_bytes);
	/* Tried before the planner's own, while the peak is over the cap. */
	budget_step_fn memory_step;
	const struct budget_step *steps;   /* for time */
	unsigned nsteps;
	const struct jsonw_field *fields;  /* its keys in the plan's `sizes`, in report order */
	size_t nfields;
};

/* The hooks of a short section whose figures every other reads (the
 * clock, the noise floor): a fixed 0.15 s, never refused. */
extern const struct budget_hooks budget_prerequisite;

/* A section the plan knows: every measuring row, running or not (the
 * knobs of all are written), in report order. */
struct budget_row {
	const char *name;
	const struct budget_hooks *hooks;   /* NULL: priced at nothing */
	bool runs;                          /* part of this command */
};

struct budget_section {
	const char *name;            /* registry row name */
	const struct budget_hooks *hooks;
	bool runs;                   /* part of this command */
	bool refused;                /* cannot give a defensible figure in its share: not run */
	double planned_s;
	double actual_s;             /* NAN until it ran */
	size_t peak_bytes;           /* memory it holds at its peak (planned) */
	union {
		max_align_t align;
		unsigned char bytes[BUDGET_KNOB_BYTES];
	} knobs;                     /* the section's settings struct */
};

/* A slot's knobs as the section's own type. */
#define BUDGET_KNOBS(slot, type) ((type *)(void *)(slot)->knobs.bytes)

struct budget {
	double budget_s;
	bool budget_given;           /* --budget: refuse what it cannot hold; else the default, never refused */
	double over_budget_s;        /* the smallest plan's seconds past a default budget it could not fit; 0: fits */
	bool quick;
	const char *command;         /* "report", or the section asked for */
	bool full_report;            /* command is BUDGET_FULL_REPORT */
	struct cost_facts facts;

	/* Sets that must miss every cache (exp/policy.h): 8x the last cache
	 * the OS reports, shrunk for time or memory down to the floor, twice
	 * it; under the floor only when nothing else fits, and then the
	 * largest set may be cache-resident (under_floor, said in the notes). */
	size_t memory_set_bytes, memory_set_floor_bytes;
	bool memory_set_under_floor;
	size_t size_bytes;           /* --size, 0: none */

	struct budget_section sec[BUDGET_SECTIONS];
	unsigned nsec;
	double planned_s, actual_s;
	size_t rss_cap_bytes, planned_peak_bytes, peak_rss_bytes;
	char notes[BUDGET_NOTES][200];   /* what was shrunk or refused, and why */
	char note_knob[BUDGET_NOTES][64], note_from[BUDGET_NOTES][24]; /* one note per knob, steps merged */
	unsigned nnotes;
};

/* Plan command (a registry row name, BUDGET_FULL_REPORT for the full
 * report) on the machine f within budget_s seconds (0: the default for
 * command and quick), over rows[0..nrows) in report order. Work is shrunk
 * step by step to fit; past the smallest plan a budget given (budget_s >
 * 0) refuses sections, the lowest keep first, while the default runs the
 * smallest plan whole and sets over_budget_s and a note. size_bytes:
 * the user's --size, which fixes the working sets that follow it
 * (BUDGET_SET_SIZE; 0: the planner's). Pure. */
void budget_make(struct budget *b, const struct cost_facts *f, const char *command, bool quick, double budget_s,
		 size_t size_bytes, const struct budget_row *rows, unsigned nrows);

/* A command's default budget in seconds: the full report's, --quick's, or
 * that of the section whose hooks are alone (NULL: none of its own). */
double budget_default_s(const struct budget_hooks *alone, bool full_report, bool quick);

/* The section's slot, or NULL when it does not run. */
struct budget_section *budget_section(struct budget *b, const char *name);

/* The knobs of the section whose hooks these are, running or not; NULL
 * when the plan has no slot for it. */
const void *budget_knobs(const struct budget *b, const struct budget_hooks *hooks);

/* Every working set that fits the plan (BUDGET_SET_FIT) at most max_bytes. */
void budget_fit(struct budget *b, size_t max_bytes);

/* True when the plan measures nothing: every section that runs and may be
 * refused was (only the prerequisites, machine facts and the noise floor,
 * would run). */
bool budget_refused_every_measurement(const struct budget *b);

/* For the hooks' shrink steps: the change written down, one note per knob
 * however many steps it took ("bandwidth trials 9 -> 3"). */
void budget_note(struct budget *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void budget_note_count(struct budget *b, const char *knob, size_t from, size_t to, const char *tail);
void budget_note_bytes(struct budget *b, const char *knob, size_t from, size_t to, const char *tail);
/* A shrink step that drops a part a section may run without: false where
 * *knob is already off, else turns it off and writes note down. */
bool budget_switch_off(struct budget *b, bool *knob, const char *note);


/* "planned 74 s: latency 21 s, mlp 12 s, ..." on one line, then what was shrunk. */
void budget_write_plan_line(const struct budget *b, FILE *f);

/* "" or, where the sets past the caches went under their floor, the line
 * that says the largest set may be cache-resident and why. */
void budget_memory_set_warning(const struct budget *b, char *out, size_t len);

/* The closing block: planned against actual per section, notes, peak RSS. */
void budget_write_text(const struct budget *b, FILE *f);

/* The `plan` object of the JSON result. */
void budget_write_json(const struct budget *b, struct jsonw *w, const char *key);

/* A run that took more than BUDGET_OVERRUN times its budget: true, and out
 * says by how much and which section's estimate missed by the most. */
bool budget_overrun(const struct budget *b, char *out, size_t len);

/* Peak resident set of this process so far (getrusage ru_maxrss), bytes. */
size_t budget_peak_rss_bytes(void);

#endif
