/*
 * A block's symbols with both decode paths fast, in two passes a group:
 * the group's Huffman codes into a 50-entry array (group_codes), then
 * those symbols through the zero-run code and the MTF list (mtf_runs.h).
 * One loop that did both lost its time to branches the predictor cannot
 * learn on text: whether a lookup gave one code or two, whether a symbol
 * is a run digit or a byte, how far down the list its byte lay. Here the
 * first pass keeps one or two codes by arithmetic, the second blends run
 * and byte with selects, and each loop's own dependency chain is short:
 * the bit position in the first, the list in the second.
 *
 * The list's form, the widest the CPU has: with AVX-512 VBMI the whole
 * list is four 64-byte registers (mtf_vbmi.h), an index below 64 one byte
 * permute and a deeper one a permute of each register, no loop. With
 * SSSE3 its first 16 bytes are one vector register and a move to front is
 * one byte shuffle by a per-index control (a chain of one instruction a
 * symbol, not a shift-and-mask sequence); bytes past 16 (binary data's
 * deep indices) shift as 16-byte vectors in memory. Elsewhere the list is
 * two 64-bit words and memmove (mtf_words.h).
 *
 * Where the block has a runs buffer (bz2_block.runs, the decoder's), the
 * column is written as its runs instead, one entry a byte symbol: the
 * table is built a run at a time (ibwt.c) and each byte's count grows by
 * a run at a time, here, never twice in a row for one byte. Without one,
 * the byte counts the inverse BWT needs are one pass over the column at
 * the end: counted per symbol they were a load and store chained through
 * memory whenever the front byte repeats, which on text is most symbols.
 * Error offsets name the group's first bit for a bad run, the code's own
 * bit for a bad code.
 */
#include "bzip2/bz2.h"
#include "bzip2/mtf_words.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__)
#include <tmmintrin.h>
#include "bzip2/mtf_vbmi.h"
#define HAVE_SHUFFLE_LIST 1
#endif

/* group_codes's result: the count of symbols kept, this bit when the
 * group ended the block (its EOB is not kept). */
#define GROUP_EOB 0x100
#define GROUP_COUNT 0xff

struct mtf_runs {
	uint8_t *out;              /* the column, or NULL with runs */
	uint16_t *runs;            /* the runs form: blk->runs, else NULL */
	uint32_t *counts;
	uint32_t n, run, max_block;
	uint32_t nruns, one;       /* the runs form's: runs written; whether prev was a byte symbol's */
	uint8_t prev;
};

/* A run of len bytes of `byte` as the runs form's entries (len << 8 |
 * byte, up to BZ2_RUN_MAX bytes each; none for 0): the runs written. */
static inline uint32_t run_put(uint16_t *runs, uint32_t nruns, uint32_t byte, uint32_t len)
{
	for (; __builtin_expect(len > BZ2_RUN_MAX, 0); len -= BZ2_RUN_MAX)
		runs[nruns++] = (uint16_t)(BZ2_RUN_MAX << 8 | byte);
	runs[nruns] = (uint16_t)(len << 8 | byte);
	return nruns + (len != 0);
}

static int fail(struct bz2_error *e, uint64_t bit, const char *what)
{
	e->byte_offset = bit / 8;
	snprintf(e->what, sizeof(e->what), "%s", what);
	return -1;
}

/* A code longer than BZ2_FAST_BITS at the top of buf (20 bits there):
 * its symbol into syms[*k] and buf past it; GROUP_EOB | k at the block's
 * end, -1 at bits that are no code (buf left at them), else 0. */
static inline int long_code(const struct bz2_huffman *h, uint64_t *buf, unsigned *count, uint16_t *syms,
			    unsigned *k, unsigned eob)
{
	unsigned len;
	int s = bz2_huffman_long(h, (uint32_t)(*buf >> (64 - BZ2_MAX_CODE_BITS)), &len);

	if (s < 0)
		return -1;
	*buf <<= len;
	*count -= len;
	if ((unsigned)s == eob)
		return (int)(*k | GROUP_EOB);
	syms[(*k)++] = (uint16_t)s;
	return 0;
}

/* Up to 50 codes of one group into syms[0..51) (a pair's second code is
 * stored whether kept or not), with no bounds test: the caller checked
 * that the group's worst case lies inside the input. The symbols kept,
 * | GROUP_EOB; -1 at bits that are no code, b left at that code. */
