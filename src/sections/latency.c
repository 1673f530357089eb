/*
 * The `latency` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: latency across the hierarchy: random chase vs +64 B stream,
 * small vs huge pages.
 */
#include "sections/latency.h"
#include "frame/registry.h"

#include "analyse/latency_levels.h"
#include "exp/latency_sizes.h"
#include "report/latency_out.h"
#include "report/tlb_out.h"
#include "frame/plan.h"
#include "sections/tlb.h"
#include "util/format.h"
#include "util/jsonw.h"
#include "util/usage.h"

#include <math.h>
#include <string.h>

static const char latency_help[] =
	"Working sets from 4 KiB to --size (default 256-512 MiB), four per octave and\n"
	"denser near the reported cache sizes, each measured as a dependent random chase\n"
	"(latency) and as a +64 B sequential chain (a stream the prefetcher can follow):\n"
	"their ratio is the prefetcher's effect, by subtraction. The largest sizes also\n"
	"run on small pages: small minus huge is translation cost, by subtraction, with\n"
	"the backing obtained for both. Each size is timed in blocks of back-to-back\n"
	"regions of a fixed number of loads, after a full walk of the set (sets that may\n"
	"fit the caches) or an untimed lead-in (larger sets), in two passes over the\n"
	"sizes, ascending then descending. Every size is re-timed after its own warm\n"
	"start over regions 4x longer: a point that read slower beyond the floor is\n"
	"flagged NOT STEADY. Each level's middle is also timed as a back-to-back warm\n"
	"chase, printed beside the curve. The layout check runs at every size; a level\n"
	"ends where its latency leaves the plateau (the tlb section's steps allowed for:\n"
	"it runs first) and that end is set beside the OS-reported sizes (a short\n"
	"plateau is named as a share of its cache); an OS cache with no plateau of its\n"
	"own is named; knees at a TLB reach are labelled TLB knees. When the curve\n"
	"falls where it must rise, the points above the fall are timed again after a\n"
	"fresh warm start (near the edge of a shared cache a set can settle fast or\n"
	"slow); a fall that remains is flagged.\n";

/* latency's settings in the plan (budget.h), what the sweep's parameters
 * take from it. The steady sweep's work (exp/latency.h): trials
 * split over passes, each size's block after warm_walks full walks when
 * the set is at most warm_max, every region region_hops loads. */
struct latency_knobs {
	size_t max_bytes;
	unsigned trials, points_per_octave, steady_visits;
	bool near_caches;            /* five more points around each reported cache size */
	unsigned passes, warm_walks;
	size_t warm_max_bytes, region_hops;
	size_t dense_max_bytes;      /* past it one point per octave; 0: the sweep's own (exp/latency.h) */
};
_Static_assert(sizeof(struct latency_knobs) <= BUDGET_KNOB_BYTES, "latency's knobs fit their slot");

#define MIB ((size_t)1 << 20)
/* The setup's chains cost about 1.8x their step model on one recorded guest
 * (a 256 MiB chain's layout check meets more page-table misses than the
 * rate probe's 32-64 MiB chains); its two arenas, fresh from the host, are
 * priced apart (cost_fresh_touch_s): 1.7 s at 256 MiB --quick and 2.3 s
 * for the full curve, against 1.5 and 2.0 s priced. The sweep's step model
 * holds there within 10% (1.5 and 15.7 s against 1.4 and 17 s); on another
 * recorded guest (docs/VALIDATION.md), before the layout check walked in segments, the setup
 * and the sweep both read 1.35x their step model. */
#define LAT_SETUP_FIT 1.8
#define LAT_SWEEP_FIT 1.0

/* latency holds a huge-page and a small-page arena of its largest size at once. */
static size_t latency_peak_bytes(size_t max_bytes)
{
	return 2 * max_bytes + max_bytes / 4;
}

static void latency_defaults(const struct budget *b, void *knobs)
{
	struct latency_knobs *k = knobs;
	bool q = b->quick;

	k->max_bytes = b->memory_set_bytes;
	k->trials = q ? 3 : 6;
	k->points_per_octave = q ? 2 : 4;
	k->steady_visits = q ? 1 : 2;
	k->near_caches = true;
	/* each size is timed as a block after a warm start: two
	 * passes (ascending, then descending) keep some drift protection;
	 * --quick's three trials make one. */
	k->passes = q ? 1 : LATENCY_PASSES;
	k->warm_walks = 1;
	k->warm_max_bytes = b->facts.llc_bytes ? b->facts.llc_bytes : 64 * MIB;
	k->region_hops = LATENCY_REGION_HOPS;
}

