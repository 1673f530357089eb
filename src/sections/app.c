/*
 * The `app` section: its descriptor (sections/list.h names it) and the glue
 * from the options and the plan to its experiment's parameters, and its
 * part in the budget (its settings, their defaults, price and shrink steps).
 * In --help: a real walk as K lanes against the chase curve: app
 * bwt|hash|search|gather|bzip2.
 */
#include "sections/app.h"
#include "frame/registry.h"

#include "bzip2/libbz2_ref.h"
#include "core/team.h"
#include "exp/cache_sizes.h"
#include "exp/app/kernels.h"
#include "exp/app/sais.h"
#include "kern/app_walks.h"
#include "kern/lanes.h"
#include "report/app_bzip2_out.h"
#include "report/app_out.h"
#include "report/mlp_out.h"
#include "sections/latency.h"
#include "frame/plan.h"
#include "util/format.h"
#include "util/jsonw.h"
#include "util/usage.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char app_help[] =
	"mlpscope app KERNEL: a real dependent walk run as K interleaved lanes, the same\n"
	"total work at every K, against the mlp chase curve measured in the same run at\n"
	"the same footprint (--size, default 2x the largest reported cache, 8 to 64\n"
	"MiB) and page request. Reported per K and variant: items/s, ns per item and per\n"
	"dependent load, S_app = t(1)/t(K), the chase's S_chase at the same K,\n"
	"R = S_app/S_chase, knees, the occupancy Little's law infers, and the line\n"
	"\"chase predicts S = x at K = k; KERNEL got y (R = y/x)\". Setup is timed apart;\n"
	"every run's output is checked outside the timed region and a mismatch is an\n"
	"error.\n"
	"  bwt     the inverse Burrows-Wheeler walk a bzip2 decoder makes, on a BWT this\n"
	"          kernel builds itself (no bzip2 data is decoded): input --input\n"
	"          random|markov|repeat, --text FILE or --bzip2 (900,000 bytes of markov\n"
	"          text, bzip2's largest block size);\n"
	"          own suffix array (SA-IS), bzip2's T-vector table, K segments with exact\n"
	"          start rows in lockstep; a runtime-K state array and generated register\n"
	"          lanes (make app-spills counts their stack accesses). Tables of 64 to\n"
	"          128 MiB are 64 MiB: 32-bit words hold 2^24 rows. Each swept walk\n"
	"          decodes 4 Mi rows whatever the table (checked row by row).\n"
	"  hash    chained probes: an AMAC ring of K lookups and K lockstep lookups\n"
	"          against the plain loop, hit fractions 1.0 and 0.5; linear probing as\n"
	"          the control.\n"
	"  search  lower_bound of K queries in lockstep over a sorted array and its\n"
	"          Eytzinger layout, with and without prefetch.\n"
	"  gather  sum += a[idx[i]]: independent loads, the ceiling the core reaches by\n"
	"          itself.\n"
	"  bzip2 [FILE.bz2]  our own bzip2 decoder over the whole file (default: 8 MB of\n"
	"          generated text compressed at run time by libbz2 at level 9), every\n"
	"          output checked byte for byte (SHA-256) against libbz2's. The walk\n"
	"          runs as K = 1..32 lanes (--max-lanes) from 4K random start rows\n"
	"          (a first pass of 4K draws, no walk; the cost is one copy of the\n"
	"          block and the longest segment's tail), registers and state\n"
	"          layouts; at K = 8 prefetch next (each lane's next row as soon as\n"
	"          known) and two (the row two lanes on), and a fresh output buffer\n"
	"          per block; prefetch next at K = 16 and 32; at K = 8 prefetch next\n"
	"          the decode stage's paths (Huffman, MTF, CRC, RLE) all plain, then\n"
	"          each alone fast, and all fast with the next group's Huffman\n"
	"          lookups as a lane between this group's MTF steps (two chains on\n"
	"          one core); at K = 16 prefetch next the overlap axes: block\n"
	"          b+1's decode interleaved with block b's walk on one core, and a\n"
	"          scout thread decoding ahead on a second CPU (not a single-thread\n"
	"          figure). Per variant: cold and warm seconds, MB/s, stage times\n"
	"          (decode, table, starts, traversal, assembly, rle, crc), f, s and\n"
	"          1/((1-f)+f/s) beside the measured speedup; the chase at the\n"
	"          table's footprint (4 B x block size, 3.6 MB at level 9), its\n"
	"          S_chase and R = s/S_chase per K, and whether the table is\n"
	"          cache-resident (the latency curve when it ran, else the\n"
	"          reported caches); libbz2 on one thread, bzip2 -dc, lbzip2 -n 1\n"
	"          and 7zz -mmt1 when installed, pinned; 1..--threads block-parallel\n"
	"          workers; the whole decoder as processes (mlpbunzip2 -n1 and -nN\n"
	"          beside bzip2 -dc, lbzip2, 7zz and pbzip2 at 1 and N threads where\n"
	"          installed, N the CPUs allowed up to --threads, and mlpbunzip2\n"
	"          -n1 on each of the N CPUs at once), pinned, in 5 alternated\n"
	"          rounds (3 with --quick or to fit --budget): median, min and max\n"
	"          wall, CPU-s per GB, peak RSS, each output checked once; where\n"
	"          valgrind is installed, the decoder's instructions per BWT row by\n"
	"          stage (Cachegrind, mlpbunzip2 -n1 over one fixed block of\n"
	"          generated text: the same every run). A FILE's run\n"
	"          fits --budget: fewer variants, two trials, three rounds, then a\n"
	"          prefix of its blocks, saying what shrank.\n"
	"          The T-vector lies in an arena of --pages (default huge; the\n"
	"          backing obtained read from smaps per variant); with --pages\n"
	"          both, K=1 and the axes' walk also on small pages: translation.\n"
	"          Bad input: one line naming file, block and byte, exit 2.\n"
	"The full report runs bwt on one 900,000-byte block of generated markov text\n"
	"(the --bzip2 preset), which fits a cache (its budget\n"
	"cannot hold a walk past the last cache; app bwt makes one).\n"
	"--trials N (default 3), --max-lanes caps K at 32; with --pages both, huge.\n";

