/*
 * The headline summary read from checked-in results (tests/data): every
 * figure names a key that holds its value, sections a document lacks are
 * "not run", the text block stays short, and the HTML table links each
 * figure to an anchor the page has. Built from JSON only: no measuring.
 */
#include "../harness.h"

#include "exp/window.h"
#include "jit/probe.h"
#include "util/jsonr.h"
#include "util/jsonw.h"
#include "report/window_out.h"
#include "report/html.h"
#include "frame/registry.h"
#include "report/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int load_doc(struct jsonr_doc *doc, const char *rel)
{
	char path[4096], err[256];

	snprintf(path, sizeof(path), "%s/../%s", test_bin_dir(), rel);
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "%s", rel);
	return jsonr_parse_file(path, 0, doc, err, sizeof(err));
}

static bool absent(const struct summary *s, const char *section)
{
	for (size_t i = 0; i < s->nabsent; i++)
		if (!strcmp(s->absent[i].section, section))
			return true;
	return false;
}

TEST(summary_figures_come_from_the_keys_they_name)
{
	static struct summary s;
	struct jsonr_doc doc;
	const struct summary_figure *g;
	size_t plain = 0;

	CHECK(load_doc(&doc, "tests/data/report_a.json") == 0, "fixture");
	summary_build(registry_views(), doc.root, &s);
	/* Every figure whose key is a plain path reads back as its value. */
	for (size_t i = 0; i < s.n; i++) {
		double v;

		CHECK(s.fig[i].from[0], "%s names no key", s.fig[i].name);
		if (strchr(s.fig[i].from, ' ') || !strcmp(s.fig[i].from, "warnings"))
			continue;
		CHECK(jsonr_get_number(doc.root, s.fig[i].from, &v), "%s: '%s' is not a number in the document",
		      s.fig[i].name, s.fig[i].from);
		CHECK(v == s.fig[i].value, "%s: %g in the summary, %g at %s", s.fig[i].name, s.fig[i].value, v,
		      s.fig[i].from);
		plain++;
	}
	CHECK(plain >= 8, "only %zu figures with a plain key", plain);
	/* The OS's L1 has a plateau here; its L3 has none, so a chase point stands in and says so. */
	CHECK((g = summary_find(&s, "l1_latency_ns")) && !strcmp(g->from, "latency.levels_detected[0].latency_ns"),
	      "L1 not from the first level");
	CHECK((g = summary_find(&s, "l3_latency_ns")) && strstr(g->from, "latency.points[") &&
	      strstr(g->note, "no plateau"), "L3 without a plateau not labelled");
	CHECK(summary_find(&s, "l1_latency_cycles"), "no cycles");
	CHECK((g = summary_find(&s, "mlp_saturation_lanes")) && isfinite(g->uncertainty), "Ks without its +/-");
	CHECK(summary_find(&s, "read_gbps_1_thread") && summary_find(&s, "read_gbps_all_threads"), "read bandwidth");
	CHECK(summary_find(&s, "memory_latency_ns") && summary_find(&s, "translation_ns") &&
	      summary_find(&s, "prefetch_ratio") && summary_find(&s, "noise_floor_pct"), "a headline figure is missing");
	CHECK((g = summary_find(&s, "warnings_count")) && g->value == (double)jsonr_get_count(doc.root, "warnings"),
	      "warnings count");
	CHECK(absent(&s, "window") && !absent(&s, "latency"), "window did not run there, latency did");
	jsonr_free(&doc);
}

/* The window section's JSON as its writer makes it (window.summary is an
 * object keyed by structure), from a synthetic result: a ROB of 317.5
 * entries from mov and a store queue of 64.5 from store. */
static char *window_doc_from_writer(void)
{
	static struct window_result r;
	const struct {
		enum probe_filler f;
		double lo, hi;
	} rows[] = {{PROBE_FILLER_MOV, 317, 318}, {PROBE_FILLER_STORE, 64, 65}};
	struct jsonw w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(&r, 0, sizeof(r));
	r.isa = "x86_64";
	for (unsigned i = 0; i < 2; i++) {
		struct window_filler_result *fr = &r.fillers[r.nfillers++];

		fr->filler = rows[i].f;
		fr->name = probe_filler_info(rows[i].f)->name;
		fr->structure = probe_filler_info(rows[i].f)->structure;
		fr->step_found = true;
		fr->capacity_low = fr->whole_capacity_low = rows[i].lo;
		fr->capacity_high = fr->whole_capacity_high = rows[i].hi;
		fr->capacity = fr->whole_capacity = (rows[i].lo + rows[i].hi) / 2;
	}
	window_summarise(&r);
	if (!(f = open_memstream(&buf, &len)))
		return NULL;
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	window_write_json(&r, &w, "window");
	jsonw_array_begin(&w, "warnings");
	jsonw_string(&w, NULL, "w");
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	fclose(f);
	return buf;
}