/* Nodes of a random chain built in memory already touched: the measured
 * rate includes first touch; a set inside the caches builds about 4x
 * faster (its verify walk hits). */
static double build_touched_s(const struct cost_facts *f, size_t bytes, size_t spacing)
{
	double per_node = f->rates.build_ns_per_node - (double)spacing / f->rates.touch_gbps;

	if (per_node < 0.3 * f->rates.build_ns_per_node)
		per_node = 0.3 * f->rates.build_ns_per_node;
	if (f->llc_bytes && bytes <= f->llc_bytes)
		per_node *= 0.25;
	return (double)(bytes / spacing) * per_node / 1e9;
}

/* The sweep's sizes (exp/latency_sizes.h), from the caches the facts
 * report, so the price counts the points measured. */
static unsigned priced_sizes(const struct budget *b, const struct latency_knobs *k, size_t *out, unsigned cap)
{
	const size_t caches[3] = {b->facts.l1_bytes, b->facts.l2_bytes, b->facts.llc_bytes};
	size_t reported[3];
	unsigned n = 0;

	for (unsigned i = 0; i < 3; i++)
		if (caches[i])
			reported[n++] = caches[i];
	return latency_plan_sizes(&(struct latency_ladder){.max_bytes = k->max_bytes, .line_bytes = b->facts.line_bytes,
							    .dense_max_bytes = k->dense_max_bytes,
							    .points_per_octave = k->points_per_octave,
							    .near_caches = k->near_caches, .cache_bytes = reported,
							    .ncaches = n},
				  out, cap);
}

/* Warm-up loads before one region of a chain over s bytes: laps of the
 * whole chain for a set up to warm_max (the walks asked for, then more
 * while each reads faster: one more where the set is in memory, where a
 * lap costs the most; a set that keeps settling is a cache's, and cheap),
 * else a lead-in of one load per 4 KiB (16 Ki to 256 Ki loads). */
static double untimed_loads(size_t s, size_t line, size_t warm_max, double walks)
{
	if (s <= warm_max)
		return (walks + 1) * (double)(s / line);
	return (double)latency_lead_in_loads(s);
}

/* The setup past first touch: every size's random chain built
 * and verified (in touched memory) and its +line chain written. */
static double price_setup(const struct budget *b, const struct latency_knobs *k, const size_t *sizes, unsigned n)
{
	const struct cost_facts *f = &b->facts;
	size_t max = k->max_bytes, line = f->line_bytes;
	double t = 0;

	for (unsigned i = 0; i <= n; i++) {
		size_t s = i < n ? sizes[i] : max;  /* the n-th: the small-page point at max */

		t += build_touched_s(f, s, line) * (i == n ? 1.6 : 1.0) +
		     (double)(s / line) * 0.15 * f->rates.build_ns_per_node / 1e9;
	}
	return t;
}

/* The steady sweep: per size and chain, `passes` blocks, each a
 * warm start (warm_walks laps up to warm_max, then regions until one is no
 * faster than the last, about 3 regions and never over min(4 laps, 16
 * regions); past warm_max a lead-in, then the same settling) and its share
 * of the trials' regions of region_hops loads; each chase's steady check (a
 * warm start, steady_visits regions 4x longer); a warm reference per level
 * (a warm start and reference_walks laps, or 4x regions past warm_max).
 * Re-timing the points above a fall is left out: it runs only when the
 * curve falls, within 5% of the sweep's time (exp/latency.c), inside the
 * 25% this estimate aims at. */
static double price_blocks(const struct budget *b, const struct latency_knobs *k, const size_t *sizes, unsigned n)
{
	const struct cost_facts *f = &b->facts;
	size_t max = k->max_bytes, line = f->line_bytes, warm_max = k->warm_max_bytes;
	double sweep = 0, hops = (double)k->region_hops, stream_ns = (double)line / f->rates.stream_gbps;
	const size_t refs[4] = {f->l1_bytes / 2, f->l2_bytes / 2, f->llc_bytes / 2, max};

	for (unsigned i = 0; i <= n + 4; i++) {
		size_t s = i < n ? sizes[i] : i == n ? max : refs[i - n - 1];
		double nodes = (double)(s / line), chase = cost_chase_ns(f, s) * (i == n ? 1.5 : 1.0);
		double warm = untimed_loads(s, line, warm_max, k->warm_walks);

		warm += fmin(3 * hops, fmin(4 * nodes, 16 * hops));
		if (i > n) {  /* a level's warm reference */
			if (s)
				sweep += (warm + LATENCY_REFERENCE_WALKS * (s <= warm_max ? fmax(nodes, hops) : 4 * hops)) * chase / 1e9;
			continue;
		}
		sweep += (k->passes * warm + k->trials * hops) * (chase + stream_ns) / 1e9;
		sweep += (warm + k->steady_visits * 4 * hops) * chase / 1e9;
	}
	/* The levels' ends on a second allocation (exp/latency.c's placement
	 * round, not --quick): within LATENCY_PLACEMENT_SHARE of the sweep's
	 * time, 0.5 s at least. */
	sweep += !b->quick * fmax(0.5, LATENCY_PLACEMENT_SHARE * sweep);
	/* The memory set's whole walks, beside its regions (exp/latency.c; not --quick). */
	sweep += !b->quick * (LATENCY_WHOLE_WALKS * fmin((double)(max / line), (double)LATENCY_WHOLE_WALK_MAX_LOADS) +
			      LATENCY_WHOLE_WALK_REGIONS * hops) * cost_chase_ns(f, max) / 1e9;
	return sweep;
}

