/*
 * The latency hierarchy. Method, and the pitfall each part answers:
 * - Every chain of every size coexists in one arena (one for small pages),
 *   built and checked once. Chains share cache lines without sharing words:
 *   a line holds line_bytes / 8 pointer slots ("columns") and each chain
 *   owns one column of a range of lines. A chase loads one word per line,
 *   so the other columns cost it nothing.
 * - Building a random chain is the expensive part (random stores, then the
 *   layout check walks it), so above dense_max_bytes the sweep thins to one
 *   point per octave: the knees are below it.
 * - Each chain is timed in blocks: a warm start, then its trials back to
 *   back. Visiting sizes round-robin with a lap before each region left the
 *   Intel guest's 4-8 MiB sets at 113-119 ns against 34 ns warm: the 1 GiB
 *   visits between left the lap unable to bring a set back into the L3
 *   share. A set that may fit a cache starts with a full walk; a larger one
 *   with a lead-in of one load per 4 KiB (16K..256K loads), since the sizes
 *   before it evicted the page-walk caches and the cached page-table lines
 *   (on a guest whose 2 MiB pages are backed by 4 KiB host pages, 8 B per
 *   4 KiB of the set; a short region right after another size's read up to
 *   1.4x the steady latency). Two passes, ascending then descending, keep
 *   drift off one end of the curve.
 * - Regions walk a fixed number of loads, never a whole cycle.
 * - Every size is checked: after its own warm start, over regions 4x
 *   longer; each level's middle is also walked back to back (a plain warm
 *   chase) as a reference printed beside the curve.
 * - Each value is the minimum over trials; the noise floor given by the
 *   caller is the tolerance for levels and for flagging falls.
 * - Re-timing: a point that read slower than a larger set after it is
 *   timed again, after a fresh warm start, before the fall is flagged. At
 *   the edge of a shared cache's share the steady state is not unique: on
 *   another recorded guest a plain warm chase of 4 MiB, walked back to back,
 *   settled at 26 ns in one run and climbed to 95 ns in the next, seconds
 *   apart (what ran before, and the other tenants, decide which). Both are
 *   timings of the set warm, so both are trials of the same minimum: no
 *   chase reads faster than its steady state. A fall that survives the
 *   second look is flagged as before; the text names every re-timed point
 *   with both figures.
 */
#include "exp/latency.h"
#include "exp/latency_sizes.h"

#include "core/stats.h"
#include "kern/lanes.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_BYTES ((size_t)1 << 30)
#define DEFAULT_WARM_MAX_BYTES ((size_t)64 << 20)
#define DEFAULT_TRIALS 6
/* No load is faster than this: a region of min_region_ns / this loads is
 * long enough for the clock whatever it measures. */
#define FASTEST_LOAD_NS 0.5
#define MIN_LEAD_IN_HOPS 16384
#define LEAD_IN_MAX_HOPS 262144
#define MAX_COLUMNS 64

struct slot {
	struct latency_point *pt;
	struct chain chain;
	bool stream;
	size_t offset_bytes;   /* in its arena, column included */
	uintptr_t cursor;
	size_t nodes;
	size_t warm_hops;      /* one full walk; 0: the set is past warm_max */
	size_t lead_in_hops;
	size_t warm_loads;     /* walked on this chain since another was walked */
};

struct sweep {
	const struct latency_params *p;
	struct latency_result *r;
	struct slot slots[2 * LATENCY_POINTS_MAX];
	unsigned nslots;
	struct slot *last;     /* the chain walked last */
	size_t hops;           /* per timed region */
	unsigned blocks_done, blocks_total;
};

/* First fit by decreasing size into columns of capacity_bytes each. Returns
 * false when the chains do not fit. */
static bool pack_columns(struct slot **v, unsigned n, size_t capacity_bytes, unsigned ncols)
{
	size_t used[MAX_COLUMNS] = {0};

	for (unsigned i = 0; i < n; i++) {
		size_t bytes = v[i]->pt->size_bytes;
		unsigned c = 0;

		while (c < ncols && used[c] + bytes > capacity_bytes)
			c++;
		if (c == ncols)
			return false;
		v[i]->offset_bytes = used[c] + c * sizeof(uintptr_t);
		used[c] += bytes;
	}
	return true;
}

static int cmp_slot_desc(const void *a, const void *b)
{
	size_t x = (*(struct slot *const *)a)->pt->size_bytes, y = (*(struct slot *const *)b)->pt->size_bytes;

	return (x < y) - (x > y);
}

/* Place the slots of one page kind; returns the arena bytes they need. */
static size_t place(struct sweep *s, enum page_request pages, size_t max, size_t line)
{
	struct slot *v[2 * LATENCY_POINTS_MAX];
	unsigned n = 0, ncols = (unsigned)(line / sizeof(uintptr_t));
	size_t capacity = (max + ARENA_HUGE_BYTES - 1) / ARENA_HUGE_BYTES * ARENA_HUGE_BYTES;

	if (ncols > MAX_COLUMNS)
		ncols = MAX_COLUMNS;
	for (unsigned i = 0; i < s->nslots; i++)
		if (s->slots[i].pt->pages == pages)
			v[n++] = &s->slots[i];
	if (!n)
		return 0;
	qsort(v, n, sizeof(v[0]), cmp_slot_desc);
	while (!pack_columns(v, n, capacity, ncols))
		capacity += ARENA_HUGE_BYTES;
	return capacity;
}

