/*
 * Parsing the command line, and --help. The options several commands
 * take are here, each taken where the command's row says it applies;
 * every other option is declared by the sections that read it
 * (their rows' .options), and this file finds, parses and refuses options
 * from those declarations. Commands, their help, their operands and the
 * outputs each can write come from the registry's rows; this file names no
 * command. Every bad argument is refused here, before anything is mapped
 * or measured, with a message of one form: "--flag: 'value' <what is
 * wrong> (expected <accepted form>)".
 */
#include "cli.h"

#include "frame/budget.h"
#include "frame/registry.h"
#include "util/usage.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define F(x) offsetof(struct options, x)

/* The options several commands take, meaning the same for each: where to
 * write, where to run, how short; which commands take each follows from
 * what their rows say they do (shared_taken). --budget, --threads and
 * --seed are shared too, but a section opts into them (frame/options.c);
 * every other option is declared by the sections that read it. */
static const struct option_spec shared[] = {
	{.name = "cpu", .arg = "N", .kind = OPTION_INT, .hi = 1023, .deflt = "the first allowed",
	 .help = "CPU to pin to", .field = F(cpu)},
	{.name = "html", .arg = "FILE", .kind = OPTION_STRING, .field = F(html_path),
	 .help = "also write one self-contained HTML report with plots (whole or not at all; - for stdout)"},
	{.name = "svg", .arg = "DIR", .kind = OPTION_STRING, .field = F(svg_dir),
	 .help = "also write the plots alone, one SVG file each, into DIR (all of them or none)"},
	{.name = "csv", .arg = "DIR", .kind = OPTION_STRING, .field = F(csv_dir),
	 .help = "also write one tidy CSV per table into DIR (all of them or none)"},
	{.name = "json", .arg = "FILE", .kind = OPTION_STRING, .field = F(json_path),
	 .help = "also write the result as JSON to FILE (whole or not at all; - for stdout)"},
	{.name = "prom", .arg = "FILE", .kind = OPTION_STRING, .field = F(prom_path),
	 .help = "also write the headline figures as Prometheus text, for node_exporter's textfile collector "
		 "(whole or not at all; - for stdout)"},
	{.name = "archive", .arg = "DIR", .kind = OPTION_STRING, .field = F(archive_dir),
	 .help = "also copy this executable into DIR as mlpscope-BUILDID, its path in the result's provenance"},
	{.name = "quick", .kind = OPTION_FLAG, .field = F(quick),
	 .help = "a shorter run: fewer sweeps and trials, coarser curves (budget 10 s)"},
	{.name = "help", .kind = OPTION_HELP, .help = "this help"},
	{.name = "version", .kind = OPTION_VERSION, .help = "print the version"},
};

#define NSHARED (sizeof(shared) / sizeof(shared[0]))

int cli_parse_size(const char *s, size_t *out)
{
	return option_parse_size(s, out);
}

static bool named(const struct option_spec *d, const char *name, size_t len)
{
	return strlen(d->name) == len && !strncmp(d->name, name, len);
}

/* Row r's declaration of the option called name (len bytes), or NULL. */
static const struct option_spec *declared_by(const struct section *r, const char *name, size_t len)
{
	for (const struct option_spec *const *d = r->options; d && *d; d++)
		if (named(*d, name, len))
			return *d;
	return NULL;
}

/* The option's declaration that parses it: a shared one, else the first
 * section's (sections declaring one name agree on how it parses). */
static const struct option_spec *find_opt(const char *name, size_t len)
{
	const struct option_spec *d = NULL;

	for (size_t i = 0; i < NSHARED; i++)
		if (named(&shared[i], name, len))
			return &shared[i];
	for (size_t i = 0; i < registry_count && !d; i++)
		d = declared_by(registry[i], name, len);
	return d;
}

static bool is_shared(const struct option_spec *d)
{
	return d >= shared && d < shared + NSHARED;
}

/* The outputs besides stdout: a row's .outputs bit, the shared option's field. */
static const struct {
	unsigned bit;
	size_t field;
} outputs[] = {
	{SECTION_OUT_JSON, F(json_path)}, {SECTION_OUT_HTML, F(html_path)}, {SECTION_OUT_SVG, F(svg_dir)},
	{SECTION_OUT_CSV, F(csv_dir)},    {SECTION_OUT_PROM, F(prom_path)},
};

