/*
 * The sections: one `const struct section` per command word, each in its own
 * file (sections/NAME.c) and named once in sections/list.h, in report order.
 * A measuring section says how options and plan become its experiment's
 * parameters, runs it into a result of its own, and names its text, JSON and
 * CSV writers and its free; a file command (model, trace, compare) names the
 * function that runs it. --help, `help CMD`, dispatch, the full report's
 * order, the writers and freeing all loop over registry[], so nothing else
 * names a section. Sections never print and never exit: main.c does.
 */
#ifndef MLPSCOPE_FRAME_REGISTRY_H
#define MLPSCOPE_FRAME_REGISTRY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "frame/options.h"

struct budget_hooks;
struct budget_row;
struct jsonr_value;
struct jsonw;
struct plan;
struct report;
struct team_placement;
struct topo;
struct view;

enum section_kind {
	SECTION_REPORT,        /* `report`: every row with in_report, in table order */
	SECTION_MEASURE,       /* runs an experiment into its own result */
	SECTION_FILE_COMMAND,  /* reads files, measures nothing */
	SECTION_HELP,          /* `help CMD` */
};

/* Outputs a command can write besides stdout. */
enum section_output {
	SECTION_OUT_JSON = 1u << 0,
	SECTION_OUT_HTML = 1u << 1,
	SECTION_OUT_SVG = 1u << 2,
	SECTION_OUT_CSV = 1u << 3,
	SECTION_OUT_PROM = 1u << 4,
	SECTION_OUT_ALL = 0x1f,
};

/* Positional operands a command takes after its name. */
/* SECTION_ARGS_OPTIONAL: zero or one file. */
enum section_operands { SECTION_ARGS_NONE, SECTION_ARGS_TOPIC, SECTION_ARGS_ONE, SECTION_ARGS_MANY,
		       SECTION_ARGS_OPTIONAL };

/* What a measuring row's hooks get: the request, the machine's plan, the
 * report (read for what earlier rows left: the noise floor, the core clock),
 * and a stop flag. err: one line (without "mlpscope: ") when a hook fails
 * for a reason -errno alone does not say. */
struct section_run {
	const struct options *o;
	struct plan *plan;
	struct report *r;
	volatile sig_atomic_t *stop;
	/* Progress for a terminal, shown by main.c; NULL when stderr is not one.
	 * ctx is this struct; label says which part is running. */
	void (*progress)(void *ctx, double fraction);
	void (*progress_done)(void);
	const char *label;
	char err[CLI_ERR_LEN];
};

struct section {
	const char *name;          /* command word, JSON key, CSV/plot prefix */
	const char *summary;       /* one line in --help */
	const char *help;          /* `help NAME`: what it measures and how */
	enum section_kind kind;
	bool in_report;            /* part of the full report, in table order */
	const char *needs;         /* a row that must run first when this one runs alone
	                            * (and what that row needs, in turn) */
	bool report_only;          /* derived from other rows' results: part of the full
	                            * report, not a command of its own (not parsed, not
	                            * listed in --help; `help NAME` still explains it) */
	bool threaded;             /* resolves --threads; peak_bytes joins the memory check */
	unsigned outputs;          /* enum section_output this command can write */
	enum section_operands operands;
	const char *operand_name;  /* "trace file": says what is missing */
	/* SECTION_ARGS_ONE/OPTIONAL: whether, with the operands so far, one more
	 * is taken (app bzip2 FILE.bz2); NULL: never. */
	bool (*takes_another)(const struct options *o);
	bool needs_from;           /* --from is required */
	const char *usage;         /* "mlpscope compare A.json B.json [C.json...]" */
	/* The options it reads besides the shared ones (cli.c), NULL-terminated:
	 * its own declarations (in its file) and the shared --budget, --threads
	 * and --seed when it honours them. Other commands refuse them; the full
	 * report takes those of its in_report sections (but not one declared
	 * alone). */
	const struct option_spec *const *options;

