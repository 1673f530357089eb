/*
 * bunzip2.h's decode: one coordinating thread reads the input in chunks
 * into a window, walks the file's framing (stream headers, each block's
 * magic where the previous block ended, end markers and their CRCs) and
 * writes blocks in order; with N threads, N workers decode ahead. Where a
 * block ends is known only once it is decoded, so the workers start at
 * every place the 48-bit block magic occurs (bz2_scan_blocks), each on a
 * copy of the bytes up to the next such place, and the coordinator keeps
 * only the blocks that start where the one before ended: a magic that
 * occurs by chance inside compressed data (about 2^-48 a bit) costs one
 * wasted decode. A block cut short by such a false magic, or longer than
 * the bytes it was given, is decoded again here with more input. The
 * window holds input from the block being written to the blocks in flight,
 * so memory is bounded by the blocks in flight, whatever the file's size.
 * Given as many CPUs as workers, each worker is bound to one
 * (worker_cpus.h) until a block keeps the writing waiting too long.
 * Nothing here prints or times: errors fill a struct bunzip2_error.
 */
#include "bzip2/bunzip2.h"

#include "bzip2/bz2.h"
#include "bzip2/pagebuf.h"
#include "bzip2/worker_cpus.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK_MAGIC 0x314159265359ull
#define END_MAGIC 0x177245385090ull
/* A read. With workers, small beside the 2 MiB page the window starts on,
 * which then holds the blocks in flight and a read (binary input: 1.3 MB
 * of blocks with a 1 MiB read grew it to 4 MiB, 2 MiB of memory more at
 * two threads). One thread's window holds a block's FIRST_LOOK ahead of
 * it, up to a quarter of the window behind it (drop_before) and a read:
 * 512 KiB keeps that inside one 2 MiB page (a 1 MiB read and a 2 MiB
 * look took 4 MiB, 2 MB more of -n1's peak RSS); 256 KiB reads cost 2% of
 * task-clock there. */
#define DEFAULT_CHUNK ((size_t)512 << 10)
#define POOL_CHUNK ((size_t)256 << 10)
/* The input a block is first given: an encoder writes at most about
 * 920 kB for one (900 kB of incompressible bytes and its tables); a longer
 * one is decoded again with four times more (decode_here). */
#define FIRST_LOOK ((size_t)1 << 20)
/* The longest block accepted: 900,100 symbols of 20 bits are 2.25 MB, but
 * a table's delta-coded lengths may run on without end (libbz2 reads on);
 * refused past this so memory stays bounded. */
#define MAX_BLOCK_IN ((size_t)16 << 20)
/* A decoder's buffers (bz2_decoder_new: the T-vector's 3.6 MB, which
 * also holds a block's output, the column, the walk's output and scratch,
 * a block's input) and the pool's spare outputs (one huge page holds
 * SPARES of OUT_MAX bytes). */
#define DECODER_BYTES ((size_t)8 << 20)
#define SPARES 2
#define SPARE_BYTES ((size_t)2 << 20)
/* The most a block's output buffer holds: ordinary blocks expand by a few
 * percent past their 900 kB and fit whole; a block of long runs expands up
 * to 51-fold (46 MB), is held before its run-length stage and written in
 * pieces (bz2_decoder_bound_output), so every block in flight costs the
 * same whatever its ratio. */
#define OUT_MAX BUNZIP2_BUFFER_MAX_BYTES
/* How long the coordinator waits for one block while the workers are
 * bound before it lets them go: a 900 kB block decodes in 3-7 ms on the
 * machines measured, tens of ms unoptimised or emulated (where letting go
 * costs nothing); a worker whose CPU is held by higher-priority work gets
 * a few percent of it, and its block would take seconds. */
unsigned bunzip2_bound_wait_ms = 100;

/* The walk's fastest form on both text and binary input: lanes with their
 * state in registers, each prefetching its next row, as many lanes and
 * segments as the block's size walks fastest with (32 lanes and 586
 * segments for a 900 kB block). */
static const struct bz2_walk_opts walk_opts = {
	.lanes = 32, .layout = BZ2_LAYOUT_REGISTERS, .prefetch = BZ2_PREFETCH_NEXT, .seed = 0x62756e7a6970ull,
	.by_rows = true,
};

/* WRITING: the coordinator has taken a done block's output to write. */
enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_BUSY, SLOT_DONE, SLOT_WRITING };

/* What a decoded block tells its writer, wherever it was decoded. */
struct block_done {
	size_t bytes, packed;  /* packed: out holds the block before its run-length stage */
	uint32_t crc, nblock;
	uint64_t end_bit;      /* in the file */
};

/* The block's figures from the decoder's result; start: the file byte the
 * decoder's input began at (its end bit counts from there). */
static void block_done_take(struct block_done *d, const struct bz2_block_result *r, uint64_t start)
{
	d->bytes = r->bytes;
	d->packed = r->packed;
	d->crc = r->crc;
	d->nblock = r->nblock;
	d->end_bit = start * 8 + r->end_bit;
}

struct worker_arg;

/* One block decoded ahead: its input, the file's bytes [start, start +
 * in_len), copied out of the window by the worker that takes it; its
 * output over that worker's T-vector (owner), or moved to one of the
 * pool's spare outputs (owner NULL) when the worker needed its T-vector
 * back before the block's turn to be written came (worker_before_table),
 * or when the block is packed and its writing starts (decode_pooled). */
struct slot {
	enum slot_state state;
	uint64_t bit;          /* its magic's bit in the file */
	uint64_t start;        /* the file byte its input starts at */
	size_t in_len;
	bool to_end;           /* its input reaches the end of the file */
	const uint8_t *out;
	size_t out_cap;
	struct worker_arg *owner;
	int rc;
	struct bz2_error e;
	struct block_done done;
};

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t work, done, written;
	/* Blocks' outputs waiting for their turn while their workers go on:
	 * one huge page, faulted in when first used; spare_slot[i] holds
	 * the OUT_MAX bytes at spare + i * OUT_MAX. */
	uint8_t *spare;
	bool spare_faulted;
	struct slot *spare_slot[SPARES];
	struct slot *slots;
	unsigned nslots;
	unsigned head, next, tail;  /* retired, taken by a worker, dispatched: counts */
	unsigned found;             /* block magics the scan has found, up to the workers' count */
	bool quit;
	/* No block will be queued again (the input is read and every block
	 * found is handed out): a worker with none left exits once its last
	 * block is written, and none waits to be woken at the end. */
	bool drain;
	pthread_t *th;
	unsigned nth;
	/* Each worker's CPU (opts.bind_cpus), NULL where none was planned;
	 * worker_cpus_bound says whether they are still held to them. */
	struct worker_cpus *cpus;
	/* The workers' arguments set up, each given what the keep lent it:
	 * nth, or one more where a thread's start failed. */
	unsigned nargs;
};

