/*
 * Defaults and validation that depend on the machine. The default working
 * set is the memory set of policy.h (8x the largest reported cache, a power
 * of two of at least 256 MiB, no upper cap), and never more than a third
 * of MemAvailable (latency holds two arenas of it at once). The budget
 * (budget.c) shrinks it once the rates are measured, to its floor (twice
 * the cache) and under it only saying the largest set may be cached.
 */
#include "frame/plan.h"

#include "exp/policy.h"
#include "util/format.h"
#include "util/usage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fastest access any sweep point can plausibly reach (an L1 hit at 4+ GHz
 * overlapped many ways); used only to size timed regions. */
#define FASTEST_ACCESS_NS 0.2

size_t plan_peak_bytes(size_t working_set_bytes, size_t spacing_bytes)
{
	size_t nodes = working_set_bytes / spacing_bytes;

	/* arena (+2 MiB rounding) + cycle order (4 B/node) + check bitmaps */
	return working_set_bytes + ARENA_HUGE_BYTES + nodes * 4 + nodes / 8 + working_set_bytes / 512;
}

static size_t default_working_set(const struct topo *t, struct report *r)
{
	size_t want = policy_memory_set_bytes(topo_largest_cache_bytes(t)), cap = t->mem_available_bytes / 3, ws;
	char a[32], b[32];

	ws = want;
	if (cap && ws > cap) {
		ws = ARENA_HUGE_BYTES;
		while (ws * 2 <= cap)
			ws *= 2;
		report_format_bytes(a, sizeof(a), want);
		report_format_bytes(b, sizeof(b), ws);
		result_warn(r, "default working set reduced from %s to %s to fit a third of available memory%s", a, b,
			    ws < policy_memory_set_floor_bytes(topo_largest_cache_bytes(t))
				    ? ": UNDER TWICE THE LARGEST CACHE, the largest set may be cache-resident" : "");
	}
	return ws;
}

size_t plan_size_given(const struct options *o)
{
	const struct option_given *g = options_given(o, "size");

	return g ? (size_t)g->number : 0;
}

/* A number the command's sections declare, by name, else the plan's default. */
static unsigned long long given_or(const struct options *o, const char *name, unsigned long long deflt)
{
	const struct option_given *g = options_given(o, name);

	return g ? g->number : deflt;
}

int plan_make(const struct options *o, const struct topo *t, struct plan *p,
	      struct report *r, char *err, size_t errlen)
{
	size_t largest = topo_largest_cache_bytes(t), nodes, peak, size_bytes = plan_size_given(o);
	int pages = (int)given_or(o, "pages", PLAN_PAGES_DEFAULT);
	char a[32], b[32];

	p->spacing_bytes = given_or(o, "spacing", PLAN_SPACING_DEFAULT);
	p->accesses = given_or(o, "accesses", PLAN_ACCESSES_DEFAULT);
	p->working_set_bytes = size_bytes ? size_bytes : default_working_set(t, r);
	p->working_set_bytes = p->working_set_bytes / p->spacing_bytes * p->spacing_bytes;
	nodes = p->working_set_bytes / p->spacing_bytes;
	if (nodes < 2)
		return usage_fail(err, errlen, "--size: %zu B holds fewer than 2 nodes at --spacing %zu "
			    "(expected a size of at least 2x the spacing)", size_bytes, p->spacing_bytes);
	peak = plan_peak_bytes(p->working_set_bytes, p->spacing_bytes);
	if (t->mem_available_bytes && peak > t->mem_available_bytes) {
		report_format_bytes(a, sizeof(a), peak);
		report_format_bytes(b, sizeof(b), t->mem_available_bytes);
		return usage_fail(err, errlen, "--size: this working set needs %s but only %s is available "
			    "(expected a smaller size; MemAvailable in /proc/meminfo)", a, b);
	}
	if (nodes > UINT32_MAX)
		return usage_fail(err, errlen, "--size: %zu nodes at --spacing %zu is more than 2^32-1 "
			    "(expected a smaller size or a larger spacing)", nodes, p->spacing_bytes);
	if (largest && p->working_set_bytes <= largest) {
		report_format_bytes(a, sizeof(a), p->working_set_bytes);
		report_format_bytes(b, sizeof(b), largest);
		result_warn(r, "WORKING SET %s FITS IN THE %s CACHE THE OS REPORTS: this measures that cache, "
			    "not memory", a, b);
	}
	if (p->accesses > nodes)
		result_warn(r, "--accesses %zu exceeds the %zu nodes: lanes revisit lines within one region",
			    p->accesses, nodes);
	if (o->cpu >= 0 && !topo_cpu_allowed(o->cpu))
		return usage_fail(err, errlen, "--cpu: CPU %d is not available to this process (expected one of %s)",
			    o->cpu, t->affinity);
	p->cpu = o->cpu >= 0 ? o->cpu : topo_default_cpu();
	p->has_budget = false;
	p->npages = 0;
	if (pages != PAGES_CHOICE_HUGE)
		p->pages[p->npages++] = PAGES_SMALL;
	if (pages != PAGES_CHOICE_SMALL)
		p->pages[p->npages++] = PAGES_HUGE;
	return 0;
}

void plan_fit_clock(struct plan *p, const struct clock_info *c, struct report *r)
{
	size_t need = (size_t)(c->min_region_ns / FASTEST_ACCESS_NS) + 1;

	if (p->accesses < need) {
		result_warn(r, "accesses per region raised from %zu to %zu so the timer's cost stays under 1%%",
			    p->accesses, need);
		p->accesses = need;
	}
}

void plan_budget(struct plan *p, const struct options *o, struct report *r, const char *command,
		 const struct budget_row *rows, unsigned nrows)
{
	struct cost_facts f;
	char why[300];

	cost_facts_from_topo(&r->topo, &f);
	if (cost_measure_rates(&r->clock, &f, &f.rates)) {
		/* Rates unmeasurable (memory refused): price as a slow guest
		 * would, so the plan errs toward smaller work. */
		f.rates = (struct cost_rates){.touch_gbps = 1, .build_ns_per_node = 600, .dram_ns = 150,
					      .stream_gbps = 8, .from = "assumed: the measurement failed"};
		result_warn(r, "plan: the cost model's rates could not be measured; assumed a slow machine's");
	}
	/* --size fixes the working set: the budget prices it, never moves it. */
	budget_make(&p->budget, &f, command, o->quick, o->budget_s, plan_size_given(o) ? p->working_set_bytes : 0, rows,
		    nrows);
	p->has_budget = true;
	budget_memory_set_warning(&p->budget, why, sizeof(why));
	if (why[0])
		result_warn(r, "%s", why);
	/* The smaller of the plan's (MemAvailable) and the budget's set past
	 * the caches, and every section's set that follows it at most that. */
	if (!plan_size_given(o) && p->budget.memory_set_bytes < p->working_set_bytes)
		p->working_set_bytes = p->budget.memory_set_bytes / p->spacing_bytes * p->spacing_bytes;
	budget_fit(&p->budget, p->working_set_bytes);
	r->budget = &p->budget;
}
