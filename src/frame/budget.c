/*
 * The planner: each section's defaults, then every running section priced
 * through its hooks (struct budget_hooks, beside the section's settings in
 * sections/NAME.c), then shrunk step by step in the order of the steps'
 * ranks (trials first, then points, then the sets past the caches) until
 * the run fits its budget, each knob's change written down. Past the
 * smallest plan, a budget the user gave refuses sections (those kept least
 * first, then the dearest) rather than run over; the default budget refuses
 * none: a user who named no budget asked for a measurement, so the smallest
 * plan runs and the plan says by how much it is over. Here: the loops, the
 * sets past the caches and the memory cap; no section is named. Pure: no clock, no memory mapped, so `plan --from` and
 * the tests run it.
 */
#include "frame/budget.h"

#include "exp/policy.h"
#include "util/format.h"
#include "util/jsonw.h"
#include "util/lines.h"

#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field budget_time_fields[] = {
	JSONW_FIELD(STRING, "command", struct budget, command),
	JSONW_FIELD(BOOL, "quick", struct budget, quick),
	JSONW_FIELD(DOUBLE, "budget_s", struct budget, budget_s),
	JSONW_FIELD(BOOL, "budget_given", struct budget, budget_given),
	JSONW_FIELD(DOUBLE, "over_budget_s", struct budget, over_budget_s),
	JSONW_FIELD(DOUBLE, "planned_s", struct budget, planned_s),
	JSONW_FIELD(DOUBLE, "actual_s", struct budget, actual_s),
};

static const struct jsonw_field budget_section_fields[] = {
	JSONW_FIELD(STRING, "name", struct budget_section, name),
	JSONW_FIELD(BOOL, "refused", struct budget_section, refused),
	JSONW_FIELD(DOUBLE, "planned_s", struct budget_section, planned_s),
	JSONW_FIELD(DOUBLE, "actual_s", struct budget_section, actual_s),
	JSONW_FIELD(UINT, "planned_peak_bytes", struct budget_section, peak_bytes),
};

/* The sets past the caches; each section's own sizes follow (its hooks'
 * fields, in report order). */
static const struct jsonw_field budget_size_fields[] = {
	JSONW_FIELD(UINT, "memory_set_bytes", struct budget, memory_set_bytes),
	JSONW_FIELD(UINT, "memory_set_floor_bytes", struct budget, memory_set_floor_bytes),
	JSONW_FIELD(BOOL, "memory_set_may_be_cache_resident", struct budget, memory_set_under_floor),
};

/* Aim a tenth under the budget: the estimate is good to about that. */
#define BUDGET_AIM 0.9
/* A command's default budget when its section sets none. */
#define BUDGET_ALONE_S 30.0
/* Every section's steps and the planner's own two. */
#define BUDGET_STEPS_MAX 64

void budget_note(struct budget *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	b->nnotes += lines_vadd(b->notes[0], sizeof(b->notes[0]), BUDGET_NOTES, b->nnotes, fmt, ap);
	va_end(ap);
}

bool budget_switch_off(struct budget *b, bool *knob, const char *note)
{
	if (!*knob)
		return false;
	budget_note(b, "%s", note);
	*knob = false;
	return true;
}

/* A knob lowered from `from` to `to`: one note per knob, however many
 * steps it took ("bandwidth trials 9 -> 3", not three lines). */
static void note_step(struct budget *b, const char *knob, const char *from, const char *to, const char *tail)
{
	unsigned i = b->nnotes;

	if (i && !strcmp(b->note_knob[i - 1], knob))
		i--;
	else if (i < BUDGET_NOTES) {
		snprintf(b->note_knob[i], sizeof(b->note_knob[i]), "%s", knob);
		snprintf(b->note_from[i], sizeof(b->note_from[i]), "%s", from);
		b->nnotes++;
	} else {
		return;
	}
	snprintf(b->notes[i], sizeof(b->notes[i]), "%s %s -> %s%s", knob, b->note_from[i], to, tail);
}

