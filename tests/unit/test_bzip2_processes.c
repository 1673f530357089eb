/*
 * `app bzip2`'s whole-process part, logic only, through its seam
 * (struct app_bzip2_proc_ops): a fake PATH where some peers are missing, a
 * fake runner that logs the order it was asked to run commands in and
 * answers synthetic timings and outputs. Asserted: the plan's commands,
 * their thread options and pinned CPUs; the check run before the rounds
 * and the rounds alternated (A B C, A B C); medians, min and max, CPU-s per
 * GB, the peer/ours ratios at the same thread count; a missing peer listed
 * as not installed; a mismatching output marked, with no figure; the
 * budget's word stopping the rounds; ours at one thread on the other CPUs
 * and what they allow N threads; the cost model pricing the rounds and
 * the fit shrinking them before a prefix. One live test spawns the real
 * mlpbunzip2 (and bzip2 where installed) and checks only that they ran
 * and matched, never how fast.
 */
#include "../harness.h"
#include "bzip2_fixture.h"

#include "core/team.h"
#include "exp/app/bzip2.h"
#include "exp/app/bzip2_processes.h"
#include "report/app_bzip2_processes_out.h"
#include "analyse/vet.h"
#include "util/jsonr.h"
#include "util/jsonw.h"
#include "util/sha256.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPECT_SHA "aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11aa11"
#define EXPECT_BYTES ((size_t)8000000)

struct fake {
	const char *installed[8];     /* program names on the fake PATH */
	const char *bad_output;       /* a label whose check run writes other bytes */
	const char *fails_at;         /* a label whose timed run fails at round fail_round */
	unsigned fail_round;
	unsigned past_after;          /* past() true once this many rounds ran; 0: never */
	double n4_wall;               /* nonzero: every timed run of ours -n4 takes this */
	char log[256][48];            /* label per call, "check:" prefixed for check runs */
	unsigned nlog, timed_runs;
	unsigned ncpus_seen[256];
	int cpu0_seen[256];
	unsigned together_calls;      /* ours -n1 run on every CPU at once */
	bool together_fails;          /* each such call fails */
};

/* Each command's wall seconds per round (the 5 rounds), by label. */
static const struct {
	const char *label;
	double wall[5];
} walls[] = {
	{"mlpbunzip2 -n1", {1.0, 3.0, 2.0, 9.0, 1.5}},   /* median 2.0, min 1.0, max 9.0 */
	{"mlpbunzip2 -n4", {0.6, 0.5, 0.7, 0.5, 0.55}},  /* median 0.55 */
	/* ours -n1 on the other CPUs: CPU 6 shared (0.8 of CPU 3's speed), so
	 * 4 threads can reach 1 + 3 x (1 + 0.8 + 1) / 3 = 3.8x */
	{"mlpbunzip2 -n1 cpu5", {2.0, 2.0, 2.0, 2.0, 2.0}},
	{"mlpbunzip2 -n1 cpu6", {2.5, 2.5, 2.5, 2.5, 2.5}},
	{"mlpbunzip2 -n1 cpu7", {2.1, 1.9, 2.0, 2.0, 2.0}},
	{"bzip2", {4.0, 4.4, 4.2, 3.9, 5.0}},            /* median 4.2 */
	{"lbzip2 -n1", {3.0, 3.2, 3.1, 3.3, 2.9}},       /* median 3.1 */
	{"lbzip2 -n4", {1.1, 1.0, 1.2, 1.3, 1.1}},       /* median 1.1 */
};

/* The plan's label of the command: ours at one thread on a CPU other than
 * the first allowed (3) is a probe, named for its CPU. */
static const char *label_of(const char *const *argv, int cpu0, char *buf, size_t len)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *opt = NULL;
	int n;

	for (unsigned i = 1; argv[i]; i++)
		if (!strncmp(argv[i], "-n", 2) || !strncmp(argv[i], "-p", 2) || !strncmp(argv[i], "-mmt", 4))
			opt = argv[i];
	n = snprintf(buf, len, "%s%s%s", base, opt ? " " : "", opt ? opt : "");
	if (!strcmp(buf, "mlpbunzip2 -n1") && cpu0 != 3 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " cpu%d", cpu0);
	return buf;
}

static int fake_find(void *ctx, const char *prog, char *path, size_t len)
{
	struct fake *f = ctx;

	for (unsigned i = 0; i < 8 && f->installed[i]; i++)
		if (!strcmp(f->installed[i], prog)) {
			snprintf(path, len, "/fake/bin/%s", prog);
			return 0;
		}
	return -1;
}

static int fake_run(void *ctx, const char *const *argv, const int *cpus, unsigned ncpus, bool check,
		    struct app_bzip2_proc_run *out, char *why, size_t whylen)
{
	struct fake *f = ctx;
	char label[32];
	unsigned round = 0;

