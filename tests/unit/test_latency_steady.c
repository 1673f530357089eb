/*
 * Latency's steady state and its level naming, logic only: the sweep runs
 * against a region model (latency_params.region_model: no memory, no
 * clock reading matters) that charges a cache-resident set memory latency
 * until a whole walk of it has run since another set was walked, so
 * skipping the warm walk must show in the steady-state check and in the
 * warm references. The level finder is fed the Intel Emerald Rapids guest's
 * recorded warm chase (tests/data/cpus/intel-xeon-f6-m207/warm_chase.tsv)
 * and synthetic curves; agreement's warm-reference lines, mlp.levels'
 * placement inside the curve's plateaus. Nothing here asserts what a CPU does.
 */
#include "../harness.h"

#include "exp/cache_sizes.h"

#include "core/clock.h"
#include "analyse/latency_levels.h"
#include "exp/latency.h"
#include "exp/mlp_levels.h"
#include "report/agreement_out.h"
#include "core/topo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The curve the other sections read of lat: a copy, taken afresh at each
 * call. */
static const struct latency_curve *curve_of(const struct latency_result *lat)
{
	static struct latency_curve c;

	return latency_curve_of(lat, &c);
}

/* A hierarchy: 32 KiB at 1.5 ns, 1 MiB at 5 ns, an 8 MiB cache (share) at
 * 30 ns, memory at 150 ns. A set that fits a cache hits it only when warm. */
struct model {
	size_t cache_bytes;
	bool gradual;   /* the cache fills a lap at a time, not in one walk */
	unsigned regions, cold_regions;
	/* A state, not a size: the chase of bump_size reads memory latency for
	 * its next bump_regions regions (a cache share's edge that settled the
	 * wrong way), then its warm figure. */
	size_t bump_size;
	unsigned bump_regions;
	/* Non-zero: a share filled from the L2's evictions against other
	 * tenants, a fraction a lap: the excess over the warm figure shrinks by
	 * this factor with every lap after the first (the Zen 5 guest's 4 MiB
	 * read 101, 88, 70, 58, 44, 35, 26, 22 ns walk by walk). */
	double lap_decay;
	/* With lap_decay: every other region reads this fraction slower (a
	 * shared host's noise, as large on a short region as on a walk). */
	double jitter;
};

static double model_warm_ns(size_t size)
{
	return size <= (32u << 10) ? 1.5 : size <= (1u << 20) ? 5.0 : size <= (8u << 20) ? 30.0 : 150.0;
}

static double model_region(void *ctx, size_t size, bool stream, size_t loads, size_t warm_loads)
{
	struct model *m = ctx;
	size_t nodes = size / 64;

	m->regions++;
	if (stream)
		return 1.0;
	if (size == m->bump_size && m->bump_regions) {
		m->bump_regions--;
		return 150.0;
	}
	/* Lines evicted since this set was last walked come from memory until
	 * a whole walk has brought them back. */
	if (size <= m->cache_bytes && warm_loads < nodes) {
		m->cold_regions++;
		return 150.0;
	}
	if (m->lap_decay > 0 && size > (1u << 20) && size <= m->cache_bytes)
		return (model_warm_ns(size) + (150.0 - model_warm_ns(size)) *
		        pow(m->lap_decay, (double)(warm_loads + loads - nodes) / nodes)) * (1.0 + m->jitter * (m->regions % 2));
	/* A last cache filled from the L2's evictions: the excess over the
	 * warm figure decays by e with every lap after the first. */
	if (m->gradual && size > (1u << 20) && size <= m->cache_bytes)
		return model_warm_ns(size) + (150.0 - model_warm_ns(size)) * exp(-(double)(warm_loads - nodes) / nodes);
	return model_warm_ns(size);
}

static void model_params(struct latency_params *p, struct model *m, struct clock_info *c)
{
	memset(c, 0, sizeof(*c));
	c->ticks_per_ns = 1;
	*p = (struct latency_params){.min_bytes = 16u << 10, .max_bytes = 64u << 20, .points_per_octave = 2,
				     .trials = 4, .noise_floor_pct = 2.0, .seed = 1, .clock = c,
				     .region_hops = 1024, .region_model = model_region, .region_model_ctx = m,
				     .derive = latency_derive};
	p->reported_cache_bytes[0] = 32u << 10;
	p->reported_cache_bytes[1] = 1u << 20;
	p->reported_cache_bytes[2] = 32u << 20;   /* the OS's L3; the model's share is 8 MiB */
	m->cache_bytes = 8u << 20;
}

