/*
 * The bandwidth experiment. Method, and the pitfalls each part answers:
 * - All threads stream one working set, each its own slice, so the union is
 *   far beyond the LLC whatever the thread count (per-thread buffers would
 *   shrink into the cache as threads are added).
 * - Total GB/s is all bytes over (last thread's end - first thread's start)
 *   on the shared invariant counter: a straggler counts against the total
 *   instead of vanishing into a sum of per-thread rates.
 * - Threads stream their slices piece by piece and all stop once the first
 *   has finished its slice: otherwise the union span ends in a tail where one
 *   thread streams alone (5-8% of a 2-thread trial here, measured), and the
 *   total mixes a one-thread rate into the T-thread figure. What remains of
 *   that mixing is measured (overlap of the threads' windows) and flagged.
 * - Points (kernel x thread count) are visited round-robin; each point's
 *   estimate is its shortest trial (interference only adds time).
 * - Bytes moved are what the kernel asks for. A normal store that misses
 *   first reads its line (read-for-ownership), which is NOT counted; the
 *   non-temporal rows avoid that read, which is why they can beat "write".
 * Pages: one arena, first-touched by the calling thread, so on a multi-socket
 * machine remote traffic is included; placement is recorded, not optimised.
 */
#include "exp/bandwidth.h"
#include "exp/policy.h"

#include "core/arena.h"
#include "core/bounds.h"
#include "core/chain.h"
#include "kern/lanes.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLICE_ALIGN ((size_t)4096)

static const size_t eff_spacings[BANDWIDTH_EFF_SPACINGS] = {8, 64, 128, 4096};

static const char rfo_note[] =
	"bytes moved count what each kernel asks for (copy: read + write); a normal store that misses "
	"first reads its line (read-for-ownership), which is not counted, so write and copy move up to "
	"2x and 1.5x the bytes shown; non-temporal stores avoid that read";

static const char mix_note[] =
	"all threads stream one sequential pass each over their slice, the mix's lines read or written in "
	"turn; gbps counts the bytes the kernel names (each line read or written once); moved_gbps adds "
	"the read-for-ownership a normal store that misses costs (each written line is read first: 1 + "
	"the write share), a model, no counter; non-temporal stores and reads move what they name";

static const char eff_note[] =
	"model: nothing counts lines or page walks here; one line is assumed per access (random order "
	"over a footprint beyond the caches), and the page-walk share is the small-page chase's extra "
	"time over the huge-page chase, expressed as line fetches' worth of time";

/* One thread's record of one trial, a line to itself so team mates' writes
 * never share a line (false sharing would add traffic to what we time). */
struct stream_slot {
	uint64_t t0, t1;
	uint64_t sum;
	uint64_t bytes;             /* of its slice, streamed before the team stopped */
	uint64_t cpu_ns;            /* this thread's CPU time while it streamed */
	char pad[64 - 5 * sizeof(uint64_t)];
};

struct stream_job {
	const struct stream_kernel *k;
	char *src, *dst;
	size_t slice_bytes;
	uint64_t seed;
	uint64_t stagger_ticks;     /* thread i waits i x this after the gate opens */
	unsigned finished;          /* atomic: set by the first thread done with its slice */
};

/* This thread's CPU time in ns; 0 where it cannot be read (then no trial
 * looks preempted: the check is lost, the estimate is as before). The
 * kernel adds the running slice up to now, so it is exact at both ends. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) ? 0 : (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int stream_member(void *ctx, unsigned index, int cpu, void *slot)
{
	struct stream_job *j = ctx;
	struct stream_slot *s = slot;
	size_t off = (size_t)index * j->slice_bytes, done = 0;
	uint64_t sum = 0;

	(void)cpu;
	if (j->stagger_ticks)
		for (uint64_t until = clock_now() + index * j->stagger_ticks; clock_now() < until;)
			;
	uint64_t cpu0 = thread_cpu_ns();

	s->t0 = clock_now();
	/* The flag shares its line only with fields nobody writes: each check
	 * is an L1 hit until the one write, so a piece boundary costs a call
	 * and a load, and the hardware prefetcher sees one unbroken stream. */
	while (done < j->slice_bytes) {
		size_t n = j->slice_bytes - done < BANDWIDTH_PIECE_BYTES ? j->slice_bytes - done : BANDWIDTH_PIECE_BYTES;

		sum += j->k->fn(j->dst ? j->dst + off + done : NULL, j->src ? j->src + off + done : NULL, n, j->seed);
		done += n;
		if (__atomic_load_n(&j->finished, __ATOMIC_RELAXED))
			break;
	}
	__atomic_store_n(&j->finished, 1, __ATOMIC_RELAXED);
	s->t1 = clock_now();
	s->cpu_ns = cpu0 ? thread_cpu_ns() - cpu0 : 0;
	s->sum = sum;
	s->bytes = done;
	return 0;
}