#define APP_MIN_DEFAULT_FOOTPRINT ((size_t)8 << 20)

#define APP_MAX_DEFAULT_FOOTPRINT ((size_t)64 << 20)

#define APP_BZIP2_BLOCK_BYTES 900000

/* app alone's budget by default (its budget hooks' alone_budget_s). */
#define APP_ALONE_BUDGET_S 60.0
/* What app bzip2 takes beside its experiment: the chase at the table's
 * footprint and the start (0.3-2 s measured on one recorded guest). */
#define APP_BZIP2_BESIDE_S 8.0
#define APP_BZIP2_CHASE_S 1.0

/* The options app reads (the bzip2 axes only when asked for by name: the
 * full report's short form ignores them), and what it makes of them;
 * --pages reaches it through the plan, --budget through its hooks. */
static const struct option_spec app_size_opt = {
	.name = "size", .arg = "SIZE", .kind = OPTION_SIZE, .deflt = "2x the largest cache, 8 to 64 MiB",
	.help = "the walked structure's bytes (bwt, hash, search, gather)",
};
static const struct option_spec app_pages_opt = {
	.name = "pages", .arg = "KIND", .kind = OPTION_PAGES, .value = PLAN_PAGES_DEFAULT, .deflt = "huge",
	.help = "page backing to request: small, huge or both (the walks use the last)",
};
static const struct option_spec app_max_lanes_opt = {
	.name = "max-lanes", .arg = "N", .kind = OPTION_UINT, .lo = 1, .hi = LANES_MAX, .value = APP_K_MAX,
	.deflt = "32", .help = "largest lane count K swept, 1..128 (the walks stop at 32)",
};
static const struct option_spec app_trials_opt = {
	.name = "trials", .arg = "N", .kind = OPTION_UINT, .lo = 3, .hi = POLICY_TRIALS_MAX, .step = 3,
	.deflt = "3", .help = "trials per point, a multiple of 3, 15 at most",
};
static const struct option_spec app_threads_opt = {
	.name = "threads", .arg = "N", .kind = OPTION_UINT, .lo = 1, .hi = 1024, .deflt = "every allowed CPU",
	.help = "bzip2: at most N block-parallel workers, 16 at most", .field = offsetof(struct options, threads),
};
static const struct option_spec app_text_opt = {
	.name = "text", .arg = "FILE", .kind = OPTION_STRING,
	.help = "bwt: invert this file (1 byte up to the memory check's limit)",
};
static const struct option_spec app_input_opt = {
	.name = "input", .arg = "KIND", .kind = OPTION_STRING, .deflt = "markov",
	.help = "bwt: generated input, random, markov (text-like) or repeat",
};
static const struct option_spec app_bzip2_opt = {
	.name = "bzip2", .kind = OPTION_FLAG,
	.help = "bwt: generated markov text at bzip2's block size, 900,000 bytes (a 3.6 MB table)",
};
static const struct option_spec app_lanes_opt = {
	.name = "lanes", .arg = "K", .kind = OPTION_UINT, .lo = 1, .hi = 32, .alone = true,
	.deflt = "1..32 by powers of two", .help = "bzip2: only this lane count beside K=1, 1..32",
};
static const struct option_spec app_segments_opt = {
	.name = "segments", .arg = "S", .kind = OPTION_UINT, .lo = 1, .hi = 4096, .alone = true, .deflt = "4K",
	.help = "bzip2: start rows per block, K..4096",
};
static const struct option_spec app_layout_opt = {
	.name = "layout", .arg = "KIND", .kind = OPTION_STRING, .alone = true, .deflt = "both",
	.help = "bzip2: lane state in registers or a state array",
};
static const struct option_spec app_prefetch_opt = {
	.name = "prefetch", .arg = "KIND", .kind = OPTION_STRING, .alone = true, .deflt = "off; next and two at K=8",
	.help = "bzip2: off, next or two",
};
static const struct option_spec app_output_buffer_opt = {
	.name = "output-buffer", .arg = "KIND", .kind = OPTION_STRING, .alone = true,
	.deflt = "reused; fresh at K=8 and K=1", .help = "bzip2: reused across blocks or fresh per block",
};

static const struct option_spec app_predictions_opt = {
	.name = "predictions", .arg = "FILE", .kind = OPTION_STRING, .alone = true,
	.help = "bzip2: expected figures written before the run, one AXIS FIGURE HYPOTHESIS a line, each judged "
		"supported, contradicted or inconclusive against the run's floor",
};

static const struct option_spec *const app_options[] = {
	&app_size_opt, &app_pages_opt, &app_max_lanes_opt, &app_trials_opt, &app_threads_opt, &app_text_opt,
	&app_input_opt, &app_bzip2_opt, &option_seed, &option_budget, &app_lanes_opt, &app_segments_opt,
	&app_layout_opt, &app_prefetch_opt, &app_output_buffer_opt, &app_predictions_opt, NULL,
};

