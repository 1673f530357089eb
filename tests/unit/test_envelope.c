/*
 * The model's envelope on synthetic inputs: each term binds in turn, the
 * margin to the next is binding / next - 1, terms within the floor are named
 * together; B comes from the bandwidth section, never from the sweep it
 * explains; the loaded latency follows a synthetic delay curve and Little's
 * law; the instruction counts of the compiled kernels are plausible; the
 * L1-resident core timing runs. Values are exact; only the last is measured.
 */
#include "../harness.h"

#include "analyse/envelope.h"
#include "sections/model.h"
#include "exp/mlp_core.h"
#include "exp/mlp_levels.h"
#include "core/topo.h"
#include "kern/lanes_count.h"
#include "kern/payload.h"
#include "util/jsonr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One point at K, L = 100 ns, every term unknown but L/K. */
static void one_point(struct env_inputs *in, double k, double measured_ns)
{
	memset(in, 0, sizeof(*in));
	snprintf(in->section, sizeof(in->section), "mlp");
	in->line_bytes = 64;
	in->noise_floor_frac = 0.02;
	in->t1.value = 100;
	in->npoints = 1;
	in->lanes[0] = k;
	in->measured_ns[0] = measured_ns;
	in->insns_per_access[0] = 2;
	in->loads_per_access[0] = 1.5;
}

/* The verdict is wrapped for the terminal: collapse every run of blanks
 * and newlines to one space so a phrase reads whole wherever it broke. */
static void unwrap(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (*r == ' ' || *r == '\n') {
			if (w > s && w[-1] == ' ')
				continue;
			*w++ = ' ';
		} else {
			*w++ = *r;
		}
	}
	*w = 0;
}

TEST(envelope_each_term_binds_in_turn)
{
	struct env_inputs in;
	struct env_point p;
	static const struct {
		enum env_term term;
		double ns;
	} want[] = {
		{ENV_LATENCY, 25}, {ENV_ISSUE, 40}, {ENV_CORE, 30}, {ENV_BW_CORE, 32}, {ENV_BW_MEMORY, 64},
		{ENV_LOAD_QUEUE, 50}, {ENV_ROB, 40},
	};

	for (size_t c = 0; c < sizeof(want) / sizeof(want[0]); c++) {
		one_point(&in, 4, 60);           /* L/K = 25 ns */
		/* every other term small (1 ns), the one under test large */
		in.issue.value = 2.0;            /* u/P = 2/2 = 1 */
		in.core_ns[0] = 1;
		in.read_core.value = 64;         /* 64 B / 64 GB/s = 1 */
		in.read_memory.value = 64;
		in.load_queue.value = 150;       /* 100 x 1.5 / 150 = 1 */
		in.rob.value = 200;              /* 100 x 2 / 200 = 1 */
		switch (want[c].term) {
		case ENV_LATENCY:
			break;
		case ENV_ISSUE:
			in.issue.value = 0.05;
			break;
		case ENV_CORE:
			in.core_ns[0] = 30;
			break;
		case ENV_BW_CORE:
			in.read_core.value = 2;
			break;
		case ENV_BW_MEMORY:
			in.read_memory.value = 1;
			break;
		case ENV_LOAD_QUEUE:
			in.load_queue.value = 3;
			break;
		case ENV_ROB:
			in.rob.value = 5;
			break;
		default:
			break;
		}
		envelope_at(&in, 0, &p);
		CHECK(p.binding == (int)want[c].term, "%s: binding %s", envelope_term_name(want[c].term),
		      p.binding >= 0 ? envelope_term_name((enum env_term)p.binding) : "none");
		CHECK(fabs(p.envelope_ns - want[c].ns) < 1e-9, "%s: %g ns", envelope_term_name(want[c].term),
		      p.envelope_ns);
		/* the next is L/K (25) unless L/K binds, then one of the 1 ns terms */
		double next = want[c].term == ENV_LATENCY ? 1 : 25;

		CHECK(fabs(p.margin - (want[c].ns / next - 1)) < 1e-9, "%s: margin %g",
		      envelope_term_name(want[c].term), p.margin);
		CHECK(p.tied_mask == 1u << want[c].term, "%s: tied %x", envelope_term_name(want[c].term), p.tied_mask);
		CHECK(fabs(p.explained - want[c].ns / 60) < 1e-9, "explained %g", p.explained);
	}
}

