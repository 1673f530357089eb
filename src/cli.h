/*
 * Command line: one option table drives parsing, validation and --help.
 * Parsing is pure (no measurement, no printing): errors come back as one
 * line naming the argument and the accepted form, for main.c to print.
 */
#ifndef MLPSCOPE_CLI_H
#define MLPSCOPE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum command {
	CMD_REPORT, CMD_MACHINE, CMD_NOISE, CMD_LATENCY, CMD_MLP, CMD_BANDWIDTH, CMD_MULTICORE, CMD_LOADED,
	CMD_WINDOW, CMD_APP, CMD_MODEL, CMD_TRACE, CMD_COMPARE, CMD_HELP, CMD_VERSION
};
enum pages_choice { PAGES_CHOICE_SMALL, PAGES_CHOICE_HUGE, PAGES_CHOICE_BOTH };

struct options {
	enum command command;
	const char *help_topic;      /* for `help TOPIC`, NULL for general help */
	size_t size_bytes;           /* 0: choose from the machine */
	size_t spacing_bytes;
	int pages;                   /* enum pages_choice */
	unsigned max_lanes;
	unsigned repeat;             /* 0: the command's default */
	unsigned trials;             /* 0: the command's default */
	size_t accesses;
	uint64_t seed;
	int cpu;                     /* -1: first allowed CPU */
	unsigned threads;            /* bandwidth, multicore, loaded: 0 = every allowed CPU */
	const char *json_path;
	const char *html_path;       /* one self-contained HTML report with plots */
	const char *svg_dir;         /* the plots alone, one SVG each */
	const char *csv_dir;         /* one tidy CSV per table */
	const char *compare_paths[16]; /* compare: the result files, in order */
	unsigned ncompare;
	const char *fillers;         /* window: comma-separated filler names, NULL: all */
	unsigned max_n;              /* window: largest filler count swept, 0: default */
	const char *from_path;       /* model, trace: a measured mlpscope JSON result */
	const char *trace_path;      /* trace: the lackey trace (positional) */
	const char *dump_code;       /* window: "FILLER:N", write that probe's code to stdout */
	bool quick;
	/* app (temporary wiring until the section registry lands) */
	const char *app_kernel;      /* the kernel operand: bwt */
	const char *text_path;       /* --text FILE: invert this file */
	const char *input;           /* --input KIND: random, markov, repeat */
	bool bzip2;                  /* --bzip2: a 900,000-byte block */
};

#define CLI_ERR_LEN 256

/* 0 on success; 2 (usage error) with err filled otherwise. */
int cli_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);

/* Parse "N[K|M|G|T][i][B]": K/Ki/KiB = 1024, KB = 1000 (SI). 0 on success,
 * else -EINVAL (not a size), -ERANGE (overflow), -EDOM (zero or negative). */
int cli_parse_size(const char *s, size_t *out);

/* General help, or the help of one command ("mlp", "report"). Returns 0, or
 * -ENOENT for an unknown topic. */
int cli_print_help(FILE *f, const char *topic);

#endif
