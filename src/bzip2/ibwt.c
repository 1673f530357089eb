/*
 * The inverse BWT: bzip2's T-vector (tt[j] = next row << 8 | the byte row
 * j starts with) and the walk that follows it from the text's first row,
 * one dependent load per output byte. The byte is the first column's, not
 * libbz2's last: it is the byte the table's scatter holds in hand, where
 * the last column's byte of row j is a read at random into the 900 kB
 * column a row (the step's emitted bytes are the same: row j starts with
 * the byte that precedes row tt[j]'s text).
 * A 900 kB block's table is 3.6 MB: past L2 on most cores, so each step of
 * one walk waits for a cache miss. K lanes walk K segments at once.
 *
 * Where segments start: the format gives only the text's first row, and a
 * row's text position is known only by walking to it. So the first pass
 * picks S-1 more rows at random (S x one RNG draw and one store marking the
 * row in bit 31 of its word, no walk); each lane walks from a start row
 * until it meets another's mark, writing into 4 KiB chunks of a pool since
 * its length is unknown until then (a lane's segments one after another in
 * its chunks). The marks chain the segments in text
 * order, and assembly copies them out in that order (n bytes of memcpy):
 * that copy and the longest segment's tail (about ln(S) x the mean for
 * random starts, shortened by handing a free lane the next segment) are
 * what the lanes cost over one walk. A block whose rows are not one cycle
 * (a periodic text: libbz2 walks its short cycle n steps) is detected by
 * the chain check and walked again with one lane.
 */
#include "bzip2/bz2.h"
#include "bzip2/pagebuf.h"

#include "util/rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define CHUNK_BYTES 4096u
/* Chunks lie a line more than their size apart. The lanes write a byte a
 * round each, so their write pointers keep their offsets within their
 * chunks; at a page apart, chunks that start together put every lane's
 * store in one L1 set (16 lines in a 12-way set: each round evicts what
 * the round before wrote). A line more puts chunk k in set k + offset. */
#define CHUNK_STRIDE (CHUNK_BYTES + 64u)
#define NO_CHUNK UINT32_MAX

/* Eight consecutive slots from one run of byte c: tt[k] = (i + k) << 8 | c. */
static inline void run_rows(uint32_t *tt, uint8_t c, uint32_t i)
{
#ifdef __SSE2__
	/* Two adds and two stores for eight slots. */
	__m128i r = _mm_add_epi32(_mm_set1_epi32((int)(i << 8 | c)), _mm_set_epi32(3 << 8, 2 << 8, 1 << 8, 0));

	_mm_storeu_si128((__m128i *)tt, r);
	_mm_storeu_si128((__m128i *)(tt + 4), _mm_add_epi32(r, _mm_set1_epi32(4 << 8)));
#else
	for (uint32_t k = 0; k < 8; k++)
		tt[k] = (i + k) << 8 | c;
#endif
}

/* The table from the column's runs (bz2_block.runs): a run's rows take
 * consecutive slots of its byte's bucket, so each run reads and moves its
 * byte's cursor once, and consecutive runs are of different bytes (no
 * chain through a cursor from one to the next). Text's 900 kB columns
 * are 150,000-220,000 runs, machine code's 270,000-360,000. Eight slots a
 * store pair whatever the run's length: the slots past it are its bucket's
 * own, not written yet, and its byte's next runs write them again; only
 * at the bucket's end, where they would be the next bucket's (which a run
 * before may have written), are the stores exact. A loop of exact stores
 * a run (its trip count a branch the predictor cannot learn) took 2-4x
 * the column's time. */
static void table_from_runs(const uint16_t *runs, uint32_t nruns, uint32_t *cf, const uint32_t *end, uint32_t *tt)
{
	uint32_t i = 0;

	for (uint32_t k = 0; k < nruns; k++) {
		uint32_t c = runs[k] & 255, len = runs[k] >> 8, j = cf[c], r = 0;

		cf[c] = j + len;
		do {
			if (__builtin_expect(j + r + 8 > end[c], 0)) {
				for (; r < len; r++)
					tt[j + r] = (i + r) << 8 | c;
				break;
			}
			run_rows(tt + j + r, (uint8_t)c, i + r);
			r += 8;
		} while (r < len);
		i += len;
	}
}

