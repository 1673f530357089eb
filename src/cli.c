/*
 * The option table, size/suffix parsing and help text. Every bad argument is
 * refused here, before anything is mapped or measured, with a message of one
 * form: "--flag: 'value' <what is wrong> (expected <accepted form>)".
 */
#include "cli.h"

#include "exp/app.h"
#include "kern/lanes.h"
#include "textgen.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum opt_kind { OPT_SIZE, OPT_UINT, OPT_U64, OPT_INT, OPT_STRING, OPT_FLAG, OPT_PAGES, OPT_SPACING };

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
	 "                       (default: max(1 GiB, 2x largest reported cache))"},
	{"spacing", "BYTES", OPT_SPACING, F(spacing_bytes), 8, 2u << 20,
	 "bytes between chain nodes, a power of two from 8 to 2MiB (default 64: one node per line)"},
	{"pages", "KIND", OPT_PAGES, F(pages), 0, 0, "page backing to request: small, huge or both (default huge)"},
	{"max-lanes", "N", OPT_UINT, F(max_lanes), 1, LANES_MAX, "largest lane count swept, 1..128 (default 64)"},
	{"repeat", "N", OPT_UINT, F(repeat), 1, 16, "sweeps per run, compared for agreement, 1..16 (default 3; 1 with --quick)"},
	{"trials", "N", OPT_UINT, F(trials), 3, 30,
	 "trials per point per sweep, a multiple of 3 (default 6; window 15 at most)"},
	{"accesses", "N", OPT_SIZE, F(accesses), 1024, 1ull << 30,
	 "logical accesses per timed region, 1024..1Gi (default 256Ki)"},
	{"seed", "N", OPT_U64, F(seed), 0, UINT64_MAX, "permutation seed (default 1)"},
	{"cpu", "N", OPT_INT, F(cpu), 0, 1023, "CPU to pin to (default: first allowed)"},
	{"html", "FILE", OPT_STRING, F(html_path), 0, 0,
	 "also write one self-contained HTML report with plots (whole or not at all)"},
	{"svg", "DIR", OPT_STRING, F(svg_dir), 0, 0, "also write the plots alone, one SVG file each, into DIR"},
	{"csv", "DIR", OPT_STRING, F(csv_dir), 0, 0, "also write one tidy CSV per table into DIR"},
	{"threads", "N", OPT_UINT, F(threads), 1, 1024,
	 "bandwidth, multicore, loaded: at most N threads, one per CPU (default: every allowed CPU)"},
	{"json", "FILE", OPT_STRING, F(json_path), 0, 0, "also write the result as JSON to FILE (whole or not at all)"},
	{"fillers", "LIST", OPT_STRING, F(fillers), 0, 0,
	 "window: fillers to probe, e.g. nop,store (default: all; see help window)"},
	{"max-n", "N", OPT_UINT, F(max_n), 16, 4096, "window: largest filler count swept, 16..4096 (default 1024)"},
	{"dump-code", "FILLER:N", OPT_STRING, F(dump_code), 0, 0,
	 "window: write the generated probe for FILLER at N to stdout and exit"},
	{"from", "FILE", OPT_STRING, F(from_path), 0, 0,
	 "model, trace: take L, Q and B from this mlpscope JSON result"},
	{"text", "FILE", OPT_STRING, F(text_path), 0, 0, "app bwt: invert this file (1 byte up to the memory check's limit)"},
	{"input", "KIND", OPT_STRING, F(input), 0, 0,
	 "app bwt: generated input, random, markov (text-like) or repeat (default markov)"},
	{"bzip2", NULL, OPT_FLAG, F(bzip2), 0, 0, "app bwt: one bzip2-sized block, 900,000 bytes (a 3.6 MB table)"},
	{"quick", NULL, OPT_FLAG, F(quick), 0, 0, "a shorter run: working set 8x the largest cache, one mlp sweep, coarser latency, fewer trials"},
	{"help", NULL, OPT_FLAG, 0, 0, 0, "this help"},
	{"version", NULL, OPT_FLAG, 0, 0, 0, "print the version"},
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const char size_form[] = "N[K|M|G|T][i][B], e.g. 1G or 512MiB";

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return 2;
}

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
		return fail(err, errlen, "--%s: '%s' must be greater than zero (expected %s)", o->name, v, size_form);
	if (rc == -ERANGE)
		return fail(err, errlen, "--%s: '%s' is too large (expected %s)", o->name, v, size_form);
	if (rc)
		return fail(err, errlen, "--%s: '%s' is not a size (expected %s)", o->name, v, size_form);
	if (o->hi && (bytes < o->lo || bytes > o->hi))
		return fail(err, errlen, "--%s: '%s' is out of range (expected %llu..%llu)", o->name, v,
			    o->lo, o->hi);
	*(size_t *)((char *)dst + o->field) = bytes;
	return 0;
}

