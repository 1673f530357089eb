/*
 * compare: load and vet every file first (so a bad third file is found
 * before any output), then gather settings and headline rows per section
 * ("group", each section's view fills its own: report/compare_table.h), and
 * print. A setting that changes what a number means (working
 * set, spacing, trials, thread count) withholds its group's rows; one that
 * differs between like runs anyway (mlpscope version, the adaptive lanes
 * range) is listed as a note and the rows stay. Rows present in only some
 * runs are skipped and said so, rather than compared against nothing.
 */
#include "sections/compare.h"
#include "frame/registry.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sections/fleet.h"
#include "analyse/load.h"
#include "util/atomic.h"
#include "report/compare_table.h"
#include "report/html.h"
#include "report/view.h"

/* Only runs that hold the section take part in a setting's comparison. */
static bool setting_differs(const struct compare_table *c, const struct compare_setting *s)
{
	const char *first = NULL;

	for (size_t i = 0; i < c->n; i++) {
		if (!s->v[i][0])
			continue;
		if (!first)
			first = s->v[i];
		else if (strcmp(first, s->v[i]))
			return true;
	}
	return false;
}

static char letter(size_t i)
{
	return (char)('A' + i);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && s[1] ? s + 1 : p;
}

static void fmt_val(char *out, size_t len, double v, double unc)
{
	int prec = fabs(v) >= 100 ? 1 : fabs(v) >= 10 ? 2 : 3;

	if (isfinite(unc))
		snprintf(out, len, "%.*f +- %.*f", prec, v, prec, unc);
	else
		snprintf(out, len, "%.*f", prec, v);
}

/* The runs compared, one letter each. */
static void print_runs(const struct compare_table *c, const char *const *labels, FILE *out)
{
	fprintf(out, "mlpscope compare: %zu runs\n", c->n);
	for (size_t i = 0; i < c->n; i++) {
		const char *cpu = jsonr_get_string(c->docs[i], "provenance.cpu_model");
		const char *ts = jsonr_get_string(c->docs[i], "provenance.timestamp_utc");
		const char *ver = jsonr_get_string(c->docs[i], "version");

		fprintf(out, "  %c  %s: %s, %s, mlpscope %s\n", letter(i), labels[i], cpu ? cpu : "unknown CPU",
			ts ? ts : "no timestamp", ver ? ver : "?");
	}
}

/* The settings that differ between the runs; group_skip[s] set where a
 * setting's rows are skipped. Returns whether nothing is compared. */
static bool print_settings(const struct compare_table *c, bool *group_skip, FILE *out)
{
	bool all_skip = false, any = false;

	fputs("\nsettings that differ:\n", out);
	for (size_t s = 0; s < c->nset; s++) {
		const struct compare_setting *st = &c->set[s];

		group_skip[s] = false;
		if (!setting_differs(c, st))
			continue;
		any = true;
		fprintf(out, "  %s%s%s:", st->group, st->group[0] ? ": " : "", st->name);
		for (size_t i = 0; i < c->n; i++)
			fprintf(out, "  %c %s", letter(i), st->v[i][0] ? st->v[i] : "(no section)");
		if (!st->skips)
			fputs("  (listed only: compared anyway)\n", out);
		else if (!st->group[0])
			fputs("  -> nothing compared\n", out);
		else
			fprintf(out, "  -> %s rows skipped\n", st->group);
		group_skip[s] = st->skips;
		all_skip |= st->skips && !st->group[0];
	}
	if (!any)
		fputs("  none\n", out);
	return all_skip;
}

/* One compared row: the quantity, each run's value and each run over A. */
static void print_row(const struct compare_table *c, const struct compare_row *row, int vw, FILE *out)
{
	char name[96];

	/* Arm rows carry their page kind: "MLP estimate Ks (huge pages)". */
	if (!strncmp(row->group, "mlp (", 5))
		snprintf(name, sizeof(name), "%s %s", row->name, row->group + 4);
	else
		snprintf(name, sizeof(name), "%s", row->name);
	fprintf(out, "%-40s %-7s", name, row->unit);
	for (size_t i = 0; i < c->n; i++) {
		char v[48];

		fmt_val(v, sizeof(v), row->v[i], row->unc[i]);
		fprintf(out, " %*s", vw, v);
	}
	for (size_t i = 1; i < c->n; i++) {
		double ratio = row->v[i] / row->v[0];

		/* A ratio over a vanishing A is no figure, whatever passed vetting. */
		if (row->v[0] != 0 && isfinite(ratio))
			fprintf(out, "  %5.2f ", ratio);
		else
			fputs("      - ", out);
	}
}