void bandwidth_params_default(struct bandwidth_params *p, const struct clock_info *clock,
			      const struct topo *topo, bool quick)
{
	size_t llc = topo ? topo_largest_cache_bytes(topo) : 0, ws = policy_memory_set_bytes(llc);
	size_t eff = ws;

	if (quick)
		ws /= 2;
	if (topo && topo->mem_available_bytes && ws > topo->mem_available_bytes / 4)
		ws = topo->mem_available_bytes / 4;
	*p = (struct bandwidth_params){
		.run_floor_pct = NAN,
		.clock = clock, .max_threads = 0, .working_set_bytes = ws, .llc_bytes = llc,
		.line_bytes = topo && topo->line_bytes ? topo->line_bytes : 64, .trials = quick ? 3 : 9,
		.all_kernels = false, .efficiency = true, .efficiency_bytes = eff,
		.efficiency_max_nodes = quick ? (2u << 20) : (8u << 20),
		.efficiency_hops = quick ? 16384 : 32768, .efficiency_trials = quick ? 3 : 6, .seed = 1,
		.mixes = true,
	};
}

static bool stopped(const struct bandwidth_params *p)
{
	return p->stop && *p->stop;
}

static int validate(const struct bandwidth_params *p, unsigned *nthreads, char *err, size_t errlen)
{
	int rc;

	if ((rc = team_resolve_timed("bandwidth", p->clock, p->max_threads, nthreads, err, errlen)))
		return rc;
	if (p->trials == 0 || p->trials % BANDWIDTH_TRIAL_GROUP || p->trials > BANDWIDTH_MAX_TRIALS) {
		snprintf(err, errlen, "bandwidth: trials must be a multiple of 3 up to %d", BANDWIDTH_MAX_TRIALS);
		return -EINVAL;
	}
	if (!(p->stagger_ns >= 0 && p->stagger_ns < 1e9)) {
		snprintf(err, errlen, "bandwidth: stagger must be 0 to 1 s");
		return -EINVAL;
	}
	if (p->working_set_bytes < 2 * (size_t)*nthreads * SLICE_ALIGN) {
		snprintf(err, errlen, "bandwidth: working set too small for %u threads", *nthreads);
		return -EINVAL;
	}
	if (p->efficiency && (p->efficiency_trials == 0 || p->efficiency_trials % BANDWIDTH_TRIAL_GROUP ||
			      p->efficiency_trials > BANDWIDTH_MAX_TRIALS || p->efficiency_hops == 0 ||
			      p->efficiency_max_nodes < 2)) {
		snprintf(err, errlen, "bandwidth: efficiency trials must be a multiple of 3, hops and nodes > 0");
		return -EINVAL;
	}
	return 0;
}

static void pick_kernels(const struct bandwidth_params *p, struct bandwidth_result *r)
{
	const struct stream_kernel *all[64];
	size_t n = stream_kernels(all, 64);

	r->nkernels = 0;
	if (p->all_kernels) {
		for (size_t i = 0; i < n && i < 64 && r->nkernels < BANDWIDTH_MAX_KERNELS; i++)
			r->kernels[r->nkernels++] = all[i];
		return;
	}
	/* Scalar and widest of each op, then the non-temporal widest: the
	 * contrast a reader needs, without every width in between. */
	const struct stream_kernel *scalar[3] = {NULL, NULL, NULL};

	for (size_t i = 0; i < n && i < 64; i++)
		if (!strcmp(all[i]->isa, "c"))
			scalar[all[i]->op] = all[i];
	/* Scalar before vector, so the table reads scalar -> vector. */
	const struct stream_kernel *order[] = {
		scalar[STREAM_READ], stream_kernel_widest(STREAM_READ, false),
		scalar[STREAM_WRITE], stream_kernel_widest(STREAM_WRITE, false),
		scalar[STREAM_COPY], stream_kernel_widest(STREAM_COPY, false),
		stream_kernel_widest(STREAM_WRITE, true), stream_kernel_widest(STREAM_COPY, true),
	};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		bool dup = false;

		if (!order[i])
			continue;
		for (unsigned j = 0; j < r->nkernels; j++)
			dup |= r->kernels[j] == order[i];
		if (!dup)
			r->kernels[r->nkernels++] = order[i];
	}
}

