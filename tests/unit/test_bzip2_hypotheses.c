/*
 * The six hypotheses table, fed synthetic figures: each axis moves its own
 * verdict, a figure within the band moves none, an axis not run leaves it
 * undecided, and every row names a counter.
 */
#include "../harness.h"

#include "exp/app/bzip2.h"

#include <stdlib.h>
#include <string.h>

static void planted(struct app_bzip2_result *r)
{
	memset(r, 0, sizeof(*r));
	r->nvariants = 3;
	r->variants[0].k = 1, r->variants[0].walk_speedup = 1, r->variants[0].warm_seconds = 0.10;
	r->variants[1].k = 8, r->variants[1].walk_speedup = 6.0, r->variants[1].walk_ratio = 0.5;
	r->variants[1].warm_seconds = 0.030;
	r->variants[2] = r->variants[1];
	r->variants[2].fresh_output = true, r->variants[2].warm_seconds = 0.031;
	r->variants[2].walk_speedup = 5.9;
	r->resident = true;
	r->resident_from = "latency curve";
	snprintf(r->resident_where, sizeof(r->resident_where), "chase t(1) 16 ns at the table against 90 ns");
	r->nworkers = 2;
	r->workers[0].n = 1, r->workers[0].block_slowdown = 1;
	r->workers[1].n = 2, r->workers[1].block_slowdown = 1.8;
}

static const char *verdict_of(const struct app_bzip2_hypothesis *h, const char *name)
{
	for (unsigned i = 0; i < APP_BZ2_HYPOTHESES; i++)
		if (h[i].name && !strcmp(h[i].name, name))
			return h[i].verdict;
	return "(missing)";
}

TEST(bzip2_hypotheses_each_axis_moves_its_verdict)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct app_bzip2_hypothesis h[APP_BZ2_HYPOTHESES];

	CHECK(r, "calloc");
	planted(r);
	app_bzip2_hypotheses_judge(r, 20, h);
	for (unsigned i = 0; i < APP_BZ2_HYPOTHESES; i++)
		CHECK(h[i].name && h[i].verdict && h[i].counter && h[i].counter[0] && h[i].evidence[0], "row %u", i);
	CHECK(!strcmp(verdict_of(h, "too few loads visible"), "for"), "loads: %s", verdict_of(h, "too few loads visible"));
	CHECK(!strcmp(verdict_of(h, "lane bookkeeping"), "for"), "R 0.5: %s", verdict_of(h, "lane bookkeeping"));
	CHECK(!strcmp(verdict_of(h, "translation"), "undecided"), "no --pages both: %s", verdict_of(h, "translation"));
	CHECK(!strcmp(verdict_of(h, "LLC residency"), "for"), "%s", verdict_of(h, "LLC residency"));
	CHECK(!strcmp(verdict_of(h, "shared request service"), "for"), "%s", verdict_of(h, "shared request service"));
	CHECK(!strcmp(verdict_of(h, "output traffic"), "against"), "fresh 3%% slower: %s", verdict_of(h, "output traffic"));

	/* The other way round, and a slow K=1 baseline keeps the loads undecided. */
	r->variants[1].walk_ratio = 0.95;
	r->variants[2].warm_seconds = 0.045;
	r->workers[1].block_slowdown = 1.1;
	r->resident = false;
	r->ntranslations = 1;
	r->translations[0].paired_speedup = 1.6;
	r->baseline.nslow = 1;
	app_bzip2_hypotheses_judge(r, 20, h);
	CHECK(!strcmp(verdict_of(h, "too few loads visible"), "undecided"), "%s", verdict_of(h, "too few loads visible"));
	CHECK(!strcmp(verdict_of(h, "lane bookkeeping"), "against"), "%s", verdict_of(h, "lane bookkeeping"));
	CHECK(!strcmp(verdict_of(h, "translation"), "for"), "%s", verdict_of(h, "translation"));
	CHECK(!strcmp(verdict_of(h, "LLC residency"), "against"), "%s", verdict_of(h, "LLC residency"));
	CHECK(!strcmp(verdict_of(h, "shared request service"), "against"), "%s", verdict_of(h, "shared request service"));
	CHECK(!strcmp(verdict_of(h, "output traffic"), "for"), "%s", verdict_of(h, "output traffic"));

	/* No floor, no band: nothing timed decides; residency by the OS's sizes is a claim. */
	r->resident_from = "reported caches";
	app_bzip2_hypotheses_judge(r, 0, h);
	for (unsigned i = 0; i < APP_BZ2_HYPOTHESES; i++)
		CHECK(!strcmp(h[i].verdict, "undecided"), "%s: %s without a floor", h[i].name, h[i].verdict);
	free(r);
}