struct ctx;

struct worker_arg {
	struct pool *p;
	const struct ctx *c;
	unsigned index;            /* 0 .. threads - 1 */
	struct bz2_decoder *d;     /* lent by a keep or made by the worker; NULL when it could not */
	bool warm;                 /* worker_warm has run */
	/* A block's input past its decoder's spare bytes (a block of barely
	 * compressible data) is copied here: FIRST_LOOK bytes, small pages,
	 * faulted in as far as such blocks have reached. */
	uint8_t *big_in;
	size_t big_faulted;
	struct slot *held;         /* the slot whose output is in d's T-vector, until written */
	bool exited;               /* past its last use of the pool's lock: its thread id may be reused */
	struct bunzip2_thread_ns ns;
};

/* The workers' decoders a keep holds at most (16 x 6 MiB): more workers
 * make their own each decode. */
#define KEEP_WORKERS 16

struct bunzip2_keep {
	struct bz2_decoder *dec;   /* the caller's thread's */
	uint8_t *buf;              /* a window, its bytes of no use */
	size_t cap;
	struct bz2_decoder *workers[KEEP_WORKERS];
	/* The pool's spare outputs (SPARE_BYTES), and whether faulted in: a
	 * pool of its own each file mapped and faulted a huge page again
	 * (16 files of three blocks at -n2: 3.7% of their time). */
	uint8_t *spare;
	bool spare_faulted;
};

struct ctx {
	bunzip2_read_fn rd;
	void *rctx;
	bunzip2_write_fn wr;
	void *wctx;
	const struct bunzip2_opts *o;
	struct bunzip2_summary sum;
	struct bunzip2_error *e;
	/* The window: file bytes [base, base + len) in buf. */
	uint8_t *buf;
	size_t cap, len, chunk;
	uint64_t base;
	uint64_t keep;         /* the first byte still needed (drop_before) */
	bool eof;
	/* Block magics found and not yet dispatched, ascending. */
	bool scanning;
	uint64_t scan_from;    /* the first byte whose 7-byte window is unscanned */
	uint64_t *cand;
	size_t ncand, cand_head, cand_cap;
	/* The framing: where the next magic must be, and the stream's state. */
	uint64_t bit;
	uint32_t max_block, combined;
	unsigned stream, block;
	struct bz2_decoder *dec;   /* the coordinator's own, for retries and one thread */
	/* What opts.keep lent this decode: its decoder and window move to dec
	 * and buf for the decode and back at its end; its workers' decoders
	 * are handed to the workers that start and taken back when they end. */
	struct bunzip2_keep lent;
	struct pool *pool;
	struct worker_arg *args;
	struct bunzip2_thread_ns ns;   /* the coordinator's */
};

static int fail(struct ctx *c, int status, unsigned block, uint64_t byte, const char *what)
{
	c->e->stream = c->stream;
	c->e->block = block;
	c->e->byte_offset = byte;
	snprintf(c->e->what, sizeof(c->e->what), "%s", what);
	return status;
}

