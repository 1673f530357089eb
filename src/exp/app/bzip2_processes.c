/*
 * The whole decoder as processes (bzip2_processes.h): the plan of commands,
 * the alternated rounds and the figures, all through the seam, then the
 * live seam itself: each command a child pinned before exec, its wall time
 * and rusage from a fresh copy of this program that forks it (child_run.h:
 * so its peak RSS is its own). The wall clock includes the fork and the
 * exec, as a shell's would; no shell runs. A command's output
 * is checked once, before the rounds, by size and SHA-256 of what it wrote
 * to an unlinked temporary file; the timed runs write to /dev/null, so no
 * reader of a pipe shares the CPUs with the decoder.
 */
#include "exp/app/bzip2_processes.h"

#include "bzip2/bz2.h"
#include "core/clock.h"
#include "core/host.h"
#include "core/stats.h"
#include "exp/app/child_run.h"
#include "util/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the plan ---- */

/* Each program's argv before the file, then its thread option with the
 * count attached ("-n" -> "-n2"); no thread option: a one-thread program
 * only. */
static const struct proc_spec {
	const char *name;
	const char *args[4];          /* before the thread option */
	const char *thread_opt;       /* "-n"; NULL: no thread option, one thread */
} specs[] = {
	{"mlpbunzip2", {"-c"}, "-n"},
	{"bzip2", {"-dc"}, NULL},
	{"lbzip2", {"-d", "-c"}, "-n"},
	{"7zz", {"e", "-so"}, "-mmt"},
	{"pbzip2", {"-d", "-c"}, "-p"},
};

#define NSPECS (sizeof(specs) / sizeof(specs[0]))

static void row_command(struct app_bzip2_proc_row *w, const struct proc_spec *s)
{
	char opt[24] = "";
	int n;

	if (s->thread_opt)
		snprintf(opt, sizeof(opt), "%s%u", s->thread_opt, w->threads);
	n = snprintf(w->command, sizeof(w->command), "%s", s->name);
	for (unsigned i = 0; i < 4 && s->args[i]; i++)
		n += snprintf(w->command + n, sizeof(w->command) - (size_t)n, " %s", s->args[i]);
	if (opt[0])
		n += snprintf(w->command + n, sizeof(w->command) - (size_t)n, " %s", opt);
	snprintf(w->command + n, sizeof(w->command) - (size_t)n, " FILE >/dev/null");
	snprintf(w->label, sizeof(w->label), "%s%s%s", s->name, opt[0] ? " " : "", opt);
}

static struct app_bzip2_proc_row *add_row(struct app_bzip2_processes *x, const struct app_bzip2_proc_ops *ops,
					  const struct proc_spec *s, const int *cpus, unsigned threads)
{
	struct app_bzip2_proc_row *w;

	if (x->nrows >= APP_BZ2_PROC_CMDS)
		return NULL;
	w = &x->rows[x->nrows++];
	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", s->name);
	w->ours = !strcmp(s->name, "mlpbunzip2");
	w->threads = threads;
	w->ncpus = threads;
	memcpy(w->cpus, cpus, threads * sizeof(*cpus));
	row_command(w, s);
	w->installed = !ops->find(ops->ctx, s->name, w->path, sizeof(w->path));
	if (!w->installed)
		w->path[0] = 0;
	return w;
}

/* Ours at one thread on other CPUs of the N, spread over them: the first
 * CPU's time over theirs says what N threads can reach here. */
static void add_probes(struct app_bzip2_processes *x, const struct app_bzip2_proc_ops *ops, const int *cpus,
		       unsigned threads)
{
	unsigned probes = threads - 1 < APP_BZ2_PROC_PROBES ? threads - 1 : APP_BZ2_PROC_PROBES;

	for (unsigned k = 0; k < probes; k++) {
		unsigned at = 1 + k * (threads - 1) / probes;
		struct app_bzip2_proc_row *w = add_row(x, ops, &specs[0], &cpus[at], 1);

		if (!w)
			return;
		w->cpu_probe = true;
		snprintf(w->label, sizeof(w->label), "mlpbunzip2 -n1 cpu%d", cpus[at]);
	}
}