static const struct latency_point *model_point(const struct latency_result *r, size_t size)
{
	for (unsigned i = 0; i < r->ncurve; i++)
		if (r->points[i].size_bytes == size)
			return &r->points[i];
	return NULL;
}

TEST(latency_steady_check_passes_every_size_when_warm)
{
	static struct latency_result r;
	struct latency_params p;
	struct clock_info c;
	struct model m = {0};
	int rc;

	model_params(&p, &m, &c);
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %s", strerror(-rc));
	CHECK(r.steady_checked == r.npoints, "%u of %u sizes checked", r.steady_checked, r.npoints);
	CHECK(r.steady_failed == 0, "%u flagged with every block warm", r.steady_failed);
	for (unsigned i = 0; i < r.ncurve; i++)
		CHECK(r.points[i].chase_ns == model_warm_ns(r.points[i].size_bytes), "%zu B: %.1f ns, warm %.1f",
		      r.points[i].size_bytes, r.points[i].chase_ns, model_warm_ns(r.points[i].size_bytes));
	CHECK(r.nfalls_found == 0, "%zu falls on a warm curve", r.nfalls_found);
	CHECK(r.nrefs >= 4, "%u warm references", r.nrefs);
	CHECK(r.refs_disagree == 0, "%u references disagree", r.refs_disagree);
}

/* Break warmth: no warm walk before the blocks, regions far shorter than a
 * cache-resident set's walk. The check's own warm walk must show it. */
TEST(latency_steady_check_fires_when_the_warm_walk_is_skipped)
{
	static struct latency_result r;
	const struct latency_point *pt;
	struct latency_params p;
	struct clock_info c;
	struct model m = {0};
	int rc;

	model_params(&p, &m, &c);
	p.no_warm_walk = true;
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %s", strerror(-rc));
	CHECK(m.cold_regions > 0, "the model never saw a cold region");
	CHECK(r.steady_failed >= 1, "nothing flagged with the warm walk skipped");
	pt = model_point(&r, 4u << 20);
	CHECK(pt, "no 4 MiB point");
	CHECK(pt && !pt->steady_ok, "4 MiB (cache-resident) not flagged: %.1f ns vs %.1f", pt->chase_ns,
	      pt->steady_long_ns);
	CHECK(pt && pt->chase_ns == 150.0 && pt->steady_long_ns == 30.0, "4 MiB: %.1f / %.1f ns",
	      pt ? pt->chase_ns : NAN, pt ? pt->steady_long_ns : NAN);
	/* Past the cache nothing is lost by skipping the walk. */
	pt = model_point(&r, 64u << 20);
	CHECK(pt && pt->steady_ok, "64 MiB flagged, but it never fits");
	CHECK(r.refs_disagree >= 1, "no warm reference disagrees with a cold curve");
}

/* The level finder over a steady curve names the cache share: a plateau
 * ending at 8 MiB is the OS's 32 MiB L3, shown in part. */
TEST(latency_levels_name_the_l3_share_on_a_steady_synthetic_curve)
{
	static struct latency_result r;
	struct latency_params p;
	struct clock_info c;
	struct model m = {0};
	const struct latency_level *l3 = NULL;
	int rc;

	model_params(&p, &m, &c);
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %s", strerror(-rc));
	for (unsigned i = 0; i < r.nlevels; i++)
		if (r.levels[i].cache_level == 3)
			l3 = &r.levels[i];
	CHECK(l3, "no level named the L3 (%u levels)", r.nlevels);
	CHECK(l3 && l3->latency_ns == 30.0, "L3 at %.1f ns", l3 ? l3->latency_ns : NAN);
	CHECK(l3 && l3->size_bytes <= (8u << 20) && l3->disagrees, "L3 ends at %zu B", l3 ? l3->size_bytes : 0);
}