static int slot_build(struct sweep *s, struct slot *sl, char *base)
{
	const struct latency_params *p = s->p;
	struct latency_point *pt = sl->pt;
	size_t line = s->r->line_bytes;
	struct layout_check *check = sl->stream ? &pt->stream_layout : &pt->chase_layout;
	int rc;

	if (sl->stream)
		rc = chain_build_sequential(&sl->chain, base + sl->offset_bytes, pt->size_bytes, line, line);
	else
		rc = chain_build(&sl->chain, base + sl->offset_bytes, pt->size_bytes, line, line,
				 p->seed + pt->size_bytes, p->layout ? p->layout : chain_offset_linear);
	if (rc)
		return rc;
	if (!sl->stream)
		pt->perm_hash = sl->chain.perm_hash;
	if ((rc = chain_verify(&sl->chain, check)))
		return rc;
	/* The cycle order is only needed by the check: a visit continues from
	 * where the last one stopped, so the order array (4 B per node) goes. */
	chain_free(&sl->chain);
	sl->cursor = (uintptr_t)sl->chain.base;
	return check->ok ? 0 : -EPROTO;
}

/* How each block of a slot starts: a set that may fit the caches gets full
 * walks (its lines, not only its page-walk state, are what the sizes
 * visited before it evicted); a larger one a lead-in of one load per 4 KiB:
 * each touches another page-table entry, so it brings about as many
 * page-table lines back as the set has (on a guest whose 2 MiB pages are
 * backed by 4 KiB host pages, 8 B per 4 KiB of the set). */
size_t latency_lead_in_loads(size_t size_bytes)
{
	size_t loads = size_bytes / 4096;

	return loads < MIN_LEAD_IN_HOPS ? MIN_LEAD_IN_HOPS : loads > LEAD_IN_MAX_HOPS ? LEAD_IN_MAX_HOPS : loads;
}

static void slot_plan_warmth(struct sweep *s, struct slot *sl)
{
	struct latency_point *pt = sl->pt;

	sl->nodes = pt->size_bytes / s->r->line_bytes;
	sl->warm_hops = pt->size_bytes <= s->r->warm_max_bytes ? sl->nodes : 0;
	sl->lead_in_hops = 0;
	if (!sl->warm_hops)
		sl->lead_in_hops = latency_lead_in_loads(pt->size_bytes);
	pt->warmed = sl->warm_hops && !s->p->no_warm_walk;
	pt->lead_in_hops = s->p->no_lead_in ? 0 : sl->lead_in_hops;
}

/* Walk `loads` steps of a chain from its cursor; returns ns per load. A
 * test's region model stands in for the hardware when given. */
static double slot_walk(struct sweep *s, struct slot *sl, size_t loads)
{
	const struct latency_params *p = s->p;
	lanes_kernel_fn fn = lanes_kernel(1);
	uintptr_t start = sl->cursor;
	uint64_t t0, t1;
	double ns;

	if (s->last != sl)
		sl->warm_loads = 0;
	s->last = sl;
	if (p->region_model)
		ns = p->region_model(p->region_model_ctx, sl->pt->size_bytes, sl->stream, loads, sl->warm_loads);
	else {
		t0 = clock_now();
		sl->cursor = fn(&start, loads);
		t1 = clock_now();
		ns = clock_ticks_to_ns(p->clock, t1 - t0) / (double)loads;
	}
	sl->warm_loads += loads;
	return ns;
}

/* After the full walk, a set between the L2 and the last cache is not yet
 * steady: on another recorded guest a 4 MiB chase read 90, 76, 63 ns over
 * the three regions after one walk and 34 ns a lap later (the last cache
 * fills from the L2's evictions, a lap at a time); past the caches the
 * page-walk state keeps warming after the lead-in (1 GiB read 167 ns over
 * the first regions, 127 over longer ones). So regions are walked, timed
 * but not kept, until one is no faster than the one before by more than
 * LATENCY_SETTLE_PCT, at most min(4 walks, 16 regions) of loads. Returns
 * the loads walked. */
static size_t slot_settle(struct sweep *s, struct slot *sl)
{
	size_t cap = 4 * sl->nodes < 16 * s->hops ? 4 * sl->nodes : 16 * s->hops, walked = 0;
	double prev = slot_walk(s, sl, s->hops);

	for (walked = s->hops; walked < cap; walked += s->hops) {
		double ns = slot_walk(s, sl, s->hops);

		if (ns >= prev * (1.0 - LATENCY_SETTLE_PCT / 100.0))
			return walked + s->hops;
		prev = ns;
	}
	return walked;
}