void budget_note_count(struct budget *b, const char *knob, size_t from, size_t to, const char *tail)
{
	char f[24], t[24];

	snprintf(f, sizeof(f), "%zu", from);
	snprintf(t, sizeof(t), "%zu", to);
	note_step(b, knob, f, t, tail);
}

void budget_note_bytes(struct budget *b, const char *knob, size_t from, size_t to, const char *tail)
{
	char f[24], t[24];

	report_format_bytes(f, sizeof(f), from);
	report_format_bytes(t, sizeof(t), to);
	note_step(b, knob, f, t, tail);
}

/* A step: its own function, or the common one (BUDGET_STEP_DOWN). */
static bool take_step(struct budget *b, const struct budget_step *st, struct budget_section *s)
{
	unsigned *knob;

	if (st->fn)
		return st->fn(b, s);
	knob = (unsigned *)(void *)(s->knobs.bytes + st->knob_offset);
	if (*knob <= st->floor)
		return false;
	budget_note_count(b, st->what, *knob, *knob - st->step, "");
	*knob -= st->step;
	return true;
}

struct budget_section *budget_section(struct budget *b, const char *name)
{
	for (unsigned i = 0; i < b->nsec; i++)
		if (b->sec[i].runs && !strcmp(b->sec[i].name, name))
			return &b->sec[i];
	return NULL;
}

const void *budget_knobs(const struct budget *b, const struct budget_hooks *hooks)
{
	for (unsigned i = 0; i < b->nsec; i++)
		if (b->sec[i].hooks == hooks)
			return b->sec[i].knobs.bytes;
	return NULL;
}

/* Slot s's working set when it follows the plan in every way of `follows`. */
static size_t *working_set(struct budget_section *s, unsigned follows)
{
	if (!s->hooks || (s->hooks->set_follows & follows) != follows)
		return NULL;
	return (size_t *)(void *)(s->knobs.bytes + s->hooks->set_offset);
}

/* Every working set that follows in `follows` at most max_bytes (fixed to
 * it when fix). */
static void follow(struct budget *b, unsigned follows, size_t max_bytes, bool fix)
{
	for (unsigned i = 0; i < b->nsec; i++) {
		size_t *set = working_set(&b->sec[i], follows);

		if (set && (fix || *set > max_bytes))
			*set = max_bytes;
	}
}

void budget_fit(struct budget *b, size_t max_bytes)
{
	follow(b, BUDGET_SET_FIT, max_bytes, false);
}

/* A short section whose figures every other reads (the clock, the
 * noise floor): about 0.15 s whatever the plan. */
static double price_prerequisite(const struct budget *b, const void *knobs, size_t *peak)
{
	(void)b;
	(void)knobs;
	(void)peak;
	return 0.15;
}

const struct budget_hooks budget_prerequisite = {.never_refused = true, .price = price_prerequisite};

bool budget_refused_every_measurement(const struct budget *b)
{
	unsigned measuring = 0;

	for (unsigned i = 0; i < b->nsec; i++) {
		const struct budget_section *s = &b->sec[i];

		if (!s->runs || (s->hooks && s->hooks->never_refused))
			continue;
		if (!s->refused)
			return false;
		measuring++;
	}
	return measuring > 0;
}

static void price_all(struct budget *b)
{
	b->planned_s = 0;
	b->planned_peak_bytes = 0;
	for (unsigned i = 0; i < b->nsec; i++) {
		struct budget_section *s = &b->sec[i];

		if (!s->runs || s->refused)
			continue;
		s->peak_bytes = 0;
		s->planned_s = s->hooks && s->hooks->price ? s->hooks->price(b, s->knobs.bytes, &s->peak_bytes) : 0;
		b->planned_s += s->planned_s;
		if (s->peak_bytes > b->planned_peak_bytes)
			b->planned_peak_bytes = s->peak_bytes;
	}
}

/* ---- the sets past the caches ---- */