TEST(envelope_names_ties_within_the_floor_and_skips_unknown_terms)
{
	struct env_inputs in;
	struct env_point p;

	one_point(&in, 4, 30);
	envelope_at(&in, 0, &p);
	CHECK(p.binding == ENV_LATENCY && p.next < 0 && isnan(p.margin), "alone: %d %d %g", p.binding, p.next,
	      p.margin);
	in.read_core.value = 64.0 / 24.8;    /* 24.8 ns: within 2% of 25 */
	envelope_at(&in, 0, &p);
	CHECK(p.binding == ENV_LATENCY && p.next == ENV_BW_CORE, "pair: %d %d", p.binding, p.next);
	CHECK(p.tied_mask == ((1u << ENV_LATENCY) | (1u << ENV_BW_CORE)), "tie: %x", p.tied_mask);
	in.read_core.value = 64.0 / 20;      /* 20 ns: 25% below, not a tie */
	envelope_at(&in, 0, &p);
	CHECK(p.tied_mask == 1u << ENV_LATENCY && fabs(p.margin - 0.25) < 1e-9, "no tie: %x %g", p.tied_mask,
	      p.margin);
}

TEST(envelope_loaded_latency_follows_a_synthetic_delay)
{
	struct env_inputs in;
	struct env_point p;

	/* a memory system whose latency doubles from idle at 5 GB/s: the
	 * synthetic delay; the chain's own t(1) is 100 ns */
	one_point(&in, 16, 12.8);            /* 64 B / 12.8 ns = 5 GB/s */
	in.loaded_idle_ns = 80;
	in.nloaded = 3;
	in.loaded_bw_gbps[0] = 1;
	in.loaded_latency_ns[0] = 80;
	in.loaded_bw_gbps[1] = 5;
	in.loaded_latency_ns[1] = 160;
	in.loaded_bw_gbps[2] = 9;
	in.loaded_latency_ns[2] = 400;
	envelope_at(&in, 0, &p);
	CHECK(fabs(p.loaded_latency_ns - 200) < 1e-9, "t_loaded %g, want t(1) x 2", p.loaded_latency_ns);
	/* Little's law: 200 / 12.8 = 15.6 in flight of 16 lanes */
	CHECK(fabs(p.loaded_latency_ns / p.measured_ns - 15.625) < 1e-9, "N %g", p.loaded_latency_ns / p.measured_ns);
	/* halfway between 5 and 9 GB/s: 280 ns of curve, x 100/80 */
	CHECK(fabs(envelope_loaded_latency(&in, 7) - 350) < 1e-9, "mid %g", envelope_loaded_latency(&in, 7));
	/* below the lightest point: between idle and it */
	CHECK(fabs(envelope_loaded_latency(&in, 0.5) - 100) < 1e-9, "light %g", envelope_loaded_latency(&in, 0.5));
	/* beyond the curve: not extrapolated */
	CHECK(isnan(envelope_loaded_latency(&in, 10)), "beyond the curve must be unknown");
	in.nloaded = 0;
	CHECK(isnan(envelope_loaded_latency(&in, 5)), "no curve must be unknown");
}