static int load_tsv(const char *path, double *sizes, double *ns, size_t cap, size_t *n)
{
	FILE *f = fopen(path, "r");
	char line[256];

	*n = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && *n < cap)
		if (sscanf(line, "%lf %lf", &sizes[*n], &ns[*n]) == 2)
			(*n)++;
	fclose(f);
	return 0;
}

/* The recorded warm chase of the Intel guest (OS: L1d 48 KiB, L2 2 MiB, L3
 * 260 MiB shared): a ~35 ns plateau from 4 to ~14 MiB is this guest's share
 * of the L3, and the finder must name it so, not leave the L3 without a
 * plateau. */
TEST(latency_levels_name_the_l3_share_on_the_intel_warm_curve)
{
	static const size_t reported[] = {48u << 10, 2u << 20, (size_t)260 << 20, 0};
	double sizes[LATENCY_POINTS_MAX], ns[LATENCY_POINTS_MAX];
	struct latency_level lv[LATENCY_LEVELS_MAX];
	struct latency_missing miss[LATENCY_CACHES_MAX];
	const struct latency_level *l3 = NULL;
	unsigned nl, nm;
	size_t n;
	int rc = load_tsv("tests/data/cpus/intel-xeon-f6-m207/warm_chase.tsv", sizes, ns, LATENCY_POINTS_MAX, &n);

	CHECK(rc == 0 && n > 40, "warm_chase.tsv: %s, %zu rows", strerror(-rc), n);
	nl = latency_detect_levels(sizes, ns, n, 10.0, lv, LATENCY_LEVELS_MAX);
	nm = latency_match_reported(lv, nl, reported, sizes, ns, n, 10.0, NULL, NULL, 0, miss, LATENCY_CACHES_MAX);
	for (unsigned i = 0; i < nl; i++)
		if (lv[i].cache_level == 3)
			l3 = &lv[i];
	CHECK(l3, "no level named the L3 (%u levels, %u OS caches without a plateau)", nl, nm);
	CHECK(l3 && l3->latency_ns > 30 && l3->latency_ns < 45, "L3 at %.1f ns", l3 ? l3->latency_ns : NAN);
	CHECK(l3 && l3->size_bytes >= (4u << 20) && l3->size_bytes <= (20u << 20), "the share ends at %zu B",
	      l3 ? l3->size_bytes : 0);
	CHECK(nm == 0, "%u OS caches left without a plateau", nm);
	CHECK(nl >= 4 && lv[nl - 1].reaches_max && lv[nl - 1].latency_ns > 100, "memory is not the last level");
	snprintf(tctx->message, sizeof(tctx->message), "L3 share %zu KiB..%zu KiB at %.1f ns (half-way %zu KiB)",
		 l3->first_bytes >> 10, l3->size_bytes >> 10, l3->latency_ns, l3->capacity_bytes >> 10);
}

TEST(latency_reference_agreement_is_two_sided_within_the_tolerance)
{
	CHECK(latency_reference_agrees(34, 33, 10.0), "3%% apart disagree");
	CHECK(!latency_reference_agrees(113, 34, 10.0), "a curve 3x slower agrees");
	CHECK(!latency_reference_agrees(38, 34, 10.0), "a curve 12%% slower agrees");
	CHECK(!latency_reference_agrees(25, 34, 10.0), "a curve 36%% faster than its reference agrees");
	CHECK(!latency_reference_agrees(15.23, 36.73, 10.0), "a reference 141%% slower than the curve agrees");
	CHECK(latency_reference_agrees(31, 34, 10.0), "a curve 9.7%% faster disagrees");
	CHECK(!latency_reference_agrees(NAN, 34, 10.0), "NAN agrees");
}

/* agreement: each warm reference is a line, judged both ways: a curve the
 * warm chase reads 3x faster differs (not warm), and so does a curve 3x
 * faster than its reference (the reference slow, or the curve too fast),
 * each with both figures in its reason; a pair within the tolerance, either
 * side faster, agrees. The block's verdict is latency's own for each pair. */