static double latency_price(const struct budget *b, const void *knobs, size_t *peak)
{
	const struct latency_knobs *k = knobs;
	size_t sizes[256];
	unsigned n = priced_sizes(b, k, sizes, 256);

	*peak = latency_peak_bytes(k->max_bytes);
	return cost_fresh_touch_s(&b->facts, 2 * k->max_bytes) + LAT_SETUP_FIT * price_setup(b, k, sizes, n) +
	       LAT_SWEEP_FIT * price_blocks(b, k, sizes, n);
}

static bool shrink_near(struct budget *b, struct budget_section *s)
{
	return budget_switch_off(b, &BUDGET_KNOBS(s, struct latency_knobs)->near_caches,
				 "latency: no extra points around each reported cache size");
}

/* Laps over sets far past the machine's share of a claimed L3 walk memory
 * for nothing; halve the limit, never under 32 MiB (a guest's share of an
 * L3 we met was 14-19 MiB) nor twice the L2. */
static bool shrink_warm(struct budget *b, struct budget_section *s)
{
	struct latency_knobs *k = BUDGET_KNOBS(s, struct latency_knobs);
	size_t floor = b->facts.l2_bytes && 2 * b->facts.l2_bytes > 32 * MIB ? 2 * b->facts.l2_bytes : 32 * MIB;

	if (k->warm_max_bytes / 2 < floor)
		return false;
	budget_note_bytes(b, "latency: the largest set warmed by a lap", k->warm_max_bytes, k->warm_max_bytes / 2,
			  " (larger ones get a lead-in)");
	k->warm_max_bytes /= 2;
	return true;
}

/* Past the last cache the curve is memory's plateau (the TLB's steps are
 * the tlb section's): one point an octave from twice the largest reported
 * cache, or from 16 MiB where the OS reports none (the last cache's end is
 * then found within an octave), instead of from 4x that cache or 128 MiB.
 * Each size past the caches costs a chain build over memory, the larger
 * part of the sweep's setup. */
static bool shrink_dense(struct budget *b, struct budget_section *s)
{
	struct latency_knobs *k = BUDGET_KNOBS(s, struct latency_knobs);
	size_t llc = b->facts.llc_bytes;
	size_t from = k->dense_max_bytes ? k->dense_max_bytes : llc ? 4 * llc : LATENCY_DENSE_MAX_BYTES_DEFAULT;
	size_t floor = llc ? 2 * llc : 16 * MIB;

	if (from <= floor)
		return false;
	budget_note_bytes(b, "latency: one point an octave past", from, floor, "");
	k->dense_max_bytes = floor;
	return true;
}

/* Loads per timed region, halved down to a quarter of the default: a
 * region past the caches still spans 2 ms or more, thousands of misses,
 * and one inside them stays over the clock's minimum region (raised to it
 * where not: latency_region_hops). Every size keeps its trials and its
 * steady check; each region is shorter. */
static bool shrink_region_hops(struct budget *b, struct budget_section *s)
{
	struct latency_knobs *k = BUDGET_KNOBS(s, struct latency_knobs);

	if (k->region_hops / 2 < LATENCY_REGION_HOPS / 4)
		return false;
	budget_note_count(b, "latency loads per timed region", k->region_hops, k->region_hops / 2, "");
	k->region_hops /= 2;
	return true;
}

