/*
 * The loaded probe (exp/mlp_probe.h). Method, and the pitfall each part answers:
 * - Two threads, not an extra lane: a probe lane inside the lanes kernel
 *   advances in step with the others, so its per-step time is K x t(K) by
 *   construction and Little's law on it is an identity. A chase on its own
 *   CPU is timed by nothing the lanes do.
 * - The probe walks the sweep's cycle half a cycle ahead of the lanes: the
 *   footprint of the sweep's t(1) with no second chain to build, and lines
 *   the lanes last touched half a cycle ago (four times the last cache at
 *   the default set, long evicted); it stays ahead, since one window's
 *   lanes walk far less than half a cycle.
 * - The K probed are 1 (one lane: the least load), the knee (the first K
 *   within the floor of the best time, where queueing should begin) and the
 *   largest swept (the most load the sweep applied): three points bracket
 *   the curve for about 0.3 s, where every K would cost a sweep.
 * - The idle point keeps the lanes CPU spinning on no loads: a sleeping CPU
 *   lets the package drop its clocks, and the probe's ratio would then mix
 *   frequency with queueing.
 * - Points are visited round-robin across trials, so drift lands on every K
 *   alike; t_loaded is the minimum over the trials whose lanes kept their
 *   median rate, and the lanes' rate is read from that trial's window
 *   (Little's law needs both figures of one window).
 */
#include "exp/mlp_probe.h"

#include "core/bounds.h"
#include "core/host.h"
#include "core/stats.h"
#include "core/team.h"
#include "kern/lanes.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* What the lanes thread writes, a line apart from the probe's fields: its
 * count is stored every chunk, and a probe field beside it would bounce. */
struct lanes_side {
	size_t cursor;
	uint64_t done;                 /* atomic: accesses the lanes completed, per chunk */
	uintptr_t sink;
} __attribute__((aligned(128)));

struct probe_ctx {
	const struct clock_info *clock;
	const struct chain *lanes_chain;
	size_t probe_base;             /* half a cycle past the lanes' cursor, set before each trial */
	size_t probe_walked;           /* the probe's own advance past it */
	unsigned lanes;                /* 0: the lanes CPU spins without loads */
	int running, stop;             /* atomic */
	double probe_ns, lanes_ns;     /* written by the probe thread */
	uintptr_t sink;
	struct lanes_side ls;
};

unsigned mlp_probe_pick_lanes(unsigned npoints, unsigned knee, unsigned *lanes, const char **chosen_as)
{
	const unsigned want[MLP_PROBE_KS] = {1, knee, npoints};
	static const char *const names[MLP_PROBE_KS] = {"one lane", "knee", "max"};
	unsigned n = 0;

	for (unsigned i = 0; i < MLP_PROBE_KS; i++) {
		if (want[i] < 1 || want[i] > npoints || (n && want[i] <= lanes[n - 1]))
			continue;
		lanes[n] = want[i];
		chosen_as[n++] = names[i];
	}
	return n;
}

const char *mlp_probe_state_name(enum mlp_probe_state s)
{
	static const char *const names[] = {"not planned", "measured", "skipped", "failed"};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

const char *mlp_probe_little_name(enum mlp_probe_little l)
{
	static const char *const names[] = {"not judged", "agrees", "below K", "above K"};

	return (unsigned)l < sizeof(names) / sizeof(names[0]) ? names[l] : "?";
}

/* Whether two CPUs are one core's SMT siblings, as the OS's topology says:
 * siblings share the core's miss buffers, separate cores only the last
 * cache and memory. A guest sees its vCPUs as the hypervisor shows them. */
static const char *sharing_of(int a, int b)
{
	long core[2], pkg[2];
	int cpu[2] = {a, b};
	char path[96];

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu[i]);
		if (host_read_long(path, &core[i]))
			return "unknown (no topology in sysfs)";
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu[i]);
		if (host_read_long(path, &pkg[i]))
			pkg[i] = 0;
	}
	if (pkg[0] != pkg[1])
		return "separate packages: memory only (and the link between them)";
	if (core[0] == core[1])
		return "same core (SMT siblings): the core's miss buffers, the caches and memory";
	return "separate cores of one package, as the OS reports them: the last cache and memory";
}