static int group_codes(const struct bz2_huffman *h, struct bz2_bits *b, uint16_t *syms, unsigned eob)
{
	const uint8_t *p = b->p;
	const uint32_t *pair = h->pair;
	uint64_t buf = b->buf;
	unsigned count = b->count, k = 0;
	int rc = -1;

	/* Four lookups a refill while the group has room for eight symbols:
	 * a refill leaves 56 bits and a lookup takes at most 10, so the
	 * refill's load leaves the chain from one lookup to the next (the
	 * table load and the shift), which it otherwise doubled. A code
	 * longer than 10 bits (binary data's rarer bytes: half its groups
	 * hold one) still has its 20 bits after three lookups and ends the
	 * four; the EOB goes on in the loop below. */
	while (k + 8 <= BZ2_GROUP_SYMBOLS) {
		buf |= bz2_load_be64(p) >> count;
		p += (63 - count) >> 3;
		count |= 56;
		for (unsigned u = 0; u < 4; u++) {
			uint32_t x = pair[buf >> (64 - BZ2_FAST_BITS)], s1 = (x >> 10) & 511;

			if (__builtin_expect(!x, 0)) {
				if ((rc = long_code(h, &buf, &count, syms, &k, eob)) != 0)
					goto out;
				break;
			}
			if (__builtin_expect(s1 == eob, 0))
				goto one_at_a_time;
			syms[k] = (uint16_t)s1;
			syms[k + 1] = (uint16_t)(x >> 19);
			/* The entry's bits 0-4 are what it takes whether it
			 * holds one code or two (the group has room for both
			 * here): the next lookup waits on this shift alone,
			 * not on a select between two lengths. */
			buf <<= x & 31;
			count -= x & 31;
			k += 1 + ((x >> 9) & 1);
		}
	}
one_at_a_time:
	while (k < BZ2_GROUP_SYMBOLS) {
		uint32_t x, s1, two, len;

		/* Branchless: 56..63 bits after it, enough for a 20-bit code. */
		buf |= bz2_load_be64(p) >> count;
		p += (63 - count) >> 3;
		count |= 56;
		x = h->pair[buf >> (64 - BZ2_FAST_BITS)];
		if (__builtin_expect(!x, 0)) {
			if ((rc = long_code(h, &buf, &count, syms, &k, eob)) != 0)
				goto out;
			continue;
		}
		s1 = (x >> 10) & 511;
		len = (x >> 5) & 15;
		if (__builtin_expect(s1 == eob, 0)) {
			buf <<= len;
			count -= len;
			rc = (int)(k | GROUP_EOB);
			goto out;
		}
		/* The second code only where the group has room for it. */
		two = (x >> 9) & (k + 1 < BZ2_GROUP_SYMBOLS);
		len = two ? x & 31 : len;
		syms[k] = (uint16_t)s1;
		syms[k + 1] = (uint16_t)(x >> 19);
		buf <<= len;
		count -= len;
		k += 1 + two;
	}
	rc = (int)k;
out:
	b->p = p, b->buf = buf, b->count = count;
	return rc;
}

/* The same near the input's end, a bounds-tested read a code; *bad the
 * bit of a code that is not one. */
static int group_codes_near_end(const struct bz2_huffman *h, struct bz2_bits *b, uint16_t *syms, unsigned eob,
				uint64_t *bad)
{
	for (unsigned k = 0; k < BZ2_GROUP_SYMBOLS; k++) {
		uint64_t at = bz2_bits_pos(b);
		int s = bz2_huffman_decode(h, b);

		if (s < 0) {
			*bad = at;
			return -1;
		}
		if ((unsigned)s == eob)
			return (int)(k | GROUP_EOB);
		syms[k] = (uint16_t)s;
	}
	return BZ2_GROUP_SYMBOLS;
}

/* Eight tables, each a little over 1 KiB so that no two lie 4 KiB apart:
 * loads whose addresses agree in their low 12 bits with an older store's
 * wait for it as if they read it (4K aliasing), and eight plain 1 KiB
 * tables ran slower than four. */
#define COUNT_TABLES 8
#define COUNT_STRIDE 272