	/* SECTION_MEASURE */
	size_t result_bytes;       /* zeroed before run */
	/* Its part in the budget (frame/budget.h): defaults, price, shrink
	 * steps and the plan's keys for its settings; NULL: priced at nothing. */
	const struct budget_hooks *budget;
	/* Validate the plan for this row before anything runs: 0, or 2 with err
	 * filled. May warn into s->r. */
	int (*plan)(struct section_run *s, char *err, size_t errlen);
	/* Bytes this row holds at its peak on threads threads, for the check
	 * that the largest threaded section fits in MemAvailable. */
	size_t (*peak_bytes)(const struct topo *t, bool quick, unsigned threads);
	/* In place of measuring, when the options ask for something else
	 * (window --dump-code): an exit status >= 0, s->err printed when set;
	 * -1 to measure as usual. Every row's runs after the plan, whatever the
	 * command, before any output opens. */
	int (*instead)(struct section_run *s);
	/* 0: result filled; 1: skipped (no result, a warning says why);
	 * negative errno: failed (s->err may say more). */
	int (*run)(struct section_run *s, void *result);
	void (*write_text)(const void *result, FILE *f);
	void (*write_json)(const void *result, struct jsonw *w, const char *key);
	/* Where its threads ran, for provenance.thread_placement: the offset
	 * of the result's struct team_placement (offsetof(struct NAME_result,
	 * placement)); 0: none (no result opens with its placement). */
	size_t placement_offset;
	/* Tidy CSV tables from this row's part of a parsed result (doc is the
	 * whole document); 0 or -errno. Called for every row, section present
	 * or not, so a stale table is removed. */
	int (*write_csv)(const char *dir, const struct jsonr_value *doc);
	void (*free)(void *result);
	/* What the reader side draws from its part of a result document (HTML
	 * tables, headline figures, plots): report/NAME_view.c. Every section
	 * with a result has one. */
	const struct view *view;

	/* SECTION_FILE_COMMAND: the exit status (0, 1 runtime, 2 usage); err
	 * gets one line when it is not 0. */
	int (*command)(const struct options *o, char *err, size_t errlen);
};

/* Every row, in report order. Declared here and filled by the rows' own
 * folder (sections/list.c, from sections/list.h), so the framework loops
 * over the rows without naming one, and nothing here includes upward. */
extern const struct section *const registry[];
extern const size_t registry_count;

/* The row named name, or NULL. */
const struct section *registry_find(const char *name);

/* Index of row s in registry[] (its slot in report.results). */
size_t registry_index(const struct section *s);

/* Whether row s runs when command cmd is asked for: cmd itself, every
 * in_report row for `report`, and what cmd needs. */
bool registry_runs(const struct section *cmd, const struct section *s);

/* The registry's own plan checks for command cmd: --threads resolved once
 * when any threaded row runs, the largest threaded row checked against
 * MemAvailable, then each running row's plan hook in table order. 0, or 2
 * with err. */
int registry_plan(struct section_run *s, char *err, size_t errlen);

/* Write dir/TABLE.csv for every table of every row (creating dir if
 * missing) from a parsed result, and remove from dir a table this result
 * lacks: all of it or none (atomic_dir_begin). 0 or -errno. */
int registry_write_csv(const char *dir, const struct jsonr_value *doc);

/* The sections' views in report order, NULL-terminated: what html_write,
 * svg_write_dir and summary_build loop over. */
const struct view *const *registry_views(void);

/* Free every section's result in r through its row, and the result. */
void registry_free_results(struct report *r);

/* Helpers for the sections' hooks. */

/* Whether s's command is the section called name (asked for alone). */
bool section_asked_for(const struct section_run *s, const char *name);

/* Ends the progress line when one is shown. */
void section_progress_done(const struct section_run *s);

/* What a threaded section's run returns for its experiment's rc: 0 as 0;
 * a failure as itself, with s->err saying what failed (why) when rc is
 * neither an interruption nor a failed check. */
int section_threaded_done(struct section_run *s, const char *name, int rc, const char *why);

/* The plan check of section name, which needs two threads (need: "2 CPUs,
 * one at each end of the line"; briefly: "2 CPUs (one at each end of the
 * line)"): with fewer, asked for by name it is a usage error (2, err
 * filled); in the full report it is skipped with a warning (0). */
int section_plan_two_threads(struct section_run *s, const char *name, const char *need, const char *briefly,
			     char *err, size_t errlen);

/* Row's result when it ran in this report, else NULL: what each section's
 * typed accessor (sections/NAME.h) returns of its own row. */
const void *registry_result(const struct report *r, const struct section *row);

/* The budget's settings for the section whose hooks these are (its own
 * knobs, by its own hooks: no name) when the run has a budget (a measuring
 * run), else NULL: its own defaults. */
const void *section_knobs_of(const struct section_run *s, const struct budget_hooks *hooks);

/* The rows the budget plans for command cmd: every measuring row, in
 * report order, each with its hooks and whether it runs. Returns how many
 * (at most cap). */
unsigned registry_budget_rows(const struct section *cmd, struct budget_row *out, unsigned cap);

#endif