	label_of(argv, cpus[0], label, sizeof(label));
	if (f->nlog < 256) {
		snprintf(f->log[f->nlog], sizeof(f->log[0]), "%s%s", check ? "check:" : "", label);
		f->ncpus_seen[f->nlog] = ncpus;
		f->cpu0_seen[f->nlog] = cpus[0];
		f->nlog++;
	}
	if (check) {
		out->output_bytes = EXPECT_BYTES;
		snprintf(out->output_sha256, sizeof(out->output_sha256), "%s", EXPECT_SHA);
		if (f->bad_output && !strcmp(label, f->bad_output))
			out->output_sha256[0] = 'b';
		return 0;
	}
	for (unsigned i = 0; i < f->nlog - 1; i++)
		round += !strcmp(f->log[i], label);
	if (f->fails_at && !strcmp(label, f->fails_at) && round == f->fail_round) {
		snprintf(why, whylen, "exit status 2");
		return -1;
	}
	f->timed_runs++;
	out->wall_seconds = 1.0;
	for (size_t i = 0; i < sizeof(walls) / sizeof(walls[0]); i++)
		if (!strcmp(walls[i].label, label))
			out->wall_seconds = walls[i].wall[round % 5];
	if (f->n4_wall > 0 && !strcmp(label, "mlpbunzip2 -n4"))
		out->wall_seconds = f->n4_wall;
	/* CPU: user 0.8 of the wall, sys 0.1 at one CPU; ncpus x that at N. */
	out->user_seconds = 0.8 * out->wall_seconds * ncpus;
	out->sys_seconds = 0.1 * out->wall_seconds * ncpus;
	out->peak_rss_bytes = (double)(10 + round) * 1048576;
	return 0;
}

/* Ours -n1 on each CPU at once: 2.0, 2.0, 2.5 (CPU 6 shared) and 2.2 s
 * (CPU 7 slowed by the others), so 4 threads can reach 2/2 + 2/2 + 2/2.5
 * + 2/2.2 = 3.709x with every CPU busy (against ours -n1's 2.0 s alone on
 * the first), not the 3.8x the CPUs timed alone allow. */
static int fake_together(void *ctx, const char *const *argv, const int *cpus, unsigned n, double *out, char *why,
			 size_t whylen)
{
	static const double at_once[] = {2.0, 2.0, 2.5, 2.2};
	struct fake *f = ctx;

	(void)argv;
	(void)cpus;
	f->together_calls++;
	if (f->together_fails) {
		snprintf(why, whylen, "a copy: exit status 2");
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		out[i] = at_once[i % 4];
	return 0;
}

static bool fake_past(void *ctx)
{
	struct fake *f = ctx;

	return f->past_after && f->timed_runs >= f->past_after;
}

static struct app_bzip2_proc_ops ops_of(struct fake *f)
{
	return (struct app_bzip2_proc_ops){.find = fake_find, .run = fake_run, .together = fake_together,
					   .past = fake_past, .ctx = f};
}

static const struct app_bzip2_proc_row *row_named(const struct app_bzip2_processes *x, const char *label)
{
	for (unsigned i = 0; i < x->nrows; i++)
		if (!strcmp(x->rows[i].label, label))
			return &x->rows[i];
	return NULL;
}

/* The whole-process part's text as a run prints it, malloc'd. */
static char *text_of(const struct app_bzip2_processes *x)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return strdup("(no memory stream)");
	app_bzip2_processes_write_text(x, m);
	fclose(m);
	return text;
}

static bool near(double a, double b)
{
	return a > b - 1e-9 && a < b + 1e-9;
}

static const int cpus4[4] = {3, 5, 6, 7};

TEST(bzip2_processes_plan_lists_every_peer_with_its_threads_and_cpus)
{
	struct fake f = {.installed = {"mlpbunzip2", "bzip2", "lbzip2"}};
	struct app_bzip2_proc_ops ops = ops_of(&f);
	static struct app_bzip2_processes x;
	static const char *const order[] = {"mlpbunzip2 -n1", "mlpbunzip2 -n4", "mlpbunzip2 -n1 cpu5",
					    "mlpbunzip2 -n1 cpu6", "mlpbunzip2 -n1 cpu7", "bzip2", "lbzip2 -n1",
					    "lbzip2 -n4", "7zz -mmt1", "7zz -mmt4", "pbzip2 -p1", "pbzip2 -p4"};
	static const int eight[8] = {10, 11, 12, 13, 14, 15, 16, 17};

	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 8);
	CHECK(x.threads == 4, "threads %u: capped at the 4 CPUs allowed", x.threads);
	CHECK(x.nrows == 12, "%u rows (expected 5 programs, 4 of them also at N, and ours on 3 other CPUs)", x.nrows);
	for (unsigned i = 0; i < x.nrows; i++) {
		const struct app_bzip2_proc_row *w = &x.rows[i];
		int cpu0 = w->cpu_probe ? cpus4[i - 1] : 3;

		CHECK(!strcmp(w->label, order[i]), "row %u is '%s' (expected '%s')", i, w->label, order[i]);
		CHECK(w->ncpus == w->threads && w->cpus[0] == cpu0 && (w->threads == 1 || w->cpus[3] == 7),
		      "row %u pinned to %u CPUs from %d (expected its %u threads' from the allowed list, from %d)", i,
		      w->ncpus, w->cpus[0], w->threads, cpu0);
		CHECK(w->cpu_probe == (i >= 2 && i <= 4), "row %u probe %d", i, w->cpu_probe);
		CHECK(w->installed == (strcmp(w->name, "7zz") && strcmp(w->name, "pbzip2")), "row %u '%s' installed %d",
		      i, w->label, w->installed);
		CHECK(w->ours == !strcmp(w->name, "mlpbunzip2"), "row %u ours %d", i, w->ours);
		CHECK(strstr(w->command, "FILE >/dev/null") != NULL, "row %u command '%s'", i, w->command);
	}
	CHECK(strstr(x.rows[0].command, "mlpbunzip2 -c -n1 FILE") != NULL, "ours: '%s'", x.rows[0].command);
	CHECK(strstr(x.rows[7].command, "lbzip2 -d -c -n4 FILE") != NULL, "lbzip2 -n4: '%s'", x.rows[7].command);
	/* Eight CPUs: three probes spread over the seven others. */
	app_bzip2_processes_plan(&x, &ops, eight, 8, 8);
	CHECK(x.rows[2].cpu_probe && x.rows[2].cpus[0] == 11 && x.rows[3].cpus[0] == 13 && x.rows[4].cpus[0] == 15 &&
	      !x.rows[5].cpu_probe, "probes on CPUs %d %d %d (expected 11 13 15)", x.rows[2].cpus[0],
	      x.rows[3].cpus[0], x.rows[4].cpus[0]);
	/* One CPU allowed: no N-thread rows at all. */
	app_bzip2_processes_plan(&x, &ops, cpus4, 1, 8);
	CHECK(x.nrows == 5 && x.threads == 1, "one CPU: %u rows, threads %u (expected 5 one-thread rows)", x.nrows,
	      x.threads);
}