/* app's options as its functions read them (0 or NULL: not given). */
struct app_settings {
	size_t size_bytes;
	unsigned max_lanes, trials, lanes, segments;
	const char *text_path, *input, *layout, *prefetch, *output_buffer, *predictions_path;
	bool bzip2;
};

static struct app_settings app_settings_of(const struct options *o)
{
	return (struct app_settings){
		.size_bytes = option_number(o, &app_size_opt),
		.max_lanes = (unsigned)option_number(o, &app_max_lanes_opt),
		.trials = (unsigned)option_number(o, &app_trials_opt),
		.lanes = (unsigned)option_number(o, &app_lanes_opt),
		.segments = (unsigned)option_number(o, &app_segments_opt),
		.text_path = option_text(o, &app_text_opt),
		.input = option_text(o, &app_input_opt),
		.layout = option_text(o, &app_layout_opt),
		.prefetch = option_text(o, &app_prefetch_opt),
		.output_buffer = option_text(o, &app_output_buffer_opt),
		.predictions_path = option_text(o, &app_predictions_opt),
		.bzip2 = option_flag(o, &app_bzip2_opt),
	};
}

/* `app bzip2 FILE.bz2`: the one kernel that takes a file. */
static bool app_takes_another(const struct options *o)
{
	return o->npaths == 1 && !strcmp(o->paths[0], "bzip2");
}

/* `app bzip2`'s price, from its own cost model run at plan time (a probe of
 * the file, or of one block of the generated text): the planner's facts
 * (cache sizes, a DRAM miss) do not say how fast a decoder decodes, and
 * pricing it as the bwt kernel put the plan 0.5-3x off. -1: not planned
 * (another kernel, or `plan --from`, which prices from facts alone). */
static double app_bzip2_planned_s = -1;
/* Of that price, one whole-process round's seconds, and the rounds it was
 * priced at: the budget's step takes rounds off at this price. A file's
 * run fits its own rounds (app_bzip2_fit): no step then. */
static double app_bzip2_round_s;
static unsigned app_bzip2_planned_rounds;
static bool app_bzip2_planned_file;

/* --predictions, read and parsed at plan time: before anything is measured. */
static struct app_bzip2_predictions app_bzip2_predicted;

/* The kernel being planned (app_section_plan), NULL for `plan --from` and
 * the full report: priced as bwt. */
static const char *app_kernel_planned;

/* The kernel: the operand, or bwt (the full report's, and `app` alone's:
 * a command typed without operands measures). */
static const char *app_kernel(const struct options *o)
{
	return o->npaths ? o->paths[0] : "bwt";
}

/* The walked structure's bytes: --size, else 2x the largest cache (the
 * OS's, or the latency curve's where the OS reports none or the curve
 * disproves it), 8 to 64 MiB: past any L3 share a guest gets, and bwt's
 * narrow table holds 2^24 rows, so a larger one only multiplies the suffix
 * sort and the walk (a claimed 260 MiB L3 made it 520 MiB and 4 minutes).
 * In the full report bwt inverts one BWT block of generated text at
 * bzip2's block size (cache-resident, and labelled so) instead. */
static size_t app_footprint(const struct options *o, const struct cache_sizes *c)
{
	const struct app_settings opt = app_settings_of(o);
	size_t fp = 2 * c->largest.bytes;

	if (opt.size_bytes)
		return opt.size_bytes;
	return fp < APP_MIN_DEFAULT_FOOTPRINT ? APP_MIN_DEFAULT_FOOTPRINT : fp > APP_MAX_DEFAULT_FOOTPRINT ? APP_MAX_DEFAULT_FOOTPRINT : fp;
}

/* The L2 and the largest cache app sizes and judges by: the curve's where
 * the same run measured one and the OS is silent or disproved. */
static void app_cache_sizes(const struct section_run *s, struct cache_sizes *c)
{
	struct latency_curve curve;

	cache_sizes_of(&s->r->topo, latency_curve_of(latency_section_result(s->r), &curve), c);
}

/* The full report inverts one BWT block of generated (markov) text at
 * bzip2's largest block size, 900,000 bytes; no bzip2 data is decoded:
 * a walk past the last cache with its chase reference costs about a minute
 * here, which the report's 45 s budget cannot hold; `app bwt` does that. */
static bool app_bzip2(const struct section_run *s)
{
	const struct app_settings opt = app_settings_of(s->o);

	return opt.bzip2 || (!section_asked_for(s, "app") && !opt.text_path);
}

/* The experiment's parameters from the options; budget_s the run's
 * budget (0: none), of which a user's file gets all but what the chase
 * beside it and the start take (a few seconds at a table of 3.6 MB). */
static struct app_bzip2_params app_bzip2_params_of(const struct section_run *s, bool short_form, double budget_s)
{
	const struct options *o = s->o;
	const struct app_settings opt = app_settings_of(o);
	struct app_bzip2_params p = {
		.path = o->npaths > 1 ? o->paths[1] : NULL,
		.default_text_bytes = short_form ? ((size_t)2 << 20) : ((size_t)8 << 20),
		.max_k = opt.max_lanes < 32 ? opt.max_lanes : 32,
		.trials = short_form ? 1 : (opt.trials ? (opt.trials < 15 ? opt.trials : 15) : 3),
		.max_workers = 2,
		.tools = !short_form,
		.count_instructions = !short_form,
		/* The full report's short form has no seconds for processes. */
		.process_rounds = short_form ? 0 : o->quick ? APP_BZ2_PROC_ROUNDS_QUICK : APP_BZ2_PROC_ROUNDS,
		.seed = o->seed,
		.clock = &s->r->clock,
		.stop = s->stop,
		.only_k = short_form ? 0 : opt.lanes,
		.segments = short_form ? 0 : opt.segments,
		.layout = !short_form && opt.layout ? app_bzip2_parse_layout(opt.layout) : -1,
		.prefetch = !short_form && opt.prefetch ? app_bzip2_parse_prefetch(opt.prefetch) : -1,
		.output_fresh = !short_form && opt.output_buffer ? app_bzip2_parse_output(opt.output_buffer) : -1,
		.pages = {s->plan->pages[0], s->plan->pages[1]},
		.npages = (unsigned)s->plan->npages,
	};
	int allowed = team_allowed_cpus(NULL, 0);

