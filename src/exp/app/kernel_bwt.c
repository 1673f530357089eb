/*
 * The inverse-BWT walk of a bzip2-style decoder as K lockstep lanes. The
 * text is cut into K equal segments whose start rows come exactly from the
 * suffix array, so every K decodes the same n bytes (fixed work) and only
 * the interleaving changes. Each byte costs one dependent load of a random
 * table row: past the last cache, one miss per byte per lane.
 * Setup (input, suffix sort, BWT) is timed apart from the decoder's stages
 * (table build, walk), and every (variant, K) output is compared with the
 * text outside the timed region before any figure is kept.
 */
#include "exp/app/kernels.h"

#include "exp/app/bwt.h"
#include "util/rng.h"
#include "exp/app/sais.h"
#include "util/inputfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the result records of this kernel (app_start): how warm its walks
 * are and what its check compares. */
#define WARMTH "warm: the table is built once and walked repeatedly (the first walk after the build is " \
		"the cold stage)"
#define CHECKED "every output equal to the input byte for byte, FNV-1a hash"

#define BZIP2_BLOCK_BYTES 900000
/* The ring variant: segments (many more than the largest K, so lanes
 * refill and the longest segment, about ln(S) times the mean for random
 * starts, is a small tail) and the output chunk size. */
#define APP_RING_SEGMENTS 4096
#define APP_RING_CHUNK_BYTES 1024
#define MIN_FOOTPRINT_BYTES ((size_t)64 << 10)

/* One K's segments and exact start rows. */
struct lanes_plan {
	unsigned k;
	size_t seg[APP_K_MAX + 1];
	uint64_t start[APP_K_MAX];
};

struct walk_ctx {
	const void *table;
	int wide;
	uint8_t *out;
	const uint8_t *text;
	size_t n;
	uint64_t text_hash;
};

size_t app_bwt_text_bytes(size_t footprint_bytes)
{
	size_t rows = footprint_bytes / sizeof(uint32_t);

	if (rows > BWT_NARROW_MAX_ROWS)
		rows = footprint_bytes / sizeof(uint64_t);
	if (rows <= BWT_NARROW_MAX_ROWS && footprint_bytes / sizeof(uint32_t) > BWT_NARROW_MAX_ROWS)
		rows = BWT_NARROW_MAX_ROWS;
	return rows > 1 ? rows - 1 : 1;
}

size_t app_bwt_peak_bytes(size_t n)
{
	/* Suffix sort: text, int32 symbols and array, types, half-size
	 * recursion; later text, BWT, table and output. */
	size_t sort = n + 8 * (n + 1) + n + 4 * n;
	size_t walk = 3 * n + bwt_table_bytes(n + 1);

	return sort > walk ? sort : walk;
}

