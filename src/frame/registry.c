/*
 * The registry: the lookup by command word over registry[] (the rows in
 * report order, filled by sections/list.c), and the loops every section
 * takes part in (what runs for a command, the plan checks, CSV tables,
 * freeing).
 * Each section's own glue and descriptor live in sections/NAME.c; the
 * helpers several of them share are here. Nothing here names a section.
 */
#include "frame/registry.h"

#include "core/team.h"
#include "frame/plan.h"
#include "util/atomic.h"
#include "util/format.h"
#include "util/usage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool section_asked_for(const struct section_run *s, const char *name)
{
	return !strcmp(s->o->command->name, name);
}

void section_progress_done(const struct section_run *s)
{
	if (s->progress && s->progress_done)
		s->progress_done();
}

/* A threaded section's err says what failed; -errno alone otherwise. */
int section_threaded_done(struct section_run *s, const char *name, int rc, const char *why)
{
	if (rc && rc != -EINTR && rc != -EPROTO && why[0])
		snprintf(s->err, sizeof(s->err), "%s: %s (%s)", name, why, strerror(-rc));
	return rc;
}

/* The budget's sizes and trials, when the run has one (main.c measures
 * the rates and fits them); NULL: each section's own defaults. */
const void *section_knobs_of(const struct section_run *s, const struct budget_hooks *hooks)
{
	return s->plan && s->plan->has_budget ? budget_knobs(&s->plan->budget, hooks) : NULL;
}

int section_plan_two_threads(struct section_run *s, const char *name, const char *need, const char *briefly,
			     char *err, size_t errlen)
{
	unsigned n = s->plan->threads;

	if (n >= 2)
		return 0;
	if (section_asked_for(s, name))
		return usage_fail(err, errlen, "%s: needs %s, but %u %s available (expected --threads 2 or more, on a "
				  "machine with 2+ CPUs)", name, need, n, n == 1 ? "is" : "are");
	result_warn(s->r, "%s: skipped, it needs %s", name, briefly);
	return 0;
}

const void *registry_result(const struct report *r, const struct section *row)
{
	size_t i = registry_index(row);

	return i < registry_count ? r->results[i] : NULL;
}

const struct section *registry_find(const char *name)
{
	for (size_t i = 0; i < registry_count; i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

size_t registry_index(const struct section *s)
{
	size_t i = 0;

	while (i < registry_count && registry[i] != s)
		i++;
	return i;
}

bool registry_runs(const struct section *cmd, const struct section *s)
{
	if (s->kind != SECTION_MEASURE)
		return false;
	if (s == cmd || (cmd->kind == SECTION_REPORT && s->in_report))
		return true;
	/* What cmd needs, and what that needs (latency -> tlb -> noise). */
	for (const struct section *n = cmd; n && n->needs; n = registry_find(n->needs))
		if (!strcmp(n->needs, s->name))
			return true;
	return false;
}

unsigned registry_budget_rows(const struct section *cmd, struct budget_row *out, unsigned cap)
{
	unsigned n = 0;

	for (size_t i = 0; i < registry_count && n < cap; i++)
		if (registry[i]->kind == SECTION_MEASURE)
			out[n++] = (struct budget_row){registry[i]->name, registry[i]->budget, registry_runs(cmd, registry[i])};
	return n;
}

/* The threaded sections run one after another, each holding its arenas:
 * the largest of them must fit in MemAvailable. */
static int check_threaded_memory(const struct section_run *s, char *err, size_t errlen)
{
	const struct topo *t = &s->r->topo;
	unsigned threads = s->plan->threads;
	size_t need = 0;
	const char *who = "";
	char a[32], b[32];

	for (size_t i = 0; i < registry_count; i++) {
		size_t bytes;

		if (!registry[i]->peak_bytes || !registry_runs(s->o->command, registry[i]))
			continue;
		if ((bytes = registry[i]->peak_bytes(t, s->o->quick, threads)) > need) {
			need = bytes;
			who = registry[i]->name;
		}
	}
	if (!t->mem_available_bytes || need <= t->mem_available_bytes)
		return 0;
	report_format_bytes(a, sizeof(a), need);
	report_format_bytes(b, sizeof(b), t->mem_available_bytes);
	return usage_fail(err, errlen, "--threads: %s on %u threads needs %s but only %s is available "
		    "(expected fewer --threads; MemAvailable in /proc/meminfo)", who, threads, a, b);
}

int registry_plan(struct section_run *s, char *err, size_t errlen)
{
	bool threaded = false;
	int rc;

	for (size_t i = 0; i < registry_count; i++)
		threaded |= registry[i]->threaded && registry_runs(s->o->command, registry[i]);
	if (threaded) {
		char why[CLI_ERR_LEN];

		if (team_resolve_threads(s->o->threads, &s->plan->threads, why, sizeof(why)))
			return usage_fail(err, errlen, "%s (expected 1..%d)", why, team_allowed_cpus(NULL, 0));
		if (check_threaded_memory(s, err, errlen))
			return 2;
	}
	for (size_t i = 0; i < registry_count; i++)
		if (registry[i]->plan && registry_runs(s->o->command, registry[i]) &&
		    (rc = registry[i]->plan(s, err, errlen)))
			return rc;
	return 0;
}

const struct view *const *registry_views(void)
{
	/* Built on first use: a member of another const object is no constant
	 * expression in C, so the list cannot be a static initialiser. */
	static const struct view *views[REPORT_MAX_SECTIONS + 1];
	static bool built;
	size_t n = 0;

	if (!built) {
		for (size_t i = 0; i < registry_count && n < REPORT_MAX_SECTIONS; i++)
			if (registry[i]->view)
				views[n++] = registry[i]->view;
		built = true;
	}
	return views;
}

void registry_free_results(struct report *r)
{
	for (size_t i = 0; i < registry_count && i < REPORT_MAX_SECTIONS; i++) {
		if (!r->results[i])
			continue;
		if (registry[i]->free)
			registry[i]->free(r->results[i]);
		free(r->results[i]);
		r->results[i] = NULL;
	}
}

int registry_write_csv(const char *dir, const struct jsonr_value *doc)
{
	int rc = atomic_dir_begin(dir);

	if (rc)
		return rc;
	for (size_t i = 0; i < registry_count && !rc; i++)
		if (registry[i]->write_csv)
			rc = registry[i]->write_csv(dir, doc);
	return atomic_dir_end(rc);
}
