/*
 * `app bzip2`'s translation axis, logic only: app_bzip2_translation_derive
 * pairs each variant off the sweep's pages with its twin on them (same
 * walk, paths and output buffer) and fills the speedups small / huge from
 * their warm figures; synthetic variants, no decode.
 */
#include "../harness.h"

#include "exp/app/bzip2.h"

#include <math.h>
#include <stdlib.h>

static struct app_bzip2_variant walk(unsigned k, enum bz2_prefetch pf, enum page_request pages, double warm)
{
	return (struct app_bzip2_variant){
		.k = k, .segments = k == 1 ? 1 : 4 * k, .layout = BZ2_LAYOUT_REGISTERS, .prefetch = pf, .pages = pages,
		.warm_seconds = warm, .walk_seconds = warm / 2, .stages = {.table = warm / 10},
	};
}

TEST(bzip2_translation_pairs_each_walk_with_its_twin)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));

	if (!r) {
		CHECK(0, "out of memory");
		return;
	}
	r->pages = PAGES_HUGE;
	r->variants[0] = walk(1, BZ2_PREFETCH_OFF, PAGES_HUGE, 0.30);
	r->variants[1] = walk(8, BZ2_PREFETCH_OFF, PAGES_HUGE, 0.15);
	r->variants[2] = walk(8, BZ2_PREFETCH_NEXT, PAGES_HUGE, 0.12);
	r->variants[3] = walk(8, BZ2_PREFETCH_NEXT, PAGES_HUGE, 0.20);
	r->variants[3].plain = BZ2_PLAIN_ALL;  /* same walk, other paths: no twin */
	r->variants[4] = walk(1, BZ2_PREFETCH_OFF, PAGES_SMALL, 0.45);
	r->variants[5] = walk(8, BZ2_PREFETCH_NEXT, PAGES_SMALL, 0.132);
	r->nvariants = 6;
	app_bzip2_translation_derive(r);
	CHECK(r->ntranslations == 2, "%u pairs (expected K=1 and K=8 next)", r->ntranslations);
	if (r->ntranslations == 2) {
		const struct app_bzip2_translation *a = &r->translations[0], *b = &r->translations[1];

		CHECK(a->small_variant == 4 && a->huge_variant == 0, "K=1 paired %u with %u", a->small_variant,
		      a->huge_variant);
		CHECK(b->small_variant == 5 && b->huge_variant == 2, "K=8 next paired %u with %u", b->small_variant,
		      b->huge_variant);
		CHECK(fabs(a->whole_speedup - 1.5) < 1e-12 && fabs(a->walk_speedup - 1.5) < 1e-12 &&
			      fabs(a->table_speedup - 1.5) < 1e-12,
		      "K=1 speedups %.3f %.3f %.3f (expected small / huge = 1.5)", a->whole_speedup, a->walk_speedup,
		      a->table_speedup);
		CHECK(fabs(b->whole_speedup - 1.1) < 1e-12, "K=8 next speedup %.3f (expected 1.1)", b->whole_speedup);
	}
	/* The sweep on small pages: the huge variants are the axis. */
	r->pages = PAGES_SMALL;
	r->variants[0].pages = PAGES_SMALL;
	r->variants[4].pages = PAGES_HUGE;
	r->variants[5].pages = PAGES_HUGE;
	r->variants[1].pages = r->variants[2].pages = r->variants[3].pages = PAGES_SMALL;
	app_bzip2_translation_derive(r);
	CHECK(r->ntranslations == 2 && r->translations[0].small_variant == 0 && r->translations[0].huge_variant == 4 &&
		      fabs(r->translations[0].whole_speedup - 0.30 / 0.45) < 1e-12,
	      "small sweep: %u pairs, first %u/%u", r->ntranslations, r->translations[0].small_variant,
	      r->translations[0].huge_variant);
	/* One page kind: no axis. */
	r->variants[4].pages = r->variants[5].pages = PAGES_SMALL;
	app_bzip2_translation_derive(r);
	CHECK(r->ntranslations == 0, "%u pairs with one page kind", r->ntranslations);
	free(r);
}
