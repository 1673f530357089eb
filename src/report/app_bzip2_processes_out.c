/*
 * `app bzip2`'s whole-process table and JSON. Wall seconds are the median
 * of the alternated rounds with their min and max, because one round on a
 * shared machine can be hit by a neighbour's burst and the median drops
 * it; CPU-s per GB (1e9 B of output) shows what the threads cost beside
 * what they save; peak RSS is the child's own (wait4), MiB = 2^20 B.
 * peer/ours: the peer's median over ours at the same thread count (above
 * 1: ours is faster). The CPUs line names the state of the CPUs the N
 * threads ran on (ours at one thread on each probed one): a speed-up short
 * of N is the machine's when one CPU is slower, ours when they are alike.
 */
#include "report/app_bzip2_processes_out.h"

#define MIB (1024.0 * 1024.0)

static const char *check_name(enum app_bzip2_proc_check c)
{
	return c == APP_BZ2_PROC_CHECK_OK ? "ok" : c == APP_BZ2_PROC_CHECK_MISMATCH ? "MISMATCH" : "unchecked";
}

static void cpus_text(const struct app_bzip2_proc_row *w, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < w->ncpus && n + 1 < len; i++) {
		int k = snprintf(buf + n, len - n, "%s%d", i ? "," : "", w->cpus[i]);

		n += k > 0 ? (size_t)k : 0;
	}
}

static void row_text(const struct app_bzip2_proc_row *w, FILE *f)
{
	char cpus[48], wall[48], ratio[16] = "-", rss[24];

	cpus_text(w, cpus, sizeof(cpus));
	if (!w->installed) {
		fprintf(f, "  %-20s %-9s not installed\n", w->label, "-");
		return;
	}
	if (w->failure[0] || !w->nruns) {
		fprintf(f, "  %-20s %-9s %s: %s\n", w->label, cpus, w->check == APP_BZ2_PROC_CHECK_MISMATCH ?
			"MISMATCH, no figures" : "FAILED, no figures", w->failure[0] ? w->failure : "no run");
		return;
	}
	snprintf(wall, sizeof(wall), "%.4f (%.4f-%.4f)", w->median_seconds, w->min_seconds, w->max_seconds);
	if (w->peer_over_ours > 0)
		snprintf(ratio, sizeof(ratio), "%.2f", w->peer_over_ours);
	snprintf(rss, sizeof(rss), "%s%.1f", w->peak_rss_at_floor ? "<=" : "", w->peak_rss_max_bytes / MIB);
	fprintf(f, "  %-20s %-9s %-27s %9.2f %9s %-6s %9s\n", w->label, cpus, wall, w->cpu_seconds_per_gb, rss,
		check_name(w->check), ratio);
}

/* What the CPUs allowed the N-thread run, and over the input's blocks in
 * order, beside what it reached (its share of the tighter). */
static void cpus_line(const struct app_bzip2_processes *x, FILE *f)
{
	const struct app_bzip2_proc_row *one = app_bzip2_processes_ours(x, 1);
	double allow = x->blocks_allow_speedup > 0 ? x->blocks_allow_speedup : x->cpus_allow_speedup;
	char blocks[96] = "";

	if (x->cpus_allow_speedup <= 0 || !one)
		return;
	fprintf(f, "  the CPUs: mlpbunzip2 -n1 %.4f s on CPU %d", one->median_seconds, one->cpus[0]);
	for (unsigned i = 0; i < x->nrows; i++)
		if (x->rows[i].cpu_probe)
			fprintf(f, ", %.4f on CPU %d", x->rows[i].median_seconds, x->rows[i].cpus[0]);
	if (x->blocks_allow_speedup > 0)
		snprintf(blocks, sizeof(blocks), ", %.2fx over its %u block%s in order", x->blocks_allow_speedup, x->blocks,
			 x->blocks == 1 ? "" : "s");
	fprintf(f, ": %u threads can reach %.2fx its one-thread time here%s; -n%u reached %.2fx (%.0f%% of %.2fx)%s%s\n",
		x->threads, x->cpus_allow_speedup, blocks, x->threads, x->ours_speedup, 100 * x->ours_speedup / allow, allow,
		x->cpus_allow_speedup < 0.95 * x->threads ? "; a slower CPU is shared (a neighbour on the host or an "
							     "SMT sibling)" : "",
		x->above_cpus ? "; ABOVE what the CPUs allow, after a round more of ours: the CPUs changed state "
				"between the rounds, so neither figure holds" : x->retimed ? "; retimed a round more "
				"(above what the CPUs allowed at first)" : "");
}