/* Buffers of one point: copy reads the first half and writes the second. */
size_t bandwidth_window(const struct bandwidth_params *p)
{
	size_t w = p->trial_bytes && p->trial_bytes < p->working_set_bytes ? p->trial_bytes : p->working_set_bytes;

	return w / (2 * SLICE_ALIGN) * (2 * SLICE_ALIGN);
}

static void point_job(const struct bandwidth_point *pt, char *base, size_t ws, uint64_t seed,
		      struct stream_job *j)
{
	size_t span = pt->kernel->op == STREAM_COPY ? ws / 2 : ws;

	j->k = pt->kernel;
	j->slice_bytes = span / pt->threads / SLICE_ALIGN * SLICE_ALIGN;
	j->src = pt->kernel->op == STREAM_WRITE ? NULL : base;
	j->dst = pt->kernel->op == STREAM_READ ? NULL : (pt->kernel->op == STREAM_COPY ? base + ws / 2 : base);
	j->seed = seed;
	j->stagger_ticks = 0;
	j->finished = 0;
}

/* A thread was off its CPU (another task ran there) for more than
 * BANDWIDTH_OFFCPU_MAX_PCT of its window. A brief switch (our own main
 * thread going to sleep in join, a kernel worker) costs microseconds and
 * does not count; a time slice lost to a busy task (milliseconds) does. */
static bool lost_cpu(const struct bandwidth_params *p, const struct stream_slot *s)
{
	double wall_ns = clock_ticks_to_ns(p->clock, s->t1 - s->t0);

	return s->cpu_ns && wall_ns - (double)s->cpu_ns > wall_ns * BANDWIDTH_OFFCPU_MAX_PCT / 100;
}

static bool best_is_preempted(const struct bandwidth_point *pt)
{
	return pt->trial_preempted[pt->best_trial];
}

/* The estimate: the best trial in which no thread lost its CPU to another
 * task (time off the CPU is the scheduler's, not the memory's); only when
 * every trial lost some does the best of all stand. */
bool bandwidth_trial_replaces_best(const struct bandwidth_point *pt, double gbps, bool preempted)
{
	if (pt->ntrials == 0)
		return true;
	if (!preempted)
		return best_is_preempted(pt) || gbps > pt->gbps;
	return best_is_preempted(pt) && gbps > pt->gbps;
}

unsigned bandwidth_pick_trial(const double *gbps, const bool *preempted, unsigned n)
{
	static struct bandwidth_point pt;

	memset(&pt, 0, sizeof(pt));
	for (unsigned t = 0; t < n && t < BANDWIDTH_MAX_TRIALS; t++) {
		if (bandwidth_trial_replaces_best(&pt, gbps[t], preempted[t])) {
			pt.gbps = gbps[t];
			pt.best_trial = t;
		}
		pt.trial_preempted[t] = preempted[t];
		pt.ntrials = t + 1;
	}
	return pt.best_trial;
}

static int run_point(const struct bandwidth_params *p, struct bandwidth_point *pt, char *base, size_t ws,
		     struct stream_slot *slots, bool record)
{
	struct team_placement pl;
	struct stream_job j;
	uint64_t first = UINT64_MAX, last = 0, last_start = 0, first_end = UINT64_MAX;
	unsigned factor = stream_bytes_factor(pt->kernel->op);
	size_t bytes = 0;
	bool preempted = false;
	double gbps, span_ns;
	int rc;

	/* Each trial streams one window of the arena, the next trial the next
	 * one: by the time a window comes round again the others have evicted
	 * it, so a short trial still reads from memory (bandwidth_window). */
	size_t win = bandwidth_window(p), off = win < ws ? (pt->ntrials % (ws / win)) * win : 0;