TEST(agreement_gains_the_warm_reference_rows)
{
	static struct latency_result lat;
	static struct agreement_result a;
	static const size_t sizes[] = {16u << 10, 2u << 20, 4u << 20, 1u << 30};
	static const double curve[] = {1.5, 24.5, 113.0, 160.0}, warm[] = {1.55, 70.0, 34.0, 150.0};
	unsigned differs = 0;

	for (unsigned i = 0; i < 4; i++) {
		lat.points[i] = (struct latency_point){.size_bytes = sizes[i], .pages = PAGES_HUGE, .chase_ns = curve[i],
						      .huge_fraction = 1.0, .steady_ok = true};
		lat.refs[i] = (struct latency_reference){.level = i + 1, .point = i, .size_bytes = sizes[i],
						     .curve_ns = curve[i], .warm_ns = warm[i]};
		lat.refs[i].agrees = latency_reference_agrees(curve[i], warm[i], 10.0);
	}
	lat.npoints = lat.ncurve = lat.nrefs = 4;
	lat.tolerance_pct = 10.0;
	agreement_compute(curve_of(&lat), NULL, 0, NULL, 5.0, &a);
	CHECK(a.nlines == 4, "%u agreement lines for 4 references", a.nlines);
	for (unsigned i = 0; i < a.nlines; i++) {
		const struct agreement_figure *g = &a.lines[i].fig[a.lines[i].nfig - 1];

		CHECK(!strcmp(g->section, "warm chase"), "line %u: %s", i, g->section);
		CHECK(g->differs == !lat.refs[i].agrees, "line %u: the block says %s, latency %s", i,
		      g->differs ? "differs" : "agrees", lat.refs[i].agrees ? "agrees" : "disagrees");
		if (!g->differs) {
			CHECK(!g->reason[0], "an agreeing pair has a reason: %s", g->reason);
			continue;
		}
		differs++;
		if (a.lines[i].set_bytes == (4u << 20))
			CHECK(strstr(g->reason, "113.00") && strstr(g->reason, "34.00") && strstr(g->reason, "not taken warm"),
			      "reason: %s", g->reason);
		else
			CHECK(a.lines[i].set_bytes == (2u << 20) && strstr(g->reason, "70.00") &&
				      strstr(g->reason, "24.50") && strstr(g->reason, "read faster"),
			      "%zu B: %s", a.lines[i].set_bytes, g->reason);
	}
	CHECK(differs == 2, "%u lines differ, 2 expected (one each way)", differs);
}

/* mlp.levels: each cache row in the middle of the plateau the curve
 * shows (the L3 share), not at half the OS's L3; without the curve, the
 * OS's halves. */
TEST(mlp_levels_place_cache_rows_inside_the_curve_s_plateaus)
{
	static struct latency_result lat;
	struct mlp_level lv[MLP_LEVELS];
	struct topo t;
	unsigned n;

	memset(&t, 0, sizeof(t));
	t.ncaches = 3;
	t.caches[0] = (struct cache_desc){.level = 1, .type = "Data", .size_bytes = 48 << 10};
	t.caches[1] = (struct cache_desc){.level = 2, .type = "Unified", .size_bytes = 2 << 20};
	t.caches[2] = (struct cache_desc){.level = 3, .type = "Unified", .size_bytes = (size_t)260 << 20};
	lat.nlevels = 4;
	lat.levels[0] = (struct latency_level){.level = 1, .first_bytes = 4 << 10, .size_bytes = 45 << 10,
					       .latency_ns = 1.7, .cache_level = 1};
	lat.levels[1] = (struct latency_level){.level = 2, .first_bytes = 64 << 10, .size_bytes = 512 << 10,
					       .latency_ns = 5.4, .cache_level = 2, .disagrees = true};
	lat.levels[2] = (struct latency_level){.level = 3, .first_bytes = 4 << 20, .size_bytes = 16 << 20,
					       .latency_ns = 35, .cache_level = 3, .disagrees = true};
	lat.levels[3] = (struct latency_level){.level = 4, .first_bytes = 19 << 20, .size_bytes = 1 << 30,
					       .latency_ns = 150, .reaches_max = true};
	n = mlp_levels_plan_curve(&t, curve_of(&lat), 1u << 30, lv);
	CHECK(n == 3, "%u rows", n);
	CHECK(lv[0].working_set_bytes == 181 << 10, "L2 row at %zu B", lv[0].working_set_bytes);
	CHECK(lv[1].working_set_bytes == 8 << 20 && !strcmp(lv[1].name, "last cache"), "L3 row at %zu B",
	      lv[1].working_set_bytes);
	CHECK(strstr(lv[1].size_from, "L3 plateau"), "size_from: %s", lv[1].size_from);
	n = mlp_levels_plan_curve(&t, NULL, 1u << 30, lv);
	CHECK(n == 3 && lv[1].working_set_bytes == (size_t)130 << 20, "without the curve: %zu B",
	      lv[1].working_set_bytes);
}