static const char report_json[] =
	"{\"tool\": \"mlpscope\", \"version\": \"0.1.0\", \"schema_version\": 1,\n"
	" \"mlp\": {\"line_bytes\": 64, \"noise_floor_pct\": 2,\n"
	"  \"sweep\": [\n"
	"   {\"lanes\": 1, \"ns_per_access\": 100, \"line_gbps\": 0.64, \"instructions_per_access\": 3,"
	"    \"loads_per_access\": 1, \"core_ns_per_access\": 1.2},\n"
	"   {\"lanes\": 8, \"ns_per_access\": 12.8, \"line_gbps\": 5, \"instructions_per_access\": 1.25,"
	"    \"loads_per_access\": 1, \"core_ns_per_access\": 0.2},\n"
	"   {\"lanes\": 32, \"ns_per_access\": 10.0, \"line_gbps\": 6.4, \"instructions_per_access\": 2.5,"
	"    \"loads_per_access\": 1.6, \"core_ns_per_access\": 0.3}],\n"
	"  \"estimate\": {\"fit_latency_ns\": 100, \"fit_saturation_lanes\": 10, \"fit_uncertainty\": 0.5,"
	"   \"fit_plateau_concurrency\": 10, \"plateau_from_lanes\": 32},\n"
	"  \"core\": {\"issue_per_ns\": 10, \"issue_at_lanes\": 8, \"count_source\": \"test\"},\n"
	"  \"pages\": {\"huge_pct_obtained\": 100},\n"
	"  \"levels\": [{\"level\": \"L2\", \"peak_concurrency\": 90, \"working_set_bytes\": 524288,"
	"    \"from_main_sweep\": false, \"resident\": true},"
	"   {\"level\": \"last cache\", \"peak_concurrency\": 30, \"t1_ns\": 20, \"working_set_bytes\": 16777216, \"from_main_sweep\": false, \"resident\": true},"
	"   {\"level\": \"past the last cache\", \"peak_concurrency\": 10, \"from_main_sweep\": true}]},\n"
	" \"bandwidth\": {\"kernels\": [\n"
	"   {\"kernel\": \"read_x\", \"op\": \"read\", \"threads\": 1, \"gbps\": 16},\n"
	"   {\"kernel\": \"read_x\", \"op\": \"read\", \"threads\": 2, \"gbps\": 32},\n"
	"   {\"kernel\": \"copy_x\", \"op\": \"copy\", \"threads\": 2, \"gbps\": 99}]},\n"
	" \"loaded\": {\"idle_latency_ns\": 100, \"curve\": [{\"bw_gbps\": 3, \"latency_ns\": 100},"
	"   {\"bw_gbps\": 8, \"latency_ns\": 110}]},\n"
	" \"warnings\": []}\n";

static const char window_json[] =
	"{\"tool\": \"mlpscope\", \"version\": \"0.1.0\", \"schema_version\": 1,\n"
	" \"window\": {\"summary\": {\n"
	"   \"load_queue\": {\"measured\": true, \"capacity\": 40, \"from\": \"load_fp\"},\n"
	"   \"reorder_buffer\": {\"measured\": false, \"capacity\": null, \"note\": \"not resolved in this run\"}}},\n"
	" \"warnings\": []}\n";