/* A zero the compiler cannot fold: ANDed with a chunk's result it makes
 * the next chunk's starts wait for every lane of this one. */
static volatile uintptr_t hidden_zero;

/* The lanes CPU: K lanes of the sweep's kernel, restarted every chunk from
 * fresh stretches of the cycle, the count published after each chunk.
 * Each chunk's starts depend on the last chunk's result: a chunk is a few
 * hundred instructions, so without it the core runs the next chunk's
 * first loads beside this one's last, and K = 1 would keep two or three
 * misses in flight. */
static int lanes_thread(struct probe_ctx *c)
{
	lanes_kernel_fn fn = c->lanes ? lanes_kernel(c->lanes) : NULL;
	size_t chunk = (size_t)c->lanes * MLP_PROBE_CHUNK_STEPS;
	uintptr_t starts[LANES_MAX], last = 0;
	struct lanes_side *ls = &c->ls;
	uint64_t done = 0;

	__atomic_store_n(&c->running, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		if (!fn)
			continue;
		uintptr_t after = last & hidden_zero;

		for (unsigned i = 0; i < c->lanes; i++)
			starts[i] = chain_node_at(c->lanes_chain, ls->cursor + i * MLP_PROBE_CHUNK_STEPS) + after;
		ls->cursor += chunk;
		last = fn(starts, MLP_PROBE_CHUNK_STEPS);
		ls->sink ^= last;
		done += chunk;
		__atomic_store_n(&ls->done, done, __ATOMIC_RELAXED);
	}
	return 0;
}

static uintptr_t chase(struct probe_ctx *c, size_t hops)
{
	uintptr_t start = chain_node_at(c->lanes_chain, c->probe_base + c->probe_walked);

	/* A fresh stretch every window: no line of it is still cached. */
	c->probe_walked += hops;
	return lanes_kernel(1)(&start, hops);
}

static int probe_thread(struct probe_ctx *c)
{
	uint64_t l0, l1, t0, t1;
	double ns;

	while (!__atomic_load_n(&c->running, __ATOMIC_ACQUIRE))
		;
	/* An untimed quarter window: the lanes' queues fill before it opens. */
	c->sink ^= chase(c, MLP_PROBE_HOPS / 4);
	l0 = __atomic_load_n(&c->ls.done, __ATOMIC_RELAXED);
	t0 = clock_now();
	c->sink ^= chase(c, MLP_PROBE_HOPS);
	t1 = clock_now();
	l1 = __atomic_load_n(&c->ls.done, __ATOMIC_RELAXED);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
	ns = clock_ticks_to_ns(c->clock, t1 - t0);
	c->probe_ns = ns / MLP_PROBE_HOPS;
	c->lanes_ns = l1 > l0 ? ns / (double)(l1 - l0) : NAN;
	return 0;
}

static int member(void *ctx, unsigned index, int cpu, void *slot)
{
	(void)cpu;
	(void)slot;
	return index == 0 ? probe_thread(ctx) : lanes_thread(ctx);
}

/* One trial of one point: a fresh pair of threads, the window timed. */
static int time_point(struct probe_ctx *c, struct team_placement *pl, struct mlp_probe_point *pt, unsigned t)
{
	int rc;

	c->lanes = pt->lanes;
	c->probe_base = c->ls.cursor + c->lanes_chain->nodes / 2;
	c->running = c->stop = 0;
	c->ls.done = 0;
	if ((rc = team_run(pl, member, c, NULL, 0)))
		return rc;
	pt->trials_ns[t] = c->probe_ns;
	pt->trials_lanes_ns[t] = c->lanes ? c->lanes_ns : NAN;
	return 0;
}

/* Trials round-robin over pts[0..n); each point's trials are replaced. */
static int rounds(struct probe_ctx *c, struct team_placement *pl, struct mlp_probe_point **pts, unsigned n,
		  volatile sig_atomic_t *stop)
{
	int rc;

	for (unsigned t = 0; t < MLP_PROBE_TRIALS; t++)
		for (unsigned i = 0; i < n; i++) {
			if (stop && *stop)
				return -EINTR;
			if ((rc = time_point(c, pl, pts[i], t)))
				return rc;
			pts[i]->ntrials = t + 1;
		}
	return 0;
}