	if (p.path && budget_s > 0)
		p.budget_seconds = budget_s - APP_BZIP2_BESIDE_S;
	if (o->threads)
		p.max_workers = o->threads;
	else if (allowed > 0)
		p.max_workers = (unsigned)allowed;
	if (p.max_workers > APP_BZ2_WORKERS_MAX)
		p.max_workers = APP_BZ2_WORKERS_MAX;
	if (short_form && p.max_k > 8)
		p.max_k = 8;
	return p;
}

/* `app bzip2 [FILE.bz2]`: libbz2 is required (the check), and a file is
 * decoded once here so bad input is one line and exit 2 before anything
 * is measured. */
static int app_bzip2_plan(struct section_run *s, char *err, size_t errlen)
{
	const struct options *o = s->o;
	const struct app_settings opt = app_settings_of(o);
	char why[CLI_ERR_LEN];
	struct stat st;
	int rc;

	if (opt.text_path || opt.input || opt.bzip2 || opt.size_bytes)
		return usage_fail(err, errlen, "app bzip2: --text, --input, --bzip2 and --size are bwt's (expected app bzip2 "
			    "[FILE.bz2])");
	if (opt.layout && app_bzip2_parse_layout(opt.layout) < 0)
		return usage_fail(err, errlen, "--layout: '%s' is not a layout (expected registers or state)", opt.layout);
	if (opt.prefetch && app_bzip2_parse_prefetch(opt.prefetch) < 0)
		return usage_fail(err, errlen, "--prefetch: '%s' is not a prefetch policy (expected off, next or two)",
			    opt.prefetch);
	if (opt.output_buffer && app_bzip2_parse_output(opt.output_buffer) < 0)
		return usage_fail(err, errlen, "--output-buffer: '%s' is not a lifetime (expected reused or fresh)",
			    opt.output_buffer);
	if (opt.lanes && opt.layout && app_bzip2_parse_layout(opt.layout) == BZ2_LAYOUT_REGISTERS &&
	    !app_bzip2_registers_k(opt.lanes))
		return usage_fail(err, errlen, "--lanes: '%u' has no registers loop (expected 1, 2, 4, 8, 12, 16, 24 or 32, "
			    "or --layout state)", opt.lanes);
	if (opt.lanes && opt.lanes > opt.max_lanes)
		return usage_fail(err, errlen, "--lanes: '%u' is above --max-lanes %u (expected at most that)", opt.lanes,
			    opt.max_lanes);
	if (opt.segments && opt.lanes && opt.segments < opt.lanes)
		return usage_fail(err, errlen, "--segments: '%u' is fewer than --lanes %u (expected at least K)", opt.segments,
			    opt.lanes);
	if (!bz2_ref_available()) {
		bz2_ref_decode(NULL, 0, NULL, NULL, NULL, 0, why, sizeof(why));
		return usage_fail(err, errlen, "app bzip2: %s: our decoder has nothing to be checked against", why);
	}
	/* The file is held whole, plus about 20 MB of decoder buffers per worker. */
	if (o->npaths > 1 && !stat(o->paths[1], &st) && s->r->topo.mem_available_bytes &&
	    (size_t)st.st_size > s->r->topo.mem_available_bytes / 2) {
		char a[32], b[32];

		report_format_bytes(a, sizeof(a), (size_t)st.st_size);
		report_format_bytes(b, sizeof(b), s->r->topo.mem_available_bytes);
		return usage_fail(err, errlen, "app bzip2: %s: %s is over half of MemAvailable (%s) (expected a smaller file)",
			    o->paths[1], a, b);
	}
	if (o->npaths > 1 && (rc = app_bzip2_validate(o->paths[1], why, sizeof(why))))
		return usage_fail(err, errlen, "app bzip2: %s", why);
	if (app_settings_of(o).predictions_path &&
	    app_bzip2_predictions_read(app_settings_of(o).predictions_path, &app_bzip2_predicted, why, sizeof(why)))
		return usage_fail(err, errlen, "%s", why);
	{
		struct app_bzip2_params p = app_bzip2_params_of(s, false, o->budget_s ? o->budget_s : APP_ALONE_BUDGET_S);
		struct clock_info clk;
		struct app_bzip2_estimate est;

		/* The run's clock is calibrated after the plan: the probe's own. */
		clock_init(&clk);
		p.clock = &clk;
		if (!app_bzip2_estimate(&p, &est, why, sizeof(why)) && est.seconds > 0) {
			app_bzip2_planned_s = est.seconds + (est.empty ? 0 : APP_BZIP2_CHASE_S);
			app_bzip2_round_s = est.round_seconds;
			app_bzip2_planned_rounds = p.process_rounds;
			app_bzip2_planned_file = p.path != NULL;
		}
	}
	return 0;
}

/* The chase at the decoder's table footprint, and whether that table is
 * cache-resident. In the full report the bwt kernel has just chased a
 * 900,000-row table at the same pages: that reference is reused, and none
 * is measured otherwise (the report's budget holds the short form only). */
