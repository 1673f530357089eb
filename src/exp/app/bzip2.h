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
#include "exp/app/bzip2_instructions.h"
#include "exp/app/bzip2_judged.h"
#include "exp/app/bzip2_processes.h"

#define APP_BZ2_VARIANTS_MAX 28
#define APP_BZ2_WORKERS_MAX 16
#define APP_BZ2_TOOLS_MAX 3

struct app_bzip2_params {
	const char *path;            /* NULL: the generated default input */
	size_t default_text_bytes;   /* the default input's size before compression */
	unsigned max_k;              /* largest K swept (1..32) */
	unsigned trials;             /* per variant, 1..15 */
	unsigned max_workers;        /* 1..APP_BZ2_WORKERS_MAX */
	bool tools;                  /* also time bzip2, lbzip2 -n 1 and 7zz -mmt1 when installed */
	unsigned process_rounds;     /* the whole decoder as processes, alternated rounds; 0: not run */
	bool count_instructions;     /* the decoder's instructions under Cachegrind, where valgrind is */
	/* Narrowed axes (--lanes, --segments, --layout, --prefetch,
	 * --output-buffer): 0 or -1 keeps the default set. With any given, the
	 * sweep is K=1 (registers, off, reused: the baseline) and the product
	 * of the axes given and the defaults of the rest. */
	unsigned only_k;
	unsigned segments;
	int layout, prefetch, output_fresh;
	uint64_t seed;
	/* The T-vector's pages (--pages): every variant at pages[npages - 1]
	 * (npages 0: small); with two (both), K=1 and the decode-stage axes'
	 * walk also at pages[0]: the translation axis. */
	enum page_request pages[2];
	unsigned npages;
	double budget_seconds;       /* a file's run fits this (shrinking what it must); 0: no budget */
	uint64_t start_ns;           /* set by app_bzip2_run: when the budget's clock started */
	uint64_t (*wall_ns)(void);   /* the budget's clock; NULL: clock_wall_ns (tests pass their own) */
	const struct clock_info *clock;
	volatile sig_atomic_t *stop;
	bool keep_input;             /* leave the input in the result (kept_input) for a later re-time */
};

/* Seconds per stage, summed over the file's blocks. */
struct app_bzip2_stages {
	double decode, table, starts, traversal, assembly, rle, crc;
};

/* exp/app/bzip2_cost.c: seconds of one whole decode of the input, from a
 * probe of a few blocks spread over it. */
struct app_bzip2_rates {
	double k1;       /* at K=1 */
	double lanes;    /* at K=8 registers prefetch next */
	double hash;     /* SHA-256 of its output */
	double front;    /* its decode+table stages alone (the scout's side) */
};

#define APP_BZ2_TRIALS_MAX 16
/* The decode-stage axes: four paths, each alone fast over all plain, and
 * the lane form over the two passes (every path fast). */
#define APP_BZ2_PLAIN_AXES 4
#define APP_BZ2_AXES (APP_BZ2_PLAIN_AXES + 1)

