/*
 * Latency under load. Method, and the pitfalls each part answers:
 * - The generators stream their own slices of one arena far beyond the LLC,
 *   one request per line, each followed by a spin of calibrated length; the
 *   spin does not depend on the load, so out-of-order cores keep several
 *   requests in flight at small delays (the offered load is measured, not
 *   assumed from the delay).
 * - Delivered bandwidth is read from the generators' own line counters over
 *   the chase's timed window, so it is the load the chase actually met.
 *   Counters are published every GEN_BATCH lines, to a line per generator.
 * - Points (delay x traffic, idle included) are visited round-robin across
 *   trials; latency is the minimum over trials, bandwidth from that trial.
 */
#include "exp/loaded.h"
#include "exp/curve_falls.h"
#include "exp/policy.h"

#include "core/bounds.h"
#include "core/chain.h"
#include "kern/lanes.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN_BATCH 8

static const char bw_definition[] =
	"bytes the load generators requested during the chase's timed window: lines x line size for "
	"read, x 2 for read_write (each line is read and later written back); the chaser's own lines "
	"are not included; decimal GB/s";

struct gen_state {
	uint64_t lines;            /* atomic, published every GEN_BATCH lines */
	int running;               /* atomic */
	uint64_t sum;
	size_t offset;             /* where in its slice the next run resumes */
} __attribute__((aligned(128)));

struct ld_ctx {
	const struct loaded_params *p;
	char *gen_base;
	size_t slice_bytes;
	struct chain *chain;
	size_t cursor;
	uint64_t spin_iters;
	bool idle;
	bool chase;                /* false: time the generators alone */
	enum loaded_traffic traffic;
	int stop;                  /* atomic */
	unsigned ngen;
	struct gen_state *gens;
	/* Written by thread 0 only. */
	double latency_ns;
	double bw_gbps;
	double lines_per_s;
	uintptr_t sink;
};

/* A dependent counter loop: one iteration per cycle or so, no memory
 * traffic, and the empty asm keeps the compiler from folding it away. */
static void spin(uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		__asm__ volatile("" : "+r"(i));
}

static double calibrate_spin(const struct clock_info *clock)
{
	const uint64_t iters = 200000;
	double best = INFINITY;

	for (int rep = 0; rep < 5; rep++) {
		uint64_t t0 = clock_now();

		spin(iters);
		best = fmin(best, clock_ticks_to_ns(clock, clock_now() - t0) / (double)iters);
	}
	return best;
}

static int generator(struct ld_ctx *c, unsigned g)
{
	struct gen_state *st = &c->gens[g];
	const size_t line = c->p->line_bytes;
	/* Resume where the last run stopped: restarting at the slice's base
	 * would re-read lines the previous (shorter) run left in the cache. */
	char *base = c->gen_base + (size_t)g * c->slice_bytes, *p = base + st->offset;
	char *end = base + c->slice_bytes;
	uint64_t lines = 0, sum = 0, iters = c->spin_iters;

	__atomic_store_n(&st->running, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		if (c->idle)
			continue;
		for (unsigned i = 0; i < GEN_BATCH; i++) {
			/* volatile: exactly one access per line, never widened. */
			if (c->traffic == LOADED_READ_WRITE)
				(*(volatile uint64_t *)p)++;
			else
				sum += *(volatile const uint64_t *)p;
			p += line;
			if (p >= end)
				p = base;
			spin(iters);
		}
		lines += GEN_BATCH;
		__atomic_store_n(&st->lines, lines, __ATOMIC_RELAXED);
	}
	st->sum = sum;
	st->offset = (size_t)(p - base);
	return 0;
}

static uint64_t lines_so_far(const struct ld_ctx *c)
{
	uint64_t n = 0;

	for (unsigned g = 0; g < c->ngen; g++)
		n += __atomic_load_n(&c->gens[g].lines, __ATOMIC_RELAXED);
	return n;
}

static void wait_running(const struct ld_ctx *c)
{
	for (unsigned g = 0; g < c->ngen; g++)
		while (!__atomic_load_n(&c->gens[g].running, __ATOMIC_ACQUIRE))
			;
}