/* The whole --text file, or one line saying why not. */
static int read_text(const char *path, uint8_t **text, size_t *n, char *err, size_t errlen)
{
	int rc = inputfile_read_all(path, SAIS_MAX_BYTES, text, n, err, errlen);

	if (rc == -EISDIR || rc == -EINVAL || rc == -ENODATA)
		snprintf(err, errlen, "--text: '%s' is %s (expected a file of at least 1 byte)", path,
			 rc == -ENODATA ? "empty" : "not a regular file");
	else if (rc == -EFBIG)
		snprintf(err, errlen, "--text: '%s' has %zu bytes (expected at most %zu)", path, *n, SAIS_MAX_BYTES);
	else if (rc == -EIO)
		snprintf(err, errlen, "--text: '%s' changed size or could not be read", path);
	else if (rc && rc != -ENOMEM)
		snprintf(err, errlen, "--text: cannot read '%s': %s", path, strerror(-rc));
	/* Empty or not a regular file: the argument's fault, one code for both. */
	return rc == -EISDIR || rc == -ENODATA ? -EINVAL : rc;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Segments for each K, and each segment's start row read off the suffix
 * array in one pass: row r starts text position sa[r]. */
static int plan_lanes(const int32_t *sa, size_t n, struct lanes_plan *plans, unsigned nplans)
{
	size_t want[APP_NLANE_SET * (APP_K_MAX + 1)], nwant = 0;
	uint64_t rows[APP_NLANE_SET * (APP_K_MAX + 1)];
	uint64_t *mark = calloc(n / 64 + 1, sizeof(*mark));

	if (!mark)
		return -ENOMEM;
	for (unsigned i = 0; i < nplans; i++) {
		struct lanes_plan *l = &plans[i];

		for (unsigned j = 0; j <= l->k; j++) {
			l->seg[j] = (size_t)((unsigned __int128)n * j / l->k);
			want[nwant++] = l->seg[j];
			mark[l->seg[j] / 64] |= 1ull << (l->seg[j] % 64);
		}
	}
	qsort(want, nwant, sizeof(want[0]), cmp_size);
	for (size_t r = 0; r <= n; r++) {
		size_t pos = (size_t)sa[r];

		if (mark[pos / 64] >> (pos % 64) & 1) {
			size_t *hit = bsearch(&pos, want, nwant, sizeof(want[0]), cmp_size);

			/* Duplicates sort together: fill the whole run. */
			for (size_t *q = hit; q >= want && *q == pos; q--)
				rows[q - want] = r;
			for (size_t *q = hit + 1; q < want + nwant && *q == pos; q++)
				rows[q - want] = r;
		}
	}
	for (unsigned i = 0; i < nplans; i++)
		for (unsigned j = 0; j < plans[i].k; j++) {
			size_t *hit = bsearch(&plans[i].seg[j], want, nwant, sizeof(want[0]), cmp_size);

			plans[i].start[j] = rows[hit - want];
		}
	free(mark);
	return 0;
}

static void walk_full(const struct walk_ctx *w, app_bwt_walk_fn fn, const struct lanes_plan *l)
{
	uint64_t pos[APP_K_MAX];
	size_t m = (size_t)-1;

	for (unsigned i = 0; i < l->k; i++) {
		pos[i] = l->start[i];
		if (l->seg[i + 1] - l->seg[i] < m)
			m = l->seg[i + 1] - l->seg[i];
	}
	fn(w->table, w->out, pos, l->seg, l->k, m);
	app_bwt_walk_tail(w->table, w->wide, w->out, pos, l->seg, l->k, m);
}

/* Every output byte differs from the text before a checked walk, so a walk
 * that skips a byte cannot pass by leaving the right value behind. */
static void poison(const struct walk_ctx *w)
{
	for (size_t i = 0; i < w->n; i++)
		w->out[i] = (uint8_t)~w->text[i];
}

static int check_output(const struct walk_ctx *w, struct app_check *c, const char *variant, unsigned k,
			uint64_t *hash)
{
	size_t i = 0;

	*hash = bwt_hash(w->out, w->n);
	c->runs_checked++;
	if (*hash == w->text_hash && !memcmp(w->out, w->text, w->n))
		return 0;
	while (i < w->n && w->out[i] == w->text[i])
		i++;
	c->ok = false;
	snprintf(c->failure, sizeof(c->failure),
		 "bwt, variant %s, K = %u: output differs from the text at byte %zu of %zu (hash %016llx, "
		 "expected %016llx)", variant, k, i, w->n, (unsigned long long)*hash,
		 (unsigned long long)w->text_hash);
	return -EPROTO;
}

static double seconds_since(uint64_t w0)
{
	return (double)(clock_wall_ns() - w0) / 1e9;
}

/* The ring variant's setup: segments from pseudo-random start rows, and
 * the decoder's own table of which segment starts at which row. */
struct ring_setup {
	struct app_bwt_ring g;
	uint64_t *sorted_rows;           /* start rows ascending ... */
	unsigned *sorted_seg;            /* ... and their segments */
	uint64_t *stop_bits;
	uint64_t *start_row;
};

static int ring_cmp_row(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void ring_free(struct ring_setup *s)
{
	free(s->sorted_rows);
	free(s->sorted_seg);
	free(s->stop_bits);
	free(s->start_row);
	free(s->g.pool);
	free(s->g.seg_first_chunk);
	free(s->g.seg_bytes);
	free(s->g.seg_end_row);
	free(s->g.chunk_next);
	memset(s, 0, sizeof(*s));
}

/* Segment 0 starts at the text's own first row (the decoder's origPtr);
 * the others at distinct pseudo-random rows other than 0. Row 0 (the end
 * of the text) is marked too, so the last segment stops there. */
static int ring_prepare(struct ring_setup *s, const void *table, int wide, size_t n, size_t primary,
			uint64_t seed, bool unmark_end)
{
	size_t rows = n + 1, words = rows / 64 + 1;
	unsigned nsegs = n < APP_RING_SEGMENTS ? (unsigned)n : APP_RING_SEGMENTS;
	struct rng rng;
	uint64_t *pairs;

	memset(s, 0, sizeof(*s));
	s->g.chunk_bytes = APP_RING_CHUNK_BYTES;
	s->g.nchunks = n / APP_RING_CHUNK_BYTES + 2 * (size_t)nsegs + 1;
	if (!(s->stop_bits = calloc(words, sizeof(uint64_t))) || !(s->start_row = malloc(nsegs * sizeof(uint64_t))) ||
	    !(s->sorted_rows = malloc(nsegs * sizeof(uint64_t))) || !(s->sorted_seg = malloc(nsegs * sizeof(unsigned))) ||
	    !(s->g.pool = malloc(s->g.nchunks * s->g.chunk_bytes)) ||
	    !(s->g.seg_first_chunk = malloc(nsegs * sizeof(uint32_t))) ||
	    !(s->g.seg_bytes = malloc(nsegs * sizeof(uint64_t))) ||
	    !(s->g.seg_end_row = malloc(nsegs * sizeof(uint64_t))) ||
	    !(s->g.chunk_next = malloc(s->g.nchunks * sizeof(uint32_t))))
		return -ENOMEM;
	/* Touch the pool now: a first-touch fault in the walk is not its cost. */
	memset(s->g.pool, 0, s->g.nchunks * s->g.chunk_bytes);
	rng_seed(&rng, seed ^ 0x5eedf00dull);
	/* Tests unmark the end to prove the check sees a broken join. */
	s->stop_bits[0] |= !unmark_end;
	s->start_row[0] = primary;
	s->stop_bits[primary / 64] |= 1ull << (primary % 64);
	for (unsigned i = 1; i < nsegs; i++) {
		uint64_t row;

		do
			row = 1 + rng_below(&rng, rows - 1);
		while (s->stop_bits[row / 64] >> (row % 64) & 1);
		s->stop_bits[row / 64] |= 1ull << (row % 64);
		s->start_row[i] = row;
	}
	if (!(pairs = malloc(2 * nsegs * sizeof(uint64_t))))
		return -ENOMEM;
	for (unsigned i = 0; i < nsegs; i++) {
		pairs[2 * i] = s->start_row[i];
		pairs[2 * i + 1] = i;
	}
	qsort(pairs, nsegs, 2 * sizeof(uint64_t), ring_cmp_row);
	for (unsigned i = 0; i < nsegs; i++) {
		s->sorted_rows[i] = pairs[2 * i];
		s->sorted_seg[i] = (unsigned)pairs[2 * i + 1];
	}
	free(pairs);
	s->g.table = table;
	s->g.wide = wide;
	s->g.stop_bits = s->stop_bits;
	s->g.start_row = s->start_row;
	s->g.nsegs = nsegs;
	return 0;
}

/* The segment join: from segment 0, copy each segment's chunks out and go
 * to the segment starting at the row this one stopped at, until row 0.
 * Returns the bytes written, or (size_t)-1 when the chain breaks. */
static size_t ring_join(const struct ring_setup *s, uint8_t *out, size_t n)
{
	const struct app_bwt_ring *g = &s->g;
	unsigned seg = 0;
	size_t pos = 0;

	for (unsigned used = 0; used < g->nsegs; used++) {
		uint64_t left = g->seg_bytes[seg], end = g->seg_end_row[seg];
		const uint64_t *hit;

		if (pos + left > n)
			return (size_t)-1;
		for (uint32_t c = g->seg_first_chunk[seg]; left; c = g->chunk_next[c]) {
			size_t take = left < g->chunk_bytes ? left : g->chunk_bytes;

			memcpy(out + pos, g->pool + (size_t)c * g->chunk_bytes, take);
			pos += take;
			left -= take;
		}
		if (end == 0)
			return pos;
		if (!(hit = bsearch(&end, s->sorted_rows, g->nsegs, sizeof(uint64_t), ring_cmp_row)))
			return (size_t)-1;
		seg = s->sorted_seg[hit - s->sorted_rows];
	}
	return (size_t)-1;
}

struct slot {
	struct app_variant *var;
	struct app_point *pt;
	app_bwt_walk_fn fn;
	const struct lanes_plan *lanes;
	const struct ring_setup *ring;   /* the ring variant: walk, then join */
	unsigned k;
};

/* The ring variant's whole decode: walk then join; false when it broke. */
static bool ring_decode(const struct walk_ctx *w, const struct ring_setup *ring, unsigned k)
{
	return !app_bwt_walk_ring(&ring->g, k) && ring_join(ring, w->out, w->n) == w->n;
}

/* A swept walk of the lanes variants: every lane's first `steps` rows of
 * its segment (fixed work whatever the table's size), in lockstep. */
static void walk_part(const struct walk_ctx *w, app_bwt_walk_fn fn, const struct lanes_plan *l, size_t steps)
{
	uint64_t pos[APP_K_MAX];

	for (unsigned i = 0; i < l->k; i++)
		pos[i] = l->start[i];
	fn(w->table, w->out, pos, l->seg, l->k, steps);
}

/* Rows each lane walks per swept walk: walk_rows split over the lanes,
 * never past the shortest segment; 0: the whole text (walk_full). */
static size_t part_steps(const struct app_params *p, const struct walk_ctx *w, const struct lanes_plan *l)
{
	size_t m = (size_t)-1;

	if (!p->walk_rows || p->walk_rows >= w->n)
		return 0;
	for (unsigned i = 0; i < l->k; i++)
		if (l->seg[i + 1] - l->seg[i] < m)
			m = l->seg[i + 1] - l->seg[i];
	return p->walk_rows / l->k < m ? p->walk_rows / l->k : 0;
}

/* The partial walk's check: each lane's rows equal the text's, nothing
 * else compared (the rest of the output stays poisoned). */
static int check_part(const struct walk_ctx *w, struct app_check *c, const char *variant, const struct lanes_plan *l,
		      size_t steps)
{
	c->runs_checked++;
	for (unsigned i = 0; i < l->k; i++)
		if (memcmp(w->out + l->seg[i], w->text + l->seg[i], steps)) {
			size_t at = l->seg[i];

			while (w->out[at] == w->text[at])
				at++;
			c->ok = false;
			snprintf(c->failure, sizeof(c->failure),
				 "bwt, variant %s, K = %u: lane %u's output differs from the text at byte %zu "
				 "(partial walk of %zu rows per lane)", variant, l->k, i, at, steps);
			return -EPROTO;
		}
	return 0;
}

static int sweep(const struct app_params *p, struct app_kernel_result *r, const struct walk_ctx *w,
		 struct slot *slots, unsigned nslots)
{
	for (unsigned t = 0; t < p->trials; t++)
		for (unsigned i = 0; i < nslots; i++) {
			struct slot *s = &slots[i];
			size_t steps = s->ring ? 0 : part_steps(p, w, s->lanes);
			uint64_t t0, t1, hash;
			int rc;

			if (*p->stop)
				return -EINTR;
			if (t == 0)
				poison(w);
			t0 = clock_now();
			if (s->ring)
				ring_decode(w, s->ring, s->k);
			else if (steps)
				walk_part(w, s->fn, s->lanes, steps);
			else
				walk_full(w, s->fn, s->lanes);
			t1 = clock_now();
			s->pt->trials_ns[s->pt->ntrials++] = clock_ticks_to_ns(p->clock, t1 - t0) /
							     (double)(steps ? steps * s->k : w->n);
			if (t == 0 && steps) {
				if ((rc = check_part(w, &r->check, s->var->name, s->lanes, steps)))
					return rc;
				s->var->output_hash = bwt_hash(w->out, w->n);
			} else if (t == 0) {
				if ((rc = check_output(w, &r->check, s->var->name, s->k, &hash)))
					return rc;
				s->var->output_hash = hash;
			}
		}
	return 0;
}

/* One run's text, its transforms, the table's arena and the lane plans:
 * what the steps below hand on, freed together. */
struct bwt_job {
	uint8_t *text, *bwt, *out;
	int32_t *sa;
	size_t n, rows, primary, table_bytes;
	bool wide;
	const char *input;
	struct arena arena;
	struct lanes_plan plans[APP_NLANE_SET];
	unsigned nplans;
	struct ring_setup ring;
	struct walk_ctx w;
};

static void job_free(struct bwt_job *j)
{
	ring_free(&j->ring);
	free(j->text);
	free(j->sa);
	free(j->bwt);
	free(j->out);
	arena_unmap(&j->arena);
}

/* The text: the --text file, or generated (bzip2's block size with its
 * preset, else as many bytes as the footprint's table has rows). */
static int job_input(const struct app_params *p, struct bwt_job *j, char *err, size_t errlen)
{
	size_t fp = p->footprint_bytes < MIN_FOOTPRINT_BYTES ? MIN_FOOTPRINT_BYTES : p->footprint_bytes;

	if (p->text_path) {
		j->input = "file";
		return read_text(p->text_path, &j->text, &j->n, err, errlen);
	}
	j->n = p->bzip2 ? BZIP2_BLOCK_BYTES : app_bwt_text_bytes(fp);
	j->input = p->bzip2 ? "markov" : textgen_name(p->input);
	if (!(j->text = malloc(j->n)))
		return -ENOMEM;
	textgen_fill(j->text, j->n, p->bzip2 ? TEXTGEN_MARKOV : p->input, p->seed);
	return 0;
}

/* The table's size for the text, and the run's parameters. */
static void job_describe(const struct app_params *p, struct app_kernel_result *r, struct bwt_job *j)
{
	j->rows = j->n + 1;
	j->wide = p->force_wide || bwt_table_wide(j->rows);
	j->table_bytes = j->rows * (j->wide ? sizeof(uint64_t) : sizeof(uint32_t));
	app_footprint_set(p, r, j->table_bytes);
	app_param_text(r, "input", j->input);
	if (p->text_path)
		app_param_text(r, "text_path", p->text_path);
	app_param_num(r, "bzip2_preset", p->bzip2);
	app_param_num(r, "text_bytes", (double)j->n);
	app_param_num(r, "rows", (double)j->rows);
	app_param_num(r, "walk_rows", p->walk_rows && p->walk_rows < j->n ? (double)p->walk_rows : (double)j->n);
	app_param_num(r, "table_word_bytes", j->wide ? 8 : 4);
	app_param_num(r, "table_bytes", (double)j->table_bytes);
	app_param_num(r, "seed", (double)p->seed);
	app_param_num(r, "max_k", p->max_k);
	app_param_text(r, "starts", "exact (from the suffix array), K equal segments, lockstep");
	app_param_text(r, "prefetch", "off");
}

/* Suffix sort, BWT and each K's exact start rows: setup, never part of a
 * walk (the suffix array is freed before the table is mapped). */
static int job_transform(const struct app_params *p, struct app_kernel_result *r, struct bwt_job *j)
{
	uint64_t ws = clock_wall_ns();
	int rc;

	if (!(j->sa = malloc(j->rows * sizeof(*j->sa))) || !(j->bwt = malloc(j->rows)))
		return -ENOMEM;
	if ((rc = sais_build(j->text, j->n, j->sa)))
		return rc;
	app_stage_add(r, "setup: suffix sort (SA-IS)", seconds_since(ws));
	ws = clock_wall_ns();
	sais_bwt(j->text, j->n, j->sa, j->bwt, &j->primary);
	for (unsigned i = 0; i < APP_NLANE_SET && app_lane_set[i] <= p->max_k; i++)
		j->plans[j->nplans++].k = app_lane_set[i];
	if ((rc = plan_lanes(j->sa, j->n, j->plans, j->nplans)))
		return rc;
	free(j->sa);
	j->sa = NULL;
	app_stage_add(r, "setup: BWT and lane start rows", seconds_since(ws));
	return 0;
}

/* The table's arena and the output buffer, poisoned for the first check. */
static int job_map(const struct app_params *p, struct app_kernel_result *r, struct bwt_job *j)
{
	int rc;

	if ((rc = arena_map(&j->arena, j->table_bytes, p->pages)))
		return rc;
	app_arena_record(p, r, &j->arena);
	if (!(j->out = malloc(j->n)))
		return -ENOMEM;
	j->w = (struct walk_ctx){j->arena.base, j->wide, j->out, j->text, j->n, bwt_hash(j->text, j->n)};
	r->check.expected_hash = j->w.text_hash;
	poison(&j->w);
	return 0;
}

/* The decoder's stages, cold: the table built from the BWT, then the
 * first walk over it (largest K, register lanes), timed back to back. */
static int time_cold_decode(const struct app_params *p, struct app_kernel_result *r, struct bwt_job *j)
{
	const struct lanes_plan *last = &j->plans[j->nplans - 1];
	uint64_t t0, t1, t2, hash;
	int rc;

	t0 = clock_now();
	bwt_table_build(j->bwt, j->rows, j->primary, j->arena.base, j->wide);
	t1 = clock_now();
	walk_full(&j->w, p->broken_walk ? p->broken_walk : app_bwt_walk_regs(last->k, j->w.wide), last);
	t2 = clock_now();
	app_stage_add(r, "table build (T-vector)", clock_ticks_to_ns(p->clock, t1 - t0) / 1e9);
	app_stage_add(r, "walk (cold, first after the build, largest K, lanes_regs)",
		      clock_ticks_to_ns(p->clock, t2 - t1) / 1e9);
	app_stage_add(r, "whole inversion (table build + walk)", clock_ticks_to_ns(p->clock, t2 - t0) / 1e9);
	if ((rc = check_output(&j->w, &r->check, "lanes_regs (cold)", last->k, &hash)))
		return rc;
	free(j->bwt);
	j->bwt = NULL;
	return 0;
}

/* The ring: its walk and the join, each timed once here (cold for the
 * ring's pool and marks), then swept as the third variant. */
static int time_cold_ring(const struct app_params *p, struct app_kernel_result *r, struct bwt_job *j)
{
	unsigned k = j->plans[j->nplans - 1].k;
	uint64_t t0, t1, t2, hash;
	bool ring_ok;
	int rc;

	if ((rc = ring_prepare(&j->ring, j->arena.base, j->w.wide, j->n, j->primary, p->seed, p->broken_ring)))
		return rc;
	poison(&j->w);
	t0 = clock_now();
	ring_ok = !app_bwt_walk_ring(&j->ring.g, k);
	t1 = clock_now();
	if (ring_ok)
		ring_join(&j->ring, j->w.out, j->w.n);
	t2 = clock_now();
	/* A broken ring leaves the poisoned output: the check below says so. */
	app_stage_add(r, "ring walk (pseudo-random starts, largest K)", clock_ticks_to_ns(p->clock, t1 - t0) / 1e9);
	app_stage_add(r, "segment join (ring)", clock_ticks_to_ns(p->clock, t2 - t1) / 1e9);
	if ((rc = check_output(&j->w, &r->check, "ring_random_starts (cold)", k, &hash)))
		return rc;
	app_param_num(r, "ring_segments", j->ring.g.nsegs);
	app_param_num(r, "ring_chunk_bytes", (double)j->ring.g.chunk_bytes);
	return 0;
}

/* The three variants and a slot for each (variant, K) they sweep. Returns
 * the slots filled. */
static unsigned variant_slots(const struct app_params *p, struct app_kernel_result *r, struct bwt_job *j,
			      struct slot *slots)
{
	static const char *const variant_names[3] = {"lanes_state", "lanes_regs", "ring_random_starts"};
	static const char *const variant_what[3] = {
		"runtime K: each lane's row and output pointer in a state array",
		"generated: each lane's row and output pointer a named local (spills past the registers)",
		("as a decoder of existing files: 4096 segments from pseudo-random start rows with stop marks, K lanes "
		 "on a ring, chunked output, then the segment join (both timed); K = 1, 4, 16, 32 only")};
	unsigned nslots = 0;

	r->nvariants = 3;
	r->headline_want = "lanes_regs";
	for (unsigned v = 0; v < 3; v++) {
		struct app_variant *var = &r->variants[v];

		var->name = variant_names[v];
		var->what = variant_what[v];
		for (unsigned i = 0; i < j->nplans; i++) {
			const struct lanes_plan *l = &j->plans[i];
			app_bwt_walk_fn fn = v == 1 ? app_bwt_walk_regs(l->k, j->w.wide)
					       : j->w.wide ? app_bwt_walk_state64 : app_bwt_walk_state32;
			struct app_point *pt = &var->points[var->npoints];

			/* The ring sweeps K = 1, 4, 16, 32 only: it keeps the
			 * run under a minute at the default footprint. */
			if (v == 2 && l->k != 1 && l->k != 4 && l->k != 16 && l->k != 32)
				continue;
			if (v == 1 && p->broken_walk)
				fn = p->broken_walk;
			pt->k = l->k;
			pt->dependent_loads_per_item = 1.0;
			pt->loads_per_item = 1.0;
			var->npoints++;
			slots[nslots++] = (struct slot){var, pt, fn, l, v == 2 ? &j->ring : NULL, l->k};
		}
	}
	return nslots;
}

static int bwt_run(const struct app_params *p, struct app_kernel_result *r, char *err, size_t errlen)
{
	struct bwt_job j = {0};
	struct slot slots[3 * APP_NLANE_SET];
	unsigned nslots;
	uint64_t w0 = clock_wall_ns(), ws;
	int rc;

	if ((rc = job_input(p, &j, err, errlen)))
		goto out;
	job_describe(p, r, &j);
	app_stage_add(r, "setup: input", seconds_since(w0));
	if ((rc = job_transform(p, r, &j)))
		goto out;
	r->setup_seconds = seconds_since(w0);

	/* The chase at the table's footprint, before the table is mapped so the
	 * two never hold memory at once. */
	if (p->chase && (rc = app_chase_checked(p, j.table_bytes, "bwt", r)))
		goto out;
	if ((rc = job_map(p, r, &j)) || (rc = time_cold_decode(p, r, &j)) || (rc = time_cold_ring(p, r, &j)))
		goto out;

	/* The sweep: every (variant, K) in one round, trials rounds. */
	ws = clock_wall_ns();
	nslots = variant_slots(p, r, &j, slots);
	if ((rc = sweep(p, r, &j.w, slots, nslots)))
		goto out;
	r->sweep_seconds = seconds_since(ws);
	app_arena_recheck(r, &j.arena);
	app_finish(p, r);
out:
	job_free(&j);
	return rc;
}

const struct app_kernel app_kernel_bwt = {.name = "bwt", .warmth = WARMTH, .check_what = CHECKED, .run = bwt_run};
