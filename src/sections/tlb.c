/*
 * The `tlb` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: the TLB: one load per 4 KiB page, pages swept in count, small
 * and huge pages.
 */
#include "sections/registry.h"

#include "report/tlb_out.h"
#include "sections/plan.h"

static const char tlb_help[] =
	"Chases one load per 4 KiB page (the line offset rotating from page to page, so\n"
	"the lines spread over every cache set) through 8 to 32768 pages in random\n"
	"order, in a small-page and in a huge-page arena, against a control that visits\n"
	"the same number of lines packed densely. The extra per load is translation, by\n"
	"subtraction: its steps are the TLB levels (entries, reach, extra ns), the last\n"
	"plateau the page-walk cost. Where the huge-page arena steps at the small-page\n"
	"counts, 2 MiB pages give only 4 KiB reach (a guest on small host pages). The\n"
	"steps are set beside the TLB sizes CPUID reports (unknown off x86-64).\n";

static int tlb_section_run(struct section_run *s, void *result)
{
	struct tlb_params tp = {
		.noise_floor_pct = s->r->noise_floor_pct,
		.seed = s->o->seed,
		.clock = &s->r->clock,
		.stop = s->stop,
		.progress = s->progress,
		.progress_ctx = s,
	};
	int rc;

	s->label = "tlb";
	/* --quick: two points per octave and three trials still find each
	 * step within a factor of 1.4. */
	if (s->o->quick) {
		tp.points_per_octave = 2;
		tp.trials = 3;
	}
	if (section_budget_of(s)) {
		tp.points_per_octave = section_budget_of(s)->tlb_points_per_octave;
		tp.trials = section_budget_of(s)->tlb_trials;
	}
	rc = tlb_run(&tp, result);
	section_progress_done(s);
	return rc;
}

const struct section section_tlb = {
	.name = "tlb",
	.options = "budget",
	.summary = "the TLB: one load per 4 KiB page, pages swept in count, small and huge pages",
	.help = tlb_help, .kind = SECTION_MEASURE, .in_report = true, .outputs = SECTION_OUT_ALL,
	.result_bytes = sizeof(struct tlb_result), .needs = "noise", .run = tlb_section_run,
	.write_text = report_write_tlb_text, .write_json = report_write_tlb_json,
	.view = &view_tlb,
};
