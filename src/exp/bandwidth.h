/*
 * The bandwidth experiment: sequential read (scalar and the widest vector
 * width), write, copy and non-temporal stores over a huge-page working set
 * far beyond the last-level cache, on 1, 2, 4 ... N threads pinned one per
 * CPU; plus a random-access efficiency table (useful bytes per access
 * against the bytes the memory system must move), which is a MODEL: no
 * counter here sees lines or page walks. Never prints, never parses options.
 */
#ifndef MLPSCOPE_EXP_BANDWIDTH_H
#define MLPSCOPE_EXP_BANDWIDTH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clock.h"
#include "kern/stream.h"
#include "core/team.h"
#include "core/topo.h"

#define BANDWIDTH_MAX_KERNELS 16
#define BANDWIDTH_MAX_COUNTS 12      /* thread counts swept: 1, 2, 4 ... and N */
#define BANDWIDTH_MAX_TRIALS 30
#define BANDWIDTH_EFF_SPACINGS 4     /* 8, 64, 128, 4096 bytes */
#define BANDWIDTH_TRIAL_GROUP 3      /* trials per min-of-N estimate (noise floor) */
/* Each thread streams its slice in pieces of this many bytes and looks for
 * the team's stop flag between them: the tail in which fewer threads run is
 * at most one piece long (about 10 us at 25 GB/s). */
#define BANDWIDTH_PIECE_BYTES ((size_t)256 << 10)
/* Self-check: in a point's best trial the span every thread ran must be at
 * least this share of the span any thread ran, or the total mixes in time
 * when fewer threads ran and the report flags it. */
#define BANDWIDTH_OVERLAP_MIN_PCT 95.0
/* A trial is preempted when a thread spent more than this share of its
 * window off its CPU (wall time - thread CPU time). */
#define BANDWIDTH_OFFCPU_MAX_PCT 1.0

struct bandwidth_params {
	const struct clock_info *clock;
	unsigned max_threads;        /* sweep 1, 2, 4 ... max_threads; 0 = every allowed CPU; more: -EINVAL */
	size_t working_set_bytes;    /* mapped; streamed by all threads together, split in equal slices */
	size_t trial_bytes;          /* each trial streams this window of it, the next trial the next
	                              * window (rotating); 0: the whole working set every trial */
	size_t llc_bytes;            /* largest reported cache: sizing of the efficiency chains */
	size_t line_bytes;
	unsigned trials;             /* per point, a multiple of 3, at most BANDWIDTH_MAX_TRIALS */
	bool all_kernels;            /* every usable kernel, not just scalar + widest */
	bool efficiency;             /* also the random-access table */
	size_t efficiency_bytes;     /* footprint of each efficiency chain */
	size_t efficiency_max_nodes; /* caps the footprint at dense spacings (build + check cost) */
	size_t efficiency_hops;      /* dependent loads per timed region */
	unsigned efficiency_trials;  /* per page kind per spacing, a multiple of 3 */
	uint64_t seed;
	bool mixes;                  /* also the read:write mixes on every thread (bandwidth_mix) */
	double stagger_ns;           /* thread i starts i x this late; 0 except in the test that breaks the overlap check */
	double run_floor_pct;        /* the run's floor (noise section), taken where the
	                              * points' own has too few groups; NaN: none */
	volatile sig_atomic_t *stop; /* may be NULL */
};

