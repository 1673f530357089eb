/*
 * parse -> plan -> run -> report. The only file that prints errors and picks
 * exit codes: 0 ok, 1 runtime failure, 2 usage (always before any
 * measurement), 130 interrupted. A first Ctrl-C asks the sweep to stop at
 * the next timed region and nothing is written; a second one exits at once,
 * removing the temporary result file.
 */
#include "cli.h"
#include "clock.h"
#include "exp/app.h"
#include "exp/bandwidth.h"
#include "exp/latency.h"
#include "exp/loaded.h"
#include "exp/multicore.h"
#include "exp/mlp.h"
#include "exp/model_cmd.h"
#include "exp/noise.h"
#include "exp/trace.h"
#include "exp/window.h"
#include "machine.h"
#include "plan.h"
#include "provenance.h"
#include "jsonr.h"
#include "report/atomic.h"
#include "report/compare.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/report.h"
#include "report/window_out.h"
#include "topo.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;
/* The temporaries of --json and --html, removed by a second Ctrl-C that
 * does not wait. */
static char pending_tmp[2][PATH_MAX];

static void on_signal(int sig)
{
	(void)sig;
	if (stop_requested) {
		/* unlink and _exit are async-signal-safe. */
		for (int i = 0; i < 2; i++)
			if (pending_tmp[i][0])
				unlink(pending_tmp[i]);
		_exit(130);
	}
	stop_requested = 1;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

struct progress {
	const char *label;
};

static void show_progress(void *ctx, double fraction)
{
	const struct progress *p = ctx;

	fprintf(stderr, "\r  %s: %3.0f%%", p->label, 100.0 * fraction);
	fflush(stderr);
}

static int run_mlp(const struct plan *plan, const struct options *o, struct report *r)
{
	bool tty = isatty(STDERR_FILENO);

	for (int i = 0; i < plan->npages; i++) {
		struct progress prog = {plan->pages[i] == PAGES_HUGE ? "mlp (huge pages)" : "mlp (small pages)"};
		struct mlp_params mp = {
			.working_set_bytes = plan->working_set_bytes,
			.spacing_bytes = plan->spacing_bytes,
			.line_bytes = r->topo.line_bytes,
			.pages = plan->pages[i],
			.max_lanes = o->max_lanes,
			.repeats = o->repeat,
			.trials = o->trials ? o->trials : 6,
			.accesses = plan->accesses,
			.seed = o->seed,
			.clock = &r->clock,
			.stop = &stop_requested,
			.progress = tty ? show_progress : NULL,
			.progress_ctx = &prog,
		};
		struct mlp_result *m = &r->mlp[i];
		int rc = mlp_run(&mp, m);

		if (tty)
			fputs("\r\033[K", stderr);
		r->nmlp = i + 1;
		if (rc == -EINTR)
			return 130;
		if (rc == -EPROTO) {
			fprintf(stderr, "mlpscope: layout check failed: walked %zu steps, %zu distinct nodes, "
				"%zu distinct lines, expected %zu nodes and %zu lines; refusing to report\n",
				m->layout.steps_walked, m->layout.distinct_nodes_walked,
				m->layout.distinct_lines_walked, m->layout.nodes, m->layout.expected_lines);
			return 1;
		}
		if (rc) {
			fprintf(stderr, "mlpscope: mlp: %s\n", strerror(-rc));
			return 1;
		}
		if (plan->pages[i] == PAGES_HUGE && m->huge_bytes_obtained < m->total_bytes * 9 / 10)
			result_warn(r, "huge pages requested but %.1f%% obtained (THP off, fragmented, or "
				    "MADV_COLLAPSE errno %d): translation misses are part of this result",
				    m->total_bytes ? 100.0 * (double)m->huge_bytes_obtained / (double)m->total_bytes : 0.0,
				    m->collapse_errno);
		if (!m->estimate.flat_at_end)
			result_warn(r, "mlp (%s pages): the curve was still falling at --max-lanes %u; "
				    "the plateau may lie beyond it", m->pages_requested, o->max_lanes);
		if (m->estimate.repeats_agreeing < m->estimate.repeats)
			result_warn(r, "mlp (%s pages): only %u of %u sweeps agreed on the saturation",
				    m->pages_requested, m->estimate.repeats_agreeing, m->estimate.repeats);
	}
	return 0;
}

/* --dump-code: raw machine code of one probe, for a disassembler. */
static int dump_probe_code(const struct plan *plan)
{
	int rc;

	if (isatty(STDOUT_FILENO)) {
		fprintf(stderr, "mlpscope: --dump-code: refusing to write machine code to a terminal "
			"(expected a redirect, e.g. > probe.bin)\n");
		return 2;
	}
	rc = window_dump_code(plan->dump_filler, plan->dump_n, stdout);
	if (rc == -ENOTSUP) {
		fprintf(stderr, "mlpscope: window: the probe is unsupported on this ISA (x86-64 and AArch64 only)\n");
		return 0;
	}
	if (rc || fflush(stdout)) {
		fprintf(stderr, "mlpscope: --dump-code: %s\n", strerror(rc ? -rc : errno));
		return 1;
	}
	return 0;
}

/* Map an experiment's -errno to an exit status, saying why on stderr. */
static int section_failed(const char *section, int rc)
{
	if (rc == -EINTR)
		return 130;
	if (rc == -EPROTO)
		fprintf(stderr, "mlpscope: %s: a layout check failed (a chain does not visit the lines it "
			"claims); refusing to report\n", section);
	else
		fprintf(stderr, "mlpscope: %s: %s\n", section, strerror(-rc));
	return 1;
}

static void fill_reported_caches(const struct topo *t, size_t *out, int cap)
{
	int n = 0;

	for (int level = 1; level <= 4 && n < cap - 1; level++)
		for (int i = 0; i < t->ncaches; i++)
			if (t->caches[i].level == level && strcmp(t->caches[i].type, "Instruction") &&
			    t->caches[i].size_bytes && n < cap - 1)
				out[n++] = t->caches[i].size_bytes;
	out[n] = 0;
}

static int run_noise(const struct options *o, struct report *r)
{
	struct noise_params np = {.clock = &r->clock, .seed = o->seed, .stop = &stop_requested};
	int rc = noise_run(&np, &r->noise);

	if (rc)
		return section_failed("noise", rc);
	r->has_noise = true;
	return 0;
}

static int run_latency(const struct plan *plan, const struct options *o, struct report *r)
{
	struct progress prog = {"latency"};
	struct latency_params lp = {
		.max_bytes = plan->working_set_bytes,
		.points_near_caches = true,
		.line_bytes = r->topo.line_bytes,
		.noise_floor_pct = r->noise.floor_pct,
		.seed = o->seed,
		.clock = &r->clock,
		.stop = &stop_requested,
		.progress = isatty(STDERR_FILENO) ? show_progress : NULL,
		.progress_ctx = &prog,
	};
	struct machine_core_clock cc;
	int rc;

	fill_reported_caches(&r->topo, lp.reported_cache_bytes, LATENCY_CACHES_MAX);
	/* --quick: two points per octave, three trials, and a largest size of
	 * 4x the last-level cache (at least 256 MiB): still far past every
	 * cache, and building the chains is most of this section's time. */
	if (o->quick) {
		size_t quick_max = 4 * topo_largest_cache_bytes(&r->topo);

		if (quick_max < ((size_t)256 << 20))
			quick_max = (size_t)256 << 20;
		if (!o->size_bytes && quick_max < lp.max_bytes)
			lp.max_bytes = quick_max;
		lp.points_per_octave = 2;
		lp.trials = 3;
	}
	/* Cycles need a core-clock estimate: the machine section's when it ran,
	 * else a quick one here (35 ms). */
	if (r->has_machine && !r->machine.core_clock_rc)
		cc = r->machine.core_clock;
	else if (machine_estimate_core_clock(&r->clock, MACHINE_CLOCK_SAMPLES, MACHINE_CLOCK_SAMPLE_MS, &cc))
		cc.min_mhz = cc.max_mhz = 0;
	lp.core_mhz_min = cc.min_mhz;
	lp.core_mhz_max = cc.max_mhz;
	rc = latency_run(&lp, &r->latency);
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (rc)
		return section_failed("latency", rc);
	r->has_latency = true;
	if (r->latency.nfalls_found)
		result_warn(r, "latency: the curve falls where it must rise at %zu point(s): a probable layout or "
			    "measurement fault, not smoothed", r->latency.nfalls_found);
	return 0;
}

/* bandwidth/multicore/loaded fill err with what failed; their usage errors
 * were all refused by plan_make before anything ran. */
static int threaded_failed(const char *section, int rc, const char *err)
{
	if (rc == -EINTR || rc == -EPROTO || !err[0])
		return section_failed(section, rc);
	fprintf(stderr, "mlpscope: %s: %s (%s)\n", section, err, strerror(-rc));
	return 1;
}

static int run_bandwidth(const struct options *o, struct report *r)
{
	struct bandwidth_params bp;
	char err[CLI_ERR_LEN] = "";
	int rc;

	bandwidth_params_default(&bp, &r->clock, &r->topo, o->quick);
	bp.max_threads = o->threads;
	bp.seed = o->seed;
	bp.stop = &stop_requested;
	if ((rc = bandwidth_run(&bp, &r->bandwidth, err, sizeof(err))))
		return threaded_failed("bandwidth", rc, err);
	r->has_bandwidth = true;
	return 0;
}

static int run_multicore(const struct options *o, struct report *r)
{
	struct multicore_params mp;
	char err[CLI_ERR_LEN] = "";
	int rc;

	multicore_params_default(&mp, &r->clock, &r->topo, o->quick);
	mp.max_threads = o->threads;
	mp.seed = o->seed;
	mp.stop = &stop_requested;
	if ((rc = multicore_run(&mp, &r->multicore, err, sizeof(err))))
		return threaded_failed("multicore", rc, err);
	r->has_multicore = true;
	return 0;
}

static int run_loaded(const struct plan *plan, const struct options *o, struct report *r)
{
	struct loaded_params lp;
	char err[CLI_ERR_LEN] = "";
	int rc;

	loaded_params_default(&lp, &r->clock, &r->topo, o->quick);
	lp.threads = o->threads;
	lp.seed = o->seed;
	lp.stop = &stop_requested;
	if (plan->skip_loaded)
		return 0;
	if ((rc = loaded_run(&lp, &r->loaded, err, sizeof(err))))
		return threaded_failed("loaded", rc, err);
	r->has_loaded = true;
	return 0;
}

static int run_window(const struct plan *plan, const struct options *o, struct report *r)
{
	struct progress prog = {"window"};
	struct window_params wp;
	int rc;

	window_params_default(&wp, topo_largest_cache_bytes(&r->topo), &r->clock, &stop_requested);
	if (o->size_bytes)
		wp.working_set_bytes = plan->working_set_bytes;
	if (o->trials)
		wp.trials = o->trials;
	if (o->max_n)
		wp.max_n = o->max_n;
	wp.filler_mask = plan->window_fillers;
	wp.seed = o->seed;
	wp.progress = isatty(STDERR_FILENO) ? show_progress : NULL;
	wp.progress_ctx = &prog;
	rc = window_run(&wp, &r->window);
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (rc == -ENOTSUP) {
		result_warn(r, "window: the probe is unsupported on this ISA (x86-64 and AArch64 only)");
		return 0;
	}
	if (rc)
		return section_failed("window", rc);
	r->has_window = true;
	return 0;
}

/* app KERNEL: the walk with its chase reference. Temporary wiring: the
 * section registry makes this a row. */
static int run_app(const struct plan *plan, const struct options *o, struct report *r)
{
	struct app_params ap = {
		.footprint_bytes = plan->app_footprint_bytes,
		.largest_cache_bytes = topo_largest_cache_bytes(&r->topo),
		.line_bytes = r->topo.line_bytes,
		.pages = plan->pages[plan->npages - 1],
		.max_k = o->max_lanes < APP_K_MAX ? o->max_lanes : APP_K_MAX,
		.trials = o->trials ? (o->trials < APP_TRIALS_MAX ? o->trials : APP_TRIALS_MAX) : 3,
		.seed = o->seed,
		.chase = true,
		.clock = &r->clock,
		.stop = &stop_requested,
		.input = TEXTGEN_MARKOV,
		.text_path = o->text_path,
		.bzip2 = o->bzip2,
	};
	struct app_kernel_result *k = &r->app.kernels[0];
	char err[CLI_ERR_LEN] = "";
	int rc;

	if (o->input)
		textgen_parse(o->input, &ap.input);
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "  app %s: setting up and sweeping...", o->app_kernel);
	rc = app_run(o->app_kernel, &ap, k, err, sizeof(err));
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (rc == -EPROTO) {
		fprintf(stderr, "mlpscope: app %s: check failed: %s; refusing to report\n", o->app_kernel,
			k->check.failure);
		return 1;
	}
	if (rc && err[0]) {
		fprintf(stderr, "mlpscope: app %s: %s\n", o->app_kernel, err);
		return 1;
	}
	if (rc)
		return section_failed("app", rc);
	r->app.nkernels = 1;
	r->has_app = true;
	if (o->text_path)
		result_warn(r, "app %s: --text '%s': round trip held (%u runs, output equal to the file)",
			    o->app_kernel, o->text_path, k->check.runs_checked);
	if (k->may_fit_cache && !o->text_path && !o->bzip2)
		result_warn(r, "app %s: the %zu-byte table may fit in a cache: R compares cache behaviour",
			    o->app_kernel, k->footprint_bytes);
	if (ap.pages == PAGES_HUGE && k->huge_bytes_obtained < k->total_bytes * 9 / 10)
		result_warn(r, "app %s: huge pages requested but %.1f%% obtained: translation misses are part of "
			    "this result", o->app_kernel,
			    k->total_bytes ? 100.0 * (double)k->huge_bytes_obtained / (double)k->total_bytes : 0.0);
	return 0;
}

