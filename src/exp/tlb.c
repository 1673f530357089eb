/*
 * The TLB probe. Method, and the pitfall each part answers:
 * - One load per 4 KiB page, in a random cyclic order (a page-order stride
 *   would be followed by the prefetchers and the page-walk prefetch).
 * - Page k's node sits on line (k + c) mod 64 of the page: 4 KiB-aligned
 *   nodes would all fall in one set of a VIPT L1 (8 lines), and the cache,
 *   not the TLB, would fill first.
 * - A control chain visits the same number of lines packed densely (64 per
 *   4 KiB page) in a huge-page arena; extra = probe - control is the
 *   translation's share, by subtraction, with the data lines' own cache
 *   level taken out.
 * - Every chain of a series coexists in one arena (each owns one 8-byte
 *   column of its lines), so points are visited round-robin; each timed
 *   region follows an untimed lap of its own chain, so the TLB and the
 *   caches hold what the chain's steady state holds.
 * - The huge-page series runs the same 4 KiB-strided chains in 2 MiB pages:
 *   where those pages translate as 2 MiB, 128 MiB needs 64 entries and no
 *   step appears; where a hypervisor backs them with 4 KiB host pages, the
 *   steps land at the small-page counts.
 */
#include "exp/tlb.h"

#include "core/bounds.h"
#include "core/chain.h"
#include "kern/lanes.h"
#include "util/rng.h"
#include "core/stats.h"
#include "exp/perm_fold.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MIN_PAGES 8u
#define DEFAULT_MAX_PAGES 32768u
#define DEFAULT_TRIALS 5
#define DEFAULT_REGION_NS 200000.0
#define MIN_HOPS 2048
#define LINES_PER_PAGE 64u

struct tchain {
	struct tlb_point *pt;
	bool control;
	uintptr_t cursor;
	size_t nodes;
	size_t hops;
};

struct tsweep {
	const struct tlb_params *p;
	struct tlb_result *r;
	struct tchain chains[3 * TLB_POINTS_MAX];
	unsigned nchains;
	double target_ns;
};

static unsigned plan_counts(const struct tlb_params *p, unsigned *out, unsigned cap)
{
	unsigned min = p->min_pages ? p->min_pages : DEFAULT_MIN_PAGES;
	unsigned max = p->max_pages ? p->max_pages : DEFAULT_MAX_PAGES;
	unsigned ppo = p->points_per_octave ? p->points_per_octave : 4, n = 0;

	for (unsigned k = 0; n < cap; k++) {
		double v = (double)min * pow(2.0, (double)k / ppo);
		unsigned c = (unsigned)lround(v);

		if (v > (double)max * 1.001)
			break;
		if (!n || c > out[n - 1])
			out[n++] = c;
	}
	if (n && out[n - 1] != max && n < cap)
		out[n++] = max;
	return n;
}

/* Node k of chain j: page k, line (k + 7 * (j / 8)) mod 64, word j mod 8.
 * Two chains on the same word differ in j / 8 by 1..9, so 7x that is never
 * 0 mod 64: no two chains share a word. */
static size_t node_offset(size_t k, unsigned j)
{
	size_t line = (k + 7u * (j / 8u)) % LINES_PER_PAGE;

	return k * TLB_STRIDE_BYTES + line * 64 + (j % 8u) * sizeof(uintptr_t);
}

static int build(char *base, size_t nodes, unsigned j, bool control, uint64_t seed, uintptr_t *first,
		 uint64_t *hash)
{
	uint32_t *succ = malloc(nodes * sizeof(*succ));
	struct rng g;

	if (!succ)
		return -ENOMEM;
	rng_seed(&g, seed);
	perm_sattolo(succ, nodes, &g);
	*hash = perm_hash_fold(*hash, perm_hash(succ, nodes));
	for (size_t k = 0; k < nodes; k++) {
		size_t at = control ? k * 64 : node_offset(k, j);
		size_t next = control ? succ[k] * (size_t)64 : node_offset(succ[k], j);

		*(uintptr_t *)(base + at) = (uintptr_t)(base + next);
	}
	*first = (uintptr_t)(base + (control ? 0 : node_offset(0, j)));
	free(succ);
	return 0;
}