TEST(bzip2_processes_rounds_alternate_after_one_check_each)
{
	struct fake f = {.installed = {"mlpbunzip2", "bzip2", "lbzip2"}};
	struct app_bzip2_proc_ops ops = ops_of(&f);
	static struct app_bzip2_processes x;
	static const char *const round[] = {"mlpbunzip2 -n1", "mlpbunzip2 -n4", "mlpbunzip2 -n1 cpu5",
					    "mlpbunzip2 -n1 cpu6", "mlpbunzip2 -n1 cpu7", "bzip2", "lbzip2 -n1",
					    "lbzip2 -n4"};

	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 4);
	CHECK(!app_bzip2_processes_measure(&x, &ops, "/tmp/in.bz2", 5, EXPECT_BYTES, EXPECT_SHA), "measure");
	CHECK(f.nlog == 8 + 5 * 8, "%u runs (expected 8 checks and 5 rounds of 8)", f.nlog);
	for (unsigned i = 0; i < 8; i++)
		CHECK(!strncmp(f.log[i], "check:", 6) && !strcmp(f.log[i] + 6, round[i]), "call %u '%s' (expected the "
		      "check of '%s')", i, f.log[i], round[i]);
	for (unsigned i = 8; i < f.nlog; i++)
		CHECK(!strcmp(f.log[i], round[(i - 8) % 8]), "call %u '%s' (expected '%s': A B C, A B C)", i, f.log[i],
		      round[(i - 8) % 8]);
	for (unsigned i = 0; i < f.nlog; i++) {
		const char *probe = strstr(f.log[i], " cpu");

		CHECK(f.cpu0_seen[i] == (probe ? atoi(probe + 4) : 3) &&
		      f.ncpus_seen[i] == (strstr(f.log[i], "-n4") ? 4u : 1u),
		      "call %u '%s' pinned to %u CPUs from %d", i, f.log[i], f.ncpus_seen[i], f.cpu0_seen[i]);
	}
	CHECK(x.rounds == 5 && !x.budget_cut, "rounds %u cut %d", x.rounds, x.budget_cut);
}