#define NOUTPUTS (sizeof(outputs) / sizeof(outputs[0]))

/* The shared option landing in the field. */
static const struct option_spec *shared_at(size_t field)
{
	size_t i = 0;

	while (i + 1 < NSHARED && shared[i].field != field)
		i++;
	return &shared[i];
}

static bool measures(const struct section *c)
{
	return c->kind == SECTION_MEASURE || c->kind == SECTION_REPORT;
}

static bool option_applies(const char *name, const struct section *c);

/* A command help and the refusals name: not help, nor a row the full
 * report runs alone. */
static bool listed_command(const struct section *r)
{
	return !r->report_only && r->kind != SECTION_HELP;
}

/* Whether command c takes the shared option d: an output its row says it
 * writes; --cpu and --archive where it measures (a command reading files
 * pins nothing, and only a measured result names the binary that made
 * it); --quick where it takes --budget, the budget --quick shortens. */
static bool shared_taken(const struct option_spec *d, const struct section *c)
{
	for (size_t i = 0; i < NOUTPUTS; i++)
		if (d->field == outputs[i].field)
			return (c->outputs & outputs[i].bit) != 0;
	if (d->field == F(cpu) || d->field == F(archive_dir))
		return measures(c);
	if (d->field == F(quick))
		return option_applies(option_budget.name, c);
	return true;
}

/* Whether row r's declaration d is taken when command c runs: c's own,
 * or an in_report row's under the full report unless declared alone. */
static bool taken_under(const struct section *c, const struct section *r, const struct option_spec *d)
{
	return r == c || (c->kind == SECTION_REPORT && r->in_report && !d->alone);
}

/* Whether command c honours the option called name (NULL: every command's help). */
static bool option_applies(const char *name, const struct section *c)
{
	size_t len = strlen(name);
	const struct option_spec *spec = find_opt(name, len);

	if (!c || !spec)
		return true;
	if (is_shared(spec))
		return shared_taken(spec, c);
	for (size_t i = 0; i < registry_count; i++) {
		const struct option_spec *d = declared_by(registry[i], name, len);

		if (d && taken_under(c, registry[i], d))
			return true;
	}
	return false;
}

/* The commands besides the full report that take the option,
 * space-separated in report order; in_report when the full report takes it. */
static void option_takers(const char *name, char *takers, size_t len, bool *in_report)
{
	size_t used = 0;

	takers[0] = 0;
	*in_report = false;
	for (size_t i = 0; i < registry_count; i++) {
		const struct section *r = registry[i];

		if (r->kind == SECTION_REPORT)
			*in_report = option_applies(name, r);
		else if (listed_command(r) && option_applies(name, r))
			used += (size_t)snprintf(takers + used, used < len ? len - used : 0, "%s%s", used ? " " : "",
						 r->name);
	}
}

/* Who takes a shared option, as help leads its line with: "every
 * measuring command" where each does, then the other commands that take
 * it; false (who empty) when every command does. */
static bool shared_takers(const char *name, char *who, size_t len)
{
	size_t used = 0, measuring = 0, measuring_taking = 0, not_taking = 0;
	bool grouped;

	who[0] = 0;
	for (size_t i = 0; i < registry_count; i++) {
		const struct section *r = registry[i];
		bool take = option_applies(name, r);

		if (!listed_command(r))
			continue;
		not_taking += !take;
		measuring += measures(r);
		measuring_taking += measures(r) && take;
	}
	if (!not_taking)
		return false;
	grouped = measuring_taking == measuring;
	if (grouped)
		used += (size_t)snprintf(who, len, "every measuring command");
	for (size_t i = 0; i < registry_count; i++) {
		const struct section *r = registry[i];

		if (!listed_command(r) || (grouped && measures(r)) || !option_applies(name, r))
			continue;
		used += (size_t)snprintf(who + used, used < len ? len - used : 0, "%s%s", used ? ", " : "", r->name);
	}
	return true;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The row of a kind there is one of (the full report, help). */
static const struct section *row_of_kind(enum section_kind kind)
{
	size_t i = 0;

	while (i + 1 < registry_count && registry[i]->kind != kind)
		i++;
	return registry[i];
}

static const char *command_name(const struct options *o)
{
	return o->command->name;
}

static int parse_command(const char *word, struct options *o, char *err, size_t errlen)
{
	const struct section *c = registry_find(word);
	char list[256];
	size_t used = 0;

	if (c && !c->report_only) {
		o->command = c;
		return 0;
	}
	for (size_t i = 0; i < registry_count && used < sizeof(list); i++)
		if (!registry[i]->report_only)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? ", " : "",
						 registry[i]->name);
	return usage_fail(err, errlen, "'%s' is not a command (expected one of %s; see --help)", word, list);
}

