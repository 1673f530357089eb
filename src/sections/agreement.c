/*
 * The `agreement` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: sections agree: latency, mlp K=1, loaded idle, app chases at the
 * same set (full report).
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

#include <math.h>
#include <string.h>

static const char agreement_help[] =
	"Not a command: the full report's closing block. Where latency, mlp at K = 1,\n"
	"loaded's idle point and each app kernel's chase reference time one random\n"
	"dependent load from the same working set and page size, it sets them on one\n"
	"line and flags a difference beyond the noise floor, whichever side is faster,\n"
	"with the cause the results show: a different working set, a different page\n"
	"backing obtained, a lead-in too short to warm the paging structures,\n"
	"latency's own steady-state flag, or other threads running.\n";

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
	out[(*n)++] = (struct agreement_chase){
		.section = app_chase_name(kernel), .ns = c->latency_ns, .set_bytes = c->working_set_bytes,
		.huge = !strcmp(c->pages_requested, "huge"),
		.huge_fraction = c->total_bytes ? (double)c->huge_bytes_obtained / (double)c->total_bytes : 0,
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

/* Derived, not measured: latency, mlp K=1, loaded idle and the app chases
 * side by side (it runs after app for that). */
static int agreement_section_run(struct section_run *s, void *result)
{
	const struct mlp_arms *m = mlp_section_result(s->r);
	struct latency_curve curve;
	const struct latency_curve *lat = latency_curve_of(latency_section_result(s->r), &curve);

	agreement_compute(lat, m ? m->arm : NULL, m ? (unsigned)m->n : 0, loaded_section_result(s->r),
			  report_run_floor_pct(s->r), result);
	add_app_chases(result, lat, app_section_result(s->r));
	return ((const struct agreement_result *)result)->nlines ? 0 : 1;
}

const struct section section_agreement = {
	.name = "agreement",
	.summary = "sections agree: latency, mlp K=1, loaded idle, app chases at the same set (full report)",
	.help = agreement_help, .kind = SECTION_MEASURE, .in_report = true, .report_only = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct agreement_result),
	.run = agreement_section_run, .write_text = agreement_write_text,
	.write_json = agreement_write_json,
	.view = &view_agreement,
};
