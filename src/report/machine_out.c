/*
 * The machine section, as text and JSON. Sources stay tagged on every cache
 * line because the report later compares measured levels with these claims,
 * and a reader must see which claim came from where. The PMU's meaning is
 * printed in words: "no PMU" means misses were never counted, and every later
 * figure is bounded by timing.
 */
#include "report/machine_out.h"
#include "report/csv.h"
#include "report/machine_keys.h"

#include "util/format.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field core_type_fields[] = {
	JSONW_FIELD(TEXT, "cpus", struct coretype_group, cpus),
	JSONW_FIELD(TEXT, "type", struct coretype_group, type),
	JSONW_FIELD(STRING, "source", struct coretype_group, source),
};

static const struct jsonw_field machine_cpu_fields[] = {
	JSONW_FIELD(TEXT, "vendor", struct machine_info, cpu.vendor),
	JSONW_FIELD(UINT, "family", struct machine_info, cpu.family),
	JSONW_FIELD(UINT, "model", struct machine_info, cpu.model),
	JSONW_FIELD(UINT, "stepping", struct machine_info, cpu.stepping),
};

#define LABEL "  %-15s"

static void write_core_types_text(const struct machine_info *m, FILE *f)
{
	const char *pinned = coretype_of_cpu(&m->core_types, m->pinned_cpu);
	char types[512];

	coretype_describe(&m->core_types, types, sizeof(types));
	fprintf(f, LABEL "%s\n", "core types", types);
	if (pinned)
		fprintf(f, LABEL "CPU %d: %s\n", "pinned core", m->pinned_cpu, pinned);
	if (m->allowed_core_types < 2)
		return;
	fprintf(f, LABEL "CPUs of %d kinds are allowed: figures depend on which core ran them (", "! warning",
		m->allowed_core_types);
	if (pinned)
		fprintf(f, "single-core sections ran on CPU %d, %s; ", m->pinned_cpu, pinned);
	else
		fprintf(f, "not pinned: the scheduler chose; ");
	fprintf(f, "threads of multi-core sections mix kinds)\n");
}

static void write_caches_text(const struct machine_info *m, FILE *f)
{
	for (int i = 0; i < m->ncaches; i++) {
		const struct cache_desc *c = &m->caches[i].desc;
		char size[32], ways[24] = "", line[32] = "";

		if (c->size_bytes)
			report_format_bytes(size, sizeof(size), c->size_bytes);
		else
			snprintf(size, sizeof(size), "size unstated");
		if (c->ways)
			snprintf(ways, sizeof(ways), ", %d-way", c->ways);
		if (c->line_bytes)
			snprintf(line, sizeof(line), ", %zu B line", c->line_bytes);
		fprintf(f, LABEL "L%d %-11s %s%s%s (%s)\n", i ? "" : "caches", c->level, c->type, size, ways, line,
			m->caches[i].source);
	}
	if (!m->ncaches)
		fprintf(f, LABEL "none reported\n", "caches");
	for (int i = 0; i < m->ndisagreements; i++)
		fprintf(f, LABEL "%s\n", i ? "" : "sources differ", m->cache_disagreements[i]);
}

static void write_pages_text(const struct machine_info *m, FILE *f)
{
	char size[32];

	report_format_bytes(size, sizeof(size), m->base_page_bytes);
	fprintf(f, LABEL "%s base", "pages", size);
	if (m->thp_pmd_bytes) {
		report_format_bytes(size, sizeof(size), m->thp_pmd_bytes);
		fprintf(f, ", %s transparent huge", size);
	}
	fputc('\n', f);
	for (int i = 0; i < m->nhugepage_sizes; i++) {
		const struct machine_hugepage *h = &m->hugepages[i];

		report_format_bytes(size, sizeof(size), h->size_bytes);
		if (h->nr_pages >= 0 && h->free_pages >= 0)
			fprintf(f, LABEL "%s: %ld free of %ld reserved\n", i ? "" : "hugetlb", size, h->free_pages,
				h->nr_pages);
		else
			fprintf(f, LABEL "%s: pool unreadable\n", i ? "" : "hugetlb", size);
	}
	fprintf(f, LABEL "enabled %s, defrag %s\n", "thp", m->thp_enabled[0] ? m->thp_enabled : "(unreadable)",
		m->thp_defrag[0] ? m->thp_defrag : "(unreadable)");
}

