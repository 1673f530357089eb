/*
 * Whole files in production order: the stream header ("BZh" and a level
 * digit), then per block its magic, the body (mtf.c), the T-vector, the
 * walk, the run-length stage and the CRC, then the end marker and the
 * combined CRC, then the next stream if more bytes follow (pbzip2 and
 * `cat a.bz2 b.bz2` write several). Stage times come from one clock read
 * between stages; the output buffer is reused across blocks or allocated
 * fresh for each (the axis a decoder's buffer lifetime sets). Block b+1's
 * decode may also run beside block b's walk (bz2_decode_opts.overlap):
 * interleaved on this thread, or on a scout thread; either way blocks
 * reach the sink, and errors the caller, in the order of the file.
 */
#include "bzip2/bz2.h"
#include "bzip2/pagebuf.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MAGIC 0x314159265359ull
#define END_MAGIC 0x177245385090ull

static int fail(struct bz2_error *e, unsigned block, uint64_t bit, const char *what)
{
	e->block = block;
	e->byte_offset = bit / 8;
	snprintf(e->what, sizeof(e->what), "%s", what);
	return -1;
}

static uint64_t get48(struct bz2_bits *b)
{
	uint64_t hi = bz2_bits_get(b, 24);

	return hi << 24 | bz2_bits_get(b, 24);
}

/* The stream header at byte pos: its level's block limit, or 0. */
static uint32_t stream_level(const uint8_t *in, size_t len, size_t pos)
{
	if (len - pos < 4 || memcmp(in + pos, "BZh", 3) || in[pos + 3] < '1' || in[pos + 3] > '9')
		return 0;
	return 100000u * (uint32_t)(in[pos + 3] - '0');
}

struct bz2_decoder {
	struct bz2_block *blk;
	uint32_t *tt;
	uint8_t *text;       /* the walk's output: the block before the run-length stage */
	uint8_t *out;
	size_t out_cap;
	size_t out_max;      /* bz2_decoder_bound_output's bound (0: none) */
	struct bz2_walk_scratch sc;
	struct bz2_walk_scratch rsc;   /* in turn, a resident decoder's: its pool lent from the pagebuf */
	/* Where tt and tt2 come from when the instrument chooses their pages
	 * (map set); else malloc. */
	struct bz2_table_mapper mapper;
	struct bz2_walk_job *job;   /* the sliced walk (the one-core overlap) */
	/* The scout's second slot (the first is blk and tt); tt2 from the
	 * mapper when tt is, or half the scout's blocks would run off the
	 * requested pages. */
	struct bz2_block *blk2;
	uint32_t *tt2;
	uint16_t *runs;             /* blk's runs buffer, while the overlap may take it away */
	/* tt, blk->bwt and text in one pagebuf (bz2_decoder_new_resident),
	 * or NULL: each malloc'd or from the mapper. */
	uint8_t *resident;
	/* Called before a block's T-vector is written (bz2_decoder_before_table). */
	void (*before_table)(void *ctx);
	void *before_table_ctx;
};

#define TT_BYTES ((size_t)BZ2_MAX_BLOCK_BYTES * sizeof(uint32_t))

/* The resident pagebuf: the T-vector, the walk's text, the column, and
 * the walk's chunk pool over the column from its first page on, made
 * resident at once and never read back: the arena a measured table
 * is in verifies its backing in /proc/self/smaps, 5% of a suite test that
 * makes a decoder for each of several hundred inputs, and nothing a
 * decode needs. In turn, the column (or the runs over the text and the
 * column) is read by the table before the walk writes the pool, and the
 * text is written from the pool after it: the pool costs no memory more
 * (the 2 MiB pages hold it past the column), and its pages are huge and
 * faulted in with the rest; a small page's first touch on a guest traps
 * to the host even once the kernel has faulted it in. The overlaps
 * decode a block's column while the block before it walks, so they keep
 * a pool of the walk's own (u->sc). */
#define TEXT_AT TT_BYTES
#define COL_AT (TT_BYTES + BZ2_MAX_BLOCK_BYTES)
#define POOL_AT ((COL_AT + 4095) / 4096 * 4096)
_Static_assert((size_t)2 * BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK >= (BZ2_MAX_BLOCK_BYTES + 1) * sizeof(uint16_t),
	       "a block's runs fit over the text and the column");

static size_t resident_bytes(void)
{
	size_t pool_end = POOL_AT + bz2_walk_pool_bytes(BZ2_MAX_BLOCK_BYTES);
	size_t col_end = COL_AT + BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK;

	return pool_end > col_end ? pool_end : col_end;
}

