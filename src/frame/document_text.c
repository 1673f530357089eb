/*
 * The aligned text report: the header (what ran where, the headline
 * summary, on which clock), then every section that ran, in registry order, each through its own
 * writer (report/NAME_out.c), then the plan's estimate against the time
 * taken, then the warnings. Every column names its
 * quantity and unit; that is the section writers' job.
 */
#include "frame/document.h"

#include "frame/budget.h"
#include "frame/registry.h"
#include "report/summary.h"

#include <stdio.h>

/* One line saying what ran where, then the headline summary, then the
 * clock and the sections the summary's figures come from. */
static void write_header(const struct report *r, FILE *f)
{
	const struct clock_info *c = &r->clock;
	static struct summary sum;
	const char *type = r->prov.core_type_count > 1 ? r->prov.cpu_pinned_type : "";

	fprintf(f, "mlpscope %s on %s (%s), %d CPUs online, pinned to CPU %d%s%s\n", r->version,
		r->topo.cpu_model, r->prov.arch, r->topo.online_cpus, r->topo.cpu, type[0] ? ", a " : "", type);
	if (!report_build_summary(r, &sum))
		summary_write_text(&sum, f);
	fprintf(f, "clock: %s, %.4f ticks/ns%s; step %.1f ns, empty region %.1f ns, "
		"so timed regions are kept above %.1f us\n",
		c->source, c->ticks_per_ns, c->invariant ? " (invariant)" : " (NOT invariant)",
		clock_ticks_to_ns(c, c->resolution_ticks), clock_ticks_to_ns(c, c->empty_region_ticks),
		c->min_region_ns / 1000.0);
	if (r->prov.archived_binary[0])
		fprintf(f, "binary: %s %s, source %s%s, archived as %s\n", r->prov.build_id[0] ? "build id" : "SHA-256",
			r->prov.build_id[0] ? r->prov.build_id : r->prov.binary_sha256,
			r->prov.source_revision ? r->prov.source_revision : "unknown",
			r->prov.source_dirty > 0 ? " (files changed since)" : "", r->prov.archived_binary);
}

void report_write_text(const struct report *r, FILE *f)
{
	write_header(r, f);
	for (size_t i = 0; i < registry_count; i++)
		if (r->results[i] && registry[i]->write_text)
			registry[i]->write_text(r->results[i], f);
	if (r->budget)
		budget_write_text(r->budget, f);
	if (r->nwarnings) {
		fprintf(f, "\nwarnings:\n");
		for (int i = 0; i < r->nwarnings; i++)
			fprintf(f, "  ! %s\n", r->warnings[i]);
	}
}