	point_job(pt, base + off, win, p->seed + pt->ntrials, &j);
	j.stagger_ticks = (uint64_t)(p->stagger_ns * p->clock->ticks_per_ns);
	if ((rc = team_plan(&pl, pt->threads, NULL, 0)) || (rc = team_run(&pl, stream_member, &j, slots, sizeof(*slots))))
		return rc;
	if (!record)
		return 0;
	for (unsigned i = 0; i < pt->threads; i++) {
		first = slots[i].t0 < first ? slots[i].t0 : first;
		last = slots[i].t1 > last ? slots[i].t1 : last;
		last_start = slots[i].t0 > last_start ? slots[i].t0 : last_start;
		first_end = slots[i].t1 < first_end ? slots[i].t1 : first_end;
		bytes += slots[i].bytes * factor;
		preempted |= lost_cpu(p, &slots[i]);
		pt->checksum += slots[i].sum;
	}
	span_ns = clock_ticks_to_ns(p->clock, last - first);
	gbps = (double)bytes / span_ns;
	pt->trial_preempted[pt->ntrials] = preempted;
	pt->preempted_trials += preempted;
	if (bandwidth_trial_replaces_best(pt, gbps, preempted)) {
		pt->gbps = gbps;
		pt->best_trial = pt->ntrials;
		for (unsigned i = 0; i < pt->threads; i++)
			pt->per_thread_gbps[i] = (double)(slots[i].bytes * factor) /
						 clock_ticks_to_ns(p->clock, slots[i].t1 - slots[i].t0);
		pt->bytes_measured = bytes;
		/* A thread that started after another had finished shares no time
		 * with it: no overlap at all. */
		pt->overlap_pct = first_end > last_start ? 100 * clock_ticks_to_ns(p->clock, first_end - last_start) / span_ns
							 : 0.0;
		pt->start_skew_ns = clock_ticks_to_ns(p->clock, last_start - first);
	}
	pt->trials_gbps[pt->ntrials++] = gbps;
	return 0;
}

void bandwidth_check_overlap(struct bandwidth_result *r)
{
	const struct bandwidth_point *worst = NULL;

	r->overlap_min_pct = NAN;
	r->overlap_ok = true;
	r->overlap_note[0] = 0;
	for (unsigned i = 0; i < r->npoints; i++)
		if (r->points[i].threads > 1 && (!worst || r->points[i].overlap_pct < worst->overlap_pct))
			worst = &r->points[i];
	if (!worst)
		return;
	r->overlap_min_pct = worst->overlap_pct;
	if (worst->overlap_pct >= BANDWIDTH_OVERLAP_MIN_PCT)
		return;
	r->overlap_ok = false;
	snprintf(r->overlap_note, sizeof(r->overlap_note),
		 "%s x%u: all threads streamed together for only %.1f%% of the timed span (start skew %.1f us; "
		 "below %.0f%%): its total mixes in time when fewer threads ran, so it understates what %u "
		 "threads draw (a thread started late, or another task held its CPU when the first thread "
		 "finished, so it stopped late; see preempted trials)",
		 worst->kernel->name, worst->threads, worst->overlap_pct, worst->start_skew_ns / 1e3,
		 BANDWIDTH_OVERLAP_MIN_PCT, worst->threads);
}

/* This section's own floor on its own points (stats_floor, shared by every
 * section): maxima of GB/s, the same trials' minima of time. Only the
 * round-robin trials: retries follow only when all of a point's trials were
 * preempted, so their spread would measure preemption, not the estimator. */
static double noise_floor_pct(const struct bandwidth_result *r)
{
	struct stats_floor fl = {0};

	for (unsigned i = 0; i < r->npoints; i++)
		stats_floor_add(&fl, r->points[i].trials_gbps,
				r->points[i].ntrials < r->trials ? r->points[i].ntrials : r->trials,
				BANDWIDTH_TRIAL_GROUP, true);
	return stats_floor_take_pct(&fl);
}

static int alloc_points(struct bandwidth_result *r, const struct bandwidth_params *p, size_t ws)
{
	r->npoints = r->nkernels * r->ncounts;
	if (!(r->points = calloc(r->npoints, sizeof(*r->points))))
		return -ENOMEM;
	for (unsigned k = 0; k < r->nkernels; k++)
		for (unsigned c = 0; c < r->ncounts; c++) {
			struct bandwidth_point *pt = &r->points[k * r->ncounts + c];
			struct stream_job j;

			pt->kernel = r->kernels[k];
			pt->threads = r->thread_counts[c];
			point_job(pt, NULL, ws, p->seed, &j);
			pt->bytes_per_thread = j.slice_bytes * stream_bytes_factor(pt->kernel->op);
			pt->bytes_moved = pt->bytes_per_thread * pt->threads;
			if (!(pt->per_thread_gbps = calloc(pt->threads, sizeof(double))))
				return -ENOMEM;
		}
	return 0;
}