static int cmp_uptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return (x > y) - (x < y);
}

int tlb_layout_walk(uintptr_t first, size_t nodes, struct layout_check *c)
{
	uintptr_t *seen = malloc((nodes ? nodes : 1) * sizeof(*seen)), at = first;
	size_t steps = 0;

	if (!seen)
		return -ENOMEM;
	memset(c, 0, sizeof(*c));
	c->nodes = c->expected_lines = nodes;
	do {
		seen[steps++] = at;
		at = *(const uintptr_t *)at;
	} while (at != first && steps < nodes);
	c->steps_walked = steps;
	c->closed = at == first;
	qsort(seen, steps, sizeof(*seen), cmp_uptr);
	for (size_t i = 0; i < steps; i++) {
		c->distinct_nodes_walked += !i || seen[i] != seen[i - 1];
		c->distinct_lines_walked += !i || seen[i] / 64 != seen[i - 1] / 64;
	}
	c->ok = c->closed && steps == nodes && c->distinct_nodes_walked == nodes && c->distinct_lines_walked == nodes;
	free(seen);
	return 0;
}

/* Adds chain c's walk to the result's sum. */
static int check_layout(struct tlb_result *r, const struct tchain *c)
{
	struct layout_check one;
	int rc = tlb_layout_walk(c->cursor, c->nodes, &one);

	if (rc)
		return rc;
	r->layout.nodes += one.nodes;
	r->layout.expected_lines += one.expected_lines;
	r->layout.steps_walked += one.steps_walked;
	r->layout.distinct_nodes_walked += one.distinct_nodes_walked;
	r->layout.distinct_lines_walked += one.distinct_lines_walked;
	r->nlayout_failed += !one.ok;
	r->layout.closed = r->layout.ok = !r->nlayout_failed;
	return 0;
}

/* An untimed lap of the chain, then one timed region. */
static double visit(const struct tsweep *s, struct tchain *c, size_t hops)
{
	lanes_kernel_fn fn = lanes_kernel(1);
	uintptr_t start = fn(&c->cursor, c->nodes);
	uint64_t t0, t1;

	t0 = clock_now();
	c->cursor = fn(&start, hops);
	t1 = clock_now();
	return clock_ticks_to_ns(s->p->clock, t1 - t0) / (double)hops;
}

static double median_range(const double *v, size_t lo, size_t hi)
{
	return stats_median(v + lo, hi - lo);
}