/* A block's symbol buffer: blk, and blk->bwt where blk was allocated
 * (the caller checks both). */
static struct bz2_block *block_new(void)
{
	struct bz2_block *blk = malloc(sizeof(*blk));

	if (blk) {
		blk->bwt = malloc(BZ2_MAX_BLOCK_BYTES + BZ2_BWT_SLACK);
		blk->runs = malloc((BZ2_MAX_BLOCK_BYTES + 1) * sizeof(*blk->runs));
	}
	return blk;
}

/* One slot's buffers: its block, and its T-vector where it was malloc'd
 * (the mapper's are given back together, in bufs_put). */
static void slot_free(const struct bz2_decoder *u, struct bz2_block *blk, uint32_t *tt)
{
	if (blk) {
		free(blk->bwt);
		free(blk->runs);
	}
	free(blk);
	if (!u->mapper.map)
		free(tt);
}

/* A T-vector: slot 0 (tt) or 1 (the scout's tt2). */
static uint32_t *table_get(struct bz2_decoder *u, unsigned which)
{
	if (u->mapper.map)
		return u->mapper.map(u->mapper.ctx, which, TT_BYTES);
	return malloc(TT_BYTES);
}

static int bufs_get(struct bz2_decoder *u)
{
	if (!u->resident) {
		u->tt = table_get(u, 0);
		u->blk = block_new();
		u->text = malloc(BZ2_MAX_BLOCK_BYTES);
	} else if ((u->blk = malloc(sizeof(*u->blk)))) {
		u->tt = (uint32_t *)u->resident;
		u->text = u->resident + TEXT_AT;
		u->blk->bwt = u->resident + COL_AT;
		/* The runs over the text and the column after it (1.8 MB, no
		 * memory more): the table reads them before the walk writes
		 * the text. A resident decoder decodes its blocks in turn;
		 * with the one-core overlap it writes the column instead
		 * (bz2_decode_with). */
		u->blk->runs = (uint16_t *)u->text;
		bz2_walk_scratch_lend(&u->rsc, u->resident + POOL_AT, resident_bytes() - POOL_AT);
	}
	if (u->blk)
		u->runs = u->blk->runs;
	return u->blk && u->tt && u->text && u->blk->bwt && u->blk->runs ? 0 : -ENOMEM;
}

static void bufs_put(struct bz2_decoder *u)
{
	if (u->resident) {
		if (u->blk)
			u->blk->bwt = NULL, u->blk->runs = NULL;
		u->tt = NULL;
		u->text = NULL;
		pagebuf_unmap(u->resident, resident_bytes());
	}
	slot_free(u, u->blk, u->tt);
	free(u->text);
	free(u->out);
	bz2_walk_scratch_free(&u->sc);
	bz2_walk_scratch_free(&u->rsc);
	bz2_walk_job_free(u->job);
	slot_free(u, u->blk2, u->tt2);
	if (u->mapper.release)
		u->mapper.release(u->mapper.ctx);
}

static inline uint64_t tick(bool timed)
{
	return timed ? bz2_ticks() : 0;
}

/* The front of a block: its body at b decoded into u->blk (pacing the
 * previous block's walk when pace is not NULL). 0 or -1 with e filled. */
static int block_front(struct bz2_bits *b, uint32_t max_block, unsigned block_no, unsigned plain, bool timed,
		       struct bz2_decoder *u, struct bz2_walk_job *pace, struct bz2_stage_ticks *st, struct bz2_error *e)
{
	uint64_t t0 = tick(timed);

	if (bz2_block_decode(b, max_block, u->blk, plain, pace, e)) {
		e->block = block_no;
		return -1;
	}
	st->rows = u->blk->nblock;
	st->decode = tick(timed) - t0;
	return 0;
}

static void block_table(bool timed, struct bz2_decoder *u, struct bz2_stage_ticks *st)
{
	uint64_t t0 = tick(timed);

	bz2_ibwt_table(u->blk, u->tt);
	st->table = tick(timed) - t0;
}

/* What the back of a block needs once the next block's decode has
 * overwritten u->blk. */
struct block_meta {
	uint32_t stored_crc, nblock;
	bool randomised;
	uint64_t body;                   /* the body's first bit, for errors */
	unsigned block_no;
};

/* The back of a block whose walk has filled u->text: the run-length
 * stage into u->out and the CRC. The bytes or -1/-errno (-EFBIG when its
 * output would pass room bytes). */
