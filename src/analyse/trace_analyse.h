/*
 * `mlpscope trace FILE [--from run.json]`: characterise a program's memory
 * trace as valgrind's lackey writes it (`valgrind --tool=lackey
 * --trace-mem=yes`): footprint, line-level reuse distances and the hit rate
 * of fully-associative LRU caches, stride regularity, read/write mix and the
 * useful bytes of each line delivered (the command, with its lower bound on
 * the time of the misses, is sections/trace.c). Lines are 64 bytes (a byte mask per line is one
 * 64-bit word). The trace is data: a bad line is counted, never fatal.
 * Request timing is a stated model, not a measurement: one tick per
 * instruction record, one line request per change of line issued at the
 * tick it is reached, each outstanding for latency_ticks. It ignores the
 * program's dependences, so its mean outstanding is the concurrency the
 * trace's request rate would need at that latency (Little's law), not what
 * the program reached.
 */
#ifndef MLPSCOPE_ANALYSE_TRACE_ANALYSE_H
#define MLPSCOPE_ANALYSE_TRACE_ANALYSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyse/charz.h"
#include "analyse/prefetch.h"

#define TRACE_LINE_BYTES 64
#define TRACE_MAX_CACHES 8
#define TRACE_MAX_ACCESS_BYTES 4096   /* larger than any lackey record (xsave) */
#define TRACE_BAD_REPORTED 5
#define TRACE_HIST_BUCKETS 65         /* distance 0, then [2^(b-1), 2^b) */
#define TRACE_DEFAULT_LATENCY_TICKS 200.0  /* the textbook miss: 200 cycles */

struct trace_params {
	const uint64_t *cache_bytes;  /* NULL: 32 KiB, 512 KiB, 32 MiB */
	size_t ncaches;               /* 1..TRACE_MAX_CACHES when cache_bytes is set */
	double latency_ticks;         /* each request outstanding this long; 0: the default */
	const char *latency_source;   /* where it came from, in words; NULL: the default */
	uint64_t queue_cap;           /* the characteriser's capacity Q; 0: unlimited */
};

struct trace_bad_line {
	uint64_t line_no;             /* 1-based */
	char text[48];                /* the start of it, non-printables as '?' */
};

struct trace_result {
	uint64_t lines;               /* text lines read */
	uint64_t valgrind_lines;      /* "==pid== ..." commentary, ignored */
	uint64_t instr, loads, stores, modifies;
	uint64_t malformed;
	struct trace_bad_line bad[TRACE_BAD_REPORTED];
	bool ends_without_newline;    /* the last line was cut off (truncated?) */
	/* data accesses at line granularity (an access across a line boundary
	 * touches both) */
	uint64_t touches;
	uint64_t distinct_lines;
	uint64_t bytes_touched;       /* distinct bytes, over all lines */
	uint64_t cold;                /* first touches: no reuse distance */
	uint64_t reuse_hist[TRACE_HIST_BUCKETS];
	size_t ncaches;
	uint64_t cache_bytes[TRACE_MAX_CACHES];
	uint64_t cache_hits[TRACE_MAX_CACHES];
	/* The characteriser fed one request per change of line (consecutive
	 * accesses to one line are one request, as a cache would issue), under
	 * the timing model above; "used" is the bytes of the line that run of
	 * accesses touched. */
	double latency_ticks;         /* the model's L */
	char latency_source[160];     /* where L came from, in words */
	uint64_t queue_cap;           /* Q the characteriser held requests against; 0: unlimited */
	uint64_t ticks;               /* instruction records: the model's clock */
	struct charz_summary requests;
	/* a tagged next-line prefetcher of each degree over the same touches
	 * (analyse/prefetch.h): the lines it brought in that demand never
	 * used are the over-fetch in the traffic efficiency */
	struct prefetch_figures prefetch[PREFETCH_NDEGREES];
};

/* Why the characteriser's flag (CHARZ_FLAG_*) or property cannot fire under
 * the request model r ran with, or NULL where it can. The model emits its
 * events in time order and completes only what it issued, and "used" is a
 * part of the request's own line, so most of the characteriser's alarms
 * have nothing to catch here; a capacity (queue_cap) arms overflow and the
 * completion of a request dropped past it. */
const char *trace_flag_unarmable(const struct trace_result *r, unsigned flag);
const char *trace_prop_unarmable(const struct trace_result *r, enum charz_prop p);

/* Analyse a lackey trace from f. 0; -EINVAL for bad params; -ENOMEM; -EIO
 * for a read error (err says which). Malformed lines are in r, not errors. */
int trace_analyse(FILE *f, const struct trace_params *p, struct trace_result *r, char *err, size_t errlen);

#endif
