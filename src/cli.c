/*
 * The option table, size/suffix parsing and help printing. Commands, their
 * help, their operands and the outputs each can write come from the
 * registry's rows (sections/registry.c); this file names no command. Every bad
 * argument is refused here, before anything is mapped or measured, with a
 * message of one form: "--flag: 'value' <what is wrong> (expected <accepted form>)".
 */
#include "cli.h"

#include "sections/budget.h"
#include "sections/registry.h"
#include "kern/lanes.h"
#include "util/usage.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* OPT_FLAG sets the bool at field; --help and --version are kinds of their
 * own, so a new flag can never be mistaken for another. */
enum opt_kind {
	OPT_SIZE, OPT_UINT, OPT_U64, OPT_INT, OPT_STRING, OPT_FLAG, OPT_HELP, OPT_VERSION, OPT_PAGES, OPT_SPACING
};

struct opt {
	const char *name;
	const char *arg;           /* metavariable for help; NULL for flags */
	enum opt_kind kind;
	size_t field;              /* offsetof(struct options, ...) */
	unsigned long long lo, hi; /* inclusive bounds for integers */
	const char *help;
};

#define F(x) offsetof(struct options, x)

static const struct opt opts[] = {
	{"size", "SIZE", OPT_SIZE, F(size_bytes), 0, 0,
	 "working set (mlp, window), largest working set (latency), e.g. 1G or 512MiB\n"
	 "                       (default: 8x the largest reported cache, 256 MiB to 512 MiB)"},
	{"spacing", "BYTES", OPT_SPACING, F(spacing_bytes), 8, 2u << 20,
	 "bytes between chain nodes, a power of two from 8 to 2MiB (default 64: one node per line)"},
	{"pages", "KIND", OPT_PAGES, F(pages), 0, 0, "page backing to request: small, huge or both (default huge)"},
	{"max-lanes", "N", OPT_UINT, F(max_lanes), 1, LANES_MAX, "largest lane count swept, 1..128 (default 64)"},
	{"repeat", "N", OPT_UINT, F(repeat), 1, POLICY_REPEAT_MAX, "sweeps per run, compared for agreement, 1..16 (default 3; 1 with --quick)"},
	{"trials", "N", OPT_UINT, F(trials), 3, POLICY_TRIALS_MAX,
	 "trials per point per sweep, a multiple of 3 (default 6; window 15 at most)"},
	{"accesses", "N", OPT_SIZE, F(accesses), 1024, 1ull << 30,
	 "logical accesses per timed region, 1024..1Gi (default 256Ki)"},
	{"seed", "N", OPT_U64, F(seed), 0, UINT64_MAX, "permutation seed (default 1)"},
	{"cpu", "N", OPT_INT, F(cpu), 0, 1023, "CPU to pin to (default: first allowed)"},
	{"html", "FILE", OPT_STRING, F(html_path), 0, 0,
	 "also write one self-contained HTML report with plots (whole or not at all; - for stdout)"},
	{"svg", "DIR", OPT_STRING, F(svg_dir), 0, 0,
	 "also write the plots alone, one SVG file each, into DIR (all of them or none)"},
	{"csv", "DIR", OPT_STRING, F(csv_dir), 0, 0, "also write one tidy CSV per table into DIR (all of them or none)"},
	{"threads", "N", OPT_UINT, F(threads), 1, 1024,
	 "bandwidth, multicore, loaded, c2c: at most N threads (CPUs), one per CPU; app bzip2: at most N\n"
	 "                       block-parallel workers, 16 at most (default: every allowed CPU)"},
	{"json", "FILE", OPT_STRING, F(json_path), 0, 0,
	 "also write the result as JSON to FILE (whole or not at all; - for stdout)"},
	{"prom", "FILE", OPT_STRING, F(prom_path), 0, 0,
	 "also write the headline figures as Prometheus text, for node_exporter's textfile collector (whole or not at all; - for stdout)"},
	{"fillers", "LIST", OPT_STRING, F(fillers), 0, 0,
	 "window: fillers to probe, e.g. nop,store (default: all but miss; see help window)"},
	{"max-n", "N", OPT_UINT, F(max_n), 16, 4096, "window: largest filler count swept, 16..4096 (default 1024)"},
	{"dump-code", "FILLER:N", OPT_STRING, F(dump_code), 0, 0,
	 "window: write the generated probe for FILLER at N to stdout and exit"},
	{"from", "FILE", OPT_STRING, F(from_path), 0, 0,
	 "model, trace: take L, Q and B from this mlpscope JSON result; plan: the machine's facts"},
	{"text", "FILE", OPT_STRING, F(text_path), 0, 0,
	 "app bwt: invert this file (1 byte up to the memory check's limit)"},
	{"input", "KIND", OPT_STRING, F(input), 0, 0,
	 "app bwt: generated input, random, markov (text-like) or repeat (default markov)"},
	{"bzip2", NULL, OPT_FLAG, F(bzip2), 0, 0, "app bwt: generated markov text at bzip2's block size, 900,000 bytes (a 3.6 MB table)"},
	{"latency", "TICKS", OPT_STRING, F(qmodel_latency), 0, 0, "qmodel, trace: each request outstanding this long (default 200)"},
	{"chains", "LIST", OPT_STRING, F(qmodel_chains), 0, 0, "qmodel: dependent chains K to simulate (default 1,8,16)"},
	{"requests", "N", OPT_U64, F(qmodel_requests), 1, 100000000, "qmodel: requests in all, 1..1e8 (default 64)"},
	{"queue", "Q", OPT_UINT, F(qmodel_queue), 1, 1000000,
	 "qmodel: at most Q outstanding; trace: the characteriser's capacity, arming its overflow (default unlimited)"},
	{"bytes-per-tick", "B", OPT_STRING, F(qmodel_bytes_per_tick), 0, 0, "qmodel: data path rate (default unlimited)"},
	{"chase-vs-stream", NULL, OPT_FLAG, F(qmodel_versus), 0, 0,
	 "qmodel: also the same reads as one dependent chain and as a stream, strides and reads/writes beside"},
	{"lanes", "K", OPT_UINT, F(lanes), 1, 32, "app bzip2: only this lane count beside K=1, 1..32 (default 1..32 by powers of two)"},
	{"segments", "S", OPT_UINT, F(segments), 1, 4096, "app bzip2: start rows per block, K..4096 (default 4K)"},
	{"layout", "KIND", OPT_STRING, F(layout), 0, 0, "app bzip2: lane state in registers or a state array (default both)"},
	{"prefetch", "KIND", OPT_STRING, F(prefetch), 0, 0, "app bzip2: off, next or two (default off; next and two at K=8)"},
	{"output-buffer", "KIND", OPT_STRING, F(output_buffer), 0, 0,
	 "app bzip2: reused across blocks or fresh per block (default reused; fresh at K=8 and K=1)"},
	{"sort", "FIGURE", OPT_STRING, F(sort_by), 0, 0,
	 "compare: one row per result (the fleet table), best first by FIGURE, e.g. read_gbps_1_thread"},
	{"quick", NULL, OPT_FLAG, F(quick), 0, 0, "a shorter run: one mlp sweep, coarser latency, fewer trials (budget 10 s)"},
	{"budget", "SECONDS", OPT_UINT, F(budget_s), 5, 86400,
	 "time budget, 5..86400 s: sizes and trials shrink to fit it, a section that cannot is\n"
	 "                       refused (default: report 45, --quick 10, app 60, window 20, mlp 15, others 30;\n"
	 "                       a default is never refused: the smallest plan runs and says by how much it is over)"},
	{"levels", NULL, OPT_FLAG, F(levels), 0, 0,
	 "mlp: also sweep at working sets in the L2 and the last cache (OS sizes), 1-2 s more here"},
	{"read-size", NULL, OPT_FLAG, F(read_size), 0, 0,
	 "mlp: also vary the bytes read per node (8..128) and node spacing, each with its layout check"},
	{"help", NULL, OPT_HELP, 0, 0, 0, "this help"},
	{"version", NULL, OPT_VERSION, 0, 0, 0, "print the version"},
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const char size_form[] = "N[K|M|G|T][i][B], e.g. 1G or 512MiB";

int cli_parse_size(const char *s, size_t *out)
{
	unsigned long long v = 0, mult = 1;
	const char *p = s;

	if (*p == '-')
		return -EDOM;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (ULLONG_MAX - (unsigned)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (*p) {
		const char *units = "KMGT";
		const char *u = strchr(units, *p);
		int power;

		if (!u)
			return *p == 'B' && !p[1] ? (*out = v, v ? 0 : -EDOM) : -EINVAL;
		power = (int)(u - units) + 1;
		p++;
		/* "KB" is SI (1000); "K", "Ki" and "KiB" are binary (1024). */
		unsigned base = (p[0] == 'B' && !p[1]) ? 1000 : 1024;

		if (*p == 'i')
			p++;
		if (*p == 'B')
			p++;
		if (*p)
			return -EINVAL;
		while (power--) {
			if (mult > ULLONG_MAX / base)
				return -ERANGE;
			mult *= base;
		}
	}
	if (v && mult > ULLONG_MAX / v)
		return -ERANGE;
	if (v * mult > SIZE_MAX)
		return -ERANGE;
	if (v == 0)
		return -EDOM;
	*out = (size_t)(v * mult);
	return 0;
}

static int parse_uint(const char *s, unsigned long long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	return *end ? -EINVAL : 0;
}

static int set_size(const struct opt *o, const char *v, struct options *dst, char *err, size_t errlen)
{
	size_t bytes;
	int rc = cli_parse_size(v, &bytes);

	if (rc == -EDOM)
		return usage_fail(err, errlen, "--%s: '%s' must be greater than zero (expected %s)", o->name, v, size_form);
	if (rc == -ERANGE)
		return usage_fail(err, errlen, "--%s: '%s' is too large (expected %s)", o->name, v, size_form);
	if (rc)
		return usage_fail(err, errlen, "--%s: '%s' is not a size (expected %s)", o->name, v, size_form);
	if (o->hi && (bytes < o->lo || bytes > o->hi))
		return usage_fail(err, errlen, "--%s: '%s' is out of range (expected %llu..%llu)", o->name, v,
			    o->lo, o->hi);
	*(size_t *)((char *)dst + o->field) = bytes;
	return 0;
}

static int set_integer(const struct opt *o, const char *v, struct options *dst, char *err, size_t errlen)
{
	unsigned long long n;
	int rc = parse_uint(v, &n);

	if (rc || n < o->lo || n > o->hi)
		return usage_fail(err, errlen, "--%s: '%s' is %s (expected an integer %llu..%llu)", o->name, v,
			    rc == -EINVAL ? "not an integer" : "out of range", o->lo, o->hi);
	if (o->kind == OPT_UINT)
		*(unsigned *)((char *)dst + o->field) = (unsigned)n;
	else if (o->kind == OPT_INT)
		*(int *)((char *)dst + o->field) = (int)n;
	else
		*(uint64_t *)((char *)dst + o->field) = n;
	return 0;
}

static int set_value(const struct opt *o, const char *v, struct options *dst, char *err, size_t errlen)
{
	switch (o->kind) {
	case OPT_SIZE:
		return set_size(o, v, dst, err, errlen);
	case OPT_SPACING: {
		int rc = set_size(o, v, dst, err, errlen);
		size_t s = dst->spacing_bytes;

		if (rc)
			return rc;
		if (s < o->lo || s > o->hi || (s & (s - 1)))
			return usage_fail(err, errlen, "--%s: '%s' is not a power of two from 8 to 2MiB "
				    "(expected e.g. 8, 64, 4096)", o->name, v);
		return 0;
	}
	case OPT_UINT:
	case OPT_INT:
	case OPT_U64:
		return set_integer(o, v, dst, err, errlen);
	case OPT_STRING:
		if (!*v)
			return usage_fail(err, errlen, "--%s: empty value (expected %s)", o->name, o->arg);
		*(const char **)((char *)dst + o->field) = v;
		return 0;
	case OPT_PAGES:
		if (!strcmp(v, "small"))
			dst->pages = PAGES_CHOICE_SMALL;
		else if (!strcmp(v, "huge"))
			dst->pages = PAGES_CHOICE_HUGE;
		else if (!strcmp(v, "both"))
			dst->pages = PAGES_CHOICE_BOTH;
		else
			return usage_fail(err, errlen, "--%s: '%s' is not a page kind (expected small, huge or both)",
				    o->name, v);
		return 0;
	case OPT_FLAG:
	case OPT_HELP:
	case OPT_VERSION:
		break;
	}
	return 0;
}

static const struct opt *find_opt(const char *name, size_t len)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strlen(opts[i].name) == len && !strncmp(opts[i].name, name, len))
			return &opts[i];
	return NULL;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
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
	o->command = registry[0];  /* the full report */
	o->spacing_bytes = 64;
	o->pages = PAGES_CHOICE_HUGE;
	o->max_lanes = 64;
	o->accesses = 1u << 18;
	o->seed = 1;
	o->cpu = -1;
}