/* An OS that reports no cache (the Zen 5 guest): each cache the curve
 * shows stands for the cache of its rank, a TLB step counting for none, and
 * the rows say so; the memory row is the set. */
TEST(mlp_levels_come_from_the_curve_where_the_os_reports_no_cache)
{
	static struct latency_result lat;
	struct mlp_level lv[MLP_LEVELS];
	struct topo t;
	unsigned n;

	memset(&t, 0, sizeof(t));
	lat.nlevels = 5;
	lat.levels[0] = (struct latency_level){.level = 1, .first_bytes = 4 << 10, .size_bytes = 46336, .latency_ns = 1.1};
	lat.levels[1] = (struct latency_level){.level = 2, .first_bytes = 55104, .size_bytes = 256 << 10,
					       .latency_ns = 4.0};
	lat.levels[2] = (struct latency_level){.level = 3, .first_bytes = 288 << 10, .size_bytes = 1 << 20,
					       .latency_ns = 5.9, .tlb = true};
	lat.levels[3] = (struct latency_level){.level = 4, .first_bytes = 1246976, .size_bytes = 9975808,
					       .latency_ns = 15.2};
	lat.levels[4] = (struct latency_level){.level = 5, .first_bytes = 19951616, .size_bytes = 256 << 20,
					       .latency_ns = 149, .reaches_max = true};
	n = mlp_levels_plan_curve(&t, curve_of(&lat), 256 << 20, lv);
	CHECK(n == 3, "%u rows from a curve with three caches and no OS caches", n);
	CHECK(!strcmp(lv[0].name, "L2") && lv[0].working_set_bytes == 120128 && !strcmp(lv[0].size_source, "latency curve"),
	      "L2 row %s at %zu B from %s", lv[0].name, lv[0].working_set_bytes, lv[0].size_source);
	CHECK(strstr(lv[0].size_from, "L2 plateau") && strstr(lv[0].size_from, "by rank"), "%s", lv[0].size_from);
	CHECK(!strcmp(lv[1].name, "last cache") && lv[1].working_set_bytes == 3526976 &&
		      strstr(lv[1].size_from, "L3 plateau"), "last-cache row %zu B: %s", lv[1].working_set_bytes,
	      lv[1].size_from);
	CHECK(lv[2].from_main_sweep && !strcmp(lv[2].size_source, "memory set"), "memory row from %s", lv[2].size_source);
	CHECK(mlp_levels_plan_curve(&t, NULL, 256 << 20, lv) == 1, "without the curve the OS's silence gives one row");
}

/* The Zen 5 guest's recorded plain chase (no OS cache sizes; issue 31),
 * with the huge-page TLB steps its tlb section measured: 2 MiB pages are
 * translated at 4 KiB reach there, so past 16 MiB every load adds a page
 * walk (+32 ns) while the set still hits the L3. The share's plateau (12.7
 * ns from 1.4 MiB) therefore ends at 28 MiB (48.8 ns, within the TLB's
 * step), not where translation starts to cost (16 MiB); memory (139-227
 * ns) starts at 38 MiB. The level the curve names, not an OS size, is what
 * mlp.levels' last-cache row sits inside and what the plan takes for the
 * largest cache. */