static int set_integer(const struct opt *o, const char *v, struct options *dst, char *err, size_t errlen)
{
	unsigned long long n;
	int rc = parse_uint(v, &n);

	if (rc || n < o->lo || n > o->hi)
		return fail(err, errlen, "--%s: '%s' is %s (expected an integer %llu..%llu)", o->name, v,
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
			return fail(err, errlen, "--%s: '%s' is not a power of two from 8 to 2MiB "
				    "(expected e.g. 8, 64, 4096)", o->name, v);
		return 0;
	}
	case OPT_UINT:
	case OPT_INT:
	case OPT_U64:
		return set_integer(o, v, dst, err, errlen);
	case OPT_STRING:
		if (!*v)
			return fail(err, errlen, "--%s: empty value (expected %s)", o->name, o->arg);
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
			return fail(err, errlen, "--%s: '%s' is not a page kind (expected small, huge or both)",
				    o->name, v);
		return 0;
	case OPT_FLAG:
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

/* The command table drives dispatch names, the usage list and `help CMD`. */
struct command_desc {
	const char *name;
	enum command command;
	const char *summary;
	const char *help;
};

static const struct command_desc commands[] = {
	{"report", CMD_REPORT, "the full report (default): every section below, in order",
	 "Runs every measuring section in order and writes one text report (and, with\n"
	 "--json, one JSON document): machine, noise, latency, mlp, bandwidth,\n"
	 "multicore, loaded. window runs on its own (about 20 s more). --quick keeps a\n"
	 "useful report short: a working set of 8x the largest reported cache (at least\n"
	 "256 MiB), one mlp sweep, a coarser latency curve, fewer trials.\n"},
	{"machine", CMD_MACHINE, "what this machine permits: CPU, caches, pages, timer, core clock, PMU",
	 "Identifies the CPU (model, family/model/stepping, relevant ISA features), lists\n"
	 "the caches as sysfs and the CPU itself (CPUID, CTR_EL0) report them and where they\n"
	 "disagree, the page sizes, THP mode and hugetlb pools, the timer, and a core-clock\n"
	 "range timed with a chain of dependent adds (never /proc/cpuinfo alone). It probes\n"
	 "the PMU: whether perf_event_open can count cycles (the errno when not), the\n"
	 "paranoid level, and user-space RDPMC executed in a forked child, reporting the\n"
	 "signal it died of. It then says which claims follow: with no PMU, misses cannot\n"
	 "be counted and every figure is bounded by timing.\n"},
	{"noise", CMD_NOISE, "the instrument's own noise floor: the spread of its estimators",
	 "Times a short L1-resident chase min-of-3, 14 times, and reports the spread of\n"
	 "those minima (the estimator's noise floor) next to the spread of the single runs.\n"
	 "Then compares an L1-resident and an L2-resident chase by four estimators: each\n"
	 "arm alone, the ratio of minima, and the paired ratio (divide inside each\n"
	 "iteration, then take the minimum, so clock drift cancels in each quotient). The\n"
	 "widest spread is this run's tolerance; which estimator is steadiest changes\n"
	 "with how hard the clock moves, so none is asserted.\n"},
	{"latency", CMD_LATENCY, "latency across the hierarchy: random chase vs +64 B stream, small vs huge pages",
	 "Working sets from 4 KiB to --size (default 1 GiB), about four per octave and\n"
	 "denser near the reported cache sizes, each measured as a dependent random chase\n"
	 "(latency) and as a +64 B sequential chain (a stream the prefetcher can follow):\n"
	 "their ratio is the prefetcher's effect, by subtraction. The largest sizes also\n"
	 "run on small pages: small minus huge is translation cost, by subtraction, with\n"
	 "the backing obtained for both. Sizes are visited round-robin across trials. The\n"
	 "layout check runs at every size; levels are detected from the curve and set\n"
	 "beside the OS-reported sizes; a curve that falls where it must rise is flagged.\n"},
	{"mlp", CMD_MLP, "memory-level parallelism: K lanes of dependent loads",
	 "Builds one random cycle (Sattolo) through a working set far larger than the\n"
	 "last-level cache, one node per --spacing bytes, and walks it with K independent\n"
	 "lanes of dependent loads. Total accesses per timed region are held fixed while\n"
	 "K sweeps 1, 2, 3...; time per access falls as L/K until a resource saturates.\n\n"
	 "Reported per K: time per access (the reciprocal of throughput, not a latency),\n"
	 "speedup and concurrency t(1)/t(K) (Little's law), bandwidth as useful bytes\n"
	 "(8 B/access) and as lines (an assumption), and a control arm (one chain unrolled\n"
	 "K times). Estimate: a fit of t(K) = max(L/K, L/Ks) with an uncertainty from this\n"
	 "run's noise floor, the peak concurrency seen, and the older 5%/1% rules.\n"
	 "The chain is walked once before timing and must visit every node and line\n"
	 "exactly once; the page backing reported is the one obtained (smaps).\n"},
	{"bandwidth", CMD_BANDWIDTH, "sequential read/write/copy bandwidth per thread and in total; random-access efficiency",
	 "Streams a working set far beyond the last-level cache with scalar and the widest\n"
	 "vector kernels this CPU runs (chosen at run time): read, write, copy, and\n"
	 "non-temporal stores where the ISA has them, on 1, 2, 4 ... --threads threads\n"
	 "pinned one per CPU. Decimal GB/s of the bytes the kernel names; a store's\n"
	 "read-for-ownership traffic is not counted (the report says so). Then the\n"
	 "efficiency of random access at node spacings 8, 64, 128 and 4096 B: useful bytes\n"
	 "per access against the lines (and page-walk share, from small vs huge pages)\n"
	 "the memory system must move, labelled a model: nothing counts the bytes.\n"},
	{"multicore", CMD_MULTICORE, "the lanes sweep on T threads at once: total concurrency against K and T",
	 "Runs the mlp lanes sweep on 1, 2, 4 ... --threads threads at once, each pinned to\n"
	 "its own CPU with its own chain in its own arena: the aggregate access rate (all\n"
	 "accesses over the team's common span) and the total concurrency (that rate times\n"
	 "one thread's t(1), by Little's law) against K and T, and where the shared memory\n"
	 "system saturates.\n"},
	{"loaded", CMD_LOADED, "latency under load: one chaser while other threads generate traffic",
	 "One pinned thread runs the dependent chase while the others generate read (and\n"
	 "read/write) traffic, throttled by an injection delay swept from none to idle.\n"
	 "Output: the idle latency, latency against delivered bandwidth, and the bandwidth\n"
	 "at which latency doubles (or that it was not reached). Needs 2 CPUs.\n"},
	{"window", CMD_WINDOW, "out-of-order structure sizes: reorder buffer, register files, load/store queues",
	 "Two independent pointer chases that miss to DRAM, with N filler instructions\n"
	 "after each miss, in a loop generated at run time (mapped writable, then\n"
	 "executable; never both). While the second miss fits in the window behind the\n"
	 "first one's fillers the two overlap; once it does not, they serialise and an\n"
	 "iteration costs about twice as much. N is swept coarsely, then refined; the step\n"
	 "and the ramp before it are fitted as flat-ramp-flat and reported as the N on\n"
	 "both sides (\"fits at 136, not at 138\"). Fillers and what they fill: nop (reorder\n"
	 "buffer), int_add (integer registers), fp_add (FP/vector registers), store (store\n"
	 "queue), load_fp (load queue), and store_nop / load_fp_nop (1:1 with nops: a step\n"
	 "at twice N means the limit counts stores or loads, not instructions).\n"
	 "--dump-code nop:64 > probe.bin writes one probe's machine code for a disassembler.\n"
	 "x86-64 and AArch64 only; elsewhere the command says so and exits 0.\n"},
	{"app", CMD_APP, "a real walk as K lanes against the chase curve: mlpscope app bwt",
	 "mlpscope app KERNEL: a real dependent walk run as K interleaved lanes, with the\n"
	 "same total work at every K, against the mlp chase curve measured in the same run\n"
	 "at the same footprint (--size) and page request. Kernels: bwt, the inverse\n"
	 "Burrows-Wheeler walk of a bzip2-style decoder (input --input random|markov|repeat,\n"
	 "--text FILE or --bzip2; suffix array, BWT and table built untimed). Reported per K\n"
	 "and lane form (a runtime-K state array and generated register lanes): items/s,\n"
	 "ns per item and per dependent load, S_app = t(1)/t(K), the chase's S_chase at the\n"
	 "same K, R = S_app/S_chase, knees and Little's-law occupancy, then the line\n"
	 "\"chase predicts S = x at K = k; bwt got y (R = y/x)\". Every run's output is\n"
	 "compared with the input outside the timed region; a mismatch is an error.\n"
	 "Default footprint: 2x the largest reported cache (tables of 64 to 128 MiB are\n"
	 "64 MiB: 32-bit words hold 2^24 rows). --trials N (default 3), --max-lanes caps K.\n"
	 "gather: sum += a[idx[i]] over random indices at the same footprint, the ceiling\n"
	 "control: the loads the core overlaps by itself, with no lanes.\n"},
	{"model", CMD_MODEL, "the bound model: which resource binds each point of a measured lanes curve",
	 "Reads a measured result (--from run.json, required) and takes the latency L,\n"
	 "the concurrency cap Q and the bandwidth B from its mlp section. Prints, per lane\n"
	 "count K, the measured time per access beside the bound\n"
	 "t(K) >= max(L/K, L/Q, bytes/B) and the name of the term that binds (terms within\n"
	 "the run's noise floor are named together). No measurement is made. The model\n"
	 "and the request-stream characteriser behind it are described in docs/MODEL.md.\n"},
	{"trace", CMD_TRACE, "characterise a program's memory trace (valgrind lackey format)",
	 "mlpscope trace FILE [--from run.json]: reads a trace written by\n"
	 "  valgrind --tool=lackey --trace-mem=yes --log-file=FILE prog\n"
	 "and reports its footprint, line-level reuse distances (and so the hit rate an\n"
	 "LRU cache of each size this machine reports would give), stride regularity,\n"
	 "the read/write mix and useful bytes per line delivered. With --from, a lower\n"
	 "bound on the time of its misses under each bound of the model. Malformed lines\n"
	 "are counted and the first few reported with their line numbers; never fatal.\n"
	 "See docs/MODEL.md.\n"},
	{"compare", CMD_COMPARE, "compare results side by side: mlpscope compare A.json B.json [C.json...]",
	 "Reads two to sixteen mlpscope JSON results and prints their headline figures\n"
	 "side by side (latency per level and at the largest size, the MLP estimate,\n"
	 "peak concurrency, read bandwidth, window capacities, idle latency under load)\n"
	 "with ratios to the first. Quantities are compared only where the settings that\n"
	 "define them match; every mismatch is listed with the rows it made skip. With\n"
	 "--html FILE, the curves of all runs on the same axes; with --svg DIR, the plots.\n"
	 "A file that is not mlpscope's, is truncated, or has a newer schema: exit 2.\n"},
	{"help", CMD_HELP, "what a command measures and how (help CMD)", NULL},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command_desc *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static const char *command_name(enum command c)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (commands[i].command == c)
			return commands[i].name;
	return NULL;
}

static int parse_command(const char *word, struct options *o, char *err, size_t errlen)
{
	const struct command_desc *c = find_command(word);
	char list[256];
	size_t used = 0;

	if (c) {
		o->command = c->command;
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", commands[i].name);
	return fail(err, errlen, "'%s' is not a command (expected one of %s; see --help)", word, list);
}

static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->command = CMD_REPORT;
	o->spacing_bytes = 64;
	o->pages = PAGES_CHOICE_HUGE;
	o->max_lanes = 64;
	o->accesses = 1u << 18;
	o->seed = 1;
	o->cpu = -1;
}

/* An output the command cannot write is refused, not silently dropped:
 * model and trace print to stdout only; compare draws (--html, --svg) but
 * makes no result of its own (--json, --csv). */
static int check_outputs_apply(const struct options *o, char *err, size_t errlen)
{
	const char *flag = NULL;

	if (o->command == CMD_MODEL || o->command == CMD_TRACE)
		flag = o->json_path ? "--json" : o->html_path ? "--html" : o->svg_dir ? "--svg" : o->csv_dir ? "--csv" : NULL;
	else if (o->command == CMD_COMPARE)
		flag = o->json_path ? "--json" : o->csv_dir ? "--csv" : NULL;
	if (!flag)
		return 0;
	return fail(err, errlen, "%s: %s writes no such file (expected %s)", flag, command_name(o->command),
		    o->command == CMD_COMPARE ? "--html FILE or --svg DIR" : "its text on stdout only");
}

int cli_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	bool have_command = false;
	int rc;

	set_defaults(o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *val;
		const struct opt *op;

		if (strncmp(a, "--", 2) || !a[2]) {
			if (have_command && o->command == CMD_HELP && !o->help_topic) {
				o->help_topic = a;
				continue;
			}
			if (have_command && o->command == CMD_APP && !o->app_kernel) {
				o->app_kernel = a;
				continue;
			}
			if (have_command && o->command == CMD_TRACE && !o->trace_path) {
				o->trace_path = a;
				continue;
			}
			if (have_command && o->command == CMD_COMPARE) {
				if (o->ncompare == sizeof(o->compare_paths) / sizeof(o->compare_paths[0]))
					return fail(err, errlen, "compare: '%s': more than 16 files (expected 2..16)", a);
				o->compare_paths[o->ncompare++] = a;
				continue;
			}
			if (have_command)
				return fail(err, errlen, "'%s': unexpected argument (options start with --; see --help)", a);
			if ((rc = parse_command(a, o, err, errlen)))
				return rc;
			have_command = true;
			continue;
		}
		eq = strchr(a + 2, '=');
		op = find_opt(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (!op)
			return fail(err, errlen, "'%.*s' is not an option (see mlpscope --help)",
				    eq ? (int)(eq - a) : (int)strlen(a), a);
		if (op->kind == OPT_FLAG) {
			if (eq)
				return fail(err, errlen, "--%s takes no value", op->name);
			/* --help and --version win over anything after them. */
			if (!strcmp(op->name, "help")) {
				o->help_topic = have_command ? command_name(o->command) : NULL;
				o->command = CMD_HELP;
				return 0;
			}
			if (!strcmp(op->name, "version")) {
				o->command = CMD_VERSION;
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
			return fail(err, errlen, "--%s: missing value (expected --%s %s)", op->name, op->name, op->arg);
		if ((rc = set_value(op, val, o, err, errlen)))
			return rc;
	}
	if (o->command == CMD_MODEL && !o->from_path)
		return fail(err, errlen, "model: --from is required (expected mlpscope model --from run.json)");
	if ((rc = check_outputs_apply(o, err, errlen)))
		return rc;
	if (o->command == CMD_COMPARE && o->ncompare < 2)
		return fail(err, errlen, "compare: %u file%s given (expected mlpscope compare A.json B.json [C.json...])",
			    o->ncompare, o->ncompare == 1 ? "" : "s");
	if (o->command == CMD_APP && !o->app_kernel)
		return fail(err, errlen, "app: no kernel given (expected mlpscope app bwt)");
	if (o->command == CMD_APP && app_kernel_find(o->app_kernel))
		return fail(err, errlen, "app: '%s' is not a kernel (expected bwt, hash, search or gather)", o->app_kernel);
	if (o->command == CMD_APP && o->input && textgen_parse(o->input, &(enum textgen_kind){0}))
		return fail(err, errlen, "--input: '%s' is not an input (expected random, markov or repeat)", o->input);
	if (o->command == CMD_APP && !!o->text_path + !!o->input + o->bzip2 > 1)
		return fail(err, errlen, "app: --text, --input and --bzip2 each choose the input (expected one of them)");
	if (o->command == CMD_TRACE && !o->trace_path)
		return fail(err, errlen, "trace: no trace file given (expected mlpscope trace FILE [--from run.json])");
	if (o->trials && o->trials % 3)
		return fail(err, errlen, "--trials: '%u' is not a multiple of 3 (expected 3, 6, ... 30)", o->trials);
	if (!o->repeat)
		o->repeat = o->quick ? 1 : 3;
	return 0;
}

static void print_options(FILE *f)
{
	fprintf(f, "options:\n");
	for (size_t i = 0; i < NOPTS; i++) {
		char left[40];

		snprintf(left, sizeof(left), "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
			 opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-20s %s\n", left, opts[i].help);
	}
}

int cli_print_help(FILE *f, const char *topic)
{
	const struct command_desc *c;

	if (!topic || !strcmp(topic, "help")) {
		fprintf(f, "usage: mlpscope [COMMAND] [OPTIONS]\n\n"
			   "Measures what this machine's memory system can do, and says which quantity\n"
			   "each number is, how noisy it was, and whether the setup was what it claimed.\n\n"
			   "commands:\n");
		for (size_t i = 0; i < NCOMMANDS; i++)
			fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
		fputc('\n', f);
		print_options(f);
		fprintf(f, "\nSizes: K, M, G, T (and Ki, KiB...) are binary; KB, MB, GB are decimal.\n"
			   "Exit status: 0 ok, 1 runtime failure, 2 bad usage, 130 interrupted.\n");
		return 0;
	}
	c = find_command(topic);
	if (!c)
		return -ENOENT;
	fprintf(f, "mlpscope %s: %s\n\n%s\n", c->name, c->summary, c->help);
	print_options(f);
	return 0;
}