#if defined(__x86_64__)
#define TABLE_AVX512 "avx512f"
/* The same with a run of up to 16 rows in one masked store. */
static __attribute__((target(TABLE_AVX512))) void table_from_runs_avx512(const uint16_t *runs, uint32_t nruns,
									  uint32_t *cf, uint32_t *tt)
{
	const __m512i step = _mm512_set_epi32(15 << 8, 14 << 8, 13 << 8, 12 << 8, 11 << 8, 10 << 8, 9 << 8, 8 << 8,
					      7 << 8, 6 << 8, 5 << 8, 4 << 8, 3 << 8, 2 << 8, 1 << 8, 0);
	uint32_t i = 0;

	for (uint32_t k = 0; k < nruns; k++) {
		uint32_t c = runs[k] & 255, len = runs[k] >> 8, j = cf[c], r = 0;
		__m512i v = _mm512_add_epi32(_mm512_set1_epi32((int)(i << 8 | c)), step);

		cf[c] = j + len;
		for (; __builtin_expect(r + 16 < len, 0); r += 16) {
			_mm512_storeu_si512(tt + j + r, v);
			v = _mm512_add_epi32(v, _mm512_set1_epi32(16 << 8));
		}
		_mm512_mask_storeu_epi32(tt + j + r, (__mmask16)((1u << (len - r)) - 1), v);
		i += len;
	}
}
#endif

bool bz2_table_masked = true;

void bz2_ibwt_table(const struct bz2_block *blk, uint32_t *tt)
{
	uint32_t cf[256], end[256], sum = 0, n = blk->nblock;
	const uint8_t *bwt = blk->bwt;

	for (unsigned b = 0; b < 256; b++) {
		cf[b] = sum;
		sum += blk->counts[b];
		end[b] = sum;
	}
	if (blk->nruns) {
#if defined(__x86_64__)
		if (bz2_table_masked && __builtin_cpu_supports("avx512f")) {
			table_from_runs_avx512(blk->runs, blk->nruns, cf, tt);
			return;
		}
#endif
		table_from_runs(blk->runs, blk->nruns, cf, end, tt);
		return;
	}
	/* One pass of stores and no random load: row j's byte is the one
	 * being scattered (its first column's), not the last column's (a
	 * read at random into the 900 kB column, the loop's hottest
	 * instruction when it was read). */
	for (uint32_t i = 0; i < n;) {
		uint64_t w;

		/* Eight rows of one byte (the column's runs: text's are long)
		 * take eight consecutive slots, so their count is read and
		 * written once, not once a row: the chain through cf[] that a
		 * repeated byte makes is what the byte-at-a-time loop waits on. */
		memcpy(&w, bwt + i, 8);
		if (i + 8 <= n && w == 0x0101010101010101ull * (uint8_t)w) {
			uint32_t j = cf[(uint8_t)w];

			cf[(uint8_t)w] = j + 8;
			run_rows(tt + j, (uint8_t)w, i);
			i += 8;
			continue;
		}
		for (uint32_t stop = i + 8 < n ? i + 8 : n; i < stop; i++) {
			uint8_t c = bwt[i];

			tt[cf[c]++] = i << 8 | c;
		}
	}
}

static void walk_one(const uint32_t *tt, uint32_t n, uint32_t orig_ptr, uint8_t *out)
{
	uint32_t pos = orig_ptr;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t v = tt[pos];

		out[i] = (uint8_t)v;
		pos = v >> 8;
	}
}

struct seg_key {
	uint32_t row, seg;
};

struct walk {
	uint32_t *tt;
	uint32_t n;
	struct bz2_walk_scratch *sc;
	size_t next_chunk;
	unsigned nsegs, next_seg;
	uint32_t start_row[BZ2_SEGMENTS_MAX], end_row[BZ2_SEGMENTS_MAX];
	uint32_t seg_off[BZ2_SEGMENTS_MAX];   /* pool byte where the segment begins */
	uint32_t bytes[BZ2_SEGMENTS_MAX];
	struct seg_key keys[BZ2_SEGMENTS_MAX];
};

/* seg_w: where the segment's bytes in this chunk begin; seg_carry: its
 * bytes in the lane's earlier chunks. */
struct lane {
	uint32_t pos, seg, chunk, on, seg_carry;
	uint8_t *w, *wend, *seg_w;
};

