/*
 * What the command line asked for, as plain data: filled by cli.c, read by
 * the plan and by the sections' parameter builders in sections/registry.c. Kept
 * apart from cli.h so those readers do not depend on the parser (which
 * itself looks commands up in the registry).
 */
#ifndef MLPSCOPE_SECTIONS_OPTIONS_H
#define MLPSCOPE_SECTIONS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exp/policy.h"

struct section;

enum pages_choice { PAGES_CHOICE_SMALL, PAGES_CHOICE_HUGE, PAGES_CHOICE_BOTH };

struct options {
	const struct section *command; /* the registry row named on the command line */
	bool version;                /* --version: print it and do nothing else */
	const char *help_topic;      /* for `help TOPIC`, NULL for general help */
	size_t size_bytes;           /* 0: choose from the machine */
	size_t spacing_bytes;
	int pages;                   /* enum pages_choice */
	unsigned max_lanes;
	unsigned repeat;             /* 0: the command's default */
	bool repeat_given;           /* --repeat was on the command line (else the budget may lower it) */
	unsigned trials;             /* 0: the command's default */
	size_t accesses;
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
	const char *fillers;         /* window: comma-separated filler names, NULL: all */
	unsigned max_n;              /* window: largest filler count swept, 0: default */
	const char *from_path;       /* model, trace: a measured mlpscope JSON result */
	const char *dump_code;       /* window: "FILLER:N", write that probe's code to stdout */
	const char *sort_by;         /* compare: the fleet table's sort figure, NULL: default */
	bool quick;
	unsigned budget_s;           /* --budget: seconds, 0: the command's default (budget.h) */
	bool levels;                 /* mlp: also sweep in the L2 and the last cache */
	bool read_size;              /* mlp: also vary payload and spacing */
	const char *text_path;       /* app bwt: --text FILE, invert this file */
	const char *input;           /* app bwt: --input random|markov|repeat */
	bool bzip2;                  /* app bwt: --bzip2, one 900,000-byte block */
	const char *qmodel_latency;  /* qmodel: L in ticks, NULL: the textbook 200 */
	const char *qmodel_chains;   /* qmodel: "1,8,16" */
	uint64_t qmodel_requests;    /* qmodel: 0: the textbook 64 */
	unsigned qmodel_queue;       /* qmodel: Q, 0: unlimited */
	const char *qmodel_bytes_per_tick; /* qmodel: B, NULL: unlimited */
	bool qmodel_versus;          /* qmodel: --chase-vs-stream, seed 003's scenario B */
	const char *qmodel_dram_map; /* qmodel: --dram-map, channels, ranks, banks, row size, interleave */
	/* app bzip2: each narrows one axis of the sweep (0/NULL: the default set) */
	unsigned lanes;              /* --lanes K */
	unsigned segments;           /* --segments S: start rows per block */
	const char *layout;          /* --layout registers|state */
	const char *prefetch;        /* --prefetch off|next|two */
	const char *output_buffer;   /* --output-buffer reused|fresh */
	const char *predictions_path; /* --predictions FILE: expected figures, judged after the run */
};

#define CLI_ERR_LEN 256

#endif