/* The same divided inside each round, medians over the rounds. */
static void paired_line(const struct app_bzip2_processes *x, FILE *f)
{
	if (!x->paired_rounds)
		return;
	fprintf(f, "  paired by round (each round's -n1 over its -n%u, and that round's CPUs; medians of %u): -n%u "
		   "reached %.2fx, the CPUs allowed %.2fx, %.0f%% of it\n",
		x->threads, x->paired_rounds, x->threads, x->paired_speedup, x->paired_allow_speedup,
		100 * x->paired_share);
}

/* What the CPUs allowed running at once (each its own -n1 copy), beside
 * what -nN reached. */
static void together_line(const struct app_bzip2_processes *x, FILE *f)
{
	const struct app_bzip2_proc_together *t = &x->together;

	if (t->failure[0]) {
		fprintf(f, "  at once: mlpbunzip2 -n1 on each CPU together: no figures (%s)\n", t->failure);
		return;
	}
	if (x->together_allow_speedup <= 0)
		return;
	fprintf(f, "  at once: mlpbunzip2 -n1 on each CPU together");
	for (unsigned c = 0; c < t->ncpus; c++)
		fprintf(f, c ? ", %.4f on CPU %d" : " %.4f s on CPU %d", t->median_seconds[c], t->cpus[c]);
	fprintf(f, ": %u threads can reach %.2fx its one-thread time with every CPU busy", x->threads,
		x->together_allow_speedup);
	if (x->ours_speedup > 0)
		fprintf(f, "; -n%u reached %.0f%% of it%s", x->threads, 100 * x->ours_speedup / x->together_allow_speedup,
			x->ours_speedup > 1.05 * x->together_allow_speedup ? ", ABOVE it: the CPUs changed state between "
									      "the rounds" : "");
	fprintf(f, "\n");
}

void app_bzip2_processes_write_text(const struct app_bzip2_processes *x, FILE *f)
{
	if (!x->ran) {
		if (x->budget_cut)
			fprintf(f, "  whole process: left out, the budget's share for it spent\n");
		return;
	}
	fprintf(f, "  whole process, wall seconds, median (min-max) of %u alternated run%s, pinned; CPU-s/GB; "
		   "peak RSS MiB\n", x->rounds, x->rounds == 1 ? "" : "s");
	if (x->budget_cut)
		fprintf(f, "  (%u of %u rounds: the budget's share for them spent)\n", x->rounds, x->rounds_asked);
	fprintf(f, "  %-20s %-9s %-27s %9s %9s %-6s %9s\n", "command", "CPUs", "wall s median (min-max)", "CPU-s/GB",
		"peak MiB", "check", "peer/ours");
	for (unsigned i = 0; i < x->nrows; i++)
		row_text(&x->rows[i], f);
	cpus_line(x, f);
	paired_line(x, f);
	together_line(x, f);
	fprintf(f, "  each a process over the same file, stdout to /dev/null, its start and exit in the time; check: "
		   "its output's size and SHA-256 (one untimed run first); peer/ours: its median over mlpbunzip2's "
		   "at the same thread count\n");
	for (unsigned i = 0; i < x->nrows; i++)
		if (x->rows[i].peak_rss_at_floor) {
			fprintf(f, "  peak MiB <=: within the %.1f MiB a child holds when it calls exec (the anonymous "
				   "pages of the process that forks it, counted in ru_maxrss): its own peak is that or "
				   "less\n", x->fork_floor_bytes / MIB);
			break;
		}
}

static void row_json(struct jsonw *w, const void *e)
{
	const struct app_bzip2_proc_row *r = e;
	bool figures = r->installed && !r->failure[0] && r->nruns;

	jsonw_string(w, "name", r->name);
	jsonw_string(w, "label", r->label);
	jsonw_string(w, "command", r->command);
	jsonw_bool(w, "ours", r->ours);
	jsonw_bool(w, "cpu_probe", r->cpu_probe);
	jsonw_bool(w, "installed", r->installed);
	jsonw_string_or_null(w, "path", r->installed, r->path);
	jsonw_uint(w, "threads", r->threads);
	jsonw_array_begin(w, "pinned_cpus");
	for (unsigned i = 0; i < r->ncpus; i++)
		jsonw_int(w, NULL, r->cpus[i]);
	jsonw_array_end(w);
	jsonw_string(w, "check", check_name(r->check));
	jsonw_uint_or_null(w, "output_bytes", r->check != APP_BZ2_PROC_UNCHECKED, r->output_bytes);
	jsonw_string_or_null(w, "failure", r->failure[0], r->failure);
	jsonw_uint(w, "runs", r->nruns);
	jsonw_double_array(w, "wall_seconds", r->wall_seconds, r->nruns);
	jsonw_double_array(w, "user_seconds", r->user_seconds, r->nruns);
	jsonw_double_array(w, "sys_seconds", r->sys_seconds, r->nruns);
	jsonw_double_array(w, "peak_rss_bytes", r->peak_rss_bytes, r->nruns);
	jsonw_double_or_null(w, "median_seconds", figures, r->median_seconds);
	jsonw_double_or_null(w, "min_seconds", figures, r->min_seconds);
	jsonw_double_or_null(w, "max_seconds", figures, r->max_seconds);
	jsonw_double_or_null(w, "cpu_seconds_per_gb", figures, r->cpu_seconds_per_gb);
	jsonw_double_or_null(w, "peak_rss_max_bytes", figures, r->peak_rss_max_bytes);
	jsonw_bool(w, "peak_rss_at_fork_floor", r->peak_rss_at_floor);
	jsonw_double_or_null(w, "peer_over_ours", r->peer_over_ours > 0, r->peer_over_ours);
}