/* The report's sections, in the order that decides how far the next can be
 * trusted: what the machine permits, how noisy the instrument is, then the
 * measurements that use that noise as their tolerance. */
static int run_sections(const struct plan *plan, const struct options *o, struct report *r)
{
	bool all = o->command == CMD_REPORT;
	int rc;

	if (all || o->command == CMD_MACHINE) {
		if ((rc = machine_probe(&r->machine, &r->clock)))
			return section_failed("machine", rc);
		r->has_machine = true;
	}
	if ((all || o->command == CMD_NOISE || o->command == CMD_LATENCY) && (rc = run_noise(o, r)))
		return rc;
	if ((all || o->command == CMD_LATENCY) && (rc = run_latency(plan, o, r)))
		return rc;
	if ((all || o->command == CMD_MLP) && (rc = run_mlp(plan, o, r)))
		return rc;
	if ((all || o->command == CMD_BANDWIDTH) && (rc = run_bandwidth(o, r)))
		return rc;
	if ((all || o->command == CMD_MULTICORE) && (rc = run_multicore(o, r)))
		return rc;
	if ((all || o->command == CMD_LOADED) && (rc = run_loaded(plan, o, r)))
		return rc;
	if (o->command == CMD_APP)
		return run_app(plan, o, r);
	if (o->command == CMD_WINDOW)
		return run_window(plan, o, r);
	return 0;
}

