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
#include "exp/app.h"

#include "bwt.h"
#include "sais.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BZIP2_BLOCK_BYTES 900000
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

static int read_text(const char *path, uint8_t **text, size_t *n, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	int rc = 0;

	if (!f || fstat(fileno(f), &st)) {
		rc = -errno;
		snprintf(err, errlen, "--text: cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size < 1) {
		rc = -EINVAL;
		snprintf(err, errlen, "--text: '%s' is %s (expected a file of at least 1 byte)", path,
			 S_ISREG(st.st_mode) ? "empty" : "not a regular file");
		goto out;
	}
	if ((uint64_t)st.st_size > SAIS_MAX_BYTES) {
		rc = -EFBIG;
		snprintf(err, errlen, "--text: '%s' has %lld bytes (expected at most %zu)", path,
			 (long long)st.st_size, SAIS_MAX_BYTES);
		goto out;
	}
	*n = (size_t)st.st_size;
	if (!(*text = malloc(*n))) {
		rc = -ENOMEM;
		goto out;
	}
	if (fread(*text, 1, *n, f) != *n) {
		rc = -EIO;
		snprintf(err, errlen, "--text: '%s' changed size or could not be read", path);
	}
out:
	if (f)
		fclose(f);
	return rc;
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

struct slot {
	struct app_variant *var;
	struct app_point *pt;
	app_bwt_walk_fn fn;
	const struct lanes_plan *lanes;
};

static int sweep(const struct app_params *p, struct app_kernel_result *r, const struct walk_ctx *w,
		 struct slot *slots, unsigned nslots)
{
	for (unsigned t = 0; t < p->trials; t++)
		for (unsigned i = 0; i < nslots; i++) {
			struct slot *s = &slots[i];
			uint64_t t0, t1, hash;
			int rc;

			if (*p->stop)
				return -EINTR;
			if (t == 0)
				poison(w);
			t0 = clock_now();
			walk_full(w, s->fn, s->lanes);
			t1 = clock_now();
			s->pt->trials_ns[s->pt->ntrials++] = clock_ticks_to_ns(p->clock, t1 - t0) / (double)w->n;
			if (t == 0) {
				if ((rc = check_output(w, &r->check, s->var->name, s->lanes->k, &hash)))
					return rc;
				s->var->output_hash = hash;
			}
		}
	return 0;
}

int app_bwt_run(const struct app_params *p, struct app_kernel_result *r, char *err, size_t errlen)
{
	static const char *const variant_names[2] = {"lanes_state", "lanes_regs"};
	static const char *const variant_what[2] = {
		"runtime K: each lane's row and output pointer in a state array",
		"generated: each lane's row and output pointer a named local (spills past the registers)"};
	uint8_t *text = NULL, *bwt = NULL, *out = NULL;
	int32_t *sa = NULL;
	struct arena arena = {0};
	struct lanes_plan plans[APP_NLANE_SET];
	struct slot slots[2 * APP_NLANE_SET];
	struct walk_ctx w = {0};
	unsigned nplans = 0, nslots = 0;
	size_t n = 0, primary, rows, table_bytes;
	uint64_t w0 = clock_wall_ns(), ws, t0, t1, t2, hash;
	const char *input;
	int rc;

	memset(r, 0, sizeof(*r));
	r->kernel = "bwt";
	r->trials = p->trials;
	r->warmth = "warm: the table is built once and walked repeatedly (the first walk after the build is "
		    "the cold stage)";
	r->check.ok = true;
	r->check.what = "every output equal to the input byte for byte, FNV-1a hash";

	/* Input. */
	if (p->text_path) {
		if ((rc = read_text(p->text_path, &text, &n, err, errlen)))
			goto out;
		input = "file";
	} else {
		size_t fp = p->footprint_bytes < MIN_FOOTPRINT_BYTES ? MIN_FOOTPRINT_BYTES : p->footprint_bytes;

		n = p->bzip2 ? BZIP2_BLOCK_BYTES : app_bwt_text_bytes(fp);
		input = p->bzip2 ? "markov" : textgen_name(p->input);
		if (!(text = malloc(n))) {
			rc = -ENOMEM;
			goto out;
		}
		textgen_fill(text, n, p->bzip2 ? TEXTGEN_MARKOV : p->input, p->seed);
	}
	rows = n + 1;
	table_bytes = bwt_table_bytes(rows);
	r->footprint_bytes = table_bytes;
	r->may_fit_cache = p->largest_cache_bytes && table_bytes <= p->largest_cache_bytes;
	app_param_text(r, "input", input);
	if (p->text_path)
		app_param_text(r, "text_path", p->text_path);
	app_param_num(r, "bzip2_preset", p->bzip2);
	app_param_num(r, "text_bytes", (double)n);
	app_param_num(r, "rows", (double)rows);
	app_param_num(r, "table_word_bytes", bwt_table_wide(rows) ? 8 : 4);
	app_param_num(r, "table_bytes", (double)table_bytes);
	app_param_num(r, "seed", (double)p->seed);
	app_param_num(r, "max_k", p->max_k);
	app_param_text(r, "starts", "exact (from the suffix array), K equal segments, lockstep");
	app_param_text(r, "prefetch", "off");
	app_stage_add(r, "setup: input", seconds_since(w0));

	/* Suffix sort and BWT: setup, never part of a walk. */
	ws = clock_wall_ns();
	if (!(sa = malloc(rows * sizeof(*sa))) || !(bwt = malloc(rows))) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = sais_build(text, n, sa)))
		goto out;
	app_stage_add(r, "setup: suffix sort (SA-IS)", seconds_since(ws));
	ws = clock_wall_ns();
	sais_bwt(text, n, sa, bwt, &primary);
	for (unsigned i = 0; i < APP_NLANE_SET && app_lane_set[i] <= p->max_k; i++)
		plans[nplans++].k = app_lane_set[i];
	if ((rc = plan_lanes(sa, n, plans, nplans)))
		goto out;
	free(sa);
	sa = NULL;
	app_stage_add(r, "setup: BWT and lane start rows", seconds_since(ws));
	r->setup_seconds = seconds_since(w0);

	/* The chase at the table's footprint, before the table is mapped so the
	 * two never hold memory at once. */
	if (p->chase) {
		if ((rc = app_chase_run(p, table_bytes, &r->chase))) {
			if (rc == -EPROTO) {
				r->check.ok = false;
				snprintf(r->check.failure, sizeof(r->check.failure),
					 "bwt: the chase reference's layout check failed");
			}
			goto out;
		}
	}

	if ((rc = arena_map(&arena, table_bytes, p->pages)))
		goto out;
	r->pages_requested = arena_request_name(p->pages);
	r->total_bytes = arena.bytes;
	r->huge_bytes_obtained = arena.huge_bytes_obtained;
	if (!(out = malloc(n))) {
		rc = -ENOMEM;
		goto out;
	}
	w = (struct walk_ctx){arena.base, bwt_table_wide(rows), out, text, n, bwt_hash(text, n)};
	r->check.expected_hash = w.text_hash;
	poison(&w);

	/* The decoder's stages, cold: the table built from the BWT, then the
	 * first walk over it (largest K, register lanes), timed back to back. */
	t0 = clock_now();
	bwt_table_build(bwt, rows, primary, arena.base);
	t1 = clock_now();
	walk_full(&w, p->broken_walk ? p->broken_walk : app_bwt_walk_regs(plans[nplans - 1].k, w.wide),
		  &plans[nplans - 1]);
	t2 = clock_now();
	app_stage_add(r, "table build (T-vector)", clock_ticks_to_ns(p->clock, t1 - t0) / 1e9);
	app_stage_add(r, "walk (cold, first after the build, largest K, lanes_regs)",
		      clock_ticks_to_ns(p->clock, t2 - t1) / 1e9);
	app_stage_add(r, "whole inversion (table build + walk)", clock_ticks_to_ns(p->clock, t2 - t0) / 1e9);
	if ((rc = check_output(&w, &r->check, "lanes_regs (cold)", plans[nplans - 1].k, &hash)))
		goto out;
	free(bwt);
	bwt = NULL;

	/* The sweep: every (variant, K) in one round, trials rounds. */
	ws = clock_wall_ns();
	r->nvariants = 2;
	for (unsigned v = 0; v < 2; v++) {
		struct app_variant *var = &r->variants[v];

		var->name = variant_names[v];
		var->what = variant_what[v];
		var->npoints = nplans;
		for (unsigned i = 0; i < nplans; i++) {
			app_bwt_walk_fn fn = v ? app_bwt_walk_regs(plans[i].k, w.wide)
					       : w.wide ? app_bwt_walk_state64 : app_bwt_walk_state32;

			if (v && p->broken_walk)
				fn = p->broken_walk;
			var->points[i].k = plans[i].k;
			var->points[i].dependent_loads_per_item = 1.0;
			var->points[i].loads_per_item = 1.0;
			slots[nslots++] = (struct slot){var, &var->points[i], fn, &plans[i]};
		}
	}
	if ((rc = sweep(p, r, &w, slots, nslots)))
		goto out;
	r->sweep_seconds = seconds_since(ws);
	{
		size_t huge_after;

		if (!arena_backing_obtained(&arena, &huge_after) && huge_after < r->huge_bytes_obtained)
			r->huge_bytes_obtained = huge_after;
	}
	app_finish(p, r);
out:
	free(text);
	free(sa);
	free(bwt);
	free(out);
	arena_unmap(&arena);
	return rc;
}