static void print_report(const struct compare_table *c, const char *const *labels, FILE *out)
{
	bool all_skip = false, any = false;
	bool group_skip[COMPARE_MAX_SETTINGS];
	char why[COMPARE_MAX_ROWS][200];
	int vw = 18;

	print_runs(c, labels, out);
	all_skip = print_settings(c, group_skip, out);

	fprintf(out, "\n%-40s %-7s", "quantity", "unit");
	for (size_t i = 0; i < c->n; i++)
		fprintf(out, " %*c", vw, letter(i));
	for (size_t i = 1; i < c->n; i++)
		fprintf(out, "  %c/%c  ", letter(i), 'A');
	fputc('\n', out);
	for (size_t r = 0; r < c->nrows; r++) {
		const struct compare_row *row = &c->rows[r];
		char missing[POLICY_COMPARE_MAX_RUNS * 2 + 1] = "";
		size_t nm = 0;

		why[r][0] = 0;
		for (size_t i = 0; i < c->n; i++)
			if (!isfinite(row->v[i])) {
				missing[nm++] = letter(i);
				missing[nm++] = ' ';
			}
		if (nm) {
			missing[nm - 1] = 0;
			snprintf(why[r], sizeof(why[r]), "not measured in %s", missing);
			continue;
		}
		if (all_skip) {
			snprintf(why[r], sizeof(why[r]), "schema versions differ");
			continue;
		}
		for (size_t s = 0; s < c->nset; s++)
			if (group_skip[s] && !strcmp(c->set[s].group, row->group)) {
				snprintf(why[r], sizeof(why[r]), "%s differs", c->set[s].name);
				break;
			}
		if (why[r][0])
			continue;
		print_row(c, row, vw, out);
		fputc('\n', out);
	}
	any = false;
	for (size_t r = 0; r < c->nrows; r++) {
		if (!why[r][0])
			continue;
		if (!any)
			fputs("\nskipped rows:\n", out);
		any = true;
		if (!strncmp(c->rows[r].group, "mlp (", 5))
			fprintf(out, "  %s %s: %s\n", c->rows[r].name, c->rows[r].group + 4, why[r]);
		else
			fprintf(out, "  %s: %s\n", c->rows[r].name, why[r]);
	}
	fputs("\nratios are each run over A; +- is the fit's uncertainty from that run's noise floor.\n", out);
}

int compare_run(const char *const *paths, size_t n, FILE *out, const char *html_path, char *err, size_t errlen)
{
	struct jsonr_doc docs[POLICY_COMPARE_MAX_RUNS];
	const char *labels[POLICY_COMPARE_MAX_RUNS];
	struct atomic_file a;
	struct compare_table *c = NULL;
	const struct jsonr_value *part;
	bool html_open = false;
	size_t loaded = 0;
	int rc = 0, e;

	memset(docs, 0, sizeof(docs));
	if (n < 2 || n > POLICY_COMPARE_MAX_RUNS) {
		snprintf(err, errlen, "compare: needs 2 to %d JSON results, got %zu", POLICY_COMPARE_MAX_RUNS, n);
		return 2;
	}
	for (; loaded < n; loaded++) {
		e = result_load(paths[loaded], &docs[loaded], err, errlen);
		if (e) {
			rc = result_load_usage_error(e) ? 2 : 1;
			goto out;
		}
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "compare: out of memory");
		rc = 1;
		goto out;
	}
	c->n = n;
	for (size_t i = 0; i < n; i++) {
		c->docs[i] = docs[i].root;
		labels[i] = base_name(paths[i]);
		/* Two files of one name in different folders: show the paths. */
		for (size_t j = 0; j < n; j++)
			if (j != i && !strcmp(base_name(paths[j]), labels[i]))
				labels[i] = paths[i];
	}
	if (html_path) {
		e = atomic_open(&a, html_path);
		if (e) {
			snprintf(err, errlen, "--html: cannot write '%s': %s", html_path, atomic_strerror(e));
			rc = 1;
			goto out;
		}
		html_open = true;
	}
	for (size_t i = 0; i < n; i++) {
		compare_table_setting(c, i, "", "schema_version", true, jsonr_get(c->docs[i], "schema_version"));
		compare_table_setting(c, i, "", "mlpscope version", false, jsonr_get(c->docs[i], "version"));
		for (const struct view *const *v = registry_views(); *v; v++)
			if ((*v)->compare && (part = jsonr_get(c->docs[i], (*v)->section)))
				(*v)->compare(c, i, c->docs[i], part);
	}
	print_report(c, labels, out);
	/* The table first: a run stopped while stdout blocks, or one whose
	 * table could not be written, leaves no page behind. */
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "compare: writing the table: %s", strerror(errno));
		rc = 1;
		goto out;
	}
	if (html_open) {
		e = html_write(a.f, registry_views(), c->docs, labels, n);
		if (!e)
			e = atomic_commit(&a);
		else
			atomic_abort(&a);
		html_open = false;
		if (e) {
			snprintf(err, errlen, "--html: writing '%s' failed: %s", html_path, atomic_strerror(e));
			rc = 1;
			goto out;
		}
	}