TEST(envelope_model_cmd_takes_b_from_bandwidth_and_window_from_a_second_file)
{
	char rpath[] = "/tmp/mlpscope-env-XXXXXX", wpath[] = "/tmp/mlpscope-envw-XXXXXX";
	char jpath[64], err[256], *text = NULL;
	size_t len = 0;
	int fr = mkstemp(rpath), fw = mkstemp(wpath), rc;
	FILE *out;
	struct jsonr_doc doc;

	CHECK(fr >= 0 && fw >= 0, "mkstemp");
	close(fr);
	close(fw);
	snprintf(jpath, sizeof(jpath), "%s.model.json", rpath);
	CHECK(!test_write_text(rpath, report_json) && !test_write_text(wpath, window_json), "write");
	out = open_memstream(&text, &len);
	rc = model_cmd_run(rpath, wpath, jpath, out, err, sizeof(err));
	fclose(out);
	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(text, "bandwidth.kernels[read_x, 1 thread].gbps = 16.00") &&
	      strstr(text, "bandwidth.kernels[read_x, 2 threads].gbps = 32.00"), "B sources: %s", text);
	CHECK(!strstr(text, "copy_x"), "a copy is not a read: %s", text);
	CHECK(strstr(text, "window.summary.load_queue.capacity = 40 entries (filler load_fp, the second file)"),
	      "Q source: %s", text);
	CHECK(strstr(text, "ROB: unknown: window did not measure it (not resolved in this run)"), "ROB: %s", text);
	/* At K = 32: L/K 3.125, u/P 0.25, core 0.3, 64/16 = 4, 64/32 = 2,
	 * 100 x 1.6 / 40 = 4: bandwidth_core and load_queue tie at 4 ns, 40%
	 * of the measured 10 ns: no measured term accounts for the plateau. */
	CHECK(strstr(text, "bandwidth_core+load_queue"), "tie at K=32: %s", text);
	CHECK(strstr(text, "Verdict:\n    No measured resource accounts for the plateau"), "verdict: %s", text);
	CHECK(strstr(text, "Not bandwidth: the bandwidth section moved 2.5x the lines"), "not bandwidth: %s", text);
	/* the loaded curve is 7%% above idle at 6.4 GB/s: about 10.7 of 32 lanes in flight */
	unwrap(text);
	CHECK(strstr(text, "Not queueing downstream") && strstr(text, "cap of about 11 requests in flight") &&
	      strstr(text, "With its working set in the last cache the same kernel reached t(1)/t(K) = 30.0"),
	      "loaded and levels: %s", text);
	/* t(1)/t(K) at a cache level measures no structure: it rules none out */
	CHECK(!strstr(text, "are not what caps it") && !strstr(text, "not to all L1D") && strstr(text, "cannot tell"),
	      "a verdict rules a structure out from a ratio: %s", text);
	free(text);
	/* the same count with the working set in the last cache: the L1D's */
	{
		char *copy = strdup(report_json), *at = strstr(copy, "\"peak_concurrency\": 30");
		size_t tlen = 0;
		char *t2 = NULL;
		FILE *o2;

		CHECK(copy && at, "fixture");
		memcpy(at, "\"peak_concurrency\": 11", 22);
		CHECK(!test_write_text(rpath, copy), "write");
		free(copy);
		struct jsonr_doc d2;
		const char *words;

		o2 = open_memstream(&t2, &tlen);
		rc = model_cmd_run(rpath, wpath, jpath, o2, err, sizeof(err));
		fclose(o2);
		free(t2);
		CHECK(rc == 0, "rc %d: %s", rc, err);
		/* the JSON holds the conclusion unwrapped */
		CHECK(jsonr_parse_file(jpath, 0, &d2, err, sizeof(err)) == 0, "model json: %s", err);
		words = jsonr_get_string(jsonr_index(jsonr_get(d2.root, "model.plateau"), 0), "conclusion");
		CHECK(words && strstr(words, "about the same whatever the latency") &&
		      strstr(words, "what a cap in the L1D's miss buffers would give") && strstr(words, "cannot tell"),
		      "same count: %s", words ? words : "none");
		jsonr_free(&d2);
		/* back to the first fixture for the JSON checks below */
		CHECK(!test_write_text(rpath, report_json), "write");
		CHECK(model_cmd_run(rpath, wpath, jpath, (o2 = fopen("/dev/null", "w")), err, sizeof(err)) == 0, "rerun");
		fclose(o2);
	}
	CHECK(jsonr_parse_file(jpath, 0, &doc, err, sizeof(err)) == 0, "model json: %s", err);
	const struct jsonr_value *terms = jsonr_get(doc.root, "model.terms");
	const struct jsonr_value *bind = jsonr_get(doc.root, "model.binding");
	bool found = false;

	CHECK(terms && jsonr_get_count(doc.root, "model.terms") == 3 * ENV_NTERMS, "terms: %zu",
	      jsonr_get_count(doc.root, "model.terms"));
	for (const struct jsonr_value *t = terms->u.children.first; t; t = t->next) {
		const char *name = jsonr_get_string(t, "name"), *src = jsonr_get_string(t, "source");
		double k, ns;

		CHECK(name && src && jsonr_get_number(t, "k", &k), "term fields");
		CHECK(!strstr(src, "mlp.sweep[].line_gbps"), "a term sourced from the sweep's rate: %s", src);
		if (k == 8 && !strcmp(name, "issue")) {
			CHECK(jsonr_get_number(t, "ns", &ns) && fabs(ns - 0.125) < 1e-9, "u/P at K=8");
			found = true;
		}
	}
	CHECK(found, "no issue term at K = 8");
	CHECK(bind && jsonr_get_count(doc.root, "model.binding") == 3, "binding rows");
	const struct jsonr_value *b0 = bind->u.children.first;
	double margin;

	CHECK(!strcmp(jsonr_get_string(b0, "term"), "latency") && jsonr_get_number(b0, "margin", &margin) &&
	      fabs(margin - (100.0 / 4 - 1)) < 1e-6, "K=1 binding: latency by 24x");
	CHECK(jsonr_get_count(doc.root, "model.loaded_latency") >= 2, "loaded latency rows");
	jsonr_free(&doc);
	unlink(rpath);
	unlink(wpath);
	unlink(jpath);
}

