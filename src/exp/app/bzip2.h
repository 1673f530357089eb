/*
 * `app bzip2 [FILE.bz2]`: our own bzip2 decoder (src/bzip2/) over a whole
 * file, its inverse-BWT walk as K lanes, timed stage by stage and whole in
 * production order, with block-parallel workers, beside libbz2 and the
 * installed bzip2/lbzip2 over the same file in the same run. Every
 * variant's output is compared with libbz2's (SHA-256 of the whole output)
 * outside the timed region; a mismatch is a failed check, never a figure.
 * Without a file the input is the project's generated text compressed at
 * run time by libbz2 at level 9 (not timed). Measures only; never prints.
 */
#ifndef MLPSCOPE_EXP_APP_BZIP2_H
#define MLPSCOPE_EXP_APP_BZIP2_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bzip2/bz2.h"
#include "core/clock.h"
#include "exp/app/app.h"

#define APP_BZ2_VARIANTS_MAX 26
#define APP_BZ2_WORKERS_MAX 16
#define APP_BZ2_TOOLS_MAX 3

struct app_bzip2_params {
	const char *path;            /* NULL: the generated default input */
	size_t default_text_bytes;   /* the default input's size before compression */
	unsigned max_k;              /* largest K swept (1..32) */
	unsigned trials;             /* per variant, 1..15 */
	unsigned max_workers;        /* 1..APP_BZ2_WORKERS_MAX */
	bool tools;                  /* also time bzip2, lbzip2 -n 1 and 7zz -mmt1 when installed */
	/* Narrowed axes (--lanes, --segments, --layout, --prefetch,
	 * --output-buffer): 0 or -1 keeps the default set. With any given, the
	 * sweep is K=1 (registers, off, reused: the baseline) and the product
	 * of the axes given and the defaults of the rest. */
	unsigned only_k;
	unsigned segments;
	int layout, prefetch, output_fresh;
	uint64_t seed;
	double budget_seconds;       /* a file's run fits this (shrinking what it must); 0: no budget */
	uint64_t start_ns;           /* set by app_bzip2_run: when the budget's clock started */
	const struct clock_info *clock;
	volatile sig_atomic_t *stop;
};

/* Seconds per stage, summed over the file's blocks. */
struct app_bzip2_stages {
	double decode, table, starts, traversal, assembly, rle, crc;
};

#define APP_BZ2_TRIALS_MAX 16
#define APP_BZ2_AXES 4

struct app_bzip2_variant {
	unsigned k, segments;
	enum bz2_layout layout;
	enum bz2_prefetch prefetch;
	bool fresh_output;
	unsigned plain;                  /* BZ2_PLAIN_* decode-stage paths kept plain (0: all fast) */
	enum bz2_overlap overlap;        /* block b+1's decode beside block b's walk (scout: two threads) */
	unsigned ntrials;                /* raw trial times, the cold one first */
	double trial_seconds[APP_BZ2_TRIALS_MAX];
	double ns_per_row;               /* warm seconds per BWT row (the walk's unit of work) */
	double ns_per_byte;              /* warm seconds per decoded byte */
	double cold_seconds;             /* the first trial: buffers first touched */
	double warm_seconds;             /* the minimum over the later trials */
	double mb_per_s;                 /* decoded MB (1e6 B) per warm second */
	struct app_bzip2_stages stages;  /* of the warm trial */
	double walk_seconds;             /* starts + traversal + assembly */
	double walk_speedup;             /* s: K=1's walk / this walk (same layout) */
	double walk_fraction;            /* f: K=1's walk / K=1's whole */
	double predicted_speedup;        /* 1 / ((1 - f) + f / s) */
	double measured_speedup;         /* K=1's whole / this whole */
	unsigned fallbacks;              /* blocks walked with one lane (periodic) */
	bool checked;                    /* output hash equal to libbz2's */
	double chase_speedup;            /* the chase's t(1)/t(K) at this K, table footprint; NaN: none */
	double walk_ratio;               /* R(K) = walk_speedup / chase_speedup */
};

