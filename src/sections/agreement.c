/*
 * The `agreement` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: sections agree: latency, mlp K=1 and loaded idle at the same
 * set (in the full report).
 */
#include "sections/registry.h"

#include "analyse/agreement.h"
#include "report/agreement_out.h"
#include "run/run.h"
#include "sections/latency.h"
#include "sections/loaded.h"
#include "sections/mlp.h"

#include <math.h>

static const char agreement_help[] =
	"Not a command: the full report's closing block. Where latency, mlp at K = 1\n"
	"and loaded's idle point each time one random dependent load from the same\n"
	"working set and page size, it sets them on one line and flags a difference\n"
	"beyond the noise floor with the cause the results show: a different working\n"
	"set, a different page backing obtained, a lead-in too short to warm the\n"
	"paging structures, latency's own steady-state flag, or other threads running.\n";

/* Derived, not measured: latency, mlp K=1 and loaded idle side by side. */
static int agreement_section_run(struct section_run *s, void *result)
{
	const struct mlp_arms *m = mlp_section_result(s->r);

	agreement_compute(latency_section_result(s->r), m ? m->arm : NULL, m ? (unsigned)m->n : 0,
		      loaded_section_result(s->r), s->r->has_noise_floor ? s->r->noise_floor_pct : NAN, result);
	return ((const struct agreement_result *)result)->nlines ? 0 : 1;
}

const struct section section_agreement = {
	.name = "agreement",
	.summary = "sections agree: latency, mlp K=1 and loaded idle at the same set (in the full report)",
	.help = agreement_help, .kind = SECTION_MEASURE, .in_report = true, .report_only = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct agreement_result),
	.run = agreement_section_run, .write_text = agreement_write_text,
	.write_json = agreement_write_json,
	.view = &view_agreement,
};