static long block_back(const struct block_meta *m, unsigned plain, bool fresh, bool timed, struct bz2_decoder *u,
		       struct bz2_stage_ticks *st, struct bz2_error *e, uint32_t *crc_out, size_t room)
{
	uint64_t t3 = tick(timed), t4, t5;
	size_t bytes = SIZE_MAX;
	uint32_t crc;

	if (m->randomised)
		bz2_derandomise(u->text, m->nblock);
	/* The fast path expands in one pass into the buffer as it is, with
	 * the room checked per run: text grows a few percent, so the size
	 * pass below (a second word search) runs only for a block that does
	 * not fit, a run-length bomb among them. */
	if (!(plain & BZ2_PLAIN_RLE) && !fresh && u->out) {
		bytes = bz2_rle_decode_cap(u->text, m->nblock, u->out, u->out_cap < room ? u->out_cap : room);
		if (bytes != SIZE_MAX)
			goto crc;
	}
	bytes = plain & BZ2_PLAIN_RLE ? bz2_rle_size_plain(u->text, m->nblock) : bz2_rle_size(u->text, m->nblock);
	/* Sized before it is expanded: a run-length bomb stops here, before
	 * the expansion and the CRC that cost in proportion to it. */
	if (bytes > room)
		return -EFBIG;
	if (fresh || bytes > u->out_cap) {
		free(u->out);
		/* A fresh buffer is first touched here, inside the RLE stage:
		 * its page faults are what "fresh" costs. */
		u->out_cap = fresh ? bytes : bytes + bytes / 4;
		u->out = malloc(u->out_cap ? u->out_cap : 1);
		if (!u->out)
			return -ENOMEM;
	}
	if (plain & BZ2_PLAIN_RLE)
		bz2_rle_decode_plain(u->text, m->nblock, u->out);
	else
		bz2_rle_decode(u->text, m->nblock, u->out);
crc:
	t4 = tick(timed);
	crc = plain & BZ2_PLAIN_CRC ? bz2_crc4(u->out, bytes) : bz2_crc(u->out, bytes);
	t5 = tick(timed);
	if (crc != m->stored_crc) {
		char what[120];

		snprintf(what, sizeof(what), "bad block CRC (stored 0x%08x, decoded bytes give 0x%08x)",
			 m->stored_crc, crc);
		return fail(e, m->block_no, m->body, what);
	}
	*crc_out = crc;
	st->rle = t4 - t3;
	st->crc = t5 - t4;
	return (long)bytes;
}

static void meta_of(const struct bz2_decoder *u, uint64_t body, unsigned block_no, struct block_meta *m)
{
	m->stored_crc = u->blk->stored_crc;
	m->randomised = u->blk->randomised;
	m->nblock = u->blk->nblock;
	m->body = body;
	m->block_no = block_no;
}

/* One block's body at b, in turn, up to its walk: u->text filled and m
 * set. 0, -1 with e filled, or -ENOMEM. */
static int block_walk(struct bz2_bits *b, uint32_t max_block, unsigned block_no, const struct bz2_walk_opts *w,
		      unsigned plain, bool timed, struct bz2_decoder *u, struct bz2_stage_ticks *st,
		      struct bz2_walk_ticks *wt, struct bz2_error *e, struct block_meta *m)
{
	struct bz2_walk_ticks mine = {0};
	uint64_t t2, t3;
	int rc;

	meta_of(u, bz2_bits_pos(b), block_no, m);
	if (block_front(b, max_block, block_no, plain, timed, u, NULL, st, e))
		return -1;
	if (u->before_table)
		u->before_table(u->before_table_ctx);
	block_table(timed, u, st);
	meta_of(u, m->body, block_no, m);
	t2 = tick(timed);
	rc = bz2_ibwt_walk(u->tt, u->blk->nblock, u->blk->orig_ptr, u->text, w, u->resident ? &u->rsc : &u->sc,
			   timed || wt ? &mine : NULL);
	if (rc)
		return rc;
	t3 = tick(timed);
	if (timed) {
		st->starts = mine.starts;
		st->assembly = mine.assembly;
		st->traversal = (t3 - t2) - mine.starts - mine.assembly;
	}
	if (wt)
		wt->fallbacks += mine.fallbacks;
	return 0;
}

/* One block's body at b, in turn: decode it into u->out; the bytes or
 * -1/-errno (-EFBIG when its output would pass room bytes). */
static long block_run(struct bz2_bits *b, uint32_t max_block, unsigned block_no, const struct bz2_walk_opts *w,
		      unsigned plain, bool fresh, bool timed, struct bz2_decoder *u, struct bz2_stage_ticks *st, struct bz2_walk_ticks *wt,
		      struct bz2_error *e, uint32_t *crc_out, size_t room)
{
	struct block_meta m;
	int rc = block_walk(b, max_block, block_no, w, plain, timed, u, st, wt, e, &m);