/* window's miss filler gives M: model reads it as the L/M term instead of
 * listing the L1D's miss tracking as unmeasured; a cap of more buffers than
 * were in flight is ruled out by that figure, one that matches accounts for
 * the plateau. */
static char *model_text_with_miss_buffers(const char *m, char *err, size_t errlen, int *rc)
{
	char rpath[] = "/tmp/mlpscope-envm-XXXXXX", wpath[] = "/tmp/mlpscope-envmw-XXXXXX", wj[512];
	char *text = NULL;
	size_t len = 0;
	int fr = mkstemp(rpath), fw = mkstemp(wpath);
	FILE *out;

	if (fr < 0 || fw < 0)
		return NULL;
	close(fr);
	close(fw);
	snprintf(wj, sizeof(wj), "{\"tool\": \"mlpscope\", \"version\": \"0.1.0\", \"schema_version\": 1,\n"
		 " \"window\": {\"summary\": {\"l1d_miss_buffers\": {\"measured\": true, \"capacity\": %s, "
		 "\"from\": \"miss\"}}},\n \"warnings\": []}\n", m);
	if (test_write_text(rpath, report_json) || test_write_text(wpath, wj))
		return NULL;
	out = open_memstream(&text, &len);
	*rc = model_cmd_run(rpath, wpath, NULL, out, err, errlen);
	fclose(out);
	unlink(rpath);
	unlink(wpath);
	return text;
}

TEST(envelope_model_reads_window_s_miss_buffers_instead_of_unmeasured)
{
	char err[256];
	int rc = -1;
	char *text = model_text_with_miss_buffers("24", err, sizeof(err), &rc);

	CHECK(text && rc == 0, "rc %d: %s", rc, err);
	unwrap(text);
	CHECK(strstr(text, "M: window.summary.l1d_miss_buffers.capacity = 24 entries (filler miss, the second file)"),
	      "M source: %s", text);
	CHECK(strstr(text, "L1D miss buffers") && strstr(text, "L2 miss tracking") &&
	      !strstr(text, "L1D/L2 miss tracking"), "the L1D's buffers still unmeasured: %s", text);
	CHECK(strstr(text, "not the L1D miss buffers: window measured 24 of them"), "verdict: %s", text);
	free(text);
	/* 100 ns / 10 buffers = 10 ns, the measured time at K = 32 */
	text = model_text_with_miss_buffers("10", err, sizeof(err), &rc);
	CHECK(text && rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(text, "miss_buffers accounts for the plateau"), "M = 10: %s", text);
	free(text);
}

TEST(envelope_kernel_counts_come_from_the_compiled_loops)
{
	struct lanes_count c;

	if (strncmp(lanes_count_source(), "objdump", 7))
		SKIP("this build could not count its kernels: %s", lanes_count_source());
	for (unsigned k = 1; k <= LANES_MAX; k++) {
		CHECK(lanes_count_for(k, &c), "K = %u: no count", k);
		/* K loads and at least a branch per iteration */
		CHECK(c.instructions_per_access * k >= k + 1 - 1e-9, "K = %u: %g instructions per access", k,
		      c.instructions_per_access);
		CHECK(c.loads_per_access >= 1 - 1e-9, "K = %u: %g loads per access", k, c.loads_per_access);
	}
	CHECK(!lanes_count_for(0, &c) && !lanes_count_for(LANES_MAX + 1, &c), "out of range must be unknown");
}

VALIDATE(envelope_core_timing_runs_l1_resident)
{
	struct clock_info ck;
	struct mlp_core c;
	volatile sig_atomic_t stop = 0;

	clock_init(&ck);
	CHECK(mlp_core_run(8, 3, 64, 1, &ck, &stop, &c) == 0, "run");
	CHECK(c.measured && c.npoints == 8, "measured %d, %u points", c.measured, c.npoints);
	for (unsigned i = 0; i < 8; i++)
		CHECK(c.ns_per_access[i] > 0 && c.ns_per_access[i] < 50, "K = %u: %g ns per L1 access", i + 1,
		      c.ns_per_access[i]);
	/* K = 8 L1 hits overlap: faster than one dependent chain of hits */
	CHECK(c.ns_per_access[7] < c.ns_per_access[0], "K = 8 %g not below K = 1 %g", c.ns_per_access[7],
	      c.ns_per_access[0]);
	if (!strncmp(lanes_count_source(), "objdump", 7))
		CHECK(c.issue_per_ns > 0 && c.issue_at_lanes >= 1, "issue %g at %u", c.issue_per_ns, c.issue_at_lanes);
}