TEST(summary_window_rows_and_not_run_sections)
{
	static struct summary s;
	struct jsonr_doc doc;
	const struct summary_figure *g;
	char *text = window_doc_from_writer(), *buf = NULL, err[128];
	size_t len = 0, nl = 0;
	FILE *f;
	double v;

	CHECK(text, "writing the window JSON");
	CHECK(jsonr_parse(text, strlen(text), 0, &doc, err, sizeof(err)) == 0, "%s", err);
	free(text);
	summary_build(registry_views(), doc.root, &s);
	CHECK((g = summary_find(&s, "window_reorder_buffer_entries")) && g->value == 317.5 &&
	      !strcmp(g->from, "window.summary.reorder_buffer.capacity"), "window figure from window.summary");
	CHECK(jsonr_get_number(doc.root, g->from, &v) && v == g->value, "%s does not read back", g->from);
	CHECK(summary_find(&s, "window_store_queue_entries"), "second structure");
	CHECK(absent(&s, "latency") && absent(&s, "mlp") && absent(&s, "tlb") && absent(&s, "c2c") &&
	      !absent(&s, "window"), "sections this document lacks must be listed as not run, and only those");
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	summary_write_text(&s, f);
	fclose(f);
	for (char *p = buf; *p; p++)
		nl += *p == '\n';
	CHECK(strstr(buf, "not run (mlpscope latency)") && strstr(buf, "reorder buffer 317.5"), "text: %s", buf);
	CHECK(nl <= 22, "the summary is %zu lines: it must fit the top of the report", nl);
	free(buf);
	jsonr_free(&doc);
}

TEST(summary_html_links_to_anchors_the_page_has)
{
	struct jsonr_doc doc;
	const struct jsonr_value *root[1];
	const char *label[1] = { "a" };
	char *buf = NULL, *p, *sum;
	size_t len = 0, links = 0;
	FILE *f;

	CHECK(load_doc(&doc, "tests/data/report_a.json") == 0, "fixture");
	root[0] = doc.root;
	f = open_memstream(&buf, &len);
	CHECK(f, "memstream");
	CHECK(html_write(f, registry_views(), root, label, 1) == 0, "html_write");
	fclose(f);
	jsonr_free(&doc);
	sum = strstr(buf, "<table class=\"summary\"");
	CHECK(sum && sum < strstr(buf, "<table") + 1 && sum < strstr(buf, "<svg"), "the summary is not the first table");
	for (p = sum; (p = strstr(p, "<a href=\"#")) && p < strstr(sum, "</table>"); p++) {
		char id[64], want[80];
		size_t n = strcspn(p + 10, "\"");

		snprintf(id, sizeof(id), "%.*s", (int)(n < 63 ? n : 63), p + 10);
		snprintf(want, sizeof(want), "id=\"%s\"", id);
		CHECK(strstr(buf, want), "summary links to #%s, which the page lacks", id);
		links++;
	}
	CHECK(links >= 8, "only %zu links", links);
	free(buf);
}

/* A plateau matched to the OS's L3 by rank only (it ends at 12 MiB, the OS
 * says 32 MiB) stands for L3 when it starts past L2, and says so; one that
 * starts inside L2 is the L2's tail, and the chase stands in instead. */