TEST(bzip2_processes_figures_are_medians_and_ratios_at_the_same_threads)
{
	struct fake f = {.installed = {"mlpbunzip2", "bzip2", "lbzip2"}};
	struct app_bzip2_proc_ops ops = ops_of(&f);
	static struct app_bzip2_processes x;
	const struct app_bzip2_proc_row *o1, *o4, *bz, *lb1, *lb4, *seven;

	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 4);
	app_bzip2_processes_measure(&x, &ops, "/tmp/in.bz2", 5, EXPECT_BYTES, EXPECT_SHA);
	o1 = row_named(&x, "mlpbunzip2 -n1");
	o4 = row_named(&x, "mlpbunzip2 -n4");
	bz = row_named(&x, "bzip2");
	lb1 = row_named(&x, "lbzip2 -n1");
	lb4 = row_named(&x, "lbzip2 -n4");
	seven = row_named(&x, "7zz -mmt1");
	CHECK(o1 && o4 && bz && lb1 && lb4 && seven, "rows missing");
	CHECK(o1->nruns == 5 && near(o1->median_seconds, 2.0) && near(o1->min_seconds, 1.0) &&
	      near(o1->max_seconds, 9.0), "ours -n1: %u runs, %.3f (%.3f-%.3f) (expected 2 (1-9))", o1->nruns,
	      o1->median_seconds, o1->min_seconds, o1->max_seconds);
	CHECK(near(o4->median_seconds, 0.55), "ours -n4 median %.3f (expected 0.55)", o4->median_seconds);
	/* user+sys = 0.9 x wall (x 4 CPUs at N), the median run's over 0.008 GB. */
	CHECK(near(o1->cpu_seconds_per_gb, 0.9 * 2.0 / 0.008), "ours -n1 CPU-s/GB %.3f", o1->cpu_seconds_per_gb);
	CHECK(near(o4->cpu_seconds_per_gb, 4 * 0.9 * 0.55 / 0.008), "ours -n4 CPU-s/GB %.3f", o4->cpu_seconds_per_gb);
	CHECK(near(o1->peak_rss_max_bytes, 14.0 * 1048576), "peak RSS %.0f (expected the largest run's)",
	      o1->peak_rss_max_bytes);
	CHECK(o1->peer_over_ours == 0 && o4->peer_over_ours == 0, "ours has no ratio to itself");
	CHECK(near(bz->peer_over_ours, 4.2 / 2.0), "bzip2/ours %.4f (expected 2.1: against ours at one thread)",
	      bz->peer_over_ours);
	CHECK(near(lb1->peer_over_ours, 3.1 / 2.0), "lbzip2 -n1/ours %.4f", lb1->peer_over_ours);
	CHECK(near(lb4->peer_over_ours, 1.1 / 0.55), "lbzip2 -n4/ours %.4f (expected against ours -n4)",
	      lb4->peer_over_ours);
	CHECK(!seven->installed && !seven->nruns && seven->median_seconds == 0, "7zz: not installed, no figures");
	CHECK(o1->check == APP_BZ2_PROC_CHECK_OK && o1->output_bytes == EXPECT_BYTES, "ours checked");
	CHECK(near(x.cpus_allow_speedup, 3.8) && near(x.ours_speedup, 2.0 / 0.55),
	      "the CPUs allow %.4f (expected 3.8), ours -n4 reached %.4f (expected 2 / 0.55)", x.cpus_allow_speedup,
	      x.ours_speedup);
	/* Paired, each round's own: -n1 over -n4 1.67, 6, 2.86, 18, 2.73 (median 2.857); the CPUs 1 + 3 x the
	 * mean of -n1 over the probes: 2.38, 5.28, 3.8, 13.6, 3.1 (median 3.8); the shares 0.70, 1.14, 0.75,
	 * 1.32, 0.88 (median 0.88): round 4's burst on -n1 alone moves none of the medians. */
	CHECK(x.paired_rounds == 5 && near(x.paired_speedup, 2.0 / 0.7) && near(x.paired_allow_speedup, 3.8) &&
		      fabs(x.paired_share - (1.5 / 0.55) / 3.1) < 1e-6,
	      "paired: %u rounds, %.4f of %.4f, share %.4f (expected 5, 2.857 of 3.8, 0.8798)", x.paired_rounds,
	      x.paired_speedup, x.paired_allow_speedup, x.paired_share);
	CHECK(f.together_calls == 5 && x.together.nruns == 5 && near(x.together_allow_speedup, 2.8 + 2 / 2.2) &&
	      x.together.cpus[0] == 3 && x.together.ncpus == 4,
	      "at once: %u calls, %u runs on %u CPUs from %d, allow %.4f (expected 5, 5, 4 from 3, 3.709)",
	      f.together_calls, x.together.nruns, x.together.ncpus, x.together.cpus[0], x.together_allow_speedup);
	{
		char *text = text_of(&x);

		CHECK(strstr(text, "the CPUs: mlpbunzip2 -n1 2.0000 s on CPU 3, 2.0000 on CPU 5, 2.5000 on CPU 6") &&
		      strstr(text, "4 threads can reach 3.80x its one-thread time here; -n4 reached 3.64x (96% of 3.80x)") &&
		      strstr(text, "a slower CPU is shared"), "the CPUs line:\n%s", text);
		CHECK(strstr(text, "paired by round (each round's -n1 over its -n4, and that round's CPUs; medians of 5): "
				   "-n4 reached 2.86x, the CPUs allowed 3.80x, 88% of it\n"), "the paired line:\n%s", text);
		CHECK(strstr(text, "at once: mlpbunzip2 -n1 on each CPU together 2.0000 s on CPU 3, 2.0000 on CPU 5, "
				   "2.5000 on CPU 6, 2.2000 on CPU 7: 4 threads can reach 3.71x its one-thread time "
				   "with every CPU busy; -n4 reached 98% of it\n"), "the at-once line:\n%s", text);
		free(text);
	}
	/* One probe without figures: nothing said of the CPUs. */
	for (unsigned i = 0; i < x.nrows; i++)
		if (x.rows[i].cpu_probe && x.rows[i].cpus[0] == 6)
			snprintf(x.rows[i].failure, sizeof(x.rows[i].failure), "run 1: exit status 1");
	app_bzip2_processes_derive(&x);
	CHECK(x.cpus_allow_speedup == 0 && x.ours_speedup == 0 && x.paired_rounds == 0,
	      "a probe without figures: allow %.3f, reached %.3f, %u paired rounds", x.cpus_allow_speedup,
	      x.ours_speedup, x.paired_rounds);
	/* A peak within what the forked child held at exec says only "this or less". */
	x.fork_floor_bytes = 12.0 * 1048576;
	app_bzip2_processes_derive(&x);
	CHECK(!row_named(&x, "mlpbunzip2 -n1")->peak_rss_at_floor, "14 MiB over a 12 MiB floor is a figure");
	x.fork_floor_bytes = 14.0 * 1048576;
	app_bzip2_processes_derive(&x);
	CHECK(row_named(&x, "mlpbunzip2 -n1")->peak_rss_at_floor, "14 MiB at a 14 MiB floor is marked");
}