TEST(envelope_levels_plan_halves_the_reported_caches)
{
	struct topo t;
	struct mlp_level lv[MLP_LEVELS];
	unsigned n;

	memset(&t, 0, sizeof(t));
	t.ncaches = 4;
	t.caches[0] = (struct cache_desc){.level = 1, .type = "Data", .size_bytes = 32 << 10};
	t.caches[1] = (struct cache_desc){.level = 1, .type = "Instruction", .size_bytes = 32 << 10};
	t.caches[2] = (struct cache_desc){.level = 2, .type = "Unified", .size_bytes = 1 << 20};
	t.caches[3] = (struct cache_desc){.level = 3, .type = "Unified", .size_bytes = 32 << 20};
	n = mlp_levels_plan(&t, 1u << 30, lv);
	CHECK(n == 3, "levels %u", n);
	CHECK(lv[0].working_set_bytes == 512 << 10 && !strcmp(lv[0].name, "L2") && !lv[0].from_main_sweep, "L2");
	CHECK(lv[1].working_set_bytes == 16 << 20 && !strcmp(lv[1].name, "last cache"), "LLC");
	CHECK(lv[2].working_set_bytes == 1u << 30 && lv[2].from_main_sweep, "past");
	/* no L3: the L2 is the last cache, so two levels */
	t.ncaches = 3;
	n = mlp_levels_plan(&t, 1u << 30, lv);
	CHECK(n == 2 && !strcmp(lv[0].name, "L2") && lv[1].from_main_sweep, "without an L3: %u", n);
	/* resident: under half the memory level's t(1) */
	t.ncaches = 4;
	n = mlp_levels_plan(&t, 1u << 30, lv);
	lv[0].measured = lv[1].measured = lv[2].measured = true;
	lv[0].t1_ns = 5;
	lv[1].t1_ns = 52;    /* a fifth of the hops missing: not resident */
	lv[2].t1_ns = 166;
	mlp_levels_mark_resident(lv, n);
	CHECK(lv[0].resident && !lv[1].resident && !lv[2].resident, "resident: %d %d %d", lv[0].resident,
	      lv[1].resident, lv[2].resident);
	/* nothing reported: only the main sweep */
	t.ncaches = 0;
	CHECK(mlp_levels_plan(&t, 1u << 30, lv) == 1, "without caches");
}

/* The level rows run in working set ascending: t(1) of 166 ns past the
 * last cache after 52 ns in it is no fall; 40 ns after 52, beyond a 10%
 * floor, is; within the floor it is not. Unmeasured rows take no part. */
TEST(mlp_levels_t1_falling_from_a_smaller_level_is_flagged_non_monotonic)
{
	struct mlp_level lv[3] = {
		{.measured = true, .t1_ns = 5, .noise_floor_pct = 10},
		{.measured = true, .t1_ns = 52, .noise_floor_pct = 10},
		{.measured = true, .t1_ns = 166, .noise_floor_pct = 10},
	};

	CHECK(mlp_levels_mark_falls(lv, 3) == 0, "a rising t(1) flagged");
	lv[2].t1_ns = 40;
	CHECK(mlp_levels_mark_falls(lv, 3) == 1 && lv[2].non_monotonic && fabs(lv[2].fall_pct - 100.0 * 12 / 52) < 1e-9,
	      "52 -> 40 ns: %d, %.1f%%", lv[2].non_monotonic, lv[2].fall_pct);
	lv[2].t1_ns = 49;
	CHECK(mlp_levels_mark_falls(lv, 3) == 0 && !lv[2].non_monotonic, "a fall within the floor flagged");
	lv[2].t1_ns = 40;
	lv[1].measured = false;
	CHECK(mlp_levels_mark_falls(lv, 3) == 0, "an unmeasured row made a fall");
}

