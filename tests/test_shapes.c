/*
 * Hardware checks (VALIDATE, make validate): short real runs that assert
 * shapes, never values, with the tolerance taken from the noise floor each
 * run measures for itself; each names the property of the CPU it assumes.
 */
#include "harness.h"

#include "arch/arch.h"
#include "core/arena.h"
#include "core/chain.h"
#include "core/clock.h"
#include "core/stats.h"
#include "exp/mlp.h"
#include "core/topo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t never_stop;
static struct clock_info test_clock;

static void ensure_clock(void)
{
	if (test_clock.ticks_per_ns == 0)
		clock_init(&test_clock);
}

static struct mlp_params small_dram_params(void)
{
	struct topo t;
	size_t ws = 256u << 20;

	topo_read(&t);
	/* DRAM-sized: at least 4x the largest cache the OS reports. */
	while (ws < 4 * topo_largest_cache_bytes(&t))
		ws *= 2;
	ensure_clock();
	return (struct mlp_params){
		.working_set_bytes = ws, .spacing_bytes = 64, .line_bytes = 64, .pages = PAGES_HUGE,
		.max_lanes = 8, .repeats = 1, .trials = 9, .accesses = 1u << 16, .seed = 3,
		.clock = &test_clock, .stop = &never_stop,
	};
}

static struct mlp_result result;

VALIDATE(shape_eight_lanes_beat_one_and_unrolled_chain_does_not_overlap)
{
	struct mlp_params p = small_dram_params();
	int rc = mlp_run(&p, &result);
	double tol, t1, t2, t8, c2;

	CHECK(rc == 0, "mlp_run: %s", strerror(-rc));
	CHECK(result.layout.ok, "layout check failed on a linear layout");
	CHECK(result.npoints == 8 && result.ncontrol == 4, "points %u control %u", result.npoints, result.ncontrol);
	tol = result.noise_floor_pct / 100.0;
	CHECK(isfinite(tol), "no noise floor measured");
	t1 = result.sweep[0].ns_per_access;
	t2 = result.sweep[1].ns_per_access;
	t8 = result.sweep[7].ns_per_access;
	c2 = result.control[1].ns_per_access;
	CHECK(t8 * (1 + tol) < t1, "8 lanes %.2f ns vs 1 lane %.2f ns (floor %.1f%%)", t8, t1, 100 * tol);
	CHECK(c2 >= t2 * (1 - tol), "unrolled x2 %.2f ns faster than 2 lanes %.2f ns (floor %.1f%%)", c2, t2,
	      100 * tol);
	snprintf(tctx->message, sizeof(tctx->message),
		 "t1 %.1f ns, t2 %.1f, t8 %.1f, unrolled2 %.1f, floor %.1f%%", t1, t2, t8, c2, 100 * tol);
	mlp_result_free(&result);
}

static size_t colliding_offset(size_t node, size_t spacing)
{
	return node * spacing + spacing * (node % 64);
}

VALIDATE(shape_broken_layout_is_refused_by_the_experiment)
{
	struct mlp_params p = small_dram_params();
	int rc;

	p.working_set_bytes = 16u << 20;
	p.layout = colliding_offset;
	rc = mlp_run(&p, &result);
	CHECK(rc == -EPROTO, "a colliding layout was measured (rc %d)", rc);
	CHECK(result.layout.distinct_lines_walked < result.layout.nodes, "walked %zu lines of %zu",
	      result.layout.distinct_lines_walked, result.layout.nodes);
	snprintf(tctx->message, sizeof(tctx->message), "refused: %zu distinct lines walked of %zu",
		 result.layout.distinct_lines_walked, result.layout.nodes);
	mlp_result_free(&result);
}

static int read_thp_mode(char *mode, size_t len)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char buf[128], *l, *r;

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r)
		return -1;
	snprintf(mode, len, "%.*s", (int)(r - l - 1), l + 1);
	return 0;
}

VALIDATE(arena_reports_the_backing_it_obtained)
{
	struct arena a;
	char mode[32];

	CHECK(arena_map(&a, 64u << 20, PAGES_SMALL) == 0, "map small");
	CHECK(a.huge_bytes_obtained == 0, "MADV_NOHUGEPAGE arena reports %zu huge bytes", a.huge_bytes_obtained);
	arena_unmap(&a);
	if (read_thp_mode(mode, sizeof(mode)))
		SKIP("no transparent huge pages on this kernel (no /sys/kernel/mm/transparent_hugepage)");
	if (!strcmp(mode, "never"))
		SKIP("transparent huge pages are 'never' here: a huge request cannot be honoured");
	CHECK(arena_map(&a, 64u << 20, PAGES_HUGE) == 0, "map huge");
	CHECK(a.huge_bytes_obtained > 0 && a.huge_bytes_obtained <= a.bytes,
	      "THP '%s' but %zu of %zu bytes huge", mode, a.huge_bytes_obtained, a.bytes);
	snprintf(tctx->message, sizeof(tctx->message), "THP %s: %zu of %zu bytes huge", mode,
		 a.huge_bytes_obtained, a.bytes);
	arena_unmap(&a);
}