/* Ours -n1 on each CPU at once: the CPUs, each round's walls, the medians. */
static void together_json(struct jsonw *w, const struct app_bzip2_proc_together *t)
{
	bool figures = t->nruns && !t->failure[0];

	jsonw_object_begin(w, "together");
	jsonw_array_begin(w, "pinned_cpus");
	for (unsigned c = 0; c < t->ncpus; c++)
		jsonw_int(w, NULL, t->cpus[c]);
	jsonw_array_end(w);
	jsonw_uint(w, "runs", t->nruns);
	jsonw_array_begin(w, "wall_seconds");
	for (unsigned r = 0; r < t->nruns; r++)
		jsonw_double_array(w, NULL, t->wall_seconds[r], t->ncpus);
	jsonw_array_end(w);
	if (figures)
		jsonw_double_array(w, "median_seconds", t->median_seconds, t->ncpus);
	else
		jsonw_null(w, "median_seconds");
	jsonw_string_or_null(w, "failure", t->failure[0], t->failure);
	jsonw_object_end(w);
}

/* The keys of the whole-process object before its rows, in order. */
static const struct jsonw_field processes_fields[] = {
	JSONW_FIELD(BOOL, "ran", struct app_bzip2_processes, ran),
	JSONW_FIELD(BOOL, "budget_cut", struct app_bzip2_processes, budget_cut),
	JSONW_FIELD(UINT, "rounds_asked", struct app_bzip2_processes, rounds_asked),
	JSONW_FIELD(UINT, "rounds", struct app_bzip2_processes, rounds),
	JSONW_FIELD(UINT, "max_threads", struct app_bzip2_processes, threads),
	JSONW_FIELD(UINT, "expected_output_bytes", struct app_bzip2_processes, expected_bytes),
	JSONW_FIELD(TEXT, "expected_output_sha256", struct app_bzip2_processes, expected_sha256),
	JSONW_FIELD(DOUBLE, "fork_floor_rss_bytes", struct app_bzip2_processes, fork_floor_bytes),
};

void app_bzip2_processes_write_json(const struct app_bzip2_processes *x, struct jsonw *w, const char *key)
{
	if (!x->ran && !x->budget_cut)
		return;
	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, x, processes_fields);
	jsonw_double_or_null(w, "cpus_allow_speedup", x->cpus_allow_speedup > 0, x->cpus_allow_speedup);
	jsonw_double_or_null(w, "ours_speedup", x->ours_speedup > 0, x->ours_speedup);
	jsonw_uint(w, "blocks", x->blocks);
	jsonw_double_or_null(w, "last_block_share", x->blocks > 0, x->last_block_share);
	jsonw_double_or_null(w, "blocks_allow_speedup", x->blocks_allow_speedup > 0, x->blocks_allow_speedup);
	jsonw_uint(w, "paired_rounds", x->paired_rounds);
	jsonw_double_or_null(w, "paired_speedup", x->paired_rounds > 0, x->paired_speedup);
	jsonw_double_or_null(w, "paired_cpus_allow_speedup", x->paired_rounds > 0, x->paired_allow_speedup);
	jsonw_double_or_null(w, "paired_share", x->paired_rounds > 0, x->paired_share);
	jsonw_bool(w, "ours_retimed", x->retimed);
	jsonw_bool(w, "ours_speedup_above_cpus", x->above_cpus);
	together_json(w, &x->together);
	jsonw_double_or_null(w, "together_allow_speedup", x->together_allow_speedup > 0, x->together_allow_speedup);
	JSONW_OBJECT_ARRAY_EACH(w, "rows", x->rows, x->nrows, row_json);
	jsonw_object_end(w);
}