void app_bzip2_processes_plan(struct app_bzip2_processes *x, const struct app_bzip2_proc_ops *ops, const int *cpus,
			      unsigned ncpus, unsigned threads)
{
	memset(x, 0, sizeof(*x));
	if (threads > ncpus)
		threads = ncpus;
	if (threads > APP_BZ2_PROC_CPUS)
		threads = APP_BZ2_PROC_CPUS;
	x->threads = threads;
	if (!ncpus)
		return;
	for (size_t i = 0; i < NSPECS; i++) {
		add_row(x, ops, &specs[i], cpus, 1);
		if (specs[i].thread_opt && threads >= 2)
			add_row(x, ops, &specs[i], cpus, threads);
		if (i == 0 && threads >= 2)
			add_probes(x, ops, cpus, threads);
	}
	if (threads >= 2 && ops->together) {
		x->together.ncpus = threads;
		memcpy(x->together.cpus, cpus, threads * sizeof(*cpus));
	}
}

/* ---- the rounds ---- */

/* The row's argv: the spec's, the thread option, the file. */
static void row_argv(const struct app_bzip2_proc_row *w, const char *file, const char **argv, char *opt, size_t optlen)
{
	const struct proc_spec *s = NULL;
	unsigned n = 0;

	for (size_t i = 0; i < NSPECS && !s; i++)
		if (!strcmp(specs[i].name, w->name))
			s = &specs[i];
	argv[n++] = w->path;
	for (unsigned i = 0; s && i < 4 && s->args[i]; i++)
		argv[n++] = s->args[i];
	if (s && s->thread_opt) {
		snprintf(opt, optlen, "%s%u", s->thread_opt, w->threads);
		argv[n++] = opt;
	}
	argv[n++] = file;
	argv[n] = NULL;
}

static bool row_standing(const struct app_bzip2_proc_row *w)
{
	return w->installed && !w->failure[0];
}

/* The untimed check run: its output's size and hash against the expected. */
static void check_row(struct app_bzip2_proc_row *w, const struct app_bzip2_proc_ops *ops, const char *file,
		      size_t expected_bytes, const char *expected_sha256)
{
	const char *argv[10];
	char opt[24], why[100];
	struct app_bzip2_proc_run run = {0};

	row_argv(w, file, argv, opt, sizeof(opt));
	if (ops->run(ops->ctx, argv, w->cpus, w->ncpus, true, &run, why, sizeof(why))) {
		snprintf(w->failure, sizeof(w->failure), "check run: %s", why);
		return;
	}
	w->output_bytes = run.output_bytes;
	if (run.output_bytes != expected_bytes || strcmp(run.output_sha256, expected_sha256)) {
		w->check = APP_BZ2_PROC_CHECK_MISMATCH;
		snprintf(w->failure, sizeof(w->failure), "output %zu bytes, sha256 %.16s...; expected %zu bytes, %.16s...",
			 run.output_bytes, run.output_sha256, expected_bytes, expected_sha256);
		return;
	}
	w->check = APP_BZ2_PROC_CHECK_OK;
}

static void time_row(struct app_bzip2_proc_row *w, const struct app_bzip2_proc_ops *ops, const char *file)
{
	const char *argv[10];
	char opt[24], why[100];
	struct app_bzip2_proc_run run = {0};

	row_argv(w, file, argv, opt, sizeof(opt));
	if (ops->run(ops->ctx, argv, w->cpus, w->ncpus, false, &run, why, sizeof(why))) {
		snprintf(w->failure, sizeof(w->failure), "run %u: %s", w->nruns + 1, why);
		return;
	}
	w->wall_seconds[w->nruns] = run.wall_seconds;
	w->user_seconds[w->nruns] = run.user_seconds;
	w->sys_seconds[w->nruns] = run.sys_seconds;
	w->peak_rss_bytes[w->nruns] = run.peak_rss_bytes;
	w->nruns++;
}

/* The row of ours at `threads` on the first CPUs (not a probe), figures
 * or none; NULL when the plan has none. */
static const struct app_bzip2_proc_row *ours_row(const struct app_bzip2_processes *x, unsigned threads)
{
	for (unsigned i = 0; i < x->nrows; i++)
		if (x->rows[i].ours && !x->rows[i].cpu_probe && x->rows[i].threads == threads)
			return &x->rows[i];
	return NULL;
}

/* Ours at one thread on each of the N CPUs at once, a round's copies. */
static void time_together(struct app_bzip2_processes *x, const struct app_bzip2_proc_ops *ops, const char *file)
{
	struct app_bzip2_proc_together *t = &x->together;
	const struct app_bzip2_proc_row *one = ours_row(x, 1);
	const char *argv[10];
	char opt[24], why[100];

	if (!t->ncpus || t->failure[0] || t->nruns >= APP_BZ2_PROC_RUNS || !one || !row_standing(one))
		return;
	row_argv(one, file, argv, opt, sizeof(opt));
	if (ops->together(ops->ctx, argv, t->cpus, t->ncpus, t->wall_seconds[t->nruns], why, sizeof(why))) {
		snprintf(t->failure, sizeof(t->failure), "run %u: %s", t->nruns + 1, why);
		return;
	}
	t->nruns++;
}

