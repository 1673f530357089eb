/*
 * The hot loops of the app section: real walks run as K lanes. Each kernel
 * holds the walk and nothing else (no checks, no timing). Two forms per
 * walk: a runtime-K loop over a lane-state array (the honest plain-C cost of
 * bookkeeping) and generated kernels (kern/app.gen.c, tools/gen_app.c) with
 * each lane a named local, for K in app_lane_set; their ratio is the cost of
 * that bookkeeping, and a drop in the generated form alone points at spills.
 */
#ifndef MLPSCOPE_KERN_APP_WALKS_H
#define MLPSCOPE_KERN_APP_WALKS_H

#include <stddef.h>
#include <stdint.h>

#define APP_K_MAX 32
#define APP_NLANE_SET 10

/* The K values the generated kernels exist for, ascending. */
extern const unsigned app_lane_set[APP_NLANE_SET];

/*
 * Inverse BWT: one table word per row holds the next row (high bits) and
 * the row's first-column byte (low 8 bits), bzip2's T-vector packing, in
 * 32-bit words up to 2^24 rows and 64-bit words beyond. Lane i starts at row
 * pos[i] and writes its bytes to out + seg_begin[i] onward; `steps` rounds
 * advance every lane once each. On return pos[] holds each lane's next row.
 */
typedef void (*app_bwt_walk_fn)(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin,
				unsigned k, size_t steps);

/* The runtime-K loop (k in 1..APP_K_MAX), 32- or 64-bit words. */
void app_bwt_walk_state32(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin,
			  unsigned k, size_t steps);
void app_bwt_walk_state64(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin,
			  unsigned k, size_t steps);

/* The generated register-lane kernel for k (ignores its k argument), or
 * NULL when k is not in app_lane_set. wide: 64-bit words. */
app_bwt_walk_fn app_bwt_walk_regs(unsigned k, int wide);

/* Lanes whose segment is longer than `done` bytes finish it one at a time
 * (segments differ by at most one byte, so this is at most one step each). */
void app_bwt_walk_tail(const void *table, int wide, uint8_t *out, uint64_t *pos, const size_t *seg_begin,
		       unsigned k, size_t done);



/*
 * The inverse-BWT walk as a decoder of existing files must run it: the
 * start rows of text positions are unknown, so segments start at known
 * rows (the text's own start and pseudo-random others), each marked in
 * stop_bits, and a lane walks until the next row is marked (another
 * segment's start, or row 0, the end of the text). Lanes sit on a ring:
 * one whose segment ends takes the next unstarted one. Segment lengths are
 * unknown in advance, so each writes into fixed-size chunks drawn from a
 * pool and linked in order; the join (exp/app/kernel_bwt.c) copies them out in
 * text order. One dependent table load per byte, plus the stop-bit test.
 */
struct app_bwt_ring {
	const void *table;
	int wide;
	const uint64_t *stop_bits;     /* bit r: row r starts a segment or is row 0 */
	const uint64_t *start_row;     /* nsegs rows */
	unsigned nsegs;
	uint8_t *pool;                 /* nchunks chunks of chunk_bytes */
	size_t chunk_bytes;
	size_t nchunks;
	/* Filled by the walk, per segment: first chunk, byte count, and the
	 * marked row it stopped at; chunk_next links a segment's chunks. */
	uint32_t *seg_first_chunk;
	uint64_t *seg_bytes;
	uint64_t *seg_end_row;
	uint32_t *chunk_next;
};

/* Walk every segment with k lanes (1..APP_K_MAX). Returns 0, or -1 when
 * the pool ran out (a sizing bug: nchunks must be bytes/chunk + nsegs). */
int app_bwt_walk_ring(const struct app_bwt_ring *ring, unsigned k);

/*
 * Gather, the ceiling control: sum += a[idx[i]] for i in [0, n). No load
 * depends on another, so the core overlaps as many as its own resources
 * allow with no lanes at all. Returns the sum (so no load is dead).
 */
typedef uint64_t (*app_gather_fn)(const uint64_t *a, const uint32_t *idx, size_t n);
uint64_t app_gather_plain(const uint64_t *a, const uint32_t *idx, size_t n);

