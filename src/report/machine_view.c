/*
 * The machine section's view: what the OS and CPU claim (caches, pages,
 * counters) and the timed core clock, as HTML tables. No headline figures
 * and no plots: the summary's cache sizes come from here through the latency
 * view, which matches its plateaus to them.
 */
#include "report/machine_out.h"

#include "report/html_table.h"
#include "report/machine_keys.h"

static const struct html_col machine_rows[] = {
	{ "CPU", "cpu_model", F_TEXT }, { "vendor", "vendor", F_TEXT }, { "family", "family", F_TEXT },
	{ "model", "model", F_TEXT }, { "stepping", "stepping", F_TEXT }, { "features", "features", F_LIST },
	{ "online CPUs", "online_cpus", F_TEXT }, { "pinned CPU's core type", "pinned_core_type", F_TEXT },
	{ "core types the allowed CPUs span", "allowed_core_type_count", F_TEXT },
	{ "base page", "page_size_bytes", F_BYTES },
	{ "THP enabled", "thp.enabled", F_TEXT }, { "THP defrag", "thp.defrag", F_TEXT },
	{ "THP page", "thp.page_size_bytes", F_BYTES }, { "core clock min (MHz, timed)", "core_clock_mhz.min", 0 },
	{ "core clock max (MHz, timed)", "core_clock_mhz.max", 0 },
	{ "hardware counters", "pmu.hardware_counters", F_BOOL }, { "counters errno", "pmu.errno_name", F_TEXT },
	{ "perf_event_paranoid", "pmu.paranoid", F_TEXT }, { "user-space RDPMC works", "pmu.rdpmc_works", F_BOOL },
	{ "what this permits", "pmu_meaning", F_TEXT }, { "cache disagreements", "cache_disagreements", F_LIST },
};

static const struct html_col cache_cols[] = {
	{ "level", MACHINE_CACHE_KEY_LEVEL, F_TEXT },
	{ "type", MACHINE_CACHE_KEY_TYPE, F_TEXT },
	{ "size", MACHINE_CACHE_KEY_SIZE_BYTES, F_BYTES },
	{ "line (B)", MACHINE_CACHE_KEY_LINE_BYTES, F_TEXT },
	{ "ways", MACHINE_CACHE_KEY_WAYS, F_TEXT },
	{ "source", MACHINE_CACHE_KEY_SOURCE, F_TEXT },
};

static const struct html_col core_type_cols[] = {
	{ "CPUs", "cpus", F_TEXT }, { "core type", "type", F_TEXT }, { "source", "source", F_TEXT },
};

static const struct html_col hugetlb_cols[] = {
	{ "page size", "size_bytes", F_BYTES }, { "reserved", "pages_reserved", F_TEXT },
	{ "free", "pages_free", F_TEXT },
};

static const struct html_rows_table machine_tables[] = {
	HTML_ROWS_TABLE("core_types", core_type_cols, "core types (each CPU's kind, as the host states it)"),
	HTML_ROWS_TABLE(MACHINE_KEY_CACHES_REPORTED, cache_cols, "caches as reported"),
	HTML_ROWS_TABLE("hugetlb", hugetlb_cols, "hugetlb pools"),
};

const struct view view_machine = {
	.section = "machine",
	VIEW_HTML_SECTION("Machine: what it permits (OS and CPU claims; core clock timed)", machine_rows, machine_tables),
	.cpu_model_key = "cpu_model",
};