unsigned bandwidth_check_bounds(struct bandwidth_result *r)
{
	double floor_pct = bounds_ratio_floor_pct(r->noise_floor_pct);

	r->nimpossible = 0;
	for (unsigned i = 0; i < r->npoints; i++) {
		struct bandwidth_point *pt = &r->points[i];
		const struct bandwidth_point *one = bandwidth_find(r, pt->kernel->name, 1);

		pt->impossible = false;
		pt->bound_gbps = pt->threads > 1 && one ? pt->threads * one->gbps : 0;
		if (pt->bound_gbps > 0)
			pt->impossible = bounds_exceeded(pt->gbps, pt->bound_gbps, floor_pct);
		r->nimpossible += pt->impossible;
	}
	return r->nimpossible;
}

double bandwidth_peak_gbps(const struct bandwidth_result *r)
{
	double peak = 0;

	for (unsigned i = 0; i < r->npoints; i++)
		if (!r->points[i].impossible && isfinite(r->points[i].gbps) && r->points[i].gbps > peak)
			peak = r->points[i].gbps;
	return peak;
}

/* The point of kernel k at one thread. */
static struct bandwidth_point *one_thread_point(struct bandwidth_result *r, const struct stream_kernel *k)
{
	for (unsigned i = 0; i < r->npoints; i++)
		if (r->points[i].kernel == k && r->points[i].threads == 1)
			return &r->points[i];
	return NULL;
}

/* One more min-of-3 group of trials of a point (the best of all stands),
 * the re-time of a point that broke its bound. */
static int retime_point(const struct bandwidth_params *p, struct bandwidth_point *pt, char *base,
			struct stream_slot *slots)
{
	for (unsigned x = 0; x < BANDWIDTH_TRIAL_GROUP && pt->ntrials < BANDWIDTH_MAX_TRIALS; x++) {
		int rc;

		if (stopped(p))
			return -EINTR;
		if ((rc = run_point(p, pt, base, p->working_set_bytes, slots, true)))
			return rc;
		pt->retimed_trials++;
	}
	return 0;
}

/* A point above threads x one thread: the one-thread figure read low (its
 * CPU shared with another task) far more often than T threads read high,
 * so both get more trials, the one-thread point first, and are judged again. */
static int retime_impossible(const struct bandwidth_params *p, struct bandwidth_result *r, char *base,
			     struct stream_slot *slots)
{
	bool done[BANDWIDTH_MAX_KERNELS * BANDWIDTH_MAX_COUNTS] = {false};

	if (!bandwidth_check_bounds(r))
		return 0;
	for (unsigned i = 0; i < r->npoints; i++) {
		struct bandwidth_point *pt = &r->points[i], *one;
		int rc;

		if (!pt->impossible)
			continue;
		one = one_thread_point(r, pt->kernel);
		if (one && !done[one - r->points]) {
			done[one - r->points] = true;
			if ((rc = retime_point(p, one, base, slots)))
				return rc;
		}
		if ((rc = retime_point(p, pt, base, slots)))
			return rc;
	}
	bandwidth_check_bounds(r);
	return 0;
}

static void explain_scaling(struct bandwidth_result *r)
{
	const struct stream_kernel *k = stream_kernel_widest(STREAM_READ, false);
	unsigned tmax = r->thread_counts[r->ncounts - 1];
	const struct bandwidth_point *one, *many;
	double floor = isfinite(r->noise_floor_pct) ? r->noise_floor_pct / 100.0 : 0.0;

	r->scaling_note[0] = 0;
	r->read_scaling = NAN;
	if (!k || !(one = bandwidth_find(r, k->name, 1)))
		return;
	if (tmax == 1) {
		snprintf(r->scaling_note, sizeof(r->scaling_note),
			 "only one CPU is allowed: no multi-thread bandwidth was measured");
		return;
	}
	many = bandwidth_find(r, k->name, tmax);
	if (many->impossible) {
		snprintf(r->scaling_note, sizeof(r->scaling_note),
			 "%s with %u threads is marked IMPOSSIBLE (above %u x 1 thread): no scaling is given", k->name,
			 tmax, tmax);
		return;
	}
	r->read_scaling = many->gbps / one->gbps;
	if (r->read_scaling > 1.0 + floor)
		return;
	snprintf(r->scaling_note, sizeof(r->scaling_note),
		 "%s with %u threads (%.2f GB/s) is not above 1 thread (%.2f GB/s) beyond the noise floor "
		 "(%.1f%%): one core already draws what this memory path delivers to it (a guest's share "
		 "of the socket, few memory channels, or CPUs that are SMT siblings; see the placement)",
		 k->name, tmax, many->gbps, one->gbps, 100 * floor);
}

/* ---- random-access efficiency (a model) ---- */