/* Ours' rows (at 1 and N threads, and the probes) one round more: the N
 * threads ran faster than the CPUs allow, so the CPUs' state changed
 * between the rounds. */
static void retime_ours(struct app_bzip2_processes *x, const struct app_bzip2_proc_ops *ops, const char *file)
{
	for (unsigned i = 0; i < x->nrows; i++)
		if (x->rows[i].ours && row_standing(&x->rows[i]) && x->rows[i].nruns < APP_BZ2_PROC_RUNS)
			time_row(&x->rows[i], ops, file);
}

bool app_bzip2_processes_above_cpus(const struct app_bzip2_processes *x)
{
	const struct app_bzip2_proc_row *all = app_bzip2_processes_ours(x, x->threads);
	double spread;

	if (x->cpus_allow_speedup <= 0 || !all)
		return false;
	/* The N-thread row's own spread over its rounds is the tolerance,
	 * 5% at least. */
	spread = (all->max_seconds - all->min_seconds) / all->median_seconds;
	return x->ours_speedup > x->cpus_allow_speedup * (1 + (spread > 0.05 ? spread : 0.05));
}

int app_bzip2_processes_measure(struct app_bzip2_processes *x, const struct app_bzip2_proc_ops *ops, const char *file,
				unsigned rounds, size_t expected_bytes, const char *expected_sha256)
{
	x->ran = true;
	x->rounds_asked = rounds < APP_BZ2_PROC_RUNS ? rounds : APP_BZ2_PROC_RUNS;
	x->expected_bytes = expected_bytes;
	snprintf(x->expected_sha256, sizeof(x->expected_sha256), "%s", expected_sha256);
	for (unsigned i = 0; i < x->nrows; i++)
		if (x->rows[i].installed)
			check_row(&x->rows[i], ops, file, expected_bytes, expected_sha256);
	for (unsigned k = 0; k < x->rounds_asked; k++) {
		if (k >= 1 && ops->past && ops->past(ops->ctx)) {
			x->budget_cut = true;
			break;
		}
		for (unsigned i = 0; i < x->nrows; i++)
			if (row_standing(&x->rows[i]))
				time_row(&x->rows[i], ops, file);
		time_together(x, ops, file);
		x->rounds++;
	}
	app_bzip2_processes_derive(x);
	if (app_bzip2_processes_above_cpus(x)) {
		retime_ours(x, ops, file);
		app_bzip2_processes_derive(x);
		x->retimed = true;
		x->above_cpus = app_bzip2_processes_above_cpus(x);
	}
	return 0;
}

/* ---- the figures ---- */

static void derive_row(struct app_bzip2_proc_row *w, size_t output_bytes, double floor_bytes)
{
	double cpu[APP_BZ2_PROC_RUNS];

	w->median_seconds = w->min_seconds = w->max_seconds = w->cpu_seconds_per_gb = w->peak_rss_max_bytes = 0;
	w->peak_rss_at_floor = false;
	if (!w->nruns || w->failure[0])
		return;
	w->median_seconds = stats_median(w->wall_seconds, w->nruns);
	w->min_seconds = w->max_seconds = w->wall_seconds[0];
	for (unsigned i = 0; i < w->nruns; i++) {
		w->min_seconds = w->wall_seconds[i] < w->min_seconds ? w->wall_seconds[i] : w->min_seconds;
		w->max_seconds = w->wall_seconds[i] > w->max_seconds ? w->wall_seconds[i] : w->max_seconds;
		w->peak_rss_max_bytes = w->peak_rss_bytes[i] > w->peak_rss_max_bytes ? w->peak_rss_bytes[i]
											: w->peak_rss_max_bytes;
		cpu[i] = w->user_seconds[i] + w->sys_seconds[i];
	}
	if (output_bytes)
		w->cpu_seconds_per_gb = stats_median(cpu, w->nruns) / ((double)output_bytes / 1e9);
	w->peak_rss_at_floor = floor_bytes > 0 && w->peak_rss_max_bytes <= floor_bytes * 1.05 + 1048576;
}