static const struct budget_hooks latency_budget = {
	.keep = BUDGET_KEEP_HEADLINE, .defaults = latency_defaults, .price = latency_price,
	BUDGET_SET(struct latency_knobs, max_bytes, BUDGET_SET_SIZE | BUDGET_SET_MEMORY | BUDGET_SET_FIT),
	BUDGET_STEPS(BUDGET_STEP_DOWN(19, struct latency_knobs, trials, 3, 1, "latency trials"),
		     {.rank = 20, .fn = shrink_near},
		     {.rank = 21, .fn = shrink_region_hops},
		     {.rank = 25, .fn = shrink_dense},
		     BUDGET_STEP_DOWN(22, struct latency_knobs, points_per_octave, 2, 1, "latency points per octave"),
		     {.rank = 31, .fn = shrink_warm}),
	BUDGET_FIELDS(JSONW_FIELD(UINT, "latency_max_bytes", struct latency_knobs, max_bytes),
		      JSONW_FIELD(UINT, "latency_trials", struct latency_knobs, trials),
		      JSONW_FIELD(UINT, "latency_points_per_octave", struct latency_knobs, points_per_octave),
		      JSONW_FIELD(UINT, "latency_warm_max_bytes", struct latency_knobs, warm_max_bytes),
		      JSONW_FIELD(UINT, "latency_region_hops", struct latency_knobs, region_hops),
		      JSONW_FIELD(UINT, "latency_dense_max_bytes", struct latency_knobs, dense_max_bytes)),
};

/* The huge-page TLB steps, as working-set bytes, for latency's level ends
 * and knees: its chains live in 2 MiB pages. */
static void fill_tlb_steps(const struct tlb_result *t, struct latency_params *lp)
{
	const struct tlb_series *s;

	if (!t || t->nseries < 2)
		return;
	s = &t->series[1];
	for (unsigned k = 0; k < s->nlevels && lp->ntlb < LATENCY_TLB_MAX; k++) {
		lp->tlb_reach_bytes[lp->ntlb] = s->levels[k].reach_bytes;
		lp->tlb_extra_ns[lp->ntlb++] = s->levels[k].extra_ns;
	}
}

/* Its largest size: the budget's (the memory set of policy.h, or --size),
 * else the plan's working set. */
static size_t latency_max_bytes(const struct section_run *s)
{
	const struct latency_knobs *k = section_knobs_of(s, &latency_budget);

	return k ? k->max_bytes : s->plan->working_set_bytes;
}

static int latency_section_plan(struct section_run *s, char *err, size_t errlen)
{
	size_t peak = latency_peak_bytes(latency_max_bytes(s));
	size_t avail = s->r->topo.mem_available_bytes;
	char a[32], b[32];

	if (!avail || peak <= avail)
		return 0;
	report_format_bytes(a, sizeof(a), peak);
	report_format_bytes(b, sizeof(b), avail);
	return usage_fail(err, errlen, "--size: this working set needs %s but only %s is available "
		    "(expected a smaller size; MemAvailable in /proc/meminfo)", a, b);
}

static void fill_reported_caches(const struct topo *t, size_t *out, int cap)
{
	int n = 0;

	for (int level = 1; level <= 4 && n < cap - 1; level++)
		for (int i = 0; i < t->ncaches; i++)
			if (t->caches[i].level == level && strcmp(t->caches[i].type, "Instruction") &&
			    t->caches[i].size_bytes && n < cap - 1)
				out[n++] = t->caches[i].size_bytes;
	out[n] = 0;
}

/* The sweep's loads per region: its own default (which it raises where
 * the clock's minimum region needs more) unless the budget shortened them,
 * then at least what keeps a region of the fastest loads the sweep assumes
 * (0.5 ns) over the clock's minimum: 0 for the default. */
static size_t latency_region_hops(const struct latency_knobs *k, const struct clock_info *c)
{
	size_t min_hops = (size_t)ceil(c->min_region_ns / 0.5);

	if (k->region_hops >= LATENCY_REGION_HOPS)
		return 0;
	return k->region_hops > min_hops ? k->region_hops : min_hops;
}

