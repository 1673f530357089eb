/*
 * The tlb section: the step finder on synthetic curves (a step found at the
 * plateau's end, a lone last point not taken for a level, noise under the
 * tolerance not taken for a step), the JSON keys the issue fixed, and a
 * hardware check (make validate): a real sweep on small pages has a first
 * step and a page-walk plateau above it.
 */
#include "../harness.h"

#include "core/chain.h"
#include "core/clock.h"
#include "util/rng.h"
#include "exp/tlb.h"
#include "report/tlb_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fill(struct tlb_series *s, const unsigned *pages, const double *extra, unsigned n)
{
	memset(s, 0, sizeof(*s));
	s->page_bytes = 4096;
	s->npoints = n;
	for (unsigned i = 0; i < n; i++) {
		s->points[i].pages = pages[i];
		s->points[i].control_ns = 1.0;
		s->points[i].extra_ns = extra[i];
		s->points[i].ns_per_load = 1.0 + extra[i];
	}
}

static const unsigned pages[] = {8, 16, 32, 64, 91, 128, 256, 512, 1024, 2048, 2896, 4096, 8192, 16384, 32768};

TEST(tlb_steps_at_plateau_ends_with_cumulative_extra)
{
	static struct tlb_series s;
	const double extra[] = {0, 0, 0.01, 0, 1.9, 1.9, 1.92, 1.88, 2.1, 2.2, 5.0, 14, 27, 27.5, 70};

	fill(&s, pages, extra, 15);
	tlb_find_steps(&s, 10.0);
	CHECK(s.nlevels == 2, "%u steps", s.nlevels);
	CHECK(s.levels[0].entries == 64 && s.levels[0].reach_bytes == 64 * 4096 && fabs(s.levels[0].extra_ns - 1.9) < 0.1,
	      "step 1 at %u, %.2f ns", s.levels[0].entries, s.levels[0].extra_ns);
	CHECK(s.levels[1].entries == 2048 && s.levels[1].extra_ns > 26 && s.levels[1].extra_ns < 28,
	      "step 2 at %u, %.2f ns", s.levels[1].entries, s.levels[1].extra_ns);
	/* 70 ns at the last count alone is a rise not seen to settle. */
	CHECK(fabs(s.walk_ns - s.levels[1].extra_ns) < 1e-9 && !s.walk_on_plateau && s.max_extra_ns == 70,
	      "walk %.2f, on plateau %d, max %.2f", s.walk_ns, s.walk_on_plateau, s.max_extra_ns);
}

TEST(tlb_noise_under_the_tolerance_is_no_step)
{
	static struct tlb_series s;
	const double flat[] = {0, 0.1, 0, 0.2, 0.1, 0, 0.15, 0.1, 0, 0.2, 0.1, 0, 0.2, 0.1, 0.05};

	fill(&s, pages, flat, 15);
	tlb_find_steps(&s, 10.0);
	CHECK(s.nlevels == 0 && isnan(s.walk_ns), "%u steps on a flat curve", s.nlevels);
}

TEST(tlb_huge_reach_is_effective_only_without_the_small_page_steps)
{
	static struct tlb_series sm, hg;
	const double steps[] = {0, 0, 0.01, 0, 1.9, 1.9, 1.92, 1.88, 2.1, 2.2, 5.0, 14, 27, 27.5, 27.2};
	const double flat[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0, 0};
	bool eff = true;

	fill(&sm, pages, steps, 15);
	tlb_find_steps(&sm, 10.0);
	/* The guest's case: 2 MiB pages step where 4 KiB pages do. */
	fill(&hg, pages, steps, 15);
	tlb_find_steps(&hg, 10.0);
	CHECK(tlb_huge_reach_effective(&sm, &hg, &eff) && !eff, "same steps read as effective");
	/* Bare metal: no step within 128 MiB. */
	fill(&hg, pages, flat, 15);
	tlb_find_steps(&hg, 10.0);
	CHECK(tlb_huge_reach_effective(&sm, &hg, &eff) && eff, "no huge-page step read as not effective");
	/* No small-page step: nothing to compare with. */
	fill(&sm, pages, flat, 15);
	tlb_find_steps(&sm, 10.0);
	CHECK(!tlb_huge_reach_effective(&sm, &hg, &eff), "a verdict without a small-page step");
}