static int key_cmp(const void *a, const void *b)
{
	const struct seg_key *x = a, *y = b;

	return x->row < y->row ? -1 : x->row > y->row;
}

static inline __attribute__((always_inline)) int lane_chunk(struct walk *c, struct lane *l)
{
	uint32_t k;

	if (c->next_chunk >= c->sc->pool_chunks)
		return -1;
	k = (uint32_t)c->next_chunk++;
	if (l->chunk != NO_CHUNK) {
		c->sc->chunk_next[l->chunk] = k;
		c->sc->chunk_used[l->chunk] = (uint32_t)(l->w - (l->wend - CHUNK_BYTES));
		l->seg_carry += (uint32_t)(l->w - l->seg_w);
	}
	c->sc->chunk_next[k] = NO_CHUNK;
	c->sc->chunk_used[k] = 0;
	l->chunk = k;
	l->w = c->sc->pool + (size_t)k * CHUNK_STRIDE;
	l->wend = l->w + CHUNK_BYTES;
	l->seg_w = l->w;
	return 0;
}

/* Start the next segment on lane l, or park it: 1 when it stays on. The
 * first byte is peeled: the start row carries its own mark. A lane's
 * segments follow one another in its chunks, so a chunk is wasted only at
 * a lane's end, not at every segment's: many short segments cost no
 * memory, and they shorten the tail where a few lanes walk alone. */
static inline __attribute__((always_inline)) int lane_take(struct walk *c, struct lane *l)
{
	uint32_t v;

	if (c->next_seg >= c->nsegs) {
		l->on = 0;
		return 0;
	}
	l->seg = c->next_seg++;
	if ((l->chunk == NO_CHUNK || l->w == l->wend) && lane_chunk(c, l))
		return -1;
	c->seg_off[l->seg] = (uint32_t)(l->w - c->sc->pool);
	l->seg_w = l->w;
	l->seg_carry = 0;
	v = c->tt[c->start_row[l->seg]] & ~BZ2_ROW_MARK;
	*l->w++ = (uint8_t)v;
	l->pos = v >> 8;
	l->on = 1;
	return 1;
}

static inline __attribute__((always_inline)) void lane_close(struct walk *c, struct lane *l)
{
	c->end_row[l->seg] = l->pos;
	c->bytes[l->seg] = l->seg_carry + (uint32_t)(l->w - l->seg_w);
	c->sc->chunk_used[l->chunk] = (uint32_t)(l->w - (l->wend - CHUNK_BYTES));
}

/* The rare steps (a segment's end, a full chunk, the first segment) out of
 * line: inlined at each unrolled lane of every (K, prefetch) loop they were
 * 60% of this object and 80% of its compile time (575 KB and 27 s at -O2
 * against 218 KB and 6.5 s). They run on a copy of the lane, so that the
 * lane array's address never escapes and its fields stay in registers on
 * the hot path (paired task-clock on text: 0.998 of the inlined form). */
static __attribute__((noinline, cold)) int lane_next(struct walk *c, struct lane *l)
{
	lane_close(c, l);
	return lane_take(c, l);
}

static __attribute__((noinline, cold)) int lane_start(struct walk *c, struct lane *l)
{
	return lane_take(c, l);
}

static __attribute__((noinline, cold)) int lane_refill(struct walk *c, struct lane *l)
{
	return lane_chunk(c, l);
}

static inline __attribute__((always_inline)) int lane_out_of_line(struct walk *c, struct lane *L, unsigned j,
								 int (*step)(struct walk *, struct lane *))
{
	struct lane t = L[j];
	int r = step(c, &t);

	L[j] = t;
	return r;
}

/* Rounds every lane can take with no test but its segment's end: each
 * is on and has that many bytes left in its chunk (a lane that starts a
 * new segment in a round writes its first byte in that round, one byte as
 * a step writes, so the bound holds after it too). 0 when a lane is
 * parked. */
static inline __attribute__((always_inline)) long lanes_room(const struct lane *L, const unsigned K, long most)
{
	for (unsigned q = 0; q < K; q++) {
		long left = L[q].wend - L[q].w;

		if (!L[q].on)
			return 0;
		most = left < most ? left : most;
	}
	return most;
}