/* blk->counts from the column: sixteen bytes of one run (text's column is
 * mostly runs) counted at once, others byte k into table k % 8 from two
 * words, so that a byte repeated in a row waits on its own count's store
 * once every eight bytes. Against four tables and eight bytes a step:
 * 0.16-0.26 ms a 900 kB block, not 0.25-0.42 (this guest, text and
 * shared libraries). */
static inline void count_word(uint32_t c[COUNT_TABLES][COUNT_STRIDE], uint64_t w)
{
	/* Written out: at -O2 the compiler keeps a loop of eight here. */
	c[0][w & 255]++;
	c[1][(w >> 8) & 255]++;
	c[2][(w >> 16) & 255]++;
	c[3][(w >> 24) & 255]++;
	c[4][(w >> 32) & 255]++;
	c[5][(w >> 40) & 255]++;
	c[6][(w >> 48) & 255]++;
	c[7][w >> 56]++;
}

static void count_bytes(const uint8_t *col, uint32_t n, uint32_t *counts)
{
	uint32_t c[COUNT_TABLES][COUNT_STRIDE];
	uint32_t i = 0;

	memset(c, 0, sizeof(c));
	for (; i + 16 <= n; i += 16) {
		uint64_t w[2];

		memcpy(w, col + i, 16);
		if (w[0] == w[1] && w[0] == 0x0101010101010101ull * (uint8_t)w[0]) {
			c[0][(uint8_t)w[0]] += 16;
			continue;
		}
		count_word(c, w[0]);
		count_word(c, w[1]);
	}
	for (; i < n; i++)
		c[0][col[i]]++;
	for (unsigned b = 0; b < 256; b++) {
		uint32_t t = 0;

		for (unsigned k = 0; k < COUNT_TABLES; k++)
			t += c[k][b];
		counts[b] = t;
	}
}

/* What every group of the block shares. */
struct split {
	struct bz2_bits *b;
	struct bz2_block *blk;
	uint32_t nselectors;
	unsigned eob;
	struct bz2_walk_job *pace;
	struct bz2_error *e;
};

static int split_fail(const struct split *sp, uint64_t start, const char *why)
{
	return fail(sp->e, start, why);
}

/* The table of the group that starts at b, or NULL with the error filled
 * when the group may not start there; *start its first bit. */
static const struct bz2_huffman *group_table(const struct split *sp, uint32_t group, uint64_t *start)
{
	const struct bz2_bits *b = sp->b;
	const struct bz2_block *blk = sp->blk;

	if (group >= sp->nselectors) {
		fail(sp->e, bz2_bits_pos(b), "more symbols than the selectors cover");
		return NULL;
	}
	if (bz2_bits_truncated(b)) {
		fail(sp->e, (uint64_t)(b->end - b->base) * 8, "truncated: the input ends inside this block");
		return NULL;
	}
	if (blk->bad_tables >> blk->selectors[group] & 1) {
		fail(sp->e, bz2_bits_pos(b), "bad Huffman table: more codes than the lengths allow");
		return NULL;
	}
	*start = bz2_bits_pos(b);
	return &blk->tables[blk->selectors[group]];
}

static int bad_code(const struct split *sp, uint64_t bad)
{
	return fail(sp->e, bad, "bad Huffman code: bits that are no code of the table");
}

/* The next group's codes into syms: group_codes's result, or -1 with the
 * error filled; *start its first bit. */
static int group_next(const struct split *sp, uint32_t group, uint16_t *syms, uint64_t *start)
{
	struct bz2_bits *b = sp->b;
	const struct bz2_huffman *h = group_table(sp, group, start);
	uint64_t bad = 0;
	int rc;

	if (!h)
		return -1;
	if (b->end - b->p >= BZ2_GROUP_SAFE_BYTES) {
		rc = group_codes(h, b, syms, sp->eob);
		bad = bz2_bits_pos(b);
	} else {
		rc = group_codes_near_end(h, b, syms, sp->eob, &bad);
	}
	return rc < 0 ? bad_code(sp, bad) : rc;
}

/* The next group's Huffman decode as a lane: one lookup a step, taken
 * between the steps of the group before's zero-run and MTF loop. The two
 * are independent chains (the bit position here, the list there) that the
 * two-pass form runs one after the other. */
#define LANE_LIVE (-2)
struct huff_lane {
	const struct bz2_huffman *h;
	const uint8_t *p;
	uint64_t buf;
	unsigned count, k, eob;
	int rc;                 /* LANE_LIVE, then group_codes's result; 0: no lane */
	uint16_t *syms;
};