/* A set that may fit a cache is walked whole until a walk reads no faster
 * than the one before by more than LATENCY_SETTLE_PCT (after warm_walks at
 * least, LATENCY_WARM_WALKS_MAX at most): the state a plain warm chase
 * reaches by walking it back to back. On one recorded guest a set
 * in the L3 share came back a walk at a time after other sets had run
 * (4 MiB: 101, 88, 70, 58, 44, 35, 26, 22 ns over eight walks), and one
 * whole walk after one warm walk read 1.7-2.6x the minimum of five back to
 * back (bench/latency_ab.sh, arm warm1, docs/VALIDATION.md): the regions'
 * settling, a quarter walk each at 16 MiB, stopped on the noise between two
 * of them long before. A set in memory stops after two walks. Returns the
 * loads walked past warm_walks. */
static size_t slot_warm_walks(struct sweep *s, struct slot *sl)
{
	unsigned least = s->r->warm_walks, w;
	double prev = INFINITY;

	for (w = 0; w < LATENCY_WARM_WALKS_MAX || w < least; w++) {
		double ns = slot_walk(s, sl, sl->warm_hops);

		if (w + 1 >= least && ns >= prev * (1.0 - LATENCY_SETTLE_PCT / 100.0)) {
			w++;
			break;
		}
		prev = ns;
	}
	return w > least ? (w - least) * sl->warm_hops : 0;
}

/* The untimed start of a block; `guard` keeps it whatever the test knobs
 * say (the steady-state check's own visit). */
static void slot_warm(struct sweep *s, struct slot *sl, bool guard)
{
	const struct latency_params *p = s->p;
	size_t settled, walked = 0;

	if (sl->warm_hops) {
		if (!guard && p->no_warm_walk)
			return;
		walked = slot_warm_walks(s, sl);
	} else {
		if (!guard && p->no_lead_in)
			return;
		slot_walk(s, sl, sl->lead_in_hops);
	}
	settled = walked + slot_settle(s, sl);
	if (settled > sl->pt->settle_loads)
		sl->pt->settle_loads = settled;
}

static int tick(struct sweep *s)
{
	const struct latency_params *p = s->p;

	if (p->stop && *p->stop)
		return -EINTR;
	s->blocks_done++;
	if (p->progress)
		p->progress(p->progress_ctx, (double)s->blocks_done / s->blocks_total);
	return 0;
}

/* One block: a slot's warm start, then its trials of this pass back to back
 * (trial t belongs to pass t % passes). */
static void slot_block(struct sweep *s, struct slot *sl, unsigned pass)
{
	struct latency_point *pt = sl->pt;

	slot_warm(s, sl, false);
	for (unsigned t = pass; t < s->r->trials; t += s->r->passes) {
		double ns = slot_walk(s, sl, s->hops);

		if (sl->stream)
			pt->stream_trials_ns[t] = ns;
		else
			pt->chase_trials_ns[t] = ns;
	}
	pt->ntrials = s->r->trials;
}

/* The steady-state check at every size: each chase, after its own warm
 * walk (or lead-in; kept even when a test skips them in the blocks), timed
 * over regions 4x longer, steady_visits times back to back, the minimum.
 * The blocks' figure is held to it: a block that was not warm reads slower. */
static int steady_round(struct sweep *s)
{
	unsigned visits = s->p->steady_visits ? s->p->steady_visits : LATENCY_STEADY_VISITS;

	for (unsigned i = 0; i < s->nslots; i++) {
		struct slot *sl = &s->slots[i];
		struct latency_point *pt = sl->pt;

		if (sl->stream)
			continue;
		slot_warm(s, sl, true);
		for (unsigned v = 0; v < visits; v++) {
			double ns = slot_walk(s, sl, 4 * s->hops);

			if (!pt->steady_checked || ns < pt->steady_long_ns)
				pt->steady_long_ns = ns;
			pt->steady_checked = true;
		}
		if (tick(s))
			return -EINTR;
	}
	return 0;
}


bool latency_reference_agrees(double curve_ns, double warm_ns, double tol_pct)
{
	/* Two-sided: a curve slower than its warm reference was not taken warm;
	 * a curve faster than it reads below what a warm chase can read (or the
	 * reference was caught in a slow moment): either way the two figures
	 * of one quantity differ, and which to believe is not known here. */
	return stats_agree_within_pct(curve_ns, warm_ns, tol_pct);
}


/* Sizes in blocks: each slot's trials of a pass run back to back after its
 * warm start, so nothing another size did is left between the warm walk
 * and the timed regions. Pass 0 ascends, pass 1 descends (and so on): a
 * drift of the clock or the host lands on both ends of the curve, and the
 * minimum over trials keeps the quieter one. The chase and the stream of a
 * size are separate blocks: a stream region touches lines the chase needs
 * in the cache. */
static int sweep_run(struct sweep *s)
{
	for (unsigned pass = 0; pass < s->r->passes; pass++)
		for (unsigned k = 0; k < s->nslots; k++) {
			unsigned i = pass % 2 ? s->nslots - 1 - k : k;

			slot_block(s, &s->slots[i], pass);
			if (tick(s))
				return -EINTR;
		}
	return steady_round(s);
}

