/*
 * Prometheus text writer. The families are the sections' views' own
 * (struct view_prom_family), written whole in their order (the format
 * requires a family's samples together), each with HELP and TYPE; this
 * file names none of them. A figure no family claims still goes out, as
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

/* The document's own families, after every view's: the run's warnings,
 * and the figures no family claims (by name and unit). */
static const struct view_prom_family warnings_family = {
	"mlpscope_warnings", "Warnings the run gave", 14, 0, "warnings_count", NULL};
static const struct view_prom_family other_family = {
	"mlpscope_summary_figure", "A headline figure with no family of its own, in its own unit", 15, 0, NULL, NULL};

#define PROM_MAX_FAMILIES 64

/* One sample: its family, extra labels (already formatted, without braces,
 * may be empty) and its value in the family's unit. */
struct sample {
	const struct view_prom_family *fam;
	char labels[96];
	double value;
};

/* Every view's families and the document's own, by order. */
static size_t gather_families(const struct view *const *views, const struct view_prom_family **out)
{
	size_t n = 0;

	for (size_t v = 0; views[v]; v++)
		for (size_t i = 0; i < views[v]->nprom && n < PROM_MAX_FAMILIES - 2; i++)
			out[n++] = &views[v]->prom[i];
	out[n++] = &warnings_family;
	out[n++] = &other_family;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j]->order < out[j - 1]->order; j--) {
			const struct view_prom_family *t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

/* Whether g is a sample of family fam: its labels and value into out. */
static bool claims(const struct view_prom_family *fam, const struct summary_figure *g, struct sample *out)
{
	*out = (struct sample){.fam = fam, .value = g->value};
	if (fam->figure ? strcmp(fam->figure, g->name) : !fam->sample ||
	    !fam->sample(g, out->labels, sizeof(out->labels), &out->value))
		return false;
	/* promtool's lint wants base units: ns into seconds */
	if (fam->scale)
		out->value *= fam->scale;
	return true;
}

/* A figure into its samples, one per family that claims it (Ks and its
 * uncertainty are two); one in the last family when none does. */
static size_t map_figure(const struct view_prom_family *const *fams, size_t nfams, const struct summary_figure *g,
			 struct sample *out, size_t cap)
{
	size_t k = 0;

	for (size_t f = 0; f < nfams && k < cap; f++)
		k += claims(fams[f], g, &out[k]);
	if (!k && cap) {
		out[0] = (struct sample){.fam = &other_family, .value = g->value};
		snprintf(out[0].labels, sizeof(out[0].labels), "name=\"%.40s\",unit=\"%.16s\"", g->name, g->unit);
		k = 1;
	}
	return k;
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
	const struct view_prom_family *fams[PROM_MAX_FAMILIES];
	size_t nfams = gather_families(views, fams);
	const char *cpu = jsonr_get_string(doc, "provenance.cpu_model");
	const char *version = jsonr_get_string(doc, "version");
	double when = parse_utc(jsonr_get_string(doc, "provenance.timestamp_utc"));
	size_t n = 0;

	for (size_t v = 0; views[v] && !cpu; v++)
		if (views[v]->cpu_model_key)
			cpu = jsonr_get_string(jsonr_member(doc, views[v]->section), views[v]->cpu_model_key);
	if (!cpu)
		cpu = "unknown";
	summary_build(views, doc, &s);
	for (size_t i = 0; i < s.n; i++)
		if (isfinite(s.fig[i].value))
			n += map_figure(fams, nfams, &s.fig[i], &samples[n], sizeof(samples) / sizeof(samples[0]) - n);
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
	for (size_t fam = 0; fam < nfams; fam++) {
		bool any = false;

		for (size_t i = 0; i < n; i++) {
			if (samples[i].fam != fams[fam])
				continue;
			if (!any)
				fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", fams[fam]->name, fams[fam]->help, fams[fam]->name);
			any = true;
			put_sample(f, fams[fam]->name, cpu, samples[i].labels, samples[i].value);
		}
	}
	return atomic_stream_error(f);
}