/* The files a run writes besides stdout, opened before any measurement so a
 * bad path is a usage error, and committed together at the end. */
struct outputs {
	struct atomic_file json, html;
};

static int open_output(struct atomic_file *a, const char *flag, const char *path)
{
	int rc = path ? atomic_open(a, path) : 0;

	if (rc)
		fprintf(stderr, "mlpscope: %s: cannot write '%s': %s (expected a writable file path)\n", flag, path,
			strerror(-rc));
	return rc;
}

/* Check, without creating anything, that dir is (or can be made) a
 * writable directory: an interrupted or failed run must leave nothing. */
static int check_output_dir(const char *flag, const char *dir)
{
	struct stat st;
	char parent[PATH_MAX];
	int rc = 0;

	if (!dir)
		return 0;
	if (stat(dir, &st) == 0)
		rc = !S_ISDIR(st.st_mode) ? -ENOTDIR : access(dir, W_OK | X_OK) ? -errno : 0;
	else if (errno != ENOENT || snprintf(parent, sizeof(parent), "%s", dir) >= (int)sizeof(parent))
		rc = errno == ENOENT ? -ENAMETOOLONG : -errno;
	else
		rc = access(dirname(parent), W_OK | X_OK) ? -errno : 0;
	if (rc)
		fprintf(stderr, "mlpscope: %s: cannot use '%s' as a directory: %s (expected a writable directory)\n",
			flag, dir, strerror(-rc));
	return rc;
}

