/*
 * `app bzip2`'s translation axis (--pages both): the same walk with the
 * T-vector's arena on small pages and on huge (core/arena.c requests,
 * pre-faults and reads back the backing). Each pair's two variants have
 * their own warm minima, but those ran many seconds apart on a shared
 * machine, where a neighbour's burst moves one and not the other; so each
 * pair is also timed paired: per iteration one whole decode on each page
 * kind, the order alternating (the second of two decodes finds the input
 * and the output buffers warmer), and the speedup is the minimum of the
 * per-iteration quotients small / huge (stats_paired_min_ratio, which drops
 * an iteration disturbed on one side only). A burst shorter than a decode
 * (0.1-0.5 s) still lands on one side of a pair: the min picked 0.74x from
 * pairs of 0.33/0.24, 0.26/0.26 and 0.26/0.35 s on one recorded guest, where a
 * standalone alternation gave 1.0-1.25x. So the ratio of the two sides'
 * minima over the same interleaved iterations is given beside it, and two
 * more pairs than the trials are run.
 */
#include "exp/app/bzip2.h"

#include "core/stats.h"
#include "exp/app/bzip2_tables.h"

#include <errno.h>

static bool same_walk(const struct app_bzip2_variant *a, const struct app_bzip2_variant *b)
{
	return a->k == b->k && a->layout == b->layout && a->prefetch == b->prefetch &&
	       a->fresh_output == b->fresh_output && a->plain == b->plain && a->segments == b->segments;
}

void app_bzip2_translation_derive(struct app_bzip2_result *r)
{
	r->ntranslations = 0;
	for (unsigned i = 0; i < r->nvariants && r->ntranslations < APP_BZ2_TRANSLATIONS; i++) {
		const struct app_bzip2_variant *o = &r->variants[i];

		if (o->pages == r->pages)
			continue;
		for (unsigned j = 0; j < r->nvariants; j++) {
			const struct app_bzip2_variant *v = &r->variants[j], *sm, *hu;
			struct app_bzip2_translation *x = &r->translations[r->ntranslations];

			if (v->pages != r->pages || !same_walk(v, o))
				continue;
			sm = o->pages == PAGES_SMALL ? o : v;
			hu = sm == o ? v : o;
			x->small_variant = (unsigned)(sm - r->variants);
			x->huge_variant = (unsigned)(hu - r->variants);
			x->whole_speedup = hu->warm_seconds > 0 ? sm->warm_seconds / hu->warm_seconds : 0;
			x->table_speedup = hu->stages.table > 0 ? sm->stages.table / hu->stages.table : 0;
			x->walk_speedup = hu->walk_seconds > 0 ? sm->walk_seconds / hu->walk_seconds : 0;
			r->ntranslations++;
			break;
		}
	}
}

/* One whole decode on d, in seconds; -1 for a failure (the variants
 * decoded these bytes already, so only memory can fail here). */
static double one_decode(struct bz2_decoder *d, const uint8_t *in, size_t len, const struct bz2_decode_opts *o,
			 const struct clock_info *clk)
{
	struct bz2_error e;
	uint64_t t0 = clock_now();

	if (bz2_decode_with(d, in, len, o, NULL, NULL, NULL, &e))
		return -1;
	return clock_ticks_to_ns(clk, clock_now() - t0) * 1e-9;
}

static int pair_run(const struct app_bzip2_params *p, const uint8_t *in, size_t len, const struct app_bzip2_variant *v,
		    struct app_bzip2_translation *x)
{
	struct bz2_decode_opts o = {
		.walk = {.lanes = v->k, .segments = v->segments, .layout = v->layout, .prefetch = v->prefetch,
			 .seed = p->seed},
		.fresh_output = v->fresh_output,
		.plain = v->plain,
	};
	struct bz2_decoder *d[2] = {app_bz2_decoder_new_pages(PAGES_SMALL), app_bz2_decoder_new_pages(PAGES_HUGE)};
	unsigned n = (p->trials < 2 ? 2 : p->trials) + 2;
	int rc = 0;

	x->npaired = 0;
	if (!d[0] || !d[1]) {
		rc = -ENOMEM;
		goto out;
	}
	/* Each decoder's other buffers first touched outside the pairs. */
	if (one_decode(d[0], in, len, &o, p->clock) < 0 || one_decode(d[1], in, len, &o, p->clock) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned t = 0; t < n && t < APP_BZ2_TRIALS_MAX; t++) {
		double sec[2];

		if ((t >= 3 && app_bzip2_past(p, APP_BZ2_PHASE_VARIANTS)) || (p->stop && *p->stop))
			break;
		for (unsigned k = 0; k < 2; k++) {
			unsigned side = (t + k) & 1;

			if ((sec[side] = one_decode(d[side], in, len, &o, p->clock)) < 0) {
				rc = -ENOMEM;
				goto out;
			}
		}
		x->small_seconds[t] = sec[0];
		x->huge_seconds[t] = sec[1];
		x->npaired++;
	}
	for (unsigned k = 0; k < 2; k++)
		if (arena_backing_obtained(app_bz2_table(d[k], 0), &x->paired_huge_bytes[k]))
			x->paired_huge_bytes[k] = app_bz2_table(d[k], 0)->huge_bytes_obtained;
	x->paired_arena_bytes = app_bz2_table(d[1], 0)->bytes;
	x->paired_speedup = x->npaired ? stats_paired_min_ratio(x->small_seconds, x->huge_seconds, x->npaired) : 0;
	x->minima_speedup = x->npaired ? stats_min(x->small_seconds, x->npaired) / stats_min(x->huge_seconds, x->npaired) : 0;
	if (p->stop && *p->stop)
		rc = -EINTR;
out:
	bz2_decoder_free(d[0]);
	bz2_decoder_free(d[1]);
	return rc;
}

int app_bzip2_translation_paired(const struct app_bzip2_params *p, const uint8_t *in, size_t len,
				 struct app_bzip2_result *r)
{
	int rc = 0;

	for (unsigned i = 0; i < r->ntranslations && !rc; i++)
		rc = pair_run(p, in, len, &r->variants[r->translations[i].huge_variant], &r->translations[i]);
	return rc;
}