/* The lane on group `group` when the input holds its worst case; else a
 * lane that is not live (the group decodes after, by group_next), *rc its
 * error or LANE_LIVE. By value, as lane_end takes it: a lane whose address
 * escapes lives in memory, and its bit buffer's store and reload join the
 * chain from one lookup to the next. */
static struct huff_lane lane_begin(const struct split *sp, uint32_t group, uint16_t *syms, uint64_t *start,
				   int *rc)
{
	const struct bz2_bits *b = sp->b;
	const struct bz2_huffman *h = group_table(sp, group, start);

	*rc = h ? LANE_LIVE : -1;
	if (!h || b->end - b->p < BZ2_GROUP_SAFE_BYTES)
		return (struct huff_lane){.rc = 0};
	return (struct huff_lane){.h = h, .p = b->p, .buf = b->buf, .count = b->count, .eob = sp->eob,
				  .rc = LANE_LIVE, .syms = syms};
}

/* One lookup: one or two codes, or a long one; the lane's result once the
 * group is whole, ends the block or reads bits that are no code. */
static inline __attribute__((always_inline)) void lane_step(struct huff_lane *l)
{
	uint32_t x, s1, two, len;
	uint64_t buf = l->buf | bz2_load_be64(l->p) >> l->count;

	/* Branchless: 56..63 bits after it, enough for a 20-bit code. */
	l->p += (63 - l->count) >> 3;
	l->count |= 56;
	x = l->h->pair[buf >> (64 - BZ2_FAST_BITS)];
	if (__builtin_expect(!x, 0)) {
		int rc;

		l->buf = buf;
		rc = long_code(l->h, &l->buf, &l->count, l->syms, &l->k, l->eob);
		if (rc)
			l->rc = rc;
		else if (l->k == BZ2_GROUP_SYMBOLS)
			l->rc = BZ2_GROUP_SYMBOLS;
		return;
	}
	s1 = (x >> 10) & 511;
	len = (x >> 5) & 15;
	if (__builtin_expect(s1 == l->eob, 0)) {
		l->buf = buf << len;
		l->count -= len;
		l->rc = (int)(l->k | GROUP_EOB);
		return;
	}
	/* The second code only where the group has room for it. */
	two = (x >> 9) & (l->k + 1 < BZ2_GROUP_SYMBOLS);
	len = two ? x & 31 : len;
	l->syms[l->k] = (uint16_t)s1;
	l->syms[l->k + 1] = (uint16_t)(x >> 19);
	l->buf = buf << len;
	l->count -= len;
	l->k += 1 + two;
	if (l->k == BZ2_GROUP_SYMBOLS)
		l->rc = BZ2_GROUP_SYMBOLS;
}

/* The lane's group whole, b moved past it: group_codes's result, or -1
 * with the error filled. */
static int lane_end(const struct split *sp, struct huff_lane l)
{
	struct bz2_bits *b = sp->b;

	while (l.rc == LANE_LIVE)
		lane_step(&l);
	b->p = l.p, b->buf = l.buf, b->count = l.count;
	return l.rc < 0 ? bad_code(sp, bz2_bits_pos(b)) : l.rc;
}

/* The pending run at the block's end; the column's byte counts. */
/* A group whose zero run passed the block: the group again, symbol by
 * symbol from the run and byte count it started with, for the refusal
 * the one-loop decode gives (the run's, or the byte count's where that
 * came first: they share the group's first bit). */
static int runs_refused(const struct split *sp, uint64_t start, const uint16_t *syms, unsigned k, uint32_t n,
			uint32_t run, uint32_t weight, uint32_t max_block)
{
	for (unsigned i = 0; i < k; i++) {
		uint32_t s = syms[i], lit = s > 1, flush;

		run += (weight << (s & 1)) & (lit - 1);
		flush = run & -lit;
		if (run > max_block)
			break;
		if (n + flush + lit > max_block)
			return split_fail(sp, start, "more bytes than the block size allows");
		n += flush + lit;
		run &= lit - 1;
		weight = ((weight << 1) & (lit - 1)) | lit;
	}
	return split_fail(sp, start, "a zero run longer than the block");
}