static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->command = row_of_kind(SECTION_REPORT);  /* no command word: the full report */
	o->seed = 1;
	o->cpu = -1;
}

/* The outputs c can write, as "--json FILE or --html FILE", else what it
 * writes instead. */
static void outputs_accepted(const struct section *c, char *out, size_t len)
{
	size_t used = 0;

	out[0] = 0;
	for (size_t i = 0; i < NOUTPUTS; i++)
		if (c->outputs & outputs[i].bit)
			used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s--%s %s", used ? " or " : "",
						 shared_at(outputs[i].field)->name, shared_at(outputs[i].field)->arg);
	if (!used)
		snprintf(out, len, "its text on stdout only");
}

/* An output the command cannot write is refused, not silently dropped:
 * each registry row says which it writes. */
static int check_outputs_apply(const struct options *o, char *err, size_t errlen)
{
	char accepted[120];

	if (o->archive_dir && !measures(o->command))
		return usage_fail(err, errlen, "--archive: %s writes no measured result (expected --archive DIR with a "
				  "measuring command, e.g. latency)", command_name(o));
	for (size_t i = 0; i < NOUTPUTS; i++) {
		const char *given = *(const char *const *)((const char *)o + outputs[i].field);

		if (given && !(o->command->outputs & outputs[i].bit)) {
			outputs_accepted(o->command, accepted, sizeof(accepted));
			return usage_fail(err, errlen, "--%s: %s writes no such file (expected %s)",
					  shared_at(outputs[i].field)->name, command_name(o), accepted);
		}
	}
	return 0;
}

/* A word after the command: its operand, or an error. */
static int take_operand(const char *a, struct options *o, char *err, size_t errlen)
{
	const unsigned cap = sizeof(o->paths) / sizeof(o->paths[0]);

	switch (o->command->operands) {
	case SECTION_ARGS_TOPIC:
		if (o->help_topic)
			break;
		o->help_topic = a;
		return 0;
	case SECTION_ARGS_ONE:
	case SECTION_ARGS_OPTIONAL:
		if (o->npaths && (o->npaths == cap || !o->command->takes_another || !o->command->takes_another(o)))
			break;
		o->paths[o->npaths++] = a;
		return 0;
	case SECTION_ARGS_MANY:
		if (o->npaths == cap)
			return usage_fail(err, errlen, "%s: '%s': more than %u files (expected 2..%u)", command_name(o), a,
				    cap, cap);
		o->paths[o->npaths++] = a;
		return 0;
	case SECTION_ARGS_NONE:
		break;
	}
	return usage_fail(err, errlen, "'%s': unexpected argument (options start with --; see --help)", a);
}

/* Options that mean something to a few sections only (each section's
 * .options): given to another command, they would be silently ignored while
 * it measures something else, so they are refused up front like an output a
 * command cannot write. The full report takes its sections' options. */
static int check_options_apply(const struct options *o, const char *const *given, unsigned ngiven, char *err,
			       size_t errlen)
{
	for (unsigned k = 0; k < ngiven; k++) {
		char takers[128];
		bool in_report;

		if (option_applies(given[k], o->command))
			continue;
		option_takers(given[k], takers, sizeof(takers), &in_report);
		return usage_fail(err, errlen, "--%s: %s takes no such option (expected it with: %s%s%s)", given[k],
				  command_name(o), in_report ? row_of_kind(SECTION_REPORT)->name : "", in_report ? " " : "",
				  takers);
	}
	return 0;
}