static int app_bzip2_chase_beside(struct section_run *s, struct app_result *res, bool short_form)
{
	const struct options *o = s->o;
	const struct app_settings opt = app_settings_of(o);
	struct app_params ap = {
		.line_bytes = s->r->topo.line_bytes,
		.pages = s->plan->pages[s->plan->npages - 1],
		.max_k = opt.max_lanes < APP_K_MAX ? opt.max_lanes : APP_K_MAX,
		.seed = o->seed,
		.chase = !short_form,
		.clock = &s->r->clock,
		.stop = s->stop,
	};
	struct cache_sizes sizes;
	struct latency_curve curve;
	struct app_bzip2_cache_facts c = {.latency = latency_curve_of(latency_section_result(s->r), &curve)};

	app_cache_sizes(s, &sizes);
	c.l2_bytes = sizes.l2.bytes;
	c.largest_cache_bytes = sizes.largest.bytes;
	c.sizes_from = sizes.largest.from;

	return app_bzip2_chase(&ap, res->nkernels ? &res->kernels[0].chase : NULL, &c, res->bzip2, s->err,
			       sizeof(s->err));
}

/* The predictions given (path non-NULL) and the six hypotheses, judged
 * against the chase's floor once every figure is final. */
static void app_bzip2_judge_beside(struct app_bzip2_result *b, const char *path)
{
	double floor_pct = b->chase.ran ? b->chase.noise_floor_pct : 0;

	if (path) {
		b->predictions = app_bzip2_predicted;
		app_bzip2_predictions_judge(&b->predictions, b, floor_pct);
	}
	b->hypotheses_band_pct = floor_pct > 0 ? 2 * floor_pct : 0;
	app_bzip2_hypotheses_judge(b, b->hypotheses_band_pct, b->hypotheses);
}

/* A huge-page request the kernel did not meet is said, as for bwt. */
static void app_bzip2_warn_pages(struct report *r, const struct app_bzip2_result *b)
{
	for (unsigned i = 0; i < b->nvariants; i++) {
		const struct app_bzip2_variant *v = &b->variants[i];

		if (v->pages == PAGES_HUGE && v->table_huge_bytes < v->table_arena_bytes / 10 * 9) {
			result_warn(r, "app bzip2: huge pages requested for the T-vector but %.1f%% obtained (K=%u, first "
				    "such variant): translation misses are part of those figures",
				    v->table_arena_bytes ? 100.0 * (double)v->table_huge_bytes / (double)v->table_arena_bytes
							 : 0.0, v->k);
			return;
		}
	}
}

/* "; a load's latency falls after traffic here (...)" where the chase's
 * control arm showed it, else "": the cause a speed-up above K has on
 * such a machine (a K = 1 time taken idle against a K time under load). */
static const char *state_named(const struct app_chase *c, char *buf, size_t len)
{
	if (!c->ran || !c->control_fall_k)
		return "";
	return mlp_fall_clause(buf, len, "the chase's", c->control_fall, c->control_fall_k);
}

/* rounds: the budget's whole-process rounds (0: the default's). */
static int app_bzip2_section_run(struct section_run *s, struct app_result *res, bool short_form, unsigned rounds)
{
	struct app_bzip2_params p = app_bzip2_params_of(s, short_form, s->plan->has_budget ? s->plan->budget.budget_s : 0);
	bool timed;
	int rc;

	if (rounds && p.process_rounds)
		p.process_rounds = rounds;
	res->bzip2 = calloc(1, sizeof(*res->bzip2));
	if (!res->bzip2)
		return -ENOMEM;
	p.keep_input = true;  /* for the baseline's re-time, after the chase */
	rc = app_bzip2_run(&p, res->bzip2, s->err, sizeof(s->err));
	/* An input of no block timed nothing: no chase, baseline or verdict
	 * to set against it. */
	timed = !rc && res->bzip2->blocks;
	if (timed && !(rc = app_bzip2_chase_beside(s, res, short_form)))
		rc = app_bzip2_baseline_run(&p, res->bzip2, s->err, sizeof(s->err));
	app_bzip2_release_input(res->bzip2);
	if (timed && !rc)
		app_bzip2_judge_beside(res->bzip2, short_form ? NULL : app_settings_of(s->o).predictions_path);
	if (rc == -EPROTO) {
		char why[sizeof(s->err)];

		snprintf(why, sizeof(why), "%s", s->err);
		snprintf(s->err, sizeof(s->err), "app bzip2: check failed: %.200s; refusing to report", why);
	} else if (rc && rc != -EINTR && s->err[0]) {
		char why[sizeof(s->err)];

		snprintf(why, sizeof(why), "%s", s->err);
		snprintf(s->err, sizeof(s->err), "app bzip2: %.240s", why);
	}
	if (rc) {
		free(res->bzip2);
		res->bzip2 = NULL;
		return rc;
	}
	app_bzip2_warn_pages(s->r, res->bzip2);
	if (res->bzip2->chase.nimpossible && !res->bzip2->chase_reused) {
		char state[128];

		result_warn(s->r, "app bzip2: %u chase speedup(s) S_chase above K after a re-time, marked IMPOSSIBLE%s",
			    res->bzip2->chase.nimpossible, state_named(&res->bzip2->chase, state, sizeof(state)));
	}
	if (res->bzip2->baseline.nslow)
		result_warn(s->r, "app bzip2: %u K=1 walk(s) above %.1f ns per row after a re-time (the chase's t(1) %.1f ns "
			    "at the table's footprint plus the walk's own work, %.1f ns, plus the %.1f%% floor), marked "
			    "SLOW BASELINE: every s and R(K) divides by the K=1 walk", res->bzip2->baseline.nslow,
			    res->bzip2->baseline.bound_ns_per_row, res->bzip2->baseline.chase_ns,
			    res->bzip2->baseline.work_ns_per_row, res->bzip2->baseline.floor_pct);
	if (res->bzip2->chase.nfalls && !res->bzip2->chase_reused)
		result_warn(s->r, "app bzip2: %u chase speedup(s) S_chase fall below a smaller K's beyond the floor, "
			    "marked NON-MONOTONIC", res->bzip2->chase.nfalls);
	return 0;
}