out:
	if (html_open)
		atomic_abort(&a);
	for (size_t i = 0; i < loaded; i++)
		jsonr_free(&docs[i]);
	free(c);
	return rc;
}

/* --sort FIGURE: the fleet table's order, handed to fleet_run. */
static const struct option_spec compare_sort_opt = {
	.name = "sort", .arg = "FIGURE", .kind = OPTION_STRING, .deflt = "memory_latency_ns",
	.help = "one row per result (the fleet table), best first by FIGURE, e.g. read_gbps_1_thread",
};

int cmd_compare(const struct options *o, char *err, size_t errlen)
{
	/* --html -: the page is stdout, the table goes nowhere. */
	FILE *text = atomic_is_stdout(o->html_path) ? atomic_discard_stream() : stdout;
	int rc;

	/* A directory or --sort: the fleet table alone (sections/fleet.c). */
	if (fleet_wanted(o, option_text(o, &compare_sort_opt)))
		return fleet_run(o, option_text(o, &compare_sort_opt), text, true, err, errlen);
	rc = compare_run(o->paths, o->npaths, text, o->html_path, err, errlen);
	/* Three runs or more: also one row per run. */
	if (!rc && o->npaths >= 3)
		rc = fleet_run(o, option_text(o, &compare_sort_opt), text, false, err, errlen);
	if (rc || !o->svg_dir)
		return rc;
	/* --svg: the plots alone, drawn from the same files. */
	struct jsonr_doc docs[POLICY_COMPARE_MAX_RUNS];
	const struct jsonr_value *roots[POLICY_COMPARE_MAX_RUNS];
	unsigned n = 0;

	for (; n < o->npaths; n++) {
		if ((rc = result_load(o->paths[n], &docs[n], err, errlen)))
			break;
		roots[n] = docs[n].root;
	}
	if (!rc && (rc = svg_write_dir(o->svg_dir, registry_views(), roots, o->paths, n)))
		snprintf(err, errlen, "--svg: writing into '%s' failed: %s", o->svg_dir, strerror(-rc));
	while (n)
		jsonr_free(&docs[--n]);
	return rc ? 1 : 0;
}

static const char compare_help[] =
	"Reads two to sixteen mlpscope JSON results and prints their headline figures\n"
	"side by side (latency per level and at the largest size, the MLP estimate,\n"
	"peak concurrency, read bandwidth, window capacities, idle latency under load,\n"
	"decoded MB/s of app bzip2: best single-thread K, libbz2, the workers' best)\n"
	"with ratios to the first. Quantities are compared only where the settings that\n"
	"define them match; every mismatch is listed with the rows it made skip. With\n"
	"--html FILE, the curves of all runs on the same axes; with --svg DIR, the plots.\n"
	"With three or more runs it adds the fleet table: one row of headline figures\n"
	"per run. Given a directory (its *.json files, up to 1024) or --sort FIGURE, it\n"
	"prints only that table, best first by FIGURE (default memory_latency_ns), with\n"
	"the settings that differ across the runs, and names its outliers: a figure\n"
	"further from the median of its group (one CPU model, the same settings, three\n"
	"results or more) than the larger of its run's noise floor and the group's\n"
	"median floor (or its own +-) is marked *. --html FILE then holds the table,\n"
	"the outliers and each figure's distribution across the fleet.\n"
	"FIGURE: l1_latency_ns, l2_latency_ns, l3_latency_ns, memory_latency_ns,\n"
	"translation_ns, mlp_saturation_lanes, read_gbps_1_thread, read_gbps_all_threads,\n"
	"c2c_median_ns, noise_floor_pct, warnings_count, bzip2_mbps (app bzip2's best\n"
	"single thread), libbz2_mbps, bzip2_workers_mbps (decoded MB/s, 10^6 B/s).\n"
	"A file that is not mlpscope's, is truncated, or has a newer schema: exit 2.\n";

static const struct option_spec *const compare_options[] = {&compare_sort_opt, NULL};

const struct section section_compare = {
	.name = "compare",
	.options = compare_options,
	.summary = "compare results side by side: mlpscope compare A.json B.json [C.json...]",
	.help = compare_help, .kind = SECTION_FILE_COMMAND,
	.outputs = SECTION_OUT_HTML | SECTION_OUT_SVG, .operands = SECTION_ARGS_MANY,
	.usage = "mlpscope compare A.json B.json [C.json...] | DIR [--sort FIGURE]",
	.command = cmd_compare,
};