	return rc ? rc : block_back(&m, plain, fresh, timed, u, st, e, crc_out, room);
}

/* The back of a block for a decoder whose output buffer is bounded
 * (u->out_max bytes): a block whose bytes fit is expanded whole, as
 * block_back does; a longer one (a long run expands 51-fold) is expanded
 * through the buffer in pieces for its CRC, and the buffer is left holding
 * the block before its run-length stage (*packed bytes), for the caller to
 * expand again in pieces as it writes. The bytes, or -1/-ENOMEM. */
static long block_bounded(const struct block_meta *m, struct bz2_decoder *u, struct bz2_error *e, uint32_t *crc_out,
			  size_t *packed)
{
	size_t bytes;
	uint32_t crc;

	*packed = 0;
	if (m->randomised)
		bz2_derandomise(u->text, m->nblock);
	if (u->out_cap < u->out_max) {
		free(u->out);
		u->out_cap = 0;
		if (!(u->out = malloc(u->out_max)))
			return -ENOMEM;
		u->out_cap = u->out_max;
	}
	bytes = bz2_rle_decode_cap(u->text, m->nblock, u->out, u->out_max);
	if (bytes != SIZE_MAX) {
		crc = bz2_crc(u->out, bytes);
	} else {
		struct bz2_rle_cursor cur = {0};
		size_t got;

		bytes = 0;
		crc = 0;
		/* Pieces of BZ2_PIECE_BYTES stay in the cache between the
		 * expansion that writes them and the CRC that reads them. */
		while ((got = bz2_rle_decode_piece(&cur, u->text, m->nblock, u->out, BZ2_PIECE_BYTES))) {
			crc = bz2_crc_more(crc, u->out, got);
			bytes += got;
		}
		memcpy(u->out, u->text, m->nblock);
		*packed = m->nblock;
	}
	if (crc != m->stored_crc) {
		char what[120];

		snprintf(what, sizeof(what), "bad block CRC (stored 0x%08x, decoded bytes give 0x%08x)",
			 m->stored_crc, crc);
		return fail(e, m->block_no, m->body, what);
	}
	*crc_out = crc;
	return (long)bytes;
}

int bz2_decode(const uint8_t *in, size_t len, const struct bz2_decode_opts *o, bz2_block_sink sink, void *ctx,
	       struct bz2_walk_ticks *walk, struct bz2_error *e)
{
	struct bz2_decoder u = {0};
	int rc;

	memset(e, 0, sizeof(*e));
	if (!(rc = bufs_get(&u)))
		rc = bz2_decode_with(&u, in, len, o, sink, ctx, walk, e);
	bufs_put(&u);
	return rc;
}

/* A block decoded and walking (the one-core overlap): its walk runs in
 * slices inside the next block's decode; its back waits for that. */
struct pending {
	bool on;
	struct block_meta m;
	struct bz2_stage_ticks st;
};

/* Where a file's blocks go: the running totals and the caller's sink. */
struct flow {
	const struct bz2_decode_opts *o;
	bz2_block_sink sink;
	void *ctx;
	struct bz2_walk_ticks *walk;
	size_t total;
	uint32_t combined;
};

/* A block's bytes out: counted, folded into the stream CRC, sunk. */
static int flow_put(struct flow *f, struct bz2_decoder *u, unsigned block_no, long bytes, uint32_t crc,
		    const struct bz2_stage_ticks *st)
{
	if (bytes < 0)
		return (int)bytes;
	f->total += (size_t)bytes;
	f->combined = bz2_crc_combine(f->combined, crc);
	return f->sink ? f->sink(f->ctx, block_no, u->out, (size_t)bytes, st) : 0;
}

/* The pending block to its end: the rest of its walk, its back, the sink.
 * In production order it ends before anything after it is reported, so
 * an error of its own comes first, as when blocks run in turn. */
static int pending_finish(struct pending *pd, struct bz2_decoder *u, struct flow *f, struct bz2_error *e)
{
	const struct bz2_decode_opts *o = f->o;
	struct bz2_walk_ticks mine = {0};
	uint32_t crc = 0;
	long bytes;

	if (!pd->on)
		return 0;
	pd->on = false;
	bz2_walk_end(u->job, &mine);
	if (o->timed) {
		pd->st.starts = mine.starts;
		pd->st.traversal = mine.traversal;
		pd->st.assembly = mine.assembly;
	}
	if (f->walk)
		f->walk->fallbacks += mine.fallbacks;
	bytes = block_back(&pd->m, o->plain, o->fresh_output, o->timed, u, &pd->st, e, &crc,
			   o->max_output_bytes ? o->max_output_bytes - f->total : SIZE_MAX);
	return flow_put(f, u, pd->m.block_no, bytes, crc, &pd->st);
}

