/*
 * The `machine` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters.
 * In --help: what this machine permits: CPU, caches, pages, timer, core
 * clock, PMU.
 */
#include "frame/registry.h"

#include "run/run.h"
#include "report/machine_out.h"
#include "frame/budget.h"

static const char machine_help[] =
	"Identifies the CPU (model, family/model/stepping, relevant ISA features), lists\n"
	"the caches as sysfs and the CPU itself (CPUID, CTR_EL0) report them and where they\n"
	"disagree, the page sizes, THP mode and hugetlb pools, the timer, and a core-clock\n"
	"range timed with a chain of dependent adds (never /proc/cpuinfo alone). It probes\n"
	"the PMU: whether perf_event_open can count cycles (the errno when not), the\n"
	"paranoid level, and user-space RDPMC executed in a forked child, reporting the\n"
	"signal it died of. It then says which claims follow: with no PMU, misses cannot\n"
	"be counted and every figure is bounded by timing.\n";

static int machine_section_run(struct section_run *s, void *result)
{
	struct machine_info *m = result;
	int rc = machine_probe(m, &s->r->clock);

	if (rc)
		return rc;
	/* Later sections turn ns into cycles with this range. */
	s->r->has_core_clock = !m->core_clock_rc;
	s->r->core_clock = m->core_clock;
	return 0;
}

const struct section section_machine = {
	.name = "machine",
	.options = options_budget_only,
	.budget = &budget_prerequisite,
	.summary = "what this machine permits: CPU, caches, pages, timer, core clock, PMU",
	.help = machine_help, .kind = SECTION_MEASURE, .in_report = true,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct machine_info),
	.run = machine_section_run, .write_text = machine_write_text,
	.write_json = machine_write_json, .write_csv = machine_write_csv,
	.view = &view_machine,
};
