/*
 * The request-stream characteriser: fed timestamped arrivals, completions and
 * "bytes used" reports, it says what a memory system experienced over a
 * window: time-averaged outstanding requests (the MLP it saw; the high-water
 * mark is context only), read/write counts, stride regularity, bytes
 * delivered and used, and sticky flags for streams that broke its rules.
 * It neither simulates nor measures; qmodel.c and trace.c feed it. Events at
 * one timestamp are one tick and take effect together, so an arrival and a
 * completion in the same tick leave the count unchanged whatever their order.
 */
#ifndef MLPSCOPE_ANALYSE_CHARZ_H
#define MLPSCOPE_ANALYSE_CHARZ_H

#include <stdbool.h>
#include <stdint.h>

#include "analyse/charz_props.h"

/* Sticky flags: once set, set for the rest of the window. */
#define CHARZ_FLAG_OVERFLOW        0x1u /* a tick ended with more than capacity outstanding */
#define CHARZ_FLAG_COMPLETION_IDLE 0x2u /* a tick completed more than was outstanding */
#define CHARZ_FLAG_TIME_BACKWARDS  0x4u /* an event was older than the tick before it */
#define CHARZ_FLAG_USED_EXCEEDS    0x8u /* "used" reports went past the bytes delivered */

struct charz {
	/* configuration */
	uint64_t capacity;          /* most requests the system can hold; > 0 */
	uint64_t line_bytes;        /* stride granularity; > 0 */
	double t_begin;             /* window start, in the caller's time unit */
	/* the current tick and what happened in it, not yet applied */
	double now;
	uint64_t tick_arrivals, tick_completions;
	/* state after the last applied tick */
	uint64_t outstanding;
	uint64_t high_water;
	double area;                /* integral of outstanding over [t_begin, now] */
	/* counts */
	uint64_t requests, reads, writes;
	uint64_t completions;
	uint64_t dropped;           /* arrivals beyond capacity (not held) */
	uint64_t unmatched;         /* completions with nothing left to complete */
	/* stride: the delta between consecutive requests' lines */
	uint64_t prev_line;
	int64_t prev_delta;
	uint64_t stride_classified, stride_regular;
	/* traffic */
	uint64_t delivered_bytes;
	uint64_t used_bytes;
	bool used_reported;
	unsigned flags;
	struct charz_monitor mon;   /* its properties and covers so far */
};

struct charz_summary {
	bool has_data;              /* false: the window had zero length */
	double window;              /* length, caller's time unit */
	double mean_outstanding;    /* time average; NaN without data */
	uint64_t high_water;        /* context only */
	uint64_t outstanding_at_end;
	uint64_t requests, reads, writes, completions, dropped, unmatched;
	uint64_t stride_classified; /* requests that had two earlier requests */
	uint64_t stride_regular;    /* ... whose line delta repeated the previous one */
	double stride_regular_fraction; /* NaN when nothing could be classified */
	uint64_t delivered_bytes;
	bool used_reported;         /* false: "never reported", not "zero used" */
	uint64_t used_bytes;        /* meaningful only when used_reported */
	double used_fraction;       /* used / delivered; NaN unless both known */
	unsigned flags;
	struct charz_monitor mon;   /* properties (armed, failed) and covers, the last tick included */
};

/* Start a window at t_begin. capacity and line_bytes must be > 0.
 * 0 or -EINVAL. */
int charz_init(struct charz *c, uint64_t capacity, uint64_t line_bytes, double t_begin);

/* A request for `bytes` (what the memory system delivers for it, e.g. a
 * line for a miss) at address addr, arriving at time t. An arrival that would
 * leave more than capacity outstanding at the end of its tick is counted as a
 * request but not held (dropped), and sets CHARZ_FLAG_OVERFLOW. */
void charz_arrive(struct charz *c, double t, uint64_t addr, uint64_t bytes, bool is_write);

/* One request completes at time t. A tick that completes more than was
 * outstanding (before it plus its own arrivals) sets
 * CHARZ_FLAG_COMPLETION_IDLE; the count stays at zero. */
void charz_complete(struct charz *c, double t);

/* The requester used `bytes` of what was delivered. Reporting zero is a
 * report ("used nothing"), distinct from never reporting. Used is held at
 * most delivered (CHARZ_FLAG_USED_EXCEEDS when a report went past it). */
void charz_report_used(struct charz *c, uint64_t bytes);

/* Requests outstanding once the current tick's events take effect (at most
 * capacity). */
uint64_t charz_outstanding(const struct charz *c);

/* Summarise the window [t_begin, t_end]. t_end earlier than the last event
 * is -EINVAL. A zero-length window gives has_data false and NaN averages:
 * an idle stream must not read like a result. 0 or -EINVAL. */
int charz_summarise(const struct charz *c, double t_end, struct charz_summary *s);

#endif
