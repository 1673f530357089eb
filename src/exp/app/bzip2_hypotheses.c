/*
 * Each hypothesis reads the one axis that moves with it: more lanes (more
 * independent loads in flight), R(K) (the walk against a bare chase with as
 * many chains: what the lanes' own instructions cost), small against huge
 * pages (translation), the table's measured residency (where its rows come
 * from), blocks beside each other on other cores (shared request service),
 * and the output buffer's lifetime (the output's traffic). A figure within
 * the band (twice the floor: a ratio of two timings) cannot move a
 * verdict; an axis the run did not measure leaves it undecided, and the
 * counter named is what would decide it on a machine that has one.
 */
#include "exp/app/bzip2.h"


#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The fastest walk of more than one lane, at the sweep's pages, not overlapped. */
static const struct app_bzip2_variant *best_walk(const struct app_bzip2_result *r)
{
	const struct app_bzip2_variant *b = NULL;

	for (unsigned i = 0; i < r->nvariants; i++) {
		const struct app_bzip2_variant *v = &r->variants[i];

		if (v->k > 1 && v->pages == r->pages && v->overlap == BZ2_OVERLAP_OFF && v->walk_speedup > 0 &&
		    (!b || v->walk_speedup > b->walk_speedup))
			b = v;
	}
	return b;
}