const struct app_bzip2_proc_row *app_bzip2_processes_ours(const struct app_bzip2_processes *x, unsigned threads)
{
	const struct app_bzip2_proc_row *w = ours_row(x, threads);

	return w && w->median_seconds > 0 ? w : NULL;
}

void app_bzip2_processes_set_blocks(struct app_bzip2_processes *x, const uint64_t *cand, size_t ncand, size_t len)
{
	double full, last;

	x->blocks = ncand < UINT_MAX ? (unsigned)ncand : UINT_MAX;
	x->last_block_share = ncand ? 1 : 0;
	if (ncand < 2)
		return;
	full = (double)(cand[ncand - 1] - cand[0]) / (double)(ncand - 1);
	last = (double)len * 8 - (double)cand[ncand - 1];
	x->last_block_share = full > 0 && last < full ? last / full : 1;
}

/* The blocks in order, each to the thread free first (mlpbunzip2's
 * workers take the next block as each finishes one), thread w at speed[w]
 * of the first CPU's: one thread's time over that schedule's end. */
static double blocks_allow(const struct app_bzip2_processes *x, const double *speed)
{
	double free_at[APP_BZ2_PROC_CPUS] = {0}, total = 0, end = 0;

	for (unsigned i = 0; i < x->blocks; i++) {
		double work = i + 1 == x->blocks ? x->last_block_share : 1;
		unsigned w = 0;

		for (unsigned t = 1; t < x->threads; t++)
			if (free_at[t] < free_at[w])
				w = t;
		free_at[w] += work / speed[w];
		end = free_at[w] > end ? free_at[w] : end;
		total += work;
	}
	return end > 0 ? total / end : 0;
}

/* cpus_allow_speedup, blocks_allow_speedup (where the blocks are known)
 * and ours_speedup, where ours at 1 and N threads and every probe have
 * figures. A thread past the probed CPUs runs at their mean speed. */
static void derive_cpus(struct app_bzip2_processes *x)
{
	const struct app_bzip2_proc_row *one = app_bzip2_processes_ours(x, 1);
	const struct app_bzip2_proc_row *all = app_bzip2_processes_ours(x, x->threads);
	double sum = 0, speed[APP_BZ2_PROC_CPUS] = {1};
	unsigned n = 0;

	x->cpus_allow_speedup = x->blocks_allow_speedup = x->ours_speedup = 0;
	if (!one || !all || x->threads < 2)
		return;
	for (unsigned i = 0; i < x->nrows; i++) {
		const struct app_bzip2_proc_row *w = &x->rows[i];

		if (!w->cpu_probe)
			continue;
		if (w->median_seconds <= 0)
			return;
		sum += one->median_seconds / w->median_seconds;
		if (++n < APP_BZ2_PROC_CPUS)
			speed[n] = one->median_seconds / w->median_seconds;
	}
	if (!n)
		return;
	for (unsigned t = n + 1; t < x->threads; t++)
		speed[t] = sum / n;
	x->cpus_allow_speedup = 1 + (double)(x->threads - 1) * sum / n;
	x->blocks_allow_speedup = blocks_allow(x, speed);
	x->ours_speedup = one->median_seconds / all->median_seconds;
}

/* The paired figures: each round's ratios from ours' rows, which run in
 * every round (a retime adds one to each), then their medians. */
static void derive_paired(struct app_bzip2_processes *x)
{
	const struct app_bzip2_proc_row *one = app_bzip2_processes_ours(x, 1);
	const struct app_bzip2_proc_row *all = app_bzip2_processes_ours(x, x->threads);
	double speedup[APP_BZ2_PROC_RUNS], allow[APP_BZ2_PROC_RUNS], share[APP_BZ2_PROC_RUNS];
	unsigned rounds, probes = 0;

	x->paired_rounds = 0;
	x->paired_speedup = x->paired_allow_speedup = x->paired_share = 0;
	if (x->cpus_allow_speedup <= 0 || !one || !all)
		return;
	rounds = one->nruns < all->nruns ? one->nruns : all->nruns;
	for (unsigned i = 0; i < x->nrows; i++)
		if (x->rows[i].cpu_probe) {
			probes++;
			rounds = x->rows[i].nruns < rounds ? x->rows[i].nruns : rounds;
		}
	if (!rounds || !probes)
		return;
	for (unsigned r = 0; r < rounds; r++) {
		double sum = 0;

		for (unsigned i = 0; i < x->nrows; i++)
			if (x->rows[i].cpu_probe)
				sum += one->wall_seconds[r] / x->rows[i].wall_seconds[r];
		speedup[r] = one->wall_seconds[r] / all->wall_seconds[r];
		allow[r] = 1 + (double)(x->threads - 1) * sum / probes;
		share[r] = speedup[r] / allow[r];
	}
	x->paired_rounds = rounds;
	x->paired_speedup = stats_median(speedup, rounds);
	x->paired_allow_speedup = stats_median(allow, rounds);
	x->paired_share = stats_median(share, rounds);
}