TEST(envelope_payload_kernel_reads_every_word_and_follows_the_chain)
{
	/* 4 nodes of 4 words in a cycle 0 -> 2 -> 1 -> 3 -> 0; words 1..3 hold
	 * known values */
	uintptr_t node[4][4];
	static const int next[4] = {2, 3, 1, 0};
	uintptr_t lanes[2], want_sum = 0, got;

	for (int i = 0; i < 4; i++) {
		node[i][0] = (uintptr_t)node[next[i]];
		for (int w = 1; w < 4; w++)
			node[i][w] = (uintptr_t)(100 * i + w);
	}
	/* two lanes from nodes 0 and 1, three hops each, all four words */
	lanes[0] = (uintptr_t)node[0];
	lanes[1] = (uintptr_t)node[1];
	int at[2] = {0, 1};

	for (int s = 0; s < 3; s++)
		for (int l = 0; l < 2; l++) {
			for (int w = 1; w < 4; w++)
				want_sum += node[at[l]][w];
			at[l] = next[at[l]];
		}
	got = payload_walk(lanes, 2, 3, 4);
	CHECK(lanes[0] == (uintptr_t)node[at[0]] && lanes[1] == (uintptr_t)node[at[1]], "lanes did not follow the chain");
	CHECK(got == (want_sum ^ lanes[0]), "payload sum %lx, want %lx", (unsigned long)got,
	      (unsigned long)(want_sum ^ lanes[0]));
	/* words = 1: the pointer only, nothing summed */
	lanes[0] = (uintptr_t)node[0];
	CHECK(payload_walk(lanes, 1, 2, 1) == (uintptr_t)node[1] && lanes[0] == (uintptr_t)node[1], "pointer only");
}

/* A level's peak is one point of its own sweep: with that level's floor at
 * 100%, 30 in flight against about 10.7 no longer clears 1 + 2 floors, so
 * the model must not claim a cap that only requests leaving the last cache
 * meet. */
TEST(envelope_model_judges_a_level_s_peak_by_that_level_s_floor)
{
	char rpath[] = "/tmp/mlpscope-envf-XXXXXX", wpath[] = "/tmp/mlpscope-envfw-XXXXXX", err[256];
	char *copy = strdup(report_json), *at, *text = NULL, *patched;
	size_t len = 0;
	int fr = mkstemp(rpath), fw = mkstemp(wpath), rc;
	FILE *out;

	CHECK(fr >= 0 && fw >= 0 && copy, "mkstemp");
	close(fr);
	close(fw);
	at = strstr(copy, "\"t1_ns\": 20,");
	CHECK(at, "fixture");
	patched = malloc(strlen(copy) + 64);
	CHECK(patched, "malloc");
	snprintf(patched, strlen(copy) + 64, "%.*s\"t1_ns\": 20, \"noise_floor_pct\": 100,%s", (int)(at - copy), copy,
		 at + strlen("\"t1_ns\": 20,"));
	free(copy);
	CHECK(!test_write_text(rpath, patched) && !test_write_text(wpath, window_json), "write");
	free(patched);
	out = open_memstream(&text, &len);
	rc = model_cmd_run(rpath, wpath, NULL, out, err, sizeof(err));
	fclose(out);
	unlink(rpath);
	unlink(wpath);
	CHECK(rc == 0, "rc %d: %s", rc, err);
	unwrap(text);
	CHECK(!strstr(text, "set in the core or past it") && strstr(text, "requests in flight"),
	      "a noisy level's peak taken as evidence: %s", text);
	free(text);
}

/* A level whose curve alternates (odd K near 8.8, even K rising to 21.7, as
 * an L2 sweep did here) has its peak far above the fitted plateau: it did
 * not saturate, and no Ks is given for it. A flat one did. */
TEST(envelope_levels_unsaturated_curve_is_not_given_a_ks)
{
	struct mlp_level lv = {.name = "L2", .measured = true, .plateau_concurrency = 11.8, .peak_concurrency = 21.7,
			       .noise_floor_pct = 3.0};

	CHECK(!mlp_level_saturated(&lv), "an alternating curve called saturated");
	lv.peak_concurrency = 12.1;
	CHECK(mlp_level_saturated(&lv), "a flat plateau (peak 12.1 against 11.8, floor 3%%) not saturated");
	lv.noise_floor_pct = 45;
	lv.peak_concurrency = 21.7;
	CHECK(mlp_level_saturated(&lv), "within two floors of 45%% the peak is the plateau's noise");
}