/* Up to `rounds` rounds of the K lanes, their room checked by lanes_room:
 * per lane a step is the table load, the mark test, the byte and the
 * prefetch; the parked-lane and chunk-end tests of the general loop run
 * once a batch, not once a row (they were half its instructions). Every
 * lane writes a byte a round, so round r writes at w[r] and the write
 * pointers move once, at the batch's end: 32 lanes' pointers live on the
 * stack, and a row stores one less. A lane that ends its segment is given
 * its true pointer for the step out of line (its next segment goes on in
 * the same chunk: the room holds) and the batch's form back after. The
 * rounds taken, fewer when a lane parked (the rest of that round's lanes
 * did not step: lanes are independent), or -1 when the pool ran out. */
static inline __attribute__((always_inline)) long lanes_rounds(struct walk *c, struct lane *L, const unsigned K,
							      const enum bz2_prefetch pf, long rounds, unsigned *live)
{
	const uint32_t *tt = c->tt;

	for (long r = 0; r < rounds; r++) {
#pragma GCC unroll 32
		for (unsigned j = 0; j < K; j++) {
			uint32_t v = tt[L[j].pos];

			if (__builtin_expect(v & BZ2_ROW_MARK, 0)) {
				int t;

				L[j].w += r;
				if ((t = lane_out_of_line(c, L, j, lane_next)) < 0)
					return -1;
				if (t == 0) {
					for (unsigned q = 0; q < K; q++)
						if (q != j)
							L[q].w += r + (q < j);
					(*live)--;
					return r;
				}
				L[j].w -= r + 1;
				continue;
			}
			L[j].w[r] = (uint8_t)v;
			L[j].pos = v >> 8;
			if (pf == BZ2_PREFETCH_NEXT)
				__builtin_prefetch(&tt[v >> 8]);
		}
	}
	for (unsigned q = 0; q < K; q++)
		L[q].w += rounds;
	return rounds;
}

#define BATCH_ROUNDS 64

/* One round of the K lanes with every test: parked lanes skipped, a full
 * chunk replaced, a segment's end closing the lane and starting the next
 * (the rounds where lanes_room finds no batch: the walk's start and end).
 * 0, or -1 when the pool ran out. */
static inline __attribute__((always_inline)) int lanes_round(struct walk *c, struct lane *L, const unsigned K,
							    const enum bz2_prefetch pf, unsigned *live)
{
	const uint32_t *tt = c->tt;

#pragma GCC unroll 32
	for (unsigned j = 0; j < K; j++) {
		uint32_t v;

		if (!L[j].on)
			continue;
		if (pf == BZ2_PREFETCH_TWO)
			__builtin_prefetch(&tt[L[(j + 2) % K].pos]);
		v = tt[L[j].pos];
		if (__builtin_expect(v & BZ2_ROW_MARK, 0)) {
			int r;

			if ((r = lane_out_of_line(c, L, j, lane_next)) < 0)
				return -1;
			*live -= (unsigned)(r == 0);
			continue;
		}
		if (__builtin_expect(L[j].w == L[j].wend, 0) && lane_out_of_line(c, L, j, lane_refill))
			return -1;
		*L[j].w++ = (uint8_t)v;
		L[j].pos = v >> 8;
		if (pf == BZ2_PREFETCH_NEXT)
			__builtin_prefetch(&tt[v >> 8]);
	}
	return 0;
}

/* The lockstep loop. With a constant K and a local lane array (the
 * registers layout) the compiler unrolls the lanes and keeps each one's
 * row and write pointer in registers; with a run-time K (the state layout)
 * they live in an array in L1 and every step loads and stores them. */
static inline __attribute__((always_inline)) int walk_lanes(struct walk *c, struct lane *L, const unsigned K,
							       const enum bz2_prefetch pf)
{
	unsigned live = 0;

	for (unsigned j = 0; j < K; j++) {
		struct lane t = {.chunk = NO_CHUNK};
		int r = lane_start(c, &t);

		L[j] = t;

		if (r < 0)
			return -1;
		live += (unsigned)r;
	}
	while (live) {
		long room = pf == BZ2_PREFETCH_TWO ? 0 : lanes_room(L, K, BATCH_ROUNDS);

		if (room > 0) {
			if (lanes_rounds(c, L, K, pf, room, &live) < 0)
				return -1;
		} else if (lanes_round(c, L, K, pf, &live)) {
			return -1;
		}
	}
	return 0;
}