struct app_bzip2_variant {
	unsigned k, segments;
	enum bz2_layout layout;
	enum bz2_prefetch prefetch;
	bool fresh_output;
	unsigned plain;                  /* BZ2_PLAIN_* decode-stage paths kept plain (0: all fast) */
	enum bz2_overlap overlap;        /* block b+1's decode beside block b's walk (scout: two threads) */
	enum page_request pages;         /* requested for the T-vector's arena */
	size_t table_arena_bytes;        /* that arena: 3.6 MB rounded up to 2 MiB (the scout: its two slots' two) */
	size_t table_huge_bytes;         /* huge-page bytes of it per smaps (the smaller of after the map
	                                  * and after the trials) */
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
 * all-plain variant against the one with only this path fast; the lane
 * axis: every path fast in two passes (plain_variant here) against the
 * lane form (BZ2_DECODE_LANE). */
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

/* The translation axis (--pages both): one walk with its T-vector on small
 * pages against the same walk on huge; speedups are small / huge. */
#define APP_BZ2_TRANSLATIONS 2
struct app_bzip2_translation {
	unsigned small_variant, huge_variant;  /* indices into variants[] */
	double whole_speedup, table_speedup, walk_speedup;  /* from the two variants' own warm trials */
	/* Paired: per iteration one whole decode on each (order alternating),
	 * the speedup the minimum of the quotients (core/stats.c). */
	unsigned npaired;
	double small_seconds[APP_BZ2_TRIALS_MAX], huge_seconds[APP_BZ2_TRIALS_MAX];
	double paired_speedup;
	double minima_speedup;                 /* the small side's minimum / the huge side's, same iterations */
	size_t paired_huge_bytes[2];           /* huge-page bytes of the paired decoders' T-vectors, small's
	                                        * then huge's, per smaps after the pairs */
	size_t paired_arena_bytes;
};

struct app_bzip2_workers {
	unsigned n;
	double wall_seconds, mb_per_s, cpu_seconds_per_gb;
	double block_mb_per_s_min, block_mb_per_s_median, block_mb_per_s_max;
	double speedup;                  /* the 1-worker wall / this wall */
	bool retimed;                    /* the speedup was above n: this row and one worker's timed again */
	bool above_workers;              /* still above n after that: a figure n workers cannot reach */
	double scan_seconds;             /* the magic scan, serial, inside the wall */
	double blocks_seconds;           /* the blocks' decode seconds summed over workers */
	double imbalance_seconds;        /* the busiest worker's block seconds less the mean */
	double block_slowdown;           /* blocks_seconds / the one worker's: > 1 when blocks slow each other */
	const char *shortfall_cause;     /* the largest loss against n x one worker, in words; "none" */
	long peak_rss_kib;               /* the process's peak so far (getrusage) */
	size_t decoder_bytes;            /* the decoder's own buffers at n workers (bzip2_footprint.c); 0: unmeasured */
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

/* The K=1 baseline against the chase at the table's footprint
 * (exp/app/bzip2_baseline.c): every R(K) divides by this walk. */
#define APP_BZ2_BASELINE_ROWS 4
struct app_bzip2_baseline_row {
	unsigned variant;                /* index into variants[] */
	double first_ns_per_row;         /* the walk's ns per row as the sweep timed it */
	double walk_ns_per_row;          /* after the re-time (the faster of the two) */
	bool retimed, slow;              /* slow: still above the bound after the re-time */
};
struct app_bzip2_baseline {
	bool checked;                    /* the chase ran and a K=1 walk was timed at its pages */
	double chase_ns;                 /* the chase's t(1) at the table's footprint */
	double work_ns_per_row;          /* the walk's own work per row, bounded from above */
	char work_from[96];              /* which figure that bound is, in words */
	double floor_pct;                /* the chase's noise floor */
	double bound_ns_per_row;         /* (chase_ns + work_ns_per_row) x (1 + floor) */
	unsigned nrows, nslow;
	struct app_bzip2_baseline_row rows[APP_BZ2_BASELINE_ROWS];
};

struct app_bzip2_result {
	char input[300];                 /* what was decoded, in words */
	double budget_seconds;           /* what the run was fitted to; 0: none (the generated input) */
	double estimated_seconds;        /* the cost model's estimate after shrinking */
	struct app_bzip2_rates rates;    /* the probe's, of the whole file, that estimate came from */
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
	unsigned ntranslations;
	struct app_bzip2_translation translations[APP_BZ2_TRANSLATIONS];
	enum page_request pages;         /* the sweep's (and the workers') T-vector pages */
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
	struct app_bzip2_processes processes;  /* mlpbunzip2 and the peers as processes (bzip2_processes.h) */
	struct app_bzip2_instructions instructions; /* the decoder's, one fixed block (bzip2_instructions.h) */
	double seconds;
	/* The chase beside the walk (exp/app/bzip2_chase.c). */
	size_t block_rows;               /* 100,000 x the largest level digit of the streams' headers */
	size_t table_bytes;              /* 4 x block_rows: the T-vector the walk follows */
	struct app_chase chase;          /* ran: false when not measured */
	bool chase_reused;               /* the bwt kernel's chase of the same footprint and pages */
	bool resident;                   /* the table fits a cache, by resident_from */
	const char *resident_from;       /* "latency curve", "reported caches" or "unknown" */
	char resident_where[96];         /* which level, or past which, in words */
	struct app_bzip2_baseline baseline;
	struct app_bzip2_predictions predictions;  /* --predictions: n 0 when none given */
	double hypotheses_band_pct;      /* the band they were judged in: twice the chase's floor; 0: none */
	struct app_bzip2_hypothesis hypotheses[APP_BZ2_HYPOTHESES];  /* name NULL: not judged */
	size_t decoder_bytes_each;       /* one warmed decoder's buffers; 0: unmeasured */
	char decoder_bytes_from[128];    /* how workers[].decoder_bytes were counted, in words */
	/* The input as decoded (the budget's prefix included), kept past
	 * app_bzip2_run when p->keep_input so a check after the chase can
	 * re-time a variant; app_bzip2_release_input frees it. */
	uint8_t *kept_input;
	size_t kept_input_bytes;
};

/* What says whether the table is cache-resident: the run's latency curve
 * (NULL when latency did not run; read with r->chase's t(1)) and the
 * OS-reported sizes (0: unknown). */
struct latency_curve;
struct app_bzip2_cache_facts {
	const struct latency_curve *latency;
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

/* The budget's phases in run order. Past its share of the budget (55%,
 * 65%, 75%, 90%, 97%) a phase starts no optional trial: the variants keep
 * their cold trial and one warm one, libbz2 and the workers one trial, the
 * peers are left out, the whole-process part keeps one round (none when
 * past before it began). */
enum app_bzip2_phase {
	APP_BZ2_PHASE_VARIANTS, APP_BZ2_PHASE_LIBBZ2, APP_BZ2_PHASE_WORKERS, APP_BZ2_PHASE_TOOLS,
	APP_BZ2_PHASE_PROCESSES
};
/* exp/app/bzip2_baseline.c. A re-time of variants[i] into *v (a copy of it
 * with its trials cleared): 0, or a negative errno that ends the check. */
typedef int (*app_bzip2_retime_fn)(void *ctx, const struct app_bzip2_result *r, unsigned i,
				   struct app_bzip2_variant *v);
/* The bound from r's chase and walks, and the K=1 walks at r->pages above
 * it (pure): fills r->baseline, rows[].slow set where first_ns_per_row
 * is above the bound. False when the chase or a K=1 walk is missing. */
bool app_bzip2_baseline_judge(struct app_bzip2_result *r);
/* Judge, re-time each K=1 walk above the bound through retime (adopting
 * the re-time when its walk is faster), judge again, and re-derive the
 * speedups and R(K) when a figure changed. 0, or retime's error. */
int app_bzip2_baseline_check(struct app_bzip2_result *r, app_bzip2_retime_fn retime, void *ctx);

/* Times one workers row again (the faster trials kept in it); 0 or an
 * error. The seam the tests plant. */
typedef int (*app_bzip2_workers_again_fn)(void *ctx, struct app_bzip2_workers *row);
/* Each workers row whose speedup lies above its worker count by more than
 * the ratio's floor of the run's floor (a figure the quantity cannot
 * have): it and one worker's row timed again by again(), the speedups
 * derived anew, the row marked retimed, and above_workers when it is still
 * above. 0, or again()'s error. */
int app_bzip2_workers_recheck(struct app_bzip2_result *r, app_bzip2_workers_again_fn again, void *ctx);
/* The check with the real re-time (r->kept_input; none kept: no re-time,
 * only the verdict). 0, or -EINTR/-ENOMEM/-EPROTO with err. */
int app_bzip2_baseline_run(const struct app_bzip2_params *p, struct app_bzip2_result *r, char *err, size_t errlen);
void app_bzip2_release_input(struct app_bzip2_result *r);

/* exp/app/bzip2_predictions.c. Parse text (len bytes) into ps (path and hash not touched): 0, or
 * -EINVAL with err "line N: ... (expected ...)". */
int app_bzip2_predictions_parse(const char *text, size_t len, struct app_bzip2_predictions *ps, char *err,
				size_t errlen);
/* Read and parse path, recording its hash and time: 0, or -errno with err
 * naming the file ("--predictions: PATH: ..."). */
int app_bzip2_predictions_read(const char *path, struct app_bzip2_predictions *ps, char *err, size_t errlen);

/* Each prediction's measured figure from r, and its verdict against
 * floor_pct (the run's floor; not above 0: none measured, every verdict
 * inconclusive): within twice the floor of the expected value supported,
 * beyond twice that contradicted, between the two inconclusive. */
void app_bzip2_predictions_judge(struct app_bzip2_predictions *ps, const struct app_bzip2_result *r,
				 double floor_pct);

/* exp/app/bzip2_hypotheses.c. Fills h[0..APP_BZ2_HYPOTHESES) from r's figures, judged against
 * band_pct (a ratio's band: twice the floor; not above 0: every verdict
 * undecided). */
void app_bzip2_hypotheses_judge(const struct app_bzip2_result *r, double band_pct,
				struct app_bzip2_hypothesis h[APP_BZ2_HYPOTHESES]);

/* exp/app/bzip2_footprint.c: the decoders' own bytes per worker count.
 * begin before the decoders are made, ready once all n are made and
 * warmed (fills r->decoder_bytes_each and _from), at after the trials of
 * n workers over ncand candidate blocks: the n decoders' buffers, their
 * growth since ready, and the block bookkeeping (0: unmeasured). */
struct app_bzip2_footprint {
	bool ok;
	size_t heap_before, heap_ready, each_bytes;
};
struct bz2_decoder;
void app_bzip2_footprint_begin(struct app_bzip2_footprint *f);
void app_bzip2_footprint_ready(struct app_bzip2_footprint *f, struct bz2_decoder *const *dec, unsigned n,
			       struct app_bzip2_result *r);
size_t app_bzip2_footprint_at(const struct app_bzip2_footprint *f, unsigned n, size_t ncand);
/* The parallel decoder's per-block arrays for ncand candidates (pure). */
size_t app_bzip2_bookkeeping_bytes(size_t ncand);

/* exp/app/bzip2.c: the sweep's timing of one variant (its trials, stages
 * and figures into *v), for a re-time; and the derived figures (s, f, the
 * predictions, the best, the axes) recomputed from r's variants. */
int app_bzip2_time_variant(const struct app_bzip2_params *p, const struct app_bzip2_result *r, const uint8_t *in,
			   size_t len, struct app_bzip2_variant *v, char *err, size_t errlen);
void app_bzip2_derive(struct app_bzip2_result *r);

/* exp/app/bzip2_phases.c. The budget clock's now (p->wall_ns where a test
 * sets one), and whether it is past phase ph's share (false without a
 * budget). */
uint64_t app_bzip2_now(const struct app_bzip2_params *p);
bool app_bzip2_past(const struct app_bzip2_params *p, enum app_bzip2_phase ph);

/* exp/app/bzip2_translation.c. Pair each variant off the sweep's pages
 * with its twin on them and fill the speedups from their warm trials
 * (pure: fills r->translations from r->variants; the paired fields are
 * left as they are). */
void app_bzip2_translation_derive(struct app_bzip2_result *r);
/* Time each pair paired (p->trials + 2 iterations, at least 4, 3 past the
 * variants' share of the budget): 0, -ENOMEM, -EINTR, or -EINVAL with
 * nothing to say (the variants decoded the same input already). */
int app_bzip2_translation_paired(const struct app_bzip2_params *p, const uint8_t *in, size_t len,
				 struct app_bzip2_result *r);

/* How a user's file is fitted to the budget, in order: the reduced variant
 * set, fewer trials (two warm after the cold one), then a prefix of the
 * first stream's blocks. */
struct app_bzip2_shrink {
	bool reduced;
	unsigned trials;
	size_t blocks;                   /* the prefix's blocks; 0: the whole file */
	unsigned rounds;                 /* the whole-process rounds */
	double whole_seconds;            /* the estimate before the prefix */
};

/* Probe in[0..len) (cand: its block magics, bz2_scan_blocks) with p's
 * seed, pages and clock: 0, or -1 with rt zeroed when no block decodes. */
int app_bzip2_probe(const struct app_bzip2_params *p, const uint8_t *in, size_t len, const uint64_t *cand,
		    size_t ncand, struct app_bzip2_rates *rt);
/* One whole-process round at p's workers and rates rt: every command
 * once (pure). */
double app_bzip2_process_round_seconds(const struct app_bzip2_params *p, const struct app_bzip2_rates *rt);
/* The seconds r's plan of variants takes at `trials` with p's workers,
 * peers, pages and whole-process rounds, at rates rt (pure). */
double app_bzip2_cost(const struct app_bzip2_params *p, const struct app_bzip2_result *r, unsigned trials,
		      const struct app_bzip2_rates *rt);

/* The fit's decisions (pure: no clock, no input): rt the probe's rates of
 * the whole file, file_blocks its blocks. Fills sh, r->shrunk (variants
 * and trials; the caller adds the prefix it manages to build),
 * r->budget_seconds, r->estimated_seconds, r->pages and r's plan of
 * variants. No budget (q->budget_seconds 0) or no rate: nothing shrunk. */
void app_bzip2_fit(const struct app_bzip2_params *q, struct app_bzip2_result *r, const struct app_bzip2_rates *rt,
		   size_t file_blocks, struct app_bzip2_shrink *sh);
/* A stream of the first `blocks` blocks of in's first stream (cand: the
 * block magics' bit offsets, bz2_scan_blocks): its header, those blocks'
 * bits as they are, the end marker and their combined CRC (each block's
 * CRC read from its header, nothing decoded); malloc'd, *out_len its
 * bytes. NULL when blocks is 0 or not under ncand, when the scan's first
 * block is not right after the header, or memory ran out. A prefix that
 * does not decode (the first stream ended before) is the caller's to
 * refuse. */
uint8_t *app_bzip2_prefix_stream(const uint8_t *in, size_t len, const uint64_t *cand, size_t ncand, size_t blocks,
				 size_t *out_len);

/* What app_bzip2_run with p will take (the planner's price): the probe
 * and the fit on the file, or on one block of the generated text scaled to
 * its size with the generation's own time. An input of no block (empty
 * streams) is its check alone: nothing is timed, nor the chase beside. */
struct app_bzip2_estimate {
	double seconds;
	double round_seconds;   /* of that, one whole-process round's */
	bool empty;             /* no block: APP_BZ2_EMPTY_S */
};
#define APP_BZ2_EMPTY_S 0.1
/* 0 (seconds 0 when nothing decodes), or -EINVAL/-errno with err filled
 * as below. */
int app_bzip2_estimate(const struct app_bzip2_params *p, struct app_bzip2_estimate *e, char *err, size_t errlen);

/* exp/app/bzip2_whole.c. The whole decoder as processes over in[0..len)
 * (r->decoded_bytes and r->hash expected of each), p->process_rounds
 * rounds at 1 and p->max_workers threads on the CPUs this process may use,
 * no round started past the phase's share of the budget: fills
 * r->processes. 0, -ENOMEM, or -errno from the temporary file. */
int app_bzip2_whole_process(const struct app_bzip2_params *p, const uint8_t *in, size_t len,
			    struct app_bzip2_result *r);
/* The same file: with p->count_instructions, the instruction counts into
 * r->instructions unless the budget is past; 0 or -ENOMEM. */
int app_bzip2_count_instructions(const struct app_bzip2_params *p, struct app_bzip2_result *r);

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