/* The chase slot of curve point i. */
static struct slot *chase_slot(struct sweep *s, unsigned i)
{
	for (unsigned k = 0; k < s->nslots; k++)
		if (s->slots[k].pt == &s->r->points[i] && !s->slots[k].stream)
			return &s->slots[k];
	return NULL;
}

/* Each level's warm reference, at the curve point nearest the geometric
 * middle of the level's sizes: a full walk (or the lead-in), then
 * reference_walks walks back to back, of the whole set where it may fit the
 * caches (a plain warm chase), else of 4x the region. */
static int reference_round(struct sweep *s)
{
	struct latency_result *r = s->r;

	r->nrefs = 0;
	r->refs_disagree = 0;
	for (unsigned k = 0; k < r->nlevels; k++) {
		const struct latency_level *l = &r->levels[k];
		double mid = sqrt((double)l->first_bytes * (double)l->size_bytes), best = INFINITY;
		struct latency_reference *ref = &r->refs[r->nrefs];
		unsigned pick = 0;
		struct slot *sl;

		if (l->tlb)
			continue;
		for (unsigned i = 0; i < r->ncurve; i++) {
			double d = fabs(log((double)r->points[i].size_bytes / mid));

			if (d < best) {
				best = d;
				pick = i;
			}
		}
		if (!(sl = chase_slot(s, pick)))
			continue;
		if (s->p->stop && *s->p->stop)
			return -EINTR;
		*ref = (struct latency_reference){.level = l->level, .point = pick, .size_bytes = sl->pt->size_bytes,
						  .curve_ns = sl->pt->chase_ns, .warm_ns = INFINITY};
		ref->loads = sl->warm_hops ? (sl->nodes > s->hops ? sl->nodes : s->hops) : 4 * s->hops;
		slot_warm(s, sl, true);
		for (unsigned w = 0; w < r->reference_walks; w++)
			ref->warm_ns = fmin(ref->warm_ns, slot_walk(s, sl, ref->loads));
		ref->diff_pct = 100.0 * (ref->curve_ns / ref->warm_ns - 1.0);
		ref->agrees = latency_reference_agrees(ref->curve_ns, ref->warm_ns, r->tolerance_pct);
		r->refs_disagree += !ref->agrees;
		r->nrefs++;
	}
	return 0;
}

/* The memory set timed as a plain chase times it: after its lead-in, the
 * minimum of LATENCY_WHOLE_WALKS walks of the whole set (at most
 * LATENCY_WHOLE_WALK_MAX_LOADS loads each), beside the curve's minimum over
 * short regions. On one recorded guest the report read 256 MiB at 176 ns over
 * regions while whole walks read 218 ns: the headline says
 * which estimator it is and shows both. */
static int whole_walk_round(struct sweep *s)
{
	struct latency_result *r = s->r;
	struct slot *sl = chase_slot(s, r->ncurve - 1);

	r->whole_walk_ns_at_max = r->whole_walk_regions_ns = NAN;
	r->whole_walk_loads = 0;
	if (!sl || s->p->region_model || s->p->no_whole_walk)
		return 0;
	if (s->p->stop && *s->p->stop)
		return -EINTR;
	r->whole_walk_loads = sl->nodes < LATENCY_WHOLE_WALK_MAX_LOADS ? sl->nodes : LATENCY_WHOLE_WALK_MAX_LOADS;
	slot_warm(s, sl, true);
	r->whole_walk_ns_at_max = INFINITY;
	for (unsigned w = 0; w < LATENCY_WHOLE_WALKS; w++)
		r->whole_walk_ns_at_max = fmin(r->whole_walk_ns_at_max, slot_walk(s, sl, r->whole_walk_loads));
	/* The headline's estimator at the same moment: on one recorded guest the
	 * memory set's figure moved 1.5x within minutes (192-327 ns), so a whole
	 * walk tens of seconds after the sweep's regions compares moments, not
	 * estimators. */
	r->whole_walk_regions_ns = INFINITY;
	for (unsigned t = 0; t < LATENCY_WHOLE_WALK_REGIONS; t++)
		r->whole_walk_regions_ns = fmin(r->whole_walk_regions_ns, slot_walk(s, sl, s->hops));
	return 0;
}

/* The points a fall stands below, to be timed again: from the earlier
 * maximum it fell from up to the point before it, each still above the
 * fallen point by more than the floor. The ones standing above the most
 * falls come first (one point caught slow can stand above every larger
 * set); returns how many were picked (at most cap), *left counts the rest. */
static unsigned retime_pick(const struct latency_result *r, unsigned *pick, unsigned cap, unsigned *left)
{
	double tol = (isfinite(r->noise_floor_pct) && r->noise_floor_pct > 0 ? r->noise_floor_pct : 0.0) / 100.0;
	unsigned above[LATENCY_POINTS_MAX] = {0}, n = 0;

	for (unsigned f = 0; f < r->nfalls; f++) {
		const struct curve_fall *x = &r->falls[f];

		for (size_t j = x->ref_index; j < x->index; j++)
			above[j] += r->points[j].chase_ns > x->y * (1.0 + tol);
	}
	*left = 0;
	for (;;) {
		unsigned best = 0;

		for (unsigned j = 1; j < r->ncurve; j++)
			if (above[j] > above[best])
				best = j;
		if (!above[best])
			return n;
		above[best] = 0;
		if (n < cap)
			pick[n++] = best;
		else
			(*left)++;
	}
}

