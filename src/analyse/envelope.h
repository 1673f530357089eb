/*
 * The envelope of the model command: at each lane count K, a lower bound on
 * time per access from each resource separately, every term from its own
 * evidence (never from the sweep it explains), the binding term and its
 * margin to the next. Terms: latency L/K (L = t(1)); issue u/P (u counted
 * in the kernel that ran, P measured L1-resident); load and store ports,
 * m/(ports f) and s/(ports f) (ports per cycle by CPU from the vendors'
 * guides, f the fastest core clock the run timed); core (the same kernel's
 * L1-resident time); bandwidth b/B (B from the bandwidth section's reads);
 * load_queue L m/Q, rob L u/ROB and miss_buffers L/M (Q, ROB and M from
 * window; one missing line per access). Pure: reads a
 * parsed JSON document, prints nothing (report/model_out.c writes).
 */
#ifndef MLPSCOPE_ANALYSE_ENVELOPE_H
#define MLPSCOPE_ANALYSE_ENVELOPE_H

#include <stdbool.h>
#include <stddef.h>

struct jsonr_value;

#define ENV_MAX_POINTS 512
#define ENV_MAX_LOADED 64
#define ENV_SOURCE_LEN 200

enum env_term {
	ENV_LATENCY,       /* L/K: the lanes' own dependency */
	ENV_ISSUE,         /* u(K)/P: instructions per access over the measured issue rate */
	ENV_LOAD_PORTS,    /* m(K)/(ports x f): loads per access over the L1D's loads per ns */
	ENV_STORE_PORTS,   /* s(K)/(ports x f): stores per access over the L1D's stores per ns */
	ENV_CORE,          /* the same kernel L1-resident: the core's work with every load a hit */
	ENV_BW_CORE,       /* line / B1: one thread's measured streaming read */
	ENV_BW_MEMORY,     /* line / Bmax: the most threads' measured read */
	ENV_LOAD_QUEUE,    /* L m(K)/Q_lq: loads per access held about L each */
	ENV_ROB,           /* L u(K)/ROB: instructions per access held about L each */
	ENV_MISS_BUFFERS,  /* L/M: each access's missing line held about L in one of M L1D miss buffers */
	ENV_NTERMS
};

/* One input: value 0 when unknown; source says where it came from or, when
 * unknown, which measurement would supply it. */
struct env_source {
	double value;
	char source[ENV_SOURCE_LEN];
};

struct env_inputs {
	char section[16];
	double line_bytes;
	double noise_floor_frac;
	struct env_source t1;           /* ns */
	struct env_source issue;        /* instructions per ns */
	struct env_source read_core;    /* GB/s = bytes/ns, one thread */
	struct env_source read_memory;  /* GB/s, the most threads measured */
	struct env_source load_queue;   /* entries */
	struct env_source rob;          /* entries */
	struct env_source load_ports;   /* loads a cycle the L1D takes (analyse/ports.h) */
	struct env_source store_ports;  /* stores a cycle */
	struct env_source clock_ghz;    /* the fastest core clock timed in the run */
	struct env_source miss_buffers; /* entries: L1D misses in flight (window's miss filler) */
	char count_source[ENV_SOURCE_LEN];   /* instructions/loads per access */
	bool counts_assumed;            /* from the generator's shape, not counted */
	double ks, ks_uncertainty, plateau_concurrency;
	unsigned plateau_from_lanes;
	double huge_pct;                /* page backing obtained; < 0 unknown */
	/* mlp.levels: the most in flight with the working set in a cache
	 * (hits of that level), 0 when the file has no levels */
	double cache_peak_concurrency;
	double cache_peak_t1_ns;        /* that level's t(1) */
	double cache_peak_floor_frac;   /* that level's own noise floor (0 when not recorded) */
	char cache_peak_level[24];
	/* the loaded section: chaser latency against delivered bandwidth */
	size_t nloaded;
	double loaded_idle_ns;
	double loaded_bw_gbps[ENV_MAX_LOADED], loaded_latency_ns[ENV_MAX_LOADED];
	size_t npoints;
	double lanes[ENV_MAX_POINTS], measured_ns[ENV_MAX_POINTS];
	double insns_per_access[ENV_MAX_POINTS], loads_per_access[ENV_MAX_POINTS];
	double stores_per_access[ENV_MAX_POINTS];  /* stack spills; 0 when none or not counted */
	double core_ns[ENV_MAX_POINTS];       /* 0: not measured */
};

struct env_point {
	double k, measured_ns;
	double ns[ENV_NTERMS];    /* 0: unknown */
	int binding, next;        /* terms; -1 when none */
	double margin;            /* ns[binding] / ns[next] - 1; NAN without a next */
	unsigned tied_mask;       /* terms within the noise floor of the binding one */
	double envelope_ns;       /* ns[binding] */
	double explained;         /* envelope / measured */
	double loaded_latency_ns; /* t_loaded(K), NAN when the file cannot give it */
};

/* "latency", "issue", "load_ports", "store_ports", "core",
 * "bandwidth_core", "bandwidth_memory", "load_queue", "rob", "miss_buffers". */
const char *envelope_term_name(enum env_term t);

/* Where term t at point i came from, in words (or why it is unknown). */
void envelope_term_source(const struct env_inputs *in, enum env_term t, char *buf, size_t len);

/* Evaluate every term at sweep point i. */
void envelope_at(const struct env_inputs *in, size_t i, struct env_point *p);

/* t_loaded at a delivered line bandwidth: t(1) scaled by the loaded
 * section's latency rise (curve latency / idle latency) at that bandwidth,
 * interpolated linearly; NAN beyond the curve or without one. */
double envelope_loaded_latency(const struct env_inputs *in, double line_gbps);

/* Fill in from one mlp arm m (named name) of root; bandwidth, window and
 * loaded from root, window also from extra (a second result, may be NULL).
 * 0 or -EBADMSG (err says what is missing). */
int envelope_inputs_from(const struct jsonr_value *root, const struct jsonr_value *m, const char *name,
			 const struct jsonr_value *extra, struct env_inputs *in, char *err, size_t errlen);

#endif
