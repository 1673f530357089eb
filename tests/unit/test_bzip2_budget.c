/*
 * `app bzip2 FILE`'s budget, logic only: the fit's decisions from
 * synthetic decode rates (app_bzip2_fit), the prefix stream a shrunk run
 * decodes (app_bzip2_prefix_stream, on streams libbz2 writes), and the
 * phase deadlines that stop optional trials, through the budget clock's
 * seam (params.wall_ns): a clock that jumps past each phase's share, and
 * the trial counts each phase kept. No figure is asserted.
 */
#include "../harness.h"
#include "bzip2_fixture.h"

#include "bzip2/bz2.h"
#include "bzip2/libbz2_ref.h"
#include "exp/app/bzip2.h"
#include "exp/app/textgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct app_bzip2_params file_params(void)
{
	return (struct app_bzip2_params){
		.path = "user.bz2", .max_k = 32, .trials = 3, .max_workers = 2, .tools = true, .layout = -1,
		.prefetch = -1, .output_fresh = -1, .budget_seconds = 50, .npages = 1, .pages = {PAGES_HUGE},
	};
}

/* ---- the fit ---- */
/* A whole-file decode of t1 seconds at K=1; lanes and the hash as the
 * Zen 5 guest measured them against it. */
static struct app_bzip2_rates rates(double t1)
{
	return (struct app_bzip2_rates){.k1 = t1, .lanes = 0.4 * t1, .hash = 0.2 * t1};
}

TEST(bzip2_budget_fit_shrinks_variants_then_trials_then_blocks)
{
	struct app_bzip2_params q = file_params();
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	size_t file_blocks = 38, last_blocks = file_blocks;
	int stage = 0;  /* 0 nothing, 1 variants, 2 trials, 3 prefix: never goes back */

	if (!r) {
		CHECK(0, "out of memory");
		return;
	}
	for (double t1 = 1e-3; t1 < 1e3; t1 *= 1.25) {
		struct app_bzip2_shrink sh;
		int now;

		struct app_bzip2_rates rt = rates(t1);

		app_bzip2_fit(&q, r, &rt, file_blocks, &sh);
		now = sh.blocks ? 3 : sh.trials < q.trials ? 2 : sh.reduced ? 1 : 0;
		CHECK(now >= stage, "t1 %.3f s: shrink stage %d after %d (the order is variants, trials, prefix)", t1, now,
		      stage);
		CHECK(!sh.blocks || (sh.reduced && sh.trials == 2), "t1 %.3f s: a prefix before the variants and trials",
		      t1);
		CHECK(now == 0 ? !r->shrunk[0] : r->shrunk[0] != 0, "t1 %.3f s: shrunk '%s' at stage %d", t1, r->shrunk,
		      now);
		CHECK(sh.blocks <= last_blocks && sh.blocks < file_blocks, "t1 %.3f s: %zu blocks after %zu of %zu", t1,
		      sh.blocks, last_blocks, file_blocks);
		/* What the run is planned to take fits 90% of the budget unless
		 * even one block does not. */
		CHECK(r->estimated_seconds <= 0.9 * q.budget_seconds * (1 + 1e-9) || sh.blocks == 1,
		      "t1 %.3f s: estimated %.1f s over 90%% of %.0f s with %zu blocks", t1, r->estimated_seconds,
		      q.budget_seconds, sh.blocks);
		CHECK(!sh.blocks || r->estimated_seconds == sh.whole_seconds * (double)sh.blocks / (double)file_blocks,
		      "t1 %.3f s: the prefix's estimate is not the whole's scaled by its blocks", t1);
		stage = now;
		if (sh.blocks)
			last_blocks = sh.blocks;
	}
	CHECK(stage == 3 && last_blocks == 1, "at 1000 s a decode: stage %d, %zu blocks (expected a 1-block prefix)",
	      stage, last_blocks);
	free(r);
}

TEST(bzip2_budget_fit_keeps_what_fits_and_one_block_files_whole)
{
	struct app_bzip2_params q = file_params();
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct app_bzip2_shrink sh;
	struct app_bzip2_rates fast = rates(1e-4), none = rates(0), slow = rates(1e3);

	if (!r) {
		CHECK(0, "out of memory");
		return;
	}
	app_bzip2_fit(&q, r, &fast, 38, &sh);
	CHECK(!sh.reduced && sh.trials == 3 && !sh.blocks && !r->shrunk[0], "a fast file was shrunk: '%s'", r->shrunk);
	app_bzip2_fit(&q, r, &none, 38, &sh);
	CHECK(!sh.reduced && !sh.blocks, "no probe (t1 0) shrank the run: '%s'", r->shrunk);
	app_bzip2_fit(&q, r, &slow, 1, &sh);
	CHECK(sh.reduced && sh.trials == 2 && !sh.blocks, "a one-block file: reduced %d, trials %u, %zu blocks",
	      sh.reduced, sh.trials, sh.blocks);
	q.budget_seconds = 0;
	app_bzip2_fit(&q, r, &slow, 38, &sh);
	CHECK(!sh.reduced && !sh.blocks && r->estimated_seconds > 1e3, "no budget, yet shrunk: '%s'", r->shrunk);
	free(r);
}