struct bandwidth_point {
	const struct stream_kernel *kernel;
	unsigned threads;
	size_t bytes_per_thread;     /* bytes the kernel moves per thread per trial: its slice */
	size_t bytes_moved;          /* all threads' slices; copy counts read + write; RFO never */
	size_t bytes_measured;       /* best trial: what the threads moved before the first finished (<= bytes_moved) */
	double gbps;                 /* total: bytes_measured / (last end - first start), best trial
	                              * among those no thread was preempted in (of all, if none) */
	double *per_thread_gbps;     /* [threads]: each thread's bytes / its own time, same trial */
	double overlap_pct;          /* best trial: (first end - last start) / (last end - first start) x 100 */
	double start_skew_ns;        /* best trial: last start - first start */
	unsigned ntrials;            /* the sweep's trials, then retries while every one was preempted */
	unsigned retimed_trials;     /* of ntrials, those a re-time added last (retime_impossible) */
	double trials_gbps[BANDWIDTH_MAX_TRIALS];
	bool trial_preempted[BANDWIDTH_MAX_TRIALS]; /* a thread was off its CPU > BANDWIDTH_OFFCPU_MAX_PCT */
	unsigned preempted_trials;   /* how many of the trials */
	unsigned best_trial;         /* index of the trial gbps comes from */
	bool impossible;             /* above threads x the same kernel's one-thread gbps, after a re-time */
	double bound_gbps;           /* that bound (0: one thread, or no one-thread point) */
	uint64_t checksum;           /* read kernels' sum, so the loads are observable */
};

/* One read:write mix, all threads streaming their slices of the working
 * set together (the injection bandwidth of the whole team): all reads
 * (read_scalar), then stream_mix_kernels (3:1, 2:1, 1:1, 1:1 non-temporal),
 * all 8-byte scalar so only the mix differs. */
#define BANDWIDTH_MAX_MIXES 6
struct bandwidth_mix {
	struct bandwidth_point pt;   /* threads = the largest team; gbps: bytes the kernel names */
	unsigned read_lines, write_lines; /* the ratio (all reads: 1, 0) */
	double rfo_factor;           /* bytes the memory system moves per byte named: 1 + the write
	                              * share for normal stores (each written line is read first),
	                              * 1 for non-temporal stores and reads. A model: no counter */
	double moved_gbps;           /* gbps x rfo_factor */
};

struct bandwidth_efficiency {
	size_t spacing_bytes;
	size_t footprint_bytes;      /* each chain's (capped by efficiency_max_nodes) */
	size_t nodes;
	double useful_bytes_per_access;  /* one 8-byte pointer */
	double lines_per_access;     /* model: 1 (random order over a footprint beyond the caches) */
	double latency_small_ns;     /* min-time dependent chase, 4 KiB pages */
	double latency_huge_ns;      /* same, THP requested */
	double walk_lines_per_access;/* model: (small - huge) / huge, as line fetches' worth of time */
	double moved_bytes_small;    /* model: line * (lines + walk) */
	double moved_bytes_huge;     /* model: line * lines (walks assumed cached) */
	double efficiency_small;     /* useful / moved */
	double efficiency_huge;
	double footprint_over_llc;   /* distinct lines x line / LLC: < 4, the one-line model is optimistic */
	bool fits_llc;               /* the lines touched are under 2x the LLC: some loads hit it */
	size_t hops;                 /* dependent loads per timed region, at most half the nodes */
	size_t huge_bytes_obtained;  /* of the huge chain's arena */
	bool layout_ok;              /* both chains passed the layout check */
};

