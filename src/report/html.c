/*
 * The HTML report: plots first (all runs on the same axes), then per run the
 * provenance and each section's tables, drawn by the section's own view
 * (report/view.h) in the order the caller hands the views down, then the
 * warnings. Here are only the page and the primitives every view shares
 * (report/html_table.h). Deliberately no JavaScript: the page must render
 * the same from a mail attachment or an air-gapped machine.
 */
#include "report/html.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomic.h"
#include "report/html_table.h"
#include "report/plots.h"
#include "util/format.h"
#include "report/summary.h"
#include "report/svg.h"

void html_escape(FILE *f, const char *s)
{
	svg_escape(f, s);
}

void html_cell(FILE *f, const struct jsonr_value *v, int fmt)
{
	char buf[64];

	if (!v || v->type == JSONR_NULL) {
		fputs("-", f);
		return;
	}
	switch (v->type) {
	case JSONR_BOOL:
		fputs(v->u.boolean ? "yes" : "no", f);
		return;
	case JSONR_STRING:
		html_escape(f, v->u.string.bytes);
		return;
	case JSONR_ARRAY:
		for (const struct jsonr_value *e = v->u.children.first; e; e = e->next) {
			html_cell(f, e, fmt == F_LIST ? 2 : fmt);
			if (e->next)
				fputc(' ', f);
		}
		return;
	case JSONR_OBJECT:
		fputs("{...}", f);
		return;
	default:
		break;
	}
	if (!isfinite(v->u.number)) {
		fputs("-", f);
	} else if (fmt == F_BYTES && v->u.number >= 0 && v->u.number < 1.8e19) {
		report_format_bytes(buf, sizeof(buf), (size_t)v->u.number);
		html_escape(f, buf);
	} else if (fmt == F_BOOL) {
		fputs(v->u.number != 0 ? "yes" : "no", f);
	} else if (fmt >= 0) {
		fprintf(f, "%.*f", fmt, v->u.number);
	} else {
		fprintf(f, "%.10g", v->u.number);
	}
}

static bool numeric(const struct jsonr_value *v, int fmt)
{
	return v && (v->type == JSONR_NUMBER || (fmt >= 0 && v->type == JSONR_NULL));
}