/* Every set past the caches at most `to`, each section's through its hook. */
static void set_memory_set(struct budget *b, size_t to)
{
	b->memory_set_bytes = to;
	if (!b->size_bytes)
		follow(b, BUDGET_SET_MEMORY, to, false);
	for (unsigned i = 0; i < b->nsec; i++)
		if (b->sec[i].hooks && b->sec[i].hooks->memory_set)
			b->sec[i].hooks->memory_set(b, b->sec[i].knobs.bytes, to);
}

/* Halve the sets past the caches, down to the floor (twice the last cache):
 * the loads still miss it at least half the time. */
static bool shrink_memory_set(struct budget *b, struct budget_section *unused)
{
	size_t to = b->memory_set_bytes / 2;

	(void)unused;
	if (to < b->memory_set_floor_bytes)
		return false;
	budget_note_bytes(b, "sets past the caches", b->memory_set_bytes, to, "");
	set_memory_set(b, to);
	return true;
}

/* Under the floor: only when nothing else fits, and the set may then be
 * held by the last cache; never under the policy's minimum. */
static bool shrink_memory_set_under_floor(struct budget *b, struct budget_section *unused)
{
	char tail[120], llc[24];
	size_t to = b->memory_set_bytes / 2;

	(void)unused;
	if (to < POLICY_MEMORY_SET_MIN_BYTES)
		return false;
	report_format_bytes(llc, sizeof(llc), b->facts.llc_bytes);
	snprintf(tail, sizeof(tail), " (UNDER TWICE THE %s LAST CACHE: the largest set may be cache-resident)", llc);
	budget_note_bytes(b, "sets past the caches, under the floor", b->memory_set_bytes, to, tail);
	set_memory_set(b, to);
	b->memory_set_under_floor = true;
	return true;
}

/* The memory steps, in order: the running sections' own (what keeps every
 * set at or past the floor) first, the floor last. */
static bool shrink_memory(struct budget *b)
{
	for (unsigned i = 0; i < b->nsec; i++)
		if (b->sec[i].runs && b->sec[i].hooks && b->sec[i].hooks->memory_step &&
		    b->sec[i].hooks->memory_step(b, &b->sec[i]))
			return true;
	return shrink_memory_set(b, NULL) || shrink_memory_set_under_floor(b, NULL);
}

/* ---- defaults, then shrinking ---- */

struct ranked_step {
	const struct budget_step *step;
	struct budget_section *s;   /* NULL: the planner's own */
};

/* Every section's time steps and the planner's own, by rank (ties keep
 * report order). */