/* An output the command cannot write is refused, not silently dropped:
 * each registry row says which it writes. */
static int check_outputs_apply(const struct options *o, char *err, size_t errlen)
{
	static const struct {
		unsigned bit;
		const char *flag;
		size_t field;
	} outs[] = {
		{SECTION_OUT_JSON, "--json", F(json_path)},
		{SECTION_OUT_HTML, "--html", F(html_path)},
		{SECTION_OUT_SVG, "--svg", F(svg_dir)},
		{SECTION_OUT_CSV, "--csv", F(csv_dir)},
		{SECTION_OUT_PROM, "--prom", F(prom_path)},
	};
	unsigned can = o->command->outputs;

	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++)
		if (*(const char *const *)((const char *)o + outs[i].field) && !(can & outs[i].bit))
			return usage_fail(err, errlen, "%s: %s writes no such file (expected %s)", outs[i].flag,
				    command_name(o), (can & (SECTION_OUT_HTML | SECTION_OUT_SVG)) ?
				    "--html FILE or --svg DIR" : "its text on stdout only");
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
		/* `app bzip2 FILE.bz2`: the one kernel that takes a file. */
		if (o->npaths == 1 && !strcmp(o->command->name, "app") && !strcmp(o->paths[0], "bzip2")) {
			o->paths[o->npaths++] = a;
			return 0;
		}
		if (o->npaths)
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