#define REG_WALK(K)                                                                       \
	static __attribute__((noinline)) int walk_reg##K(struct walk *c, enum bz2_prefetch pf) \
	{                                                                                 \
		struct lane L[K];                                                         \
		if (pf == BZ2_PREFETCH_NEXT)                                              \
			return walk_lanes(c, L, K, BZ2_PREFETCH_NEXT);                    \
		if (pf == BZ2_PREFETCH_TWO)                                               \
			return walk_lanes(c, L, K, BZ2_PREFETCH_TWO);                     \
		return walk_lanes(c, L, K, BZ2_PREFETCH_OFF);                             \
	}
REG_WALK(2)
REG_WALK(4)
REG_WALK(8)
REG_WALK(12)
REG_WALK(16)
REG_WALK(24)
REG_WALK(32)

static __attribute__((noinline)) int walk_state(struct walk *c, struct lane *L, unsigned k, enum bz2_prefetch pf)
{
	if (pf == BZ2_PREFETCH_NEXT)
		return walk_lanes(c, L, k, BZ2_PREFETCH_NEXT);
	if (pf == BZ2_PREFETCH_TWO)
		return walk_lanes(c, L, k, BZ2_PREFETCH_TWO);
	return walk_lanes(c, L, k, BZ2_PREFETCH_OFF);
}

static int walk_dispatch(struct walk *c, const struct bz2_walk_opts *o)
{
	struct lane L[BZ2_LANES_MAX];

	if (o->layout == BZ2_LAYOUT_REGISTERS) {
		switch (o->lanes) {
		case 2: return walk_reg2(c, o->prefetch);
		case 4: return walk_reg4(c, o->prefetch);
		case 8: return walk_reg8(c, o->prefetch);
		case 12: return walk_reg12(c, o->prefetch);
		case 16: return walk_reg16(c, o->prefetch);
		case 24: return walk_reg24(c, o->prefetch);
		case 32: return walk_reg32(c, o->prefetch);
		default: break;
		}
	}
	return walk_state(c, L, o->lanes, o->prefetch);
}

/* The chunks a walk of n rows with k lanes may take: each lane's last may
 * be part-filled, the rest are full. */
static size_t walk_chunks(uint32_t n, unsigned k)
{
	return n / CHUNK_BYTES + k + 2;
}

size_t bz2_walk_pool_bytes(uint32_t n)
{
	return walk_chunks(n, BZ2_LANES_MAX) * CHUNK_STRIDE;
}

void bz2_walk_scratch_lend(struct bz2_walk_scratch *sc, uint8_t *pool, size_t bytes)
{
	if (!sc->pool_lent)
		free(sc->pool);
	sc->pool = pool;
	sc->pool_chunks = bytes / CHUNK_STRIDE;
	sc->pool_lent = true;
}

static int scratch_fit(struct bz2_walk_scratch *sc, size_t chunks)
{
	if (chunks > sc->chunk_cap) {
		uint32_t *a, *b;

		if (!(a = realloc(sc->chunk_next, chunks * sizeof(*a))))
			return -ENOMEM;
		sc->chunk_next = a;
		if (!(b = realloc(sc->chunk_used, chunks * sizeof(*b))))
			return -ENOMEM;
		sc->chunk_used = b;
		sc->chunk_cap = chunks;
	}
	if (chunks > sc->pool_chunks) {
		/* A lent pool too small is left to its lender. */
		uint8_t *p = realloc(sc->pool_lent ? NULL : sc->pool, chunks * CHUNK_STRIDE);

		if (!p)
			return -ENOMEM;
		sc->pool = p;
		sc->pool_chunks = chunks;
		sc->pool_lent = false;
		/* The lanes touch every chunk of a block's walk: its 250 small
		 * pages faulted in by one call, not a trap each (3 ms of a
		 * worker's first block on a guest). */
		pagebuf_populate_within(p, chunks * CHUNK_STRIDE);
	}
	return 0;
}

void bz2_walk_scratch_free(struct bz2_walk_scratch *sc)
{
	if (!sc->pool_lent)
		free(sc->pool);
	free(sc->chunk_next);
	free(sc->chunk_used);
	memset(sc, 0, sizeof(*sc));
}

static uint32_t seg_of_row(const struct walk *c, uint32_t row)
{
	size_t lo = 0, hi = c->nsegs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->keys[mid].row < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nsegs && c->keys[lo].row == row ? c->keys[lo].seg : UINT32_MAX;
}