static int fail_errno(struct ctx *c, int status, int err, const char *what)
{
	c->e->sys_errno = err;
	return fail(c, status, c->block, c->base + c->len, what);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the window ---- */

static uint64_t head_byte(const struct ctx *c)
{
	return c->base + c->len;
}

/* The workers may warm up (fault in their buffers, make their decoders)
 * one for each block the scan has found, before any is handed out: the
 * first block's warm-up then runs while its bytes are still being read
 * and its end sought, not after. No more workers warm than the file has
 * blocks. */
static void blocks_found(struct pool *p, unsigned n)
{
	if (!p || p->found >= p->nth)
		return;
	pthread_mutex_lock(&p->mu);
	p->found = n < p->nth - p->found ? p->found + n : p->nth;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
}

/* The block magics whose 7-byte windows the last read completed. */
static int scan_new(struct ctx *c)
{
	uint64_t end = head_byte(c);
	size_t n = 0;
	uint64_t *bits;

	/* Bytes dropped before they were scanned lie before the block being
	 * written: no block starts there. */
	if (c->scan_from < c->base)
		c->scan_from = c->base;
	if (!c->scanning || end < c->scan_from + 7)
		return 0;
	bits = bz2_scan_blocks(c->buf + (c->scan_from - c->base), (size_t)(end - c->scan_from), &n);
	if (!bits)
		return -ENOMEM;
	if (c->ncand + n > c->cand_cap) {
		size_t cap = (c->ncand + n) * 2 + 16;
		uint64_t *m = realloc(c->cand, cap * sizeof(*m));

		if (!m) {
			free(bits);
			return -ENOMEM;
		}
		c->cand = m;
		c->cand_cap = cap;
	}
	for (size_t i = 0; i < n; i++)
		c->cand[c->ncand++] = c->scan_from * 8 + bits[i];
	free(bits);
	if (n)
		blocks_found(c->pool, (unsigned)(n < UINT_MAX ? n : UINT_MAX));
	/* A window starting at end - 6 or later needs bytes not read yet. */
	c->scan_from = end - 6;
	return 0;
}

/* The window's buffer and base change under the pool's lock: a worker
 * copies a block's input out of the window under it (worker_input). */
static void window_lock(struct ctx *c, bool lock)
{
	if (c->pool)
		(lock ? pthread_mutex_lock : pthread_mutex_unlock)(&c->pool->mu);
}

/* The window's first d bytes forgotten, the rest moved down. */
static void window_shift(struct ctx *c, size_t d)
{
	window_lock(c, true);
	memmove(c->buf, c->buf + d, c->len - d);
	c->base += d;
	c->len -= d;
	pagebuf_fence(c->buf, c->len, c->cap);
	window_lock(c, false);
}

/* With workers, the bytes before c->keep moved out before the window
 * grows: it is on 2 MiB pages, and growing past a page that a move would
 * have freed costs a page of memory and its zeroing (the mixed file's
 * blocks in flight grew it to 4 MiB: 2 MiB more at two threads). One
 * thread's window, a block's FIRST_LOOK ahead, is left to drop_before. */
static void compact(struct ctx *c)
{
	size_t d = c->keep > c->base ? (size_t)(c->keep - c->base) : 0;

	if (d && c->pool)
		window_shift(c, d < c->len ? d : c->len);
}

/* One read of up to a chunk: 0 (eof set at the end), or a status. */
static int read_chunk(struct ctx *c)
{
	long got;

	if (c->len + c->chunk > c->cap)
		compact(c);
	if (c->len + c->chunk > c->cap) {
		size_t cap = pagebuf_bytes(c->cap * 2 > c->len + c->chunk ? c->cap * 2 : c->len + c->chunk);
		uint8_t *m = pagebuf_reserve(cap);

		if (!m)
			return fail_errno(c, BUNZIP2_NOMEM, ENOMEM, "out of memory for the input window");
		window_lock(c, true);
		if (c->len)
			memcpy(m, c->buf, c->len);
		pagebuf_unmap(c->buf, c->cap);
		c->buf = m;
		c->cap = cap;
		window_lock(c, false);
	}
	pagebuf_fence(c->buf, c->len + c->chunk, c->cap);
	got = c->rd(c->rctx, c->buf + c->len, c->chunk);
	if (got > 0)
		c->len += (size_t)got;
	pagebuf_fence(c->buf, c->len, c->cap);
	if (got < 0)
		return fail_errno(c, BUNZIP2_READ, (int)-got, "read error");
	if (got == 0) {
		c->eof = true;
		return 0;
	}
	c->sum.in_bytes += (uint64_t)got;
	if (scan_new(c))
		return fail_errno(c, BUNZIP2_NOMEM, ENOMEM, "out of memory for the block list");
	return 0;
}

/* Read until the window reaches file byte upto or the input ends. */
static int fill(struct ctx *c, uint64_t upto)
{
	int rc;

	while (!c->eof && head_byte(c) < upto)
		if ((rc = read_chunk(c)))
			return rc;
	return 0;
}

/* Forget the bytes before keep; the window moves down once a quarter of
 * it is behind, so each byte is moved a bounded number of times. */
static void drop_before(struct ctx *c, uint64_t keep)
{
	size_t d;

	if (keep > c->keep)
		c->keep = keep;
	if (keep <= c->base)
		return;
	d = keep - c->base < c->len ? (size_t)(keep - c->base) : c->len;
	if (d < c->cap / 4 && d < c->len)
		return;
	window_shift(c, d);
}

/* n <= 48 bits at file bit `bit`, which the window holds whole. */
static uint64_t peek(const struct ctx *c, uint64_t bit, unsigned n)
{
	const uint8_t *p = c->buf + (bit / 8 - c->base);
	uint64_t w = 0;

	for (unsigned i = 0; i < 8; i++)
		w = w << 8 | (bit / 8 + i < head_byte(c) ? p[i] : 0);
	return (w << (bit % 8)) >> (64 - n);
}

/* Bits of the window from file bit `bit` on. */
static uint64_t bits_left(const struct ctx *c, uint64_t bit)
{
	return head_byte(c) * 8 > bit ? head_byte(c) * 8 - bit : 0;
}

/* ---- one block decoded here ---- */

static bool truncation(const struct bz2_error *be)
{
	return !strncmp(be->what, "truncated", 9);
}

struct got {
	const uint8_t *out;
	size_t out_cap;
	struct block_done done;
	struct slot *slot;     /* to retire once written, or NULL */
};

static int decoder_error(struct ctx *c, int rc, const struct bz2_error *be, uint64_t start)
{
	if (rc == -ENOMEM)
		return fail(c, BUNZIP2_NOMEM, c->block, start, "out of memory for a block");
	if (rc != -1)
		return fail(c, BUNZIP2_NOMEM, c->block, start, "a block could not be decoded (no memory or thread)");
	return fail(c, BUNZIP2_CORRUPT, c->block, start + be->byte_offset, be->what);
}

_Static_assert(OUT_MAX <= (size_t)BZ2_MAX_BLOCK_BYTES * 4, "a block's output fits over its T-vector");

/* A decoder on huge pages faulted in now, bounded, that expands each block
 * over its own T-vector, which holds nothing once the block's walk has
 * ended: no output buffer, no first touches more. The block's bytes must
 * be written (or moved) before the next block's table is built. NULL when
 * memory ran out. */
static struct bz2_decoder *decoder_new(void)
{
	struct bz2_decoder *d = bz2_decoder_new_resident();
	uint8_t *table;
	size_t cap = OUT_MAX;

	if (!d)
		return NULL;
	bz2_decoder_bound_output(d, OUT_MAX);
	table = bz2_decoder_table_bytes(d);
	bz2_decoder_swap_output(d, &table, &cap);
	return d;
}

/* Frees d, its lent output buffer taken back first (d frees only what it
 * allocated itself). */
static void decoder_free(struct bz2_decoder *d)
{
	uint8_t *lent = NULL;
	size_t cap = 0;

	if (!d)
		return;
	bz2_decoder_swap_output(d, &lent, &cap);
	bz2_decoder_free(d);
}

/* The block at c->bit from the window, first with FIRST_LOOK bytes of
 * input and again with four times more while a truncation may be the
 * slice's and not the file's. */
static int decode_here(struct ctx *c, struct got *g)
{
	struct bz2_block_result r;
	struct bz2_error be;
	uint64_t start = c->bit / 8;

	if (!c->dec) {
		uint64_t t0 = clock_ns(CLOCK_MONOTONIC);

		c->dec = decoder_new();
		c->ns.warm_ns = clock_ns(CLOCK_MONOTONIC) - t0;
		if (!c->dec)
			return fail(c, BUNZIP2_NOMEM, c->block, start, "out of memory for a decoder");
	}
	for (size_t look = FIRST_LOOK;; look *= 4) {
		size_t len, avail;
		int rc;

		if (look > MAX_BLOCK_IN)
			look = MAX_BLOCK_IN;
		if ((rc = fill(c, start + look)))
			return rc;
		avail = (size_t)(head_byte(c) - start);
		len = avail < look ? avail : look;
		rc = bz2_decode_block_at(c->dec, c->buf + (start - c->base), len, c->bit % 8, c->block, &walk_opts, 0,
					 &r, &be);
		if (rc == 0) {
			c->ns.blocks++;
			g->out = r.out;
			g->out_cap = r.out_cap;
			block_done_take(&g->done, &r, start);
			g->slot = NULL;
			return 0;
		}
		if (rc == -1 && truncation(&be) && (len < avail || !c->eof)) {
			if (look < MAX_BLOCK_IN)
				continue;
			return fail(c, BUNZIP2_CORRUPT, c->block, start,
				    "a block longer than 16 MiB of input (no encoder writes one; refused to bound memory)");
		}
		return decoder_error(c, rc, &be, start);
	}
}

/* ---- the workers ---- */

/* Where the worker copies slot s's input: its decoder's spare bytes, or,
 * past them, its own buffer, faulted in first (the pool's lock released
 * meanwhile: that takes about a millisecond a MiB on a guest). NULL when
 * there is no decoder or no memory. */
static uint8_t *worker_in(struct worker_arg *w, const struct slot *s)
{
	size_t spare = 0;
	uint8_t *in = w->d ? bz2_decoder_spare_bytes(w->d, &spare) : NULL;

	if (!in || s->in_len <= spare) {
		if (in)
			pagebuf_fence(in, s->in_len, spare);
		return in;
	}
	if (!w->big_in && !(w->big_in = pagebuf_reserve_small(FIRST_LOOK)))
		return NULL;
	if (s->in_len > w->big_faulted) {
		pthread_mutex_unlock(&w->p->mu);
		pagebuf_populate_within(w->big_in + w->big_faulted, s->in_len - w->big_faulted);
		w->big_faulted = s->in_len & ~(size_t)4095;
		pthread_mutex_lock(&w->p->mu);
	}
	pagebuf_fence(w->big_in, s->in_len, FIRST_LOOK);
	return w->big_in;
}

/* Slot s's input copied out of the window (the pool's lock held, which the
 * window's moves take), or NULL: no memory, or the bytes are gone from the
 * window, which happens only to a block the coordinator drops unread (a
 * false magic before the block being written). */
static const uint8_t *worker_input(struct worker_arg *w, const struct slot *s)
{
	const struct ctx *c = w->c;
	uint8_t *in = worker_in(w, s);

	if (!in || s->start < c->base)
		return NULL;
	memcpy(in, c->buf + (s->start - c->base), s->in_len);
	return in;
}

/* Slot s freed (the pool's lock held): written, dropped or failed. Its
 * output's worker may build its next table; the spare is free again. */
static void slot_release(struct pool *p, struct slot *s)
{
	s->state = SLOT_FREE;
	if (s->owner) {
		s->owner->held = NULL;
		s->owner = NULL;
	}
	for (unsigned i = 0; i < SPARES; i++)
		if (p->spare_slot[i] == s)
			p->spare_slot[i] = NULL;
	pthread_cond_broadcast(&p->written);
}

_Static_assert(SPARES * OUT_MAX <= SPARE_BYTES, "the spare outputs fit their huge page");

/* A free spare output's index, or -1 (the pool's lock held). */
static int spare_free(const struct pool *p)
{
	for (int i = 0; i < SPARES; i++)
		if (!p->spare_slot[i])
			return i;
	return -1;
}

/* Slot s's output moved from its worker's T-vector to spare output i (the
 * pool's lock held, s done or taken for writing and not yet written, the
 * spare faulted in). */
static void slot_to_spare(struct pool *p, struct slot *s, int i)
{
	uint8_t *to = p->spare + (size_t)i * OUT_MAX;

	memcpy(to, s->out, s->done.packed ? s->done.packed : s->done.bytes);
	s->out = to;
	s->out_cap = OUT_MAX;
	s->owner->held = NULL;
	s->owner = NULL;
	p->spare_slot[i] = s;
}

/* The spare faulted in, outside the pool's lock (a huge page's zeroing),
 * which is held on entry and return. */
static void spare_fault(struct pool *p)
{
	if (p->spare_faulted)
		return;
	pthread_mutex_unlock(&p->mu);
	pagebuf_populate(p->spare, SPARE_BYTES);
	pthread_mutex_lock(&p->mu);
	p->spare_faulted = true;
}

/* The decoder's hook before it builds a block's table (bz2_decoder_before_table):
 * the worker's previous block must be out of the T-vector. Usually it has
 * been written while this block's body was decoded; else, while the block
 * before it is still being decoded elsewhere (a slower CPU), it moves to
 * the spare, and only when that is taken does the worker wait. */
static void worker_before_table(void *arg)
{
	struct worker_arg *w = arg;
	struct pool *p = w->p;
	uint64_t t0 = 0;

	pthread_mutex_lock(&p->mu);
	while (w->held && !p->quit) {
		struct slot *s = w->held;

		if (s->state == SLOT_DONE && spare_free(p) >= 0) {
			if (!p->spare_faulted) {
				spare_fault(p);
				continue;
			}
			slot_to_spare(p, s, spare_free(p));
			break;
		}
		if (!t0)
			t0 = clock_ns(CLOCK_MONOTONIC);
		pthread_cond_wait(&p->written, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	if (t0)
		w->ns.wait_ns += clock_ns(CLOCK_MONOTONIC) - t0;
}

static void slot_decode(struct worker_arg *w, struct slot *s, const uint8_t *in)
{
	struct bz2_block_result r;

	if (!w->d || !in) {
		s->rc = -ENOMEM;
		return;
	}
	s->rc = bz2_decode_block_at(w->d, in, s->in_len, s->bit - s->start * 8, 0, &walk_opts, 0, &r, &s->e);
	if (s->rc == 0) {
		block_done_take(&s->done, &r, s->start);
		s->out = r.out;
		s->out_cap = r.out_cap;
	}
}

/* The worker's decoder, lent by a keep or made on its own thread: the
 * zeroing of its 2 MiB pages runs on every worker at once, while the
 * coordinator reads on, not serially before the first block is handed
 * out. */
static void worker_warm(struct worker_arg *w)
{
	if (!w->d) {
		uint64_t t0 = clock_ns(CLOCK_MONOTONIC);

		w->d = decoder_new();
		w->ns.warm_ns = clock_ns(CLOCK_MONOTONIC) - t0;
	}
	if (w->d)
		bz2_decoder_before_table(w->d, worker_before_table, w);
}

/* Whether the worker has something to do (the pool's lock held): warm
 * up, or take a queued block. */
static bool worker_due(const struct worker_arg *w, const struct pool *p)
{
	return w->warm ? p->next != p->tail : p->found > w->index;
}

/* Whether the worker is through (the pool's lock held). */
static bool worker_through(const struct pool *p)
{
	return p->quit || (p->drain && p->next == p->tail);
}

static void *worker_main(void *arg)
{
	struct worker_arg *w = arg;
	struct pool *p = w->p;

	for (;;) {
		const uint8_t *in;
		struct slot *s;

		pthread_mutex_lock(&p->mu);
		/* Worker i warms up once i + 1 blocks have been found, and
		 * takes blocks after: of many workers on a small file only as
		 * many as it has blocks fault in their 13 MiB. A block is
		 * found before it is handed out, so one may always take it. */
		if (!worker_through(p) && !worker_due(w, p)) {
			uint64_t t0 = clock_ns(CLOCK_MONOTONIC);

			while (!worker_through(p) && !worker_due(w, p))
				pthread_cond_wait(&p->work, &p->mu);
			w->ns.wait_ns += clock_ns(CLOCK_MONOTONIC) - t0;
		}
		if (worker_through(p)) {
			/* Its last block's output is in its decoder until written. */
			while (w->held && !p->quit)
				pthread_cond_wait(&p->written, &p->mu);
			w->exited = true;
			pthread_mutex_unlock(&p->mu);
			pagebuf_unmap(w->big_in, FIRST_LOOK);
			w->big_in = NULL;
			w->ns.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			return NULL;
		}
		if (!w->warm) {
			pthread_mutex_unlock(&p->mu);
			worker_warm(w);
			w->warm = true;
			continue;
		}
		s = &p->slots[p->next++ % p->nslots];
		s->state = SLOT_BUSY;
		in = worker_input(w, s);
		pthread_mutex_unlock(&p->mu);
		slot_decode(w, s, in);
		w->ns.blocks++;
		pthread_mutex_lock(&p->mu);
		s->state = SLOT_DONE;
		if (s->rc == 0) {
			s->owner = w;
			w->held = s;
		}
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->mu);
	}
}

/* The coordinator's wait for a block (wait_head) times out by the
 * monotonic clock, which a change of the wall clock does not move. */
static void done_cond_init(pthread_cond_t *cv)
{
	pthread_condattr_t a;

	if (pthread_condattr_init(&a)) {
		pthread_cond_init(cv, NULL);
		return;
	}
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(cv, &a);
	pthread_condattr_destroy(&a);
}

/* Workers and twice as many slots (a block handed out waits for a worker;
 * a finished one waits for its turn): 0, or -ENOMEM with none started. */
static int pool_start(struct ctx *c, unsigned threads)
{
	struct pool *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->nslots = 2 * threads;
	p->slots = calloc(p->nslots, sizeof(*p->slots));
	p->th = calloc(threads, sizeof(*p->th));
	c->args = calloc(threads, sizeof(*c->args));
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	done_cond_init(&p->done);
	pthread_cond_init(&p->written, NULL);
	c->pool = p;
	p->spare = c->lent.spare ? c->lent.spare : pagebuf_reserve(SPARE_BYTES);
	p->spare_faulted = c->lent.spare && c->lent.spare_faulted;
	c->lent.spare = NULL;
	if (!p->slots || !p->th || !c->args || !p->spare)
		return -ENOMEM;
	p->found = c->ncand < threads ? (unsigned)c->ncand : threads;
	p->cpus = worker_cpus_plan(c->o->bind_cpus, c->o->nbind_cpus, threads);
	c->sum.workers_bound = p->cpus != NULL;
	/* A worker that cannot make its decoder fails the blocks it takes
	 * (out of memory), as one made here would have failed the decode. */
	for (unsigned i = 0; i < threads; i++) {
		c->args[i].p = p;
		c->args[i].c = c;
		c->args[i].index = i;
		if (i < KEEP_WORKERS) {
			c->args[i].d = c->lent.workers[i];
			c->lent.workers[i] = NULL;
		}
		p->nargs = i + 1;
		if (worker_cpus_start(p->cpus, i, &p->th[i], worker_main, &c->args[i]))
			break;
		p->nth++;
	}
	return p->nth ? 0 : -ENOMEM;
}

/* Tells the workers no block will be queued again. */
static void pool_drain(struct pool *p)
{
	if (p->drain)
		return;
	pthread_mutex_lock(&p->mu);
	p->drain = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
}

/* The workers free to run on any of the CPUs again (the pool's lock
 * held, so none of them exits meanwhile): a worker bound to a CPU that
 * other work holds runs only as that work lets it. */
static void workers_let_go(struct ctx *c)
{
	struct pool *p = c->pool;

	if (!worker_cpus_bound(p->cpus))
		return;
	for (unsigned i = 0; i < p->nth; i++)
		if (!c->args[i].exited)
			worker_cpus_unbind(p->cpus, p->th[i]);
	worker_cpus_let_go(p->cpus);
}

static void pool_stop(struct ctx *c)
{
	struct pool *p = c->pool;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = true;
	pthread_cond_broadcast(&p->work);
	pthread_cond_broadcast(&p->written);
	/* Each still has to run its way out. */
	workers_let_go(c);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->nth; i++) {
		pthread_join(p->th[i], NULL);
		if (i + 1 < BUNZIP2_TIMED_THREADS)
			c->sum.thread_ns[i + 1] = c->args[i].ns;
	}
	/* The workers' decoders back to what the keep lent (freed with it
	 * unless the decode ends well), past its room freed now. */
	for (unsigned i = 0; c->args && i < p->nargs; i++)
		if (i < KEEP_WORKERS)
			c->lent.workers[i] = c->args[i].d;
		else
			decoder_free(c->args[i].d);
	worker_cpus_free(p->cpus);
	pthread_cond_destroy(&p->written);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->mu);
	c->lent.spare = p->spare;
	c->lent.spare_faulted = p->spare_faulted;
	free(p->slots);
	free(p->th);
	free(p);
	free(c->args);
	c->pool = NULL;
}

