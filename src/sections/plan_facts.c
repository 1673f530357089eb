/*
 * The plan command: read another machine's facts and run the same planner
 * a measuring run uses (budget_make) for the sections the registry names,
 * then print what it would do and how long each section would take.
 */
#include "sections/plan_facts.h"

#include "util/jsonr.h"
#include "util/format.h"

#include <errno.h>
#include <string.h>

/* What a result written before results carried `plan.facts` leaves unsaid:
 * memory, and the rates of first touch and chain build. A small machine's
 * figures, so the plan errs toward less work (the same a run presumes when
 * it cannot measure its rates). */
#define PRESUMED_MEM_BYTES ((size_t)16 << 30)
#define PRESUMED_TOUCH_GBPS 1.0
#define PRESUMED_BUILD_NS_PER_NODE 600.0
#define PRESUMED_DRAM_NS 150.0
#define PRESUMED_STREAM_GBPS 8.0

/* The largest one-thread read of a result's bandwidth section, GB/s; 0: none. */
static double one_thread_read_gbps(const struct jsonr_value *root)
{
	const struct jsonr_value *k = jsonr_get(root, "bandwidth.kernels");
	double best = 0;

	for (const struct jsonr_value *e = k && k->type == JSONR_ARRAY ? k->u.children.first : NULL; e; e = e->next) {
		const char *op = jsonr_get_string(e, "op");
		double threads = 0, gbps = 0;

		if (op && !strcmp(op, "read") && jsonr_get_number(e, "threads", &threads) && threads == 1 &&
		    jsonr_get_number(e, "gbps", &gbps) && gbps > best)
			best = gbps;
	}
	return best;
}

/* Facts from a result that has no `plan.facts` (an older mlpscope's): the
 * caches and CPUs its machine section states, the DRAM miss and stream its
 * latency and bandwidth sections measured, the rest presumed and said so in
 * rates.from. 0, or -EINVAL when it is no result with a machine section. */
static int facts_from_older_result(const struct jsonr_value *root, struct cost_facts *f)
{
	const struct jsonr_value *c = jsonr_get(root, "machine.caches_reported");
	const char *tool = jsonr_get_string(root, "tool"), *model = jsonr_get_string(root, "machine.cpu_model");
	double cpus = 0, dram = 0, stream = one_thread_read_gbps(root);

	if (!tool || strcmp(tool, "mlpscope") || !jsonr_get(root, "machine") ||
	    !jsonr_get_number(root, "machine.online_cpus", &cpus) || !(cpus >= 1 && cpus <= 65536))
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->line_bytes = 64;
	for (const struct jsonr_value *e = c && c->type == JSONR_ARRAY ? c->u.children.first : NULL; e; e = e->next) {
		const char *type = jsonr_get_string(e, "type");
		double level = 0, bytes = 0, line = 0;

		if (!type || !strcmp(type, "Instruction") || !jsonr_get_number(e, "level", &level) ||
		    !jsonr_get_number(e, "size_bytes", &bytes) || !(bytes > 0 && bytes < 1e15))
			continue;
		if (level == 1)
			f->l1_bytes = (size_t)bytes;
		else if (level == 2)
			f->l2_bytes = (size_t)bytes;
		if (level >= 2 && (size_t)bytes > f->llc_bytes)
			f->llc_bytes = (size_t)bytes;
		if (jsonr_get_number(e, "line_bytes", &line) && line >= 8 && line <= 4096)
			f->line_bytes = (size_t)line;
	}
	f->cpus = (unsigned)cpus;
	f->mem_total_bytes = f->mem_available_bytes = PRESUMED_MEM_BYTES;
	f->rates.touch_gbps = PRESUMED_TOUCH_GBPS;
	f->rates.build_ns_per_node = PRESUMED_BUILD_NS_PER_NODE;
	f->rates.dram_ns = jsonr_get_number(root, "latency.chase_ns_at_max", &dram) && dram > 0 && dram < 1e6
				   ? dram : PRESUMED_DRAM_NS;
	f->rates.stream_gbps = stream > 0 && stream < 1e6 ? stream : PRESUMED_STREAM_GBPS;
	snprintf(f->machine, sizeof(f->machine), "%s", model ? model : "unnamed");
	snprintf(f->rates.from, sizeof(f->rates.from), "no plan.facts: DRAM miss %s, stream %s; memory, touch, build presumed",
		 dram > 0 ? "its own" : "presumed", stream > 0 ? "its own" : "presumed");
	return 0;
}

int plan_cmd_from_file(const char *path, const char *command, bool quick, double budget_s,
		       const struct budget_row *rows, unsigned nrows, struct budget *b, char *err, size_t errlen)
{
	struct jsonr_doc doc = {0};
	struct cost_facts f;
	char why[200];
	int rc;

	if ((rc = jsonr_parse_file(path, 0, &doc, why, sizeof(why)))) {
		snprintf(err, errlen, "--from: %s (expected a result or a facts file)", why);
		return 2;
	}
	rc = cost_facts_from_json(doc.root, &f, why, sizeof(why));
	if (rc && !jsonr_get(doc.root, "plan.facts") && !facts_from_older_result(doc.root, &f))
		rc = 0;
	jsonr_free(&doc);
	if (rc) {
		snprintf(err, errlen, "--from: '%s': %s", path, why);
		return 2;
	}
	budget_make(b, &f, command, quick, budget_s, 0, rows, nrows);
	return 0;
}

void plan_cmd_print(const struct budget *b, FILE *f)
{
	char a[32], c[32], d[32], e[32], g[32];

	fprintf(f, "plan for %s on %s (facts: %s)\n", b->command, b->facts.machine, b->facts.rates.from);
	fprintf(f, "  rates: first touch %.2f GB/s, chain build %.0f ns/node, DRAM miss %.0f ns, stream %.1f GB/s\n",
		b->facts.rates.touch_gbps, b->facts.rates.build_ns_per_node, b->facts.rates.dram_ns,
		b->facts.rates.stream_gbps);
	fputs("  ", f);
	budget_write_plan_line(b, f);
	report_format_bytes(a, sizeof(a), b->memory_set_bytes);
	report_format_bytes(c, sizeof(c), b->planned_peak_bytes);
	report_format_bytes(d, sizeof(d), b->rss_cap_bytes);
	report_format_bytes(e, sizeof(e), b->memory_set_floor_bytes);
	report_format_bytes(g, sizeof(g), b->facts.llc_bytes);
	fprintf(f, "  sets past the caches %s (floor %s, twice the %s last cache); planned peak %s of a %s cap\n", a, e,
		g, c, d);
	if (b->planned_s <= b->budget_s)
		fprintf(f, "  fits the budget\n");
	else if (b->budget_given)
		fprintf(f, "  DOES NOT FIT the budget\n");
	else
		fprintf(f, "  OVER THE DEFAULT BUDGET by %.1f s: its smallest plan runs whole, nothing refused\n",
			b->over_budget_s);
}