/* A clock that moved between its samples, said where the samples are: the
 * latency section gives no cycle figures from it (judged by the run's
 * floor, which is not known yet here; this line uses the least tolerance). */
static void write_clock_state(const struct machine_info *m, FILE *f)
{
	struct machine_clock_state clk;

	machine_core_clock_state(m->core_clock.min_mhz, m->core_clock.max_mhz, NAN, &clk);
	if (clk.known && !clk.steady)
		fprintf(f, LABEL "NOT STEADY: the samples spread %.0f%% (%.0f-%.0f MHz), beyond %.0f%%: the clock moved "
			"while it was timed, and cycles from it name no one clock\n", "clock state", clk.spread_pct,
			m->core_clock.min_mhz, m->core_clock.max_mhz, clk.tolerance_pct);
}

static void write_pmu_text(const struct machine_info *m, FILE *f)
{
	const struct pmu_probe *p = &m->pmu;

	if (p->hardware_counters)
		fprintf(f, LABEL "hardware counters: yes", "pmu");
	else if (p->hw_errno == ENODATA)
		fprintf(f, LABEL "hardware counters: not recorded", "pmu");
	else
		fprintf(f, LABEL "hardware counters: no (%s, %s)", "pmu",
			m->pmu_errno_name ? m->pmu_errno_name : "?", strerror(p->hw_errno));
	if (p->paranoid_known)
		fprintf(f, "; perf_event_paranoid %d", p->paranoid);
	fputc('\n', f);
	if (m->pmu_rc == -ENODATA)
		fprintf(f, LABEL "not recorded\n", "rdpmc");
	else if (m->pmu_rc)
		fprintf(f, LABEL "not probed (%s)\n", "rdpmc", strerror(-m->pmu_rc));
	else if (!p->rdpmc_tested)
		fprintf(f, LABEL "no user-space counter read on this ISA\n", "rdpmc");
	else if (p->rdpmc_child_signal)
		fprintf(f, LABEL "faults: the probing child died of %s\n", "rdpmc",
			machine_signal_name(p->rdpmc_child_signal));
	else
		fprintf(f, LABEL "%s (child exit status %d)\n", "rdpmc", p->rdpmc_works ? "works" : "failed",
			p->rdpmc_child_status);
	fprintf(f, LABEL "%s\n", "meaning", m->pmu_meaning);
}

void machine_write_text(const void *result, FILE *f)
{
	const struct machine_info *m = result;

	fprintf(f, "\nmachine: what this machine permits (claims from the OS and CPU; core clock timed)\n");
	if (strcmp(m->facts_from, "this machine"))
		fprintf(f, LABEL "%s (not this machine: a replay)\n", "facts from", m->facts_from);
	fprintf(f, LABEL "%s\n", "cpu", m->topo.cpu_model);
	if (m->cpu_id_known) {
		fprintf(f, LABEL "%s family %u model %u stepping %u\n", "identity",
			m->cpu.vendor[0] ? m->cpu.vendor : "(no vendor string)", m->cpu.family, m->cpu.model,
			m->cpu.stepping);
		fprintf(f, LABEL, "features");
		for (int i = 0; i < m->cpu.nfeatures; i++)
			fprintf(f, "%s%s", i ? " " : "", m->cpu.features[i]);
		fprintf(f, "%s\n", m->cpu.nfeatures ? "" : "(none of those we look for)");
	}
	if (m->pinned_cpu >= 0)
		fprintf(f, LABEL "%d online, pinned to CPU %d\n", "cpus", m->topo.online_cpus, m->pinned_cpu);
	else
		fprintf(f, LABEL "%d online, not pinned (allowed %s)\n", "cpus", m->topo.online_cpus,
			m->topo.affinity);
	write_core_types_text(m, f);
	write_caches_text(m, f);
	write_pages_text(m, f);
	fprintf(f, LABEL "%s, %.4f ticks/ns, %s, step %.1f ns\n", "timer", m->timer_source ? m->timer_source : "?",
		m->ticks_per_ns, m->timer_invariant ? "invariant" : "NOT invariant", m->timer_resolution_ns);
	if (m->core_clock_rc == 0 && m->core_clock.nsamples > 0) {
		fprintf(f, LABEL "%.0f-%.0f MHz over %d samples of %.0f ms (%s)\n", "core clock",
			m->core_clock.min_mhz, m->core_clock.max_mhz, m->core_clock.nsamples, m->core_clock.sample_ms,
			strcmp(m->facts_from, "this machine") ? "the recorded host's, replayed"
							      : "dependent adds timed; not /proc/cpuinfo");
		fprintf(f, LABEL, "samples MHz");
		for (int i = 0; i < m->core_clock.nsamples; i++)
			fprintf(f, "%s%.0f", i ? " " : "", m->core_clock.samples_mhz[i]);
		fputc('\n', f);
		write_clock_state(m, f);
	} else {
		fprintf(f, LABEL "not estimated (%s)\n", "core clock",
			m->core_clock_rc == -ENODATA ? "the recorded host holds no samples" : strerror(-m->core_clock_rc));
	}
	write_pmu_text(m, f);
}