void tlb_find_steps(struct tlb_series *s, double tol_pct)
{
	double extra[TLB_POINTS_MAX], tol[TLB_POINTS_MAX];
	size_t n = s->npoints, first = 0, lo[TLB_POINTS_MAX], hi[TLB_POINTS_MAX], nraw = 0;
	double level_extra;
	size_t level_end;

	s->nlevels = 0;
	s->first_extra_ns = s->walk_ns = NAN;
	s->walk_on_plateau = s->steps_hidden = false;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		extra[i] = s->points[i].extra_ns;
		tol[i] = fmax(tol_pct / 100.0 * s->points[i].ns_per_load, TLB_MIN_STEP_NS);
	}
	/* Raw plateaus: points whose extra stays within the tolerance of the
	 * previous and within twice of the first, at least two points spanning
	 * 1.5x in count (the first run always counts: it is the baseline). A
	 * lone last point is a rise not seen to settle, not a level. A fall
	 * joins (noise). */
	for (size_t i = 1; i <= n; i++) {
		bool joins = i < n && extra[i] <= extra[i - 1] + tol[i] && extra[i] <= extra[first] + 2 * tol[i];
		bool wide = i - first >= 2 && s->points[i - 1].pages * 2 >= s->points[first].pages * 3;

		if (joins)
			continue;
		if (wide || first == 0) {
			lo[nraw] = first;
			hi[nraw++] = i;
		}
		first = i;
	}
	/* A step is a plateau more than the tolerance above the level before;
	 * closer plateaus extend that level. */
	level_extra = median_range(extra, lo[0], hi[0]);
	level_end = hi[0] - 1;
	s->first_extra_ns = level_extra;
	for (size_t j = 1; j < nraw; j++) {
		double e = median_range(extra, lo[j], hi[j]);
		struct tlb_level *l;

		if (e <= level_extra + tol[lo[j]]) {
			level_end = hi[j] - 1;
			continue;
		}
		if (s->nlevels == TLB_LEVELS_MAX)
			break;
		l = &s->levels[s->nlevels++];
		memset(l, 0, sizeof(*l));
		l->entries = s->points[level_end].pages;
		l->reach_bytes = (size_t)l->entries * TLB_STRIDE_BYTES;
		l->page_bytes = s->page_bytes;
		l->extra_ns = e;
		level_extra = e;
		level_end = hi[j] - 1;
	}
	/* The walk: the level reached after the last step, every TLB missed. */
	s->walk_ns = s->nlevels ? level_extra : NAN;
	s->max_extra_ns = extra[n - 1];
	s->walk_on_plateau = hi[nraw - 1] == n;
	s->steps_hidden = !s->nlevels && s->max_extra_ns - s->first_extra_ns > TLB_MIN_STEP_NS;
}

static const struct cpu_tlb *reported_for(const struct tlb_result *r, unsigned level, size_t page_bytes)
{
	for (int i = 0; i < r->nreported; i++)
		if (r->reported[i].level == level && r->reported[i].page_bytes == page_bytes &&
		    strcmp(r->reported[i].type, "instruction"))
			return &r->reported[i];
	return NULL;
}

/* A floor above the least tolerance that leaves the first step the CPU
 * reports unfound: the first step found on small pages lies past 1.5x the
 * reach of the reported first level, so a smaller step (an L1 miss that
 * costs a few ns against a load of tens) sat within the floor. Huge pages
 * are left out: a guest's huge pages may step early or late for reasons of
 * their own (tlb_huge_reach_effective). */
static bool first_step_hidden(const struct tlb_result *r, const struct tlb_series *se)
{
	const struct cpu_tlb *c = reported_for(r, 1, se->page_bytes);

	return r->tolerance_pct > TLB_MIN_TOLERANCE_PCT && se->page_bytes == TLB_STRIDE_BYTES && se->nlevels && c &&
	       (double)se->levels[0].reach_bytes > 1.5 * (double)c->entries * (double)se->page_bytes;
}

/* Falls of ns_per_load beyond the run's floor (curve_falls.h). */
static void find_falls(struct tlb_series *se, double floor_pct)
{
	double pages[TLB_POINTS_MAX], ns[TLB_POINTS_MAX];

	for (unsigned i = 0; i < se->npoints; i++) {
		pages[i] = se->points[i].pages;
		ns[i] = se->points[i].ns_per_load;
	}
	se->nfalls = (unsigned)curve_find_falls(pages, ns, se->npoints, floor_pct, se->falls, TLB_FALLS_MAX);
}

void tlb_analyse(struct tlb_result *r)
{
	r->nfalls = 0;
	for (unsigned s = 0; s < r->nseries; s++) {
		struct tlb_series *se = &r->series[s];

		for (unsigned i = 0; i < se->npoints; i++) {
			struct tlb_point *pt = &se->points[i];

			pt->ns_per_load = stats_min(pt->trials_ns, pt->ntrials);
			pt->extra_ns = pt->ns_per_load - pt->control_ns;
		}
		tlb_find_steps(se, r->tolerance_pct);
		find_falls(se, r->noise_floor_pct);
		r->nfalls += se->nfalls;
		/* The CPU's claim for this level and page size, compared by
		 * reach: a 2 MiB entry that holds only 4 KiB reaches 512x less. */
		for (unsigned k = 0; k < se->nlevels; k++) {
			struct tlb_level *l = &se->levels[k];
			const struct cpu_tlb *c = reported_for(r, k + 1, se->page_bytes);
			double ratio;

			if (!c)
				continue;
			l->reported_entries = c->entries;
			ratio = (double)l->reach_bytes / ((double)c->entries * (double)se->page_bytes);
			l->agrees_with_reported = ratio >= 1.0 / 1.5 && ratio <= 1.5;
		}
		se->steps_hidden |= first_step_hidden(r, se);
	}
	r->huge_reach_known = r->nseries == 2 && tlb_huge_reach_effective(&r->series[0], &r->series[1],
									   &r->huge_reach_effective);
}