/* The floor of the probe's own min-of-3 groups, over every point. */
static double probe_floor_pct(const struct mlp_probe *pr, double run_floor_pct, bool *from_run)
{
	struct stats_floor fl = {0};

	stats_floor_add(&fl, pr->idle.trials_ns, pr->idle.ntrials, MLP_PROBE_GROUP, false);
	for (unsigned i = 0; i < pr->npoints; i++)
		stats_floor_add(&fl, pr->points[i].trials_ns, pr->points[i].ntrials, MLP_PROBE_GROUP, false);
	return stats_floor_or_run(stats_floor_take_pct(&fl), run_floor_pct, from_run);
}

static enum mlp_probe_little judge_little(const struct mlp_probe_point *pt, double floor_pct)
{
	if (pt->impossible || !isfinite(pt->littles_law_concurrency) || pt->littles_law_concurrency <= 0)
		return MLP_PROBE_LITTLE_NOT_JUDGED;
	if (stats_agree_within_pct(pt->littles_law_concurrency, pt->lanes, floor_pct))
		return MLP_PROBE_LITTLE_AGREES;
	return pt->littles_law_concurrency < pt->lanes ? MLP_PROBE_LITTLE_BELOW : MLP_PROBE_LITTLE_ABOVE;
}

/* The trial a point's figures come from: the fastest probe window among
 * those whose lanes ran at least at their median rate. A plain minimum
 * would pick the window where the lanes were descheduled (another process
 * took their CPU), a window without the load it is meant to measure. */
static size_t loaded_trial(const struct mlp_probe_point *pt)
{
	double rates[MLP_PROBE_TRIALS], median = NAN;
	size_t n = 0, best = SIZE_MAX;

	for (size_t t = 0; t < pt->ntrials; t++)
		if (isfinite(pt->trials_lanes_ns[t]))
			rates[n++] = pt->trials_lanes_ns[t];
	if (n)
		median = stats_median(rates, n);
	for (size_t t = 0; t < pt->ntrials; t++) {
		bool loaded = !isfinite(median) || pt->trials_lanes_ns[t] <= median;

		if (loaded && (best == SIZE_MAX || pt->trials_ns[t] < pt->trials_ns[best]))
			best = t;
	}
	return best;
}

void mlp_probe_analyse(struct mlp_probe *pr, double run_floor_pct)
{
	double idle, ratio_floor;

	pr->noise_floor_pct = probe_floor_pct(pr, run_floor_pct, &pr->floor_from_run);
	ratio_floor = bounds_ratio_floor_pct(pr->noise_floor_pct);
	idle = pr->idle.t_loaded_ns = stats_min(pr->idle.trials_ns, pr->idle.ntrials);
	pr->idle.ratio_to_idle = 1.0;
	pr->idle.lanes_ns_per_access = pr->idle.littles_law_concurrency = NAN;
	pr->nimpossible = 0;
	for (unsigned i = 0; i < pr->npoints; i++) {
		struct mlp_probe_point *pt = &pr->points[i];
		size_t best = loaded_trial(pt);

		pt->t_loaded_ns = best < pt->ntrials ? pt->trials_ns[best] : NAN;
		pt->lanes_ns_per_access = best < pt->ntrials ? pt->trials_lanes_ns[best] : NAN;
		pt->ratio_to_idle = pt->t_loaded_ns / idle;
		pt->littles_law_concurrency = pt->t_loaded_ns / pt->lanes_ns_per_access;
		/* Both sides are min-of-N estimates: the bound is the ratio's floor. */
		pt->impossible = bounds_exceeded(idle, pt->t_loaded_ns, ratio_floor);
		pt->little = judge_little(pt, ratio_floor);
		pr->nimpossible += pt->impossible;
	}
}

/* Re-time, once, the idle point and every point marked impossible: a
 * t_loaded below idle is an idle point slowed by a neighbour, or a window
 * misread; fresh trials replace theirs, visited round-robin as before. */