/* The paths a second Ctrl-C removes; written with the signals blocked so
 * the handler never sees half a path. */
static void set_pending(int i, const char *path)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	snprintf(pending_tmp[i], sizeof(pending_tmp[i]), "%s", path);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int open_outputs(const struct options *o, struct outputs *out)
{
	if (open_output(&out->json, "--json", o->json_path) || open_output(&out->html, "--html", o->html_path) ||
	    check_output_dir("--svg", o->svg_dir) || check_output_dir("--csv", o->csv_dir))
		return 2;
	/* A second Ctrl-C exits at once; it removes these on its way out. */
	set_pending(0, out->json.tmp);
	set_pending(1, out->html.tmp);
	return 0;
}

static void abort_outputs(struct outputs *out)
{
	atomic_abort(&out->json);
	atomic_abort(&out->html);
}

/* HTML, SVG and CSV are drawn from the JSON document, the same input
 * `compare` reads from files: one code path for one run and for many. */
static int write_drawn_outputs(const struct options *o, const struct report *r, struct outputs *out)
{
	char *buf = NULL, err[CLI_ERR_LEN];
	size_t len = 0;
	struct jsonr_doc doc = {0};
	const struct jsonr_value *docs[1];
	const char *labels[1] = {r->topo.cpu_model};
	FILE *m;
	int rc = 0;

	if (!out->html.f && !o->svg_dir && !o->csv_dir)
		return 0;
	if (!(m = open_memstream(&buf, &len)))
		return -errno;
	report_write_json(r, m);
	fclose(m);
	if ((rc = jsonr_parse(buf, len, 0, &doc, err, sizeof(err)))) {
		fprintf(stderr, "mlpscope: the result does not read back as JSON: %s\n", err);
		goto out;
	}
	docs[0] = doc.root;
	if (out->html.f) {
		rc = html_write(out->html.f, docs, labels, 1);
		set_pending(1, "");
		if (!rc && (rc = atomic_commit(&out->html)))
			fprintf(stderr, "mlpscope: --html: writing '%s' failed: %s\n", o->html_path, strerror(-rc));
		else if (rc)
			fprintf(stderr, "mlpscope: --html: %s\n", strerror(-rc));
		if (rc)
			goto out;
	}
	if (o->svg_dir && (rc = svg_write_dir(o->svg_dir, docs, labels, 1))) {
		fprintf(stderr, "mlpscope: --svg: writing into '%s' failed: %s\n", o->svg_dir, strerror(-rc));
		goto out;
	}
	if (o->csv_dir && (rc = csv_write_dir(o->csv_dir, doc.root)))
		fprintf(stderr, "mlpscope: --csv: writing into '%s' failed: %s\n", o->csv_dir, strerror(-rc));
out:
	jsonr_free(&doc);
	free(buf);
	return rc;
}