static uintptr_t chase(struct ld_ctx *c, size_t hops)
{
	uintptr_t start = chain_node_at(c->chain, c->cursor);

	/* A fresh stretch of the cycle every region. */
	c->cursor += hops;
	return lanes_kernel(1)(&start, hops);
}

static int timer_thread(struct ld_ctx *c)
{
	const struct clock_info *clock = c->p->clock;
	double bytes_per_line = (double)c->p->line_bytes * (c->traffic == LOADED_READ_WRITE ? 2 : 1);
	uint64_t l0, l1, t0, t1;

	wait_running(c);
	if (c->chase) {
		/* Untimed quarter region: the load ramps up (prefetchers engage,
		 * queues fill) before the window opens. */
		c->sink ^= chase(c, c->p->hops / 4);
		l0 = lines_so_far(c);
		t0 = clock_now();
		c->sink ^= chase(c, c->p->hops);
		t1 = clock_now();
		l1 = lines_so_far(c);
		c->latency_ns = clock_ticks_to_ns(clock, t1 - t0) / (double)c->p->hops;
	} else {
		uint64_t window = (uint64_t)(c->p->offered_window_ns * clock->ticks_per_ns);

		t0 = clock_now();
		while (clock_now() - t0 < window / 4)
			;
		l0 = lines_so_far(c);
		t0 = clock_now();
		while ((t1 = clock_now()) - t0 < window)
			;
		l1 = lines_so_far(c);
	}
	c->lines_per_s = (double)(l1 - l0) / clock_ticks_to_ns(clock, t1 - t0) * 1e9;
	c->bw_gbps = (double)(l1 - l0) * bytes_per_line / clock_ticks_to_ns(clock, t1 - t0);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
	return 0;
}

static int member(void *ctx, unsigned index, int cpu, void *slot)
{
	(void)cpu;
	(void)slot;
	return index == 0 ? timer_thread(ctx) : generator(ctx, index - 1);
}

