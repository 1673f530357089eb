/*
 * The `tlb` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: the TLB: one load per 4 KiB page, pages swept in count, small
 * and huge pages.
 */
#include "sections/tlb.h"
#include "frame/registry.h"

#include "report/tlb_out.h"
#include "frame/plan.h"

static const char tlb_help[] =
	"Chases one load per 4 KiB page (the line offset rotating from page to page, so\n"
	"the lines spread over every cache set) through 8 to 32768 pages in random\n"
	"order, in a small-page and in a huge-page arena, against a control that visits\n"
	"the same number of lines packed densely. The extra per load is translation, by\n"
	"subtraction: its steps are the TLB levels (entries, reach, extra ns), the last\n"
	"plateau the page-walk cost. Where the huge-page arena steps at the small-page\n"
	"counts, 2 MiB pages give only 4 KiB reach (a guest on small host pages). The\n"
	"steps are set beside the TLB sizes CPUID reports (unknown off x86-64).\n";

/* tlb's settings in the plan (budget.h). */
struct tlb_knobs {
	unsigned points_per_octave, trials;
};
_Static_assert(sizeof(struct tlb_knobs) <= BUDGET_KNOB_BYTES, "tlb's knobs fit their slot");

static void tlb_defaults(const struct budget *b, void *knobs)
{
	*(struct tlb_knobs *)knobs = (struct tlb_knobs){.points_per_octave = b->quick ? 2 : 4, .trials = b->quick ? 3 : 5};
}

/* 0.7 s at 4 points an octave and 5 trials on another recorded guest alone,
 * 0.35 s at 2 and 3 (1.7-2.3 s beside other work); 1.4 s and 0.6-1.2 s
 * on one recorded guest, whose fixed part (the sets' chains, the page-size
 * series) is larger: priced at the slower. Its chases fit the caches, so
 * no rate. */
static double tlb_price(const struct budget *b, const void *knobs, size_t *peak)
{
	const struct tlb_knobs *k = knobs;

	(void)b;
	(void)peak;
	return 0.6 + 0.04 * (k->points_per_octave * k->trials);
}

static const struct budget_hooks tlb_budget = {.keep = BUDGET_KEEP_SUPPORT, .defaults = tlb_defaults, .price = tlb_price};

/* A floor high enough to hide the steps removes the TLB from the summary:
 * say so among the warnings, with the rise it hid. */
static void warn_hidden_steps(struct report *r, const struct tlb_result *t)
{
	for (unsigned i = 0; i < t->nseries; i++) {
		const struct tlb_series *se = &t->series[i];

		if (se->steps_hidden)
			result_warn(r, "noise floor %.1f%%: TLB steps not shown (%s pages: a step under the %.1f%% tolerance "
				    "of a load's time is not told from noise; the extra per load rose to %.2f ns)",
				    t->noise_floor_pct, se->page_bytes == TLB_STRIDE_BYTES ? "4 KiB" : "huge",
				    t->tolerance_pct, se->max_extra_ns);
	}
}

/* A chain that lands two nodes on one line times cache hits among its
 * misses: its step is not the TLB's, and the reader must know. The same
 * holds for a curve that falls where it cannot: a fault, not a TLB. */
static void warn_layout(struct report *r, const struct tlb_result *t)
{
	if (!t->layout.ok)
		result_warn(r, "tlb: layout check FAILED on %u chain(s): %zu distinct lines walked, %zu expected; "
			    "a chain that revisits lines times the cache, not the TLB",
			    t->nlayout_failed, t->layout.distinct_lines_walked, t->layout.expected_lines);
	if (t->nfalls)
		result_warn(r, "tlb: ns per load falls by more than the %.1f%% floor at %u point(s) as pages grow "
			    "(NON-MONOTONIC in the text): the point above them is suspect, not a TLB property", t->noise_floor_pct, t->nfalls);
}

static int tlb_section_run(struct section_run *s, void *result)
{
	const struct tlb_knobs *k = section_knobs_of(s, &tlb_budget);
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
	if (k) {
		tp.points_per_octave = k->points_per_octave;
		tp.trials = k->trials;
	}
	rc = tlb_run(&tp, result);
	section_progress_done(s);
	if (!rc)
		warn_hidden_steps(s->r, result);
	if (!rc)
		warn_layout(s->r, result);

	return rc;
}

const struct section section_tlb = {
	.name = "tlb",
	.options = options_seeded,
	.summary = "the TLB: one load per 4 KiB page, pages swept in count, small and huge pages",
	.help = tlb_help, .kind = SECTION_MEASURE, .in_report = true, .outputs = SECTION_OUT_ALL,
	.result_bytes = sizeof(struct tlb_result), .needs = "noise", .budget = &tlb_budget,
	.run = tlb_section_run,
	.write_text = tlb_write_text, .write_json = tlb_write_json,
	.view = &view_tlb,
};

const struct tlb_result *tlb_section_result(const struct report *r)
{
	return registry_result(r, &section_tlb);
}

void tlb_section_judge_steps(struct report *r, double memory_latency_ns)
{
	size_t i = registry_index(&section_tlb);
	struct tlb_result *t = i < registry_count ? r->results[i] : NULL;

	if (t && tlb_check_bounds(t, memory_latency_ns))
		result_warn(r, "tlb: %u step(s) above what translation can add to a load (%d memory accesses, "
			    "%.1f ns), marked IMPOSSIBLE and left out of the summary", t->nimpossible,
			    TLB_STEP_MAX_MEMORY_ACCESSES, t->step_bound_ns);
}