/* The blocks in order, each to the thread free first: 9 full blocks on 2
 * like CPUs end after 5 (1.8x, not 2); a last block of half a full one
 * evens them (8.5 / 4.5); one block allows no speed-up; 46 blocks on a
 * CPU at half speed beside a full one: 1.5x as the CPUs alone allow. The
 * line says the tighter figure and the share of it reached. */
TEST(bzip2_processes_blocks_in_order_bound_what_the_cpus_allow)
{
	static const uint64_t cand[] = {32, 8032, 16032, 24032};
	static struct app_bzip2_processes x;
	struct app_bzip2_proc_row *one, *two, *probe;
	char *text = NULL;

	memset(&x, 0, sizeof(x));
	x.ran = true;
	x.threads = 2;
	x.nrows = 3;
	one = &x.rows[0], two = &x.rows[1], probe = &x.rows[2];
	one->ours = two->ours = probe->ours = probe->cpu_probe = true;
	one->threads = probe->threads = 1, two->threads = 2;
	probe->cpus[0] = 1;
	one->nruns = two->nruns = probe->nruns = 1;
	one->wall_seconds[0] = probe->wall_seconds[0] = 1.0;
	two->wall_seconds[0] = 0.6;
	x.blocks = 9, x.last_block_share = 1;
	app_bzip2_processes_derive(&x);
	CHECK(near(x.cpus_allow_speedup, 2.0) && near(x.blocks_allow_speedup, 1.8),
	      "9 blocks on 2 like CPUs: %.4f (expected 1.8), the CPUs alone %.4f", x.blocks_allow_speedup,
	      x.cpus_allow_speedup);
	x.last_block_share = 0.5;
	app_bzip2_processes_derive(&x);
	CHECK(near(x.blocks_allow_speedup, 8.5 / 4.5), "a last half block: %.4f (expected 8.5/4.5)",
	      x.blocks_allow_speedup);
	x.blocks = 1;
	app_bzip2_processes_derive(&x);
	CHECK(near(x.blocks_allow_speedup, 1.0), "one block: %.4f", x.blocks_allow_speedup);
	x.blocks = 46, x.last_block_share = 1;
	probe->wall_seconds[0] = 2.0;
	app_bzip2_processes_derive(&x);
	CHECK(near(x.cpus_allow_speedup, 1.5) && x.blocks_allow_speedup > 1.48 && x.blocks_allow_speedup <= 1.5 + 1e-9,
	      "46 blocks, a CPU at half speed: %.4f (the CPUs alone %.4f)", x.blocks_allow_speedup,
	      x.cpus_allow_speedup);
	probe->wall_seconds[0] = 1.0;
	x.blocks = 9;
	app_bzip2_processes_derive(&x);
	text = text_of(&x);
	CHECK(strstr(text, "2 threads can reach 2.00x its one-thread time here, 1.80x over its 9 blocks in order; "
			   "-n2 reached 1.67x (93% of 1.80x)"), "the CPUs line:\n%s", text);
	free(text);
	/* Four magics 8000 bits apart, the input ending 4000 bits past the last. */
	app_bzip2_processes_set_blocks(&x, cand, 4, (24032 + 4000) / 8);
	CHECK(x.blocks == 4 && near(x.last_block_share, 0.5), "%u blocks, last %.4f of a full one", x.blocks,
	      x.last_block_share);
}

/* Four threads faster than the four CPUs allow (5x against 3.8x): ours'
 * rows run a round more, and a figure still above is marked, not printed
 * plain; one within the allowance (3.64x) is neither. */
