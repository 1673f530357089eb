/*
 * compare's table: rows and settings per run, each added on first use so
 * the table keeps the order the views fill it in (report order).
 */
#include "report/compare_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct compare_row *row_add(struct compare_table *c, const char *group, const char *name, const char *unit)
{
	struct compare_row *r;

	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].group, group) && !strcmp(c->rows[i].name, name))
			return &c->rows[i];
	if (c->nrows == COMPARE_MAX_ROWS)
		return NULL;
	r = &c->rows[c->nrows++];
	snprintf(r->group, sizeof(r->group), "%s", group);
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	for (size_t i = 0; i < POLICY_COMPARE_MAX_RUNS; i++)
		r->v[i] = r->unc[i] = NAN;
	return r;
}

void compare_table_row(struct compare_table *c, size_t run, const char *group, const char *name, const char *unit,
		       double v, double unc)
{
	struct compare_row *r;

	if (!isfinite(v))
		return;
	r = row_add(c, group, name, unit);
	if (r) {
		r->v[run] = v;
		r->unc[run] = unc;
	}
}

void compare_table_setting(struct compare_table *c, size_t run, const char *group, const char *name, bool skips,
			   const struct jsonr_value *v)
{
	struct compare_setting *s = NULL;

	for (size_t i = 0; i < c->nset && !s; i++)
		if (!strcmp(c->set[i].group, group) && !strcmp(c->set[i].name, name))
			s = &c->set[i];
	if (!s) {
		if (c->nset == COMPARE_MAX_SETTINGS)
			return;
		s = &c->set[c->nset++];
		memset(s, 0, sizeof(*s));
		snprintf(s->group, sizeof(s->group), "%s", group);
		snprintf(s->name, sizeof(s->name), "%s", name);
		s->skips = skips;
	}
	if (!v)
		snprintf(s->v[run], sizeof(s->v[run]), "(absent)");
	else if (v->type == JSONR_NUMBER)
		snprintf(s->v[run], sizeof(s->v[run]), "%.10g", v->u.number);
	else if (v->type == JSONR_STRING)
		snprintf(s->v[run], sizeof(s->v[run]), "%s", v->u.string.bytes);
	else if (v->type == JSONR_BOOL)
		snprintf(s->v[run], sizeof(s->v[run]), "%s", v->u.boolean ? "true" : "false");
	else
		snprintf(s->v[run], sizeof(s->v[run]), "%s", jsonr_type_name(v->type));
}

void compare_table_setting_num(struct compare_table *c, size_t run, const char *group, const char *name, bool skips,
			       double v)
{
	struct jsonr_value tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = JSONR_NUMBER;
	tmp.u.number = v;
	compare_table_setting(c, run, group, name, skips, isfinite(v) ? &tmp : NULL);
}