/*
 * Chained hash probes. Nodes are 32 bytes, stored in a shuffled order so
 * each link is a random line; a chain ends at APP_HASH_NIL. A lookup loads
 * its bucket's head, then walks the chain until the key or the end. Every
 * form counts the keys found and sums their values into *out.
 */
#define APP_HASH_NIL UINT32_MAX

struct app_hash_node {
	uint64_t key;
	uint64_t value;
	uint32_t next;
	uint32_t pad32;
	uint64_t pad64;
};

struct app_hash_table {
	const struct app_hash_node *nodes;
	const uint32_t *heads;
	uint64_t mask;              /* buckets - 1, a power of two less one */
};

struct app_hash_out {
	uint64_t found;
	uint64_t value_sum;
};

typedef void (*app_hash_fn)(const struct app_hash_table *t, const uint64_t *keys, size_t n, unsigned k,
			    struct app_hash_out *out);

/* One lookup after another (k ignored): whatever overlap the core finds. */
void app_hash_plain(const struct app_hash_table *t, const uint64_t *keys, size_t n, unsigned k,
		    struct app_hash_out *out);
/* Groups of k lookups advanced one step each per round until all k end
 * (group prefetching): a short chain waits for the group's longest. */
void app_hash_lockstep(const struct app_hash_table *t, const uint64_t *keys, size_t n, unsigned k,
		       struct app_hash_out *out);
/* A ring of k in-flight lookups, each with its own stage; a slot whose
 * lookup ends takes the next query at once (AMAC). */
void app_hash_amac(const struct app_hash_table *t, const uint64_t *keys, size_t n, unsigned k,
		   struct app_hash_out *out);

/* Linear probing, the control: open addressing, 16-byte slots, key 0
 * empty. Probes run along a line, so a lookup is about one miss the
 * hardware finds by itself. */
struct app_lp_slot {
	uint64_t key;
	uint64_t value;
};
void app_hash_linear(const struct app_lp_slot *slots, uint64_t mask, const uint64_t *keys, size_t n,
		     struct app_hash_out *out);

/*
 * lower_bound of many queries, K at a time in lockstep. Sorted: the
 * branchless halving search over a[0..n); the result is an index in 0..n.
 * Eytzinger: e[1..n] in breadth-first order (e[0] unused, read as a dummy
 * by lanes whose path already ended); the result is the Eytzinger index
 * of the answer, 0 when every key is smaller (the caller maps it to the
 * sorted index, outside timing). prefetch: also touch the lines the search
 * reaches a few levels on, so more than K misses can be in flight.
 */
typedef void (*app_search_fn)(const uint64_t *table, size_t n, const uint64_t *queries, size_t nq,
			      unsigned k, uint32_t *result);
void app_search_sorted(const uint64_t *a, size_t n, const uint64_t *queries, size_t nq, unsigned k,
		       uint32_t *result);
void app_search_sorted_prefetch(const uint64_t *a, size_t n, const uint64_t *queries, size_t nq, unsigned k,
				uint32_t *result);
void app_search_eytzinger(const uint64_t *e, size_t n, const uint64_t *queries, size_t nq, unsigned k,
			  uint32_t *result);
/* The generated register-lane Eytzinger search for k in app_lane_set, or
 * NULL (it ignores its k argument). */
app_search_fn app_search_eytzinger_regs(unsigned k);
void app_search_eytzinger_prefetch(const uint64_t *e, size_t n, const uint64_t *queries, size_t nq, unsigned k,
				   uint32_t *result);

/* Levels an Eytzinger search over e[1..n] descends: every path takes this
 * many steps, so K lanes stay in lockstep. Shared by the runtime-K loops
 * and the generated kernels. */
static inline unsigned app_eytzinger_depth(size_t n)
{
	unsigned d = 0;

	while (((size_t)1 << d) <= n)
		d++;
	return d;
}

/* The answer's Eytzinger index from the final position: drop the trailing
 * right turns (ones) and the left turn above them. */
static inline uint32_t app_eytzinger_answer(size_t i)
{
	return (uint32_t)(i >> (__builtin_ctzll(~(unsigned long long)i) + 1));
}

#endif