/* A count that comes in steps (--trials: three trials per rotation). */
static int check_steps(const struct options *o, char *err, size_t errlen)
{
	for (unsigned k = 0; k < o->ngiven; k++) {
		const struct option_spec *d = find_opt(o->given[k].name, strlen(o->given[k].name));
		unsigned long long n = o->given[k].number;

		if (d->step && n % d->step)
			return usage_fail(err, errlen, "--%s: '%llu' is not a multiple of %llu (expected %llu, %llu, ... "
					  "%llu)", d->name, n, d->step, d->step, 2 * d->step, d->hi);
	}
	return 0;
}

/* One "--name[=value]" at argv[*i] (its value maybe the next word). */
static int parse_option(int argc, char **argv, int *i, bool have_command, struct options *o,
			const char **given, unsigned *ngiven, char *err, size_t errlen)
{
	const char *a = argv[*i], *eq = strchr(a + 2, '='), *val;
	const struct option_spec *op = find_opt(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));

	if (!op)
		return usage_fail(err, errlen, "'%.*s' is not an option (see mlpscope --help)",
				  eq ? (int)(eq - a) : (int)strlen(a), a);
	/* Each name once: there are fewer names than slots (a test holds it). */
	for (unsigned k = 0; k <= *ngiven && k < OPTIONS_GIVEN_MAX; k++)
		if (k == *ngiven) {
			given[(*ngiven)++] = op->name;
			break;
		} else if (!strcmp(given[k], op->name)) {
			break;
		}
	if (op->kind == OPTION_FLAG || op->kind == OPTION_HELP || op->kind == OPTION_VERSION) {
		if (eq)
			return usage_fail(err, errlen, "--%s takes no value", op->name);
		/* --help and --version win over anything after them. */
		if (op->kind == OPTION_HELP) {
			o->help_topic = have_command ? command_name(o) : NULL;
			o->command = row_of_kind(SECTION_HELP);
			return -1;
		}
		if (op->kind == OPTION_VERSION) {
			o->version = true;
			return -1;
		}
		return option_set(o, op, NULL, err, errlen);
	}
	if (eq)
		val = eq + 1;
	else if (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2))
		val = argv[++*i];
	else
		return usage_fail(err, errlen, "--%s: missing value (expected --%s %s)", op->name, op->name, op->arg);
	return option_set(o, op, val, err, errlen);
}

/* What the whole command line must hold together, once it is read. */
static int check_whole(const struct options *o, const char *const *given, unsigned ngiven, char *err, size_t errlen)
{
	int rc;

	if (o->command->needs_from && !options_given(o, "from"))
		return usage_fail(err, errlen, "%s: --from is required (expected %s)", command_name(o), o->command->usage);
	if ((rc = check_outputs_apply(o, err, errlen)))
		return rc;
	if ((rc = check_options_apply(o, given, ngiven, err, errlen)))
		return rc;
	/* One directory is many results (compare's fleet table). */
	if (o->command->operands == SECTION_ARGS_MANY && o->npaths < 2 && !(o->npaths == 1 && is_dir(o->paths[0])))
		return usage_fail(err, errlen, "%s: %u file%s given (expected %s)", command_name(o), o->npaths,
			    o->npaths == 1 ? "" : "s", o->command->usage);
	if (o->command->operands == SECTION_ARGS_ONE && !o->npaths)
		return usage_fail(err, errlen, "%s: no %s given (expected %s)", command_name(o), o->command->operand_name,
			    o->command->usage);
	return check_steps(o, err, errlen);
}

static int parse_args(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	const char *given[OPTIONS_GIVEN_MAX];
	unsigned ngiven = 0;
	bool have_command = false;
	int rc;

	set_defaults(o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "--", 2) || !a[2]) {
			if (have_command) {
				if ((rc = take_operand(a, o, err, errlen)))
					return rc;
				continue;
			}
			if ((rc = parse_command(a, o, err, errlen)))
				return rc;
			have_command = true;
			continue;
		}
		rc = parse_option(argc, argv, &i, have_command, o, given, &ngiven, err, errlen);
		if (rc)
			return rc < 0 ? 0 : rc;
	}
	return check_whole(o, given, ngiven, err, errlen);
}