static int latency_section_run(struct section_run *s, void *result)
{
	struct latency_result *l = result;
	const struct latency_point *p;
	const struct latency_knobs *k = section_knobs_of(s, &latency_budget);
	struct report *r = s->r;
	struct latency_params lp = {
		.max_bytes = latency_max_bytes(s),
		.points_near_caches = true,
		.line_bytes = r->topo.line_bytes,
		.noise_floor_pct = r->noise_floor_pct,
		.seed = s->o->seed,
		.clock = &r->clock,
		.stop = s->stop,
		.progress = s->progress,
		.progress_ctx = s,
		.derive = latency_derive,
	};
	struct machine_core_clock cc;
	struct machine_clock_state clk;
	int rc;

	s->label = "latency";
	fill_reported_caches(&r->topo, lp.reported_cache_bytes, LATENCY_CACHES_MAX);
	fill_tlb_steps(tlb_section_result(r), &lp);
	/* --quick: two points per octave, three trials, one steady-state visit,
	 * no whole walk of the memory set. */
	lp.no_whole_walk = s->o->quick;
	lp.no_placement = s->o->quick;
	if (s->o->quick) {
		lp.points_per_octave = 2;
		lp.trials = 3;
		lp.steady_visits = 1;
	}
	if (k) {
		lp.points_per_octave = k->points_per_octave;
		lp.trials = k->trials;
		lp.steady_visits = k->steady_visits;
		lp.points_near_caches = k->near_caches;
		lp.warm_max_bytes = k->warm_max_bytes;
		lp.passes = k->passes;
		lp.warm_walks = k->warm_walks;
		lp.region_hops = latency_region_hops(k, &r->clock);
		lp.dense_max_bytes = k->dense_max_bytes;
	}
	/* Cycles need a core-clock estimate: the machine section's when it ran,
	 * else a quick one here (35 ms). */
	if (r->has_core_clock)
		cc = r->core_clock;
	else if (machine_estimate_core_clock(&r->clock, MACHINE_CLOCK_SAMPLES, MACHINE_CLOCK_SAMPLE_MS, &cc))
		cc.min_mhz = cc.max_mhz = 0;
	lp.core_mhz_min = cc.min_mhz;
	lp.core_mhz_max = cc.max_mhz;
	machine_core_clock_state(cc.min_mhz, cc.max_mhz, report_run_floor_pct(r), &clk);
	lp.core_clock_unsteady = clk.known && !clk.steady;
	rc = latency_run(&lp, l);
	section_progress_done(s);
	if (rc)
		return rc;
	/* The largest set on huge pages: one memory access with no page walk
	 * in it, what the TLB steps measured before this curve are bounded by. */
	if (l->ncurve)
		tlb_section_judge_steps(r, l->points[l->ncurve - 1].chase_ns);
	if (lp.core_clock_unsteady)
		result_warn(r, "latency: the core clock was not steady (samples %.0f-%.0f MHz, %.0f%% apart, beyond the "
			    "%.1f%% tolerance): no cycle figures given, ns only", cc.min_mhz, cc.max_mhz, clk.spread_pct,
			    clk.tolerance_pct);
	if (l->nfalls_found)
		result_warn(r, "latency: the curve falls where it must rise at %zu point(s): a probable layout or "
			    "measurement fault, not smoothed (still there after re-timing %u point(s))", l->nfalls_found,
			    l->nretimed);
	for (unsigned i = 0; (p = latency_next_unsteady(l, &i));) {
		char sz[32];

		report_format_bytes(sz, sizeof(sz), p->size_bytes);
		result_warn(r, "latency: %s (%s pages) is not steady: %.2f ns, %.2f ns after a warm start over regions "
			    "4x longer%s", sz, arena_request_name(p->pages), p->chase_ns, p->steady_long_ns,
			    latency_on_a_rise(l, p) ? " (on the rise between two levels, where a shared cache's state can move)" : "");
	}
	for (unsigned i = 0; i < l->nrefs; i++) {
		char sz[32];

		if (l->refs[i].agrees)
			continue;
		report_format_bytes(sz, sizeof(sz), l->refs[i].size_bytes);
		result_warn(r, "latency: level %u at %s: the curve reads %.2f ns, a back-to-back warm chase %.2f ns "
			    "(beyond the %.1f%% tolerance)", l->refs[i].level, sz, l->refs[i].curve_ns, l->refs[i].warm_ns,
			    l->tolerance_pct);
	}
	return 0;
}

/* --size reaches latency through the plan, --budget through its hooks. */
static const struct option_spec latency_size_opt = {
	.name = "size", .arg = "SIZE", .kind = OPTION_SIZE,
	.deflt = "8x the largest reported cache, 256 MiB to 512 MiB",
	.help = "largest working set of the curve, e.g. 1G or 512MiB",
};

static const struct option_spec *const latency_options[] = {&latency_size_opt, &option_seed, &option_budget, NULL};

const struct section section_latency = {
	.name = "latency",
	.options = latency_options,
	.summary = "latency across the hierarchy: random chase vs +64 B stream, small vs huge pages",
	.help = latency_help, .kind = SECTION_MEASURE, .in_report = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct latency_result), .needs = "tlb",
	.budget = &latency_budget, .plan = latency_section_plan, .run = latency_section_run,
	.write_text = latency_write_text, .write_json = latency_write_json,
	.write_csv = latency_write_csv,
	.view = &view_latency,
};

const struct latency_result *latency_section_result(const struct report *r)
{
	return registry_result(r, &section_latency);
}