/* The model's terms: linear in the rates (a fixed start aside), more for
 * more trials, workers, peers, and for the translation pairs. */
TEST(bzip2_budget_cost_grows_with_each_term)
{
	struct app_bzip2_params q = file_params();
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct app_bzip2_rates zero = rates(0), one = rates(1), two = rates(2);
	struct app_bzip2_shrink sh;
	double c0, c1, c2, base;

	if (!r) {
		CHECK(0, "out of memory");
		return;
	}
	q.budget_seconds = 0;  /* the full plan, nothing shrunk */
	app_bzip2_fit(&q, r, &one, 38, &sh);
	c0 = app_bzip2_cost(&q, r, 3, &zero);
	c1 = app_bzip2_cost(&q, r, 3, &one);
	c2 = app_bzip2_cost(&q, r, 3, &two);
	CHECK(c0 >= 0 && c0 < 1 && c1 > c0, "cost at no rate %.2f s, at 1 s a decode %.2f s", c0, c1);
	CHECK(fabs((c2 - c0) - 2 * (c1 - c0)) < 1e-9 * c2, "not linear in the rates: %.3f, %.3f, %.3f", c0, c1, c2);
	CHECK(c1 == r->estimated_seconds, "the fit's estimate %.3f is not the model's %.3f", r->estimated_seconds, c1);
	CHECK(app_bzip2_cost(&q, r, 2, &one) < c1, "fewer trials cost no less");
	CHECK(c1 > (double)(r->nvariants * 5) * one.lanes, "%u variants of 5 decodes at %.1f s cost only %.1f s",
	      r->nvariants, one.lanes, c1);
	q.tools = false;
	CHECK(app_bzip2_cost(&q, r, 3, &one) < c1, "leaving the peers out costs no less");
	q.tools = true;
	q.max_workers = 4;
	CHECK(app_bzip2_cost(&q, r, 3, &one) > c1, "more workers cost no more");
	q.max_workers = 2;
	base = c1;
	q.npages = 2;
	q.pages[0] = PAGES_SMALL;
	q.pages[1] = PAGES_HUGE;
	app_bzip2_fit(&q, r, &one, 38, &sh);
	/* Two more variants and their pairs: each a warm-up and two decodes
	 * an iteration, over the trials + 2 iterations. */
	CHECK(app_bzip2_cost(&q, r, 3, &one) > base + 2 * (3 + 2 + 1) * 2 * one.lanes,
	      "--pages both costs %.1f s against %.1f s", app_bzip2_cost(&q, r, 3, &one), base);
	free(r);
}

/* ---- the prefix stream ---- */
struct sizes {
	size_t block[64];
	unsigned n;
};

static int block_sizes(void *ctx, unsigned block, const uint8_t *out, size_t bytes, const struct bz2_stage_ticks *t)
{
	struct sizes *s = ctx;

	(void)block, (void)out, (void)t;
	if (s->n < 64)
		s->block[s->n++] = bytes;
	return 0;
}

struct collect {
	uint8_t *p;
	size_t n, cap;
};

static int collect(void *ctx, unsigned block, const uint8_t *out, size_t bytes, const struct bz2_stage_ticks *t)
{
	struct collect *c = ctx;

	(void)block, (void)t;
	if (c->n + bytes > c->cap)
		return 1;
	memcpy(c->p + c->n, out, bytes);
	c->n += bytes;
	return 0;
}