int cli_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int rc = parse_args(argc, argv, o, err, errlen);

	/* Errors quote the argument; a newline or escape inside one must not
	 * turn the one-line error into several lines or terminal control. */
	for (char *p = err; rc && errlen && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return rc;
}

/* The i-th option name help lists (from 0): the sections' in report order,
 * each name once, then the shared ones; NULL past the last. */
static const struct option_spec *nth_option(size_t i)
{
	for (size_t r = 0; r < registry_count; r++)
		for (const struct option_spec *const *d = registry[r]->options; d && *d; d++) {
			bool seen = false;

			for (size_t q = 0; q < r && !seen; q++)
				seen = declared_by(registry[q], (*d)->name, strlen((*d)->name)) != NULL;
			for (const struct option_spec *const *e = registry[r]->options; e != d && !seen; e++)
				seen = !strcmp((*e)->name, (*d)->name);
			if (!seen && !i--)
				return *d;
		}
	return i < NSHARED ? &shared[i] : NULL;
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A help line and what it says of the default, appended to out at *used. */
static void put_line(char *out, size_t len, size_t *used, const char *who, const char *help, const char *deflt)
{
	*used += (size_t)snprintf(out + *used, *used < len ? len - *used : 0, "%s%s%s%s%s%s%s", *used ? "\n" : "",
				  who ? who : "", who ? ": " : "", help, deflt ? " (default" : "", deflt ? deflt : "",
				  deflt ? ")" : "");
}

/* " X", or NULL when the declaration says none. */
static const char *one_default(const struct option_spec *d, char *buf, size_t len)
{
	if (!d->deflt)
		return NULL;
	snprintf(buf, len, " %s", d->deflt);
	return buf;
}

static bool same_line(const struct option_spec *a, const struct option_spec *b)
{
	return same_text(a->help, b->help) && same_text(a->deflt, b->deflt);
}

/* Row r's declaration of name when command c takes it through r (c NULL:
 * any command), else NULL. */
static const struct option_spec *taken_from(const struct section *r, const char *name, const struct section *c)
{
	const struct option_spec *d = declared_by(r, name, strlen(name));

	return d && (!c || taken_under(c, r, d)) ? d : NULL;
}

/* Whether a row before r declares name with d's help and default, under c. */
static bool said_before(size_t r, const char *name, const struct section *c, const struct option_spec *d)
{
	const struct option_spec *e;

	for (size_t q = 0; q < r; q++)
		if ((e = taken_from(registry[q], name, c)) && same_line(e, d))
			return true;
	return false;
}

/* Every measuring command's default --budget, as one more line of its help. */
static void put_budget_defaults(char *out, size_t len, size_t *used)
{
	char list[512];
	size_t n = 0;

	for (size_t r = 0; r < registry_count; r++)
		if (measures(registry[r]) && !registry[r]->report_only)
			n += (size_t)snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%s %.0f", n ? ", " : "",
					      registry[r]->name, budget_default_s(registry[r]->budget,
										   registry[r]->kind == SECTION_REPORT, false));
	put_line(out, len, used, "default (s)", list, NULL);
	*used += (size_t)snprintf(out + *used, *used < len ? len - *used : 0, "; %.0f with --quick",
				  budget_default_s(NULL, true, true));
}

/* What help says of the option called name under command c (NULL: every
 * command's): one line per distinct help and default, led by the sections
 * that declare it so (a shared option, by the commands that take it when
 * some do not); under one command with one such line, the line alone. */