TEST(tlb_json_has_the_keys_the_issue_names)
{
	static struct tlb_result r;
	const double extra[] = {0, 0, 0.01, 0, 1.9, 1.9, 1.92, 1.88, 2.1, 2.2, 5.0, 14, 27, 27.5, 27.2};
	struct jsonw w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static const char *keys[] = {"\"tlb\"", "\"points\"", "\"pages\"", "\"page_bytes\"", "\"ns_per_load\"",
				     "\"levels\"", "\"entries\"", "\"reach_bytes\"", "\"extra_ns\"",
				     "\"huge_reach_effective\": false", "\"reported\""};

	CHECK(f, "open_memstream");
	r.nseries = 2;
	fill(&r.series[0], pages, extra, 15);
	fill(&r.series[1], pages, extra, 15);
	r.series[1].page_bytes = (size_t)2 << 20;
	tlb_find_steps(&r.series[0], 10);
	tlb_find_steps(&r.series[1], 10);
	r.huge_reach_known = true;
	r.stride_bytes = 4096;
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	tlb_write_json(&r, &w, "tlb");
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(f);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strstr(buf, keys[i])) {
			free(buf);
			CHECK(0, "no %s in the tlb JSON", keys[i]);
		}
	free(buf);
}

VALIDATE(tlb_shape_small_pages_step_and_walk_above_it)
{
	static struct tlb_result r;
	struct clock_info c;
	struct tlb_params p = {.noise_floor_pct = 10, .seed = 3, .points_per_octave = 2, .trials = 3};
	int rc;

	clock_init(&c);
	p.clock = &c;
	rc = tlb_run(&p, &r);
	CHECK(rc == 0, "tlb_run: %s", strerror(-rc));
	/* Assumes a TLB that runs out within the sweep: 128 MiB of 4 KiB pages. */
	if (r.series[0].nlevels == 0)
		SKIP("no TLB step on small pages up to %u pages (a TLB reaching further, or a floor hiding it)",
		     r.series[0].points[r.series[0].npoints - 1].pages);
	for (unsigned k = 1; k < r.series[0].nlevels; k++)
		CHECK(r.series[0].levels[k].entries > r.series[0].levels[k - 1].entries &&
		      r.series[0].levels[k].extra_ns > r.series[0].levels[k - 1].extra_ns, "steps not ascending");
	CHECK(r.series[0].walk_ns > r.series[0].first_extra_ns, "walk %.2f not above the first plateau %.2f",
	      r.series[0].walk_ns, r.series[0].first_extra_ns);
	snprintf(tctx->message, sizeof(tctx->message), "small: first step %u pages (+%.2f ns), walk +%.2f ns; "
		 "huge reach %s; %.1f s", r.series[0].levels[0].entries, r.series[0].levels[0].extra_ns,
		 r.series[0].walk_ns, !r.huge_reach_known ? "unknown" : r.huge_reach_effective ? "effective" : "not effective",
		 r.seconds);
}

/* A floor high enough to swallow the L1 TLB's few-ns step: the first step
 * found is the second level's, past 1.5x the CPU's reported 96 entries, so
 * the series says its steps were hidden; at the least tolerance the same
 * curve finds the small step and hides nothing. */
TEST(tlb_a_high_floor_that_swallows_the_first_step_says_so)
{
	static struct tlb_result r;
	/* The L1 miss adds 2 ns to a 4 ns load (50%); the page walk 50 ns. */
	const double extra[] = {0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 50, 50, 50};

	for (unsigned pass = 0; pass < 2; pass++) {
		memset(&r, 0, sizeof(r));
		fill(&r.series[0], pages, extra, 15);
		for (unsigned i = 0; i < 15; i++) {
			r.series[0].points[i].control_ns = 4.0;
			r.series[0].points[i].trials_ns[0] = 4.0 + extra[i];
			r.series[0].points[i].ntrials = 1;
		}
		r.nseries = 1;
		r.nreported = 1;
		r.reported[0] = (struct cpu_tlb){.level = 1, .type = "data", .page_bytes = 4096, .entries = 96};
		r.tolerance_pct = pass ? 64.0 : TLB_MIN_TOLERANCE_PCT;
		tlb_analyse(&r);
		if (pass)
			CHECK(r.series[0].steps_hidden && r.series[0].nlevels && r.series[0].levels[0].entries > 96 * 3 / 2,
			      "floor 64%%: hidden %d, first step at %u", r.series[0].steps_hidden,
			      r.series[0].nlevels ? r.series[0].levels[0].entries : 0);
		else
			CHECK(!r.series[0].steps_hidden && r.series[0].nlevels == 2 && r.series[0].levels[0].entries == 91,
			      "floor 10%%: hidden %d, %u steps, first at %u", r.series[0].steps_hidden, r.series[0].nlevels,
			      r.series[0].nlevels ? r.series[0].levels[0].entries : 0);
	}
}

/* Huge pages with no step because the floor hid it are no evidence of
 * huge-page reach: unknown, not "yes". */