static unsigned gather_steps(struct budget *b, struct ranked_step *out, unsigned cap)
{
	static const struct budget_step own[] = {{.rank = 30, .fn = shrink_memory_set},
						 {.rank = 40, .fn = shrink_memory_set_under_floor}};
	unsigned n = 0;

	out[n++] = (struct ranked_step){&own[0], NULL};
	out[n++] = (struct ranked_step){&own[1], NULL};
	for (unsigned i = 0; i < b->nsec; i++)
		for (unsigned k = 0; b->sec[i].hooks && k < b->sec[i].hooks->nsteps && n < cap; k++)
			out[n++] = (struct ranked_step){&b->sec[i].hooks->steps[k], &b->sec[i]};
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && out[j].step->rank < out[j - 1].step->rank; j--) {
			struct ranked_step t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

double budget_default_s(const struct budget_hooks *alone, bool full_report, bool quick)
{
	if (quick)
		return BUDGET_QUICK_S;
	if (full_report)
		return BUDGET_REPORT_S;
	return alone && alone->alone_budget_s > 0 ? alone->alone_budget_s : BUDGET_ALONE_S;
}

/* The default budget: the report's, --quick's, or the command's own. */
static double default_budget_s(const struct budget *b)
{
	for (unsigned i = 0; i < b->nsec; i++)
		if (!strcmp(b->sec[i].name, b->command))
			return budget_default_s(b->sec[i].hooks, b->full_report, b->quick);
	return budget_default_s(NULL, b->full_report, b->quick);
}

static void set_defaults(struct budget *b, const struct budget_row *rows, unsigned nrows)
{
	size_t llc = b->facts.llc_bytes;

	b->memory_set_bytes = policy_memory_set_bytes(llc);
	b->memory_set_floor_bytes = policy_memory_set_floor_bytes(llc);
	for (unsigned i = 0; i < nrows && b->nsec < BUDGET_SECTIONS; i++) {
		struct budget_section *s = &b->sec[b->nsec++];

		*s = (struct budget_section){.name = rows[i].name, .hooks = rows[i].hooks, .runs = rows[i].runs,
					     .actual_s = NAN};
		if (s->hooks && s->hooks->defaults)
			s->hooks->defaults(b, s->knobs.bytes);
	}
}

static unsigned keep_of(const struct budget_section *s)
{
	return s->hooks ? s->hooks->keep : BUDGET_KEEP_EXTRA;
}

static bool refusable(const struct budget_section *s)
{
	/* a section priced at nothing frees nothing */
	return s->runs && !s->refused && !(s->hooks && s->hooks->never_refused) && s->planned_s > 0;
}

/* The section to refuse next, among those kept least (a headline section
 * goes only when nothing else is left to refuse): the cheapest whose
 * refusal alone brings the plan within the budget, so the most work is
 * kept; where none does, the dearest. */
static struct budget_section *next_refused(struct budget *b)
{
	struct budget_section *dearest = NULL, *enough = NULL;
	double over = b->planned_s - b->budget_s;
	unsigned keep = ~0u;

	for (unsigned i = 0; i < b->nsec; i++)
		if (refusable(&b->sec[i]) && keep_of(&b->sec[i]) < keep)
			keep = keep_of(&b->sec[i]);
	for (unsigned i = 0; i < b->nsec; i++) {
		struct budget_section *s = &b->sec[i];

		if (!refusable(s) || keep_of(s) != keep)
			continue;
		if (!dearest || s->planned_s > dearest->planned_s)
			dearest = s;
		if (s->planned_s >= over && (!enough || s->planned_s < enough->planned_s))
			enough = s;
	}
	return enough ? enough : dearest;
}

/* A budget the user gave, still over at the smallest plan: sections say
 * so and do not run, in next_refused's order, rather than run over (a
 * section never refused stays: every other section reads its clock and
 * floor). */
static void refuse_to_fit(struct budget *b)
{
	struct budget_section *s;

	while (b->planned_s > b->budget_s && (s = next_refused(b))) {
		s->refused = true;
		budget_note(b, "%s not run: its smallest plan needs %.0f s of the %.0f s budget (raise --budget)",
			    s->name, s->planned_s, b->budget_s);
		price_all(b);
	}
}

/* The default budget, over at the smallest plan: nothing refused; the
 * plan says what it needs and by how much it is over. */
static void note_over_default(struct budget *b)
{
	b->over_budget_s = b->planned_s - b->budget_s;
	if (b->nnotes >= BUDGET_NOTES)
		b->nnotes = BUDGET_NOTES - 1;  /* this one is never dropped */
	budget_note(b, "the smallest plan needs %.0f s, %.1f s (%.0f%%) over the default %.0f s budget: run whole, "
		    "nothing refused (--budget SECONDS refuses what it cannot hold)", b->planned_s, b->over_budget_s,
		    100.0 * b->over_budget_s / b->budget_s, b->budget_s);
}

void budget_make(struct budget *b, const struct cost_facts *f, const char *command, bool quick, double budget_s,
		 size_t size_bytes, const struct budget_row *rows, unsigned nrows)
{
	struct ranked_step steps[BUDGET_STEPS_MAX];
	unsigned nsteps;

	memset(b, 0, sizeof(*b));
	b->facts = *f;
	b->quick = quick;
	b->command = command;
	b->full_report = !strcmp(command, BUDGET_FULL_REPORT);
	b->actual_s = NAN;
	set_defaults(b, rows, nrows);
	b->budget_given = budget_s > 0;
	b->budget_s = b->budget_given ? budget_s : default_budget_s(b);
	b->rss_cap_bytes = BUDGET_RSS_CAP_BYTES;
	if (BUDGET_FLOOR_PEAK * (double)b->memory_set_floor_bytes > (double)b->rss_cap_bytes)
		b->rss_cap_bytes = (size_t)(BUDGET_FLOOR_PEAK * (double)b->memory_set_floor_bytes);
	if (f->mem_total_bytes && f->mem_total_bytes / 4 < b->rss_cap_bytes)
		b->rss_cap_bytes = f->mem_total_bytes / 4;
	b->size_bytes = size_bytes;
	if (size_bytes)
		follow(b, BUDGET_SET_SIZE, size_bytes, true);
	price_all(b);
	/* Memory first, whatever the time: the sections' own memory steps,
	 * then the sets past the caches to their floor, then under it (saying
	 * so), while the peak is over the cap. */
	while (b->planned_peak_bytes > b->rss_cap_bytes && shrink_memory(b))
		price_all(b);
	nsteps = gather_steps(b, steps, BUDGET_STEPS_MAX);
	for (unsigned k = 0; b->planned_s > BUDGET_AIM * b->budget_s && k < nsteps;) {
		if ((!steps[k].s || steps[k].s->runs) && take_step(b, steps[k].step, steps[k].s))
			price_all(b);
		else
			k++;
	}
	if (b->budget_given)
		refuse_to_fit(b);
	else if (b->planned_s > b->budget_s)
		note_over_default(b);
	if (b->budget_given && b->planned_s > b->budget_s)
		budget_note(b, "the smallest plan needs %.0f s, over the %.0f s budget", b->planned_s, b->budget_s);
}

/* ---- writers ---- */

void budget_memory_set_warning(const struct budget *b, char *out, size_t len)
{
	char set[24], floor_b[24], llc[24];

	out[0] = 0;
	if (!b->memory_set_under_floor)
		return;
	report_format_bytes(set, sizeof(set), b->memory_set_bytes);
	report_format_bytes(floor_b, sizeof(floor_b), b->memory_set_floor_bytes);
	report_format_bytes(llc, sizeof(llc), b->facts.llc_bytes);
	snprintf(out, len, "THE LARGEST SET MAY BE CACHE-RESIDENT: the sets past the caches are %s, under twice the %s "
		 "last cache (%s): the %.0f s budget cannot hold them at %s (raise --budget)", set, llc, floor_b,
		 b->budget_s, floor_b);
}

void budget_write_plan_line(const struct budget *b, FILE *f)
{
	char warn[300];

	const char *sep = ": ";

	fprintf(f, "planned %.0f s of a %.0f s budget", b->planned_s, b->budget_s);
	if (b->over_budget_s > 0)
		fprintf(f, " (the default; %.1f s over it, its smallest plan)", b->over_budget_s);
	for (unsigned i = 0; i < b->nsec; i++)
		if (b->sec[i].runs && !b->sec[i].refused && b->sec[i].planned_s >= 0.5) {
			fprintf(f, "%s%s %.0f s", sep, b->sec[i].name, b->sec[i].planned_s);
			sep = ", ";
		}
	fputc('\n', f);
	for (unsigned i = 0; i < b->nnotes; i++)
		fprintf(f, "  shrank to fit: %s\n", b->notes[i]);
	budget_memory_set_warning(b, warn, sizeof(warn));
	if (warn[0])
		fprintf(f, "  %s\n", warn);
}

void budget_write_text(const struct budget *b, FILE *f)
{
	char a[32], c[32];

	fprintf(f, "\nplan: the cost model's estimate against the time taken (--budget %.0f s%s)\n", b->budget_s,
		b->budget_given ? "" : ", the default");
	fprintf(f, "  rates          first touch %.2f GB/s, chain build %.0f ns/node, DRAM miss %.0f ns, "
		"stream %.1f GB/s (%s, %.2f s)\n", b->facts.rates.touch_gbps, b->facts.rates.build_ns_per_node,
		b->facts.rates.dram_ns, b->facts.rates.stream_gbps, b->facts.rates.from, b->facts.rates.seconds);
	fprintf(f, "  %-12s %10s %10s %8s\n", "section", "planned s", "actual s", "actual/planned");
	for (unsigned i = 0; i < b->nsec; i++) {
		const struct budget_section *s = &b->sec[i];

		if (!s->runs)
			continue;
		if (s->refused) {
			fprintf(f, "  %-12s %10.1f %10s %8s\n", s->name, s->planned_s, "not run", "");
			continue;
		}
		fprintf(f, "  %-12s %10.1f %10.1f", s->name, s->planned_s, s->actual_s);
		if (s->planned_s >= 1.0 && isfinite(s->actual_s))
			fprintf(f, " %8.2f", s->actual_s / s->planned_s);
		fputc('\n', f);
	}
	fprintf(f, "  %-12s %10.1f %10.1f\n", "total", b->planned_s, b->actual_s);
	for (unsigned i = 0; i < b->nnotes; i++)
		fprintf(f, "  shrank: %s\n", b->notes[i]);
	report_format_bytes(a, sizeof(a), b->peak_rss_bytes);
	report_format_bytes(c, sizeof(c), b->rss_cap_bytes);
	fprintf(f, "  peak RSS       %s (getrusage), cap %s (2.5 GB or the floor's need, at most a quarter of "
		"MemTotal): %s\n", a, c,
		b->peak_rss_bytes <= b->rss_cap_bytes ? "within" : "OVER THE CAP");
}

void budget_write_json(const struct budget *b, struct jsonw *w, const char *key)
{
	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, b, budget_time_fields);
	jsonw_array_begin(w, "sections");
	for (unsigned i = 0; i < b->nsec; i++) {
		const struct budget_section *s = &b->sec[i];

		if (!s->runs)
			continue;
		jsonw_object_begin(w, NULL);
		JSONW_FIELDS(w, s, budget_section_fields);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_array_begin(w, "shrank");
	for (unsigned i = 0; i < b->nnotes; i++)
		jsonw_string(w, NULL, b->notes[i]);
	jsonw_array_end(w);
	jsonw_object_begin(w, "sizes");
	JSONW_FIELDS(w, b, budget_size_fields);
	for (unsigned i = 0; i < b->nsec; i++)
		if (b->sec[i].hooks && b->sec[i].hooks->nfields)
			jsonw_fields(w, b->sec[i].knobs.bytes, b->sec[i].hooks->fields, b->sec[i].hooks->nfields);
	jsonw_object_end(w);
	jsonw_uint(w, "rss_cap_bytes", b->rss_cap_bytes);
	jsonw_uint(w, "planned_peak_bytes", b->planned_peak_bytes);
	jsonw_uint(w, "peak_rss_bytes", b->peak_rss_bytes);
	cost_facts_write_json(&b->facts, w, "facts");
	jsonw_object_end(w);
}

size_t budget_peak_rss_bytes(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : (size_t)ru.ru_maxrss * 1024;
}

bool budget_overrun(const struct budget *b, char *out, size_t len)
{
	const struct budget_section *worst = NULL;

	out[0] = 0;
	if (!(b->actual_s > BUDGET_OVERRUN * b->budget_s))
		return false;
	for (unsigned i = 0; i < b->nsec; i++) {
		const struct budget_section *s = &b->sec[i];

		if (s->runs && !s->refused && isfinite(s->actual_s) &&
		    (!worst || s->actual_s - s->planned_s > worst->actual_s - worst->planned_s))
			worst = s;
	}
	snprintf(out, len, "OVER BUDGET: took %.1f s of a %.0f s budget (%+.0f%%), planned %.1f s", b->actual_s,
		 b->budget_s, 100 * (b->actual_s / b->budget_s - 1), b->planned_s);
	if (worst)
		snprintf(out + strlen(out), len - strlen(out), "; the estimate missed most on %s: %.1f s taken, %.1f s "
			 "planned", worst->name, worst->actual_s, worst->planned_s);
	return true;
}