/* Append segment seg's bytes to out at *o, through its lane's chunks
 * from where it begins. 0, or -1 past n bytes or the chunks' end. */
static int seg_copy(const struct walk *c, uint32_t seg, uint8_t *out, uint32_t *o)
{
	uint32_t left = c->bytes[seg], k = c->seg_off[seg] / CHUNK_STRIDE, in = c->seg_off[seg] % CHUNK_STRIDE;

	if (left > c->n - *o)
		return -1;
	while (left) {
		uint32_t used, take;

		if (k == NO_CHUNK || (used = c->sc->chunk_used[k]) < in)
			return -1;
		take = used - in < left ? used - in : left;
		memcpy(out + *o, c->sc->pool + (size_t)k * CHUNK_STRIDE + in, take);
		*o += take;
		left -= take;
		k = c->sc->chunk_next[k];
		in = 0;
	}
	return 0;
}

/* Copy the segments out in text order; 0, or -1 when they do not chain
 * into one cycle of n bytes. */
static int assemble(struct walk *c, uint8_t *out)
{
	uint32_t seg = 0, o = 0;

	for (unsigned i = 0; i < c->nsegs; i++) {
		uint32_t next;

		if (seg_copy(c, seg, out, &o))
			return -1;
		next = seg_of_row(c, c->end_row[seg]);
		if (next == UINT32_MAX || (next == 0) != (i == c->nsegs - 1))
			return -1;
		seg = next;
	}
	return o == c->n ? 0 : -1;
}

/* The first pass: segment 0 at the text's first row, S-1 more at random
 * rows (a row drawn twice kept once), each marked in its table word. */
static int walk_setup(struct walk *c, uint32_t *tt, uint32_t n, uint32_t orig_ptr, const struct bz2_walk_opts *o,
		      struct bz2_walk_scratch *sc)
{
	unsigned k = o->lanes > BZ2_LANES_MAX ? BZ2_LANES_MAX : o->lanes, s = o->segments ? o->segments : 4 * o->lanes;
	struct rng r;
	int rc;

	if (s < k)
		s = k;
	if (s > BZ2_SEGMENTS_MAX)
		s = BZ2_SEGMENTS_MAX;
	if ((rc = scratch_fit(sc, walk_chunks(n, k))))
		return rc;
	c->tt = tt;
	c->n = n;
	c->sc = sc;
	c->next_chunk = 0;
	c->next_seg = 0;
	c->nsegs = 0;
	rng_seed(&r, o->seed ^ ((uint64_t)n << 32 | orig_ptr));
	for (unsigned i = 0; i < s; i++) {
		uint32_t row = i ? (uint32_t)rng_below(&r, n) : orig_ptr;

		if (row >= n || (tt[row] & BZ2_ROW_MARK))
			continue;
		tt[row] |= BZ2_ROW_MARK;
		c->start_row[c->nsegs] = row;
		c->keys[c->nsegs].row = row;
		c->keys[c->nsegs].seg = c->nsegs;
		c->nsegs++;
	}
	qsort(c->keys, c->nsegs, sizeof(c->keys[0]), key_cmp);
	return 0;
}

/* Assemble after the lanes (rc: theirs), unmark the start rows, and walk
 * with one lane where the segments did not chain (periodic text). */
static void walk_teardown(struct walk *c, int rc, uint32_t orig_ptr, uint8_t *out, struct bz2_walk_ticks *ticks)
{
	uint64_t t0 = ticks ? bz2_ticks() : 0;

	if (!rc)
		rc = assemble(c, out);
	for (unsigned i = 0; i < c->nsegs; i++)
		c->tt[c->start_row[i]] &= ~BZ2_ROW_MARK;
	if (ticks)
		ticks->assembly += bz2_ticks() - t0;
	if (rc) {
		/* Not one cycle through every start (or a runaway lane used up
		 * the pool): the block's rows form shorter cycles. */
		if (ticks)
			ticks->fallbacks++;
		t0 = ticks ? bz2_ticks() : 0;
		walk_one(c->tt, c->n, orig_ptr, out);
		if (ticks)
			ticks->traversal += bz2_ticks() - t0;
	}
}