TEST(tlb_huge_reach_is_unknown_when_the_floor_hid_the_huge_steps)
{
	static struct tlb_series sm, hg;
	const double stepped[] = {0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 50, 50, 50};
	bool eff = true;

	fill(&sm, pages, stepped, 15);
	tlb_find_steps(&sm, 10.0);
	fill(&hg, pages, stepped, 15);
	hg.page_bytes = 2u << 20;
	tlb_find_steps(&hg, 5000.0);
	CHECK(sm.nlevels && !hg.nlevels && hg.steps_hidden, "small %u steps, huge %u (hidden %d)", sm.nlevels,
	      hg.nlevels, hg.steps_hidden);
	CHECK(!tlb_huge_reach_effective(&sm, &hg, &eff) && !eff, "reach judged from steps the floor hid");
}

/* One load per page, line rotating: what node_offset writes for chain 0. */
static size_t offset_per_page(size_t k)
{
	return k * 4096 + (k % 64) * 64;
}

/* A stray factor: k / 2 where k was meant, so nodes pair up on one line
 * (each pair in two words of it) and half the loads hit the cache. */
static size_t offset_stray_factor(size_t k)
{
	return (k / 2) * 4096 + ((k / 2) % 64) * 64 + (k % 2) * sizeof(uintptr_t);
}

static void write_chain(char *base, size_t nodes, size_t (*off)(size_t))
{
	uint32_t *succ = malloc(nodes * sizeof(*succ));
	struct rng g;

	if (!succ)
		abort();
	rng_seed(&g, 1);
	perm_sattolo(succ, nodes, &g);
	for (size_t k = 0; k < nodes; k++)
		*(uintptr_t *)(base + off(k)) = (uintptr_t)(base + off(succ[k]));
	free(succ);
}

TEST(tlb_layout_walk_fails_on_a_stray_factor_in_the_offset)
{
	size_t nodes = 256;
	char *base = calloc(nodes, 4096);
	struct layout_check c;

	CHECK(base != NULL, "no memory");
	write_chain(base, nodes, offset_per_page);
	CHECK(tlb_layout_walk((uintptr_t)base, nodes, &c) == 0, "walk");
	CHECK(c.ok && c.steps_walked == nodes && c.distinct_lines_walked == nodes, "sound layout: %zu steps, %zu lines",
	      c.steps_walked, c.distinct_lines_walked);
	memset(base, 0, nodes * 4096);
	write_chain(base, nodes, offset_stray_factor);
	CHECK(tlb_layout_walk((uintptr_t)base, nodes, &c) == 0, "walk");
	free(base);
	CHECK(!c.ok && c.closed && c.distinct_nodes_walked == nodes && c.distinct_lines_walked == nodes / 2,
	      "stray factor: ok %d, %zu nodes, %zu lines", c.ok, c.distinct_nodes_walked, c.distinct_lines_walked);
}

/* A curve that falls 30% at one count against a 10% floor: flagged in the
 * series, in the text and in the JSON; the same curve with a 40% floor is
 * not. */
TEST(tlb_a_curve_falling_past_the_floor_is_flagged_non_monotonic)
{
	static struct tlb_result r;
	const double extra[] = {0, 0, 0.01, 0, 1.9, 1.9, 1.92, 1.88, 2.1, 2.2, 5.0, 14, 27, 18, 27.2};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct jsonw w;
	bool text_ok, json_ok;

	r.nseries = 1;
	r.stride_bytes = 4096;
	r.noise_floor_pct = r.tolerance_pct = 10;
	fill(&r.series[0], pages, extra, 15);
	for (unsigned i = 0; i < 15; i++) {
		r.series[0].points[i].trials_ns[0] = r.series[0].points[i].ns_per_load;
		r.series[0].points[i].ntrials = 1;
	}
	tlb_analyse(&r);
	CHECK(r.nfalls == 1 && r.series[0].nfalls == 1 && r.series[0].falls[0].x == pages[13] &&
	      fabs(r.series[0].falls[0].ref_y - 28.0) < 1e-9, "falls %u, at %.0f pages", r.nfalls, r.series[0].falls[0].x);
	f = open_memstream(&buf, &len);
	CHECK(f, "open_memstream");
	tlb_write_text(&r, f);
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	tlb_write_json(&r, &w, "tlb");
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(f);
	text_ok = strstr(buf, "NON-MONOTONIC: small pages fall 28.0 -> 19.0 ns") != NULL;
	json_ok = strstr(buf, "\"non_monotonic_found\": 1") && strstr(buf, "\"ref_ns_per_load\"");
	free(buf);
	CHECK(text_ok && json_ok, "text %d, json %d", text_ok, json_ok);
	r.noise_floor_pct = 40;
	tlb_analyse(&r);
	CHECK(r.nfalls == 0, "a 30%% fall flagged under a 40%% floor");
}
