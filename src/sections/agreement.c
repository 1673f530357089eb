/*
 * The `agreement` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: sections agree: latency, mlp K=1, loaded idle, multicore
 * T=1 K=1, app chases at the same set (full report).
 */
#include "frame/registry.h"

#include "analyse/agreement.h"
#include "exp/app/bzip2.h"
#include "report/agreement_out.h"
#include "run/run.h"
#include "sections/app.h"
#include "sections/latency.h"
#include "sections/loaded.h"
#include "sections/mlp.h"
#include "sections/multicore.h"

#include <math.h>
#include <string.h>

static const char agreement_help[] =
	"Not a command: the full report's closing block. Where latency, mlp at K = 1,\n"
	"loaded's idle point, multicore's one thread with one lane and each app\n"
	"kernel's chase reference time one random dependent load from the same working\n"
	"set and page size, it sets them on one line and flags a difference beyond the\n"
	"noise floor, whichever side is faster, with the cause the results show: a\n"
	"different working set, a different page backing obtained, a lead-in too short\n"
	"to warm the paging structures, latency's own steady-state flag, other threads\n"
	"running, or a figure timed right after traffic where latency falls after it.\n";

/* The row's name for a kernel's chase: a literal, as every section name. */
static const char *app_chase_name(const char *kernel)
{
	static const char *const names[][2] = {
		{"hash", "app hash chase"}, {"bwt", "app bwt chase"}, {"search", "app search chase"},
		{"gather", "app gather chase"}, {"bzip2", "app bzip2 chase"},
	};

	for (size_t i = 0; kernel && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(kernel, names[i][0]))
			return names[i][1];
	return "app chase";
}

static void take_chase(struct agreement_chase *out, unsigned *n, const char *kernel, const struct app_chase *c)
{
	if (!c->ran || !c->pages_requested)
		return;
	/* Timed in regions after an untimed pass over all its nodes (mlp_run):
	 * more than one load per 4 KiB before them. */
	out[(*n)++] = (struct agreement_chase){
		.section = app_chase_name(kernel), .ns = c->latency_ns, .set_bytes = c->working_set_bytes,
		.huge = !strcmp(c->pages_requested, "huge"),
		.huge_fraction = c->total_bytes ? (double)c->huge_bytes_obtained / (double)c->total_bytes : 0,
		.lead_in_loads = (double)c->working_set_bytes,
	};
}

/* Each app kernel's chase reference (its t(1) at the kernel's footprint and
 * pages), and bzip2's unless it reused bwt's: one row for one timing. */
static void add_app_chases(struct agreement_result *a, const struct latency_curve *lat, const struct app_result *app)
{
	struct agreement_chase c[APP_KERNELS_MAX + 1];
	unsigned n = 0;

	if (!app)
		return;
	for (unsigned i = 0; i < app->nkernels && i < APP_KERNELS_MAX; i++)
		take_chase(c, &n, app->kernels[i].kernel, &app->kernels[i].chase);
	if (app->bzip2 && !app->bzip2->chase_reused)
		take_chase(c, &n, "bzip2", &app->bzip2->chase);
	agreement_add_chases(a, lat, c, n);
}

/* multicore's t1_single, one thread's dependent load at its per-thread set:
 * each of its trials runs right after the sweep's last point (the largest
 * team at the most lanes; the first trial after the untimed warm-up on that
 * team), on thread 0's chain that point walked on, so it is timed after
 * traffic with that point's loads as its lead-in. */
static void add_multicore_chase(struct agreement_result *a, const struct latency_curve *lat,
				const struct multicore_result *mc, const struct report *r)
{
	struct agreement_chase c;
	char state[192], fall[128];

	if (!mc || !mc->npoints || !isfinite(mc->t1_single_ns) || !mc->pages_requested)
		return;
	snprintf(state, sizeof(state), "each trial right after T = %u, K = %u's traffic%s",
		 mc->thread_counts[mc->ncounts - 1], mc->max_lanes, mlp_section_fall_clause(r, fall, sizeof(fall)));
	c = (struct agreement_chase){
		.section = "multicore T=1 K=1", .ns = mc->t1_single_ns, .set_bytes = mc->per_thread_bytes,
		.huge = !strcmp(mc->pages_requested, "huge"),
		.huge_fraction = mc->total_bytes ? (double)mc->huge_bytes_obtained / (double)mc->total_bytes : 0,
		.lead_in_loads = (double)mc->accesses, .faster_state = state,
	};
	agreement_add_chases(a, lat, &c, 1);
}

/* Derived, not measured: latency, mlp K=1, loaded idle, multicore's T=1 K=1
 * and the app chases side by side (it runs after app for that). */
static int agreement_section_run(struct section_run *s, void *result)
{
	const struct mlp_arms *m = mlp_section_result(s->r);
	struct latency_curve curve;
	const struct latency_curve *lat = latency_curve_of(latency_section_result(s->r), &curve);

	agreement_compute(lat, m ? m->arm : NULL, m ? (unsigned)m->n : 0, loaded_section_result(s->r),
			  report_run_floor_pct(s->r), result);
	add_multicore_chase(result, lat, multicore_section_result(s->r), s->r);
	add_app_chases(result, lat, app_section_result(s->r));
	return ((const struct agreement_result *)result)->nlines ? 0 : 1;
}

const struct section section_agreement = {
	.name = "agreement",
	.summary = "sections agree: latency, mlp K=1, loaded idle, multicore T=1 K=1, app chases at the same set (full "
		   "report)",
	.help = agreement_help, .kind = SECTION_MEASURE, .in_report = true, .report_only = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct agreement_result),
	.run = agreement_section_run, .write_text = agreement_write_text,
	.write_json = agreement_write_json,
	.view = &view_agreement,
};