/* One block at b with the one-core overlap: its decode paces the pending
 * block's walk; then that block ends, this one's T-vector is built (the
 * walk no longer reads it) and its walk starts, pending in turn. */
static int block_interleave(struct bz2_bits *b, uint32_t max_block, unsigned block_no, struct bz2_decoder *u,
			    struct pending *pd, struct flow *f, struct bz2_error *e)
{
	const struct bz2_decode_opts *o = f->o;
	struct bz2_stage_ticks st = {0};
	struct block_meta m;
	int rc, front;

	meta_of(u, bz2_bits_pos(b), block_no, &m);
	front = block_front(b, max_block, block_no, o->plain, o->timed, u, pd->on ? u->job : NULL, &st, e);
	if ((rc = pending_finish(pd, u, f, e)) || front)
		return rc ? rc : front;
	meta_of(u, m.body, block_no, &m);
	block_table(o->timed, u, &st);
	if ((rc = bz2_walk_start(u->job, u->tt, u->blk->nblock, u->blk->orig_ptr, u->text, &o->walk, &u->sc)))
		return rc;
	pd->on = true;
	pd->m = m;
	pd->st = st;
	return 0;
}

/* ---- the scout: a second thread decodes ahead (the two-core overlap) ----
 * The scout reads the file's framing and decodes each block's body and
 * T-vector into one of two slots; this thread walks, expands and checks
 * each slot in order, so a block's decode runs beside the previous one's
 * walk on the other core. Everything the scout meets (a block, a stream's
 * end, an error) goes through the slots in file order, so errors come
 * out in the order the blocks in turn would report them. */
enum slot_kind { SLOT_FREE, SLOT_BLOCK, SLOT_END, SLOT_ERROR, SLOT_DONE };

struct scout_slot {
	enum slot_kind kind;
	struct bz2_decoder view;     /* blk and tt of this slot */
	struct block_meta m;
	uint32_t orig_ptr, stored;   /* stored: a stream's end's CRC */
	uint64_t at;                 /* a stream's end marker's bit */
	struct bz2_stage_ticks st;
	int rc;
	struct bz2_error e;
};

struct scout {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct scout_slot slot[2];
	unsigned put, take;          /* slots filled and taken so far */
	bool quit;
	const uint8_t *in;
	size_t len;
	const struct bz2_decode_opts *o;
};

/* The next free slot, or NULL when told to quit. */
static struct scout_slot *scout_free_slot(struct scout *sc)
{
	struct scout_slot *s;

	pthread_mutex_lock(&sc->mu);
	while (!sc->quit && sc->put - sc->take >= 2)
		pthread_cond_wait(&sc->cv, &sc->mu);
	s = sc->quit ? NULL : &sc->slot[sc->put % 2];
	pthread_mutex_unlock(&sc->mu);
	return s;
}

