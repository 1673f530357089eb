/*
 * app bzip2's chase beside the walk (exp/app/bzip2_chase.c), logic only:
 * whether the table is cache-resident, judged by a chase t(1) against a
 * synthetic latency curve's largest set, else by reported cache sizes;
 * R(K) = s / S_chase from a synthetic chase; and the full report's bwt
 * chase reused only at the same footprint, pages and a good layout. No
 * chase is measured here (ap.chase is false throughout).
 */
#include "../harness.h"

#include "exp/app/bzip2.h"
#include "exp/latency_curve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A latency curve whose largest set (1 GiB) costs 120 ns a load. */
static struct latency_curve *curve(size_t max_bytes)
{
	struct latency_curve *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->ncurve = l->npoints = 2;
	l->points[0] = (struct latency_curve_point){.size_bytes = 4096, .chase_ns = 1.2};
	l->points[1] = (struct latency_curve_point){.size_bytes = max_bytes, .chase_ns = 120};
	return l;
}

TEST(bzip2_chase_residency_from_the_curve_then_the_caches)
{
	struct latency_curve *l = curve((size_t)1 << 30);
	struct app_bzip2_cache_facts c = {.latency = l, .l2_bytes = 1280 << 10, .largest_cache_bytes = (size_t)48 << 20};
	struct app_bzip2_result *r = calloc(1, sizeof(*r));

	CHECK(l && r, "calloc");
	r->table_bytes = 3600000;
	r->chase.ran = true;
	r->chase.latency_ns = 29;
	app_bzip2_residency(&c, r);
	CHECK(r->resident && !strcmp(r->resident_from, "latency curve") && strstr(r->resident_where, "29.0 ns"),
	      "t(1) 29 ns against 120: %d %s %s", r->resident, r->resident_from, r->resident_where);
	/* Past the caches by the measurement even where the OS claims a cache
	 * that would hold it: the measured verdict wins. */
	r->chase.latency_ns = 110;
	app_bzip2_residency(&c, r);
	CHECK(!r->resident && !strcmp(r->resident_from, "latency curve"), "t(1) 110 ns against 120: %d %s", r->resident,
	      r->resident_from);
	/* A curve that stops short of 4x the table cannot stand for memory. */
	l->points[1].size_bytes = 8 << 20;
	r->chase.latency_ns = 29;
	app_bzip2_residency(&c, r);
	CHECK(r->resident && !strcmp(r->resident_from, "reported caches") && strstr(r->resident_where, "largest reported"),
	      "curve too short: %s %s", r->resident_from, r->resident_where);
	/* No chase: nothing measured at the footprint. */
	l->points[1].size_bytes = (size_t)1 << 30;
	r->chase.ran = false;
	app_bzip2_residency(&c, r);
	CHECK(!strcmp(r->resident_from, "reported caches"), "no chase, yet a measured verdict");
	c.latency = NULL;
	r->table_bytes = 1000000;
	app_bzip2_residency(&c, r);
	CHECK(r->resident && strstr(r->resident_where, "reported L2"), "1 MB: %s", r->resident_where);
	r->table_bytes = (size_t)64 << 20;
	app_bzip2_residency(&c, r);
	CHECK(!r->resident && strstr(r->resident_where, "past the largest reported cache"), "64 MiB: %s",
	      r->resident_where);
	c.largest_cache_bytes = 0;
	c.l2_bytes = 0;
	app_bzip2_residency(&c, r);
	CHECK(!r->resident && !strcmp(r->resident_from, "unknown"), "no caches reported: %s", r->resident_from);
	free(l);
	free(r);
}

static void synthetic_chase(struct app_chase *c)
{
	static const unsigned k[] = {1, 2, 4, 8};
	static const double s[] = {1, 2, 3.9, 7.5};

	memset(c, 0, sizeof(*c));
	c->ran = true;
	c->layout_ok = true;
	c->working_set_bytes = 3600064;
	c->pages_requested = "huge";
	c->npoints = 4;
	for (unsigned i = 0; i < 4; i++) {
		c->k[i] = k[i];
		c->speedup[i] = s[i];
	}
}

static void three_variants(struct app_bzip2_result *r)
{
	r->nvariants = 3;
	r->variants[0] = (struct app_bzip2_variant){.k = 1, .walk_speedup = 1};
	r->variants[1] = (struct app_bzip2_variant){.k = 4, .walk_speedup = 2.6};
	r->variants[2] = (struct app_bzip2_variant){.k = 16, .walk_speedup = 5};
}

TEST(bzip2_chase_ratio_is_walk_speedup_over_the_chases)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));

	CHECK(r, "calloc");
	synthetic_chase(&r->chase);
	three_variants(r);
	app_bzip2_chase_ratios(r);
	CHECK(r->variants[0].walk_ratio == 1, "K=1: R %g", r->variants[0].walk_ratio);
	CHECK(fabs(r->variants[1].walk_ratio - 2.6 / 3.9) < 1e-12 && r->variants[1].chase_speedup == 3.9, "K=4: R %g",
	      r->variants[1].walk_ratio);
	CHECK(isnan(r->variants[2].walk_ratio), "K=16, past the chase's sweep: R %g, want none",
	      r->variants[2].walk_ratio);
	r->chase.ran = false;
	app_bzip2_chase_ratios(r);
	CHECK(isnan(r->variants[1].chase_speedup) && isnan(r->variants[1].walk_ratio), "no chase, yet a ratio");
	free(r);
}

TEST(bzip2_chase_reuses_the_bwt_chase_only_when_it_is_the_same)
{
	struct app_params ap = {.line_bytes = 64, .pages = PAGES_HUGE, .max_k = 8, .chase = false};
	struct app_bzip2_cache_facts c = {.l2_bytes = 1280 << 10, .largest_cache_bytes = (size_t)48 << 20};
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct app_chase bwt;
	char err[128] = "";

	CHECK(r, "calloc");
	synthetic_chase(&bwt);
	r->table_bytes = 3600000;
	three_variants(r);
	CHECK(app_bzip2_chase(&ap, &bwt, &c, r, err, sizeof(err)) == 0, "%s", err);
	CHECK(r->chase_reused && r->chase.ran && r->variants[1].chase_speedup == 3.9, "the same chase was not reused");
	ap.pages = PAGES_SMALL;
	CHECK(app_bzip2_chase(&ap, &bwt, &c, r, err, sizeof(err)) == 0, "%s", err);
	CHECK(!r->chase_reused && !r->chase.ran && isnan(r->variants[1].walk_ratio), "huge-page chase used for small pages");
	ap.pages = PAGES_HUGE;
	bwt.working_set_bytes = (size_t)64 << 20;
	CHECK(app_bzip2_chase(&ap, &bwt, &c, r, err, sizeof(err)) == 0, "%s", err);
	CHECK(!r->chase_reused, "a 64 MiB chase used for a 3.6 MB table");
	bwt.working_set_bytes = 3600064;
	bwt.layout_ok = false;
	CHECK(app_bzip2_chase(&ap, &bwt, &c, r, err, sizeof(err)) == 0, "%s", err);
	CHECK(!r->chase_reused, "a chase whose layout check failed was reused");
	free(r);
}
