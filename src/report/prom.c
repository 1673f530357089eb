/*
 * Prometheus text writer. Families are written whole, one after another
 * (the format requires a family's samples together), each with HELP and
 * TYPE. A figure no family claims still goes out, as
 * mlpscope_summary_figure{name=...}, so no headline figure is dropped when
 * the summary grows. Label values escape backslash, quote and newline.
 */
#include "report/prom.h"
#include "util/atomic.h"

#include "report/summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct family {
	const char *name;
	const char *help;
};

enum family_id {
	FAM_LATENCY, FAM_LATENCY_CYCLES, FAM_SMALL_PAGES, FAM_TRANSLATION, FAM_PREFETCH, FAM_KS, FAM_KS_UNCERTAINTY,
	FAM_PLATEAU, FAM_READ, FAM_WINDOW, FAM_TLB, FAM_TLB_HUGE_REACH, FAM_C2C, FAM_NOISE, FAM_WARNINGS, FAM_OTHER,
	NFAMILIES
};

static const struct family families[NFAMILIES] = {
	[FAM_LATENCY] = {"mlpscope_latency_seconds", "Dependent-load latency per cache level (OS-reported) and from memory"},
	[FAM_LATENCY_CYCLES] = {"mlpscope_latency_cycles", "The same latencies in core cycles (ns x the timed core clock)"},
	[FAM_SMALL_PAGES] = {"mlpscope_memory_latency_small_pages_seconds", "Memory latency on small pages"},
	[FAM_TRANSLATION] = {"mlpscope_translation_seconds", "Small minus huge pages at the largest size: translation"},
	[FAM_PREFETCH] = {"mlpscope_prefetch_ratio", "Random chase over +64 B stream at the largest size"},
	[FAM_KS] = {"mlpscope_mlp_ks", "Lanes where the fitted lanes curve saturates (Ks)"},
	[FAM_KS_UNCERTAINTY] = {"mlpscope_mlp_ks_uncertainty", "Plus or minus on Ks from the run's noise floor"},
	[FAM_PLATEAU] = {"mlpscope_mlp_plateau_concurrency", "Fitted plateau of t(1)/t(K) (Little's-law concurrency)"},
	[FAM_READ] = {"mlpscope_read_gbps", "Best read bandwidth, decimal GB/s, by thread count"},
	[FAM_WINDOW] = {"mlpscope_window_entries", "Out-of-order structure capacity measured by window"},
	[FAM_TLB] = {"mlpscope_tlb_entries", "TLB level entries from the tlb section's steps"},
	[FAM_TLB_HUGE_REACH] = {"mlpscope_tlb_huge_reach_effective", "1 when 2 MiB pages gave huge-page TLB reach"},
	[FAM_C2C] = {"mlpscope_c2c_latency_seconds", "Core-to-core cache-line latency over CPU pairs"},
	[FAM_NOISE] = {"mlpscope_noise_floor_percent", "The run's noise floor (its tolerance), percent"},
	[FAM_WARNINGS] = {"mlpscope_warnings", "Warnings the run gave"},
	[FAM_OTHER] = {"mlpscope_summary_figure", "A headline figure with no family of its own, in its own unit"},
};

/* One sample: its family, extra labels (already formatted, without braces,
 * may be empty) and its value in the family's unit. */