static int split_end(const struct split *sp, struct mtf_runs *r, uint8_t front, uint64_t start)
{
	if (r->run > r->max_block - r->n)
		return fail(sp->e, start, "more bytes than the block size allows");
	if (r->runs) {
		/* The last byte symbol's run, or the first front byte's. */
		sp->blk->nruns = run_put(r->runs, r->nruns, r->prev, r->one + r->run);
		r->counts[r->prev] += r->one + r->run;
	} else {
		memset(r->out + r->n, front, r->run);
		count_bytes(r->out, r->n + r->run, sp->blk->counts);
	}
	r->n += r->run;
	sp->blk->nblock = r->n;
	return 0;
}

/* ---- the list as two words and memmove, every CPU ---- */
static inline void words_fill(uint8_t *p, uint8_t byte)
{
	uint64_t eight = 0x0101010101010101ull * byte;

	memcpy(p, &eight, 8);
}

struct words_list {
	uint64_t m0, m1;
	uint8_t mtf[256];
};

#define MTF_RUNS_NAME runs_words
#define MTF_RUNS_ATTR
#define MTF_LIST struct words_list
#define MTF_LOCALS uint64_t m0 = list->m0, m1 = list->m1
#define MTF_SAVE (list->m0 = m0, list->m1 = m1)
#define MTF_FRONT() ((uint8_t)m0)
#define MTF_MOVE(i) mtf_words_move(list->mtf, &m0, &m1, (i))
#define MTF_FILL_BYTES 8
#define MTF_FILL(p) words_fill((p), (uint8_t)m0)
#include "bzip2/mtf_runs.h"

static void words_list_init(struct words_list *l, const uint8_t *seq_to_byte, unsigned used)
{
	memset(l->mtf, 0, sizeof(l->mtf));
	memcpy(l->mtf, seq_to_byte, used);
	mtf_words_init(l->mtf, &l->m0, &l->m1);
}

#ifdef HAVE_SHUFFLE_LIST
/* ---- the list as 16-byte vectors and a byte shuffle (SSSE3) ---- */
struct shuffle_list {
	__m128i front;          /* bytes 0..15 (kept in a register across a group) */
	__m128i rest[16];       /* rest[c] holds bytes 16c..16c+15, c >= 1 (rest[0]: scratch) */
	/* to_front[i]: byte i first, then 0..i-1, then i+1..15; gap[i]: the
	 * same with byte 0 zeroed for the byte carried in from below. */
	__m128i to_front[16], gap[16];
};

static inline __attribute__((always_inline, target("ssse3"))) uint8_t shuffle_move(struct shuffle_list *l, __m128i *front,
								   unsigned i)
{
	unsigned c = i >> 4;
	uint8_t v;

	if (__builtin_expect(i < 16, 1)) {
		*front = _mm_shuffle_epi8(*front, l->to_front[i]);
		return (uint8_t)_mm_cvtsi128_si32(*front);
	}
	/* Each vector below c shifts up one byte, taking the top byte of the
	 * one below it; vector c closes the gap byte i left. Top down, so
	 * each reads its lower neighbour before that one is written. */
	v = ((const uint8_t *)l->rest)[i];
	l->rest[0] = *front;  /* so that every vector has one below it */
	l->rest[c] = _mm_or_si128(_mm_shuffle_epi8(l->rest[c], l->gap[i & 15]), _mm_srli_si128(l->rest[c - 1], 15));
	for (unsigned j = c - 1; j >= 1; j--)
		l->rest[j] = _mm_alignr_epi8(l->rest[j], l->rest[j - 1], 15);
	*front = _mm_or_si128(_mm_slli_si128(*front, 1), _mm_cvtsi32_si128(v));
	return v;
}

#define MTF_RUNS_NAME runs_shuffle
#define MTF_RUNS_ATTR __attribute__((target("ssse3")))
#define MTF_LIST struct shuffle_list
#define MTF_LOCALS __m128i front = list->front
#define MTF_SAVE (list->front = front)
#define MTF_FRONT() ((uint8_t)_mm_cvtsi128_si32(front))
#define MTF_MOVE(i) shuffle_move(list, &front, (i))
#define MTF_FILL_BYTES 16
#define MTF_FILL(p) _mm_storeu_si128((__m128i *)(p), _mm_shuffle_epi8(front, _mm_setzero_si128()))
#include "bzip2/mtf_runs.h"

