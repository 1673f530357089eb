/*
 * A DRAM address map and the row-buffer bookkeeping of a stream of line
 * requests through it. A map names channels, ranks, banks per rank and the
 * row size, and where the bank field sits: just above the line offset
 * (`line`: consecutive lines change bank) or above the column (`row`: a
 * whole row of consecutive bytes stays in one bank). Each bank keeps the
 * last row it opened (open-page policy) and requests are served in arrival
 * order, so a request is a row hit (its row is open), empty (nothing open
 * yet) or a conflict (another row open: precharge, then activate). No
 * timing: counts and the expectations derived in docs/MODEL.md.
 */
#ifndef MLPSCOPE_ANALYSE_DRAM_H
#define MLPSCOPE_ANALYSE_DRAM_H

#include <stdbool.h>
#include <stdint.h>

enum dram_interleave {
	DRAM_INTERLEAVE_LINE,     /* bank bits right above the line offset */
	DRAM_INTERLEAVE_ROW,      /* bank bits above the column: a row's bytes in one bank */
};

struct dram_map {
	unsigned channels, ranks, banks_per_rank;
	uint64_t row_bytes;       /* bytes one activation opens in one bank */
	enum dram_interleave interleave;
};

/* The accepted form, for usage messages. */
#define DRAM_MAP_FORM "ch=N,rank=N,bank=N,row=SIZE,interleave=line|row, e.g. ch=2,rank=1,bank=16,row=8K,interleave=line"

#define DRAM_MAX_BANKS 4096u      /* channels x ranks x banks per rank, at most */

/* "ch=2,rank=1,bank=16,row=8K,interleave=line": every key once, any order;
 * row a size in bytes (suffix K or M, binary). 0, or -EINVAL. The row's
 * relation to the line is checked by dram_map_check. */
int dram_map_parse(const char *s, struct dram_map *m);

/* 0 when the map holds whole lines per row (row a multiple of line_bytes)
 * and at most DRAM_MAX_BANKS banks; -EINVAL otherwise. */
int dram_map_check(const struct dram_map *m, uint64_t line_bytes);

/* Channels x ranks x banks per rank: every bank that can hold a row open. */
uint64_t dram_banks(const struct dram_map *m);

/* "line", "row". */
const char *dram_interleave_name(enum dram_interleave i);

/* The global bank (channel, rank and bank flattened) and the row within it
 * that byte address addr maps to. */
void dram_locate(const struct dram_map *m, uint64_t line_bytes, uint64_t addr, uint64_t *bank, uint64_t *row);

/* The i-th request's byte address, i from 0; ctx is the caller's. */
typedef uint64_t (*dram_addr_fn)(const void *ctx, uint64_t i);

struct dram_count {
	uint64_t requests;
	uint64_t hits;            /* the bank had this row open */
	uint64_t empty;           /* the bank had nothing open: activate only */
	uint64_t conflicts;       /* another row open: precharge and activate */
	uint64_t in_flight;       /* P: the requests the memory holds at once */
	double banks_busy_mean;   /* distinct banks among each run of P consecutive requests, averaged */
};

/* Serve n requests (addr(ctx, 0..n-1), in arrival order) and count hits,
 * empties and conflicts; in_flight P (clamped to 1..n) sets the window the
 * bank spread is counted over. 0, -EINVAL (bad map or n == 0), -ENOMEM. */
int dram_count(const struct dram_map *m, uint64_t line_bytes, dram_addr_fn addr, const void *ctx, uint64_t n,
	       uint64_t in_flight, struct dram_count *c);

#define DRAM_MAX_WINDOW 256u     /* requests a reordering controller holds, at most */

/* As dram_count, but the controller holds up to `window` requests (clamped
 * to 1..DRAM_MAX_WINDOW and n) and serves the oldest whose row is open in
 * its bank, else the oldest (first-ready, first-come first-served). A
 * window of 1 is arrival order. banks_busy_mean is over the held requests
 * at each service. Same returns as dram_count. */
int dram_count_reordered(const struct dram_map *m, uint64_t line_bytes, dram_addr_fn addr, const void *ctx,
			 uint64_t n, uint64_t window, struct dram_count *c);

/* Activations: every request that found its row closed. */
uint64_t dram_activations(const struct dram_count *c);

/* hits / requests; NaN for no requests. */
double dram_hit_fraction(const struct dram_count *c);

/* The derivation's expectations (docs/MODEL.md). A walk of `lines`
 * consecutive lines from address 0 hits 1 - (rows opened) / lines: exact,
 * and 1 - line/row for a long walk under either interleave (NaN for none);
 * uniformly random lines over footprint_bytes hit banks x row / footprint
 * (at most 1); P consecutive lines keep min(P, banks) banks busy under
 * `line` and about min(banks, 1 + (P - 1) / lines per row) under `row`; P
 * random lines keep banks x (1 - (1 - 1/banks)^P). */
double dram_seq_hit_model(const struct dram_map *m, uint64_t line_bytes, uint64_t lines);
double dram_random_hit_model(const struct dram_map *m, uint64_t footprint_bytes);
double dram_seq_banks_model(const struct dram_map *m, uint64_t line_bytes, uint64_t in_flight);
double dram_random_banks_model(const struct dram_map *m, uint64_t in_flight);

#define DRAM_TWO_WINDOWS 3
extern const uint64_t dram_two_windows[DRAM_TWO_WINDOWS];   /* 2, 8, 32 */

/* Two cores each walking their own region sequentially, their requests
 * interleaved at the controller one for one (A0 B0 A1 B1 ...). B starts in
 * A's first bank at another row (same_bank), or half the banks away
 * (apart; unavailable with one bank). */
struct dram_two_streams {
	uint64_t lines_each;
	uint64_t base_same_bytes, base_apart_bytes;
	struct dram_count alone;      /* A by itself */
	struct dram_count same_bank;  /* A and B, B in A's bank, another row */
	struct dram_count apart;      /* A and B, B in another bank */
	bool apart_possible;          /* more than one bank */
	/* A and B in one bank again, served open-row first among the
	 * DRAM_TWO_WINDOWS windows of requests the controller holds */
	struct dram_count same_bank_reordered[DRAM_TWO_WINDOWS];
};


/* 0, -EINVAL (bad map or lines_each == 0), -ENOMEM. */
int dram_two_streams(const struct dram_map *m, uint64_t line_bytes, uint64_t lines_each, struct dram_two_streams *t);

#endif
