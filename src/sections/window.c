/*
 * The `window` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: out-of-order structure sizes: reorder buffer, register files,
 * load/store queues, and (opt-in) the L1D miss buffers.
 */
#include "frame/registry.h"

#include "jit/probe.h"
#include "report/window_out.h"
#include "frame/plan.h"
#include "util/jsonw.h"
#include "util/usage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char window_help[] =
	"Two independent pointer chases that miss to DRAM, with N filler instructions\n"
	"after each miss, in a loop generated at run time (mapped writable, then\n"
	"executable; never both). While the second miss fits in the window behind the\n"
	"first one's fillers the two overlap; once it does not, they serialise and an\n"
	"iteration costs about twice as much. N is swept coarsely, then refined; the step\n"
	"and the ramp before it are fitted as flat-ramp-flat and reported as the N on\n"
	"both sides (\"fits at 136, not at 138\"). Fillers and what they fill: nop, mov,\n"
	"zero_idiom, fmov (reorder buffer; the last three are handled at rename, for cores\n"
	"that drop nops), int_add (integer registers), fp_add (FP/vector registers), store\n"
	"(store queue), load_fp (load queue), and store_nop / load_fp_nop (1:1 with nops: a\n"
	"step at twice N means the limit counts stores or loads, not instructions). Opt-in\n"
	"(--fillers miss): miss, loads of fresh lines of the chase arena that miss to DRAM,\n"
	"for the L1D miss buffers; its curve has a knee, not a step (the misses queue for\n"
	"buffers: t = L max(1, (2N + 2) / M)), and M is fitted and checked against the\n"
	"slope past it. A line comes round after one pass of its table (an entry per\n"
	"128 lines of the arena): one still in the last-level cache then holds its buffer\n"
	"for less than a DRAM miss, so a larger --size (e.g. 1G) checks the figure. Each\n"
	"step is repeated at the end (a structure at half its size says a sibling thread\n"
	"was active), and the nop filler's reorder buffer is swept again in the middle\n"
	"and at the end: the report gives the whole and the partitioned ROB with the share\n"
	"of the run each held, and a filler whose step is the ROB's in the same state is\n"
	"marked ROB-bound, its structure not given that size. A summary per structure\n"
	"names the filler its figure comes from and any filler that disagrees. Each ramp is checked against Q/2, where two\n"
	"iterations' fillers together first exceed a limit Q, and the report says for\n"
	"which fillers it holds (on the recorded runs, few). Caveats: the structure\n"
	"names are inferences from what a limit counts, and every filler but miss hits L1,\n"
	"so their steps count entries held by hits only.\n"
	"--dump-code nop:64 > probe.bin writes one probe's machine code for a disassembler.\n"
	"x86-64 and AArch64 only; elsewhere the command says so and exits 0.\n";

/* The options window reads (its --budget through its budget hooks). */
static const struct option_spec window_size_opt = {
	.name = "size", .arg = "SIZE", .kind = OPTION_SIZE,
	.deflt = "the memory set past the last cache, fitted to the budget",
	.help = "working set of the two chases, 4 MiB at least, e.g. 256M",
};
static const struct option_spec window_trials_opt = {
	.name = "trials", .arg = "N", .kind = OPTION_UINT, .lo = 3, .hi = POLICY_TRIALS_MAX, .step = 3,
	.deflt = "15, 6 with --quick; fewer on a short budget", .help = "trials per point, a multiple of 3, 15 at most",
};
static const struct option_spec window_fillers_opt = {
	.name = "fillers", .arg = "LIST", .kind = OPTION_STRING, .deflt = "all but miss",
	.help = "fillers to probe, e.g. nop,store (see help window)",
};
static const struct option_spec window_max_n_opt = {
	.name = "max-n", .arg = "N", .kind = OPTION_UINT, .lo = 16, .hi = 4096, .deflt = "1024",
	.help = "largest filler count swept, 16..4096",
};
static const struct option_spec window_dump_code_opt = {
	.name = "dump-code", .arg = "FILLER:N", .kind = OPTION_STRING,
	.help = "write the generated probe for FILLER at N to stdout and exit",
};

static const struct option_spec *const window_options[] = {
	&window_size_opt, &window_trials_opt, &window_fillers_opt, &window_max_n_opt, &window_dump_code_opt,
	&option_seed, &option_budget, NULL,
};