TEST(latency_levels_name_the_l3_share_on_the_zen5_warm_curve)
{
	static struct latency_result lat;
	double sizes[LATENCY_POINTS_MAX], ns[LATENCY_POINTS_MAX];
	struct mlp_level rows[MLP_LEVELS];
	const struct latency_level *l3 = NULL;
	/* The huge-page TLB steps the tlb section measured on the same guest
	 * (report.json beside it: 2 MiB pages translated at 4 KiB reach). */
	static const size_t reach[] = {372736, 16777216};
	static const double extra[] = {2.04, 32.3};
	struct cache_sizes cs;
	struct topo t;
	size_t n;
	int rc = load_tsv("tests/data/cpus/amd-epyc-f26-m2/warm_chase.tsv", sizes, ns, LATENCY_POINTS_MAX, &n);

	CHECK(rc == 0 && n > 40, "warm_chase.tsv: %s, %zu rows", strerror(-rc), n);
	/* Up to the memory set the report sweeps to (256 MiB): past it this
	 * host's chase reads 273-736 ns, a regime of its own. */
	while (n && sizes[n - 1] > (double)(256u << 20))
		n--;
	lat.nlevels = latency_detect_levels_tlb(sizes, ns, n, 10.0, reach, extra, 2, lat.levels, LATENCY_LEVELS_MAX);
	for (unsigned i = 0; i < lat.nlevels; i++)
		if (lat.levels[i].first_bytes <= (8u << 20) && (lat.levels[i].size_bytes >= (8u << 20) || !l3))
			l3 = &lat.levels[i];
	CHECK(l3 && l3->latency_ns > 12 && l3->latency_ns < 22, "L3 at %.1f ns", l3 ? l3->latency_ns : NAN);
	CHECK(l3 && l3->size_bytes >= 23726528 && l3->size_bytes <= 33554432, "the share ends at %zu B",
	      l3 ? l3->size_bytes : 0);
	memset(&t, 0, sizeof(t));
	CHECK(mlp_levels_plan_curve(&t, curve_of(&lat), 256u << 20, rows) == 3, "mlp.levels rows");
	CHECK(l3 && rows[1].working_set_bytes >= l3->first_bytes && rows[1].working_set_bytes <= l3->size_bytes,
	      "last-cache row at %zu B, outside %zu..%zu", rows[1].working_set_bytes, l3 ? l3->first_bytes : 0,
	      l3 ? l3->size_bytes : 0);
	cache_sizes_of(&t, curve_of(&lat), &cs);
	CHECK(l3 && cs.largest.bytes == l3->size_bytes && !strcmp(cs.largest.from, CACHE_FROM_CURVE),
	      "largest cache %zu B from %s", cs.largest.bytes, cs.largest.from);
	if (l3)
		snprintf(tctx->message, sizeof(tctx->message), "L3 share %zu KiB..%zu KiB at %.1f ns, row at %zu KiB",
			 l3->first_bytes >> 10, l3->size_bytes >> 10, l3->latency_ns, rows[1].working_set_bytes >> 10);
}

/* The sizes app and the memory-set check go by: the OS's claim unless the
 * curve disproves it or the OS states none; a cache the curve shows no
 * plateau for keeps the OS's claim (unseen is not disproved). */
TEST(cache_sizes_take_the_curve_where_the_os_is_silent_or_disproved)
{
	static struct latency_result lat;
	struct cache_sizes c;
	struct topo t;

	memset(&t, 0, sizeof(t));
	lat.nlevels = 3;
	lat.levels[0] = (struct latency_level){.level = 1, .first_bytes = 4 << 10, .size_bytes = 46336};
	lat.levels[1] = (struct latency_level){.level = 2, .first_bytes = 55104, .size_bytes = 1 << 20};
	lat.levels[2] = (struct latency_level){.level = 3, .first_bytes = 1 << 21, .size_bytes = 10 << 20};
	cache_sizes_of(&t, curve_of(&lat), &c);
	CHECK(c.l2.bytes == 1 << 20 && !strcmp(c.l2.from, CACHE_FROM_CURVE) && c.largest.bytes == 10 << 20 &&
		      !strcmp(c.largest.from, CACHE_FROM_CURVE), "no OS caches: L2 %zu (%s), largest %zu (%s)", c.l2.bytes,
	      c.l2.from, c.largest.bytes, c.largest.from);
	cache_sizes_of(&t, NULL, &c);
	CHECK(!c.largest.bytes && !strcmp(c.largest.from, CACHE_FROM_NONE), "no OS, no curve: %zu", c.largest.bytes);
	t.ncaches = 2;
	t.caches[0] = (struct cache_desc){.level = 2, .type = "Unified", .size_bytes = 2 << 20};
	t.caches[1] = (struct cache_desc){.level = 3, .type = "Unified", .size_bytes = (size_t)260 << 20};
	lat.levels[1].cache_level = 2;
	lat.levels[2].cache_level = 3;
	lat.levels[2].disagrees = true;
	cache_sizes_of(&t, curve_of(&lat), &c);
	CHECK(c.l2.bytes == 2 << 20 && !strcmp(c.l2.from, CACHE_FROM_OS), "agreeing L2 from %s", c.l2.from);
	CHECK(c.largest.bytes == 10 << 20 && !strcmp(c.largest.from, CACHE_FROM_CURVE), "disproved L3: %zu from %s",
	      c.largest.bytes, c.largest.from);
	lat.nlevels = 2;
	cache_sizes_of(&t, curve_of(&lat), &c);
	CHECK(c.largest.bytes == (size_t)260 << 20 && !strcmp(c.largest.from, CACHE_FROM_OS),
	      "an L3 without a plateau lost its claim: %zu from %s", c.largest.bytes, c.largest.from);
}

