/*
 * The plan command: read another machine's facts, run the same planner a
 * measuring run uses (budget_make) for the command asked for, and print
 * what it would do and how long each section would take. The sections
 * that would run come from the registry, as in a measuring run.
 */
#include "cmd/plan.h"

#include "exp/registry.h"
#include "jsonr.h"
#include "report/format.h"

#include <string.h>

int plan_cmd_from_file(const char *path, const char *command_name, bool quick, double budget_s, struct budget *b,
		       char *err, size_t errlen)
{
	const struct section *cmd = registry_find(command_name);
	const char *names[BUDGET_SECTIONS];
	struct jsonr_doc doc = {0};
	struct cost_facts f;
	char why[200];
	unsigned n = 0;
	int rc;

	if (!cmd || (cmd->kind != SECTION_REPORT && cmd->kind != SECTION_MEASURE) || cmd->report_only) {
		snprintf(err, errlen, "plan: '%s' is not a measuring command (expected report, latency, mlp, "
			 "window, app ...)", command_name);
		return 2;
	}
	if ((rc = jsonr_parse_file(path, 0, &doc, why, sizeof(why)))) {
		snprintf(err, errlen, "--from: %s (expected a result or a facts file)", why);
		return 2;
	}
	rc = cost_facts_from_json(doc.root, &f, why, sizeof(why));
	jsonr_free(&doc);
	if (rc) {
		snprintf(err, errlen, "--from: '%s': %s", path, why);
		return 2;
	}
	for (size_t i = 0; i < registry_count && n < BUDGET_SECTIONS; i++)
		if (registry_runs(cmd, &registry[i]))
			names[n++] = registry[i].name;
	budget_make(b, &f, cmd->kind == SECTION_REPORT ? "report" : cmd->name, quick, budget_s, 0, names, n);
	return 0;
}

int cmd_plan(const struct options *o, char *err, size_t errlen)
{
	static struct budget b;
	char a[32], c[32], d[32];
	int rc = plan_cmd_from_file(o->from_path, o->npaths ? o->paths[0] : "report", o->quick, o->budget_s, &b, err,
				    errlen);

	if (rc)
		return rc;
	printf("plan for %s on %s (facts: %s)\n", b.command, b.facts.machine, b.facts.rates.from);
	printf("  rates: first touch %.2f GB/s, chain build %.0f ns/node, DRAM miss %.0f ns, stream %.1f GB/s\n",
	       b.facts.rates.touch_gbps, b.facts.rates.build_ns_per_node, b.facts.rates.dram_ns, b.facts.rates.stream_gbps);
	fputs("  ", stdout);
	budget_write_plan_line(&b, stdout);
	report_format_bytes(a, sizeof(a), b.memory_set_bytes);
	report_format_bytes(c, sizeof(c), b.planned_peak_bytes);
	report_format_bytes(d, sizeof(d), b.rss_cap_bytes);
	printf("  sets past the caches %s; planned peak %s of a %s cap\n", a, c, d);
	printf("  %s\n", b.planned_s <= b.budget_s ? "fits the budget" : "DOES NOT FIT the budget");
	return 0;
}