static void app_section_free(void *result)
{
	struct app_result *res = result;

	free(res->bzip2);
	res->bzip2 = NULL;
}

static int app_section_plan(struct section_run *s, char *err, size_t errlen)
{
	const struct options *o = s->o;
	const struct app_settings opt = app_settings_of(o);
	const struct topo *t = &s->r->topo;
	const char *kernel = app_kernel(o);
	struct cache_sizes sizes;
	size_t fp, text_bytes, peak;
	enum textgen_kind kind;
	struct stat st;
	char a[32], b[32];

	/* Nothing has run yet: the OS's sizes (the run re-sizes by the curve). */
	cache_sizes_of(t, NULL, &sizes);
	fp = app_footprint(o, &sizes);
	app_kernel_planned = kernel;
	if (!strcmp(kernel, "bzip2"))
		return app_bzip2_plan(s, err, errlen);
	if (app_kernel_find(kernel))
		return usage_fail(err, errlen, "app: '%s' is not a kernel (expected bwt, hash, search, gather or bzip2)", kernel);
	if (opt.predictions_path)
		return usage_fail(err, errlen, "app %s: --predictions judges bzip2's axes (expected app bzip2 --predictions "
			    "FILE)", kernel);
	if (opt.lanes || opt.segments || opt.layout || opt.prefetch || opt.output_buffer)
		return usage_fail(err, errlen, "app %s: --lanes, --segments, --layout, --prefetch and --output-buffer are "
			    "bzip2's axes (expected app bzip2)", kernel);
	if (opt.input && textgen_parse(opt.input, &kind))
		return usage_fail(err, errlen, "--input: '%s' is not an input (expected random, markov or repeat)", opt.input);
	if (!!opt.text_path + !!opt.input + opt.bzip2 > 1)
		return usage_fail(err, errlen, "app: --text, --input and --bzip2 each choose the input (expected one of them)");
	if ((opt.text_path || opt.input || opt.bzip2) && strcmp(kernel, "bwt"))
		return usage_fail(err, errlen, "app %s: --text, --input and --bzip2 are bwt's inputs (expected app bwt)",
			    kernel);
	text_bytes = app_bzip2(s) ? APP_BZIP2_BLOCK_BYTES : app_bwt_text_bytes(fp);
	if (opt.text_path) {
		if (stat(opt.text_path, &st))
			return usage_fail(err, errlen, "--text: cannot read '%s': %s (expected a readable file)", opt.text_path,
				    strerror(errno));
		if (!S_ISREG(st.st_mode) || st.st_size < 1)
			return usage_fail(err, errlen, "--text: '%s' is %s (expected a file of at least 1 byte)", opt.text_path,
				    S_ISREG(st.st_mode) ? "empty" : "not a regular file");
		text_bytes = (size_t)st.st_size;
	}
	/* bwt: the suffix sort's scratch or the table; the others: the table
	 * and a quarter more (indices, queries, a second layout). */
	peak = strcmp(kernel, "bwt") ? 2 * fp + fp / 4 : app_bwt_peak_bytes(text_bytes);
	if ((t->mem_available_bytes && peak > t->mem_available_bytes / 10 * 9) ||
	    (!strcmp(kernel, "bwt") && text_bytes > SAIS_MAX_BYTES)) {
		report_format_bytes(a, sizeof(a), peak);
		report_format_bytes(b, sizeof(b), t->mem_available_bytes);
		return usage_fail(err, errlen, "%s: app %s needs %s at its peak, over 90%% of MemAvailable (%s), or more "
			    "text than the suffix sorter's 2^31 - 3 bytes (expected a smaller %s)",
			    opt.text_path ? "--text" : "--size", kernel, a, b, opt.text_path ? "file" : "size");
	}
	return 0;
}

/* app's settings in the plan (budget.h): the kernel's footprint (the full
 * report walks a bzip2 block instead), its trials, and the rows per swept
 * walk of bwt's lanes variants, whatever the table. */
struct app_knobs {
	size_t bytes;
	unsigned trials;
	size_t walk_rows;
	unsigned bzip2_rounds;       /* app bzip2's whole-process rounds */
};
_Static_assert(sizeof(struct app_knobs) <= BUDGET_KNOB_BYTES, "app's knobs fit their slot");

#define MIB ((size_t)1 << 20)
/* app bzip2's short form in the full report on another recorded guest (s). */
#define APP_BZIP2_SHORT_S 2.4

static void app_defaults(const struct budget *b, void *knobs)
{
	size_t two_llc = 2 * b->facts.llc_bytes;

	/* twice the last cache, 8 to 64 MiB (bwt's narrow table holds 2^24
	 * rows; a wider table only multiplies the suffix sort) */
	*(struct app_knobs *)knobs = (struct app_knobs){
		.bytes = two_llc < 8 * MIB ? 8 * MIB : two_llc > 64 * MIB ? 64 * MIB : two_llc,
		.trials = 3, .walk_rows = (size_t)4 << 20,
		.bzip2_rounds = b->quick ? APP_BZ2_PROC_ROUNDS_QUICK : APP_BZ2_PROC_ROUNDS};
}