static void cache_members(struct jsonw *w, const void *e)
{
	const struct machine_cache *mc = e;
	const struct cache_desc *c = &mc->desc;

	jsonw_int(w, MACHINE_CACHE_KEY_LEVEL, c->level);
	jsonw_string(w, MACHINE_CACHE_KEY_TYPE, c->type);
	/* 0 means "this source does not state it" (CTR_EL0 gives lines only). */
	jsonw_uint_or_null(w, MACHINE_CACHE_KEY_SIZE_BYTES, c->size_bytes, c->size_bytes);
	jsonw_uint_or_null(w, MACHINE_CACHE_KEY_LINE_BYTES, c->line_bytes, c->line_bytes);
	jsonw_int_or_null(w, MACHINE_CACHE_KEY_WAYS, c->ways, c->ways);
	jsonw_string(w, MACHINE_CACHE_KEY_SOURCE, mc->source);
}

/* A hugetlb pool: a count the kernel did not give (-1) is null. */
static void hugetlb_members(struct jsonw *w, const void *e)
{
	const struct machine_hugepage *h = e;

	jsonw_uint(w, "size_bytes", h->size_bytes);
	jsonw_int_or_null(w, "pages_reserved", h->nr_pages >= 0, h->nr_pages);
	jsonw_int_or_null(w, "pages_free", h->free_pages >= 0, h->free_pages);
}

static void write_core_types_json(struct jsonw *w, const struct machine_info *m)
{
	const struct coretype_map *t = &m->core_types;
	const char *pinned = coretype_of_cpu(t, m->pinned_cpu);

	JSONW_OBJECT_ARRAY(w, "core_types", t->types, (size_t)t->ntypes, core_type_fields);
	jsonw_int(w, "core_type_count", t->ntypes);
	jsonw_string_or_null(w, "pinned_core_type", pinned, pinned);
	jsonw_int(w, "allowed_core_type_count", m->allowed_core_types);
}

static void write_pmu_json(struct jsonw *w, const struct machine_info *m)
{
	const struct pmu_probe *p = &m->pmu;

	jsonw_object_begin(w, "pmu");
	jsonw_bool(w, "hardware_counters", p->hardware_counters);
	jsonw_int(w, "errno", p->hw_errno);
	jsonw_string_or_null(w, "errno_name", m->pmu_errno_name, m->pmu_errno_name);
	jsonw_int_or_null(w, "paranoid", p->paranoid_known, p->paranoid);
	/* null when no child ran: "0" must mean "ran and exited cleanly". */
	jsonw_int_or_null(w, "rdpmc_child_signal", m->pmu_rc == 0 && p->rdpmc_tested, p->rdpmc_child_signal);
	jsonw_bool(w, "rdpmc_tested", m->pmu_rc == 0 && p->rdpmc_tested);
	jsonw_bool(w, "rdpmc_works", p->rdpmc_works);
	jsonw_bool(w, "rdpmc_with_mmap", p->rdpmc_with_mmap);
	jsonw_object_end(w);
}