unsigned tlb_check_bounds(struct tlb_result *r, double memory_latency_ns)
{
	r->nimpossible = 0;
	r->step_bound_ns = isfinite(memory_latency_ns) && memory_latency_ns > 0
				   ? TLB_STEP_MAX_MEMORY_ACCESSES * memory_latency_ns : 0;
	for (unsigned s = 0; s < r->nseries; s++)
		for (unsigned k = 0; k < r->series[s].nlevels; k++) {
			struct tlb_level *l = &r->series[s].levels[k];

			l->impossible = bounds_exceeded(l->extra_ns, r->step_bound_ns, r->noise_floor_pct);
			r->nimpossible += l->impossible;
		}
	return r->nimpossible;
}

bool tlb_huge_reach_effective(const struct tlb_series *small, const struct tlb_series *huge, bool *effective)
{
	*effective = false;
	/* No step on huge pages says nothing of reach when the floor hid it. */
	if (!small->nlevels || (!huge->nlevels && huge->steps_hidden))
		return false;
	/* A 2 MiB entry reaches 512x a 4 KiB one: even a TLB with 8x fewer
	 * huge entries would step 64x later. Within 4x is the same TLB
	 * holding 4 KiB translations. */
	*effective = huge->nlevels == 0 || huge->levels[0].reach_bytes > 4 * small->levels[0].reach_bytes;
	return true;
}

static int sweep(struct tsweep *s)
{
	const struct tlb_params *p = s->p;

	/* An untimed pass sizes each region to the target length. */
	for (unsigned i = 0; i < s->nchains; i++) {
		struct tchain *c = &s->chains[i];
		double ns = visit(s, c, MIN_HOPS);

		c->hops = c->nodes > MIN_HOPS ? c->nodes : MIN_HOPS;
		if (ns > 0 && ns * (double)c->hops < s->target_ns)
			c->hops = (size_t)ceil(s->target_ns / ns);
		if (!c->control)
			c->pt->loads_per_region = c->hops;
	}
	for (unsigned t = 0; t < s->r->trials; t++) {
		for (unsigned i = 0; i < s->nchains; i++) {
			struct tchain *c = &s->chains[i];
			double ns;

			if (p->stop && *p->stop)
				return -EINTR;
			ns = visit(s, c, c->hops);
			if (c->control) {
				if (t == 0 || ns < c->pt->control_ns)
					c->pt->control_ns = ns;
			} else {
				c->pt->trials_ns[t] = ns;
				c->pt->ntrials = t + 1;
			}
		}
		if (p->progress)
			p->progress(p->progress_ctx, (double)(t + 1) / s->r->trials);
	}
	return 0;
}