/* Each kernel's work in a row's miss-times (a row: 4 bytes of the
 * footprint): its setup, and each trial's walk over every variant and K.
 * hash, search and gather fitted on one recorded guest at the default 8 MiB
 * (1 and 3 trials: hash 1.8 and 2.8 s, search 3.1 and 6.0 s, gather 0.3-0.4
 * s), bwt on another recorded guest (64 MiB, 16 Mi rows: the suffix sort about
 * 360 ns a byte beside; per trial the two lanes variants over every K
 * about 7.5 miss-times per row walked, the ring, which decodes the whole
 * text, about 2.1 per row) and checked on one recorded guest (2.3 s at 3
 * trials). Every kernel also chases its footprint for the reference,
 * about 28 M miss-times. */
struct app_kernel_price {
	const char *kernel;
	double setup_per_row, trial_per_row;
};

static const struct app_kernel_price app_prices[] = {
	{"hash", 14.0, 11.0},
	{"search", 22.0, 31.0},
	{"gather", 0.0, 0.0},
};

/* What a miss costs a walk of the footprint: a DRAM miss, or where the OS
 * reports no cache a sixth of one: the default 8 MiB table then sat in a
 * cache the guest was not told of (the chase reference read 18-26 ns
 * against a 155 ns miss on one recorded guest). */
static double app_miss_ns(const struct cost_facts *f)
{
	return f->llc_bytes ? f->rates.dram_ns : f->rates.dram_ns / 6;
}

static double app_price(const struct budget *b, const void *knobs, size_t *peak)
{
	const struct app_knobs *k = knobs;
	double rows = (double)(k->bytes / 4), walk = fmin(rows, (double)k->walk_rows), d = app_miss_ns(&b->facts);
	double t = rows * 360e-9 + 28e6 * d / 1e9 + k->trials * (walk * 7.5 * d + rows * 2.1 * d) / 1e9;

	for (size_t i = 0; app_kernel_planned && i < sizeof(app_prices) / sizeof(app_prices[0]); i++)
		if (!strcmp(app_kernel_planned, app_prices[i].kernel))
			t = (28e6 + rows * (app_prices[i].setup_per_row + k->trials * app_prices[i].trial_per_row)) * d / 1e9;
	*peak = (size_t)(rows * 18);
	/* the full report: bwt over one bzip2-sized block (cache-resident) and
	 * its chase reference, 0.6-0.8 s on one recorded guest alone (1.4-1.5 s on
	 * another recorded guest before the layout check walked in segments); then app
	 * bzip2's short form (2 MB of text, one trial, K up to 8), 2.4 s there:
	 * Huffman decoding and the walk of a cache-resident table, so no rate
	 * here scales it. */
	if (!b->full_report && app_bzip2_planned_s >= 0) {
		*peak = (size_t)48 << 20;  /* 37 MB peak RSS with two workers on the 34 MB file */
		if (!app_bzip2_planned_file && k->bzip2_rounds < app_bzip2_planned_rounds)
			return app_bzip2_planned_s - (app_bzip2_planned_rounds - k->bzip2_rounds) * app_bzip2_round_s;
		return app_bzip2_planned_s;
	}
	return b->full_report ? 0.4 + 4e6 * b->facts.rates.dram_ns / 1e9 + (b->quick ? 0 : APP_BZIP2_SHORT_S) : t;
}

/* app bzip2's whole-process rounds down to three (a median of three
 * still drops the one round a neighbour's burst hit); a file's run fits
 * its own. */
static bool shrink_rounds(struct budget *b, struct budget_section *s)
{
	struct app_knobs *k = BUDGET_KNOBS(s, struct app_knobs);

	if (b->full_report || app_bzip2_planned_s < 0 || app_bzip2_planned_file ||
	    k->bzip2_rounds <= APP_BZ2_PROC_ROUNDS_QUICK || k->bzip2_rounds > app_bzip2_planned_rounds)
		return false;
	budget_note_count(b, "app bzip2 whole-process rounds", k->bzip2_rounds, APP_BZ2_PROC_ROUNDS_QUICK, "");
	k->bzip2_rounds = APP_BZ2_PROC_ROUNDS_QUICK;
	return true;
}

/* app's trials; app bzip2's rounds first (every rank below the headline
 * sections' is taken, and the rounds cost a figure less than a trial). */
static bool shrink_trials(struct budget *b, struct budget_section *s)
{
	struct app_knobs *k = BUDGET_KNOBS(s, struct app_knobs);

	if (shrink_rounds(b, s))
		return true;

	/* the full report walks one bzip2 block: its trials cost nothing */
	if (k->trials <= 1 || b->full_report)
		return false;
	budget_note_count(b, "app trials", k->trials, k->trials - 1, "");
	k->trials--;
	return true;
}

static const struct budget_hooks app_budget = {
	.alone_budget_s = APP_ALONE_BUDGET_S, .defaults = app_defaults, .price = app_price,
	BUDGET_SET(struct app_knobs, bytes, BUDGET_SET_SIZE),
	BUDGET_STEPS({.rank = 16, .fn = shrink_trials}),
	BUDGET_FIELDS(JSONW_FIELD(UINT, "app_bytes", struct app_knobs, bytes),
		      JSONW_FIELD(UINT, "app_trials", struct app_knobs, trials),
		      JSONW_FIELD(UINT, "app_walk_rows", struct app_knobs, walk_rows),
		      JSONW_FIELD(UINT, "app_bzip2_rounds", struct app_knobs, bzip2_rounds)),
};

/* The speedups above their K (exp/app/app.c marks them): one warning each
 * for the kernel's variants and for its chase reference. */