static void scout_publish(struct scout *sc, struct scout_slot *s, enum slot_kind kind)
{
	pthread_mutex_lock(&sc->mu);
	s->kind = kind;
	sc->put++;
	pthread_cond_broadcast(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
}

/* An error or the end: always gets a slot unless told to quit. */
static void scout_event(struct scout *sc, enum slot_kind kind, int rc, const struct bz2_error *e)
{
	struct scout_slot *s = scout_free_slot(sc);

	if (!s)
		return;
	s->rc = rc;
	if (e)
		s->e = *e;
	scout_publish(sc, s, kind);
}

static void *scout_main(void *arg)
{
	struct scout *sc = arg;
	const uint8_t *in = sc->in;
	size_t len = sc->len, pos = 0;
	unsigned block_no = 0;
	struct bz2_error e;

	memset(&e, 0, sizeof(e));
	do {
		uint32_t max_block = stream_level(in, len, pos);
		struct bz2_bits b;

		if (!max_block) {
			scout_event(sc, SLOT_ERROR,
				    fail(&e, 0, (uint64_t)pos * 8,
					 pos ? "bad magic: bytes after a stream that are not another stream (expected BZh1..BZh9)"
					     : len < 4 ? "truncated: shorter than a stream header"
						       : "bad magic: not a bzip2 stream (expected BZh1..BZh9)"),
				    &e);
			return NULL;
		}
		bz2_bits_init(&b, in, len, (uint64_t)(pos + 4) * 8);
		for (;;) {
			uint64_t at = bz2_bits_pos(&b), magic = get48(&b);
			struct scout_slot *s;

			if (bz2_bits_truncated(&b)) {
				scout_event(sc, SLOT_ERROR, fail(&e, block_no + 1, (uint64_t)len * 8,
						"truncated: the input ends before the stream's end marker"), &e);
				return NULL;
			}
			if (magic == END_MAGIC) {
				uint32_t stored = bz2_bits_get(&b, 32);

				if (bz2_bits_truncated(&b)) {
					scout_event(sc, SLOT_ERROR, fail(&e, 0, (uint64_t)len * 8,
							"truncated: the input ends inside the stream CRC"), &e);
					return NULL;
				}
				if (!(s = scout_free_slot(sc)))
					return NULL;
				s->stored = stored;
				s->at = at;
				scout_publish(sc, s, SLOT_END);
				break;
			}
			if (magic != BLOCK_MAGIC) {
				scout_event(sc, SLOT_ERROR, fail(&e, block_no + 1, at,
						"bad block magic (expected 0x314159265359 or the end marker)"), &e);
				return NULL;
			}
			block_no++;
			if (!(s = scout_free_slot(sc)))
				return NULL;
			memset(&s->st, 0, sizeof(s->st));
			s->m.body = bz2_bits_pos(&b);
			if (block_front(&b, max_block, block_no, sc->o->plain, sc->o->timed, &s->view, NULL, &s->st, &s->e)) {
				s->rc = -1;
				scout_publish(sc, s, SLOT_ERROR);
				return NULL;
			}
			block_table(sc->o->timed, &s->view, &s->st);
			meta_of(&s->view, s->m.body, block_no, &s->m);
			s->orig_ptr = s->view.blk->orig_ptr;
			scout_publish(sc, s, SLOT_BLOCK);
		}
		pos = (size_t)((bz2_bits_pos(&b) + 7) / 8);
	} while (pos < len);
	scout_event(sc, SLOT_DONE, 0, NULL);
	return NULL;
}

/* Pin the scout to the CPU the caller named (the main thread is often
 * pinned to one CPU, and a new thread inherits that mask: both would
 * share it). Linux only; elsewhere the scheduler places it. */
static void scout_pin(pthread_t th, int cpu)
{
#if defined(__linux__)
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(th, sizeof(set), &set);
#else
	(void)th, (void)cpu;
#endif
}

static int scout_bufs(struct bz2_decoder *u)
{
	if (!u->blk2)
		u->blk2 = block_new();
	if (!u->tt2)
		u->tt2 = table_get(u, 1);
	return u->blk2 && u->blk2->bwt && u->blk2->runs && u->tt2 ? 0 : -ENOMEM;
}

/* This thread's side: each slot in order, walked, expanded, checked. */
static int scout_consume(struct scout *sc, struct bz2_decoder *u, struct flow *f, struct bz2_error *e)
{
	const struct bz2_decode_opts *o = f->o;

	for (;;) {
		struct scout_slot *s;
		int rc = 0;

		pthread_mutex_lock(&sc->mu);
		while (sc->put == sc->take)
			pthread_cond_wait(&sc->cv, &sc->mu);
		s = &sc->slot[sc->take % 2];
		pthread_mutex_unlock(&sc->mu);
		if (s->kind == SLOT_DONE)
			return 0;
		if (s->kind == SLOT_ERROR) {
			*e = s->e;
			return s->rc;
		}
		if (s->kind == SLOT_END) {
			if (s->stored != f->combined) {
				char what[120];

				snprintf(what, sizeof(what), "bad stream CRC (stored 0x%08x, blocks give 0x%08x)", s->stored,
					 f->combined);
				return fail(e, 0, s->at, what);
			}
			f->combined = 0;
		} else {
			struct bz2_walk_ticks mine = {0};
			uint64_t t0 = tick(o->timed);
			uint32_t crc = 0;
			long bytes;

			rc = bz2_ibwt_walk(s->view.tt, s->m.nblock, s->orig_ptr, u->text, &o->walk, &u->sc, &mine);
			if (o->timed) {
				s->st.starts = mine.starts;
				s->st.assembly = mine.assembly;
				s->st.traversal = (tick(o->timed) - t0) - mine.starts - mine.assembly;
			}
			if (f->walk)
				f->walk->fallbacks += mine.fallbacks;
			if (!rc) {
				bytes = block_back(&s->m, o->plain, o->fresh_output, o->timed, u, &s->st, e, &crc,
						   o->max_output_bytes ? o->max_output_bytes - f->total : SIZE_MAX);
				rc = flow_put(f, u, s->m.block_no, bytes, crc, &s->st);
			}
		}
		pthread_mutex_lock(&sc->mu);
		sc->take++;
		pthread_cond_broadcast(&sc->cv);
		pthread_mutex_unlock(&sc->mu);
		if (rc)
			return rc;
	}
}

static int decode_scout(struct bz2_decoder *u, const uint8_t *in, size_t len, struct flow *f, struct bz2_error *e)
{
	struct scout sc = {.in = in, .len = len, .o = f->o};
	pthread_t th;
	int rc;

	if ((rc = scout_bufs(u)))
		return rc;
	sc.slot[0].view.blk = u->blk;
	sc.slot[0].view.tt = u->tt;
	sc.slot[1].view.blk = u->blk2;
	sc.slot[1].view.tt = u->tt2;
	pthread_mutex_init(&sc.mu, NULL);
	pthread_cond_init(&sc.cv, NULL);
	if (pthread_create(&th, NULL, scout_main, &sc)) {
		rc = -EAGAIN;
		goto out;
	}
	scout_pin(th, f->o->scout_cpu);
	rc = scout_consume(&sc, u, f, e);
	pthread_mutex_lock(&sc.mu);
	sc.quit = true;
	pthread_cond_broadcast(&sc.cv);
	pthread_mutex_unlock(&sc.mu);
	pthread_join(th, NULL);
out:
	pthread_cond_destroy(&sc.cv);
	pthread_mutex_destroy(&sc.mu);
	return rc;
}

int bz2_decode_with(struct bz2_decoder *u, const uint8_t *in, size_t len, const struct bz2_decode_opts *o,
		    bz2_block_sink sink, void *ctx, struct bz2_walk_ticks *walk, struct bz2_error *e)
{
	struct flow f = {.o = o, .sink = sink, .ctx = ctx, .walk = walk};
	bool interleave = o->overlap == BZ2_OVERLAP_INTERLEAVE;
	struct pending pd = {.on = false};
	size_t pos = 0;
	unsigned block_no = 0;
	int rc;

	memset(e, 0, sizeof(*e));
	u->blk->runs = interleave && u->resident ? NULL : u->runs;
	if (o->overlap == BZ2_OVERLAP_SCOUT)
		return decode_scout(u, in, len, &f, e);
	if (interleave && !u->job && !(u->job = bz2_walk_job_new()))
		return -ENOMEM;
	do {
		uint32_t max_block = stream_level(in, len, pos);
		struct bz2_bits b;

		f.combined = 0;
		if (!max_block) {
			rc = fail(e, 0, (uint64_t)pos * 8,
				  pos ? "bad magic: bytes after a stream that are not another stream (expected BZh1..BZh9)"
				      : len < 4 ? "truncated: shorter than a stream header"
						: "bad magic: not a bzip2 stream (expected BZh1..BZh9)");
			goto out;
		}
		bz2_bits_init(&b, in, len, (uint64_t)(pos + 4) * 8);
		for (;;) {
			uint64_t at = bz2_bits_pos(&b), magic = get48(&b);

			/* Whatever follows, the pending block ends first. */
			if (magic != BLOCK_MAGIC || bz2_bits_truncated(&b))
				if ((rc = pending_finish(&pd, u, &f, e)))
					goto out;
			if (bz2_bits_truncated(&b)) {
				rc = fail(e, block_no + 1, (uint64_t)len * 8, "truncated: the input ends before the stream's end marker");
				goto out;
			}
			if (magic == END_MAGIC) {
				uint32_t stored = bz2_bits_get(&b, 32);

				if (bz2_bits_truncated(&b)) {
					rc = fail(e, 0, (uint64_t)len * 8, "truncated: the input ends inside the stream CRC");
					goto out;
				}
				if (stored != f.combined) {
					char what[120];

					snprintf(what, sizeof(what), "bad stream CRC (stored 0x%08x, blocks give 0x%08x)",
						 stored, f.combined);
					rc = fail(e, 0, at, what);
					goto out;
				}
				break;
			}
			if (magic != BLOCK_MAGIC) {
				rc = fail(e, block_no + 1, at, "bad block magic (expected 0x314159265359 or the end marker)");
				goto out;
			}
			block_no++;
			if (interleave) {
				if ((rc = block_interleave(&b, max_block, block_no, u, &pd, &f, e)))
					goto out;
			} else {
				struct bz2_stage_ticks st = {0};
				uint32_t crc = 0;
				long bytes = block_run(&b, max_block, block_no, &o->walk, o->plain, o->fresh_output, o->timed,
						       u, &st, walk, e, &crc,
						       o->max_output_bytes ? o->max_output_bytes - f.total : SIZE_MAX);

				if ((rc = flow_put(&f, u, block_no, bytes, crc, &st)))
					goto out;
			}
		}
		pos = (size_t)((bz2_bits_pos(&b) + 7) / 8);
	} while (pos < len);
	rc = 0;
out:
	/* An error with a block still pending (the sink's stop, memory)
	 * leaves its start rows marked in the table; the next decode
	 * rebuilds the table before it walks. */
	return rc;
}

/* m: where tt comes from (NULL: malloc); the decoder calls its release
 * once, when it is freed, made or not. */
static struct bz2_decoder *decoder_new(const struct bz2_table_mapper *m, bool resident)
{
	struct bz2_decoder *d = calloc(1, sizeof(*d));

	if (!d) {
		if (m && m->release)
			m->release(m->ctx);
		return NULL;
	}
	if (m)
		d->mapper = *m;
	if ((resident && !(d->resident = pagebuf_map(resident_bytes()))) || bufs_get(d)) {
		bufs_put(d);
		free(d);
		return NULL;
	}
	return d;
}

struct bz2_decoder *bz2_decoder_new(void)
{
	return decoder_new(NULL, false);
}

struct bz2_decoder *bz2_decoder_new_mapped(const struct bz2_table_mapper *m)
{
	return decoder_new(m, false);
}

struct bz2_decoder *bz2_decoder_new_resident(void)
{
	return decoder_new(NULL, true);
}

void *bz2_decoder_mapper_ctx(const struct bz2_decoder *d)
{
	return d->mapper.ctx;
}

int bz2_decoder_scout_ready(struct bz2_decoder *d)
{
	return scout_bufs(d);
}

void bz2_decoder_swap_output(struct bz2_decoder *d, uint8_t **buf, size_t *cap)
{
	uint8_t *out = d->out;
	size_t out_cap = d->out_cap;

	d->out = *buf;
	d->out_cap = *buf ? *cap : 0;
	*buf = out;
	*cap = out_cap;
}

uint8_t *bz2_decoder_table_bytes(struct bz2_decoder *d)
{
	return d->resident ? (uint8_t *)d->tt : NULL;
}

void bz2_decoder_before_table(struct bz2_decoder *d, void (*fn)(void *ctx), void *ctx)
{
	d->before_table = fn;
	d->before_table_ctx = ctx;
}

uint8_t *bz2_decoder_spare_bytes(struct bz2_decoder *d, size_t *bytes)
{
	size_t from = (resident_bytes() + 63) / 64 * 64;

	*bytes = d->resident ? pagebuf_bytes(resident_bytes()) - from : 0;
	return d->resident ? d->resident + from : NULL;
}

void bz2_decoder_bound_output(struct bz2_decoder *d, size_t bytes)
{
	d->out_max = bytes && bytes < BZ2_MAX_BLOCK_BYTES ? BZ2_MAX_BLOCK_BYTES : bytes;
}

void bz2_decoder_free(struct bz2_decoder *d)
{
	if (!d)
		return;
	bufs_put(d);
	free(d);
}

int bz2_decode_block_at(struct bz2_decoder *d, const uint8_t *in, size_t len, uint64_t magic_bit, unsigned block_no,
			const struct bz2_walk_opts *w, unsigned plain, struct bz2_block_result *r,
			struct bz2_error *e)
{
	struct bz2_stage_ticks st;
	struct block_meta m;
	struct bz2_bits b;
	long bytes;
	int rc;

	memset(e, 0, sizeof(*e));
	r->packed = 0;
	bz2_bits_init(&b, in, len, magic_bit);
	if (get48(&b) != BLOCK_MAGIC)
		return fail(e, block_no, magic_bit, "bad block magic (expected 0x314159265359)");
	if ((rc = block_walk(&b, BZ2_MAX_BLOCK_BYTES, block_no, w, plain, false, d, &st, NULL, e, &m)))
		return rc;
	if (d->out_max)
		bytes = block_bounded(&m, d, e, &r->crc, &r->packed);
	else
		bytes = block_back(&m, plain, false, false, d, &st, e, &r->crc, SIZE_MAX);
	if (bytes < 0)
		return (int)bytes;
	r->out = d->out;
	r->out_cap = d->out_cap;
	r->bytes = (size_t)bytes;
	r->end_bit = bz2_bits_pos(&b);
	r->nblock = d->blk->nblock;
	return 0;
}