static void verdict(struct app_bzip2_hypothesis *h, const char *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void verdict(struct app_bzip2_hypothesis *h, const char *v, const char *fmt, ...)
{
	va_list ap;

	h->verdict = v;
	va_start(ap, fmt);
	vsnprintf(h->evidence, sizeof(h->evidence), fmt, ap);
	va_end(ap);
}

static void loads_visible(const struct app_bzip2_result *r, double band, struct app_bzip2_hypothesis *h)
{
	const struct app_bzip2_variant *b = best_walk(r);

	h->name = "too few loads visible";
	h->counter = "outstanding L1D misses per cycle (l1d_pend_miss.pending / cycles; AMD: miss address buffer "
		     "allocations)";
	if (!b) {
		verdict(h, "undecided", "no walk of K > 1 timed");
		return;
	}
	if (r->baseline.nslow) {
		verdict(h, "undecided", "s %.2f at K=%u divides by a K=1 walk marked SLOW BASELINE",
			b->walk_speedup, b->k);
		return;
	}
	if (b->walk_speedup > 1 + band) {
		verdict(h, "for", "more independent loads made the walk %.2fx faster (K=%u)", b->walk_speedup, b->k);
		return;
	}
	verdict(h, "against", "no lane count made the walk faster than the band (best s %.2f at K=%u)", b->walk_speedup,
		b->k);
}

static void bookkeeping(const struct app_bzip2_result *r, double band, struct app_bzip2_hypothesis *h)
{
	const struct app_bzip2_variant *b = best_walk(r);

	h->name = "lane bookkeeping";
	h->counter = "instructions retired per BWT row at K against K=1 (instructions / rows)";
	if (!b || !isfinite(b->walk_ratio) || !(b->walk_ratio > 0)) {
		verdict(h, "undecided", "no chase at the table's footprint to set the walk against");
		return;
	}
	if (b->walk_ratio < 1 - band) {
		verdict(h, "for", "R(%u) %.2f: the walk gains less than a bare chase of as many chains",
			b->k, b->walk_ratio);
		return;
	}
	verdict(h, "against", "R(%u) %.2f, within the band of 1: the walk keeps up with a bare chase of as many "
		"chains", b->k, b->walk_ratio);
}

static void translation(const struct app_bzip2_result *r, double band, struct app_bzip2_hypothesis *h)
{
	double x = r->ntranslations ? r->translations[0].paired_speedup : NAN;

	h->name = "translation";
	h->counter = "page walks per BWT row (dtlb_load_misses.walk_completed; AMD: L2 DTLB misses)";
	if (!(x > 0)) {
		verdict(h, "undecided", "the translation axis did not run (--pages both)");
		return;
	}
	if (x > 1 + band) {
		verdict(h, "for", "the whole decode is %.2fx slower on small pages than on huge", x);
		return;
	}
	verdict(h, "against", "small pages against huge: %.2fx, within the band", x);
}

static void residency(const struct app_bzip2_result *r, struct app_bzip2_hypothesis *h)
{
	bool measured = r->resident_from && !strncmp(r->resident_from, "latency curve", 13);

	h->name = "LLC residency";
	h->counter = "last-level cache misses per BWT row (longest_lat_cache.miss; AMD: L3 PMU misses)";
	if (!measured) {
		verdict(h, "undecided", "residency by %s only, a claim: %s",
			r->resident_from ? r->resident_from : "nothing", r->resident_where);
		return;
	}
	verdict(h, r->resident ? "for" : "against", "the table %s a cache by the %s: %s",
		r->resident ? "sits in" : "is past", r->resident_from, r->resident_where);
}

static void shared_service(const struct app_bzip2_result *r, double band, struct app_bzip2_hypothesis *h)
{
	const struct app_bzip2_workers *w = r->nworkers > 1 ? &r->workers[r->nworkers - 1] : NULL;

	h->name = "shared request service";
	h->counter = "memory requests outstanding beyond the core (offcore_requests_outstanding; uncore or data "
		     "fabric request counters)";
	if (!w || !(w->block_slowdown > 0)) {
		verdict(h, "undecided", "fewer than two workers ran");
		return;
	}
	if (w->block_slowdown > 1 + band) {
		verdict(h, "for", "at %u workers the blocks decode %.2fx slower beside each other", w->n,
			w->block_slowdown);
		return;
	}
	verdict(h, "against", "at %u workers the blocks take %.2fx their time alone, within the band", w->n,
		w->block_slowdown);
}

/* The reused and fresh twins of one walk, K=8 where swept (past the K=1
 * baseline's own check), else any K. */
static bool output_pair(const struct app_bzip2_result *r, const struct app_bzip2_variant **reused,
			const struct app_bzip2_variant **fresh)
{
	*reused = *fresh = NULL;
	for (unsigned want = 8;; want = 0) {
		for (unsigned i = 0; i < r->nvariants; i++) {
			const struct app_bzip2_variant *f = &r->variants[i];

			if (!f->fresh_output || (want && f->k != want))
				continue;
			for (unsigned j = 0; j < r->nvariants; j++) {
				const struct app_bzip2_variant *u = &r->variants[j];

				if (!u->fresh_output && u->k == f->k && u->layout == f->layout && u->prefetch == f->prefetch &&
				    u->plain == f->plain && u->overlap == f->overlap && u->pages == f->pages &&
				    u->warm_seconds > 0 && f->warm_seconds > 0) {
					*reused = u;
					*fresh = f;
					return true;
				}
			}
		}
		if (!want)
			return false;
	}
}

static void output_traffic(const struct app_bzip2_result *r, double band, struct app_bzip2_hypothesis *h)
{
	const struct app_bzip2_variant *u, *f;
	double x;

	h->name = "output traffic";
	h->counter = "stores that miss and fetch their line per output byte (l2_rqsts.all_rfo; AMD: store fills "
		     "from memory)";
	if (!output_pair(r, &u, &f)) {
		verdict(h, "undecided", "no walk timed with both a reused and a fresh output buffer");
		return;
	}
	x = f->warm_seconds / u->warm_seconds;
	if (fabs(x - 1) > band) {
		verdict(h, "for", "the output buffer's lifetime moves the whole decode %.2fx (fresh over reused, "
			"K=%u)", x, f->k);
		return;
	}
	verdict(h, "against", "fresh over reused output %.2fx at K=%u, within the band", x, f->k);
}

void app_bzip2_hypotheses_judge(const struct app_bzip2_result *r, double band_pct,
				struct app_bzip2_hypothesis h[APP_BZ2_HYPOTHESES])
{
	double band = band_pct / 100;

	memset(h, 0, APP_BZ2_HYPOTHESES * sizeof(*h));
	loads_visible(r, band, &h[0]);
	bookkeeping(r, band, &h[1]);
	translation(r, band, &h[2]);
	residency(r, &h[3]);
	shared_service(r, band, &h[4]);
	output_traffic(r, band, &h[5]);
	if (band_pct > 0)
		return;
	for (unsigned i = 0; i < APP_BZ2_HYPOTHESES; i++)
		if (strcmp(h[i].verdict, "undecided") && i != 3)
			verdict(&h[i], "undecided", "no floor measured: no band to judge the axes in");
}