struct bandwidth_result {
	size_t working_set_bytes;    /* mapped for the streams */
	size_t window_bytes;         /* streamed per trial, rotating over the working set */
	size_t huge_bytes_obtained;  /* of it, from smaps (smaller of before/after) */
	size_t line_bytes;
	unsigned trials;
	unsigned nkernels;
	const struct stream_kernel *kernels[BANDWIDTH_MAX_KERNELS];
	unsigned ncounts;
	unsigned thread_counts[BANDWIDTH_MAX_COUNTS];
	unsigned npoints;            /* nkernels * ncounts, kernel-major */
	struct bandwidth_point *points;
	struct team_placement placement; /* of the largest team; thread i -> CPU */
	double noise_floor_pct;      /* upper quartile over points of min-of-3 spreads */
	bool floor_from_run;         /* one min-of-3 group per point: the run's floor taken */
	bool rfo_counted;            /* false: a missing store's line read is not in bytes_moved */
	const char *rfo_note;
	double overlap_min_pct;      /* lowest overlap_pct over multi-thread points; NAN with none */
	bool overlap_ok;             /* every multi-thread point's overlap_pct >= BANDWIDTH_OVERLAP_MIN_PCT */
	char overlap_note[320];      /* which point overlapped too little, or "" */
	unsigned nimpossible;        /* kernel points marked impossible (bandwidth_check_bounds) */
	double read_scaling;         /* widest read: gbps at most threads / at 1 thread; NaN when
	                              * either point is marked impossible */
	char scaling_note[320];      /* why read did not scale, or "" */
	unsigned nmixes;             /* 0: not measured */
	struct bandwidth_mix mixes[BANDWIDTH_MAX_MIXES];
	const char *mix_note;        /* the accounting, in words */
	bool efficiency_measured;
	struct bandwidth_efficiency eff[BANDWIDTH_EFF_SPACINGS];
	const char *efficiency_note; /* says it is a model, and of what */
	double seconds;
};

/* Defaults for this machine: working set the memory set of policy.h (quick:
 * half of it), efficiency chains over the memory set with at most 8 Mi nodes
 * (quick 2 Mi), 9 trials (quick 3), every allowed CPU, mixes on.
 * topo may be NULL. */
void bandwidth_params_default(struct bandwidth_params *p, const struct clock_info *clock,
			      const struct topo *topo, bool quick);

/* The window one trial streams: trial_bytes (or the whole working set),
 * rounded to whole slices. */
size_t bandwidth_window(const struct bandwidth_params *p);

/* Validate, map, measure. Returns 0; -EINVAL for bad params (err says which,
 * including more threads than allowed CPUs) before anything is measured;
 * -EINTR when *stop was raised; -EPROTO when a chain failed its layout
 * check; other -errno for resources. Free with bandwidth_result_free. */
int bandwidth_run(const struct bandwidth_params *p, struct bandwidth_result *r, char *err, size_t errlen);

void bandwidth_result_free(struct bandwidth_result *r);

/* The overlap self-check over r's points: sets overlap_min_pct, overlap_ok
 * and overlap_note (bandwidth_run calls it; public so a test can feed it
 * points). */
void bandwidth_check_overlap(struct bandwidth_result *r);

/* The preemption rule, the seam a test feeds trials through: whether a
 * trial of gbps (preempted: a thread lost its CPU) replaces pt's best so
 * far (pt->gbps, best_trial, trial_preempted[], ntrials before this one).
 * bandwidth_pick_trial applies it over n recorded trials and returns the
 * index the estimate comes from. Pure (pick_trial: not reentrant). */
bool bandwidth_trial_replaces_best(const struct bandwidth_point *pt, double gbps, bool preempted);
unsigned bandwidth_pick_trial(const double *gbps, const bool *preempted, unsigned n);

/* The bound on every kernel point of more than one thread: T threads
 * stream at most T times what one thread of the same kernel streams (each
 * thread's path to memory is one thread's; sharing only takes away). Sets
 * each point's bound_gbps and impossible (beyond the ratio's floor of
 * r->noise_floor_pct) and r->nimpossible, which it returns. Pure: the seam
 * a test feeds recorded or synthetic points through; bandwidth_run re-times
 * the marked points and their one-thread point once before the last call. */
unsigned bandwidth_check_bounds(struct bandwidth_result *r);

/* The most any kernel point streamed, of those not marked impossible, in
 * decimal GB/s; 0 when none was measured. */
double bandwidth_peak_gbps(const struct bandwidth_result *r);

/* The point for (kernel name, threads), NULL when not measured. */
const struct bandwidth_point *bandwidth_find(const struct bandwidth_result *r, const char *kernel,
					     unsigned threads);

#endif