/* Where the next candidate's input ends, or 0 while the window cannot
 * say: at the next candidate (its block ends there when that one is
 * real), FIRST_LOOK bytes on, or the input's end. */
static uint64_t slice_end(const struct ctx *c)
{
	uint64_t from = c->cand[c->cand_head] / 8, end = from + FIRST_LOOK;

	if (c->cand_head + 1 < c->ncand) {
		uint64_t next = (c->cand[c->cand_head + 1] + 7) / 8;

		return next < end ? next : end;
	}
	if (head_byte(c) >= end)
		return end;
	return c->eof ? head_byte(c) : 0;
}

static int dispatch(struct ctx *c, uint64_t end)
{
	struct pool *p = c->pool;
	struct slot *s = &p->slots[p->tail % p->nslots];
	uint64_t bit = c->cand[c->cand_head++];
	size_t n = (size_t)(end - bit / 8);

	/* slice_end gives no slice past FIRST_LOOK, a worker's buffer. */
	if (n > FIRST_LOOK)
		return fail(c, BUNZIP2_NOMEM, c->block, bit / 8, "a block's input past its slot (an internal error)");
	pthread_mutex_lock(&p->mu);
	s->in_len = n;
	s->bit = bit;
	s->start = bit / 8;
	s->to_end = c->eof && end == head_byte(c);
	s->state = SLOT_QUEUED;
	p->tail++;
	/* While some workers may not take blocks yet (worker_due), one
	 * woken at random could be one of them: wake all. */
	if (p->found < p->nth)
		pthread_cond_broadcast(&p->work);
	else
		pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
	return 0;
}

