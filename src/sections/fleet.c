/*
 * compare's fleet table. Every result is loaded and vetted first (so a bad
 * file is found before any output), its headline summary built, and one
 * row per result printed with the views' columns, sorted best first by
 * the --sort figure (default: memory latency): ascending for times and the
 * floor, descending for bandwidth and lanes. Settings that change what a
 * figure means (working sets, thread counts, version, --quick's shorter
 * sets) are listed with how many results hold each value, as compare does
 * for two runs; the figures are shown regardless, and the list says why
 * two rows may not be like for like. Hosts are named by file (results do
 * not record a host name) and CPU model. The columns and settings are the
 * sections' views' (report/view.h), in the order they give; only the
 * document's own (the warnings, the version, the CPUs online) are here.
 */
#include "sections/fleet.h"

#include "analyse/load.h"
#include "util/jsonr.h"
#include "util/atomic.h"
#include "report/summary.h"
#include "report/svg.h"
#include "report/view.h"
#include "sections/registry.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The document's own, placed among the views' by order; the CPUs online
 * bound the all-threads figures. */
static const struct view_fleet_column document_columns[] = { { "warnings_count", "warn", 10, false, NULL } };
static const struct view_fleet_setting document_settings[] = {
	{ "version", 0 }, { "schema_version", 1 }, { "provenance.online_cpus", 7 },
};

struct host {
	char path[4096];
	const char *label;
	struct jsonr_doc doc;
	double value[FLEET_MAX_COLUMNS];  /* per column, NaN when absent */
	int decimals[FLEET_MAX_COLUMNS];
	double key;  /* the sort figure, NaN when absent */
};

struct fleet {
	struct host *h;
	size_t n, cap;
	struct fleet_layout l;
};

/* Append item to out[0..n) at its place by ->order (columns and settings
 * alike); ties keep the order of arrival. */
#define PLACE(out, n, item)                                              \
	do {                                                             \
		size_t at_ = (n)++;                                      \
		for (; at_ > 0 && (out)[at_ - 1]->order > (item)->order; at_--) \
			(out)[at_] = (out)[at_ - 1];                     \
		(out)[at_] = (item);                                     \
	} while (0)

void fleet_layout(const struct view *const *views, struct fleet_layout *l)
{
	const size_t ncol = sizeof(document_columns) / sizeof(document_columns[0]);
	const size_t nset = sizeof(document_settings) / sizeof(document_settings[0]);

	l->ncol = l->nsetting = 0;
	for (size_t i = 0; i < ncol; i++)
		PLACE(l->col, l->ncol, &document_columns[i]);
	for (size_t i = 0; i < nset; i++)
		PLACE(l->setting, l->nsetting, &document_settings[i]);
	for (size_t v = 0; views[v]; v++) {
		for (size_t i = 0; i < views[v]->nfleet && l->ncol < FLEET_MAX_COLUMNS; i++)
			PLACE(l->col, l->ncol, &views[v]->fleet[i]);
		for (size_t i = 0; i < views[v]->nfleet_settings && l->nsetting < FLEET_MAX_COLUMNS; i++)
			PLACE(l->setting, l->nsetting, &views[v]->fleet_settings[i]);
	}
}

bool fleet_wanted(const struct options *o)
{
	struct stat st;

	if (o->sort_by)
		return true;
	for (unsigned i = 0; i < o->npaths; i++)
		if (!stat(o->paths[i], &st) && S_ISDIR(st.st_mode))
			return true;
	return false;
}

bool fleet_reads_name(const char *name)
{
	size_t len = strlen(name);

	return len >= 6 && !strcmp(name + len - 5, ".json") && name[0] != '.';
}