struct sample {
	enum family_id fam;
	char labels[96];
	double value;
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* A figure into its sample; the uncertainty of Ks is a second sample. */
static int map_figure(const struct summary_figure *g, struct sample *out)
{
	const char *n = g->name;
	unsigned level;
	char word[48];
	int k = 0;

	memset(out, 0, 2 * sizeof(*out));
	out[0].value = g->value;
	if (sscanf(n, "l%u_latency_%47s", &level, word) == 2 && (!strcmp(word, "ns") || !strcmp(word, "cycles"))) {
		out[0].fam = strcmp(word, "ns") ? FAM_LATENCY_CYCLES : FAM_LATENCY;
		snprintf(out[0].labels, sizeof(out[0].labels), "level=\"%u\"", level);
	} else if (!strcmp(n, "memory_latency_ns") || !strcmp(n, "memory_latency_cycles")) {
		out[0].fam = ends_with(n, "_ns") ? FAM_LATENCY : FAM_LATENCY_CYCLES;
		snprintf(out[0].labels, sizeof(out[0].labels), "level=\"memory\"");
	} else if (!strcmp(n, "memory_latency_small_pages_ns")) {
		out[0].fam = FAM_SMALL_PAGES;
	} else if (!strcmp(n, "translation_ns")) {
		out[0].fam = FAM_TRANSLATION;
	} else if (!strcmp(n, "prefetch_ratio")) {
		out[0].fam = FAM_PREFETCH;
	} else if (!strcmp(n, "mlp_saturation_lanes")) {
		out[0].fam = FAM_KS;
		if (isfinite(g->uncertainty)) {
			out[1].fam = FAM_KS_UNCERTAINTY;
			out[1].value = g->uncertainty;
			k = 1;
		}
	} else if (!strcmp(n, "mlp_plateau_concurrency")) {
		out[0].fam = FAM_PLATEAU;
	} else if (!strncmp(n, "read_gbps_", 10)) {
		/* "1 thread", "64 threads": the count the figure was read at */
		out[0].fam = FAM_READ;
		snprintf(out[0].labels, sizeof(out[0].labels), "threads=\"%d\"", atoi(g->what));
	} else if (sscanf(n, "window_%47[a-z0-9_]", word) == 1 && ends_with(word, "_entries")) {
		out[0].fam = FAM_WINDOW;
		word[strlen(word) - strlen("_entries")] = 0;
		snprintf(out[0].labels, sizeof(out[0].labels), "structure=\"%s\"", word);
	} else if (sscanf(n, "tlb_level%u_entries", &level) == 1) {
		out[0].fam = FAM_TLB;
		snprintf(out[0].labels, sizeof(out[0].labels), "level=\"%u\",pages=\"%s\"", level,
			 strstr(g->line, "huge") ? "huge" : "small");
	} else if (!strcmp(n, "tlb_huge_reach_effective")) {
		out[0].fam = FAM_TLB_HUGE_REACH;
	} else if (!strcmp(n, "c2c_median_ns") || !strcmp(n, "c2c_min_ns")) {
		out[0].fam = FAM_C2C;
		snprintf(out[0].labels, sizeof(out[0].labels), "stat=\"%s\"", strcmp(n, "c2c_min_ns") ? "median" : "min");
	} else if (!strcmp(n, "noise_floor_pct")) {
		out[0].fam = FAM_NOISE;
	} else if (!strcmp(n, "warnings_count")) {
		out[0].fam = FAM_WARNINGS;
	} else {
		out[0].fam = FAM_OTHER;
		snprintf(out[0].labels, sizeof(out[0].labels), "name=\"%.40s\",unit=\"%.16s\"", n, g->unit);
	}
	/* promtool's lint wants base units: ns into seconds */
	if (out[0].fam == FAM_LATENCY || out[0].fam == FAM_SMALL_PAGES || out[0].fam == FAM_TRANSLATION ||
	    out[0].fam == FAM_C2C)
		out[0].value *= 1e-9;
	return k + 1;
}

/* "..." with \\, \" and \n escaped, as the text format asks of label values. */
static void put_label_value(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
	fputc('"', f);
}

static void put_sample(FILE *f, const char *name, const char *cpu_model, const char *labels, double v)
{
	fprintf(f, "%s{cpu_model=", name);
	put_label_value(f, cpu_model);
	fprintf(f, "%s%s} %.10g\n", labels[0] ? "," : "", labels, v);
}

/* "2026-12-01T11:54:10Z" into seconds since the epoch; NAN when it is not
 * that form. */
static double parse_utc(const char *s)
{
	struct tm tm;
	const char *end;

	if (!s)
		return NAN;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return end && !*end ? (double)timegm(&tm) : NAN;
}

int prom_write(FILE *f, const struct view *const *views, const struct jsonr_value *doc)
{
	static struct summary s;
	static struct sample samples[2 * SUMMARY_MAX_FIGURES];
	const char *cpu = jsonr_get_string(doc, "provenance.cpu_model");
	const char *version = jsonr_get_string(doc, "version");
	double when = parse_utc(jsonr_get_string(doc, "provenance.timestamp_utc"));
	size_t n = 0;

	if (!cpu)
		cpu = jsonr_get_string(doc, "machine.cpu_model");
	if (!cpu)
		cpu = "unknown";
	summary_build(views, doc, &s);
	for (size_t i = 0; i < s.n; i++)
		if (isfinite(s.fig[i].value))
			n += (size_t)map_figure(&s.fig[i], &samples[n]);
	fprintf(f, "# HELP mlpscope_info The mlpscope version and the CPU a result was measured on\n"
		   "# TYPE mlpscope_info gauge\n");
	fprintf(f, "mlpscope_info{cpu_model=");
	put_label_value(f, cpu);
	fprintf(f, ",version=");
	put_label_value(f, version ? version : "unknown");
	fprintf(f, "} 1\n");
	if (isfinite(when)) {
		fprintf(f, "# HELP mlpscope_result_timestamp_seconds When the run started (provenance.timestamp_utc)\n"
			   "# TYPE mlpscope_result_timestamp_seconds gauge\n");
		put_sample(f, "mlpscope_result_timestamp_seconds", cpu, "", when);
	}
	for (int fam = 0; fam < NFAMILIES; fam++) {
		bool any = false;

		for (size_t i = 0; i < n; i++) {
			if (samples[i].fam != (enum family_id)fam)
				continue;
			if (!any)
				fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", families[fam].name, families[fam].help,
					families[fam].name);
			any = true;
			put_sample(f, families[fam].name, cpu, samples[i].labels, samples[i].value);
		}
	}
	return atomic_stream_error(f);
}