/* The opts a walk of n rows runs with: o itself, or for by_rows the
 * lanes and segments that block size walks fastest with (K=16 below
 * 200,000 rows, where the table is nearer the L2 and 32 lanes' spills
 * cost more than their misses save; K=32 above; a segment every 1,536
 * rows: fewer leave a long tail, more pay a start's mark and first load
 * each), filled into buf. */
static const struct bz2_walk_opts *walk_shape(const struct bz2_walk_opts *o, uint32_t n, struct bz2_walk_opts *buf)
{
	unsigned s;

	if (!o->by_rows)
		return o;
	*buf = *o;
	buf->lanes = n < 200000 ? 16 : 32;
	s = n / 1536;
	buf->segments = s < 4 * buf->lanes ? 4 * buf->lanes : s > BZ2_SEGMENTS_MAX ? BZ2_SEGMENTS_MAX : s;
	return buf;
}

int bz2_ibwt_walk(uint32_t *tt, uint32_t n, uint32_t orig_ptr, uint8_t *out, const struct bz2_walk_opts *opts,
		  struct bz2_walk_scratch *sc, struct bz2_walk_ticks *ticks)
{
	struct bz2_walk_opts shaped;
	const struct bz2_walk_opts *o = walk_shape(opts, n, &shaped);
	struct walk *c;
	uint64_t t0, t1, t2;
	int rc;

	if (o->lanes <= 1 || n < 2 * CHUNK_BYTES) {
		t0 = ticks ? bz2_ticks() : 0;
		walk_one(tt, n, orig_ptr, out);
		if (ticks)
			ticks->traversal += bz2_ticks() - t0;
		return 0;
	}
	c = malloc(sizeof(*c));
	if (!c)
		return -ENOMEM;
	t0 = ticks ? bz2_ticks() : 0;
	if ((rc = walk_setup(c, tt, n, orig_ptr, o, sc)))
		goto out;
	t1 = ticks ? bz2_ticks() : 0;
	rc = walk_dispatch(c, o);
	t2 = ticks ? bz2_ticks() : 0;
	if (ticks) {
		ticks->starts += t1 - t0;
		ticks->traversal += t2 - t1;
	}
	walk_teardown(c, rc, orig_ptr, out, ticks);
	rc = 0;
out:
	free(c);
	return rc;
}

/* ---- the walk in pieces, interleaved with the next block's decode ----
 * The walk waits on one load per step; the decode of the next block is
 * branchy arithmetic on L1-resident tables. Run as alternating slices on
 * one core, each lane's next row is prefetched in one slice and loaded
 * in the next, a few hundred cycles of decode later: by then the line
 * has come from the L3 or memory, so the walk's slices seldom wait and
 * its misses hide under the decode's instructions. */
struct bz2_walk_job {
	struct walk c;
	struct lane L[BZ2_LANES_MAX];
	unsigned k, live;
	enum bz2_prefetch pf;
	uint64_t steps;              /* rows walked so far (lanes x rounds) */
	int rc;                      /* a lane's -1: the pool ran out */
	bool one, done;              /* one: a single lane (K=1, small block) */
	uint32_t orig_ptr, pos, i;   /* the single lane's row and output index */
	uint8_t *out;
	uint64_t t_setup;            /* ticks of the first pass */
};

struct bz2_walk_job *bz2_walk_job_new(void)
{
	return calloc(1, sizeof(struct bz2_walk_job));
}

void bz2_walk_job_free(struct bz2_walk_job *j)
{
	free(j);
}

/* Rounds of the K lanes until `target` rows are walked or every lane has
 * parked. Called a round at a time from the decode's loop, the lanes stay
 * in the job (L1): copying them to registers and back would cost more
 * than the round. */
static inline __attribute__((always_inline)) void pace_lanes(struct bz2_walk_job *j, const unsigned K,
							      const enum bz2_prefetch pf, uint64_t target)
{
	struct walk *c = &j->c;
	struct lane *L = j->L;
	unsigned live = j->live;
	uint64_t steps = j->steps;

	while (live && steps < target) {
		uint64_t want = (target - steps + K - 1) / K;
		long room = lanes_room(L, K, want < BATCH_ROUNDS ? (long)want : BATCH_ROUNDS), done;

		if (room > 0) {
			if ((done = lanes_rounds(c, L, K, pf, room, &live)) < 0) {
				j->rc = -1;
				live = 0;
				break;
			}
			steps += (uint64_t)done * K;
			continue;
		}
		if (lanes_round(c, L, K, pf, &live)) {
			j->rc = -1;
			live = 0;
			break;
		}
		steps += K;
	}
	j->live = live;
	j->steps = steps;
}

