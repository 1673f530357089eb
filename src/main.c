/*
 * parse -> plan -> run -> report. The only file that prints errors and picks
 * exit codes: 0 ok, 1 runtime failure, 2 usage (always before any
 * measurement), 130 interrupted. One signal policy for every command that
 * writes files: an interrupted command leaves no temporary behind (the
 * atomic writer lists them). A measuring run's first Ctrl-C or SIGTERM asks
 * the sweep to stop at the next timed region and nothing is written; a
 * second one exits at once. Commands that only read files exit at the first.
 */
#include "archive.h"
#include "cli.h"
#include "core/clock.h"
#include "frame/registry.h"
#include "frame/plan.h"
#include "provenance.h"
#include "util/jsonr.h"
#include "outpaths.h"
#include "util/atomic.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/prom.h"
#include "frame/document.h"
#include "report/svg.h"
#include "core/host.h"
#include "core/topo.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

/* unlink (inside atomic_remove_pending) and _exit are async-signal-safe. */
static void exit_now(int sig)
{
	(void)sig;
	atomic_remove_pending();
	_exit(130);
}

static void on_signal(int sig)
{
	if (stop_requested)
		exit_now(sig);
	stop_requested = 1;
}

static void install_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Progress on a terminal: ctx is the running section's struct section_run. */
static void show_progress(void *ctx, double fraction)
{
	const struct section_run *s = ctx;

	fprintf(stderr, "\r  %s: %3.0f%%", s->label, 100.0 * fraction);
	fflush(stderr);
}

static void clear_progress(void)
{
	fputs("\r\033[K", stderr);
}

/* Map a section's -errno to an exit status, saying why on stderr. */
static int section_failed(const char *section, int rc, const char *err)
{
	if (rc == -EINTR)
		return 130;
	if (err[0])
		fprintf(stderr, "mlpscope: %s\n", err);
	else if (rc == -EPROTO)
		fprintf(stderr, "mlpscope: %s: a layout check failed (a chain does not visit the lines it "
			"claims); refusing to report\n", section);
	else
		fprintf(stderr, "mlpscope: %s: %s\n", section, strerror(-rc));
	return 1;
}

/* The report's sections in registry order, which is the order that decides
 * how far the next can be trusted: what the machine permits, how noisy the
 * instrument is, then the measurements that use that noise as tolerance. */
static int run_sections(struct section_run *s)
{
	struct report *r = s->r;

	for (size_t i = 0; i < registry_count; i++) {
		const struct section *row = registry[i];
		struct budget_section *bs;
		uint64_t w0;
		int rc;

		if (!registry_runs(s->o->command, row))
			continue;
		bs = s->plan->has_budget ? budget_section(&s->plan->budget, row->name) : NULL;
		if (!(r->results[i] = calloc(1, row->result_bytes)))
			return section_failed(row->name, -ENOMEM, "");
		s->err[0] = 0;
		if (bs && bs->refused) {
			result_warn(r, "%s: not run: the budget cannot hold a defensible figure (%.0f s at the least; "
				    "see plan)", row->name, bs->planned_s);
			free(r->results[i]);
			r->results[i] = NULL;
			continue;
		}
		w0 = clock_wall_ns();
		rc = row->run(s, r->results[i]);
		if (bs)
			bs->actual_s = (double)(clock_wall_ns() - w0) / 1e9;
		/* A signal that came while the pin, the clock or a section's
		 * set-up ran, before any loop looked at the flag, still stops the
		 * run: a result from a run the user stopped is not written. */
		if (stop_requested && rc >= 0)
			rc = -EINTR;
		if (rc < 0)
			return section_failed(row->name, rc, s->err);
		if (rc > 0) {  /* skipped: nothing to write */
			if (row->free)
				row->free(r->results[i]);
			free(r->results[i]);
			r->results[i] = NULL;
		}
	}
	return stop_requested ? 130 : 0;
}

/* The files a run writes besides stdout, opened before any measurement so a
 * bad path is a usage error, and committed together at the end. */
struct outputs {
	struct atomic_file json, html, prom;
};