/* Fill the free slots with the candidates whose input is known, reading
 * on as needed while the window stays within the slots' reach. */
static int pump(struct ctx *c)
{
	struct pool *p = c->pool;
	uint64_t reach = (uint64_t)(p->nslots + 1) * FIRST_LOOK;

	for (;;) {
		uint64_t end;
		int rc;

		if (p->tail - p->head == p->nslots)
			return 0;
		while (c->cand_head < c->ncand && c->cand[c->cand_head] < c->bit)
			c->cand_head++;
		if (c->cand_head > 1024 && 2 * c->cand_head > c->ncand) {
			memmove(c->cand, c->cand + c->cand_head, (c->ncand - c->cand_head) * sizeof(*c->cand));
			c->ncand -= c->cand_head;
			c->cand_head = 0;
		}
		if (c->cand_head == c->ncand) {
			c->cand_head = c->ncand = 0;
			if (c->eof)
				pool_drain(p);
		} else if ((end = slice_end(c))) {
			if ((rc = dispatch(c, end)))
				return rc;
			continue;
		}
		if (c->eof || head_byte(c) - c->bit / 8 > reach)
			return 0;
		if ((rc = read_chunk(c)))
			return rc;
	}
}

/* The oldest slot once a worker is done with it (the lock held). While
 * the workers are bound, a wait past bunzip2_bound_wait_ms lets them go:
 * the worker of the block whose turn it is may be on a CPU that other
 * work holds. */
