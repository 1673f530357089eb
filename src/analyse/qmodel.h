/*
 * A discrete-event model of a memory system: every request takes latency L,
 * at most Q are outstanding, and the data path moves B bytes per time unit.
 * It is fed by K independent dependent chains (each issues its next request
 * when the previous completes: a pointer chase per lane) or by a stream of
 * independent requests, and the characteriser watches what the memory saw.
 * Time is in one caller-chosen unit, the tick (cycles for the textbook case,
 * nanoseconds for a measured run); B is in bytes per tick, so bytes per ns
 * reads directly as decimal GB/s. Nothing here measures or prints.
 */
#ifndef MLPSCOPE_ANALYSE_QMODEL_H
#define MLPSCOPE_ANALYSE_QMODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "analyse/charz.h"

struct qmodel_memory {
	double latency;          /* L, ticks, > 0 */
	double queue_cap;        /* Q; 0: unlimited. The simulation needs a whole
	                          * number; the bound takes a measured fraction */
	double bytes_per_tick;   /* B; 0: unlimited */
	uint64_t request_bytes;  /* bytes one request moves (a line), > 0 */
};

enum qmodel_feed {
	QMODEL_FEED_CHAINS,      /* K dependent chains, requests split evenly */
	QMODEL_FEED_STREAM,      /* independent requests, all ready at t = 0 */
};

struct qmodel_workload {
	enum qmodel_feed feed;
	uint64_t chains;         /* K for QMODEL_FEED_CHAINS, > 0 */
	uint64_t requests;       /* total requests, > 0 */
	uint64_t seed;           /* chains visit scattered lines drawn from it;
	                          * a stream walks consecutive lines */
};

struct qmodel_result {
	double makespan;         /* ticks from t = 0 to the last completion */
	double per_request;      /* makespan / requests */
	struct charz_summary seen;   /* what the memory system experienced */
};

/* Lines a chain's scattered requests are drawn from (1 GiB of 64-byte lines). */
#define QMODEL_CHAIN_LINES (1ull << 24)

/* The byte address of the i-th request (i from 0, in issue order) of w: a
 * stream walks consecutive lines from 0, chains draw lines from
 * QMODEL_CHAIN_LINES with w->seed. */
uint64_t qmodel_address(const struct qmodel_workload *w, uint64_t request_bytes, uint64_t i);

/* How many of w's requests m holds at once in steady state: K chains
 * (one each), or the stream's all, either capped by Q and the request count. */
uint64_t qmodel_in_flight(const struct qmodel_memory *m, const struct qmodel_workload *w);

/* Simulate. 0, -EINVAL for bad parameters, -ENOMEM. */
int qmodel_run(const struct qmodel_memory *m, const struct qmodel_workload *w, struct qmodel_result *r);

/* The three terms of the lower bound on time per request at K lanes:
 * t(K) >= max(L/K, L/Q, bytes/B). */
enum qmodel_term {
	QMODEL_TERM_LATENCY,     /* L/K: the chains' dependency */
	QMODEL_TERM_CONCURRENCY, /* L/Q: the cap on outstanding requests */
	QMODEL_TERM_BANDWIDTH,   /* bytes/B: the data path */
	QMODEL_NTERMS
};

struct qmodel_bound {
	double term[QMODEL_NTERMS];  /* ticks per request; 0 for an unknown or unlimited input */
	double bound;                /* the largest term */
	enum qmodel_term binding;    /* which; ties go to the earlier term */
	unsigned tied_mask;          /* 1 << term for every term within tolerance of the bound */
};

/* Evaluate the bound at k lanes (k = 0: independent requests, no L/K term).
 * Terms within rel_tolerance (e.g. a run's noise floor, 0.03) of the largest
 * are reported as tied: a bound that cannot be told apart is not named alone. */
void qmodel_bound_at(const struct qmodel_memory *m, double k, double rel_tolerance, struct qmodel_bound *b);

/* "latency", "concurrency", "bandwidth". */
const char *qmodel_term_name(enum qmodel_term t);

/* Names of the tied terms joined with '+' ("concurrency+bandwidth"). */
void qmodel_bound_names(const struct qmodel_bound *b, char *buf, unsigned buflen);

/* The pointer-chase vs streaming comparison: the same reads, once as one
 * dependent chain and once as a stream, on the same memory. */
struct qmodel_comparison {
	struct qmodel_result chase, stream;
	struct qmodel_bound chase_bound, stream_bound;
	double slowdown;         /* chase makespan / stream makespan */
};
int qmodel_compare_chase_stream(const struct qmodel_memory *m, uint64_t reads, struct qmodel_comparison *c);

/* Why the characteriser's flag (CHARZ_FLAG_*) or property cannot fire on a
 * model run, or NULL: the model accepts at most its slots, completes only
 * what it accepted, in time order, and reports no bytes used. */
const char *qmodel_flag_unarmable(unsigned flag);
const char *qmodel_prop_unarmable(enum charz_prop p);

#endif