TEST(bzip2_processes_speedup_above_the_cpus_is_retimed_then_marked)
{
	struct fake f = {.installed = {"mlpbunzip2"}, .n4_wall = 0.4};
	struct app_bzip2_proc_ops ops = ops_of(&f);
	static struct app_bzip2_processes x;
	char *text = NULL;

	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 4);
	app_bzip2_processes_measure(&x, &ops, "/tmp/in.bz2", 5, EXPECT_BYTES, EXPECT_SHA);
	CHECK(x.retimed && x.above_cpus && row_named(&x, "mlpbunzip2 -n4")->nruns == 6 &&
	      row_named(&x, "mlpbunzip2 -n1 cpu6")->nruns == 6 && row_named(&x, "bzip2")->nruns == 0,
	      "retimed %d above %d, ours -n4 %u runs (expected ours' rows 6, a round more)", x.retimed, x.above_cpus,
	      row_named(&x, "mlpbunzip2 -n4")->nruns);
	text = text_of(&x);
	/* After the sixth round ours -n1's median is 1.75: 4.38x against 3.45x. */
	CHECK(strstr(text, "-n4 reached 4.38x") && strstr(text, "ABOVE what the CPUs allow"), "marked: %.400s",
	      strstr(text, "the CPUs:") ? strstr(text, "the CPUs:") : text);
	free(text);
	memset(&f, 0, sizeof(f));
	f.installed[0] = "mlpbunzip2";
	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 4);
	app_bzip2_processes_measure(&x, &ops, "/tmp/in.bz2", 5, EXPECT_BYTES, EXPECT_SHA);
	CHECK(!x.retimed && !x.above_cpus && near(x.ours_speedup, 2.0 / 0.55), "3.64x within 3.8x: retimed %d",
	      x.retimed);
}

TEST(bzip2_processes_mismatch_and_missing_peers_are_marked_not_figures)
{
	struct fake f = {.installed = {"mlpbunzip2", "bzip2", "lbzip2"}, .bad_output = "lbzip2 -n4",
			 .fails_at = "bzip2", .fail_round = 2};
	struct app_bzip2_proc_ops ops = ops_of(&f);
	static struct app_bzip2_processes x;
	const struct app_bzip2_proc_row *lb4, *bz;
	char *text = NULL;

	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 4);
	app_bzip2_processes_measure(&x, &ops, "/tmp/in.bz2", 5, EXPECT_BYTES, EXPECT_SHA);
	lb4 = row_named(&x, "lbzip2 -n4");
	bz = row_named(&x, "bzip2");
	CHECK(lb4 && lb4->check == APP_BZ2_PROC_CHECK_MISMATCH && !lb4->nruns && lb4->median_seconds == 0 &&
	      lb4->peer_over_ours == 0, "a mismatching output is timed no further and has no figure");
	CHECK(bz && bz->failure[0] && bz->nruns == 2 && bz->median_seconds == 0,
	      "a run failing in round 3: %u runs kept, median %.3f, failure '%s' (expected no figure)", bz->nruns,
	      bz->median_seconds, bz->failure);
	CHECK(f.nlog == 8 + 3 * 7 + 2 * 6, "%u calls (the failed command dropped from later rounds)", f.nlog);
	text = text_of(&x);
	CHECK(strstr(text, "MISMATCH, no figures") && strstr(text, "FAILED, no figures: run 3: exit status 2"),
	      "text:\n%s", text);
	CHECK(strstr(text, "7zz -mmt1") && strstr(text, "not installed") && strstr(text, "pbzip2 -p4"),
	      "missing peers listed:\n%s", text);
	CHECK(strstr(text, "2.0000 (1.0000-9.0000)") && strstr(text, "median (min-max) of 5 alternated runs"),
	      "ours' median (min-max):\n%s", text);
	free(text);
}

TEST(bzip2_processes_budget_stops_rounds_but_keeps_one)
{
	struct fake f = {.installed = {"mlpbunzip2", "bzip2"}, .past_after = 1};
	struct app_bzip2_proc_ops ops = ops_of(&f);
	static struct app_bzip2_processes x;

	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 4);
	app_bzip2_processes_measure(&x, &ops, "/tmp/in.bz2", 5, EXPECT_BYTES, EXPECT_SHA);
	CHECK(x.rounds == 1 && x.budget_cut && x.rounds_asked == 5, "rounds %u of %u, cut %d (expected 1 of 5, cut)",
	      x.rounds, x.rounds_asked, x.budget_cut);
	CHECK(row_named(&x, "mlpbunzip2 -n1")->nruns == 1 && near(row_named(&x, "mlpbunzip2 -n1")->median_seconds, 1.0),
	      "one round: its run is the median");
}

/* This process's anonymous resident bytes (RssAnon), 0 when unreadable. */
static double own_anon_bytes(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	double kib = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "RssAnon:", 8))
			kib = strtod(line + 8, NULL);
	if (f)
		fclose(f);
	return kib * 1024;
}

/* The real programs: mlpbunzip2 beside this test binary, bzip2 where
 * PATH has it; a tiny input, one round, and nothing about speed. This
 * process holds 96 MiB more while they run: a child forked here would
 * start its ru_maxrss there, one forked by the fresh copy of this binary
 * (child_run.h) at what a fresh process holds (0.2 MiB; 17 MiB under
 * ASan), far below. */