static struct slot *wait_head(struct ctx *c)
{
	struct pool *p = c->pool;
	struct slot *s = &p->slots[p->head % p->nslots];
	uint64_t t0, deadline;

	if (s->state == SLOT_DONE)
		return s;
	t0 = clock_ns(CLOCK_MONOTONIC);
	deadline = t0 + (uint64_t)bunzip2_bound_wait_ms * 1000000u;
	while (s->state != SLOT_DONE) {
		struct timespec until = {.tv_sec = (time_t)(deadline / 1000000000u),
					 .tv_nsec = (long)(deadline % 1000000000u)};

		if (!worker_cpus_bound(p->cpus)) {
			pthread_cond_wait(&p->done, &p->mu);
		} else if (clock_ns(CLOCK_MONOTONIC) < deadline) {
			pthread_cond_timedwait(&p->done, &p->mu, &until);
		} else {
			workers_let_go(c);
			c->sum.workers_let_go = true;
		}
	}
	c->ns.wait_ns += clock_ns(CLOCK_MONOTONIC) - t0;
	return s;
}

static void retire(struct pool *p, struct slot *s)
{
	pthread_mutex_lock(&p->mu);
	slot_release(p, s);
	p->head++;
	pthread_mutex_unlock(&p->mu);
}

/* The block at c->bit from the workers: slots that start before it (a
 * false magic inside an earlier block) are dropped; a slot whose input
 * was cut short is decoded again here. */
static int decode_pooled(struct ctx *c, struct got *g)
{
	struct pool *p = c->pool;
	struct slot *s = NULL;
	int rc;

	if ((rc = pump(c)))
		return rc;
	pthread_mutex_lock(&p->mu);
	while (p->head != p->tail && p->slots[p->head % p->nslots].bit < c->bit) {
		slot_release(p, wait_head(c));
		p->head++;
	}
	/* Taken for writing: its worker may no longer move its output. A
	 * packed block, expanded as it is written (46 MB for a long run),
	 * moves to the spare first when it is free, so that its worker need
	 * not wait for the whole expansion to build its next table. */
	if (p->head != p->tail && p->slots[p->head % p->nslots].bit == c->bit) {
		s = wait_head(c);
		s->state = SLOT_WRITING;
		if (s->owner && s->done.packed && spare_free(p) >= 0) {
			spare_fault(p);
			if (spare_free(p) >= 0) {
				slot_to_spare(p, s, spare_free(p));
				pthread_cond_broadcast(&p->written);
			}
		}
		g->out = s->out;
		g->out_cap = s->out_cap;
	}
	pthread_mutex_unlock(&p->mu);
	/* No worker has it (the window's reach passed before its input was
	 * known): decode it here. */
	if (!s)
		return decode_here(c, g);
	/* Keep the workers fed while this block is written. */
	if ((rc = pump(c)))
		return rc;
	if (s->rc == -1 && truncation(&s->e) && !s->to_end) {
		retire(p, s);
		return decode_here(c, g);
	}
	if (s->rc) {
		rc = decoder_error(c, s->rc, &s->e, s->start);
		retire(p, s);
		return rc;
	}
	g->done = s->done;
	g->slot = s;
	return 0;
}

/* ---- the framing ---- */

static int write_failed(struct ctx *c, int rc)
{
	c->e->sys_errno = -rc;
	return fail(c, BUNZIP2_WRITE, c->block, c->bit / 8, "write error");
}