TEST(bzip2_budget_prefix_decodes_to_the_first_blocks, NEEDS_LIBBZ2)
{
	size_t n = 450000, len = 0, ncand = 0, plen = 0, upto = 0;
	uint8_t *text = malloc(n), *z = NULL, *pre;
	uint64_t *cand = NULL;
	struct bz2_decode_opts o = {.walk = {.lanes = 1}};
	struct collect c = {.cap = n};
	struct sizes sz = {.n = 0};
	struct bz2_error e;

	c.p = malloc(n);
	if (!text || !c.p) {
		CHECK(0, "out of memory");
		goto out;
	}
	textgen_fill(text, n, TEXTGEN_MARKOV, 7);
	if (!(z = bzip2_fixture_compress(text, n, 1, &len)) || bz2_decode(z, len, &o, block_sizes, &sz, NULL, &e) ||
	    !(cand = bz2_scan_blocks(z, len, &ncand))) {
		CHECK(0, "could not make the stream");
		goto out;
	}
	CHECK(sz.n >= 4 && ncand == sz.n, "450 kB at level 1: %u blocks, %zu magics", sz.n, ncand);
	for (size_t k = 1; k < ncand; k++) {
		upto += sz.block[k - 1];
		pre = app_bzip2_prefix_stream(z, len, cand, ncand, k, &plen);
		c.n = 0;
		CHECK(pre && bz2_decode(pre, plen, &o, collect, &c, NULL, &e) == 0 && c.n == upto &&
			      !memcmp(c.p, text, upto),
		      "%zu of %zu blocks: %s, %zu bytes of %zu", k, ncand, pre ? e.what : "no prefix", c.n, upto);
		CHECK(!pre || plen < len, "the %zu-block prefix is %zu bytes, the whole %zu", k, plen, len);
		free(pre);
	}
	CHECK(!app_bzip2_prefix_stream(z, len, cand, ncand, 0, &plen), "a prefix of no blocks was made");
	CHECK(!app_bzip2_prefix_stream(z, len, cand, ncand, ncand, &plen), "a prefix of every block was made");
	CHECK(!app_bzip2_prefix_stream(z, len, cand + 1, ncand - 1, 1, &plen),
	      "a prefix whose first block is not after the header was made");
out:
	free(text);
	free(z);
	free(cand);
	free(c.p);
}

/* A prefix reaching into a second stream holds that stream's header: it
 * must not decode (the caller then keeps the whole file). */
TEST(bzip2_budget_prefix_past_the_first_stream_does_not_decode, NEEDS_LIBBZ2)
{
	size_t n = 250000, la = 0, lb = 0, ncand = 0, plen = 0;
	uint8_t *text = malloc(n), *a = NULL, *b = NULL, *both = NULL, *pre = NULL;
	uint64_t *cand = NULL;
	struct bz2_decode_opts o = {.walk = {.lanes = 1}};
	struct bz2_error e;

	if (!text) {
		CHECK(0, "out of memory");
		return;
	}
	textgen_fill(text, n, TEXTGEN_MARKOV, 8);
	a = bzip2_fixture_compress(text, n, 1, &la);
	b = bzip2_fixture_compress(text, 50000, 1, &lb);
	if (!a || !b || !(both = malloc(la + lb))) {
		CHECK(0, "could not make the streams");
		goto out;
	}
	memcpy(both, a, la);
	memcpy(both + la, b, lb);
	if (!(cand = bz2_scan_blocks(both, la + lb, &ncand)) || ncand < 4) {
		CHECK(0, "the scan found %zu blocks", ncand);
		goto out;
	}
	/* Stream a holds ncand - 1 blocks; the prefix of all of them and b's. */
	pre = app_bzip2_prefix_stream(both, la + lb, cand, ncand, ncand - 1, &plen);
	CHECK(pre && bz2_decode(pre, plen, &o, NULL, NULL, NULL, &e) == -1,
	      "a prefix into the second stream decoded (%zu blocks of %zu)", ncand - 1, ncand);
out:
	free(text);
	free(a);
	free(b);
	free(both);
	free(cand);
	free(pre);
}

/* ---- the phase deadlines ---- */
static uint64_t fake_after_ns, fake_calls;

/* The budget's clock: 0 when the run starts, then fake_after_ns for good. */
static uint64_t fake_clock(void)
{
	return fake_calls++ ? fake_after_ns : 0;
}

TEST(bzip2_budget_past_each_share)
{
	static const double share[] = {0.55, 0.65, 0.75, 0.9};
	struct app_bzip2_params p = {.budget_seconds = 100, .wall_ns = fake_clock};

	for (unsigned ph = 0; ph < 4; ph++) {
		fake_calls = 1;
		fake_after_ns = (uint64_t)((share[ph] * 100 - 0.1) * 1e9);
		CHECK(!app_bzip2_past(&p, (enum app_bzip2_phase)ph), "phase %u past at %.1f s of 100", ph,
		      share[ph] * 100 - 0.1);
		fake_after_ns = (uint64_t)((share[ph] * 100 + 0.1) * 1e9);
		CHECK(app_bzip2_past(&p, (enum app_bzip2_phase)ph), "phase %u not past at %.1f s of 100", ph,
		      share[ph] * 100 + 0.1);
	}
	p.budget_seconds = 0;
	fake_after_ns = (uint64_t)1e15;
	CHECK(!app_bzip2_past(&p, APP_BZ2_PHASE_VARIANTS), "no budget, yet past");
}

