/*
 * The `latency` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: latency across the hierarchy: random chase vs +64 B stream,
 * small vs huge pages.
 */
#include "sections/registry.h"

#include "report/latency_out.h"
#include "report/tlb_out.h"
#include "sections/plan.h"
#include "util/format.h"
#include "util/usage.h"

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
static size_t latency_max_bytes(const struct plan *p)
{
	return p->has_budget ? p->budget.latency_max_bytes : p->working_set_bytes;
}

/* latency holds a huge-page and a small-page arena of its largest size at once. */
static int latency_section_plan(struct section_run *s, char *err, size_t errlen)
{
	size_t max = latency_max_bytes(s->plan), peak = 2 * max + max / 4;
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

static int latency_section_run(struct section_run *s, void *result)
{
	struct latency_result *l = result;
	struct report *r = s->r;
	struct latency_params lp = {
		.max_bytes = latency_max_bytes(s->plan),
		.points_near_caches = true,
		.line_bytes = r->topo.line_bytes,
		.noise_floor_pct = r->noise_floor_pct,
		.seed = s->o->seed,
		.clock = &r->clock,
		.stop = s->stop,
		.progress = s->progress,
		.progress_ctx = s,
	};
	struct machine_core_clock cc;
	int rc;

	s->label = "latency";
	fill_reported_caches(&r->topo, lp.reported_cache_bytes, LATENCY_CACHES_MAX);
	fill_tlb_steps(section_result_of(r, "tlb"), &lp);
	/* --quick: two points per octave, three trials, one steady-state visit,
	 * no whole walk of the memory set. */
	lp.no_whole_walk = s->o->quick;
	if (s->o->quick) {
		lp.points_per_octave = 2;
		lp.trials = 3;
		lp.steady_visits = 1;
	}
	if (section_budget_of(s)) {
		lp.points_per_octave = section_budget_of(s)->latency_points_per_octave;
		lp.trials = section_budget_of(s)->latency_trials;
		lp.steady_visits = section_budget_of(s)->latency_steady_visits;
		lp.points_near_caches = section_budget_of(s)->latency_near_caches;
		lp.warm_max_bytes = section_budget_of(s)->latency_warm_max_bytes;
		lp.passes = section_budget_of(s)->latency_passes;
		lp.warm_walks = section_budget_of(s)->latency_warm_walks;
		/* region_hops stays latency.c's own: it raises the default where the
		 * clock's minimum region needs more loads (the budget prices 65536). */
	}
	/* Cycles need a core-clock estimate: the machine section's when it ran,
	 * else a quick one here (35 ms). */
	if (r->has_core_clock)
		cc = r->core_clock;
	else if (machine_estimate_core_clock(&r->clock, MACHINE_CLOCK_SAMPLES, MACHINE_CLOCK_SAMPLE_MS, &cc))
		cc.min_mhz = cc.max_mhz = 0;
	lp.core_mhz_min = cc.min_mhz;
	lp.core_mhz_max = cc.max_mhz;
	rc = latency_run(&lp, l);
	section_progress_done(s);
	if (rc)
		return rc;
	if (l->nfalls_found)
		result_warn(r, "latency: the curve falls where it must rise at %zu point(s): a probable layout or "
			    "measurement fault, not smoothed (still there after re-timing %u point(s))", l->nfalls_found,
			    l->nretimed);
	for (unsigned i = 0; i < l->npoints; i++) {
		const struct latency_point *p = &l->points[i];
		char sz[32];

		if (!p->steady_checked || p->steady_ok)
			continue;
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

const struct section section_latency = {
	.name = "latency",
	.options = "budget",
	.summary = "latency across the hierarchy: random chase vs +64 B stream, small vs huge pages",
	.help = latency_help, .kind = SECTION_MEASURE, .in_report = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct latency_result), .needs = "tlb",
	.plan = latency_section_plan, .run = latency_section_run,
	.write_text = report_write_latency_text, .write_json = report_write_latency_json,
	.write_csv = latency_write_csv,
	.view = &view_latency,
};