static int retime_impossible(struct probe_ctx *c, struct team_placement *pl, struct mlp_probe *pr,
			     const struct mlp_probe_params *p)
{
	struct mlp_probe_point *pts[MLP_PROBE_KS + 1] = {&pr->idle};
	unsigned n = 1;
	int rc;

	for (unsigned i = 0; i < pr->npoints; i++)
		if (pr->points[i].impossible)
			(pts[n++] = &pr->points[i])->retimed = true;
	pr->idle.retimed = true;
	pr->retimed_points = n;
	if ((rc = rounds(c, pl, pts, n, p->stop)))
		return rc;
	mlp_probe_analyse(pr, p->run_floor_pct);
	return 0;
}

static int measure(struct probe_ctx *c, struct team_placement *pl, struct mlp_probe *pr,
		   const struct mlp_probe_params *p)
{
	struct mlp_probe_point *pts[MLP_PROBE_KS + 1] = {&pr->idle};
	int rc;

	for (unsigned i = 0; i < pr->npoints; i++)
		pts[i + 1] = &pr->points[i];
	if ((rc = rounds(c, pl, pts, pr->npoints + 1, p->stop)))
		return rc;
	mlp_probe_analyse(pr, p->run_floor_pct);
	return pr->nimpossible ? retime_impossible(c, pl, pr, p) : 0;
}

/* Its own state, the K to probe, and the two CPUs: 0, or the probe is
 * skipped (one CPU) or failed (the mask unreadable) and says why. */
static int plan_probe(struct mlp_probe *pr, const struct mlp_probe_params *p, struct team_placement *pl)
{
	unsigned lanes[MLP_PROBE_KS];
	const char *chosen[MLP_PROBE_KS];
	int cpus[2], allowed = team_allowed_cpus(cpus, 2);

	pr->probe_cpu = pr->lanes_cpu = -1;
	pr->sweep_t1_ns = p->sweep_t1_ns;
	pr->idle = (struct mlp_probe_point){.lanes = 0, .chosen_as = "idle"};
	pr->npoints = mlp_probe_pick_lanes(p->npoints, p->knee, lanes, chosen);
	for (unsigned i = 0; i < pr->npoints; i++)
		pr->points[i] = (struct mlp_probe_point){.lanes = lanes[i], .chosen_as = chosen[i]};
	if (allowed < 0) {
		pr->state = MLP_PROBE_FAILED;
		snprintf(pr->why, sizeof(pr->why), "the affinity mask is unreadable: %s", strerror(-allowed));
		return -1;
	}
	if (allowed < 2) {
		pr->state = MLP_PROBE_SKIPPED;
		snprintf(pr->why, sizeof(pr->why), "one CPU allowed: the lanes need a second CPU beside the probe");
		return -1;
	}
	if (team_plan(pl, 2, pr->why, sizeof(pr->why))) {
		pr->state = MLP_PROBE_FAILED;
		return -1;
	}
	pr->probe_cpu = pl->cpu[0];
	pr->lanes_cpu = pl->cpu[1];
	pr->sharing = sharing_of(pr->probe_cpu, pr->lanes_cpu);
	return 0;
}

int mlp_probe_run(const struct mlp_probe_params *p, struct mlp_probe *pr)
{
	struct probe_ctx c = {.clock = p->clock, .lanes_chain = p->chain, .ls.cursor = p->cursor};
	struct team_placement pl;
	uint64_t w0 = clock_wall_ns();
	int rc;

	memset(pr, 0, sizeof(*pr));
	if (plan_probe(pr, p, &pl))
		return 0;
	pr->chain_nodes = p->chain->nodes;
	if ((rc = measure(&c, &pl, pr, p)) == -EINTR)
		return rc;
	pr->state = rc ? MLP_PROBE_FAILED : MLP_PROBE_MEASURED;
	if (rc)
		snprintf(pr->why, sizeof(pr->why), "the probe's threads failed: %s", strerror(-rc));
	pr->seconds = (double)(clock_wall_ns() - w0) / 1e9;
	return 0;
}

double mlp_probe_timed_seconds(double miss_ns)
{
	/* Idle at one miss, three loaded points at up to two; each window has
	 * its quarter lead-in; a re-time of two points in one run of three. */
	double per_round = (1.0 + 3 * 2.0) * 1.25 * MLP_PROBE_HOPS * miss_ns / 1e9;

	return MLP_PROBE_TRIALS * per_round * (1.0 + 2.0 / 7.0 / 3.0);
}