static int open_output(struct atomic_file *a, const char *flag, const char *path)
{
	int rc = path ? atomic_open(a, path) : 0;

	if (rc)
		fprintf(stderr, "mlpscope: %s: cannot write '%s': %s (expected a writable file path)\n", flag, path,
			atomic_strerror(rc));
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

static int open_outputs(const struct options *o, struct outputs *out)
{
	char err[CLI_ERR_LEN];

	if (o->archive_dir && archive_check_dir(o->archive_dir, err, sizeof(err))) {
		fprintf(stderr, "mlpscope: %s\n", err);
		return 2;
	}
	if (open_output(&out->json, "--json", o->json_path) || open_output(&out->html, "--html", o->html_path) ||
	    open_output(&out->prom, "--prom", o->prom_path) ||
	    check_output_dir("--svg", o->svg_dir) || check_output_dir("--csv", o->csv_dir))
		return 2;
	return 0;
}

static void abort_outputs(struct outputs *out)
{
	atomic_abort(&out->json);
	atomic_abort(&out->html);
	atomic_abort(&out->prom);
}

/* HTML, Prometheus text, SVG and CSV are drawn from the JSON document, the same input
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

	if (!out->html.f && !out->prom.f && !o->svg_dir && !o->csv_dir)
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
		if (!(rc = html_write(out->html.f, registry_views(), docs, labels, 1)))
			rc = atomic_commit(&out->html);
		if (rc) {
			fprintf(stderr, "mlpscope: --html: writing '%s' failed: %s\n", o->html_path, strerror(-rc));
			goto out;
		}
	}
	if (out->prom.f) {
		if (!(rc = prom_write(out->prom.f, registry_views(), doc.root)))
			rc = atomic_commit(&out->prom);
		if (rc) {
			fprintf(stderr, "mlpscope: --prom: writing '%s' failed: %s\n", o->prom_path, strerror(-rc));
			goto out;
		}
	}
	if (o->svg_dir && (rc = svg_write_dir(o->svg_dir, registry_views(), docs, labels, 1))) {
		fprintf(stderr, "mlpscope: --svg: writing into '%s' failed: %s\n", o->svg_dir, strerror(-rc));
		goto out;
	}
	if (o->csv_dir && (rc = registry_write_csv(o->csv_dir, doc.root)))
		fprintf(stderr, "mlpscope: --csv: writing into '%s' failed: %s\n", o->csv_dir, strerror(-rc));
out:
	jsonr_free(&doc);
	free(buf);
	return rc;
}

static int write_outputs(const struct options *o, struct report *r, struct outputs *out)
{
	char err[CLI_ERR_LEN], exe[64];
	int rc;

	host_self_path("exe", exe, sizeof(exe));
	if (o->archive_dir && archive_binary(o->archive_dir, exe, &r->prov, err, sizeof(err))) {
		fprintf(stderr, "mlpscope: %s\n", err);
		return 1;
	}

	/* "-" gave stdout to a file output: the text would corrupt it. */
	if (!outpaths_stdout_taken(o))
		report_write_text(r, stdout);
	if (fflush(stdout)) {
		fprintf(stderr, "mlpscope: writing the report to standard output failed: %s\n", strerror(errno));
		return 1;
	}
	if (out->json.f) {
		report_write_json(r, out->json.f);
		if ((rc = atomic_commit(&out->json))) {
			fprintf(stderr, "mlpscope: --json: writing '%s' failed: %s\n", o->json_path, strerror(-rc));
			return 1;
		}
	}
	return write_drawn_outputs(o, r, out) ? 1 : 0;
}

/* MLPSCOPE_HOST=DIR: every machine fact from the recorded host in DIR
 * (core/host.h) instead of this machine, a testing aid (the measurements
 * still time this machine), said in the report's warnings. */
static int use_recorded_host(struct report *r)
{
	const char *dir = getenv("MLPSCOPE_HOST");
	char err[CLI_ERR_LEN];

	if (!dir || !*dir)
		return 0;
	if (host_use_recorded(dir, err, sizeof(err))) {
		fprintf(stderr, "mlpscope: MLPSCOPE_HOST: %s\n", err);
		return 2;
	}
	result_warn(r, "machine facts replayed from the recorded host %s (MLPSCOPE_HOST), not read from this "
		    "machine: the measurements are this machine's", dir);
	return 0;
}

/* The budget: rates measured, every section's sizes fitted, and the
 * estimate said before the long work starts. */
static void plan_the_budget(struct section_run *s)
{
	struct budget_row rows[BUDGET_SECTIONS];
	const struct options *o = s->o;
	unsigned n = registry_budget_rows(o->command, rows, BUDGET_SECTIONS);

	plan_budget(s->plan, o, s->r, o->command->kind == SECTION_REPORT ? BUDGET_FULL_REPORT : o->command->name, rows, n);
	fputs("mlpscope: ", stderr);
	budget_write_plan_line(&s->plan->budget, stderr);
}

/* A run whose asked-for measurement the planner refused would exit 0 with
 * none of it (only the machine facts, the noise floor or a companion
 * section such as latency's tlb): say so and fail before measuring. A
 * loaded machine prices the same work higher, so this can follow load. */
static bool nothing_asked_fits(const struct options *o, struct budget *b)
{
	const char *what = NULL;

	if (o->command->kind == SECTION_REPORT) {
		if (budget_refused_every_measurement(b))
			what = "any section's";
	} else {
		const struct budget_section *own = budget_section(b, o->command->name);

		if (own && own->refused)
			what = "its";
	}
	if (what)
		fprintf(stderr, "mlpscope: %s: nothing measured: the budget (%.0f s; --budget SECONDS, 5..86400) cannot "
			"hold %s smallest plan (see the plan above); no result written\n", o->command->name,
			b->budget_s, what);
	return what != NULL;
}

