/*
 * The --prom writer: every headline figure of a real result (the Intel
 * family 6 model 207 guest's full report and its window run, copied from
 * the project's CPU corpus) read back from the Prometheus text by a name
 * and labels this test spells out for itself, with the value in the
 * family's unit; the cpu_model label on every sample; the start time; label
 * escaping; and, where promtool works, `promtool check metrics` passing it.
 */
#include "../harness.h"

#include "util/jsonr.h"
#include "report/prom.h"
#include "report/summary.h"
#include "frame/registry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void data_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/../tests/data/cpus/intel-xeon-f6-m207/%s", test_bin_dir(), name);
	if (access(buf, R_OK))
		snprintf(buf, len, "tests/data/cpus/intel-xeon-f6-m207/%s", name);
}

/* The sample line "NAME{LABELS} VALUE" whose name is name and whose labels
 * contain every comma-separated label of want; its value, NAN if none. */
static double find_sample(const char *text, const char *name, const char *want)
{
	const char *line = text;

	for (; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		size_t n = strlen(name);
		char labels[512], w[256], *tok, *save = NULL;
		const char *end;
		bool all = true;

		if (line[0] == '#' || strncmp(line, name, n) || line[n] != '{')
			continue;
		if (!(end = strchr(line, '}')) || (size_t)(end - line - n - 1) >= sizeof(labels))
			continue;
		snprintf(labels, sizeof(labels), "%.*s", (int)(end - line - n - 1), line + n + 1);
		snprintf(w, sizeof(w), "%s", want);
		for (tok = strtok_r(w, ",", &save); tok && all; tok = strtok_r(NULL, ",", &save))
			all = strstr(labels, tok) != NULL;
		if (all)
			return strtod(end + 1, NULL);
	}
	return NAN;
}

/* Where a figure must be, spelled out here rather than taken from the
 * writer: name, labels and the factor from the figure's unit. */
static bool expected_sample(const struct summary_figure *g, char *name, size_t nlen, char *labels, size_t llen,
			    double *scale)
{
	const char *n = g->name;
	unsigned level;
	char word[48];

	*scale = 1;
	labels[0] = 0;
	if (sscanf(n, "l%u_latency_%47s", &level, word) == 2) {
		snprintf(name, nlen, !strcmp(word, "ns") ? "mlpscope_latency_seconds" : "mlpscope_latency_cycles");
		snprintf(labels, llen, "level=\"%u\"", level);
		*scale = !strcmp(word, "ns") ? 1e-9 : 1;
	} else if (!strcmp(n, "memory_latency_ns")) {
		snprintf(name, nlen, "mlpscope_latency_seconds");
		snprintf(labels, llen, "level=\"memory\"");
		*scale = 1e-9;
	} else if (!strcmp(n, "memory_latency_cycles")) {
		snprintf(name, nlen, "mlpscope_latency_cycles");
		snprintf(labels, llen, "level=\"memory\"");
	} else if (!strcmp(n, "memory_latency_small_pages_ns") || !strcmp(n, "translation_ns")) {
		snprintf(name, nlen, "mlpscope_%.*s_seconds", (int)(strlen(n) - 3), n);
		*scale = 1e-9;
	} else if (!strcmp(n, "prefetch_ratio")) {
		snprintf(name, nlen, "mlpscope_prefetch_ratio");
	} else if (!strcmp(n, "mlp_saturation_lanes")) {
		snprintf(name, nlen, "mlpscope_mlp_ks");
	} else if (!strcmp(n, "mlp_plateau_concurrency")) {
		snprintf(name, nlen, "mlpscope_mlp_plateau_concurrency");
	} else if (!strcmp(n, "read_gbps_1_thread")) {
		snprintf(name, nlen, "mlpscope_read_gbps");
		snprintf(labels, llen, "threads=\"1\"");
	} else if (!strcmp(n, "read_gbps_all_threads")) {
		snprintf(name, nlen, "mlpscope_read_gbps");
		snprintf(labels, llen, "threads=\"%d\"", atoi(g->what));
	} else if (sscanf(n, "window_%47s", word) == 1) {
		snprintf(name, nlen, "mlpscope_window_entries");
		snprintf(labels, llen, "structure=\"%.*s\"", (int)(strlen(word) - strlen("_entries")), word);
	} else if (sscanf(n, "tlb_%7[a-z]_level%u_entries", word, &level) == 2) {
		snprintf(name, nlen, "mlpscope_tlb_entries");
		snprintf(labels, llen, "level=\"%u\",pages=\"%s\"", level, word);
	} else if (!strcmp(n, "tlb_huge_reach_effective")) {
		snprintf(name, nlen, "mlpscope_tlb_huge_reach_effective");
	} else if (!strcmp(n, "c2c_median_ns") || !strcmp(n, "c2c_min_ns")) {
		snprintf(name, nlen, "mlpscope_c2c_latency_seconds");
		snprintf(labels, llen, "stat=\"%s\"", strstr(n, "min") ? "min" : "median");
		*scale = 1e-9;
	} else if (!strcmp(n, "noise_floor_pct")) {
		snprintf(name, nlen, "mlpscope_noise_floor_percent");
	} else if (!strcmp(n, "warnings_count")) {
		snprintf(name, nlen, "mlpscope_warnings");
	} else {
		return false;
	}
	return true;
}

