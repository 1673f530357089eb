/*
 * The K=1 walk against the chase at the table's footprint. At K=1 the walk
 * is one dependent load per row (T[pos]) plus a few independent
 * instructions (the byte out of the entry, the output store, the count),
 * which an out-of-order core runs under the load's latency; so one row
 * costs at most the chase's t(1) plus that work, and a K=1 walk far above
 * it was disturbed (a fault storm, a migration, a neighbour) or walks
 * something the chase does not. Every s and R(K) divides by this walk, so
 * it is re-timed, and marked when the re-time agrees. Measures nothing
 * itself: the re-time is the caller's (bzip2.c's timing, or a test's).
 */
#include "exp/app/bzip2.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double walk_ns_per_row(const struct app_bzip2_result *r, const struct app_bzip2_variant *v)
{
	return r->rows && v->walk_seconds > 0 ? v->walk_seconds * 1e9 / (double)r->rows : NAN;
}

/* The walk's own work per row, bounded from above by the fastest walk of
 * more than one lane at the same pages: with K chains in flight the loads'
 * latency overlaps, and what is left per row is the instructions (more of
 * them than K=1 runs: lane bookkeeping). Without such a walk, the chase's
 * t(1) itself (as if the work were as long as a load: the loosest bound). */
static void bound_work(struct app_bzip2_result *r, struct app_bzip2_baseline *b)
{
	int at = -1;
	double best = INFINITY;

	for (unsigned i = 0; i < r->nvariants; i++) {
		const struct app_bzip2_variant *v = &r->variants[i];
		double ns = walk_ns_per_row(r, v);

		if (v->k > 1 && v->pages == r->pages && v->overlap == BZ2_OVERLAP_OFF && ns < best) {
			best = ns;
			at = (int)i;
		}
	}
	if (at < 0) {
		b->work_ns_per_row = b->chase_ns;
		snprintf(b->work_from, sizeof(b->work_from), "the chase's t(1) (no walk of K > 1 timed)");
		return;
	}
	b->work_ns_per_row = best;
	snprintf(b->work_from, sizeof(b->work_from), "the fastest walk of K > 1 (K=%u, variant %d)", r->variants[at].k,
		 at);
}

bool app_bzip2_baseline_judge(struct app_bzip2_result *r)
{
	struct app_bzip2_baseline *b = &r->baseline;
	struct app_bzip2_baseline_row prev[APP_BZ2_BASELINE_ROWS];
	unsigned nprev = b->nrows;

	memcpy(prev, b->rows, sizeof(prev));
	memset(b, 0, sizeof(*b));
	if (!r->chase.ran || !(r->chase.latency_ns > 0) || !r->rows)
		return false;
	b->chase_ns = r->chase.latency_ns;
	b->floor_pct = r->chase.noise_floor_pct > 0 ? r->chase.noise_floor_pct : 0;
	bound_work(r, b);
	b->bound_ns_per_row = (b->chase_ns + b->work_ns_per_row) * (1 + b->floor_pct / 100);
	for (unsigned i = 0; i < r->nvariants && b->nrows < APP_BZ2_BASELINE_ROWS; i++) {
		const struct app_bzip2_variant *v = &r->variants[i];
		struct app_bzip2_baseline_row *row = &b->rows[b->nrows];

		if (v->k != 1 || v->pages != r->pages || v->plain || v->overlap != BZ2_OVERLAP_OFF ||
		    !isfinite(walk_ns_per_row(r, v)))
			continue;
		row->variant = i;
		row->walk_ns_per_row = walk_ns_per_row(r, v);
		row->first_ns_per_row = row->walk_ns_per_row;
		/* A second judgement (after a re-time) keeps the first timing and the re-time's mark. */
		for (unsigned j = 0; j < nprev; j++)
			if (prev[j].variant == i) {
				row->first_ns_per_row = prev[j].first_ns_per_row;
				row->retimed = prev[j].retimed;
			}
		row->slow = row->walk_ns_per_row > b->bound_ns_per_row;
		b->nslow += row->slow;
		b->nrows++;
	}
	b->checked = b->nrows > 0;
	return b->checked;
}

/* Re-time row's variant; adopt the re-time when its walk is faster (the
 * sweep's timing was the disturbed one). True when adopted. */
static int retime_row(struct app_bzip2_result *r, struct app_bzip2_baseline_row *row, app_bzip2_retime_fn retime,
		      void *ctx, bool *adopted)
{
	struct app_bzip2_variant *v = &r->variants[row->variant], again = *v;
	int rc;

	again.ntrials = 0;
	memset(again.trial_seconds, 0, sizeof(again.trial_seconds));
	if ((rc = retime(ctx, r, row->variant, &again)))
		return rc;
	row->retimed = true;
	*adopted = again.walk_seconds > 0 && again.walk_seconds < v->walk_seconds;
	if (*adopted)
		*v = again;
	return 0;
}

int app_bzip2_baseline_check(struct app_bzip2_result *r, app_bzip2_retime_fn retime, void *ctx)
{
	struct app_bzip2_baseline *b = &r->baseline;
	bool changed = false;
	int rc;

	if (!app_bzip2_baseline_judge(r) || !b->nslow || !retime)
		return 0;
	for (unsigned i = 0; i < b->nrows; i++) {
		bool adopted = false;

		if (b->rows[i].slow && (rc = retime_row(r, &b->rows[i], retime, ctx, &adopted)))
			return rc;
		changed |= adopted;
	}
	if (changed) {
		app_bzip2_derive(r);
		app_bzip2_chase_ratios(r);
	}
	app_bzip2_baseline_judge(r);
	return 0;
}

struct real_retime {
	const struct app_bzip2_params *p;
	char *err;
	size_t errlen;
};

static int real_retime(void *ctx, const struct app_bzip2_result *r, unsigned i, struct app_bzip2_variant *v)
{
	const struct real_retime *c = ctx;

	(void)i;
	if (c->p->stop && *c->p->stop)
		return -EINTR;
	return app_bzip2_time_variant(c->p, r, r->kept_input, r->kept_input_bytes, v, c->err, c->errlen);
}

int app_bzip2_baseline_run(const struct app_bzip2_params *p, struct app_bzip2_result *r, char *err, size_t errlen)
{
	struct real_retime c = {.p = p, .err = err, .errlen = errlen};

	return app_bzip2_baseline_check(r, r->kept_input ? real_retime : NULL, &c);
}

void app_bzip2_release_input(struct app_bzip2_result *r)
{
	free(r->kept_input);
	r->kept_input = NULL;
	r->kept_input_bytes = 0;
}