static int measure_and_report(const struct options *o)
{
	static struct report r;
	struct plan plan;
	struct outputs out = {0};
	struct section_run s = {
		.o = o, .plan = &plan, .r = &r, .stop = &stop_requested,
		.progress = isatty(STDERR_FILENO) ? show_progress : NULL, .progress_done = clear_progress,
	};
	char err[CLI_ERR_LEN], why[300];
	uint64_t w0;
	int rc;

	r.version = provenance_version();
	if (use_recorded_host(&r))
		return 2;
	topo_read(&r.topo);
	if (plan_make(o, &r.topo, &plan, &r, err, sizeof(err)) || registry_plan(&s, err, sizeof(err))) {
		fprintf(stderr, "mlpscope: %s\n", err);
		return 2;
	}
	/* An option that asks for something other than a measurement (window's
	 * --dump-code) wins, whichever command it came with. */
	for (size_t i = 0; i < registry_count; i++)
		if (registry[i]->instead && (rc = registry[i]->instead(&s)) >= 0) {
			if (s.err[0])
				fprintf(stderr, "mlpscope: %s\n", s.err);
			return rc;
		}
	install_signals(on_signal);
	if (open_outputs(o, &out)) {
		abort_outputs(&out);
		return 2;
	}
	if (plan.cpu >= 0 && (rc = topo_pin(&r.topo, plan.cpu)))
		result_warn(&r, "could not pin to CPU %d: %s; results may include migrations", plan.cpu,
			    strerror(-rc));
	clock_init(&r.clock);
	plan_fit_clock(&plan, &r.clock, &r);
	provenance_collect(&r.prov, o->seed, r.topo.cpu);
	plan_the_budget(&s);
	if (plan.has_budget && nothing_asked_fits(o, &plan.budget)) {
		abort_outputs(&out);
		return 1;
	}

	w0 = clock_wall_ns();
	rc = run_sections(&s);
	plan.budget.actual_s = (double)(clock_wall_ns() - w0) / 1e9;
	plan.budget.peak_rss_bytes = budget_peak_rss_bytes();
	if (rc == 130)
		fprintf(stderr, "mlpscope: interrupted; no result written\n");
	if (!rc && plan.has_budget && budget_overrun(&plan.budget, why, sizeof(why)))
		result_warn(&r, "%s", why);
	if (!rc) {
		report_check_readable(&r);
		rc = write_outputs(o, &r, &out);
	}
	abort_outputs(&out);
	registry_free_results(&r);
	return rc;
}

/* model, trace and compare read files and measure nothing: no pinning, no
 * clock. Their outputs are checked as a measuring run's are, before any
 * file is read. */
static int run_file_command(const struct options *o)
{
	char err[CLI_ERR_LEN] = "";
	int rc;

	install_signals(exit_now);
	if (check_output_dir("--svg", o->svg_dir))
		return 2;
	if (o->html_path) {
		struct atomic_file probe;

		if (open_output(&probe, "--html", o->html_path))
			return 2;
		atomic_abort(&probe);
	}
	if ((rc = o->command->command(o, err, sizeof(err))))
		fprintf(stderr, "mlpscope: %s\n", err);
	return rc;
}

static int run(int argc, char **argv)
{
	struct options o;
	char err[CLI_ERR_LEN];

	if (cli_parse(argc, argv, &o, err, sizeof(err)) || outpaths_check(&o, err, sizeof(err))) {
		fprintf(stderr, "mlpscope: %s\n", err);
		return 2;
	}
	if (o.version) {
		printf("mlpscope %s\n", provenance_version());
		return 0;
	}
	switch (o.command->kind) {
	case SECTION_HELP:
		if (cli_print_help(stdout, o.help_topic)) {
			fprintf(stderr, "mlpscope: help: '%s' is not a command (see mlpscope --help for the list)\n",
				o.help_topic);
			return 2;
		}
		return 0;
	case SECTION_FILE_COMMAND:
		return run_file_command(&o);
	case SECTION_REPORT:
	case SECTION_MEASURE:
		break;
	}
	return measure_and_report(&o);
}

/* Whatever the command printed on stdout (the report, --help, --version, a
 * table) is its result: a write that failed (a full disk, a closed pipe's
 * EBADF) makes the run fail, with the errno, as a failed --json does. */
int main(int argc, char **argv)
{
	/* The whole text stays in this buffer until the flush below, so a
	 * write that fails is that flush and its errno is the cause (glibc
	 * drops the rest of a buffer whose write failed, so a later flush
	 * could not tell). A terminal keeps its line buffering. */
	static char out_buf[1 << 20];
	int rc, e;

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
	rc = run(argc, argv);
	e = atomic_stream_error(stdout);
	if (!e && fflush(stdout))
		e = -(errno ? errno : EIO);
	if (e && !rc) {
		fprintf(stderr, "mlpscope: writing to standard output failed: %s\n", strerror(-e));
		rc = 1;
	}
	return rc;
}