/* Each CPU's median at once, and what N threads can reach with every
 * CPU busy: the sum of ours -n1's median alone over each at once. */
static void derive_together(struct app_bzip2_processes *x)
{
	struct app_bzip2_proc_together *t = &x->together;
	const struct app_bzip2_proc_row *one = app_bzip2_processes_ours(x, 1);
	double sum = 0;

	x->together_allow_speedup = 0;
	if (!t->nruns || t->failure[0] || !one || one->median_seconds <= 0)
		return;
	for (unsigned c = 0; c < t->ncpus; c++) {
		double walls[APP_BZ2_PROC_RUNS];

		for (unsigned r = 0; r < t->nruns; r++)
			walls[r] = t->wall_seconds[r][c];
		t->median_seconds[c] = stats_median(walls, t->nruns);
		if (t->median_seconds[c] <= 0)
			return;
		sum += one->median_seconds / t->median_seconds[c];
	}
	x->together_allow_speedup = sum;
}

void app_bzip2_processes_derive(struct app_bzip2_processes *x)
{
	for (unsigned i = 0; i < x->nrows; i++)
		derive_row(&x->rows[i], x->expected_bytes, x->fork_floor_bytes);
	for (unsigned i = 0; i < x->nrows; i++) {
		struct app_bzip2_proc_row *w = &x->rows[i];
		const struct app_bzip2_proc_row *o = app_bzip2_processes_ours(x, w->threads);

		w->peer_over_ours = !w->ours && o && w->median_seconds > 0 ? w->median_seconds / o->median_seconds : 0;
	}
	derive_cpus(x);
	derive_paired(x);
	derive_together(x);
}

/* ---- the live seam ---- */

/* An executable regular file at path. */
static bool runnable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

static int find_on_path(const char *prog, char *path, size_t len)
{
	const char *env = getenv("PATH"), *p;

	for (p = env; p && *p;) {
		size_t n = strcspn(p, ":");

		if (n && (size_t)snprintf(path, len, "%.*s/%s", (int)n, p, prog) < len && runnable(path))
			return 0;
		p += n + (p[n] == ':');
	}
	return -1;
}

/* mlpbunzip2 is built beside mlpscope: the one next to the running binary
 * is the decoder these stage figures are of; PATH's may be another build. */
static int live_find(void *ctx, const char *prog, char *path, size_t len)
{
	char self[PATH_MAX], link[64];
	ssize_t n;

	(void)ctx;
	host_self_path("exe", link, sizeof(link));
	if (!strcmp(prog, "mlpbunzip2") && (n = readlink(link, self, sizeof(self) - 1)) > 0) {
		char *slash;

		self[n] = 0;
		if ((slash = strrchr(self, '/')) && (size_t)snprintf(path, len, "%.*s/%s", (int)(slash - self), self,
								      prog) < len && runnable(path))
			return 0;
	}
	return find_on_path(prog, path, len);
}

static int hash_fd(int fd, struct app_bzip2_proc_run *out)
{
	static uint8_t buf[1 << 16];
	struct sha256 s;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	sha256_init(&s);
	out->output_bytes = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		sha256_update(&s, buf, (size_t)n);
		out->output_bytes += (size_t)n;
	}
	sha256_final_hex(&s, out->output_sha256);
	return n < 0 ? -1 : 0;
}