static int add_path(struct fleet *f, const char *path, char *err, size_t errlen)
{
	if (f->n == FLEET_MAX_RESULTS) {
		snprintf(err, errlen, "compare: more than %d results (expected fewer files)", FLEET_MAX_RESULTS);
		return 2;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct host *h = realloc(f->h, cap * sizeof(*h));

		if (!h) {
			snprintf(err, errlen, "compare: out of memory");
			return 1;
		}
		f->h = h;
		f->cap = cap;
	}
	memset(&f->h[f->n], 0, sizeof(f->h[f->n]));
	snprintf(f->h[f->n].path, sizeof(f->h[f->n].path), "%s", path);
	f->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every *.json directly in dir, in name order. */
static int add_dir(struct fleet *f, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d) {
		snprintf(err, errlen, "compare: '%s': %s", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (!fleet_reads_name(e->d_name))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));

			if (!nn) {
				rc = 1;
				break;
			}
			names = nn;
		}
		if (!(names[n] = malloc(strlen(dir) + len + 2))) {
			rc = 1;
			break;
		}
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (rc)
		snprintf(err, errlen, "compare: out of memory");
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n && !rc; i++)
		rc = add_path(f, names[i], err, errlen);
	if (!rc && !n) {
		snprintf(err, errlen, "compare: '%s' holds no *.json results (expected a directory of mlpscope --json files)", dir);
		rc = 2;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* The column named name in f, or -1. */
static int column_of(const struct fleet *f, const char *name)
{
	for (size_t i = 0; i < f->l.ncol; i++)
		if (!strcmp(f->l.col[i]->figure, name))
			return (int)i;
	return -1;
}

static const struct view_fleet_column *sort_column;

/* Best first; hosts without the figure last, in file order. */
static int by_key(const void *pa, const void *pb)
{
	const struct host *a = pa, *b = pb;

	if (isnan(a->key) || isnan(b->key))
		return isnan(a->key) - isnan(b->key);
	if (a->key == b->key)
		return 0;
	return (a->key < b->key) == !sort_column->higher_is_better ? -1 : 1;
}

static void setting_text(char *out, size_t len, const struct jsonr_value *doc, const char *key)
{
	const struct jsonr_value *v = jsonr_get(doc, key);

	if (!v)
		snprintf(out, len, "(absent)");
	else if (v->type == JSONR_NUMBER)
		snprintf(out, len, "%.10g", v->u.number);
	else if (v->type == JSONR_STRING)
		snprintf(out, len, "%s", v->u.string.bytes);
	else
		snprintf(out, len, "%s", jsonr_type_name(v->type));
}

/* "latency.max_bytes: 268435456 (2 results), 1073741824 (1)" per key that differs. */
static void print_settings(const struct fleet *f, FILE *out)
{
	bool any = false;

	fputs("settings that differ (figures under them are not like for like):\n", out);
	for (size_t k = 0; k < f->l.nsetting; k++) {
		const char *key = f->l.setting[k]->key;

		char first[64] = "", v[64];
		bool differs = false;

		/* Only results that hold the section take part, as in compare. */
		for (size_t i = 0; i < f->n && !differs; i++) {
			setting_text(v, sizeof(v), f->h[i].doc.root, key);
			if (!strcmp(v, "(absent)"))
				continue;
			if (!first[0])
				snprintf(first, sizeof(first), "%s", v);
			differs = strcmp(v, first) != 0;
		}
		if (!differs)
			continue;
		any = true;
		fprintf(out, "  %s:", key);
		for (size_t i = 0; i < f->n; i++) {
			size_t count = 0;
			bool seen = false;

			setting_text(v, sizeof(v), f->h[i].doc.root, key);
			for (size_t j = 0; j < f->n; j++) {
				char w[64];

				setting_text(w, sizeof(w), f->h[j].doc.root, key);
				if (!strcmp(v, w)) {
					seen |= j < i;
					count++;
				}
			}
			if (!seen && strcmp(v, "(absent)"))
				fprintf(out, " %s (%zu)", v, count);
		}
		fputc('\n', out);
	}
	if (!any)
		fputs("  none\n", out);
}

/* Each column's figure for h, from its summary s (or the view's value());
 * NaN when the result lacks it. */
static void read_figures(const struct fleet *f, struct host *h, const struct summary *s)
{
	for (size_t c = 0; c < f->l.ncol; c++) {
		const struct summary_figure *g = summary_find(s, f->l.col[c]->figure);

		h->decimals[c] = f->l.col[c]->value || !g ? 1 : g->decimals;
		if (f->l.col[c]->value)
			h->value[c] = f->l.col[c]->value(h->doc.root, f->l.col[c]->figure);
		else
			h->value[c] = g ? g->value : NAN;
	}
}

static void cell(char *out, size_t len, const struct host *h, size_t c)
{
	if (isnan(h->value[c]))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.*f", h->decimals[c], h->value[c]);
}

static void print_table(const struct fleet *f, FILE *out)
{
	int lw = 8;

	for (size_t i = 0; i < f->n; i++)
		if ((int)strlen(f->h[i].label) > lw)
			lw = (int)strlen(f->h[i].label) > 40 ? 40 : (int)strlen(f->h[i].label);
	fprintf(out, "\nfleet: %zu results, one row each, sorted by %s (%s first); - not measured\n", f->n,
		sort_column->figure, sort_column->higher_is_better ? "highest" : "lowest");
	fprintf(out, "%-*s", lw, "result");
	for (size_t c = 0; c < f->l.ncol; c++)
		fprintf(out, " %9s", f->l.col[c]->head);
	fputs("  cpu\n", out);
	for (size_t i = 0; i < f->n; i++) {
		const char *cpu = jsonr_get_string(f->h[i].doc.root, "provenance.cpu_model");

		fprintf(out, "%-*.*s", lw, lw, f->h[i].label);
		for (size_t c = 0; c < f->l.ncol; c++) {
			char v[32];

			cell(v, sizeof(v), &f->h[i], c);
			fprintf(out, " %9s", v);
		}
		fprintf(out, "  %s\n", cpu ? cpu : "?");
	}
}

static int write_html(const struct fleet *f, const char *path, char *err, size_t errlen)
{
	struct atomic_file a;
	int rc = atomic_open(&a, path);

	if (rc) {
		snprintf(err, errlen, "--html: cannot write '%s': %s", path, atomic_strerror(rc));
		return 1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>mlpscope fleet</title>\n"
	      "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;font-size:.9em}"
	      "th,td{border:1px solid #ccc;padding:.15em .5em}td.n{text-align:right}thead th{background:#eef3f8}"
	      "</style>\n</head>\n<body>\n<h1>mlpscope fleet</h1>\n", a.f);
	fprintf(a.f, "<p>%zu results, sorted by %s (%s first); - not measured</p>\n<table id=\"fleet\">\n<thead><tr><th>result</th>",
		f->n, sort_column->figure, sort_column->higher_is_better ? "highest" : "lowest");
	for (size_t c = 0; c < f->l.ncol; c++) {
		fputs("<th>", a.f);
		svg_escape(a.f, f->l.col[c]->head);
		fputs("</th>", a.f);
	}
	fputs("<th>CPU</th></tr></thead>\n<tbody>\n", a.f);
	for (size_t i = 0; i < f->n; i++) {
		const char *cpu = jsonr_get_string(f->h[i].doc.root, "provenance.cpu_model");

		fputs("<tr><td>", a.f);
		svg_escape(a.f, f->h[i].label);
		fputs("</td>", a.f);
		for (size_t c = 0; c < f->l.ncol; c++) {
			char v[32];

			cell(v, sizeof(v), &f->h[i], c);
			fprintf(a.f, "<td class=\"n\">%s</td>", v);
		}
		fputs("<td>", a.f);
		svg_escape(a.f, cpu ? cpu : "?");
		fputs("</td></tr>\n", a.f);
	}
	fputs("</tbody>\n</table>\n</body>\n</html>\n", a.f);
	if ((rc = atomic_commit(&a))) {
		snprintf(err, errlen, "--html: writing '%s' failed: %s", path, atomic_strerror(rc));
		return 1;
	}
	return 0;
}

int fleet_run(const struct options *o, FILE *out, bool with_html, char *err, size_t errlen)
{
	struct fleet f = {0};
	struct summary sum;
	const char *sort = o->sort_by ? o->sort_by : "memory_latency_ns";
	int rc = 0, sort_index;

	fleet_layout(registry_views(), &f.l);
	if ((sort_index = column_of(&f, sort)) < 0) {
		char list[512];
		size_t used = 0;

		for (size_t c = 0; c < f.l.ncol && used < sizeof(list); c++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", c ? ", " : "", f.l.col[c]->figure);
		/* A long wrong name and the whole list may not fit one error line:
		 * then the list is in `help compare`, never cut mid-name. */
		if ((size_t)snprintf(err, errlen, "--sort: '%s' is not a fleet figure (expected one of %s)", sort, list) >= errlen)
			snprintf(err, errlen, "--sort: '%.60s' is not a fleet figure (expected one of those `mlpscope help "
				 "compare` lists)", sort);
		return 2;
	}
	sort_column = f.l.col[sort_index];
	for (unsigned i = 0; i < o->npaths && !rc; i++) {
		struct stat st;

		if (!stat(o->paths[i], &st) && S_ISDIR(st.st_mode))
			rc = add_dir(&f, o->paths[i], err, errlen);
		else
			rc = add_path(&f, o->paths[i], err, errlen);
	}
	for (size_t i = 0; i < f.n && !rc; i++) {
		int e = result_load(f.h[i].path, &f.h[i].doc, err, errlen);

		if (e) {
			rc = result_load_usage_error(e) ? 2 : 1;
			break;
		}
		summary_build(registry_views(), f.h[i].doc.root, &sum);
		read_figures(&f, &f.h[i], &sum);
		f.h[i].key = f.h[i].value[sort_index];
		f.h[i].label = strrchr(f.h[i].path, '/') ? strrchr(f.h[i].path, '/') + 1 : f.h[i].path;
	}
	if (!rc && f.n) {
		qsort(f.h, f.n, sizeof(*f.h), by_key);
		/* qsort moved the hosts: labels point into each host's own path. */
		for (size_t i = 0; i < f.n; i++)
			f.h[i].label = strrchr(f.h[i].path, '/') ? strrchr(f.h[i].path, '/') + 1 : f.h[i].path;
		print_settings(&f, out);
		print_table(&f, out);
		if (fflush(out) || ferror(out)) {
			snprintf(err, errlen, "compare: writing the table: %s", strerror(errno));
			rc = 1;
		} else if (with_html && o->html_path) {
			rc = write_html(&f, o->html_path, err, errlen);
		}
	}
	for (size_t i = 0; i < f.n; i++)
		jsonr_free(&f.h[i].doc);
	free(f.h);
	return rc;
}