/* A last cache that fills a lap at a time: the block settles (regions until
 * one is no faster) before its trials, so the figure is the warm one within
 * what the settling rule leaves, not the first lap's. */
TEST(latency_steady_blocks_settle_a_cache_that_fills_lap_by_lap)
{
	static struct latency_result r;
	const struct latency_point *pt;
	struct latency_params p;
	struct clock_info c;
	struct model m = {.gradual = true};
	int rc;

	model_params(&p, &m, &c);
	p.region_hops = 0;   /* the default, 65,536 */
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %s", strerror(-rc));
	pt = model_point(&r, 4u << 20);
	CHECK(pt && pt->settle_loads > 65536, "4 MiB settled after %zu loads", pt ? pt->settle_loads : 0);
	CHECK(pt && pt->chase_ns < 30.0 * 1.15, "4 MiB at %.1f ns, warm 30", pt ? pt->chase_ns : NAN);
	for (unsigned i = 0; i < r.ncurve; i++)
		CHECK(r.points[i].steady_ok, "%zu B: %.1f ns, %.1f over 4x (settled after %zu)", r.points[i].size_bytes,
		      r.points[i].chase_ns, r.points[i].steady_long_ns, r.points[i].settle_loads);
}

/* A share that comes back a fraction a lap (the excess shrinking 30% a
 * lap) on a noisy host (every other region 5% slower): the block walks the
 * set whole while each walk reads faster, as a plain chase walked back to
 * back does, so each size reads no slower than the plain chase; a set in
 * memory stops after its second walk. */
TEST(latency_blocks_walk_a_slowly_filling_share_until_walks_stop_improving)
{
	static struct latency_result r;
	const struct latency_point *pt;
	struct latency_params p;
	struct clock_info c;
	struct model m = {.lap_decay = 0.7, .jitter = 0.05};
	int rc;

	model_params(&p, &m, &c);
	p.region_hops = 0;   /* the default, 65,536: a lap of 4 MiB */
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %s", strerror(-rc));
	for (size_t size = 2u << 20; size <= (8u << 20); size *= 2) {
		/* What a plain chase reads: one walk, then the minimum of five
		 * back to back (the last, the excess shrunk by five laps). */
		double plain = model_warm_ns(size) + (150.0 - model_warm_ns(size)) * pow(0.7, 5);

		pt = model_point(&r, size);
		CHECK(pt && pt->chase_ns <= plain, "%zu B at %.1f ns, a plain chase %.1f, warm %.1f (settled after %zu)",
		      size, pt ? pt->chase_ns : NAN, plain, model_warm_ns(size), pt ? pt->settle_loads : 0);
		CHECK(pt && pt->settle_loads >= 4 * size / 64, "%zu B settled after %zu loads: under 4 extra walks", size,
		      pt ? pt->settle_loads : 0);
	}
	/* A set in memory: two walks (the second no faster), no more. */
	pt = model_point(&r, 16u << 20);
	CHECK(pt && pt->settle_loads <= (16u << 20) / 64 + 16 * 65536, "16 MiB in memory settled after %zu loads",
	      pt ? pt->settle_loads : 0);
}

/* A point that read slow through the whole sweep (its state, not its size)
 * and warm on a second look: the fall it made is re-timed away, and both
 * figures are kept. Counting the sweep's own regions first makes the bump
 * end exactly where the sweep (and its steady check) does. */