/* Whether a child's wait status is a failure, why filled when it is. */
static bool exit_failed(int status, char *why, size_t whylen)
{
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return false;
	if (WIFSIGNALED(status))
		snprintf(why, whylen, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(why, whylen, "exit status %d%s", WEXITSTATUS(status),
			 WEXITSTATUS(status) == 126 ? " (could not be pinned)" : WEXITSTATUS(status) == 127 ?
			 " (could not be run)" : "");
	return true;
}

struct live_ctx {
	bool (*past)(void *pctx);
	void *pctx;
	struct app_bzip2_processes *x;   /* its fork floor: the most a run's forking process held */
};

/* ctx: a struct live_ctx, or NULL (a program timed alone). */
static int live_run(void *ctx, const char *const *argv, const int *cpus, unsigned ncpus, bool check,
		    struct app_bzip2_proc_run *out, char *why, size_t whylen)
{
	struct live_ctx *c = ctx;
	struct child_run run;
	int out_fd = -1, rc = -1;

	if (check && (out_fd = open("/tmp", O_TMPFILE | O_RDWR, 0600)) < 0) {
		snprintf(why, whylen, "a temporary file: %s", strerror(errno));
		return -1;
	}
	if (child_run_measured(argv, cpus, ncpus, out_fd, &run, why, whylen))
		goto out;
	out->wall_seconds = run.wall_seconds;
	out->user_seconds = run.user_seconds;
	out->sys_seconds = run.sys_seconds;
	out->peak_rss_bytes = run.peak_rss_bytes;
	if (c && run.floor_bytes > c->x->fork_floor_bytes)
		c->x->fork_floor_bytes = run.floor_bytes;
	if (exit_failed(run.status, why, whylen))
		goto out;
	if (check && hash_fd(out_fd, out)) {
		snprintf(why, whylen, "reading its output: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (out_fd >= 0)
		close(out_fd);
	return rc;
}

/* The copies forked one after another, each pinned in the child, and
 * reaped in the order they end: each one's wall from before the first fork
 * to its own reaping. This process has no other children while it runs
 * them (the commands run one at a time), so wait4 on any is on ours. */
static int live_together(void *ctx, const char *const *argv, const int *cpus, unsigned n, double *walls, char *why,
			 size_t whylen)
{
	pid_t pids[APP_BZ2_PROC_CPUS];
	unsigned started = 0, left;
	int rc = 0;
	uint64_t t0;

	(void)ctx;
	t0 = clock_wall_ns();
	for (; started < n && started < APP_BZ2_PROC_CPUS; started++) {
		if ((pids[started] = fork()) < 0) {
			snprintf(why, whylen, "fork: %s", strerror(errno));
			rc = -1;
			break;
		}
		if (!pids[started])
			child_run_exec(argv, &cpus[started], 1, -1);
	}
	for (left = started; left;) {
		int status = 0;
		pid_t pid = wait4(-1, &status, 0, NULL);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			snprintf(why, whylen, "wait4: %s", strerror(errno));
			return -1;
		}
		for (unsigned i = 0; i < started; i++)
			if (pids[i] == pid) {
				walls[i] = (double)(clock_wall_ns() - t0) * 1e-9;
				left--;
			}
		if (!rc && exit_failed(status, why, whylen))
			rc = -1;
	}
	return rc;
}

static bool live_past(void *ctx)
{
	const struct live_ctx *c = ctx;

	return c->past && c->past(c->pctx);
}

int app_bzip2_processes_run(struct app_bzip2_processes *x, const uint8_t *in, size_t len, const int *cpus,
			    unsigned ncpus, unsigned threads, unsigned rounds, size_t expected_bytes,
			    const char *expected_sha256, bool (*past)(void *pctx), void *pctx)
{
	struct live_ctx c = {.past = past, .pctx = pctx, .x = x};
	struct app_bzip2_proc_ops ops = {.find = live_find, .run = live_run, .together = live_together,
					 .past = live_past, .ctx = &c};
	char tmp[] = "/tmp/mlpscope-bzip2-processes-XXXXXX.bz2";
	uint64_t *cand;
	size_t ncand = 0;
	int fd, rc;

	app_bzip2_processes_plan(x, &ops, cpus, ncpus, threads);
	if (!(cand = bz2_scan_blocks(in, len, &ncand)))
		return -ENOMEM;
	app_bzip2_processes_set_blocks(x, cand, ncand, len);
	free(cand);
	if ((fd = mkstemps(tmp, 4)) < 0)
		return -errno;
	rc = write(fd, in, len) == (ssize_t)len ? 0 : -EIO;
	close(fd);
	x->fork_floor_bytes = 0;
	if (!rc)
		rc = app_bzip2_processes_measure(x, &ops, tmp, rounds, expected_bytes, expected_sha256);
	unlink(tmp);
	return rc;
}

int app_bzip2_program_find(const char *prog, char *path, size_t len)
{
	return live_find(NULL, prog, path, len);
}

int app_bzip2_program_run(const char *const *argv, int cpu, double *seconds, char *why, size_t whylen)
{
	struct app_bzip2_proc_run run = {0};
	int rc = live_run(NULL, argv, &cpu, 1, false, &run, why, whylen);

	*seconds = run.wall_seconds;
	return rc;
}