int tlb_run(const struct tlb_params *p, struct tlb_result *r)
{
	struct tsweep s = {.p = p, .r = r};
	struct arena arenas[2] = {{0}}, ctrl = {0};
	unsigned counts[TLB_POINTS_MAX], n;
	size_t ctrl_bytes = 0, ctrl_off = 0;
	uint64_t w0 = clock_wall_ns();
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->trials = p->trials ? p->trials : DEFAULT_TRIALS;
	r->noise_floor_pct = p->noise_floor_pct;
	r->tolerance_pct = fmax(isfinite(p->noise_floor_pct) ? p->noise_floor_pct : 0.0, TLB_MIN_TOLERANCE_PCT);
	r->stride_bytes = TLB_STRIDE_BYTES;
	r->seed = p->seed;
	r->layout.closed = r->layout.ok = true;
	r->perm_hash = PERM_FOLD_BASIS;
	s.target_ns = p->region_ns > 0 ? p->region_ns : DEFAULT_REGION_NS;
	if (!p->clock || r->trials > TLB_TRIALS_MAX || (p->min_pages && p->min_pages < 2) ||
	    (p->max_pages && p->max_pages < (p->min_pages ? p->min_pages : DEFAULT_MIN_PAGES)))
		return -EINVAL;
	if (s.target_ns < p->clock->min_region_ns)
		s.target_ns = p->clock->min_region_ns;
	r->region_ns = s.target_ns;
	r->reported_rc = cpu_read_tlbs(r->reported, CPU_TLB_MAX);
	r->nreported = r->reported_rc > 0 ? r->reported_rc : 0;
	/* node_offset keeps chains apart for up to 80 chains per arena. */
	n = plan_counts(p, counts, TLB_POINTS_MAX);
	r->nseries = p->small_only ? 1 : 2;
	for (unsigned i = 0; i < n; i++)
		ctrl_bytes += ((size_t)counts[i] * 64 + 4095) / 4096 * 4096;
	for (unsigned se = 0; se < r->nseries; se++) {
		struct tlb_series *ser = &r->series[se];
		enum page_request req = se ? PAGES_HUGE : PAGES_SMALL;

		ser->page_bytes = se ? ARENA_HUGE_BYTES : TLB_STRIDE_BYTES;
		ser->npoints = n;
		if ((rc = arena_map(&arenas[se], (size_t)counts[n - 1] * TLB_STRIDE_BYTES, req)))
			goto out;
		ser->arena_bytes = arenas[se].bytes;
		for (unsigned j = 0; j < n; j++) {
			struct tchain *c = &s.chains[s.nchains++];

			ser->points[j] = (struct tlb_point){.pages = counts[j], .page_bytes = ser->page_bytes};
			*c = (struct tchain){.pt = &ser->points[j], .nodes = counts[j]};
			if ((rc = build(arenas[se].base, counts[j], j, false, p->seed + 977 * se + counts[j], &c->cursor,
					&r->perm_hash)) ||
			    (rc = check_layout(r, c)))
				goto out;
		}
	}
	if ((rc = arena_map(&ctrl, ctrl_bytes, PAGES_HUGE)))
		goto out;
	r->control_arena_bytes = ctrl.bytes;
	for (unsigned j = 0; j < n; j++) {
		struct tchain *c = &s.chains[s.nchains++];

		/* One control per count, shared by both series. */
		*c = (struct tchain){.pt = &r->series[0].points[j], .control = true, .nodes = counts[j]};
		if ((rc = build(ctrl.base + ctrl_off, counts[j], 0, true, p->seed + 31 + counts[j], &c->cursor,
				&r->perm_hash)) ||
		    (rc = check_layout(r, c)))
			goto out;
		ctrl_off += ((size_t)counts[j] * 64 + 4095) / 4096 * 4096;
	}
	for (unsigned se = 0; se < r->nseries; se++)
		arena_backing_obtained(&arenas[se], &r->series[se].huge_obtained_bytes);
	arena_backing_obtained(&ctrl, &r->control_huge_obtained_bytes);
	if ((rc = sweep(&s)))
		goto out;
	for (unsigned se = 1; se < r->nseries; se++)
		for (unsigned j = 0; j < n; j++)
			r->series[se].points[j].control_ns = r->series[0].points[j].control_ns;
	tlb_analyse(r);
	r->seconds = (double)(clock_wall_ns() - w0) / 1e9;
out:
	arena_unmap(&arenas[0]);
	arena_unmap(&arenas[1]);
	arena_unmap(&ctrl);
	return rc;
}