void loaded_params_default(struct loaded_params *p, const struct clock_info *clock, const struct topo *topo,
			   bool quick)
{
	static const double full[] = {0, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
	static const double brief[] = {0, 5, 20, 100, 500, 2000};
	size_t llc = topo ? topo_largest_cache_bytes(topo) : 0, gen = policy_memory_set_bytes(llc), chase_bytes = gen / 2;

	*p = (struct loaded_params){
		.run_floor_pct = NAN,
		.clock = clock, .threads = 0, .chase_bytes = chase_bytes, .gen_bytes = gen, .spacing_bytes = 64,
		.line_bytes = topo && topo->line_bytes ? topo->line_bytes : 64, .pages = PAGES_HUGE,
		.read_write = !quick, .trials = quick ? 3 : 9, .hops = quick ? 16384 : 32768,
		.offered_window_ns = 2e6, .seed = 21,
	};
	p->ndelays = quick ? sizeof(brief) / sizeof(brief[0]) : sizeof(full) / sizeof(full[0]);
	memcpy(p->delays_ns, quick ? brief : full, p->ndelays * sizeof(double));
}

static int validate(const struct loaded_params *p, unsigned *nthreads, char *err, size_t errlen)
{
	int rc;

	if ((rc = team_resolve_timed("loaded", p->clock, p->threads, nthreads, err, errlen)))
		return rc;
	if (*nthreads < 2) {
		snprintf(err, errlen, "loaded: needs 2 threads (a chaser and a load generator), %u %s",
			 *nthreads, p->threads ? "requested" : "CPU allowed");
		return -EINVAL;
	}
	if (p->ndelays == 0 || p->ndelays > LOADED_MAX_DELAYS || p->delays_ns[0] != 0) {
		snprintf(err, errlen, "loaded: 1..%d delays, the first 0 ns", LOADED_MAX_DELAYS);
		return -EINVAL;
	}
	for (unsigned i = 1; i < p->ndelays; i++)
		if (!(p->delays_ns[i] > p->delays_ns[i - 1])) {
			snprintf(err, errlen, "loaded: delays must ascend");
			return -EINVAL;
		}
	if (p->trials == 0 || p->trials % LOADED_TRIAL_GROUP || p->trials > LOADED_MAX_TRIALS) {
		snprintf(err, errlen, "loaded: trials must be a multiple of 3 up to %d", LOADED_MAX_TRIALS);
		return -EINVAL;
	}
	if (!p->spacing_bytes || !p->line_bytes || p->chase_bytes / p->spacing_bytes < 2 * p->hops || p->hops < 4 ||
	    p->gen_bytes / (*nthreads - 1) < 64 * p->line_bytes || !(p->offered_window_ns > 0)) {
		snprintf(err, errlen, "loaded: chain must hold 2x the hops; generator slices at least 64 lines");
		return -EINVAL;
	}
	return 0;
}

static int run_team(struct ld_ctx *c, struct team_placement *pl)
{
	c->stop = 0;
	/* Counters restart; each generator's place in its slice carries over. */
	for (unsigned g = 0; g < c->ngen; g++)
		c->gens[g] = (struct gen_state){.offset = c->gens[g].offset};
	return team_run(pl, member, c, NULL, 0);
}

static uint64_t delay_iters(double delay_ns, double ns_per_iter)
{
	return delay_ns > 0 ? (uint64_t)llround(delay_ns / ns_per_iter) : 0;
}

static int setup_generators(const struct loaded_params *p, unsigned nthreads, struct arena *gen_arena,
			    struct ld_ctx *c, char *err, size_t errlen)
{
	int rc;

	c->p = p;
	c->ngen = nthreads - 1;
	if (!(c->gens = aligned_alloc(128, c->ngen * sizeof(*c->gens))))
		return -ENOMEM;
	memset(c->gens, 0, c->ngen * sizeof(*c->gens));
	if ((rc = arena_map(gen_arena, p->gen_bytes, p->pages))) {
		snprintf(err, errlen, "loaded: cannot map %zu bytes: %s", p->gen_bytes, strerror(-rc));
		return rc;
	}
	c->gen_base = gen_arena->base;
	c->slice_bytes = p->gen_bytes / c->ngen / p->line_bytes * p->line_bytes;
	return 0;
}

int loaded_offered_rates(const struct loaded_params *p, enum loaded_traffic traffic, double *rates_per_s,
			 double *spin_ns_per_iter, char *err, size_t errlen)
{
	struct arena gen_arena = {0};
	struct team_placement pl;
	struct ld_ctx c = {0};
	unsigned nthreads;
	int rc;

	err[0] = 0;
	if ((rc = validate(p, &nthreads, err, errlen)) || (rc = team_plan(&pl, nthreads, err, errlen)))
		return rc;
	if ((rc = setup_generators(p, nthreads, &gen_arena, &c, err, errlen)))
		goto out;
	*spin_ns_per_iter = calibrate_spin(p->clock);
	c.traffic = traffic;
	for (unsigned d = 0; d < p->ndelays; d++) {
		c.spin_iters = delay_iters(p->delays_ns[d], *spin_ns_per_iter);
		if ((rc = run_team(&c, &pl)))
			goto out;
		rates_per_s[d] = c.lines_per_s;
	}
out:
	free(c.gens);
	arena_unmap(&gen_arena);
	return rc;
}

unsigned loaded_find_falls(struct loaded_result *r)
{
	r->nfalls = 0;
	for (unsigned k = 0; k < r->ncurves; k++) {
		struct loaded_curve *c = &r->curves[k];
		double load[LOADED_MAX_DELAYS + 1], ns[LOADED_MAX_DELAYS + 1];
		unsigned at[LOADED_MAX_DELAYS + 1], n = c->npoints;
		struct curve_fall falls[LOADED_MAX_DELAYS + 1];
		size_t nf;

		/* The curve holds delays ascending, idle last: read backwards it
		 * is idle first, then the offered load rising. */
		for (unsigned i = 0; i < n; i++) {
			at[i] = n - 1 - i;
			load[i] = i;
			ns[i] = c->points[at[i]].impossible ? NAN : c->points[at[i]].latency_ns;
			c->points[at[i]].non_monotonic = false;
		}
		nf = curve_find_falls(load, ns, n, r->noise_floor_pct, falls, LOADED_MAX_DELAYS + 1);
		for (size_t j = 0; j < nf; j++) {
			struct loaded_point *pt = &c->points[at[falls[j].index]];

			pt->non_monotonic = true;
			pt->fall_pct = falls[j].fall_pct;
			pt->fall_ref = at[falls[j].ref_index];
		}
		r->nfalls += (unsigned)nf;
	}
	return r->nfalls;
}

void loaded_find_double(struct loaded_curve *c)
{
	unsigned order[LOADED_MAX_DELAYS + 1], n = c->npoints;
	double idle = c->idle_latency_ns, target = 2 * idle;

	/* Order by offered load: idle first, then delays descending; a point
	 * marked impossible is no evidence of where latency doubles. */
	n = 0;
	for (unsigned i = 0; i < c->npoints; i++)
		if (!c->points[i].impossible)
			order[n++] = i;
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0; j--) {
			const struct loaded_point *a = &c->points[order[j - 1]], *b = &c->points[order[j]];
			bool swap = !a->idle && (b->idle || b->delay_ns > a->delay_ns);

			if (!swap)
				break;
			unsigned tmp = order[j];

			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	c->double_reached = false;
	c->bw_at_double_latency_gbps = NAN;
	c->max_latency_ratio = 0;
	c->bw_at_max_ratio_gbps = NAN;
	/* Doubling counts only where it holds at every higher offered load too:
	 * one preempted point (a single 250 ns reading among 130s was seen here)
	 * is noise, not the knee of the curve. */
	bool stays[LOADED_MAX_DELAYS + 1];
	bool all_above = true;

	for (unsigned i = n; i-- > 0;) {
		all_above = all_above && c->points[order[i]].latency_ns >= target;
		stays[i] = all_above;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct loaded_point *pt = &c->points[order[i]];

		if (pt->latency_ns / idle > c->max_latency_ratio) {
			c->max_latency_ratio = pt->latency_ns / idle;
			c->bw_at_max_ratio_gbps = pt->bw_gbps;
		}
		if (!c->double_reached && stays[i]) {
			c->double_reached = true;
			if (i == 0) {
				c->bw_at_double_latency_gbps = pt->bw_gbps;
			} else {
				const struct loaded_point *q = &c->points[order[i - 1]];
				double f = (target - q->latency_ns) / (pt->latency_ns - q->latency_ns);

				c->bw_at_double_latency_gbps = q->bw_gbps + f * (pt->bw_gbps - q->bw_gbps);
			}
		}
	}
}

unsigned loaded_check_bounds(struct loaded_result *r)
{
	double floor_pct = bounds_ratio_floor_pct(r->noise_floor_pct);

	r->nimpossible = 0;
	for (unsigned k = 0; k < r->ncurves; k++)
		for (unsigned i = 0; i < r->curves[k].npoints; i++) {
			struct loaded_point *pt = &r->curves[k].points[i];

			pt->bound_gbps = pt->idle ? 0 : pt->offered_gbps;
			if (!pt->idle && r->stream_peak_gbps > 0 && r->stream_peak_gbps < pt->bound_gbps)
				pt->bound_gbps = r->stream_peak_gbps;
			pt->impossible = !pt->idle && bounds_exceeded(pt->bw_gbps, pt->bound_gbps, floor_pct);
			r->nimpossible += pt->impossible;
		}
	return r->nimpossible;
}

/* The generators alone again at the delay of every point above its offer:
 * one 2 ms window, the first thing the section timed, is the figure most
 * exposed to a clock still ramping or a CPU lent away; the higher of the
 * two readings stands (a rate is only ever disturbed downwards). */
static int retime_offered(struct loaded_result *r, struct ld_ctx *c)
{
	bool was_chase = c->chase;
	int rc = 0;

	c->chase = false;
	c->idle = false;
	for (unsigned k = 0; k < r->ncurves && !rc; k++)
		for (unsigned i = 0; i < r->curves[k].npoints && !rc; i++) {
			struct loaded_point *pt = &r->curves[k].points[i];

			if (!pt->impossible)
				continue;
			c->traffic = r->curves[k].traffic;
			c->spin_iters = delay_iters(pt->delay_ns, r->spin_ns_per_iter);
			if (!(rc = run_team(c, &r->placement))) {
				pt->offered_gbps = fmax(pt->offered_gbps, c->bw_gbps);
				r->offered_retimed++;
			}
		}
	c->chase = was_chase;
	return rc;
}

/* This section's own floor on its own points (stats_floor, shared by every
 * section): a chase under load is far noisier than the noise section's. */
static double noise_floor_pct(const struct loaded_result *r)
{
	struct stats_floor fl = {0};

	for (unsigned k = 0; k < r->ncurves; k++)
		for (unsigned i = 0; i < r->curves[k].npoints; i++) {
			const struct loaded_point *pt = &r->curves[k].points[i];

			stats_floor_add(&fl, pt->trials_latency_ns, pt->ntrials, LOADED_TRIAL_GROUP, false);
		}
	return stats_floor_take_pct(&fl);
}

static void record_params(const struct loaded_params *p, struct loaded_result *r, unsigned nthreads)
{
	r->generators = nthreads - 1;
	r->chase_bytes = p->chase_bytes;
	r->gen_bytes = p->gen_bytes;
	r->line_bytes = p->line_bytes;
	r->trials = p->trials;
	r->hops = p->hops;
	r->ncurves = p->read_write ? 2 : 1;
	r->stream_peak_gbps = isfinite(p->stream_peak_gbps) && p->stream_peak_gbps > 0 ? p->stream_peak_gbps : 0;
}

/* The chase's chain, its layout checked (-EPROTO, err filled, when it
 * fails: no latency read off it would mean anything). */
static int map_chase(const struct loaded_params *p, struct loaded_result *r, struct arena *arena,
		     struct chain *chain, char *err, size_t errlen)
{
	struct layout_check check;
	int rc;

	if ((rc = arena_map(arena, p->chase_bytes, p->pages)) ||
	    (rc = chain_build(chain, arena->base, p->chase_bytes, p->spacing_bytes, p->line_bytes, p->seed,
			      chain_offset_linear)) ||
	    (rc = chain_verify(chain, &check)))
		return rc;
	r->layout_ok = check.ok;
	r->perm_seed = p->seed;
	r->perm_hash = chain->perm_hash;
	if (!check.ok) {
		snprintf(err, errlen, "loaded: the chase chain failed its layout check");
		return -EPROTO;
	}
	return 0;
}

/* Each curve's points (delays ascending, idle last) and their offered
 * load: the generators alone, before any chase. */
static int measure_offered(const struct loaded_params *p, struct loaded_result *r, struct ld_ctx *c)
{
	double offered[LOADED_MAX_DELAYS];
	int rc;

	for (unsigned k = 0; k < r->ncurves; k++) {
		struct loaded_curve *cv = &r->curves[k];

		cv->traffic = k ? LOADED_READ_WRITE : LOADED_READ;
		cv->name = k ? "read_write" : "read";
		cv->npoints = p->ndelays + 1;
		c->chase = false;
		c->traffic = cv->traffic;
		for (unsigned d = 0; d < p->ndelays; d++) {
			c->spin_iters = delay_iters(p->delays_ns[d], r->spin_ns_per_iter);
			if ((rc = run_team(c, &r->placement)))
				return rc;
			offered[d] = c->bw_gbps;
		}
		for (unsigned d = 0; d <= p->ndelays; d++) {
			cv->points[d].idle = d == p->ndelays;
			cv->points[d].delay_ns = cv->points[d].idle ? NAN : p->delays_ns[d];
			cv->points[d].offered_gbps = cv->points[d].idle ? 0 : offered[d];
		}
	}
	return 0;
}

/* Untimed: one idle and one full-load region; then every point once per
 * trial, round-robin over the curves. */
static int run_trials(const struct loaded_params *p, struct loaded_result *r, struct ld_ctx *c)
{
	int rc;

	c->chase = true;
	c->idle = true;
	if ((rc = run_team(c, &r->placement)))
		return rc;
	c->idle = false;
	c->spin_iters = 0;
	if ((rc = run_team(c, &r->placement)))
		return rc;
	for (unsigned t = 0; t < p->trials; t++)
		for (unsigned k = 0; k < r->ncurves; k++)
			for (unsigned d = 0; d < r->curves[k].npoints; d++) {
				struct loaded_point *pt = &r->curves[k].points[d];

				if (p->stop && *p->stop)
					return -EINTR;
				c->traffic = r->curves[k].traffic;
				c->idle = pt->idle;
				c->spin_iters = pt->idle ? 0 : delay_iters(pt->delay_ns, r->spin_ns_per_iter);
				if ((rc = run_team(c, &r->placement)))
					return rc;
				pt->trials_latency_ns[pt->ntrials] = c->latency_ns;
				pt->trials_bw_gbps[pt->ntrials++] = c->bw_gbps;
			}
	return 0;
}

/* Each point's latency (its fastest trial) and bandwidth, and each
 * curve's idle latency. */
static void take_points(struct loaded_result *r)
{
	for (unsigned k = 0; k < r->ncurves; k++) {
		struct loaded_curve *cv = &r->curves[k];

		for (unsigned d = 0; d < cv->npoints; d++) {
			struct loaded_point *pt = &cv->points[d];
			unsigned best = 0;

			for (unsigned t = 1; t < pt->ntrials; t++)
				if (pt->trials_latency_ns[t] < pt->trials_latency_ns[best])
					best = t;
			pt->latency_ns = pt->trials_latency_ns[best];
			/* The bandwidth of a point is what its trials delivered; the
			 * median is steadier than the min-latency trial's own. */
			pt->bw_gbps = stats_median(pt->trials_bw_gbps, pt->ntrials);
		}
		cv->idle_latency_ns = cv->points[cv->npoints - 1].latency_ns;
	}
	r->idle_latency_ns = r->curves[0].idle_latency_ns;
}

int loaded_run(const struct loaded_params *p, struct loaded_result *r, char *err, size_t errlen)
{
	struct arena chase_arena = {0}, gen_arena = {0};
	struct chain chain = {0};
	struct ld_ctx c = {0};
	uint64_t w0 = clock_wall_ns();
	size_t huge;
	unsigned nthreads;
	int rc;

	err[0] = 0;
	memset(r, 0, sizeof(*r));
	r->bw_definition = bw_definition;
	if ((rc = validate(p, &nthreads, err, errlen)) || (rc = team_plan(&r->placement, nthreads, err, errlen)))
		return rc;
	record_params(p, r, nthreads);
	if ((rc = setup_generators(p, nthreads, &gen_arena, &c, err, errlen)) ||
	    (rc = map_chase(p, r, &chase_arena, &chain, err, errlen)))
		goto out;
	c.chain = &chain;
	r->spin_ns_per_iter = calibrate_spin(p->clock);
	if ((rc = measure_offered(p, r, &c)) || (rc = run_trials(p, r, &c)))
		goto out;
	take_points(r);
	r->noise_floor_pct = stats_floor_or_run(noise_floor_pct(r), p->run_floor_pct, &r->floor_from_run);
	if (loaded_check_bounds(r)) {
		if ((rc = retime_offered(r, &c)))
			goto out;
		loaded_check_bounds(r);
	}
	for (unsigned k = 0; k < r->ncurves; k++)
		loaded_find_double(&r->curves[k]);
	loaded_find_falls(r);
	r->huge_bytes_obtained = chase_arena.huge_bytes_obtained + gen_arena.huge_bytes_obtained;
	if (!arena_backing_obtained(&chase_arena, &huge) && huge < chase_arena.huge_bytes_obtained)
		r->huge_bytes_obtained -= chase_arena.huge_bytes_obtained - huge;
	__asm__ volatile("" : : "r"(c.sink));
	r->seconds = (double)(clock_wall_ns() - w0) / 1e9;
out:
	chain_free(&chain);
	arena_unmap(&chase_arena);
	arena_unmap(&gen_arena);
	free(c.gens);
	return rc;
}
