/*
 * The fleet table's columns and cells: the layout (every view's columns and
 * settings, and the document's own), which columns outliers are sought in,
 * and how a cell, an outlier's figures and a group are written, shared by
 * the text (sections/fleet.c) and the page (sections/fleet_html.c).
 */
#include "sections/fleet_table.h"

#include "report/view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The document's own, placed among the views' by order; the CPUs online
 * bound the all-threads figures. */
static const struct view_fleet_column document_columns[] = { { "warnings_count", "warn", 10, false, NULL } };
static const struct view_fleet_setting document_settings[] = {
	{ "version", 0 }, { "schema_version", 1 }, { "provenance.online_cpus", 7 },
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
	for (size_t c = 0; c < l->ncol; c++) {
		l->scale[c] = NULL;
		for (size_t v = 0; views[v]; v++)
			for (size_t i = 0; i < views[v]->nfleet_scales; i++)
				if (!strcmp(views[v]->fleet_scales[i].figure, l->col[c]->figure))
					l->scale[c] = views[v]->fleet_scales[i].of;
	}
}

bool fleet_column_judged(const struct view_fleet_column *c)
{
	for (size_t i = 0; i < sizeof(document_columns) / sizeof(document_columns[0]); i++)
		if (c == &document_columns[i])
			return false;
	return strcmp(c->figure, FLEET_FLOOR_FIGURE) != 0;
}

void fleet_cell(char *out, size_t len, const struct fleet_host *h, size_t c, bool marks)
{
	if (isnan(h->value[c]))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "%.*f%s", h->decimals[c], h->value[c], marks && h->mark[c] ? "*" : "");
}

void fleet_group_name(char *out, size_t len, size_t g)
{
	char rev[16];
	size_t n = 0;

	do {
		rev[n++] = (char)('A' + g % 26);
		g = g / 26;
	} while (g-- > 0 && n < sizeof(rev));
	for (size_t i = 0; i < n && i + 1 < len; i++)
		out[i] = rev[n - 1 - i];
	out[n < len ? n : len - 1] = 0;
}

void fleet_marks(char *out, size_t len, const struct fleet *f, const struct fleet_host *h)
{
	size_t used = 0;

	out[0] = 0;
	for (size_t c = 0; c < f->l.ncol && used < len; c++) {
		double med = f->median[h->group * FLEET_MAX_COLUMNS + c];
		int d = h->decimals[c], n;

		if (!h->mark[c])
			continue;
		n = snprintf(out + used, len - used, "%s%s %.*f, median %.*f (%+.1f%%, tolerance %.*f)", used ? "; " : "",
			     f->l.col[c]->head, d, h->value[c], d, med,
			     med != 0 ? 100.0 * (h->value[c] - med) / fabs(med) : 0.0, d + 1, h->tolerance[c]);
		used += n > 0 ? (size_t)n : 0;
	}
}

