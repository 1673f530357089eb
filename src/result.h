/*
 * The result model: what a run measured, with its unit in every name, the
 * raw samples behind each figure, and the provenance that ties it to a
 * binary, a machine and a layout. Experiments fill it; writers read it; only
 * main.c decides which parts exist.
 */
#ifndef MLPSCOPE_RESULT_H
#define MLPSCOPE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chain.h"
#include "clock.h"
#include "kern/lanes.h"
#include "exp/app.h"
#include "exp/bandwidth.h"
#include "exp/latency.h"
#include "exp/loaded.h"
#include "exp/multicore.h"
#include "exp/noise.h"
#include "exp/window.h"
#include "machine.h"
#include "topo.h"

struct provenance {
	char binary_sha256[65];
	char compiler[128];
	const char *cflags;
	char kernel[256];
	char timestamp_utc[32];
	char arch[16];
	uint64_t seed;
};

/* One lane count: throughput figures from the minimum over all trials. */
struct mlp_point {
	unsigned lanes;
	size_t steps_per_lane;      /* hops each lane makes per timed region */
	double ns_per_access;       /* elapsed / accesses: reciprocal throughput */
	double speedup;             /* t(1) / t(K) of the same arm */
	double concurrency;         /* lanes arm: t(1) / t(K), Little's law */
	double useful_gbps;         /* 8 B per access, decimal GB/s */
	double line_gbps;           /* one line per access (an assumption) */
	double *trials_ns;          /* ntrials raw values, visit order */
	size_t ntrials;
};

struct mlp_estimate {
	size_t rule_5pct_lanes;
	size_t rule_1pct_lanes;
	double fit_latency_ns;
	double fit_saturation_lanes;
	double fit_plateau_concurrency;
	double fit_uncertainty;     /* lanes, from this run's noise floor */
	double fit_rms_log_residual;
	double peak_concurrency;
	unsigned peak_lanes;
	unsigned plateau_from_lanes;/* first K within the floor of the best time */
	bool flat_at_end;           /* the last 8 K added nothing beyond the floor */
	unsigned repeats;
	unsigned repeats_agreeing;
	double repeat_saturation_lanes[16];
};

struct mlp_result {
	const char *pages_requested;
	size_t working_set_bytes;
	size_t spacing_bytes;
	size_t line_bytes;
	size_t total_bytes;         /* mapped */
	size_t huge_bytes_obtained;
	int collapse_errno;
	struct layout_check layout;
	uint64_t perm_seed;
	uint64_t perm_hash;
	size_t accesses_per_point;
	unsigned trials_per_repeat;
	double noise_floor_pct;
	unsigned npoints;
	struct mlp_point sweep[LANES_MAX];
	unsigned ncontrol;
	struct mlp_point control[8];
	struct mlp_estimate estimate;
	double setup_seconds;
	double sweep_seconds;
};

#define REPORT_MAX_WARNINGS 16

struct report {
	const char *version;
	struct provenance prov;
	struct clock_info clock;
	struct topo topo;
	bool has_machine;
	struct machine_info machine;
	bool has_noise;
	struct noise_result noise;
	bool has_latency;
	struct latency_result latency;
	bool has_bandwidth;
	struct bandwidth_result bandwidth;
	bool has_multicore;
	struct multicore_result multicore;
	bool has_loaded;
	struct loaded_result loaded;
	bool has_window;
	struct window_result window;
	bool has_app;
	struct app_result app;
	int nmlp;                   /* 1, or 2 for --pages both (small, huge) */
	struct mlp_result mlp[2];
	int nwarnings;
	char warnings[REPORT_MAX_WARNINGS][240];
};

/* printf-style; silently drops warnings past REPORT_MAX_WARNINGS. */
void result_warn(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void mlp_result_free(struct mlp_result *m);
void result_free(struct report *r);

#endif