TEST(bzip2_processes_live_runs_the_real_decoder, NEEDS_HOST | NEEDS_BINARY | NEEDS_PROGRAMS | NEEDS_LIBBZ2)
{
	static struct app_bzip2_processes x;
	static uint8_t text[300000];
	char bin[PATH_MAX], sha[65];
	int cpus[64], n = team_allowed_cpus(cpus, 64);
	struct sha256 s;
	uint8_t *bz;
	size_t len = 0;
	const struct app_bzip2_proc_row *o1;
	size_t held = (size_t)96 << 20;
	double anon;
	uint8_t *ballast;

	snprintf(bin, sizeof(bin), "%s/mlpbunzip2", test_bin_dir());
	if (access(bin, X_OK)) {
		test_skip(tctx, "%s not built (make builds it)", bin);
		return;
	}
	CHECK((ballast = malloc(held)), "out of memory");
	if (!ballast)
		return;
	memset(ballast, 1, held);
	anon = own_anon_bytes();
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (uint8_t)("the quick brown fox "[i % 20] + (i / 977) % 3);
	bz = bzip2_fixture_compress(text, sizeof(text), 9, &len);
	CHECK(bz && n >= 1, "fixture or affinity");
	sha256_init(&s);
	sha256_update(&s, text, sizeof(text));
	sha256_final_hex(&s, sha);
	CHECK(!app_bzip2_processes_run(&x, bz, len, cpus, (unsigned)(n < 64 ? n : 64), 2, 1, sizeof(text), sha, NULL,
				       NULL), "run");
	free(bz);
	o1 = row_named(&x, "mlpbunzip2 -n1");
	CHECK(o1 && o1->installed, "mlpbunzip2 found beside the test binary");
	/* One round, and one more of ours where -n2 came out faster than the
	 * CPUs allow: one round of a decode of a few ms, which a stall of the
	 * host's (a huge page it must back again: 10 ms) can double. */
	CHECK(o1->check == APP_BZ2_PROC_CHECK_OK && o1->nruns == 1u + x.retimed && o1->median_seconds > 0 &&
		      !o1->failure[0],
	      "ours: check %d, %u runs (retimed %d), failure '%s'", o1->check, o1->nruns, x.retimed, o1->failure);
	for (unsigned i = 0; i < x.nrows; i++)
		CHECK(!x.rows[i].installed || x.rows[i].check == APP_BZ2_PROC_CHECK_OK, "%s: check %d, failure '%s'",
		      x.rows[i].label, x.rows[i].check, x.rows[i].failure);
	CHECK(anon >= held && x.fork_floor_bytes > 0 && x.fork_floor_bytes < anon / 2,
	      "the runs' fork floor %.1f MiB, this process's anonymous pages %.1f MiB", x.fork_floor_bytes / 1048576,
	      anon / 1048576);
	CHECK(o1 && o1->peak_rss_max_bytes < anon / 2 && !o1->peak_rss_at_floor, "ours -n1 peaked at %.1f MiB%s",
	      o1 ? o1->peak_rss_max_bytes / 1048576 : 0, o1 && o1->peak_rss_at_floor ? " (at the floor)" : "");
	free(ballast);
}

/* The budget: the rounds are priced, and the fit takes them to three after
 * the variants and trials, before a prefix of the file. */
TEST(bzip2_processes_fit_prices_rounds_and_shrinks_them_before_the_prefix)
{
	struct app_bzip2_params q = {
		.path = "user.bz2", .max_k = 32, .trials = 3, .max_workers = 2, .tools = true, .layout = -1,
		.prefetch = -1, .output_fresh = -1, .budget_seconds = 50, .npages = 1, .pages = {PAGES_HUGE},
		.process_rounds = APP_BZ2_PROC_ROUNDS,
	};
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct app_bzip2_params none = q, three = q;
	bool shrank = false;

	CHECK(r, "out of memory");
	none.process_rounds = 0;
	three.process_rounds = APP_BZ2_PROC_ROUNDS_QUICK;
	for (double t1 = 1e-3; t1 < 1e3; t1 *= 1.25) {
		struct app_bzip2_rates rt = {.k1 = t1, .lanes = 0.4 * t1, .hash = 0.2 * t1};
		struct app_bzip2_shrink sh;

		app_bzip2_fit(&none, r, &rt, 38, &sh);
		double c0 = app_bzip2_cost(&none, r, 3, &rt), c3 = app_bzip2_cost(&three, r, 3, &rt),
		       c5 = app_bzip2_cost(&q, r, 3, &rt);

		CHECK(c0 < c3 && c3 < c5, "t1 %.3f: cost without rounds %.3f, 3 rounds %.3f, 5 rounds %.3f", t1, c0, c3, c5);
		app_bzip2_fit(&q, r, &rt, 38, &sh);
		CHECK(!sh.blocks || sh.rounds == APP_BZ2_PROC_ROUNDS_QUICK, "t1 %.3f: a prefix with %u rounds", t1,
		      sh.rounds);
		CHECK(sh.rounds == APP_BZ2_PROC_ROUNDS || (sh.reduced && sh.trials == 2), "t1 %.3f: rounds %u before "
		      "the variants and trials shrank", t1, sh.rounds);
		if (sh.rounds < APP_BZ2_PROC_ROUNDS)
			shrank = shrank || strstr(r->shrunk, "whole-process rounds 5 -> 3") != NULL;
	}
	CHECK(shrank, "the rounds never shrank, or unsaid in shrunk");
	free(r);
}

/* Ours on every CPU at once: a copy that fails leaves no figure and says
 * why, and -nN above what the CPUs allowed at once is marked. */