#define PACE(K)                                                                                  \
	static __attribute__((noinline)) void pace##K(struct bz2_walk_job *j, uint64_t target)    \
	{                                                                                        \
		if (j->pf == BZ2_PREFETCH_OFF)                                                   \
			pace_lanes(j, K, BZ2_PREFETCH_OFF, target);                              \
		else                                                                             \
			pace_lanes(j, K, BZ2_PREFETCH_NEXT, target);                             \
	}
PACE(8)
PACE(16)
PACE(32)

static __attribute__((noinline)) void pace_state(struct bz2_walk_job *j, uint64_t target)
{
	if (j->pf == BZ2_PREFETCH_OFF)
		pace_lanes(j, j->k, BZ2_PREFETCH_OFF, target);
	else
		pace_lanes(j, j->k, BZ2_PREFETCH_NEXT, target);
}

int bz2_walk_start(struct bz2_walk_job *j, uint32_t *tt, uint32_t n, uint32_t orig_ptr, uint8_t *out,
		   const struct bz2_walk_opts *opts, struct bz2_walk_scratch *sc)
{
	struct bz2_walk_opts shaped;
	const struct bz2_walk_opts *o = walk_shape(opts, n, &shaped);
	uint64_t t0 = bz2_ticks();
	int rc;

	j->steps = 0;
	j->rc = 0;
	j->done = false;
	j->orig_ptr = orig_ptr;
	j->out = out;
	j->one = o->lanes <= 1 || n < 2 * CHUNK_BYTES;
	/* Prefetch two names a lane two on in lockstep; a slice's lanes
	 * already run a round apart, so it pairs with next here. */
	j->pf = o->prefetch == BZ2_PREFETCH_OFF ? BZ2_PREFETCH_OFF : BZ2_PREFETCH_NEXT;
	if (j->one) {
		j->c.tt = tt;
		j->c.n = n;
		j->pos = orig_ptr;
		j->i = 0;
		j->t_setup = bz2_ticks() - t0;
		return 0;
	}
	j->k = o->lanes > BZ2_LANES_MAX ? BZ2_LANES_MAX : o->lanes;
	if ((rc = walk_setup(&j->c, tt, n, orig_ptr, o, sc)))
		return rc;
	j->live = 0;
	for (unsigned q = 0; q < j->k; q++) {
		int r;

		j->L[q].chunk = NO_CHUNK;
		r = lane_take(&j->c, &j->L[q]);

		if (r < 0) {
			j->rc = -1;
			j->live = 0;
			break;
		}
		j->live += (unsigned)r;
	}
	j->t_setup = bz2_ticks() - t0;
	return 0;
}

uint64_t bz2_walk_pace(struct bz2_walk_job *j, uint64_t rows)
{
	if (j->done)
		return UINT64_MAX;
	if (j->steps >= rows)
		return j->steps;
	if (j->one) {
		const uint32_t *tt = j->c.tt;
		uint32_t pos = j->pos, i = j->i, end = rows < j->c.n ? (uint32_t)rows : j->c.n;

		for (; i < end; i++) {
			uint32_t v = tt[pos];

			j->out[i] = (uint8_t)v;
			pos = v >> 8;
		}
		j->pos = pos;
		j->i = i;
		j->steps = i;
		j->done = i >= j->c.n;
		return j->done ? UINT64_MAX : j->steps;
	}
	switch (j->k) {
	case 8: pace8(j, rows); break;
	case 16: pace16(j, rows); break;
	case 32: pace32(j, rows); break;
	default: pace_state(j, rows); break;
	}
	j->done = !j->live;
	return j->done ? UINT64_MAX : j->steps;
}

void bz2_walk_end(struct bz2_walk_job *j, struct bz2_walk_ticks *ticks)
{
	uint64_t t0 = ticks ? bz2_ticks() : 0;

	bz2_walk_pace(j, UINT64_MAX);
	if (ticks) {
		ticks->starts += j->t_setup;
		ticks->traversal += bz2_ticks() - t0;
	}
	if (!j->one)
		walk_teardown(&j->c, j->rc, j->orig_ptr, j->out, ticks);
}