static void describe(const char *name, const struct section *c, char *out, size_t len)
{
	const struct option_spec *d = find_opt(name, strlen(name)), *first = NULL;
	size_t used = 0, lines = 0;
	char one[96];

	if (is_shared(d)) {
		char who[256];
		bool some = shared_takers(name, who, sizeof(who));

		put_line(out, len, &used, !c && some ? who : NULL, d->help, one_default(d, one, sizeof(one)));
		return;
	}
	for (size_t r = 0; r < registry_count; r++)
		if ((d = taken_from(registry[r], name, c)) && !said_before(r, name, c, d)) {
			lines++;
			first = first ? first : d;
		}
	if (c && lines == 1) {
		put_line(out, len, &used, NULL, first->help, one_default(first, one, sizeof(one)));
		return;
	}
	for (size_t r = 0; r < registry_count; r++) {
		const struct option_spec *e;
		char who[160];
		size_t n = 0;

		if (!(d = taken_from(registry[r], name, c)) || said_before(r, name, c, d))
			continue;
		for (size_t q = r; q < registry_count; q++)
			if ((e = taken_from(registry[q], name, c)) && same_line(e, d))
				n += (size_t)snprintf(who + n, n < sizeof(who) ? sizeof(who) - n : 0, "%s%s", n ? ", " : "",
						      registry[q]->name);
		put_line(out, len, &used, who, d->help, one_default(d, one, sizeof(one)));
	}
	if (!c && find_opt(name, strlen(name)) == &option_budget)
		put_budget_defaults(out, len, &used);
}

bool cli_option(size_t i, const char **name, const char **arg, char *help, size_t helplen)
{
	const struct option_spec *d = nth_option(i);

	if (!d)
		return false;
	*name = d->name;
	*arg = d->arg;
	describe(d->name, NULL, help, helplen);
	return true;
}

bool cli_command_option(const struct section *c, size_t i, struct cli_option_line *line)
{
	const struct option_spec *d;
	size_t used;

	for (size_t k = 0; (d = nth_option(k)); k++)
		if (option_applies(d->name, c) && !i--)
			break;
	if (!d)
		return false;
	line->name = d->name;
	line->arg = d->arg;
	line->shared = is_shared(d);
	describe(d->name, c, line->help, sizeof(line->help));
	used = strlen(line->help);
	if (c && d == &option_budget && measures(c))
		snprintf(line->help + used, sizeof(line->help) - used, "\n%s: %.0f s by default, %.0f s with --quick",
			 c->name, budget_default_s(c->budget, c->kind == SECTION_REPORT, false),
			 budget_default_s(c->budget, c->kind == SECTION_REPORT, true));
	return true;
}

/* Every option, or those command c honours, each line's continuation
 * under the help column. */
static void print_options(FILE *f, const struct section *c)
{
	static struct cli_option_line line;

	fprintf(f, c ? "options %s takes:\n" : "options:\n", c ? c->name : "");
	for (size_t i = 0; cli_command_option(c, i, &line); i++) {
		char left[40];

		snprintf(left, sizeof(left), "--%s%s%s", line.name, line.arg ? " " : "", line.arg ? line.arg : "");
		fprintf(f, "  %-20s ", left);
		for (const char *p = line.help; *p; p++)
			if (*p == '\n')
				fprintf(f, "\n%23s", "");
			else
				fputc(*p, f);
		fputc('\n', f);
	}
}

int cli_print_help(FILE *f, const char *topic)
{
	const struct section *c;

	if (!topic || !strcmp(topic, "help")) {
		fprintf(f, "usage: mlpscope [COMMAND] [OPTIONS]\n\n"
			   "Measures what this machine's memory system can do, and says which quantity\n"
			   "each number is, how noisy it was, and whether the setup was what it claimed.\n\n"
			   "commands:\n");
		for (size_t i = 0; i < registry_count; i++)
			if (!registry[i]->report_only)
				fprintf(f, "  %-9s %s\n", registry[i]->name, registry[i]->summary);
		fputc('\n', f);
		print_options(f, NULL);
		fprintf(f, "\nSizes: K, M, G, T (and Ki, KiB...) are binary; KB, MB, GB are decimal.\n"
			   "Outputs: a FILE is replaced whole or not at all (a symbolic link: its target), a\n"
			   "DIR gets all of its files or keeps what it held; FILE - is stdout (not atomic),\n"
			   "in place of the text. An output naming an input or another output is refused.\n"
			   "Exit status: 0 ok, 1 runtime failure, 2 bad usage, 130 interrupted.\n");
		return 0;
	}
	c = registry_find(topic);
	if (!c || !c->help)
		return -ENOENT;
	fprintf(f, "mlpscope %s: %s\n\n%s\n", c->name, c->summary, c->help);
	print_options(f, c);
	return 0;
}