/* What one re-timing block of a slot costs, in ns, at the latency the
 * sweep read: its warm walks or lead-in, the settling (about 3 regions, as
 * the budget prices it, never over its cap) and its regions. */
static double retime_block_ns(const struct sweep *s, const struct slot *sl, unsigned regions)
{
	size_t settle_cap = 4 * sl->nodes < 16 * s->hops ? 4 * sl->nodes : 16 * s->hops;
	size_t settle = 3 * s->hops < settle_cap ? 3 * s->hops : settle_cap;
	/* Walks: warm_walks, and one more that reads no faster (a set in memory). */
	size_t start = sl->warm_hops ? (s->r->warm_walks + 1) * sl->warm_hops : sl->lead_in_hops;

	return (double)(start + settle + regions * s->hops) * sl->pt->chase_ns;
}

/* Re-timing (see the top of this file): each picked point gets
 * LATENCY_RETIME_BLOCKS more blocks, a warm start and trials / passes
 * regions each, the blocks interleaved over the points as the passes are.
 * Points go in the order picked while their cost fits budget_ns; the rest are
 * counted in retime_skipped and keep the sweep's figure. */
static int retime_round(struct sweep *s, double budget_ns)
{
	struct latency_result *r = s->r;
	unsigned pick[LATENCY_RETIME_POINTS_MAX], n, kept = 0, left;
	struct slot *slots[LATENCY_RETIME_POINTS_MAX];
	unsigned per = r->trials / r->passes;
	double cost = 0;

	if (per * LATENCY_RETIME_BLOCKS > LATENCY_RETIME_TRIALS)
		per = LATENCY_RETIME_TRIALS / LATENCY_RETIME_BLOCKS;
	n = retime_pick(r, pick, LATENCY_RETIME_POINTS_MAX, &left);
	for (unsigned k = 0; k < n; k++) {
		struct slot *sl = chase_slot(s, pick[k]);
		double c = sl ? LATENCY_RETIME_BLOCKS * retime_block_ns(s, sl, per) : INFINITY;

		if (cost + c > budget_ns) {
			left++;
			continue;
		}
		cost += c;
		slots[kept++] = sl;
	}
	for (unsigned b = 0; b < LATENCY_RETIME_BLOCKS; b++)
		for (unsigned k = 0; k < kept; k++) {
			struct slot *sl = slots[k];

			if (s->p->stop && *s->p->stop)
				return -EINTR;
			slot_warm(s, sl, true);
			for (unsigned t = 0; t < per; t++)
				sl->pt->retime_trials_ns[sl->pt->nretime++] = slot_walk(s, sl, s->hops);
		}
	r->nretimed = kept;
	r->retime_skipped = left;
	return 0;
}

unsigned latency_placement_pick(const struct latency_result *r, unsigned *pick, unsigned cap)
{
	unsigned n = 0;

	for (unsigned k = 0; k < r->nlevels; k++) {
		const struct latency_level *l = &r->levels[k];
		unsigned j = 0;

		if (l->tlb || l->reaches_max)
			continue;
		while (j + 1 < r->ncurve && r->points[j + 1].size_bytes <= l->size_bytes)
			j++;
		/* j: the level's last plateau point; j + 1: the first past it. */
		for (unsigned i = j; i <= j + 1 && i < r->ncurve && n < cap; i++)
			if (r->points[i].pages == PAGES_HUGE && r->points[i].size_bytes <= r->warm_max_bytes &&
			    !r->points[i].nalloc_trials && (!n || pick[n - 1] < i))
				pick[n++] = i;
	}
	return n;
}

/* The second allocation: a mapping of the set's own (other physical pages
 * than the arena's), the same permutation (seed) as the arena's chain, so
 * the pages are the one thing that differs. Built and checked as the
 * arena's chains are; a model needs no memory. */
static int own_build(struct sweep *s, struct slot *own, struct arena *m)
{
	const struct latency_params *p = s->p;
	size_t bytes = own->pt->size_bytes, line = s->r->line_bytes;
	struct layout_check check = {0};
	int rc;

	if (p->region_model)
		return 0;
	if ((rc = arena_map(m, bytes + ARENA_HUGE_BYTES, PAGES_HUGE)))
		return rc;
	rc = chain_build_verified(&own->chain, m->base, bytes, line, line, p->seed + bytes,
				  p->layout ? p->layout : chain_offset_linear, &check);
	chain_free(&own->chain);
	own->cursor = (uintptr_t)own->chain.base;
	return rc;
}

/* One placement block: the slot's warm start, then `per` regions into its
 * allocation's trials from `at`. */