struct eff_arm {
	struct arena arena;
	struct chain chain;
	struct layout_check check;
	size_t cursor;
	double trials_ns[BANDWIDTH_MAX_TRIALS];
};

static double chase_region(const struct bandwidth_params *p, struct eff_arm *a, size_t hops, uintptr_t *sink)
{
	lanes_kernel_fn fn = lanes_kernel(1);
	uintptr_t start = chain_node_at(&a->chain, a->cursor);
	uint64_t t0, t1;

	/* A fresh stretch of the cycle each region: no line still cached from
	 * the last one. */
	a->cursor += hops;
	t0 = clock_now();
	*sink ^= fn(&start, hops);
	t1 = clock_now();
	return clock_ticks_to_ns(p->clock, t1 - t0) / (double)hops;
}

static int eff_arm_build(const struct bandwidth_params *p, struct eff_arm *a, size_t bytes, size_t spacing,
			 enum page_request req)
{
	int rc;

	if ((rc = arena_map(&a->arena, bytes, req)))
		return rc;
	return chain_build_verified(&a->chain, a->arena.base, bytes, spacing, p->line_bytes, p->seed + spacing,
				    chain_offset_linear, &a->check);
}

static int eff_row(const struct bandwidth_params *p, struct bandwidth_efficiency *e, size_t spacing)
{
	struct eff_arm arms[2];
	size_t bytes = p->efficiency_bytes, huge_after;
	uintptr_t sink = 0;
	int rc;

	memset(arms, 0, sizeof(arms));
	/* Dense spacings multiply the node count, and with it the build and the
	 * layout walk (one miss per node): cap the nodes, record the footprint. */
	if (bytes / spacing > p->efficiency_max_nodes)
		bytes = p->efficiency_max_nodes * spacing;
	bytes = (bytes + ARENA_HUGE_BYTES - 1) / ARENA_HUGE_BYTES * ARENA_HUGE_BYTES;
	e->spacing_bytes = spacing;
	e->footprint_bytes = bytes;
	e->useful_bytes_per_access = (double)sizeof(uintptr_t);
	/* What a cache holds is the lines touched, not the address span: at a
	 * 4096 B spacing 128 MiB of addresses is 2 MiB of lines. */
	size_t line_footprint = spacing >= p->line_bytes ? bytes / spacing * p->line_bytes : bytes;

	e->footprint_over_llc = p->llc_bytes ? (double)line_footprint / (double)p->llc_bytes : NAN;
	e->fits_llc = p->llc_bytes && line_footprint < 2 * p->llc_bytes;
	if ((rc = eff_arm_build(p, &arms[0], bytes, spacing, PAGES_SMALL)) ||
	    (rc = eff_arm_build(p, &arms[1], bytes, spacing, PAGES_HUGE)))
		goto out;
	e->nodes = arms[0].chain.nodes;
	e->layout_ok = true;
	/* A region never walks round its whole cycle: the second lap would hit. */
	e->hops = p->efficiency_hops < e->nodes / 2 ? p->efficiency_hops : e->nodes / 2;
	/* Untimed warm-up of both, then alternate small and huge each trial so
	 * drift lands on both arms alike. */
	chase_region(p, &arms[0], e->hops, &sink);
	chase_region(p, &arms[1], e->hops, &sink);
	for (unsigned t = 0; t < p->efficiency_trials; t++)
		for (int a = 0; a < 2; a++) {
			if (stopped(p)) {
				rc = -EINTR;
				goto out;
			}
			arms[a].trials_ns[t] = chase_region(p, &arms[a], e->hops, &sink);
		}
	e->latency_small_ns = stats_min(arms[0].trials_ns, p->efficiency_trials);
	e->latency_huge_ns = stats_min(arms[1].trials_ns, p->efficiency_trials);
	e->huge_bytes_obtained = arms[1].arena.huge_bytes_obtained;
	if (!arena_backing_obtained(&arms[1].arena, &huge_after) && huge_after < e->huge_bytes_obtained)
		e->huge_bytes_obtained = huge_after;
	e->lines_per_access = 1.0;
	e->walk_lines_per_access = fmax(0.0, (e->latency_small_ns - e->latency_huge_ns) / e->latency_huge_ns);
	e->moved_bytes_small = (double)p->line_bytes * (e->lines_per_access + e->walk_lines_per_access);
	e->moved_bytes_huge = (double)p->line_bytes * e->lines_per_access;
	e->efficiency_small = e->useful_bytes_per_access / e->moved_bytes_small;
	e->efficiency_huge = e->useful_bytes_per_access / e->moved_bytes_huge;
	/* Keep the chase observable: sink feeds a field nobody reads, through an
	 * empty asm the compiler cannot see past. */
	__asm__ volatile("" : : "r"(sink));
out:
	for (int a = 0; a < 2; a++) {
		chain_free(&arms[a].chain);
		arena_unmap(&arms[a].arena);
	}
	return rc;
}