TEST(summary_level_matched_by_rank_is_used_only_past_the_level_below)
{
	static const char fmt[] =
		"{\"machine\":{\"caches_reported\":[{\"level\":1,\"type\":\"Data\",\"size_bytes\":32768},"
		"{\"level\":2,\"type\":\"Unified\",\"size_bytes\":1048576},{\"level\":3,\"type\":\"Unified\",\"size_bytes\":33554432}]},"
		"\"latency\":{\"levels_detected\":[{\"level\":3,\"first_bytes\":%d,\"size_bytes\":12582912,\"latency_ns\":27.6,"
		"\"reported_bytes\":33554432,\"disagrees_with_reported\":true}],"
		"\"points\":[{\"size_bytes\":4194304,\"pages\":\"huge\",\"chase_ns\":18.3}]},\"warnings\":[]}";
	static struct summary s;
	struct jsonr_doc doc;
	const struct summary_figure *g;
	char text[1024], err[128];

	snprintf(text, sizeof(text), fmt, 2097152);
	CHECK(jsonr_parse(text, strlen(text), 0, &doc, err, sizeof(err)) == 0, "%s", err);
	summary_build(registry_views(), doc.root, &s);
	jsonr_free(&doc);
	CHECK((g = summary_find(&s, "l3_latency_ns")) && g->value == 27.6 && strstr(g->note, "the OS says 32 MiB") &&
	      !strcmp(g->from, "latency.levels_detected[0].latency_ns"), "by-rank plateau past L2 not used: %s",
	      g ? g->note : "none");
	snprintf(text, sizeof(text), fmt, 524288);
	CHECK(jsonr_parse(text, strlen(text), 0, &doc, err, sizeof(err)) == 0, "%s", err);
	summary_build(registry_views(), doc.root, &s);
	jsonr_free(&doc);
	CHECK((g = summary_find(&s, "l3_latency_ns")) && g->value == 18.3 && strstr(g->note, "no plateau"),
	      "a plateau starting inside L2 stood for L3: %s", g ? g->note : "none");
}

/* The summary's memory latency figure built from one result document's
 * text (s holds it; NULL when the document does not parse or has none). */
static const struct summary_figure *memory_latency_of(const char *json, struct summary *s)
{
	char err[256];
	struct jsonr_doc doc;

	if (jsonr_parse(json, strlen(json), 0, &doc, err, sizeof(err)))
		return NULL;
	summary_build(registry_views(), doc.root, s);
	jsonr_free(&doc);
	return summary_find(s, "memory_latency_ns");
}

/* latency's own steady-state verdict reaches the headline: a memory figure
 * whose regions read slower than their 4x-longer ones says so. */
#define STEADY_DOC(ok)                                                                                  \
	"{\"tool\":\"mlpscope\",\"schema_version\":1,\"latency\":{\"max_bytes\":1073741824,"                \
	"\"chase_ns_at_max\":176.8,\"points\":[{\"size_bytes\":1073741824,\"pages\":\"huge\","            \
	"\"chase_ns\":176.8,\"steady_long_ns\":156.5,\"steady_ok\":" ok "}]}}"

TEST(summary_memory_latency_carries_latency_s_steady_verdict)
{
	static struct summary s;
	const char *docs[2] = {STEADY_DOC("true"), STEADY_DOC("false")};

	for (int k = 0; k < 2; k++) {
		const struct summary_figure *g = memory_latency_of(docs[k], &s);

		CHECK(g && g->value == 176.8, "memory latency missing");
		if (g && k == 0)
			CHECK(!strstr(g->note, "NOT STEADY"), "a steady point flagged: %s", g->note);
		else if (g)
			CHECK(strstr(g->note, "NOT STEADY: 156.5 ns"), "an unsteady point not flagged: %s", g->note);
	}
}

/* The memory latency says which estimator it is (the minimum over short
 * regions) and shows a whole walk's figure beside it (issue 31); a run
 * without the whole walk (--quick) adds nothing, and the note still fits
 * the NOT STEADY flag after it. */
TEST(summary_memory_latency_names_its_estimator_and_the_whole_walk)
{
	static struct summary s;
	static const char with[] =
		"{\"tool\":\"mlpscope\",\"schema_version\":1,\"latency\":{\"max_bytes\":268435456,"
		"\"chase_ns_at_max\":176.1,\"region_loads\":65536,\"whole_walk_ns_at_max\":218.4,"
		"\"whole_walk_loads\":4194304,\"points\":[{\"size_bytes\":268435456,\"pages\":\"huge\","
		"\"chase_ns\":176.1,\"steady_long_ns\":150.0,\"steady_ok\":false}]}}";
	static const char without[] =
		"{\"tool\":\"mlpscope\",\"schema_version\":1,\"latency\":{\"max_bytes\":268435456,"
		"\"chase_ns_at_max\":176.1,\"region_loads\":65536,\"whole_walk_ns_at_max\":null,"
		"\"whole_walk_loads\":0}}";
	const char *docs[2] = {with, without};

	for (int k = 0; k < 2; k++) {
		const struct summary_figure *g = memory_latency_of(docs[k], &s);

		CHECK(g && g->value == 176.1, "memory latency missing");
		if (g && k == 0)
			CHECK(strstr(g->note, "min over 65536-load regions; whole walks 218.4 ns") &&
				      strstr(g->note, "NOT STEADY: 150.0 ns"), "note: %s", g->note);
		if (g && k == 1)
			CHECK(!strstr(g->note, "whole walks") && !strstr(g->note, "regions"), "note: %s", g->note);
	}
}