static void placement_block(struct sweep *s, struct slot *sl, unsigned alloc, unsigned at, unsigned per)
{
	slot_warm(s, sl, true);
	for (unsigned t = 0; t < per; t++)
		sl->pt->alloc_trials_ns[alloc][at + t] = slot_walk(s, sl, s->hops);
}

/* Placement: whether the figure at a level's end depends on
 * which physical pages hold the set. A cache indexed by physical address
 * past the 4 KiB page (an L2 or L3; on a guest whose 2 MiB pages the host
 * backs with 4 KiB pages, past 4 KiB even inside a huge page) sees
 * another conflict pattern on other pages; at a cache's end a few sets
 * over their ways decide whether the set holds. Each picked point is timed
 * on the arena's chain and on its own allocation, blocks alternated
 * (own, arena, arena, own, own, arena: the host's moment and its drift
 * land on both alike), one point at a time (one extra mapping at once). The own
 * allocation's first block follows its build, as a plain chase's walks do.
 * The largest points are kept first while their cost fits *budget_ns (the
 * last cache's end is where the issue was seen), which is charged it. */
static int placement_round(struct sweep *s, double *budget_ns)
{
	struct latency_result *r = s->r;
	unsigned pick[LATENCY_PLACEMENT_POINTS_MAX], n, per = LATENCY_PLACEMENT_TRIALS / LATENCY_PLACEMENT_BLOCKS;
	bool use[LATENCY_PLACEMENT_POINTS_MAX] = {false};
	double cost = 0;
	int rc = 0;

	n = latency_placement_pick(r, pick, LATENCY_PLACEMENT_POINTS_MAX);
	for (unsigned k = n; k-- > 0;) {
		struct slot *sl = chase_slot(s, pick[k]);
		double c = sl ? 2 * LATENCY_PLACEMENT_BLOCKS * retime_block_ns(s, sl, per) : INFINITY;

		use[k] = cost + c <= *budget_ns;
		cost += use[k] ? c : 0;
		r->placement_skipped += !use[k];
	}
	*budget_ns -= cost;
	for (unsigned k = 0; k < n && !rc; k++) {
		struct slot *sl = chase_slot(s, pick[k]), own;
		struct arena m = {0};

		if (!use[k])
			continue;
		own = *sl;
		if (own_build(s, &own, &m)) {
			r->placement_skipped++;
			arena_unmap(&m);
			continue;
		}
		for (unsigned b = 0; b < LATENCY_PLACEMENT_BLOCKS && !rc; b++) {
			struct slot *first = b % 2 ? sl : &own, *second = b % 2 ? &own : sl;

			if (s->p->stop && *s->p->stop)
				rc = -EINTR;
			else {
				placement_block(s, first, first == sl ? 0 : 1, b * per, per);
				placement_block(s, second, second == sl ? 0 : 1, b * per, per);
			}
		}
		if (!rc) {
			sl->pt->nalloc_trials = LATENCY_PLACEMENT_BLOCKS * per;
			r->nplaced++;
		}
		if (s->last == &own)
			s->last = NULL;
		arena_unmap(&m);
	}
	return rc;
}

/* Points, then two slots per point in visit order: ascending size, chase
 * then stream, the small-page points after the huge-page curve. */
static int sweep_plan(struct sweep *s)
{
	const struct latency_params *p = s->p;
	struct latency_result *r = s->r;
	size_t sizes[LATENCY_POINTS_MAX], largest = latency_largest_cache(p->reported_cache_bytes, LATENCY_CACHES_MAX);
	size_t min = p->min_bytes ? p->min_bytes : LATENCY_MIN_BYTES_DEFAULT;
	struct latency_ladder ladder = {
		.min_bytes = min, .max_bytes = r->max_bytes, .line_bytes = r->line_bytes,
		.dense_max_bytes = p->dense_max_bytes, .points_per_octave = p->points_per_octave,
		.near_caches = p->points_near_caches, .cache_bytes = p->reported_cache_bytes, .ncaches = LATENCY_CACHES_MAX,
	};
	size_t small_from = p->small_pages_from_bytes ? p->small_pages_from_bytes : r->max_bytes;
	unsigned n, nsmall = 0;

	if (min < 2 * r->line_bytes || min > r->max_bytes)
		return -EINVAL;
	n = latency_plan_sizes(&ladder, sizes, LATENCY_POINTS_MAX);
	for (unsigned i = 0; i < n; i++)
		nsmall += sizes[i] >= small_from;
	/* The small-page points must fit too; the dense curve gives way. */
	while (n + nsmall > LATENCY_POINTS_MAX)
		memmove(sizes + 1, sizes + 2, (--n - 1) * sizeof(sizes[0]));
	for (unsigned i = 0; i < n; i++)
		r->points[r->npoints++] = (struct latency_point){.size_bytes = sizes[i], .pages = PAGES_HUGE};
	r->ncurve = n;
	for (unsigned i = 0; i < n; i++)
		if (sizes[i] >= small_from)
			r->points[r->npoints++] = (struct latency_point){.size_bytes = sizes[i], .pages = PAGES_SMALL};
	for (unsigned i = 0; i < r->npoints; i++) {
		s->slots[s->nslots++] = (struct slot){.pt = &r->points[i], .stream = false};
		s->slots[s->nslots++] = (struct slot){.pt = &r->points[i], .stream = true};
	}
	/* Warm what the caches the OS reports may hold: a set past the last of
	 * them misses whatever ran before it, and a full walk of it would cost
	 * as much as its trials many times over. */
	r->warm_max_bytes = p->warm_max_bytes ? p->warm_max_bytes : largest ? largest : DEFAULT_WARM_MAX_BYTES;
	for (unsigned i = 0; i < s->nslots; i++)
		slot_plan_warmth(s, &s->slots[i]);
	s->blocks_total = r->passes * s->nslots + r->npoints;
	return 0;
}