/* ---- the run ---- */

const struct bandwidth_point *bandwidth_find(const struct bandwidth_result *r, const char *kernel,
					     unsigned threads)
{
	for (unsigned i = 0; i < r->npoints; i++)
		if (r->points[i].threads == threads && !strcmp(r->points[i].kernel->name, kernel))
			return &r->points[i];
	return NULL;
}

/* ---- read:write mixes on the whole team ---- */

static int mix_setup(struct bandwidth_result *r, unsigned nthreads, size_t ws)
{
	const struct stream_kernel *k[BANDWIDTH_MAX_MIXES];
	unsigned n = 0;

	/* All reads at the mixes' width: read_scalar, the table's first. */
	if (stream_kernels(k, 1) && k[0]->op == STREAM_READ && k[0]->width_bytes == 8)
		n = 1;
	n += (unsigned)stream_mix_kernels(k + n, BANDWIDTH_MAX_MIXES - n);
	for (unsigned i = 0; i < n; i++) {
		struct bandwidth_mix *m = &r->mixes[i];
		struct stream_job j;

		m->pt.kernel = k[i];
		m->pt.threads = nthreads;
		point_job(&m->pt, NULL, ws, 0, &j);
		m->pt.bytes_per_thread = j.slice_bytes;
		m->pt.bytes_moved = j.slice_bytes * nthreads;
		if (!(m->pt.per_thread_gbps = calloc(nthreads, sizeof(double))))
			return -ENOMEM;
		m->read_lines = k[i]->op == STREAM_MIX ? k[i]->read_lines : 1;
		m->write_lines = k[i]->op == STREAM_MIX ? k[i]->write_lines : 0;
		m->rfo_factor = k[i]->nontemporal ? 1.0
				: 1.0 + (double)m->write_lines / (double)(m->read_lines + m->write_lines);
		r->nmixes = i + 1;
	}
	return 0;
}

/* Round-robin over the mixes, as the main points, with the same retries
 * while every trial of a mix was preempted. */
static int run_mixes(const struct bandwidth_params *p, struct bandwidth_result *r, char *base,
		     struct stream_slot *slots)
{
	int rc = 0;

	for (unsigned i = 0; i < r->nmixes && !rc; i++)
		rc = run_point(p, &r->mixes[i].pt, base, p->working_set_bytes, slots, false);
	for (unsigned t = 0; t < p->trials && !rc; t++)
		for (unsigned i = 0; i < r->nmixes && !rc; i++)
			rc = stopped(p) ? -EINTR : run_point(p, &r->mixes[i].pt, base, p->working_set_bytes, slots, true);
	for (unsigned i = 0; i < r->nmixes && !rc; i++) {
		struct bandwidth_point *pt = &r->mixes[i].pt;

		for (unsigned x = 0; !rc && x < p->trials && pt->trial_preempted[pt->best_trial] &&
				     pt->ntrials < BANDWIDTH_MAX_TRIALS; x++)
			rc = stopped(p) ? -EINTR : run_point(p, pt, base, p->working_set_bytes, slots, true);
		r->mixes[i].moved_gbps = pt->gbps * r->mixes[i].rfo_factor;
	}
	return rc;
}

/* Every point's trials, round-robin after an untimed pass, then the
 * re-runs of a point whose every trial lost a time slice. */
static int run_trials(const struct bandwidth_params *p, struct bandwidth_result *r, char *base,
		      struct stream_slot *slots)
{
	int rc;