/* Whether the space-separated list holds word. */
static bool list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *at = strstr(list, word); at; at = strstr(at + 1, word))
		if ((at == list || at[-1] == ' ') && (at[n] == ' ' || at[n] == 0))
			return true;
	return false;
}

/* Who takes option k: the sections that declare it (their .options, or
 * .options_alone when asked for by name), written into takers; in_report
 * when the full report takes it through one of its rows. False when no
 * section declares it: an option every command shares (outputs, --cpu). */
static bool option_takers(size_t k, char *takers, size_t len, bool *in_report)
{
	size_t used = 0;

	takers[0] = 0;
	*in_report = false;
	for (size_t i = 0; i < registry_count; i++)
		if ((registry[i]->options && list_has(registry[i]->options, opts[k].name)) ||
		    (registry[i]->options_alone && list_has(registry[i]->options_alone, opts[k].name))) {
			*in_report |= registry[i]->in_report && registry[i]->options &&
				      list_has(registry[i]->options, opts[k].name);
			used += (size_t)snprintf(takers + used, used < len ? len - used : 0, "%s%s", used ? " " : "",
						 registry[i]->name);
		}
	return used > 0;
}

/* Whether command c honours option k (NULL: every command's help). */
static bool option_applies(size_t k, const struct section *c)
{
	char takers[128];
	bool in_report;

	if (!c || !option_takers(k, takers, sizeof(takers), &in_report))
		return true;
	return list_has(takers, c->name) || (in_report && c->kind == SECTION_REPORT);
}