/* One run of the generated input, narrowed to K=1 and the decode axes at
 * it, with the translation pair, its budget clock at `after` seconds from
 * the first read on. */
static struct app_bzip2_result *phase_run(double after, bool tools)
{
	struct app_bzip2_params p = {
		.default_text_bytes = 60000, .max_k = 1, .trials = 5, .max_workers = 1, .tools = tools, .only_k = 1,
		.layout = -1, .prefetch = -1, .output_fresh = -1, .seed = 1, .budget_seconds = 10,
		.pages = {PAGES_SMALL, PAGES_HUGE}, .npages = 2, .clock = test_stub_clock(), .wall_ns = fake_clock,
	};
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	char err[256];

	fake_calls = 0;
	fake_after_ns = (uint64_t)(after * 1e9);
	if (r && app_bzip2_run(&p, r, err, sizeof(err))) {
		free(r);
		return NULL;
	}
	return r;
}

static unsigned fewest_trials(const struct app_bzip2_result *r, unsigned *most)
{
	unsigned least = ~0u;

	*most = 0;
	for (unsigned i = 0; i < r->nvariants; i++) {
		least = r->variants[i].ntrials < least ? r->variants[i].ntrials : least;
		*most = r->variants[i].ntrials > *most ? r->variants[i].ntrials : *most;
	}
	return least;
}

TEST(bzip2_budget_phases_stop_their_optional_trials, NEEDS_LIBBZ2 | NEEDS_HOST)
{
	struct app_bzip2_result *r;
	unsigned least, most;

	/* Never past: every trial of every phase. */
	if (!(r = phase_run(0, false))) {
		CHECK(0, "the run failed");
		return;
	}
	least = fewest_trials(r, &most);
	CHECK(least == 6 && most == 6, "variants kept %u..%u trials of 6 (cold + 5)", least, most);
	CHECK(r->libbz2_ntrials == 5, "libbz2 kept %u of 5", r->libbz2_ntrials);
	CHECK(r->ntranslations == 1 && r->translations[0].npaired == 7, "%u translation pairs, %u iterations of 7",
	      r->ntranslations, r->ntranslations ? r->translations[0].npaired : 0);
	free(r);
	/* Past the variants' 55% (at 60%), not libbz2's 65%. */
	if (!(r = phase_run(6, false))) {
		CHECK(0, "the run failed");
		return;
	}
	least = fewest_trials(r, &most);
	CHECK(least == 2 && most == 2, "past 55%%: variants kept %u..%u trials (expected the cold and one warm)",
	      least, most);
	CHECK(r->libbz2_ntrials == 5, "at 60%% libbz2 kept %u of 5 (its share is 65%%)", r->libbz2_ntrials);
	CHECK(r->ntranslations == 1 && r->translations[0].npaired == 3, "past 55%%: %u pair iterations (expected 3)",
	      r->ntranslations ? r->translations[0].npaired : 0);
	free(r);
	/* Past every share: one libbz2 trial, the peers left out unrun. */
	if (!(r = phase_run(100, true))) {
		CHECK(0, "the run failed");
		return;
	}
	least = fewest_trials(r, &most);
	CHECK(least == 2 && most == 2, "past all: variants kept %u..%u trials", least, most);
	CHECK(r->libbz2_ntrials == 1, "past all: libbz2 kept %u trials (expected 1)", r->libbz2_ntrials);
	CHECK(r->tools_skipped && r->ntools == 0, "past all: peers skipped %d, %u run", r->tools_skipped, r->ntools);
	free(r);
}

/* The overlap variants priced by what they run: the interleave as the same
 * walk in turn (one core does both), the scout by the slower of its two
 * sides (the probe's front against the rest), and as in turn when no front
 * was probed; never as a plain-paths decode. */