static int write_outputs(const struct options *o, const struct report *r, struct outputs *out)
{
	int rc;

	report_write_text(r, stdout);
	fflush(stdout);
	if (out->json.f) {
		report_write_json(r, out->json.f);
		set_pending(0, "");
		if ((rc = atomic_commit(&out->json))) {
			fprintf(stderr, "mlpscope: --json: writing '%s' failed: %s\n", o->json_path, strerror(-rc));
			return 1;
		}
	}
	return write_drawn_outputs(o, r, out) ? 1 : 0;
}

static int measure_and_report(const struct options *o)
{
	static struct report r;
	struct plan plan;
	struct outputs out = {0};
	char err[CLI_ERR_LEN];
	int rc;

	r.version = provenance_version();
	topo_read(&r.topo);
	if (plan_make(o, &r.topo, &plan, &r, err, sizeof(err))) {
		fprintf(stderr, "mlpscope: %s\n", err);
		return 2;
	}
	if (plan.dump_code)
		return dump_probe_code(&plan);
	install_signals();
	if (open_outputs(o, &out)) {
		abort_outputs(&out);
		return 2;
	}
	if (plan.cpu >= 0 && (rc = topo_pin(&r.topo, plan.cpu)))
		result_warn(&r, "could not pin to CPU %d: %s; results may include migrations", plan.cpu,
			    strerror(-rc));
	clock_init(&r.clock);
	plan_fit_clock(&plan, &r.clock, &r);
	provenance_collect(&r.prov, o->seed);

	rc = run_sections(&plan, o, &r);
	if (rc == 130)
		fprintf(stderr, "mlpscope: interrupted; no result written\n");
	if (!rc)
		rc = write_outputs(o, &r, &out);
	abort_outputs(&out);
	result_free(&r);
	return rc;
}

