/*
 * Latency under load: thread 0 runs a dependent chase (one lane) while
 * threads 1..T-1 stream cache-line requests, each request followed by an
 * injection delay (a calibrated spin), swept from none to idle (no
 * requests). Gives the idle latency, the curve of delivered bandwidth
 * against latency, and the bandwidth at which latency doubles. Offered load
 * is measured on the generators alone. Never prints, never parses options.
 */
#ifndef MLPSCOPE_EXP_LOADED_H
#define MLPSCOPE_EXP_LOADED_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/clock.h"
#include "core/team.h"
#include "core/topo.h"

#define LOADED_MAX_DELAYS 24
#define LOADED_MAX_TRIALS 30
#define LOADED_TRIAL_GROUP 3

enum loaded_traffic {
	LOADED_READ,        /* one load per line */
	LOADED_READ_WRITE,  /* load and store one word per line: each line is also written back */
};

struct loaded_params {
	const struct clock_info *clock;
	unsigned threads;           /* 1 chaser + threads-1 generators; 0 = every allowed CPU; more: -EINVAL; >= 2 */
	size_t chase_bytes;         /* the chaser's chain footprint */
	size_t gen_bytes;           /* streamed by the generators together, one slice each */
	size_t spacing_bytes;
	size_t line_bytes;
	enum page_request pages;
	unsigned ndelays;
	double delays_ns[LOADED_MAX_DELAYS]; /* ascending, first 0; the idle point is added after */
	bool read_write;            /* also sweep LOADED_READ_WRITE */
	unsigned trials;            /* per point, a multiple of 3 */
	size_t hops;                /* chase loads per timed region */
	double offered_window_ns;   /* how long the generator-alone rate is timed per delay */
	double stream_peak_gbps;    /* the same run's best stream bandwidth (bandwidth section); 0: none */
	uint64_t seed;
	double run_floor_pct;        /* the run's floor (noise section), taken where the
	                              * points' own has too few groups; NaN: none */
	volatile sig_atomic_t *stop;/* may be NULL */
};

struct loaded_point {
	double delay_ns;            /* injection delay between requests; NAN at the idle point */
	bool idle;                  /* generators issue nothing */
	double offered_gbps;        /* generators alone (no chaser), all generators together */
	double bw_gbps;             /* delivered by the generators while the chase ran, median of trials */
	double latency_ns;          /* chase ns per load, min over trials */
	bool impossible;            /* bw_gbps above bound_gbps beyond the floor, after a re-time */
	bool non_monotonic;         /* latency below a less loaded point's beyond the floor (loaded_find_falls) */
	double fall_pct;            /* with it: 100 * (1 - latency / that point's) */
	unsigned fall_ref;          /* with it: index of that less loaded point */
	double bound_gbps;          /* the smaller of offered_gbps and the run's stream peak; 0: idle */
	unsigned ntrials;
	double trials_latency_ns[LOADED_MAX_TRIALS];
	double trials_bw_gbps[LOADED_MAX_TRIALS];
};

struct loaded_curve {
	enum loaded_traffic traffic;
	const char *name;           /* "read", "read_write" */
	unsigned npoints;           /* ndelays + 1 (idle last) */
	struct loaded_point points[LOADED_MAX_DELAYS + 1];
	double idle_latency_ns;     /* this curve's idle point */
	bool double_reached;
	double bw_at_double_latency_gbps; /* interpolated; NAN when not reached */
	double max_latency_ratio;   /* highest latency / idle seen */
	double bw_at_max_ratio_gbps;
};

struct loaded_result {
	unsigned generators;
	size_t chase_bytes, gen_bytes, line_bytes;
	size_t huge_bytes_obtained; /* chase + generator arenas */
	bool layout_ok;
	uint64_t perm_seed;         /* the chase chain's */
	uint64_t perm_hash;         /* its FNV-1a permutation hash; 0: not recorded */
	unsigned trials;
	size_t hops;
	double spin_ns_per_iter;    /* the injection delay's calibration */
	double idle_latency_ns;     /* read curve's idle point */
	unsigned ncurves;
	struct loaded_curve curves[2];
	const char *bw_definition;
	double noise_floor_pct;     /* upper quartile of min-of-3 latency spreads */
	unsigned nimpossible;       /* points marked impossible (loaded_check_bounds) */
	unsigned nfalls;            /* points marked non_monotonic, every curve (loaded_find_falls) */
	double stream_peak_gbps;    /* from the params: the run's stream peak; 0: none */
	unsigned offered_retimed;   /* offered rates measured again for a point above its offer */
	bool floor_from_run;         /* one min-of-3 group per point: the run's floor taken */
	struct team_placement placement; /* thread 0 chases */
	double seconds;
};

/* Defaults: delays 0, 2, 5, 10, 20, 50 ... 5000 ns (quick: 0, 5, 20, 100,
 * 500, 2000), read and read/write (quick: read), 9 trials (quick 3). */
void loaded_params_default(struct loaded_params *p, const struct clock_info *clock, const struct topo *topo,
			   bool quick);

int loaded_run(const struct loaded_params *p, struct loaded_result *r, char *err, size_t errlen);

/* The generators alone (no chaser; thread 0 idles): for each delay in
 * p->delays_ns, the lines per second all generators together issued over
 * p->offered_window_ns. Fills rates_per_s[0..ndelays) and *spin_ns_per_iter.
 * Returns 0 or -errno as loaded_run. */
int loaded_offered_rates(const struct loaded_params *p, enum loaded_traffic traffic, double *rates_per_s,
			 double *spin_ns_per_iter, char *err, size_t errlen);

/* Interpolate along a curve (points in any delay order) the delivered
 * bandwidth at which latency reaches 2 x idle and stays there at every
 * higher offered load (a lone spike is not a knee); fills the curve's
 * double_* and max_* fields. Points marked impossible take no part.
 * Pure; exposed for tests. */
void loaded_find_double(struct loaded_curve *c);

/* The bound on delivered bandwidth: the generators alone (offered) are
 * the most they can issue at that delay; with the chaser beside them they
 * only meet more competition. Nor can they draw more than this memory
 * streamed to any team in the same run (r->stream_peak_gbps, where the run
 * has one). A point's bw_gbps above the smaller of the two beyond the
 * ratio's floor of r->noise_floor_pct is impossible (the offered rate, one
 * short window, read low, or the delivered count is wrong). Sets each
 * point's bound_gbps and impossible, sets and returns r->nimpossible.
 * Pure: the seam a test feeds points through; loaded_run first measures
 * the offered rates of marked points again. */
unsigned loaded_check_bounds(struct loaded_result *r);

/* Latency against load: a busier memory never answers a dependent load
 * sooner (its queues only lengthen), so along each curve from idle through
 * the delays descending (offered load rising) latency should not fall. A
 * point more than r->noise_floor_pct below the largest latency at any less
 * loaded point is marked non_monotonic (the less loaded point is suspect:
 * a fault or a neighbour during it). Impossible points take no part. Sets
 * and returns r->nfalls. Pure: the seam a test feeds curves through. */
unsigned loaded_find_falls(struct loaded_result *r);

#endif