VALIDATE(clock_agrees_with_monotonic_raw)
{
	uint64_t w0, w1, c0, c1;
	double ratio, tol;

	ensure_clock();
	CHECK(test_clock.ticks_per_ns > 0, "ticks_per_ns %g", test_clock.ticks_per_ns);
	w0 = clock_wall_ns();
	c0 = clock_now();
	do
		w1 = clock_wall_ns();
	while (w1 - w0 < 50000000u);
	c1 = clock_now();
	ratio = clock_ticks_to_ns(&test_clock, c1 - c0) / (double)(w1 - w0);
	/* The tolerance is the calibration's own spread, plus the two reads'
	 * placement error over 50 ms. */
	tol = 3 * test_clock.calibration_spread_pct / 100.0 + 0.01;
	CHECK(fabs(ratio - 1) <= tol, "counter/raw over 50 ms = %.4f (tolerance %.2f%%)", ratio, 100 * tol);
	CHECK(test_clock.min_region_ns >= 100 * clock_ticks_to_ns(&test_clock, test_clock.empty_region_ticks),
	      "min region %.1f ns is under 100x the empty region", test_clock.min_region_ns);
}

/* Dependent loads a timed region holds in the fence check: about 3 us of
 * DRAM misses, far above the counter's resolution, and few enough that the
 * loop and the closing read fit in any reorder buffer we know of, so an
 * unfenced read can really run ahead of them. */
#define FENCE_HOPS 32
#define FENCE_ROUNDS 300
#define FENCE_BLOCKS 6
#define FENCE_LEAD_IN (1 << 20)

static uintptr_t chase_hops(uintptr_t p)
{
	for (int i = 0; i < FENCE_HOPS; i++)
		p = *(volatile uintptr_t *)p;
	return p;
}

/* The timer without its fence reads a different (shorter) region: the
 * closing read runs ahead of the misses it should follow. Paired: each
 * round times a fenced region and an unfenced one over the next stretches
 * of one chain and divides inside the round (each region walks fresh
 * misses, so the two arms never share a warm stretch). */
VALIDATE(clock_without_its_fence_reads_a_shorter_region)
{
	static double fenced[FENCE_ROUNDS], unfenced[FENCE_ROUNDS], ratio[FENCE_ROUNDS], block[FENCE_BLOCKS],
		fenced_block[FENCE_BLOCKS];
	struct mlp_params p = small_dram_params();
	struct layout_check check;
	struct chain ch;
	struct arena a;
	uintptr_t node;
	double floor_pct, median;
	char figures[300];
	int rc;

	if (!arch_timer_fence_name())
		SKIP("the portable clock (%s) has no fence to drop", arch_timer_source());
	CHECK(arena_map(&a, p.working_set_bytes, PAGES_HUGE) == 0, "map %zu bytes", p.working_set_bytes);
	rc = chain_build_verified(&ch, a.base, p.working_set_bytes, 64, 64, 11, chain_offset_linear, &check);
	if (rc) {
		arena_unmap(&a);
		CHECK(0, "chain: %s", strerror(-rc));
	}
	node = chain_node_at(&ch, 0);
	/* An untimed lead-in of FENCE_LEAD_IN hops, a quarter second of misses:
	 * the timed rounds then start on a memory system already serving this
	 * walk (the layout check's overlapped walk leaves it idle far sooner),
	 * and on lines the lead-in never reached, so each region still misses. */
	for (int i = 0; i < FENCE_LEAD_IN / FENCE_HOPS; i++)
		node = chase_hops(node);
	for (int r = 0; r < FENCE_ROUNDS; r++) {
		uint64_t t0, t1;

		t0 = arch_timer_read();
		node = chase_hops(node);
		t1 = arch_timer_read();
		fenced[r] = (double)(t1 - t0);
		arch_timer_read();   /* drain: the next region starts with nothing in flight */
		t0 = arch_timer_read_unfenced();
		node = chase_hops(node);
		t1 = arch_timer_read_unfenced();
		arch_timer_read();
		unfenced[r] = (double)(t1 - t0);
		ratio[r] = fenced[r] > 0 ? unfenced[r] / fenced[r] : 1;
	}
	*(volatile uintptr_t *)&p.seed = node;   /* keep the walk observable */
	chain_free(&ch);
	arena_unmap(&a);
	/* The estimator is the median of the paired ratios; the tolerance, the
	 * fenced arm's floor: the spread of its median over blocks of rounds (a
	 * ratio near 0 has no useful relative spread of its own). */
	for (int b = 0; b < FENCE_BLOCKS; b++) {
		size_t at = (size_t)b * (FENCE_ROUNDS / FENCE_BLOCKS), len = FENCE_ROUNDS / FENCE_BLOCKS;

		block[b] = stats_median(ratio + at, len);
		fenced_block[b] = stats_median(fenced + at, len);
	}
	floor_pct = stats_spread_pct(fenced_block, FENCE_BLOCKS);
	median = stats_median(ratio, FENCE_ROUNDS);
	snprintf(figures, sizeof(figures),
		 "%d loads: fenced median %.0f ticks, without %s %.0f; paired ratio median %.3f (blocks %.3f..%.3f), "
		 "fenced floor %.1f%%", FENCE_HOPS, stats_median(fenced, FENCE_ROUNDS), arch_timer_fence_name(),
		 stats_median(unfenced, FENCE_ROUNDS), median, stats_min(block, FENCE_BLOCKS),
		 stats_max(block, FENCE_BLOCKS), floor_pct);
	CHECK(isfinite(floor_pct), "no floor: %s", figures);
	CHECK(median < 1 - 3 * floor_pct / 100 && stats_max(block, FENCE_BLOCKS) < 1,
	      "the unfenced region is not shorter beyond 3 floors: %s", figures);
	snprintf(tctx->message, sizeof(tctx->message), "%s", figures);
}

