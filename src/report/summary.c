/*
 * The headline summary, drawn from a parsed result document. Its rows, in
 * their fixed order, are here; the figures are each section's own, added by
 * its view's summary hook (report/NAME_view.c), and a section whose key the
 * document lacks is shown as "not run" on its view's row. The views run in
 * the order of those rows, so the figures keep the headline's order
 * whatever the report order. It measures nothing and judges nothing.
 */
#include "report/summary.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "util/format.h"
#include "util/jsonw.h"
#include "util/lines.h"
#include "report/svg.h"
#include "report/view.h"

/* Row order, every row the summary may show. */
static const char *const lines[] = {
	"cache latency", "L1 latency", "L2 latency", "L3 latency", "L4 latency", "memory latency", "translation", "prefetcher",
	"MLP", "read bandwidth", "window", "TLB", "TLB, 4 KiB pages", "TLB, huge pages", "core to core", "noise floor", "warnings",
};

size_t summary_lines(const char **out, size_t max)
{
	size_t n = sizeof(lines) / sizeof(lines[0]);

	for (size_t i = 0; i < n && i < max; i++)
		out[i] = lines[i];
	return n;
}

double summary_number(const struct jsonr_value *v, const char *path)
{
	double d;

	return v && jsonr_get_number(v, path, &d) ? d : NAN;
}

struct summary_figure *summary_add(struct summary *s, const char *line, const char *section, const char *name,
				   double value, const char *unit, int decimals)
{
	struct summary_figure *g;

	if (!isfinite(value) || s->n == SUMMARY_MAX_FIGURES)
		return NULL;
	g = &s->fig[s->n++];
	memset(g, 0, sizeof(*g));
	g->line = line;
	g->section = section;
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->value = value;
	g->uncertainty = NAN;
	g->unit = unit;
	/* Three significant figures are all a latency carries here. */
	g->decimals = !strcmp(unit, "ns") && fabs(value) >= 10 && decimals > 1 ? 1 : decimals;
	return g;
}

void summary_hidden(struct summary *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s->nhidden += lines_vadd(s->hidden[0], sizeof(s->hidden[0]), SUMMARY_MAX_HIDDEN, s->nhidden, fmt, ap);
	va_end(ap);
}

void summary_format_bytes(char *out, size_t len, double b)
{
	if (b >= 1 && b < 1.8e19)
		report_format_bytes(out, len, (size_t)b);
	else
		snprintf(out, len, "?");
}

void summary_build(const struct view *const *views, const struct jsonr_value *doc, struct summary *s)
{
	const size_t nlines = sizeof(lines) / sizeof(lines[0]);
	const struct jsonr_value *w;
	struct summary_figure *g;

	memset(s, 0, sizeof(*s));
	for (size_t l = 0; l < nlines; l++)
		for (size_t i = 0; views[i]; i++) {
			const struct view *v = views[i];
			const struct jsonr_value *sec;

			if (!v->summary || !v->summary_line || strcmp(v->summary_line, lines[l]))
				continue;
			if ((sec = jsonr_get(doc, v->section)) && sec->type == JSONR_OBJECT)
				v->summary(s, doc, sec);
			else if (s->nabsent < SUMMARY_MAX_ABSENT)
				s->absent[s->nabsent++] = (struct summary_absent){ v->summary_line, v->section };
		}
	w = jsonr_get(doc, "warnings");
	if ((g = summary_add(s, "warnings", "warnings", "warnings_count",
			     w && w->type == JSONR_ARRAY ? (double)w->u.children.count : NAN, "", 0))) {
		snprintf(g->note, sizeof(g->note), "listed at the end");
		snprintf(g->from, sizeof(g->from), "warnings");
	}
}

const struct summary_figure *summary_find(const struct summary *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->fig[i].name, name))
			return &s->fig[i];
	return NULL;
}

void summary_format_value(char *out, size_t len, const struct summary_figure *g)
{
	if (g->yesno)
		snprintf(out, len, "%s", g->value ? "yes" : "no");
	else if (isfinite(g->uncertainty))
		snprintf(out, len, "%.*f +/- %.*f%s%s", g->decimals, g->value, g->decimals, g->uncertainty,
			 g->unit[0] ? " " : "", g->unit);
	else
		snprintf(out, len, "%.*f%s%s", g->decimals, g->value, g->unit[0] ? " " : "", g->unit);
}

/* One figure as "what value (note)". */
static void format_figure(char *out, size_t len, const struct summary_figure *g)
{
	char v[64];

	summary_format_value(v, sizeof(v), g);
	snprintf(out, len, "%s%s%s%s%s%s", g->what, g->what[0] ? " " : "", v, g->note[0] ? " (" : "", g->note,
		 g->note[0] ? ")" : "");
}