static void warn_impossible(struct report *r, const struct app_kernel_result *k)
{
	char state[128];
	unsigned n = 0;

	for (unsigned v = 0; v < k->nvariants; v++)
		n += k->variants[v].nimpossible;
	if (n)
		result_warn(r, "app %s: %u speedup(s) S_app above K, marked IMPOSSIBLE and left out of the knees%s",
			    k->kernel, n, state_named(&k->chase, state, sizeof(state)));
	if (k->chase.nimpossible)
		result_warn(r, "app %s: %u chase speedup(s) S_chase above K after a re-time, marked IMPOSSIBLE%s",
			    k->kernel, k->chase.nimpossible, state_named(&k->chase, state, sizeof(state)));
	if (k->chase.nfalls)
		result_warn(r, "app %s: %u chase speedup(s) S_chase fall below a smaller K's beyond the floor, "
			    "marked NON-MONOTONIC", k->kernel, k->chase.nfalls);
}

static int app_section_run(struct section_run *s, void *result)
{
	const struct app_knobs *knobs = section_knobs_of(s, &app_budget);
	const struct options *o = s->o;
	const struct app_settings opt = app_settings_of(o);
	struct report *r = s->r;
	const char *kernel = app_kernel(o);
	struct app_result *res = result;
	struct app_kernel_result *k = &res->kernels[0];
	struct cache_sizes sizes;
	struct app_params ap = {
		.line_bytes = r->topo.line_bytes,
		.pages = s->plan->pages[s->plan->npages - 1],
		.max_k = opt.max_lanes < APP_K_MAX ? opt.max_lanes : APP_K_MAX,
		.trials = opt.trials ? (opt.trials < APP_TRIALS_MAX ? opt.trials : APP_TRIALS_MAX)
			  : knobs ? knobs->trials : 3,
		.seed = o->seed,
		.chase = true,
		.clock = &r->clock,
		.stop = s->stop,
		.input = TEXTGEN_MARKOV,
		.text_path = opt.text_path,
		.bzip2 = app_bzip2(s),
	};
	int rc;

	app_cache_sizes(s, &sizes);
	ap.footprint_bytes = app_footprint(o, &sizes);
	ap.largest_cache_bytes = sizes.largest.bytes;
	ap.l2_bytes = sizes.l2.bytes;
	ap.cache_sizes_from = sizes.largest.from;
	if (!strcmp(kernel, "bzip2"))
		return app_bzip2_section_run(s, res, false, knobs ? knobs->bzip2_rounds : 0);
	if (opt.input)
		textgen_parse(opt.input, &ap.input);
	/* The swept walks decode a fixed number of rows whatever the table
	 * (the first walk after the build, and the ring, still decode it all). */
	if (knobs)
		ap.walk_rows = knobs->walk_rows;
	rc = app_run(kernel, &ap, k, s->err, sizeof(s->err));
	if (rc == -EPROTO)
		snprintf(s->err, sizeof(s->err), "app %s: check failed: %s; refusing to report", kernel,
			 k->check.failure);
	else if (rc && rc != -EINTR && s->err[0]) {
		char why[sizeof(s->err)];

		snprintf(why, sizeof(why), "%s", s->err);
		snprintf(s->err, sizeof(s->err), "app %s: %.200s", kernel, why);
	}
	if (rc)
		return rc;
	res->nkernels = 1;
	/* The full report: the decoder's short form too (2 MB of text, one
	 * trial, K up to 8, no tools: a few seconds); --quick leaves it out,
	 * its 20 s go to the memory figures. */
	if (!section_asked_for(s, "app") && !o->quick && bz2_ref_available() && (rc = app_bzip2_section_run(s, res, true, 0)))
		return rc;
	warn_impossible(r, k);
	if (opt.text_path)
		result_warn(r, "app %s: --text '%s': the round trip held (%u runs, every output equal to the file)",
			    kernel, opt.text_path, k->check.runs_checked);
	if (k->may_fit_cache && (!opt.size_bytes || ap.bzip2))
		result_warn(r, "app %s: the %zu-byte footprint may fit in the largest reported cache: R compares "
			    "cache behaviour, not memory", kernel, k->footprint_bytes);
	if (ap.pages == PAGES_HUGE && k->huge_bytes_obtained < k->total_bytes * 9 / 10)
		result_warn(r, "app %s: huge pages requested but %.1f%% obtained: translation misses are part of "
			    "this result", kernel,
			    k->total_bytes ? 100.0 * (double)k->huge_bytes_obtained / (double)k->total_bytes : 0.0);
	return 0;
}

static void app_section_text(const void *res, FILE *f)
{
	const struct app_result *r = res;

	app_write_text(r, f);
	if (r->bzip2)
		app_bzip2_write_text(r->bzip2, f);
}

const struct section section_app = {
	.name = "app",
	.options = app_options,
	.summary = "a real walk as K lanes against the chase curve: app bwt|hash|search|gather|bzip2",
	.help = app_help, .kind = SECTION_MEASURE, .in_report = true, .outputs = SECTION_OUT_ALL,
	.operands = SECTION_ARGS_OPTIONAL, .operand_name = "kernel", .takes_another = app_takes_another,
	.usage = "mlpscope app [bwt|hash|search|gather|bzip2 [FILE.bz2]]",
	.result_bytes = sizeof(struct app_result), .budget = &app_budget, .plan = app_section_plan, .run = app_section_run,
	.write_text = app_section_text, .write_json = app_write_json, .write_csv = app_write_csv,
	.free = app_section_free,
	.view = &view_app,
};

const struct app_result *app_section_result(const struct report *r)
{
	return registry_result(r, &section_app);
}