void machine_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct machine_info *m = result;

	jsonw_object_begin(w, key);
	jsonw_string(w, "facts_from", m->facts_from);
	jsonw_string(w, "cpu_model", m->topo.cpu_model);
	if (m->cpu_id_known) {
		JSONW_FIELDS(w, m, machine_cpu_fields);
		jsonw_array_begin(w, "features");
		for (int i = 0; i < m->cpu.nfeatures; i++)
			jsonw_string(w, NULL, m->cpu.features[i]);
		jsonw_array_end(w);
	}
	jsonw_int(w, "online_cpus", m->topo.online_cpus);
	jsonw_int_or_null(w, "pinned_cpu", m->pinned_cpu >= 0, m->pinned_cpu);
	write_core_types_json(w, m);

	JSONW_OBJECT_ARRAY_EACH(w, MACHINE_KEY_CACHES_REPORTED, m->caches, (size_t)m->ncaches, cache_members);
	jsonw_array_begin(w, "cache_disagreements");
	for (int i = 0; i < m->ndisagreements; i++)
		jsonw_string(w, NULL, m->cache_disagreements[i]);
	jsonw_array_end(w);

	jsonw_uint(w, "page_size_bytes", m->base_page_bytes);
	JSONW_OBJECT_ARRAY_EACH(w, "hugetlb", m->hugepages, (size_t)m->nhugepage_sizes, hugetlb_members);
	jsonw_object_begin(w, "thp");
	jsonw_string_or_null(w, "enabled", m->thp_enabled[0], m->thp_enabled);
	jsonw_string_or_null(w, "defrag", m->thp_defrag[0], m->thp_defrag);
	jsonw_uint_or_null(w, "page_size_bytes", m->thp_pmd_bytes, m->thp_pmd_bytes);
	jsonw_object_end(w);

	jsonw_object_begin(w, "timer");
	jsonw_string(w, "source", m->timer_source ? m->timer_source : "unknown");
	jsonw_bool(w, "invariant", m->timer_invariant);
	jsonw_double(w, "ticks_per_ns", m->ticks_per_ns);
	jsonw_double(w, "resolution_ns", m->timer_resolution_ns);
	jsonw_object_end(w);

	jsonw_object_begin(w, "core_clock_mhz");
	if (m->core_clock_rc == 0 && m->core_clock.nsamples > 0) {
		jsonw_double(w, "min", m->core_clock.min_mhz);
		jsonw_double(w, "max", m->core_clock.max_mhz);
	} else {
		jsonw_null(w, "min");
		jsonw_null(w, "max");
	}
	jsonw_double_array(w, "samples", m->core_clock.samples_mhz, m->core_clock.nsamples);
	jsonw_double(w, "sample_ms", m->core_clock.sample_ms);
	jsonw_string(w, "method", strcmp(m->facts_from, "this machine")
					  ? "replayed: the samples the recorded host holds"
					  : "dependent register adds (1 cycle each) timed against the timer");
	jsonw_object_end(w);

	write_pmu_json(w, m);
	jsonw_string(w, "pmu_meaning", m->pmu_meaning);
	jsonw_object_end(w);
}

static const struct csv_col cache_cols[] = {
	{ "level", MACHINE_CACHE_KEY_LEVEL }, { "type", MACHINE_CACHE_KEY_TYPE },
	{ "size_bytes", MACHINE_CACHE_KEY_SIZE_BYTES }, { "line_bytes", MACHINE_CACHE_KEY_LINE_BYTES },
	{ "ways", MACHINE_CACHE_KEY_WAYS }, { "source", MACHINE_CACHE_KEY_SOURCE },
};

int machine_write_csv(const char *dir, const struct jsonr_value *doc)
{
	return csv_write_rows(dir, "caches_reported", jsonr_get(doc, "machine." MACHINE_KEY_CACHES_REPORTED), cache_cols,
			      CSV_NCOLS(cache_cols));
}