/* compare reads results and measures nothing. */
static int compare_files(const struct options *o)
{
	char err[CLI_ERR_LEN] = "";
	int rc;

	if (check_output_dir("--svg", o->svg_dir))
		return 2;
	/* An unwritable --html is a usage error, found before any file is read. */
	if (o->html_path) {
		struct atomic_file probe;

		if (open_output(&probe, "--html", o->html_path))
			return 2;
		atomic_abort(&probe);
	}
	rc = compare_run(o->compare_paths, o->ncompare, stdout, o->html_path, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "mlpscope: %s\n", err);
		return rc;
	}
	if (o->svg_dir) {
		struct jsonr_doc docs[COMPARE_MAX_RUNS];
		const struct jsonr_value *roots[COMPARE_MAX_RUNS];
		unsigned n = 0;

		for (; n < o->ncompare; n++) {
			if ((rc = compare_load(o->compare_paths[n], &docs[n], err, sizeof(err))))
				break;
			roots[n] = docs[n].root;
		}
		if (!rc && (rc = svg_write_dir(o->svg_dir, roots, o->compare_paths, n)))
			snprintf(err, sizeof(err), "--svg: writing into '%s' failed: %s", o->svg_dir, strerror(-rc));
		while (n)
			jsonr_free(&docs[--n]);
		if (rc) {
			fprintf(stderr, "mlpscope: %s\n", err);
			return 1;
		}
	}
	return 0;
}

/* model and trace read files and measure nothing: no pinning, no clock. */
static int analyse_files(const struct options *o)
{
	char err[CLI_ERR_LEN] = "";
	int rc;

	if (o->command == CMD_MODEL) {
		rc = model_cmd_run(o->from_path, stdout, err, sizeof(err));
	} else {
		struct topo t;
		uint64_t caches[TOPO_MAX_CACHES];
		size_t n = 0;

		/* The hit rates a trace would see in the caches this machine reports. */
		topo_read(&t);
		for (int i = 0; i < t.ncaches; i++)
			if (strcmp(t.caches[i].type, "Instruction") && t.caches[i].size_bytes)
				caches[n++] = t.caches[i].size_bytes;
		rc = trace_cmd_run_caches(o->trace_path, o->from_path, n ? caches : NULL, n, stdout, err,
					  sizeof(err));
	}
	if (rc)
		fprintf(stderr, "mlpscope: %s\n", err);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	char err[CLI_ERR_LEN];

	if (cli_parse(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "mlpscope: %s\n", err);
		return 2;
	}
	switch (o.command) {
	case CMD_HELP:
		if (cli_print_help(stdout, o.help_topic)) {
			fprintf(stderr, "mlpscope: help: '%s' is not a command (see mlpscope --help for the list)\n",
				o.help_topic);
			return 2;
		}
		return 0;
	case CMD_VERSION:
		printf("mlpscope %s\n", provenance_version());
		return 0;
	case CMD_REPORT:
	case CMD_MACHINE:
	case CMD_NOISE:
	case CMD_LATENCY:
	case CMD_MLP:
	case CMD_BANDWIDTH:
	case CMD_MULTICORE:
	case CMD_LOADED:
	case CMD_WINDOW:
	case CMD_APP:
		break;
	case CMD_MODEL:
	case CMD_TRACE:
		return analyse_files(&o);
	case CMD_COMPARE:
		return compare_files(&o);
	}
	return measure_and_report(&o);
}