TEST(latency_retime_clears_a_fall_that_a_second_look_does_not_see)
{
	static struct latency_result r;
	const struct latency_point *pt;
	struct latency_params p;
	struct clock_info c;
	struct model m = {.bump_size = 4u << 20, .bump_regions = 1u << 30};
	unsigned sweep_regions;
	int rc;

	model_params(&p, &m, &c);
	p.no_retime = true;
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %s", strerror(-rc));
	CHECK(r.nfalls_found >= 1, "a 4 MiB point at memory latency inside the 30 ns share made no fall");
	CHECK(r.nretimed == 0, "re-timed %u points with re-timing off", r.nretimed);
	sweep_regions = (1u << 30) - m.bump_regions;

	model_params(&p, &m, &c);
	m.bump_regions = sweep_regions;
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %s", strerror(-rc));
	pt = model_point(&r, 4u << 20);
	CHECK(pt && pt->nretime > 0, "4 MiB not re-timed");
	CHECK(pt && pt->sweep_chase_ns == 150.0 && pt->chase_ns == 30.0, "4 MiB: sweep %.1f, kept %.1f ns",
	      pt ? pt->sweep_chase_ns : NAN, pt ? pt->chase_ns : NAN);
	CHECK(r.nfalls_sweep >= 1 && r.nfalls_found == 0, "falls: %zu in the sweep, %zu after", r.nfalls_sweep,
	      r.nfalls_found);
	CHECK(r.nretimed == 1, "%u points re-timed; only 4 MiB stood above the fall", r.nretimed);
}

/* A fall the second look sees again is flagged as before: re-timing never
 * hides what the machine keeps doing. */
TEST(latency_retime_keeps_a_fall_that_persists)
{
	static struct latency_result r;
	const struct latency_point *pt;
	struct latency_params p;
	struct clock_info c;
	struct model m = {.bump_size = 4u << 20, .bump_regions = 1u << 30};
	int rc;

	model_params(&p, &m, &c);
	rc = latency_run(&p, &r);
	CHECK(rc == 0, "latency_run: %s", strerror(-rc));
	pt = model_point(&r, 4u << 20);
	CHECK(pt && pt->nretime > 0 && pt->chase_ns == 150.0, "4 MiB: re-timed %u regions, kept %.1f ns",
	      pt ? pt->nretime : 0, pt ? pt->chase_ns : NAN);
	CHECK(r.nfalls_found >= 1 && r.nfalls_found == r.nfalls_sweep, "falls: %zu in the sweep, %zu after",
	      r.nfalls_sweep, r.nfalls_found);
}

/* A huge-page curve point of size bytes, for latency_on_a_rise. */
static bool on_a_rise(const struct latency_result *r, size_t bytes)
{
	struct latency_point p = {.size_bytes = bytes, .pages = PAGES_HUGE};

	return latency_on_a_rise(r, &p);
}

/* A NOT STEADY point on the rise between two levels is named as such: the
 * sizes in no level's range, and only those. */
TEST(latency_on_a_rise_is_between_levels_only)
{
	static struct latency_result r;

	r.nlevels = 3;
	r.levels[0] = (struct latency_level){.level = 1, .first_bytes = 4u << 10, .size_bytes = 48u << 10};
	r.levels[1] = (struct latency_level){.level = 2, .first_bytes = 64u << 10, .size_bytes = 1280u << 10};
	r.levels[2] = (struct latency_level){.level = 3, .first_bytes = 8u << 20, .size_bytes = 8u << 20,
					     .reaches_max = true};
	CHECK(!on_a_rise(&r, 2u << 10), "below the first level");
	CHECK(!on_a_rise(&r, 32u << 10) && !on_a_rise(&r, 48u << 10), "inside the L1");
	CHECK(on_a_rise(&r, 56u << 10), "56 KiB is between the L1 and the L2");
	CHECK(!on_a_rise(&r, 1u << 20), "inside the L2");
	CHECK(on_a_rise(&r, 4u << 20), "4 MiB is on the rise to memory");
	CHECK(!on_a_rise(&r, 1u << 30), "memory runs to the largest size");
	r.nlevels = 0;
	CHECK(!on_a_rise(&r, 56u << 10), "no levels, no rise");
}