/* The run's settings, each defaulted where the caller left it 0.
 * -EINVAL when they cannot make a sweep. */
static int take_params(const struct latency_params *p, struct latency_result *r)
{
	r->max_bytes = p->max_bytes ? p->max_bytes : DEFAULT_MAX_BYTES;
	r->line_bytes = p->line_bytes ? p->line_bytes : 64;
	r->trials = p->trials ? p->trials : DEFAULT_TRIALS;
	r->passes = p->passes ? p->passes : LATENCY_PASSES;
	r->warm_walks = p->warm_walks ? p->warm_walks : 1;
	r->reference_walks = p->reference_walks ? p->reference_walks : LATENCY_REFERENCE_WALKS;
	r->noise_floor_pct = p->noise_floor_pct;
	r->core_mhz_min = p->core_mhz_min;
	r->core_mhz_max = p->core_mhz_max;
	r->core_clock_unsteady = p->core_clock_unsteady;
	r->seed = p->seed;
	if (!p->clock || !p->derive || r->trials > LATENCY_TRIALS_MAX || r->line_bytes < sizeof(uintptr_t) ||
	    r->line_bytes % sizeof(uintptr_t) || r->max_bytes % r->line_bytes)
		return -EINVAL;
	if (r->passes > r->trials)
		r->passes = r->trials;
	return 0;
}

/* Shorter regions are dominated by the timer's own step and cost; a
 * count the caller gives is kept (a test shortens regions on purpose). */
static size_t region_hops(const struct latency_params *p)
{
	size_t hops = p->region_hops ? p->region_hops : LATENCY_REGION_HOPS;
	size_t min_hops = (size_t)ceil(p->clock->min_region_ns / FASTEST_LOAD_NS);

	if (!p->region_hops && hops < min_hops)
		hops = min_hops;
	return hops;
}

/* Both arenas and every slot's chain in them, built and checked; the
 * backing read after the chains are written: that is the state the sweep
 * starts from. */
static int build_chains(struct sweep *s, struct arena *huge, struct arena *small)
{
	const struct latency_params *p = s->p;
	struct latency_result *r = s->r;
	size_t huge_bytes = place(s, PAGES_HUGE, r->max_bytes, r->line_bytes);
	size_t small_bytes = place(s, PAGES_SMALL, r->max_bytes, r->line_bytes);
	int rc;

	/* Slack past the last chain: a broken test layout writes beyond the
	 * span it claims, and must fail its check, not fault. */
	if ((rc = arena_map(huge, huge_bytes + ARENA_HUGE_BYTES, PAGES_HUGE)))
		return rc;
	r->arena_huge_bytes = huge->bytes;
	r->collapse_errno = huge->collapse_errno;
	if (small_bytes && (rc = arena_map(small, small_bytes + ARENA_HUGE_BYTES, PAGES_SMALL)))
		return rc;
	r->arena_small_bytes = small->bytes;
	for (unsigned i = 0; i < s->nslots; i++) {
		struct slot *sl = &s->slots[i];

		if (p->stop && *p->stop)
			return -EINTR;
		if ((rc = slot_build(s, sl, sl->pt->pages == PAGES_HUGE ? huge->base : small->base)))
			return rc;
	}
	arena_backing_obtained(huge, &r->arena_huge_obtained_bytes);
	if (small->base)
		arena_backing_obtained(small, &r->arena_small_obtained_bytes);
	return 0;
}

/* The smaller of before and after: the kernel may split huge pages while
 * we measure; a small-page arena may be collapsed by khugepaged. */
static void recheck_backing(struct latency_result *r, const struct arena *huge, const struct arena *small)
{
	size_t after;

	if (huge->base && !arena_backing_obtained(huge, &after) && after < r->arena_huge_obtained_bytes)
		r->arena_huge_obtained_bytes = after;
	if (small->base && !arena_backing_obtained(small, &after) && after > r->arena_small_obtained_bytes)
		r->arena_small_obtained_bytes = after;
}

/* The levels' ends on a second allocation, within
 * LATENCY_PLACEMENT_SHARE of the sweep's time (0.5 s at least). Where
 * that moves a level's end (the point past it held on one of them: a
 * share that the moment, or the pages, let hold more), the new end's
 * points are placed too, while the budget lasts. */