/* Where a packed block's pieces expand: in its own buffer, past its
 * packed bytes (a block's 900,000 at most), where the bound leaves 145 KiB
 * free. A buffer of their own was one more whose small pages each trapped
 * at their first touch (1 ms of a file's first packed block on a guest). */
#define PIECE_AT(packed) (((packed) + 63) / 64 * 64)
_Static_assert(OUT_MAX - PIECE_AT((size_t)BZ2_MAX_BLOCK_BYTES) >= (size_t)64 << 10,
	       "a packed block's buffer has room for its pieces");

/* A block's bytes to the write callback: 0 or a status. A packed block is
 * expanded again, in pieces, as it is written. */
static int write_block(struct ctx *c, const struct got *g)
{
	struct bz2_rle_cursor cur = {0};
	uint8_t *piece;
	size_t room, got;
	int rc;

	if (!g->done.packed)
		return g->done.bytes && (rc = c->wr(c->wctx, g->out, g->done.bytes)) ? write_failed(c, rc) : 0;
	/* g->out is a slot's buffer or the coordinator's decoder's T-vector:
	 * ours to write past the packed bytes. */
	piece = (uint8_t *)g->out + PIECE_AT(g->done.packed);
	room = g->out_cap - PIECE_AT(g->done.packed);
	while ((got = bz2_rle_decode_piece(&cur, g->out, g->done.packed, piece, room)))
		if ((rc = c->wr(c->wctx, piece, got)))
			return write_failed(c, rc);
	return 0;
}

static int block_out(struct ctx *c, const struct got *g)
{
	const struct bunzip2_opts *o = c->o;
	char what[160];
	int rc;

	if (g->done.nblock > c->max_block) {
		snprintf(what, sizeof(what), "a block of %u bytes, past this stream's level (BZh%u: at most %u)",
			 g->done.nblock, c->max_block / 100000, c->max_block);
		return fail(c, BUNZIP2_CORRUPT, c->block, c->bit / 8, what);
	}
	if (o->max_output_bytes && c->sum.out_bytes + g->done.bytes > o->max_output_bytes) {
		snprintf(what, sizeof(what), "the output would pass the limit of %llu bytes",
			 (unsigned long long)o->max_output_bytes);
		return fail(c, BUNZIP2_LIMIT, c->block, c->bit / 8, what);
	}
	c->combined = bz2_crc_combine(c->combined, g->done.crc);
	if (g->out_cap > c->sum.max_buffer_bytes)
		c->sum.max_buffer_bytes = g->out_cap;
	if ((rc = write_block(c, g)))
		return rc;
	c->sum.out_bytes += g->done.bytes;
	c->sum.blocks++;
	return 0;
}

/* The end marker at c->bit: its CRC checked; the next stream's byte. */
static int stream_end(struct ctx *c, uint64_t *next)
{
	uint32_t stored;
	int rc;

	if ((rc = fill(c, c->bit / 8 + 11)))
		return rc;
	if (bits_left(c, c->bit) < 80)
		return fail(c, BUNZIP2_CORRUPT, 0, head_byte(c), "truncated: the input ends inside the stream CRC");
	stored = (uint32_t)peek(c, c->bit + 48, 32);
	if (stored != c->combined) {
		char what[120];

		snprintf(what, sizeof(what), "bad stream CRC (stored 0x%08x, blocks give 0x%08x)", stored, c->combined);
		return fail(c, BUNZIP2_CORRUPT, 0, c->bit / 8, what);
	}
	*next = (c->bit + 80 + 7) / 8;
	return 0;
}

/* One stream's blocks from c->bit to its end marker. */
static int stream_blocks(struct ctx *c, uint64_t *next)
{
	for (;;) {
		struct got g;
		uint64_t magic;
		int rc;

		drop_before(c, c->bit / 8);
		if ((rc = fill(c, c->bit / 8 + 8)))
			return rc;
		if (bits_left(c, c->bit) < 48)
			return fail(c, BUNZIP2_CORRUPT, c->block + 1, head_byte(c),
				    "truncated: the input ends before the stream's end marker");
		magic = peek(c, c->bit, 48);
		if (magic == END_MAGIC)
			return stream_end(c, next);
		if (magic != BLOCK_MAGIC)
			return fail(c, BUNZIP2_CORRUPT, c->block + 1, c->bit / 8,
				    "bad block magic (expected 0x314159265359 or the end marker)");
		c->block++;
		rc = c->pool ? decode_pooled(c, &g) : decode_here(c, &g);
		if (rc)
			return rc;
		rc = block_out(c, &g);
		if (g.slot)
			retire(c->pool, g.slot);
		if (rc)
			return rc;
		c->bit = g.done.end_bit;
	}
}

/* The header of stream c->stream at byte pos: 0 with the level set, 1
 * when the input ends or trailing garbage starts there (after the first
 * stream, as bzip2 ignores it), or a status. */
static int stream_header(struct ctx *c, uint64_t pos)
{
	static const char magic[3] = {'B', 'Z', 'h'};
	size_t avail, i;
	int rc;

	if ((rc = fill(c, pos + 4)))
		return rc;
	avail = head_byte(c) > pos ? (size_t)(head_byte(c) - pos) : 0;
	if (avail > 4)
		avail = 4;
	for (i = 0; i < avail; i++) {
		uint8_t b = c->buf[pos - c->base + i];

		if (i < 3 ? b != (uint8_t)magic[i] : b < '1' || b > '9')
			break;
	}
	if (c->stream == 1 && i < 4)
		return fail(c, BUNZIP2_CORRUPT, 0, pos,
			    i < avail ? "bad magic: not a bzip2 stream (expected BZh1..BZh9)"
				      : "truncated: shorter than a stream header");
	if (avail == 0)
		return 1;
	if (i < avail) {
		c->sum.garbage_offset = pos;
		c->sum.garbage_bytes = head_byte(c) - pos;
		return 1;
	}
	if (i < 4)
		return fail(c, BUNZIP2_CORRUPT, 0, pos, "truncated: the input ends inside a stream header");
	c->max_block = 100000u * (uint32_t)(c->buf[pos - c->base + 3] - '0');
	return 0;
}

static int run(struct ctx *c)
{
	uint64_t pos = 0;

	for (c->stream = 1;; c->stream++) {
		int rc;

		drop_before(c, pos);
		if ((rc = stream_header(c, pos)))
			return rc > 0 ? 0 : rc;
		c->bit = (pos + 4) * 8;
		c->combined = 0;
		c->sum.streams++;
		if ((rc = stream_blocks(c, &pos)))
			return rc;
	}
}