TEST(bzip2_processes_at_once_fails_plainly_and_marks_a_speedup_above_it)
{
	struct fake f = {.installed = {"mlpbunzip2"}, .together_fails = true};
	struct app_bzip2_proc_ops ops = ops_of(&f);
	static struct app_bzip2_processes x;
	char *text = NULL;

	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 4);
	app_bzip2_processes_measure(&x, &ops, "/tmp/in.bz2", 5, EXPECT_BYTES, EXPECT_SHA);
	text = text_of(&x);
	CHECK(f.together_calls == 1 && x.together_allow_speedup == 0 &&
	      strstr(text, "at once: mlpbunzip2 -n1 on each CPU together: no figures (run 1: a copy: exit status 2)"),
	      "a failed copy: %u calls, allow %.3f:\n%s", f.together_calls, x.together_allow_speedup, text);
	free(text);
	/* Copies at once four times as slow as alone: 4 threads can reach 1x. */
	x.together.failure[0] = 0;
	x.together.nruns = 5;
	for (unsigned r = 0; r < x.together.nruns; r++)
		for (unsigned c = 0; c < x.together.ncpus; c++)
			x.together.wall_seconds[r][c] = 8.0;
	app_bzip2_processes_derive(&x);
	text = text_of(&x);
	CHECK(near(x.together_allow_speedup, 1.0) && strstr(text, "4 threads can reach 1.00x its one-thread time with "
							       "every CPU busy; -n4 reached 364% of it, ABOVE it"),
	      "above what the CPUs allowed at once (%.3f):\n%s", x.together_allow_speedup, text);
	free(text);
}

/* The JSON a run writes is read back, vetted (units by key name) and holds
 * nulls, never zeros, where a command has no figure. */
TEST(bzip2_processes_json_is_vetted_and_nulls_what_was_not_measured)
{
	struct fake f = {.installed = {"mlpbunzip2", "bzip2", "lbzip2"}, .bad_output = "lbzip2 -n4"};
	struct app_bzip2_proc_ops ops = ops_of(&f);
	static struct app_bzip2_processes x;
	struct jsonr_doc doc = {0};
	struct jsonw w;
	char *text = NULL, err[300] = "";
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	const struct jsonr_value *rows, *seven, *lb4;
	double v;

	CHECK(m, "memstream");
	app_bzip2_processes_plan(&x, &ops, cpus4, 4, 4);
	app_bzip2_processes_measure(&x, &ops, "/tmp/in.bz2", 5, EXPECT_BYTES, EXPECT_SHA);
	x.fork_floor_bytes = 8.0 * 1048576;
	app_bzip2_processes_derive(&x);
	jsonw_init(&w, m);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	jsonw_uint(&w, "schema_version", 1);
	jsonw_object_begin(&w, "app");
	jsonw_object_begin(&w, "bzip2");
	app_bzip2_processes_write_json(&x, &w, "whole_process");
	jsonw_object_end(&w);
	jsonw_object_end(&w);
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(m);
	CHECK(!jsonr_parse(text, len, 0, &doc, err, sizeof(err)), "parse: %s\n%s", err, text);
	CHECK(!vet_result(doc.root, "synthetic", err, sizeof(err)), "vet: %s", err);
	rows = jsonr_get(doc.root, "app.bzip2.whole_process.rows");
	CHECK(rows && rows->type == JSONR_ARRAY && rows->u.children.count == 12, "rows");
	seven = jsonr_index(rows, 8);
	lb4 = jsonr_index(rows, 7);
	CHECK(!strcmp(jsonr_get_string(seven, "label"), "7zz -mmt1") && jsonr_get(seven, "median_seconds")->type ==
	      JSONR_NULL, "a missing peer's median is null");
	CHECK(!strcmp(jsonr_get_string(lb4, "check"), "MISMATCH") && jsonr_get(lb4, "median_seconds")->type ==
	      JSONR_NULL && jsonr_get(lb4, "failure")->type == JSONR_STRING, "a mismatch: null figures, its failure");
	CHECK(jsonr_get_number(jsonr_index(rows, 5), "peer_over_ours", &v) && near(v, 2.1), "bzip2/ours %.3f", v);
	CHECK(jsonr_is_true(jsonr_index(rows, 2), "cpu_probe") &&
	      jsonr_get_number(doc.root, "app.bzip2.whole_process.cpus_allow_speedup", &v) && near(v, 3.8),
	      "a probe row, and what the CPUs allow: %.3f", v);
	{
		const struct jsonr_value *walls_at_once = jsonr_get(doc.root, "app.bzip2.whole_process.together.wall_seconds");

		/* JSON numbers carry 6 significant digits. */
		CHECK(jsonr_get_number(doc.root, "app.bzip2.whole_process.together_allow_speedup", &v) &&
		      v > 3.70908 && v < 3.70910 && walls_at_once && walls_at_once->u.children.count == 5 &&
		      jsonr_index(walls_at_once, 4)->u.children.count == 4,
		      "at once: allow %.3f and each round's walls on each CPU (%zu rounds)", v,
		      walls_at_once ? walls_at_once->u.children.count : 0);
	}
	jsonr_free(&doc);
	free(text);
}