static int placement_rounds(struct sweep *s, uint64_t sweep_ns)
{
	const struct latency_params *p = s->p;
	struct latency_result *r = s->r;
	double budget = fmax(0.5e9, LATENCY_PLACEMENT_SHARE * (double)sweep_ns);
	int rc;

	for (unsigned round = 0; round < LATENCY_PLACEMENT_ROUNDS; round++) {
		unsigned placed = r->nplaced, skipped = r->placement_skipped;

		if ((rc = placement_round(s, &budget)))
			return rc;
		p->derive(r, p);
		if (r->nplaced == placed || r->placement_skipped > skipped)
			break;
	}
	return 0;
}

int latency_run(const struct latency_params *p, struct latency_result *r)
{
	struct sweep s = {.p = p, .r = r};
	struct arena huge = {0}, small = {0};
	uint64_t w0 = clock_wall_ns(), w1;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = take_params(p, r)))
		return rc;
	s.hops = region_hops(p);
	r->region_hops = s.hops;
	if ((rc = sweep_plan(&s)))
		return rc;
	for (unsigned i = 0; i < r->npoints; i++)
		r->points[i].chase_hops = r->points[i].stream_hops = s.hops;
	if (p->region_model) {
		/* A model has no memory to lay out: every layout is as claimed. */
		for (unsigned i = 0; i < r->npoints; i++)
			r->points[i].chase_layout.ok = r->points[i].stream_layout.ok = true;
	} else if ((rc = build_chains(&s, &huge, &small))) {
		goto out;
	}
	w1 = clock_wall_ns();
	r->setup_seconds = (double)(w1 - w0) / 1e9;
	if ((rc = sweep_run(&s)))
		goto out;
	recheck_backing(r, &huge, &small);
	p->derive(r, p);
	r->nfalls_sweep = r->nfalls_found;
	/* A second look at the points above a fall, at most 5% of the sweep's
	 * time (0.5 s at least): then the curve is derived again. */
	if (!p->no_retime && r->nfalls_found) {
		if ((rc = retime_round(&s, fmax(0.5e9, 0.05 * (double)(clock_wall_ns() - w1)))))
			goto out;
		p->derive(r, p);
	}
	if (!p->no_placement && (rc = placement_rounds(&s, clock_wall_ns() - w1)))
		goto out;
	/* The references need the levels, and their chains still mapped. */
	if ((rc = reference_round(&s)) || (rc = whole_walk_round(&s)))
		goto out;
	r->sweep_seconds = (double)(clock_wall_ns() - w1) / 1e9;
out:
	for (unsigned i = 0; i < s.nslots; i++)
		chain_free(&s.slots[i].chain);
	arena_unmap(&huge);
	arena_unmap(&small);
	return rc;
}

/* ---- the copy other sections read (exp/latency_curve.h) ---- */

_Static_assert(LATENCY_CURVE_POINTS_MAX >= LATENCY_POINTS_MAX, "a curve holds every latency point");
_Static_assert(LATENCY_CURVE_LEVELS_MAX >= LATENCY_LEVELS_MAX, "a curve holds every level and reference");

static struct latency_curve_point point_of(const struct latency_point *p)
{
	return (struct latency_curve_point){
		.size_bytes = p->size_bytes, .huge = p->pages == PAGES_HUGE, .huge_fraction = p->huge_fraction,
		.chase_ns = p->chase_ns, .ntrials = p->ntrials,
		.trials_min_ns = p->ntrials ? stats_min(p->chase_trials_ns, p->ntrials) : NAN,
		.trials_max_ns = p->ntrials ? stats_max(p->chase_trials_ns, p->ntrials) : NAN,
		.steady_checked = p->steady_checked, .steady_ok = p->steady_ok, .steady_long_ns = p->steady_long_ns,
	};
}

const struct latency_curve *latency_curve_of(const struct latency_result *r, struct latency_curve *out)
{
	if (!r)
		return NULL;
	memset(out, 0, sizeof(*out));
	out->npoints = r->npoints;
	out->ncurve = r->ncurve;
	for (unsigned i = 0; i < r->npoints; i++)
		out->points[i] = point_of(&r->points[i]);
	out->nlevels = r->nlevels;
	for (unsigned k = 0; k < r->nlevels; k++) {
		const struct latency_level *l = &r->levels[k];

		out->levels[k] = (struct latency_curve_level){
			.first_bytes = l->first_bytes, .size_bytes = l->size_bytes, .cache_level = l->cache_level,
			.reaches_max = l->reaches_max, .disagrees = l->disagrees, .tlb = l->tlb,
		};
	}
	out->nrefs = r->nrefs;
	for (unsigned k = 0; k < r->nrefs; k++)
		out->refs[k] = (struct latency_curve_reference){
			.point = r->refs[k].point, .size_bytes = r->refs[k].size_bytes, .curve_ns = r->refs[k].curve_ns,
			.warm_ns = r->refs[k].warm_ns,
		};
	out->tolerance_pct = r->tolerance_pct;
	return out;
}