static const struct summary_absent *absent_on(const struct summary *s, const char *line)
{
	for (size_t i = 0; i < s->nabsent; i++)
		if (!strcmp(s->absent[i].line, line))
			return &s->absent[i];
	return NULL;
}

void summary_write_text(const struct summary *s, FILE *f)
{
	const size_t nlines = sizeof(lines) / sizeof(lines[0]);

	fprintf(f, "summary (from the sections below, cycles at the timed core clock; --json names each figure's key):\n");
	for (size_t l = 0; l < nlines; l++) {
		bool any = false;

		for (size_t i = 0; i < s->n; i++) {
			char buf[320];

			if (strcmp(s->fig[i].line, lines[l]))
				continue;
			format_figure(buf, sizeof(buf), &s->fig[i]);
			if (any)
				fprintf(f, ", %s", buf);
			else
				fprintf(f, "  %-16s %s", lines[l], buf);
			any = true;
		}
		if (any)
			fputc('\n', f);
		/* What the floor hid, right under the floor's own row. */
		if (!strcmp(lines[l], "noise floor"))
			for (size_t i = 0; i < s->nhidden; i++)
				fprintf(f, "  %-16s ! %s\n", "hidden by it", s->hidden[i]);
	}
	for (size_t i = 0; i < s->nabsent; i++)
		fprintf(f, "  %-16s not run (mlpscope %s)\n", s->absent[i].line, s->absent[i].section);
}

/* One figure's object; what, uncertainty and note only where it has them. */
static void write_figure(struct jsonw *w, const struct summary_figure *g)
{
	jsonw_object_begin(w, NULL);
	jsonw_string(w, "name", g->name);
	jsonw_string(w, "line", g->line);
	if (g->what[0])
		jsonw_string(w, "what", g->what);
	if (g->yesno)
		jsonw_bool(w, "value", g->value != 0);
	else
		jsonw_double(w, "value", g->value);
	if (isfinite(g->uncertainty))
		jsonw_double(w, "uncertainty", g->uncertainty);
	jsonw_string(w, "unit", g->unit);
	if (g->note[0])
		jsonw_string(w, "note", g->note);
	jsonw_string(w, "section", g->section);
	jsonw_string(w, "from", g->from);
	jsonw_object_end(w);
}

void summary_write_json(const struct summary *s, struct jsonw *w)
{
	jsonw_object_begin(w, "summary");
	jsonw_array_begin(w, "figures");
	for (size_t i = 0; i < s->n; i++)
		write_figure(w, &s->fig[i]);
	jsonw_array_end(w);
	jsonw_array_begin(w, "not_run");
	for (size_t i = 0; i < s->nabsent; i++)
		jsonw_string(w, NULL, s->absent[i].section);
	jsonw_array_end(w);
	jsonw_array_begin(w, "hidden_by_floor");
	for (size_t i = 0; i < s->nhidden; i++)
		jsonw_string(w, NULL, s->hidden[i]);
	jsonw_array_end(w);
	jsonw_object_end(w);
}

void summary_write_html(FILE *f, const struct summary *s, const char *const *labels, size_t n)
{
	const size_t nlines = sizeof(lines) / sizeof(lines[0]);

	fputs("<table class=\"summary\" id=\"summary\">\n<caption>headline figures: each links to the section "
	      "it came from</caption>\n<thead><tr><th></th>", f);
	for (size_t r = 0; r < n; r++) {
		fputs("<th>", f);
		svg_escape(f, labels[r]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n", f);
	for (size_t l = 0; l < nlines; l++) {
		bool any = false;

		for (size_t r = 0; r < n && !any; r++) {
			for (size_t i = 0; i < s[r].n && !any; i++)
				any = !strcmp(s[r].fig[i].line, lines[l]);
			any |= absent_on(&s[r], lines[l]) != NULL;
		}
		if (!any)
			continue;
		fputs("<tr><th>", f);
		svg_escape(f, lines[l]);
		fputs("</th>", f);
		for (size_t r = 0; r < n; r++) {
			const struct summary_absent *ab = absent_on(&s[r], lines[l]);
			bool first = true;

			fputs("<td>", f);
			for (size_t i = 0; i < s[r].n; i++) {
				const struct summary_figure *g = &s[r].fig[i];
				char buf[320];

				if (strcmp(g->line, lines[l]))
					continue;
				format_figure(buf, sizeof(buf), g);
				fprintf(f, "%s<a href=\"#run%zu-%s\" title=\"", first ? "" : "<br>", r + 1, g->section);
				svg_escape(f, g->from);
				fputs("\">", f);
				svg_escape(f, buf);
				fputs("</a>", f);
				first = false;
			}
			if (first)
				fprintf(f, "%s", ab ? "not run" : "-");
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}