/* One decode-stage axis (Huffman, MTF, CRC, RLE) at the best walk: the
 * all-plain variant against the one with only this path fast. */
struct app_bzip2_axis {
	const char *name, *fast_path, *stage;  /* "huffman", "pair table", "decode" */
	unsigned plain_variant, fast_variant;  /* indices into variants[] */
	double stage_plain_seconds, stage_fast_seconds;
	double stage_fraction;                 /* f: the stage's share of the all-plain whole */
	double stage_speedup;                  /* s: plain stage / fast stage */
	double predicted_speedup;              /* 1/((1-f)+f/s) */
	double measured_speedup;               /* all-plain whole / this one's whole */
};

/* One overlap axis (interleave on one core, scout on two) against the
 * same walk in turn. bound: the speedup if the overlap were perfect (the
 * walk hidden under the decode: 1/(1-f) with f the walk's share; the
 * scout: the whole over the slower of its two threads' stages). */
#define APP_BZ2_OVERLAPS 2
struct app_bzip2_overlap_axis {
	const char *name, *how;                /* "interleave", "one core, ..." */
	unsigned threads;
	unsigned base_variant, variant;        /* indices into variants[] */
	double base_seconds, seconds;
	double fraction;                       /* f: the part the overlap can hide, of the base whole */
	double bound_speedup;                  /* the speedup a perfect overlap would give */
	double measured_speedup;               /* base whole / this whole */
};

struct app_bzip2_workers {
	unsigned n;
	double wall_seconds, mb_per_s, cpu_seconds_per_gb;
	double block_mb_per_s_min, block_mb_per_s_median, block_mb_per_s_max;
	double speedup;                  /* the 1-worker wall / this wall */
	double scan_seconds;             /* the magic scan, serial, inside the wall */
	double blocks_seconds;           /* the blocks' decode seconds summed over workers */
	double imbalance_seconds;        /* the busiest worker's block seconds less the mean */
	double block_slowdown;           /* blocks_seconds / the one worker's: > 1 when blocks slow each other */
	const char *shortfall_cause;     /* the largest loss against n x one worker, in words; "none" */
	long peak_rss_kib;               /* the process's peak so far (getrusage) */
};

struct app_bzip2_tool {
	char name[16];
	char version[80];
	char command[96];                /* how it was run, the file as FILE */
	unsigned ntrials;
	double trial_seconds[APP_BZ2_TRIALS_MAX];
	double seconds, mb_per_s;
	double ratio;                    /* our best single-thread MB/s / this */
};