size_t bunzip2_memory_bytes(unsigned threads)
{
	if (threads <= 1)
		return DECODER_BYTES + 2 * FIRST_LOOK;
	/* The coordinator's decoder (for retries), each worker's, the spare,
	 * the window over the blocks in flight. */
	return DECODER_BYTES + threads * DECODER_BYTES + SPARE_BYTES + (2 * threads + 2) * FIRST_LOOK;
}

/* The first chunk read whole, or the input to its end if shorter: a
 * read may return less than asked (a pipe, a slow device) without the
 * input having ended. */
static int read_first_chunk(struct ctx *c)
{
	int rc;

	while (!c->eof && c->len < c->chunk)
		if ((rc = read_chunk(c)))
			return rc;
	return 0;
}

/* The workers worth starting once the first chunk is read: an input that
 * ended within it holds the blocks its scan found, and no more workers
 * than those are of use; one block or none is decoded on the caller's
 * thread as -n1 decodes it (no scan, no hand-off, no thread to start:
 * two threads cost a 4 kB file 0.8 ms more on a guest, a directory of
 * small files twice bzip2's time). */
static unsigned threads_for_blocks(struct ctx *c, unsigned threads)
{
	if (!c->eof || c->ncand >= threads)
		return threads;
	if (c->ncand > 1)
		return (unsigned)c->ncand;
	c->scanning = false;
	c->chunk = DEFAULT_CHUNK;
	return 1;
}

struct bunzip2_keep *bunzip2_keep_new(void)
{
	return calloc(1, sizeof(struct bunzip2_keep));
}

/* What k holds, freed; k itself stays. */
static void keep_release(struct bunzip2_keep *k)
{
	decoder_free(k->dec);
	pagebuf_unmap(k->buf, k->cap);
	for (unsigned i = 0; i < KEEP_WORKERS; i++)
		decoder_free(k->workers[i]);
	pagebuf_unmap(k->spare, SPARE_BYTES);
	*k = (struct bunzip2_keep){0};
}

void bunzip2_keep_free(struct bunzip2_keep *k)
{
	if (!k)
		return;
	keep_release(k);
	free(k);
}

int bunzip2_decode(bunzip2_read_fn rd, void *rctx, bunzip2_write_fn wr, void *wctx,
		   const struct bunzip2_opts *o, struct bunzip2_summary *sum, struct bunzip2_error *e)
{
	struct ctx c = {.rd = rd, .rctx = rctx, .wr = wr, .wctx = wctx, .o = o, .e = e};
	unsigned threads = o->threads ? o->threads : 1;
	uint64_t cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	int rc;

	memset(e, 0, sizeof(*e));
	if (o->keep) {
		c.lent = *o->keep;
		*o->keep = (struct bunzip2_keep){0};
		c.dec = c.lent.dec;
		c.buf = c.lent.buf;
		c.cap = c.lent.cap;
		c.lent.dec = NULL;
		c.lent.buf = NULL;
		c.lent.cap = 0;
	}
	c.chunk = o->chunk_bytes ? o->chunk_bytes : threads > 1 ? POOL_CHUNK : DEFAULT_CHUNK;
	while (o->max_memory_bytes && threads > 1 && bunzip2_memory_bytes(threads) > o->max_memory_bytes)
		threads--;
	if (o->max_memory_bytes && bunzip2_memory_bytes(threads) > o->max_memory_bytes) {
		char what[120];

		snprintf(what, sizeof(what), "one decoder needs about %zu bytes, past the memory limit",
			 bunzip2_memory_bytes(1));
		rc = fail(&c, BUNZIP2_LIMIT, 0, 0, what);
		goto out;
	}
	/* One thread decodes on the caller's: no scan, no copies, no hand-off.
	 * With workers the first chunk is read and scanned before they start:
	 * a worker then warms up as soon as it runs, not after it has slept
	 * and been woken (a thread takes 0.2-0.5 ms to start on a guest), and
	 * an input that cannot be read starts none. */
	if (threads > 1) {
		c.scanning = true;
		if ((rc = read_first_chunk(&c)))
			goto out;
		threads = threads_for_blocks(&c, threads);
	}
	if (threads > 1) {
		if (pool_start(&c, threads)) {
			pool_stop(&c);
			rc = fail(&c, BUNZIP2_NOMEM, 0, 0, "no memory or thread for the workers");
			goto out;
		}
		threads = c.pool->nth;
	}
	c.sum.threads = threads;
	rc = run(&c);
out:
	pool_stop(&c);
	/* A block that failed may have left a decoder half-way: the decoders
	 * and the window are kept only after a decode that ended well. */
	c.lent.dec = c.dec;
	c.lent.buf = c.buf;
	c.lent.cap = c.cap;
	if (o->keep && !rc)
		*o->keep = c.lent;
	else
		keep_release(&c.lent);
	free(c.cand);
	c.ns.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	c.sum.thread_ns[0] = c.ns;
	if (sum)
		*sum = c.sum;
	return rc;
}

struct mem_src {
	const uint8_t *p;
	size_t left;
};

static long mem_read(void *ctx, uint8_t *buf, size_t cap)
{
	struct mem_src *m = ctx;
	size_t n = m->left < cap ? m->left : cap;

	if (n)
		memcpy(buf, m->p, n);
	m->p += n;
	m->left -= n;
	return (long)n;
}

int bunzip2_decode_memory(const uint8_t *in, size_t len, bunzip2_write_fn wr, void *wctx,
			  const struct bunzip2_opts *o, struct bunzip2_summary *sum, struct bunzip2_error *e)
{
	struct mem_src m = {.p = in, .left = len};

	return bunzip2_decode(mem_read, &m, wr, wctx, o, sum, e);
}

const char *bunzip2_status_name(int status)
{
	switch (status) {
	case BUNZIP2_OK: return "ok";
	case BUNZIP2_CORRUPT: return "corrupt input";
	case BUNZIP2_READ: return "read error";
	case BUNZIP2_WRITE: return "write error";
	case BUNZIP2_NOMEM: return "out of memory";
	case BUNZIP2_LIMIT: return "limit reached";
	default: return "unknown status";
	}
}