static void shuffle_list_init(struct shuffle_list *l, const uint8_t *seq_to_byte, unsigned used)
{
	uint8_t bytes[256] = {0}, ctl[16];

	memcpy(bytes, seq_to_byte, used);
	memcpy(&l->front, bytes, 16);
	memcpy(l->rest, bytes, sizeof(l->rest));
	for (unsigned i = 0; i < 16; i++) {
		for (unsigned j = 0; j < 16; j++)
			ctl[j] = (uint8_t)(j == 0 ? i : j <= i ? j - 1 : j);
		memcpy(&l->to_front[i], ctl, 16);
		ctl[0] = 0x80;  /* a shuffle control with the top bit set writes 0 */
		memcpy(&l->gap[i], ctl, 16);
	}
}

/* ---- the list as four 64-byte registers and byte permutes (AVX-512 VBMI) ---- */
#define MTF_RUNS_NAME runs_vbmi
#define MTF_RUNS_ATTR __attribute__((target(MTF_VBMI_TARGET)))
#define MTF_LIST struct vbmi_list
#define MTF_LOCALS __m512i r0 = list->r[0], r1 = list->r[1], r2 = list->r[2], r3 = list->r[3]
#define MTF_SAVE (list->r[0] = r0, list->r[1] = r1, list->r[2] = r2, list->r[3] = r3)
#define MTF_FRONT() ((uint8_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(r0)))
#define MTF_MOVE(i) vbmi_move(list, &r0, &r1, &r2, &r3, (i))
#define MTF_FILL_BYTES 16
#define MTF_FILL(p) _mm_storeu_si128((__m128i *)(p), _mm_shuffle_epi8(_mm512_castsi512_si128(r0), _mm_setzero_si128()))
#include "bzip2/mtf_runs.h"
#endif

enum bz2_list_form bz2_split_list_max = BZ2_LIST_VBMI;

enum bz2_list_form bz2_split_list_form(void)
{
#ifdef HAVE_SHUFFLE_LIST
	if (bz2_split_list_max >= BZ2_LIST_VBMI && __builtin_cpu_supports("avx512vbmi") &&
	    __builtin_cpu_supports("avx512bw"))
		return BZ2_LIST_VBMI;
	if (bz2_split_list_max >= BZ2_LIST_SHUFFLE && __builtin_cpu_supports("ssse3"))
		return BZ2_LIST_SHUFFLE;
#endif
	return BZ2_LIST_WORDS;
}

int bz2_symbols_split(struct bz2_bits *b, struct bz2_block *blk, const uint8_t *seq_to_byte, unsigned used,
		      uint32_t nselectors, uint32_t max_block, bool lane, struct bz2_walk_job *pace,
		      struct bz2_error *e)
{
	const struct split sp = {.b = b, .blk = blk, .nselectors = nselectors, .eob = used + 1, .pace = pace, .e = e};
	struct mtf_runs r = {.out = blk->bwt, .runs = blk->runs, .counts = blk->counts, .max_block = max_block};

	if (blk->runs)
		memset(blk->counts, 0, sizeof(blk->counts));

#ifdef HAVE_SHUFFLE_LIST
	enum bz2_list_form form = bz2_split_list_form();

	if (form == BZ2_LIST_VBMI) {
		struct vbmi_list list;

		vbmi_list_init(&list, seq_to_byte, used);
		if (blk->runs)
			return lane ? runs_vbmi_lane_runs(&sp, &r, &list) : runs_vbmi_runs(&sp, &r, &list);
		return lane ? runs_vbmi_lane(&sp, &r, &list) : runs_vbmi(&sp, &r, &list);
	}
	if (form == BZ2_LIST_SHUFFLE) {
		struct shuffle_list list;

		shuffle_list_init(&list, seq_to_byte, used);
		if (blk->runs)
			return lane ? runs_shuffle_lane_runs(&sp, &r, &list) : runs_shuffle_runs(&sp, &r, &list);
		return lane ? runs_shuffle_lane(&sp, &r, &list) : runs_shuffle(&sp, &r, &list);
	}
#endif
	{
		struct words_list list;

		words_list_init(&list, seq_to_byte, used);
		if (blk->runs)
			return lane ? runs_words_lane_runs(&sp, &r, &list) : runs_words_runs(&sp, &r, &list);
		return lane ? runs_words_lane(&sp, &r, &list) : runs_words(&sp, &r, &list);
	}
}
