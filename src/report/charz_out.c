/*
 * Writers of the characteriser's checks. The flags keep their old JSON
 * object ({name: raised}) beside the fuller "flag_checks", so a reader of
 * an older document still finds them where it looked.
 */
#include "report/charz_out.h"

#include "util/jsonw.h"

static const struct {
	unsigned bit;
	const char *name;
} flags[CHARZ_NFLAGS] = {
	{CHARZ_FLAG_OVERFLOW, "overflow"},
	{CHARZ_FLAG_COMPLETION_IDLE, "completion_idle"},
	{CHARZ_FLAG_TIME_BACKWARDS, "time_backwards"},
	{CHARZ_FLAG_USED_EXCEEDS, "used_exceeds"},
};

unsigned charz_flag_bit(unsigned i)
{
	return i < CHARZ_NFLAGS ? flags[i].bit : 0;
}

const char *charz_flag_name(unsigned i)
{
	return i < CHARZ_NFLAGS ? flags[i].name : "?";
}

const char *charz_prop_verdict(const struct charz_check *c)
{
	return c->failed ? "FAILED" : c->armed ? "held" : "not armed";
}

void charz_write_checks_text(FILE *out, const char *indent, const struct charz_summary *s, charz_flag_why_fn fwhy,
			     charz_prop_why_fn pwhy, const void *ctx)
{
	fprintf(out, "%sflags (sticky):\n", indent);
	for (unsigned i = 0; i < CHARZ_NFLAGS; i++) {
		const char *why = fwhy ? fwhy(ctx, flags[i].bit) : NULL;

		fprintf(out, "%s  %-16s %s%s%s\n", indent, flags[i].name, s->flags & flags[i].bit ? "RAISED" : "not raised",
			why ? "; cannot fire here: " : "", why ? why : "");
	}
	fprintf(out, "%sproperties (P1..P13), each with the times its antecedent held (an invariant: every check):\n",
		indent);
	for (int p = 0; p < CHARZ_NPROPS; p++) {
		const struct charz_check *c = &s->mon.prop[p];
		const char *why = pwhy ? pwhy(ctx, (enum charz_prop)p) : NULL;

		fprintf(out, "%s  %-4s %-9s %10llu  %s", indent, charz_prop_label((enum charz_prop)p), charz_prop_verdict(c),
			(unsigned long long)c->armed, charz_prop_text((enum charz_prop)p));
		if (c->failed)
			fprintf(out, "; broken %llu times", (unsigned long long)c->failed);
		fprintf(out, "%s%s\n", why ? "; " : "", why ? why : "");
	}
	fprintf(out, "%scovers:", indent);
	for (int k = 0; k < CHARZ_NCOVERS; k++)
		fprintf(out, "%s %s %llu", k ? "," : "", charz_cover_key((enum charz_cover)k),
			(unsigned long long)s->mon.cover[k]);
	fprintf(out, "\n");
}

void charz_write_checks_json(struct jsonw *w, const struct charz_summary *s, charz_flag_why_fn fwhy,
			     charz_prop_why_fn pwhy, const void *ctx)
{
	jsonw_object_begin(w, "flags");
	for (unsigned i = 0; i < CHARZ_NFLAGS; i++)
		jsonw_bool(w, flags[i].name, s->flags & flags[i].bit);
	jsonw_object_end(w);
	jsonw_array_begin(w, "flag_checks");
	for (unsigned i = 0; i < CHARZ_NFLAGS; i++) {
		const char *why = fwhy ? fwhy(ctx, flags[i].bit) : NULL;

		jsonw_object_begin(w, NULL);
		jsonw_string(w, "flag", flags[i].name);
		jsonw_bool(w, "raised", s->flags & flags[i].bit);
		jsonw_bool(w, "armable", !why);
		jsonw_string_or_null(w, "why", why != NULL, why);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_array_begin(w, "properties");
	for (int p = 0; p < CHARZ_NPROPS; p++) {
		const struct charz_check *c = &s->mon.prop[p];
		const char *why = pwhy ? pwhy(ctx, (enum charz_prop)p) : NULL;

		jsonw_object_begin(w, NULL);
		jsonw_string(w, "id", charz_prop_label((enum charz_prop)p));
		jsonw_string(w, "key", charz_prop_key((enum charz_prop)p));
		jsonw_string(w, "text", charz_prop_text((enum charz_prop)p));
		jsonw_uint(w, "armed", c->armed);
		jsonw_uint(w, "failed", c->failed);
		jsonw_string(w, "verdict", c->failed ? "failed" : c->armed ? "held" : "not_armed");
		jsonw_string_or_null(w, "why", why != NULL, why);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_begin(w, "covers");
	for (int k = 0; k < CHARZ_NCOVERS; k++)
		jsonw_uint(w, charz_cover_key((enum charz_cover)k), s->mon.cover[k]);
	jsonw_object_end(w);
}