struct app_bzip2_result {
	char input[300];                 /* what was decoded, in words */
	double budget_seconds;           /* what the run was fitted to; 0: none (the generated input) */
	double estimated_seconds;        /* the cost model's estimate after shrinking */
	char shrunk[200];                /* what was shrunk to fit, in words; empty: nothing */
	size_t prefix_blocks;            /* blocks of the first stream decoded; 0: the whole file */
	size_t file_compressed_bytes;    /* the file's size (compressed_bytes: what was decoded) */
	char path[256];
	bool generated;
	size_t compressed_bytes, decoded_bytes;
	unsigned blocks, streams;
	double generate_seconds;         /* making the default input: never timed */
	char libbz2_version[40];
	char hash[65];                   /* SHA-256 of the decoded bytes (ours = libbz2's) */
	double libbz2_seconds, libbz2_mb_per_s;
	unsigned libbz2_ntrials;
	double libbz2_trial_seconds[APP_BZ2_TRIALS_MAX];
	uint64_t rows;                   /* BWT rows over all blocks (sum of the blocks' sizes) */
	unsigned naxes;
	struct app_bzip2_axis axes[APP_BZ2_AXES];
	unsigned noverlaps;
	struct app_bzip2_overlap_axis overlaps[APP_BZ2_OVERLAPS];
	unsigned segments_override;      /* --segments, 0: 4K */
	unsigned nvariants;
	struct app_bzip2_variant variants[APP_BZ2_VARIANTS_MAX];
	unsigned best;                   /* index of the fastest single-thread variant (the scout excluded) */
	double best_vs_libbz2;           /* its MB/s / libbz2's */
	const char *bound_stage;         /* the largest stage of the best variant */
	double bound_fraction;
	unsigned nworkers;
	struct app_bzip2_workers workers[APP_BZ2_WORKERS_MAX];
	bool workers_sequential_fallback;/* block boundaries did not chain: none parallel */
	bool tools_skipped;              /* the budget ran out before the tools (or some of them) */
	unsigned ntools;
	struct app_bzip2_tool tools[APP_BZ2_TOOLS_MAX];
	double seconds;
	/* The chase beside the walk (exp/app/bzip2_chase.c). */
	size_t block_rows;               /* 100,000 x the largest level digit of the streams' headers */
	size_t table_bytes;              /* 4 x block_rows: the T-vector the walk follows */
	struct app_chase chase;          /* ran: false when not measured */
	bool chase_reused;               /* the bwt kernel's chase of the same footprint and pages */
	bool resident;                   /* the table fits a cache, by resident_from */
	const char *resident_from;       /* "latency curve", "reported caches" or "unknown" */
	char resident_where[96];         /* which level, or past which, in words */
};

/* What says whether the table is cache-resident: the run's latency curve
 * (NULL when latency did not run; read with r->chase's t(1)) and the
 * OS-reported sizes (0: unknown). */
struct latency_result;
struct app_bzip2_cache_facts {
	const struct latency_result *latency;
	size_t l2_bytes, largest_cache_bytes;
	const char *sizes_from;      /* the two sizes' source (exp/cache_sizes.h); NULL: the OS */
};

/* 0 when every output matched libbz2's; -EPROTO with failure filled (both
 * hashes) when one did not; -EINVAL with err "FILE: block N at byte X:
 * why" for bad input; -ENOTSUP without libbz2; -EINTR; -ENOMEM. */
int app_bzip2_run(const struct app_bzip2_params *p, struct app_bzip2_result *r, char *err, size_t errlen);

/* After app_bzip2_run: the chase reference at r->table_bytes (ap's line,
 * pages, max_k, seed, clock; reuse, when non-NULL and of the same footprint
 * and pages, is copied instead of measured; ap->chase false: none), the
 * residency verdict, and each variant's chase_speedup and walk_ratio.
 * 0; -EPROTO with err when the chase's layout check failed; -EINTR; -ENOMEM. */
int app_bzip2_chase(const struct app_params *ap, const struct app_chase *reuse, const struct app_bzip2_cache_facts *c,
		    struct app_bzip2_result *r, char *err, size_t errlen);
/* The pure parts, for tests: the verdict from c and r->chase, and the
 * ratios from r->chase (NaN where the chase did not run or reach K). */
void app_bzip2_residency(const struct app_bzip2_cache_facts *c, struct app_bzip2_result *r);
void app_bzip2_chase_ratios(struct app_bzip2_result *r);

/* Decode FILE once with one lane, checking it (the plan's validation before
 * anything is measured): 0, or -EINVAL/-errno with err filled as above. */
int app_bzip2_validate(const char *path, char *err, size_t errlen);

/* "registers"/"state", "off"/"next"/"two", "reused"/"fresh" -> 0, 1, 2 in
 * that order; -1 for anything else. */
int app_bzip2_parse_layout(const char *s);
int app_bzip2_parse_prefetch(const char *s);
int app_bzip2_parse_output(const char *s);
/* Whether the registers layout has a compiled loop for K (else state). */
bool app_bzip2_registers_k(unsigned k);

#endif