/* Options that mean something to a few sections only (each section's
 * .options): given to another command, they would be silently ignored while
 * it measures something else, so they are refused up front like an output a
 * command cannot write. The full report takes its sections' options. */
static int check_options_apply(const struct options *o, const bool *given, char *err, size_t errlen)
{
	for (size_t k = 0; k < NOPTS; k++) {
		char takers[128];
		bool in_report;

		if (!given[k] || option_applies(k, o->command))
			continue;
		option_takers(k, takers, sizeof(takers), &in_report);
		return usage_fail(err, errlen, "--%s: %s takes no such option (expected it with: %s%s)", opts[k].name,
				  command_name(o), in_report ? "report " : "", takers);
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	bool have_command = false, given[NOPTS] = {false};
	int rc;

	set_defaults(o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *val;
		const struct opt *op;

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
		eq = strchr(a + 2, '=');
		op = find_opt(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (!op)
			return usage_fail(err, errlen, "'%.*s' is not an option (see mlpscope --help)",
				    eq ? (int)(eq - a) : (int)strlen(a), a);
		given[op - opts] = true;
		if (op->kind == OPT_FLAG || op->kind == OPT_HELP || op->kind == OPT_VERSION) {
			if (eq)
				return usage_fail(err, errlen, "--%s takes no value", op->name);
			/* --help and --version win over anything after them. */
			if (op->kind == OPT_HELP) {
				o->help_topic = have_command ? command_name(o) : NULL;
				o->command = registry_find("help");
				return 0;
			}
			if (op->kind == OPT_VERSION) {
				o->version = true;
				return 0;
			}
			*(bool *)((char *)o + op->field) = true;
			continue;
		}
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2))
			val = argv[++i];
		else
			return usage_fail(err, errlen, "--%s: missing value (expected --%s %s)", op->name, op->name, op->arg);
		if ((rc = set_value(op, val, o, err, errlen)))
			return rc;
	}
	if (o->command->needs_from && !o->from_path)
		return usage_fail(err, errlen, "%s: --from is required (expected %s)", command_name(o), o->command->usage);
	if ((rc = check_outputs_apply(o, err, errlen)))
		return rc;
	if ((rc = check_options_apply(o, given, err, errlen)))
		return rc;
	/* One directory is many results (compare's fleet table). */
	if (o->command->operands == SECTION_ARGS_MANY && o->npaths < 2 && !(o->npaths == 1 && is_dir(o->paths[0])))
		return usage_fail(err, errlen, "%s: %u file%s given (expected %s)", command_name(o), o->npaths,
			    o->npaths == 1 ? "" : "s", o->command->usage);
	if (o->command->operands == SECTION_ARGS_ONE && !o->npaths)
		return usage_fail(err, errlen, "%s: no %s given (expected %s)", command_name(o), o->command->operand_name,
			    o->command->usage);
	if (o->trials && o->trials % 3)
		return usage_fail(err, errlen, "--trials: '%u' is not a multiple of 3 (expected 3, 6, ... %d)", o->trials,
			    POLICY_TRIALS_MAX);
	o->repeat_given = o->repeat != 0;
	if (!o->repeat)
		o->repeat = o->quick ? POLICY_REPEAT_QUICK : POLICY_REPEAT_DEFAULT;
	return 0;
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

bool cli_option(size_t i, const char **name, const char **arg, const char **help)
{
	if (i >= NOPTS)
		return false;
	*name = opts[i].name;
	*arg = opts[i].arg;
	*help = opts[i].help;
	return true;
}

/* Every option, or those command c honours. */
static void print_options(FILE *f, const struct section *c)
{
	fprintf(f, c ? "options %s takes:\n" : "options:\n", c ? c->name : "");
	for (size_t i = 0; i < NOPTS; i++) {
		char left[40];

		if (!option_applies(i, c))
			continue;
		snprintf(left, sizeof(left), "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
			 opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-20s %s\n", left, opts[i].help);
		/* The general line lists every command's default; here, this one's. */
		if (c && opts[i].field == F(budget_s) && (c->kind == SECTION_MEASURE || c->kind == SECTION_REPORT))
			fprintf(f, "  %-20s %s: %.0f s by default, %.0f s with --quick\n", "", c->name,
				budget_default_s(c->budget, c->kind == SECTION_REPORT, false),
				budget_default_s(c->budget, c->kind == SECTION_REPORT, true));
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