/* "nop,store" -> a filler bit mask. */
static int parse_fillers(const char *list, unsigned *mask, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	*mask = 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		enum probe_filler f;

		if (probe_filler_parse(name, &f))
			return usage_fail(err, errlen, "--fillers: '%s' is not a filler (expected a comma-separated "
				    "list of nop, mov, zero_idiom, fmov, int_add, fp_add, store, load_fp, store_nop, "
				    "load_fp_nop, miss)", name);
		*mask |= 1u << f;
	}
	if (!*mask)
		return usage_fail(err, errlen, "--fillers: '%s' names no filler (expected e.g. nop,store)", list);
	return 0;
}

/* "nop:64" -> filler and count. */
static int parse_dump_spec(const char *spec, enum probe_filler *filler, unsigned *count, char *err, size_t errlen)
{
	char name[64];
	const char *colon = strchr(spec, ':');
	char *end;
	unsigned long n;

	if (!colon || (size_t)(colon - spec) >= sizeof(name))
		return usage_fail(err, errlen, "--dump-code: '%s' is not FILLER:N (expected e.g. nop:64)", spec);
	snprintf(name, sizeof(name), "%.*s", (int)(colon - spec), spec);
	n = strtoul(colon + 1, &end, 10);
	if (probe_filler_parse(name, filler))
		return usage_fail(err, errlen, "--dump-code: '%s' is not a filler (expected nop, int_add, fp_add, "
			    "store, load_fp, store_nop, load_fp_nop or miss)", name);
	if (colon[1] < '0' || colon[1] > '9' || *end || n > 4096)
		return usage_fail(err, errlen, "--dump-code: '%s' is not FILLER:N with N in 0..4096 (expected e.g. nop:64)",
			    spec);
	*count = (unsigned)n;
	return 0;
}

static int window_section_plan(struct section_run *s, char *err, size_t errlen)
{
	const struct options *o = s->o;
	const char *fillers = option_text(o, &window_fillers_opt), *dump = option_text(o, &window_dump_code_opt);
	unsigned trials = (unsigned)option_number(o, &window_trials_opt), mask, n;
	size_t size_bytes = option_number(o, &window_size_opt);
	enum probe_filler f;

	if (size_bytes && size_bytes < WINDOW_MIN_BYTES)
		return usage_fail(err, errlen, "--size: window's chases need at least 4 MiB, far beyond the last-level "
			    "cache (expected e.g. 256M)");
	if (trials > POLICY_WINDOW_TRIALS_MAX)
		return usage_fail(err, errlen, "--trials: '%u' is too many for window (expected 3, 6, ... %d)", trials,
			    POLICY_WINDOW_TRIALS_MAX);
	if (fillers && parse_fillers(fillers, &mask, err, errlen))
		return 2;
	if (dump && parse_dump_spec(dump, &f, &n, err, errlen))
		return 2;
	return 0;
}

/* --dump-code: raw machine code of one probe, for a disassembler. */
static int window_section_instead(struct section_run *s)
{
	const char *dump = option_text(s->o, &window_dump_code_opt);
	enum probe_filler filler;
	unsigned n;
	int rc;

	/* The plan hook has refused a malformed spec already. */
	if (!dump || parse_dump_spec(dump, &filler, &n, NULL, 0))
		return -1;
	if (isatty(STDOUT_FILENO)) {
		snprintf(s->err, sizeof(s->err), "--dump-code: refusing to write machine code to a terminal "
			 "(expected a redirect, e.g. > probe.bin)");
		return 2;
	}
	rc = window_dump_code(filler, n, stdout);
	if (rc == -ENOTSUP) {
		snprintf(s->err, sizeof(s->err), "window: the probe is unsupported on this ISA (x86-64 and AArch64 only)");
		return 0;
	}
	if (rc || fflush(stdout)) {
		snprintf(s->err, sizeof(s->err), "--dump-code: %s", strerror(rc ? -rc : errno));
		return 1;
	}
	return 0;
}

/* window's settings in the plan (budget.h): the set, the trials and the
 * loop iterations per timed region. */
struct window_knobs {
	size_t bytes;
	unsigned trials, iters;
};
_Static_assert(sizeof(struct window_knobs) <= BUDGET_KNOB_BYTES, "window's knobs fit their slot");

/* Iterations per region: the default, and the fewest the budget goes to
 * (2048 iterations of two misses each are still 0.3 ms or more a region,
 * a hundred times the clock's minimum on every machine we met). */
#define WINDOW_ITERS_DEFAULT 8192
#define WINDOW_ITERS_MIN 2048

static void window_defaults(const struct budget *b, void *knobs)
{
	*(struct window_knobs *)knobs = (struct window_knobs){.bytes = b->memory_set_bytes, .trials = b->quick ? 6 : 15,
							      .iters = WINDOW_ITERS_DEFAULT};
}