void html_table_rows(FILE *f, const struct jsonr_value *arr, const struct html_col *cols, size_t ncols,
		     const char *caption)
{
	/* An object's members are rows too (window.summary: one per structure). */
	if (!arr || (arr->type != JSONR_ARRAY && arr->type != JSONR_OBJECT) || !arr->u.children.count)
		return;
	fputs("<table>\n", f);
	if (caption) {
		fputs("<caption>", f);
		html_escape(f, caption);
		fputs("</caption>\n", f);
	}
	fputs("<thead><tr>", f);
	for (size_t c = 0; c < ncols; c++) {
		fputs("<th>", f);
		html_escape(f, cols[c].head);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (const struct jsonr_value *r = arr->u.children.first; r; r = r->next) {
		fputs("<tr>", f);
		for (size_t c = 0; c < ncols; c++) {
			const struct jsonr_value *v = jsonr_get(r, cols[c].key);

			fputs(numeric(v, cols[c].fmt) ? "<td class=\"n\">" : "<td>", f);
			html_cell(f, v, cols[c].fmt);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_kv_table(FILE *f, const struct jsonr_value *obj, const struct html_col *rows, size_t nrows,
		   const char *caption)
{
	bool any = false;

	if (!obj)
		return;
	for (size_t i = 0; i < nrows; i++) {
		const struct jsonr_value *v = jsonr_get(obj, rows[i].key);

		if (!v)
			continue;
		if (!any) {
			fputs("<table class=\"kv\">\n", f);
			if (caption) {
				fputs("<caption>", f);
				html_escape(f, caption);
				fputs("</caption>\n", f);
			}
			any = true;
		}
		fputs("<tr><th>", f);
		html_escape(f, rows[i].head);
		fputs("</th><td>", f);
		html_cell(f, v, rows[i].fmt);
		fputs("</td></tr>\n", f);
	}
	if (any)
		fputs("</table>\n", f);
}

static void heading(FILE *f, int level, const char *id, const char *run, const char *what)
{
	fprintf(f, "<h%d", level);
	if (id)
		fprintf(f, " id=\"%s\"", id);
	fputc('>', f);
	html_escape(f, what);
	if (run) {
		fputs(" <span class=\"run\">", f);
		html_escape(f, run);
		fputs("</span>", f);
	}
	fprintf(f, "</h%d>\n", level);
}

void html_section_heading(FILE *f, const struct html_ctx *c, const char *section, const char *title)
{
	char id[48];

	if (section)
		snprintf(id, sizeof(id), "run%zu-%s", c->run + 1, section);
	heading(f, 3, section ? id : NULL, c->label, title);
}

void html_section_tables(FILE *f, const struct jsonr_value *v, const struct html_ctx *c, const char *section,
			 const char *title, const struct html_col *kv, size_t nkv, const struct html_rows_table *t,
			 size_t nt)
{
	html_section_heading(f, c, section, title);
	html_kv_table(f, v, kv, nkv, NULL);
	for (size_t i = 0; i < nt; i++)
		html_table_rows(f, jsonr_get(v, t[i].path), t[i].cols, t[i].ncols, t[i].caption);
}

static const struct html_col prov_rows[] = {
	{ "tool version", "version", F_TEXT }, { "schema version", "schema_version", F_TEXT },
	{ "CPU model", "provenance.cpu_model", F_TEXT }, { "architecture", "provenance.arch", F_TEXT },
	{ "kernel", "provenance.kernel", F_TEXT }, { "started (UTC)", "provenance.timestamp_utc", F_TEXT },
	{ "compiler", "provenance.compiler", F_TEXT }, { "flags", "provenance.cflags", F_TEXT },
	{ "binary SHA-256", "provenance.binary_sha256", F_TEXT },
	{ "build id", "provenance.build_id", F_TEXT }, { "source revision", "provenance.source_revision", F_TEXT },
	{ "source changed since that commit", "provenance.source_dirty", F_BOOL },
	{ "archived binary", "provenance.archived_binary", F_TEXT }, { "seed", "provenance.seed", F_TEXT },
	{ "CPUs allowed", "provenance.affinity", F_TEXT }, { "pinned to CPU", "provenance.cpu_pinned", F_TEXT },
	{ "online CPUs", "provenance.online_cpus", F_TEXT }, { "clock", "provenance.clock.source", F_TEXT },
	{ "ticks per ns", "provenance.clock.ticks_per_ns", 4 },
	{ "clock invariant", "provenance.clock.invariant", F_BOOL },
	{ "timer resolution (ns)", "provenance.clock.resolution_ns", 1 },
	{ "empty region (ns)", "provenance.clock.empty_region_ns", 1 },
	{ "shortest timed region (ns)", "provenance.clock.min_region_ns", 0 },
};

static void write_run(FILE *f, const struct view *const *views, const struct jsonr_value *doc, const char *label,
		      size_t idx)
{
	const struct html_ctx c = { doc, label, idx };
	const struct jsonr_value *v;
	char id[32];

	snprintf(id, sizeof(id), "run%zu", idx + 1);
	heading(f, 2, id, NULL, label);
	heading(f, 3, NULL, label, "Provenance");
	HTML_KV(f, doc, prov_rows, NULL);
	for (size_t i = 0; views[i]; i++) {
		const struct view *w = views[i];

		if (!(v = jsonr_get(doc, w->section)))
			continue;
		if (w->html)
			w->html(f, v, &c);
		else if (w->html_title)
			html_section_tables(f, v, &c, w->section, w->html_title, w->html_rows, w->nhtml_rows, w->html_tables,
					    w->nhtml_tables);
	}
	html_section_heading(f, &c, "warnings", "Warnings");
	v = jsonr_get(doc, "warnings");
	if (v && v->type == JSONR_ARRAY && v->u.children.count) {
		fputs("<ul class=\"warn\">\n", f);
		for (const struct jsonr_value *w = v->u.children.first; w; w = w->next) {
			fputs("<li>", f);
			html_cell(f, w, F_TEXT);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	} else {
		fputs("<p>none</p>\n", f);
	}
}

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1120px;padding:0 1em;color:#111;background:#fff}\n"
	"h1{font-size:1.5em}h2{border-bottom:2px solid #0072b2;margin-top:2em}h3{font-size:1.05em;margin-top:1.6em}\n"
	".run{color:#666;font-weight:normal;font-size:.85em}\n"
	"table{border-collapse:collapse;margin:.5em 0 1em;font-size:.85em}\n"
	"caption{text-align:left;color:#444;padding:.2em 0;font-style:italic}\n"
	"th,td{border:1px solid #ccc;padding:.15em .5em;vertical-align:top}\n"
	"thead th{background:#eef3f8}table.kv th{text-align:left;background:#f6f6f6;font-weight:normal}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"figure{margin:1em 0}svg{max-width:100%;height:auto;border:1px solid #eee}\n"
	"ul.warn li{color:#8a3b00}nav a{margin-right:1em}\n"
	"table.summary{font-size:.95em}table.summary th{text-align:left;background:#f6f6f6}\n"
	"table.summary a{color:#0b4f8a;text-decoration:none}\n";

/* The headline table comes first: the figures people compare by. */
static int write_summary(FILE *f, const struct view *const *views, const struct jsonr_value *const *docs,
			 const char *const *labels, size_t ndocs)
{
	struct summary *sum = calloc(ndocs, sizeof(*sum));

	if (!sum)
		return -ENOMEM;
	for (size_t i = 0; i < ndocs; i++)
		summary_build(views, docs[i], &sum[i]);
	fputs("<h2 id=\"summary-head\">Summary</h2>\n", f);
	summary_write_html(f, sum, labels, ndocs);
	free(sum);
	return 0;
}

int html_write(FILE *f, const struct view *const *views, const struct jsonr_value *const *docs,
	       const char *const *labels, size_t ndocs)
{
	const struct view_plot *plots[PLOTS_MAX];
	size_t nplots;

	if (!ndocs)
		return -EINVAL;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>mlpscope: ", f);
	for (size_t i = 0; i < ndocs; i++) {
		html_escape(f, labels[i]);
		if (i + 1 < ndocs)
			fputs(" vs ", f);
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>mlpscope report</h1>\n", css);
	fputs("<p>", f);
	for (size_t i = 0; i < ndocs; i++) {
		const char *cpu = jsonr_get_string(docs[i], "provenance.cpu_model");
		const char *ts = jsonr_get_string(docs[i], "provenance.timestamp_utc");
		const char *ver = jsonr_get_string(docs[i], "version");

		fputs(i ? "<br>\n" : "", f);
		fprintf(f, "run %zu: <b>", i + 1);
		html_escape(f, labels[i]);
		fputs("</b>: ", f);
		html_escape(f, cpu ? cpu : "unknown CPU");
		fputs(", ", f);
		html_escape(f, ts ? ts : "no timestamp");
		fputs(", mlpscope ", f);
		html_escape(f, ver ? ver : "?");
	}
	fputs("</p>\n<nav><a href=\"#summary\">summary</a><a href=\"#plots\">plots</a>", f);
	for (size_t i = 0; i < ndocs; i++) {
		fprintf(f, "<a href=\"#run%zu\">", i + 1);
		html_escape(f, labels[i]);
		fputs("</a>", f);
	}
	fputs("</nav>\n", f);
	if (write_summary(f, views, docs, labels, ndocs))
		return -ENOMEM;
	fputs("<h2 id=\"plots\">Plots</h2>\n", f);
	nplots = plots_of_views(views, plots, PLOTS_MAX);
	for (size_t k = 0; k < nplots; k++) {
		struct svg_plot p;
		int rc = plots[k]->build(&p, docs, labels, ndocs);

		if (rc == 0) {
			fprintf(f, "<figure id=\"plot-%s\">\n", plots[k]->name);
			rc = svg_plot_write(&p, f, false);
			fputs("</figure>\n", f);
		}
		svg_plot_free(&p);
		if (rc && rc != -ENOENT)
			return rc;
	}
	for (size_t i = 0; i < ndocs; i++)
		write_run(f, views, docs[i], labels[i], i);
	fputs("</body>\n</html>\n", f);
	return atomic_stream_error(f);
}

int svg_write_dir(const char *dir, const struct view *const *views, const struct jsonr_value *const *docs,
		  const char *const *labels, size_t ndocs)
{
	const struct view_plot *plots[PLOTS_MAX];
	size_t nplots = plots_of_views(views, plots, PLOTS_MAX);
	int rc = atomic_dir_begin(dir);

	if (rc)
		return rc;
	for (size_t k = 0; k < nplots && !rc; k++) {
		struct svg_plot p;
		struct atomic_file a;
		char path[PATH_MAX];

		if ((size_t)snprintf(path, sizeof(path), "%s/%s.svg", dir, plots[k]->name) >= sizeof(path)) {
			rc = -ENAMETOOLONG;
			break;
		}
		rc = plots[k]->build(&p, docs, labels, ndocs);
		if (rc) {
			svg_plot_free(&p);
			/* No such section in these runs: a plot left in DIR by an
			 * earlier run must not pass for one of this run. */
			if (rc == -ENOENT)
				rc = atomic_remove(path);
			continue;
		}
		rc = atomic_open(&a, path);
		if (!rc) {
			rc = svg_plot_write(&p, a.f, true);
			if (rc)
				atomic_abort(&a);
			else
				rc = atomic_commit(&a);
		}
		svg_plot_free(&p);
	}
	return atomic_dir_end(rc);
}