TEST(bzip2_budget_cost_prices_overlaps_by_what_they_run)
{
	struct app_bzip2_params q = file_params();
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct app_bzip2_rates rt = {.k1 = 1, .lanes = 0.4, .hash = 0.2, .front = 0.1};
	double turn, inter, scout, scout_even, scout_none;

	if (!r) {
		CHECK(0, "out of memory");
		return;
	}
	q.max_workers = 0;
	q.tools = false;
	r->nvariants = 1;
	r->pages = PAGES_HUGE;
	r->variants[0] = (struct app_bzip2_variant){.k = 16, .segments = 64, .layout = BZ2_LAYOUT_REGISTERS,
						    .prefetch = BZ2_PREFETCH_NEXT, .pages = PAGES_HUGE};
	turn = app_bzip2_cost(&q, r, 3, &rt);
	r->variants[0].overlap = BZ2_OVERLAP_INTERLEAVE;
	inter = app_bzip2_cost(&q, r, 3, &rt);
	r->variants[0].overlap = BZ2_OVERLAP_SCOUT;
	scout = app_bzip2_cost(&q, r, 3, &rt);           /* front 25%: the back's 75% sets the pace */
	rt.front = 0.2;
	scout_even = app_bzip2_cost(&q, r, 3, &rt);      /* 50% each: the best a pipeline does */
	rt.front = 0;
	scout_none = app_bzip2_cost(&q, r, 3, &rt);
	CHECK(fabs(inter - turn) < 1e-12, "interleave %.4f s, in turn %.4f s: one core runs the same work", inter,
	      turn);
	CHECK(scout < turn && scout_even < scout, "scout %.4f s (front 25%%), %.4f s (50%%), in turn %.4f s", scout,
	      scout_even, turn);
	CHECK(fabs(scout_none - turn) < 1e-12, "no front probed: scout %.4f s, in turn %.4f s", scout_none, turn);
	r->variants[0].plain = BZ2_PLAIN_ALL;
	r->variants[0].overlap = BZ2_OVERLAP_INTERLEAVE;
	rt.front = 0.1;
	CHECK(fabs(app_bzip2_cost(&q, r, 3, &rt) - inter) < 1e-12, "an overlap priced as a plain-paths decode");
	free(r);
}

/* A scratch folder (tag) holding `streams` empty streams in one file, as
 * the user's file of q: 0, or -1 (dir empty when there is none). */
static int empty_input(struct app_bzip2_params *q, char *dir, size_t dirlen, char *path, size_t pathlen,
		       const char *tag, unsigned streams)
{
	test_scratch_make(dir, dirlen, tag);
	if (!dir[0])
		return -1;
	snprintf(path, pathlen, "%s/empty.bz2", dir);
	q->path = path;
	q->count_instructions = true;
	return bzip2_fixture_empty_streams(path, streams);
}

/* An empty stream has no block to probe and decodes nothing: it is priced
 * at the run's fixed costs, not left unpriced (the plan's fallback priced
 * it as a full default input, 10-42 s against the 2 s it takes). */
TEST(bzip2_budget_empty_stream_is_priced_by_its_blocks)
{
	struct app_bzip2_params q = file_params();
	char dir[256], path[300], err[200];
	struct app_bzip2_estimate s = {.seconds = -1};
	int rc;

	CHECK(empty_input(&q, dir, sizeof(dir), path, sizeof(path), "bzempty", 1) == 0, "%s", path);
	rc = app_bzip2_estimate(&q, &s, err, sizeof(err));
	test_scratch_remove(dir, "bzempty");
	CHECK(rc == 0 && s.empty && s.seconds > 0 && s.seconds < 1, "rc %d, %.3f s estimated (empty %d): %s", rc,
	      s.seconds, s.empty, rc ? err : "");
}

/* Two empty streams, one after the other: both counted (the second's
 * header is followed by the end-of-stream magic, not a block's), both
 * checked against libbz2, and nothing timed. */
TEST(bzip2_run_of_empty_streams_counts_them_and_times_nothing, NEEDS_LIBBZ2)
{
	struct app_bzip2_params q = file_params();
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	char dir[256], path[300], err[200] = "";
	int rc;

	CHECK(r, "no memory");
	CHECK(empty_input(&q, dir, sizeof(dir), path, sizeof(path), "bzempty2", 2) == 0, "%s", path);
	q.process_rounds = 5;
	rc = app_bzip2_run(&q, r, err, sizeof(err));
	test_scratch_remove(dir, "bzempty2");
	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(r->streams == 2 && r->blocks == 0 && r->decoded_bytes == 0, "%u streams, %u blocks, %zu bytes",
	      r->streams, r->blocks, r->decoded_bytes);
	CHECK(r->nvariants == 0 && r->ntools == 0 && r->nworkers == 0 && r->libbz2_ntrials == 0,
	      "timed on no block: %u variants, %u peers, %u worker rows, %u libbz2 trials", r->nvariants, r->ntools,
	      r->nworkers, r->libbz2_ntrials);
	free(r);
}