/* With no plateau for the L3, the summary's chase half-way into it never
 * reads a point where the curve already reached memory (the Intel guest's
 * report put a 22.6 MiB memory point on its L3 line). */
TEST(summary_l3_without_a_plateau_never_reads_a_point_past_memory_s_start)
{
	static const char text[] =
		"{\"machine\":{\"caches_reported\":[{\"level\":1,\"type\":\"Data\",\"size_bytes\":49152},"
		"{\"level\":2,\"type\":\"Unified\",\"size_bytes\":2097152},{\"level\":3,\"type\":\"Unified\",\"size_bytes\":272629760}]},"
		"\"latency\":{\"levels_detected\":[{\"level\":3,\"first_bytes\":19951552,\"size_bytes\":1073741824,"
		"\"latency_ns\":131.0,\"reported_bytes\":0,\"reaches_max\":true}],"
		"\"points\":[{\"size_bytes\":8388608,\"pages\":\"huge\",\"chase_ns\":36.2},"
		"{\"size_bytes\":23726592,\"pages\":\"huge\",\"chase_ns\":132.2}]},\"warnings\":[]}";
	static struct summary s;
	struct jsonr_doc doc;
	const struct summary_figure *g;
	char err[128];

	CHECK(jsonr_parse(text, strlen(text), 0, &doc, err, sizeof(err)) == 0, "%s", err);
	summary_build(registry_views(), doc.root, &s);
	jsonr_free(&doc);
	CHECK((g = summary_find(&s, "l3_latency_ns")) && g->value == 36.2, "L3 line: %s %g",
	      g ? g->note : "none", g ? g->value : NAN);
}

/* A TLB figure's name says its page size and counts levels within it, so
 * the same name is the same quantity in every result of a fleet: the
 * Zen 4 recording found two steps on each page size. */
TEST(summary_tlb_levels_are_named_per_page_size)
{
	static struct summary s;
	struct jsonr_doc doc;
	const struct summary_figure *g;
	unsigned tlb = 0;

	CHECK(load_doc(&doc, "tests/data/cpus/amd-epyc-f25-m17/report.json") == 0, "fixture");
	summary_build(registry_views(), doc.root, &s);
	for (size_t i = 0; i < s.n; i++) {
		char pages[8];
		unsigned level;

		if (sscanf(s.fig[i].name, "tlb_%7[a-z]_level%u_entries", pages, &level) != 2)
			continue;
		tlb++;
		CHECK(!strcmp(pages, "huge") == !!strstr(s.fig[i].line, "huge"), "%s shown on the row '%s'",
		      s.fig[i].name, s.fig[i].line);
	}
	CHECK(tlb >= 2, "only %u TLB levels named", tlb);
	CHECK((g = summary_find(&s, "tlb_huge_level1_entries")) && strstr(g->line, "huge"), "no first huge-page level");
	CHECK((g = summary_find(&s, "tlb_small_level1_entries")) && !strstr(g->line, "huge"),
	      "no first small-page level");
	jsonr_free(&doc);
}

/* A guest whose OS reports no caches still gets its cache latencies in the
 * summary: the curve's own plateaus, a TLB step and memory left out. */
TEST(summary_levels_from_the_curve_where_the_os_reports_no_caches)
{
	static struct summary s;
	struct jsonr_doc doc;
	const struct summary_figure *g;

	CHECK(load_doc(&doc, "tests/data/cpus/amd-epyc-f26-m2/report.json") == 0, "fixture");
	CHECK(!jsonr_get(doc.root, "machine.caches_reported") ||
	      jsonr_get(doc.root, "machine.caches_reported")->u.children.count == 0, "the fixture reports caches");
	summary_build(registry_views(), doc.root, &s);
	CHECK((g = summary_find(&s, "l1_latency_ns")) && g->value > 0.5 && g->value < 2 && strstr(g->note, "no cache"),
	      "no L1 from the curve");
	CHECK((g = summary_find(&s, "l2_latency_ns")) && g->value > summary_find(&s, "l1_latency_ns")->value,
	      "no L2 above the L1");
	CHECK(!summary_find(&s, "l4_latency_ns") || summary_find(&s, "l4_latency_ns")->value <
	      summary_find(&s, "memory_latency_ns")->value, "memory counted as a cache level");
	jsonr_free(&doc);
}