/* Points per filler (coarse, refined around the step and the ramp,
 * repeated: 47-85, about 62 on average on one recorded guest, 51 on another
 * recorded guest; docs/VALIDATION.md), and the fillers with the reorder buffer's middle and end
 * checks (two more nop sweeps). */
#define WINDOW_PRICED_POINTS 62.0
#define WINDOW_PRICED_SWEEPS 12.0

static double window_price(const struct budget *b, const void *knobs, size_t *peak)
{
	const struct window_knobs *k = knobs;
	const struct cost_facts *f = &b->facts;
	/* Each point: an untimed visit of an eighth of a region, then its
	 * trials, each iters iterations at about 1.35 DRAM misses (two
	 * overlapped, or serialised past the step), times 2.2 for what a
	 * region costs past its misses (the fillers, the probe's code): fitted
	 * on one recorded guest at 6 trials of 8192 and of 2048 iterations (19.8
	 * and 3.5 s at a 151-157 ns miss); generating a probe is lost in it. */
	double visits = k->trials + 0.125;
	double per_point = visits * k->iters * 1.35 * f->rates.dram_ns * 2.2 / 1e9;
	double sweep = WINDOW_PRICED_SWEEPS * WINDOW_PRICED_POINTS * per_point;

	*peak = k->bytes + k->bytes / 16;
	return cost_build_s(f, k->bytes / 64) + sweep;
}

/* Halve the iterations per region, down to WINDOW_ITERS_MIN: every point
 * keeps its trials (the section's own floor comes from their groups). */
static bool shrink_iters(struct budget *b, struct budget_section *s)
{
	struct window_knobs *k = BUDGET_KNOBS(s, struct window_knobs);

	if (k->iters / 2 < WINDOW_ITERS_MIN)
		return false;
	budget_note_count(b, "window iterations per region", k->iters, k->iters / 2, "");
	k->iters /= 2;
	return true;
}

static const struct budget_hooks window_budget = {
	.alone_budget_s = 20.0, .defaults = window_defaults, .price = window_price,
	BUDGET_SET(struct window_knobs, bytes, BUDGET_SET_SIZE | BUDGET_SET_MEMORY),
	BUDGET_STEPS(BUDGET_STEP_DOWN(11, struct window_knobs, trials, 6, 3, "window trials"),
		     {.rank = 17, .fn = shrink_iters}),
	BUDGET_FIELDS(JSONW_FIELD(UINT, "window_bytes", struct window_knobs, bytes),
		      JSONW_FIELD(UINT, "window_trials", struct window_knobs, trials),
		      JSONW_FIELD(UINT, "window_iters", struct window_knobs, iters)),
};

static int window_section_run(struct section_run *s, void *result)
{
	const struct window_knobs *k = section_knobs_of(s, &window_budget);
	const struct options *o = s->o;
	struct window_params wp;
	int rc;

	window_params_default(&wp, topo_largest_cache_bytes(&s->r->topo), &s->r->clock, s->stop);
	if (k) {
		wp.working_set_bytes = k->bytes;
		wp.trials = k->trials;
		wp.iters = k->iters;
	}
	if (option_number(o, &window_size_opt))
		wp.working_set_bytes = s->plan->working_set_bytes;
	if (option_number(o, &window_trials_opt))
		wp.trials = option_number(o, &window_trials_opt);
	if (option_number(o, &window_max_n_opt))
		wp.max_n = option_number(o, &window_max_n_opt);
	if (option_text(o, &window_fillers_opt))
		parse_fillers(option_text(o, &window_fillers_opt), &wp.filler_mask, NULL, 0);
	wp.seed = o->seed;
	wp.run_floor_pct = report_run_floor_pct(s->r);
	wp.progress = s->progress;
	wp.progress_ctx = s;
	s->label = "window";
	rc = window_run(&wp, result);
	section_progress_done(s);
	if (rc == -ENOTSUP) {
		result_warn(s->r, "window: the probe is unsupported on this ISA (x86-64 and AArch64 only)");
		return 1;
	}
	return rc;
}

const struct section section_window = {
	.name = "window",
	.options = window_options,
	.summary = "out-of-order structure sizes: reorder buffer, register files, load/store queues",
	.help = window_help, .kind = SECTION_MEASURE, .in_report = false,
	.outputs = SECTION_OUT_ALL, .result_bytes = sizeof(struct window_result), .needs = "noise",
	.budget = &window_budget, .plan = window_section_plan, .instead = window_section_instead, .run = window_section_run,
	.write_text = window_write_text, .write_json = window_write_json,
	.write_csv = window_write_csv,
	.view = &view_window,
};
