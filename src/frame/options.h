/*
 * What the command line asked for, as plain data, and the shape of one
 * option's declaration. Each section declares its own options
 * (struct option_spec: name, kind, range, default, help line) in its own
 * file and reads their values from here by its own declaration; only the
 * options several commands mean the same way (outputs, --cpu, --seed,
 * --quick, --budget, --threads) have fields of their own. Kept apart from
 * cli.h so the sections do not depend on the parser (which itself looks
 * commands up in the registry).
 */
#ifndef MLPSCOPE_FRAME_OPTIONS_H
#define MLPSCOPE_FRAME_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exp/policy.h"

struct section;

enum pages_choice { PAGES_CHOICE_SMALL, PAGES_CHOICE_HUGE, PAGES_CHOICE_BOTH };

/* How a value is read. OPTION_FLAG takes none; --help and --version are
 * kinds of their own, so a new flag can never be mistaken for another. */
enum option_kind {
	OPTION_SIZE,    /* N[K|M|G|T][i][B], bounded by lo..hi when hi != 0 */
	OPTION_SPACING, /* a size, a power of two in lo..hi */
	OPTION_UINT,    /* an integer in lo..hi, a multiple of step when step != 0 */
	OPTION_U64,
	OPTION_INT,
	OPTION_STRING,  /* any non-empty text, checked by the section that reads it */
	OPTION_PAGES,   /* small, huge or both: enum pages_choice */
	OPTION_FLAG,
	OPTION_HELP,
	OPTION_VERSION,
};

/* One long option as its owner declares it. Two sections may declare the
 * same name (--size, --from): they agree on kind, metavariable and range
 * (a test holds them to it) and each says its own help and default. */
struct option_spec {
	const char *name;          /* without "--", kebab-case */
	const char *arg;           /* metavariable for help; NULL for a flag */
	enum option_kind kind;
	unsigned long long lo, hi; /* inclusive bounds of a number */
	unsigned long long step;   /* OPTION_UINT: a multiple of this (0: any) */
	unsigned long long value;  /* what a reader gets when it is not given */
	const char *deflt;         /* the default as help says it; NULL: none said */
	const char *help;          /* one line (a long one is wrapped by the printer) */
	bool alone;                /* taken only when its section is asked for by name:
	                            * the full report runs a short form that ignores it,
	                            * so there it is refused, never ignored */
	size_t field;              /* the shared options: offsetof(struct
	                            * options, ...) it lands in; 0: kept by name (given[]) */
};

/* An option given on the command line, by name: one value serves every
 * section that declares the name. */
struct option_given {
	const char *name;
	unsigned long long number; /* numbers, sizes, flags (1), enum pages_choice */
	const char *text;          /* OPTION_STRING: the argument itself */
};

/* More than there are option names: each is kept once (a test holds it). */
#define OPTIONS_GIVEN_MAX 64

struct options {
	const struct section *command; /* the registry row named on the command line */
	bool version;                /* --version: print it and do nothing else */
	const char *help_topic;      /* for `help TOPIC`, NULL for general help */
	uint64_t seed;
	int cpu;                     /* -1: first allowed CPU */
	unsigned threads;            /* threaded sections: 0 = every allowed CPU */
	const char *json_path;
	const char *prom_path;       /* the headline figures as Prometheus text */
	const char *html_path;       /* one self-contained HTML report with plots */
	const char *svg_dir;         /* the plots alone, one SVG each */
	const char *csv_dir;         /* one tidy CSV per table */
	const char *archive_dir;     /* --archive: the executable copied here beside the result */
	const char *paths[POLICY_COMPARE_MAX_RUNS]; /* the command's file operands, in order */
	unsigned npaths;
	bool quick;
	unsigned budget_s;           /* --budget: seconds, 0: the command's default (budget.h) */
	struct option_given given[OPTIONS_GIVEN_MAX]; /* every other option given, by name */
	unsigned ngiven;
};

#define CLI_ERR_LEN 256

/* The option called name as given, or NULL when it was not. */
const struct option_given *options_given(const struct options *o, const char *name);

/* The value of a section's option: as given, else its declared default. */
unsigned long long option_number(const struct options *o, const struct option_spec *spec);
const char *option_text(const struct options *o, const struct option_spec *spec);
bool option_flag(const struct options *o, const struct option_spec *spec);

/* Parse v as spec says and keep it in o (a field of its own, or given[]
 * by name; a second time replaces the first). 0, or 2 with err filled in
 * the one form "--flag: 'value' <what is wrong> (expected <form>)". */
int option_set(struct options *o, const struct option_spec *spec, const char *v, char *err, size_t errlen);

/* Keep a value by name as the parser would (tests, and a flag given). */
void options_put(struct options *o, const char *name, unsigned long long number, const char *text);

/* Parse "N[K|M|G|T][i][B]": K/Ki/KiB = 1024, KB = 1000 (SI). 0 on success,
 * else -EINVAL (not a size), -ERANGE (overflow), -EDOM (zero or negative). */
int option_parse_size(const char *s, size_t *out);

/* The shared options a section opts into by naming them in its table:
 * --budget (priced through its budget hooks), --threads (resolved once for
 * the threaded sections) and --seed (read by the sections whose chains or
 * addresses are permuted; a c2c line or the machine's facts have none). */
extern const struct option_spec option_budget, option_threads, option_seed;

/* The options tables of the sections with none of their own: by whether
 * the measurement is threaded (--threads) and permuted (--seed); each
 * takes --budget. */
extern const struct option_spec *const options_threaded[];
extern const struct option_spec *const options_seeded_threaded[];
extern const struct option_spec *const options_budget_only[];
extern const struct option_spec *const options_seeded[];

#endif