	/* Untimed pass of each kernel on the largest team: first use of a code
	 * path and of the team's CPUs belongs to no point. */
	for (unsigned k = 0; k < r->nkernels; k++)
		if ((rc = run_point(p, &r->points[k * r->ncounts + r->ncounts - 1], base, p->working_set_bytes,
				    slots, false)))
			return rc;
	for (unsigned t = 0; t < p->trials; t++)
		for (unsigned i = 0; i < r->npoints; i++) {
			if (stopped(p))
				return -EINTR;
			if ((rc = run_point(p, &r->points[i], base, p->working_set_bytes, slots, true)))
				return rc;
		}
	/* A point whose every trial lost a time slice gets up to as many again,
	 * until one is clean: on a machine where another task keeps a CPU busy
	 * a few trials fall between its slices. Not round-robin, so they stay
	 * out of the floor; recorded with the others. */
	for (unsigned i = 0; i < r->npoints; i++) {
		struct bandwidth_point *pt = &r->points[i];

		for (unsigned x = 0; x < p->trials && pt->trial_preempted[pt->best_trial] &&
				     pt->ntrials < BANDWIDTH_MAX_TRIALS; x++) {
			if (stopped(p))
				return -EINTR;
			if ((rc = run_point(p, pt, base, p->working_set_bytes, slots, true)))
				return rc;
		}
	}
	return 0;
}

int bandwidth_run(const struct bandwidth_params *p, struct bandwidth_result *r, char *err, size_t errlen)
{
	struct arena arena = {0};
	struct stream_slot *slots = NULL;
	uint64_t w0 = clock_wall_ns();
	unsigned nthreads;
	size_t huge_after;
	int rc;

	err[0] = 0;
	memset(r, 0, sizeof(*r));
	r->rfo_counted = false;
	r->rfo_note = rfo_note;
	r->efficiency_note = eff_note;
	r->mix_note = mix_note;
	if ((rc = validate(p, &nthreads, err, errlen)))
		return rc;
	r->trials = p->trials;
	r->line_bytes = p->line_bytes;
	r->ncounts = team_thread_counts(nthreads, r->thread_counts, BANDWIDTH_MAX_COUNTS);
	pick_kernels(p, r);
	if ((rc = team_plan(&r->placement, nthreads, err, errlen)))
		return rc;
	if ((rc = alloc_points(r, p, bandwidth_window(p))) ||
	    (p->mixes && (rc = mix_setup(r, nthreads, bandwidth_window(p)))))
		goto out;
	if (!(slots = aligned_alloc(64, TEAM_MAX_THREADS * sizeof(*slots)))) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = arena_map(&arena, p->working_set_bytes, PAGES_HUGE))) {
		snprintf(err, errlen, "bandwidth: cannot map %zu bytes: %s", p->working_set_bytes, strerror(-rc));
		goto out;
	}
	r->working_set_bytes = arena.bytes;
	r->window_bytes = bandwidth_window(p);
	r->huge_bytes_obtained = arena.huge_bytes_obtained;
	if ((rc = run_trials(p, r, arena.base, slots)))
		goto out;
	if ((rc = run_mixes(p, r, arena.base, slots)))
		goto out;
	/* Observed CPUs of the largest team, for provenance: one short read (a
	 * read kernel needs no destination). */
	if ((rc = team_run(&r->placement, stream_member,
			   &(struct stream_job){.k = stream_kernel_widest(STREAM_READ, false), .src = arena.base,
						.slice_bytes = SLICE_ALIGN},
			   slots, sizeof(*slots))))
		goto out;
	r->noise_floor_pct = stats_floor_or_run(noise_floor_pct(r), p->run_floor_pct, &r->floor_from_run);
	if ((rc = retime_impossible(p, r, arena.base, slots)))
		goto out;
	bandwidth_check_overlap(r);
	explain_scaling(r);
	if (!arena_backing_obtained(&arena, &huge_after) && huge_after < r->huge_bytes_obtained)
		r->huge_bytes_obtained = huge_after;
	arena_unmap(&arena);
	if (p->efficiency) {
		for (unsigned s = 0; s < BANDWIDTH_EFF_SPACINGS; s++)
			if ((rc = eff_row(p, &r->eff[s], eff_spacings[s]))) {
				if (rc == -EPROTO)
					snprintf(err, errlen, "bandwidth: the %zu-byte chain failed its layout check",
						 eff_spacings[s]);
				goto out;
			}
		r->efficiency_measured = true;
	}
	r->seconds = (double)(clock_wall_ns() - w0) / 1e9;
out:
	free(slots);
	arena_unmap(&arena);
	return rc;
}

void bandwidth_result_free(struct bandwidth_result *r)
{
	if (r->points)
		for (unsigned i = 0; i < r->npoints; i++)
			free(r->points[i].per_thread_gbps);
	free(r->points);
	r->points = NULL;
	for (unsigned i = 0; i < BANDWIDTH_MAX_MIXES; i++) {
		free(r->mixes[i].pt.per_thread_gbps);
		r->mixes[i].pt.per_thread_gbps = NULL;
	}
	r->nmixes = 0;
	r->npoints = 0;
}