static char *prom_of(const char *file, struct jsonr_doc *doc)
{
	char path[4096], err[256], *text = NULL;
	size_t len = 0;
	FILE *out;

	data_path(path, sizeof(path), file);
	if (jsonr_parse_file(path, 0, doc, err, sizeof(err)))
		return NULL;
	if (!(out = open_memstream(&text, &len)))
		return NULL;
	if (prom_write(out, registry_views(), doc->root)) {
		fclose(out);
		free(text);
		return NULL;
	}
	fclose(out);
	return text;
}

TEST(prom_reads_back_every_headline_figure)
{
	static const char *const files[] = {"report.json", "window.json"};
	static struct summary s;
	size_t checked = 0;

	for (size_t f = 0; f < 2; f++) {
		struct jsonr_doc doc;
		char *text = prom_of(files[f], &doc);

		CHECK(text, "%s: no Prometheus text", files[f]);
		summary_build(registry_views(), doc.root, &s);
		for (size_t i = 0; i < s.n; i++) {
			const struct summary_figure *g = &s.fig[i];
			char name[96], labels[160], want[256];
			double scale, got;

			CHECK(expected_sample(g, name, sizeof(name), labels, sizeof(labels), &scale),
			      "%s: figure %s has no Prometheus name this test knows", files[f], g->name);
			snprintf(want, sizeof(want), "cpu_model=\"Intel(R) Xeon(R) Processor\"%s%s", labels[0] ? "," : "",
				 labels);
			got = find_sample(text, name, want);
			CHECK(fabs(got - g->value * scale) <= 1e-8 * fabs(g->value * scale), "%s: %s: %s{%s} = %g, want %g",
			      files[f], g->name, name, want, got, g->value * scale);
			if (!strcmp(g->name, "mlp_saturation_lanes"))
				CHECK(fabs(find_sample(text, "mlpscope_mlp_ks_uncertainty", "cpu_model=") - g->uncertainty) <
					      1e-8 * g->uncertainty, "Ks uncertainty");
			checked++;
		}
		if (f == 0) {
			/* 2026-12-01T09:48:16Z */
			CHECK(find_sample(text, "mlpscope_result_timestamp_seconds", "cpu_model=") == 1796118496.0,
			      "timestamp: %.0f", find_sample(text, "mlpscope_result_timestamp_seconds", "cpu_model="));
			/* the example: L2 latency, read bandwidth on one thread, Ks */
			CHECK(fabs(find_sample(text, "mlpscope_latency_seconds", "level=\"2\"") - 5.338819e-9) < 1e-14 &&
				      fabs(find_sample(text, "mlpscope_read_gbps", "threads=\"1\"") - 16.79102) < 1e-4 &&
				      fabs(find_sample(text, "mlpscope_mlp_ks", "cpu_model=") - 14.11) < 1e-9,
			      "headline values:\n%s", text);
		} else {
			CHECK(find_sample(text, "mlpscope_window_entries", "structure=\"load_queue\"") == 190.5, "load queue");
		}
		/* every sample carries the CPU model */
		for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
			CHECK(l[0] == '#' || strstr(l, "cpu_model=\"Intel(R) Xeon(R) Processor\"") < strchr(l, '\n'),
			      "a sample without cpu_model: %.80s", l);
		free(text);
		jsonr_free(&doc);
	}
	CHECK(checked >= 20, "only %zu figures", checked);
	snprintf(tctx->message, sizeof(tctx->message), "%zu figures read back", checked);
}

TEST(prom_escapes_label_values)
{
	static const char json[] = "{\"tool\": \"mlpscope\", \"schema_version\": 1, \"version\": \"1\\\"x\","
				   " \"provenance\": {\"cpu_model\": \"a\\\\b\\\"c\\nd\"}}";
	struct jsonr_doc doc;
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *out;

	CHECK(jsonr_parse(json, sizeof(json) - 1, 0, &doc, err, sizeof(err)) == 0, "parse: %s", err);
	CHECK((out = open_memstream(&text, &len)), "memstream");
	CHECK(prom_write(out, registry_views(), doc.root) == 0, "write");
	fclose(out);
	CHECK(strstr(text, "mlpscope_info{cpu_model=\"a\\\\b\\\"c\\nd\",version=\"1\\\"x\"} 1"), "escaping:\n%s", text);
	CHECK(!strstr(text, "timestamp"), "a timestamp from nothing:\n%s", text);
	free(text);
	jsonr_free(&doc);
}

TEST(prom_output_passes_promtool_check_metrics, NEEDS_PROGRAMS)
{
	static const char *const files[] = {"report.json", "window.json"};
	char why[256];

	if (test_toolchain("promtool", why, sizeof(why)))
		SKIP("%s", why);
	for (size_t f = 0; f < 2; f++) {
		struct jsonr_doc doc;
		char *text = prom_of(files[f], &doc), path[] = "/tmp/mlpscope-prom-XXXXXX", cmd[256], line[512] = "";
		int fd = mkstemp(path), st;
		FILE *p;

		CHECK(text && fd >= 0, "%s", files[f]);
		CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "write");
		close(fd);
		snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
		CHECK((p = popen(cmd, "r")), "popen");
		if (!fgets(line, sizeof(line), p))
			line[0] = 0;
		while (fgetc(p) != EOF)
			;
		st = pclose(p);
		unlink(path);
		free(text);
		jsonr_free(&doc);
		CHECK(st == 0, "promtool check metrics on %s's output: %s", files[f], line);
	}
}