VALIDATE(json_result_parses_and_has_every_key)
{
	char cmd[8192];
	int st;

	if (system("command -v python3 >/dev/null 2>&1") != 0)
		SKIP("python3 is not installed: no real JSON parser to check with");
	snprintf(cmd, sizeof(cmd),
		 "%s/mlpscope mlp --size 128M --max-lanes 4 --quick --accesses 16384 --pages both "
		 "--json %s/test-result.json >/dev/null && python3 tests/check_json.py %s/test-result.json mlp=2",
		 test_bin_dir(), test_bin_dir(), test_bin_dir());
	st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "mlpscope or the schema check failed (status %d)", st);
}

/* app bwt at 16 MiB (past what one core reaches of the L3 here): four
 * lanes at least halve the time of one and eight are no slower than two,
 * in both lane forms; every output matched; the JSON passes the schema.
 * The floor is capped at 30%: a busier machine makes the run noisier, it
 * does not make the shape wrong. */
VALIDATE(shape_app_bwt_lanes_speed_the_walk_and_json_holds)
{
	char cmd[8192];
	int st;

	if (system("command -v python3 >/dev/null 2>&1") != 0)
		SKIP("python3 is not installed: no JSON parser to read the run with");
	snprintf(cmd, sizeof(cmd),
		 "%s/mlpscope app bwt --size 16M --max-lanes 8 --json %s/test-app.json >/dev/null && "
		 "python3 tests/check_json.py %s/test-app.json app && python3 - %s/test-app.json <<'PY'\n"
		 "import json, sys\n"
		 "b = json.load(open(sys.argv[1]))['app']['bwt']\n"
		 "floor = min(max(b['chase']['noise_floor_pct'], 2.0), 30.0) / 100\n"
		 "v = {x['name']: {p['k']: p['ns_per_item'] for p in x['points']} for x in b['variants']}\n"
		 "assert b['check']['ok'] and all(x['output_hash'] == b['check']['expected_hash'] for x in b['variants'])\n"
		 "c = {p['k']: p['speedup'] for p in b['chase']['points']}\n"
		 "if c.get(4, 0) < 2 * (1 - floor): sys.exit(77)\n"
		 "for name, t in ((n, v[n]) for n in ('lanes_state', 'lanes_regs')):\n"
		 "    assert t[4] < t[1] * (1 - floor) / 2, (name, t)\n"
		 "    assert t[8] < t[2] * (1 + floor), (name, t)\n"
		 "PY\n",
		 test_bin_dir(), test_bin_dir(), test_bin_dir(), test_bin_dir());
	st = system(cmd);
	/* Assumes the 16 MiB table is past what one core reaches of the caches:
	 * the reference chase at that footprint must itself gain 2x from 4
	 * lanes, else a 32-96 MiB L3 holds the table and no lanes can help. */
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
		SKIP("the reference chase at 16 MiB gains under 2x from 4 lanes (the table fits a cache here): "
		     "the walk's shape cannot be shown");
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "app bwt, its schema or its shape failed (status %d)", st);
}
