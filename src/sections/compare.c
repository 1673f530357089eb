/*
 * compare: load and vet every file first (so a bad third file is found
 * before any output), then gather settings and headline rows per section
 * ("group"), and print. A setting that changes what a number means (working
 * set, spacing, trials, thread count) withholds its group's rows; one that
 * differs between like runs anyway (mlpscope version, the adaptive lanes
 * range) is listed as a note and the rows stay. Rows present in only some
 * runs are skipped and said so, rather than compared against nothing.
 */
#include "sections/compare.h"
#include "sections/registry.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sections/fleet.h"
#include "analyse/bzip2_figures.h"
#include "analyse/load.h"
#include "util/atomic.h"
#include "report/html.h"
#include "report/plots.h"

#define MAX_ROWS 96
#define MAX_SETTINGS 48

struct crow {
	char name[64];
	char unit[12];
	char group[24];
	double v[POLICY_COMPARE_MAX_RUNS];
	double unc[POLICY_COMPARE_MAX_RUNS];  /* +/- shown beside the value; NaN: none */
};

struct csetting {
	char group[24];          /* "" for the whole document */
	char name[48];
	bool skips;              /* a difference withholds the group's rows */
	char v[POLICY_COMPARE_MAX_RUNS][48];
};

struct cmp {
	size_t n;
	const struct jsonr_value *docs[POLICY_COMPARE_MAX_RUNS];
	struct crow rows[MAX_ROWS];
	size_t nrows;
	struct csetting set[MAX_SETTINGS];
	size_t nset;
};

static double num(const struct jsonr_value *v, const char *path)
{
	double d;

	return v && jsonr_get_number(v, path, &d) ? d : NAN;
}

static struct crow *row_add(struct cmp *c, const char *group, const char *name, const char *unit)
{
	struct crow *r;

	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].group, group) && !strcmp(c->rows[i].name, name))
			return &c->rows[i];
	if (c->nrows == MAX_ROWS)
		return NULL;
	r = &c->rows[c->nrows++];
	snprintf(r->group, sizeof(r->group), "%s", group);
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	for (size_t i = 0; i < POLICY_COMPARE_MAX_RUNS; i++)
		r->v[i] = r->unc[i] = NAN;
	return r;
}

static void row_set(struct cmp *c, size_t run, const char *group, const char *name, const char *unit, double v, double unc)
{
	struct crow *r;

	if (!isfinite(v))
		return;
	r = row_add(c, group, name, unit);
	if (r) {
		r->v[run] = v;
		r->unc[run] = unc;
	}
}

static void setting_set(struct cmp *c, size_t run, const char *group, const char *name, bool skips,
			const struct jsonr_value *v)
{
	struct csetting *s = NULL;

	for (size_t i = 0; i < c->nset && !s; i++)
		if (!strcmp(c->set[i].group, group) && !strcmp(c->set[i].name, name))
			s = &c->set[i];
	if (!s) {
		if (c->nset == MAX_SETTINGS)
			return;
		s = &c->set[c->nset++];
		memset(s, 0, sizeof(*s));
		snprintf(s->group, sizeof(s->group), "%s", group);
		snprintf(s->name, sizeof(s->name), "%s", name);
		s->skips = skips;
	}
	if (!v)
		snprintf(s->v[run], sizeof(s->v[run]), "(absent)");
	else if (v->type == JSONR_NUMBER)
		snprintf(s->v[run], sizeof(s->v[run]), "%.10g", v->u.number);
	else if (v->type == JSONR_STRING)
		snprintf(s->v[run], sizeof(s->v[run]), "%s", v->u.string.bytes);
	else if (v->type == JSONR_BOOL)
		snprintf(s->v[run], sizeof(s->v[run]), "%s", v->u.boolean ? "true" : "false");
	else
		snprintf(s->v[run], sizeof(s->v[run]), "%s", jsonr_type_name(v->type));
}

static void setting_num(struct cmp *c, size_t run, const char *group, const char *name, bool skips, double v)
{
	struct jsonr_value tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = JSONR_NUMBER;
	tmp.u.number = v;
	setting_set(c, run, group, name, skips, isfinite(v) ? &tmp : NULL);
}

/* Only runs that hold the section take part in a setting's comparison. */
static bool setting_differs(const struct cmp *c, const struct csetting *s)
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

static void gather_latency(struct cmp *c, size_t i)
{
	const struct jsonr_value *l = jsonr_get(c->docs[i], "latency"), *lv;
	size_t k = 0;

	if (!l)
		return;
	setting_set(c, i, "latency", "largest working set (bytes)", true, jsonr_get(l, "max_bytes"));
	setting_set(c, i, "latency", "node spacing (bytes)", true, jsonr_get(l, "line_bytes"));
	setting_set(c, i, "latency", "trials per point", true, jsonr_get(l, "trials"));
	lv = jsonr_get(l, "levels_detected");
	/* Levels pair by position only when every run found as many: otherwise
	 * level 4 of one run may be level 5 of the other. */
	setting_num(c, i, "latency levels", "levels detected (pairing by position)", true,
		    lv && lv->type == JSONR_ARRAY ? (double)lv->u.children.count : 0);
	for (const struct jsonr_value *e = lv && lv->type == JSONR_ARRAY ? lv->u.children.first : NULL; e; e = e->next) {
		char name[64];

		snprintf(name, sizeof(name), "latency, detected level %zu", ++k);
		row_set(c, i, "latency levels", name, "ns", num(e, "latency_ns"), NAN);
	}
	row_set(c, i, "latency", "latency at the largest working set", "ns", num(l, "chase_ns_at_max"), NAN);
	row_set(c, i, "latency", "small pages at the largest set", "ns", num(l, "small_chase_ns_at_max"), NAN);
	row_set(c, i, "latency", "translation cost at the largest set", "ns", num(l, "translation_ns_at_max"), NAN);
	row_set(c, i, "latency", "prefetcher effect at the largest set", "x", num(l, "prefetch_ratio_at_max"), NAN);
}

static void gather_mlp(struct cmp *c, size_t i)
{
	const struct jsonr_value *arms[2];
	const char *pages[2], *kinds[2] = { "-", "-" };
	char joined[48];
	size_t na = plots_mlp_arms(c->docs[i], arms, pages);
	struct jsonr_value tmp;

	for (size_t a = 0; a < na; a++) {
		const struct jsonr_value *sw = jsonr_get(arms[a], "sweep");
		char group[24], name[64];
		double kmax = 0;

		kinds[a] = pages[a];
		snprintf(group, sizeof(group), "mlp (%s pages)", pages[a]);
		setting_set(c, i, group, "working set (bytes)", true, jsonr_get(arms[a], "working_set_bytes"));
		setting_set(c, i, group, "node spacing (bytes)", true, jsonr_get(arms[a], "spacing_bytes"));
		setting_set(c, i, group, "accesses per timed region", true, jsonr_get(arms[a], "accesses_per_point"));
		setting_set(c, i, group, "trials per point", true, jsonr_get(arms[a], "trials_per_repeat"));
		setting_set(c, i, group, "repeats", false, jsonr_get(arms[a], "estimate.repeats"));
		for (const struct jsonr_value *p = sw && sw->type == JSONR_ARRAY ? sw->u.children.first : NULL; p; p = p->next)
			kmax = fmax(kmax, num(p, "lanes"));
		/* The sweep extends until flat, so like runs may end at different K. */
		setting_num(c, i, group, "largest lanes swept (max lanes)", false, kmax);
		snprintf(name, sizeof(name), "MLP estimate Ks");
		row_set(c, i, group, name, "lanes", num(arms[a], "estimate.fit_saturation_lanes"),
			num(arms[a], "estimate.fit_uncertainty"));
		row_set(c, i, group, "model latency L", "ns", num(arms[a], "estimate.fit_latency_ns"), NAN);
		row_set(c, i, group, "peak concurrency observed", "", num(arms[a], "estimate.peak_concurrency"), NAN);
	}
	if (!na)
		return;
	snprintf(joined, sizeof(joined), na == 2 ? "%s+%s" : "%s", kinds[0], kinds[1]);
	memset(&tmp, 0, sizeof(tmp));
	tmp.type = JSONR_STRING;
	tmp.u.string.bytes = joined;
	tmp.u.string.len = strlen(joined);
	/* Arms are matched by page kind, so a different set of kinds skips nothing. */
	setting_set(c, i, "mlp", "pages requested", false, &tmp);
}

static void gather_bandwidth(struct cmp *c, size_t i)
{
	const struct jsonr_value *b = jsonr_get(c->docs[i], "bandwidth"), *ks;
	double tmax = 0, best1 = NAN, bestn = NAN;
	char name[64];

	if (!b)
		return;
	ks = jsonr_get(b, "kernels");
	for (const struct jsonr_value *k = ks && ks->type == JSONR_ARRAY ? ks->u.children.first : NULL; k; k = k->next)
		tmax = fmax(tmax, num(k, "threads"));
	for (const struct jsonr_value *k = ks && ks->type == JSONR_ARRAY ? ks->u.children.first : NULL; k; k = k->next) {
		const char *op = jsonr_get_string(k, "op");
		double t = num(k, "threads"), g = num(k, "gbps");

		if (!op || strcmp(op, "read") || !isfinite(g))
			continue;
		if (t == 1)
			best1 = isfinite(best1) ? fmax(best1, g) : g;
		if (t == tmax)
			bestn = isfinite(bestn) ? fmax(bestn, g) : g;
	}
	setting_set(c, i, "bandwidth", "working set (bytes)", true, jsonr_get(b, "working_set_bytes"));
	setting_set(c, i, "bandwidth", "trials", true, jsonr_get(b, "trials"));
	setting_num(c, i, "bandwidth", "threads (most)", true, tmax);
	row_set(c, i, "bandwidth", "best read bandwidth, 1 thread", "GB/s", best1, NAN);
	snprintf(name, sizeof(name), "best read bandwidth, all threads");
	row_set(c, i, "bandwidth", name, "GB/s", bestn, NAN);
}

static void gather_multicore(struct cmp *c, size_t i)
{
	const struct jsonr_value *m = jsonr_get(c->docs[i], "multicore"), *sat;
	double tmax = 0, peak = NAN;

	if (!m)
		return;
	sat = jsonr_get(m, "saturation");
	for (const struct jsonr_value *s = sat && sat->type == JSONR_ARRAY ? sat->u.children.first : NULL; s; s = s->next)
		if (num(s, "threads") >= tmax) {
			tmax = num(s, "threads");
			peak = num(s, "peak_concurrency_total");
		}
	setting_set(c, i, "multicore", "bytes per thread", true, jsonr_get(m, "per_thread_bytes"));
	setting_set(c, i, "multicore", "node spacing (bytes)", true, jsonr_get(m, "spacing_bytes"));
	setting_set(c, i, "multicore", "pages requested", true, jsonr_get(m, "pages_requested"));
	setting_set(c, i, "multicore", "trials", true, jsonr_get(m, "trials"));
	setting_num(c, i, "multicore", "threads (most)", true, tmax);
	row_set(c, i, "multicore", "peak concurrency, all threads", "", peak, NAN);
}

static void gather_loaded(struct cmp *c, size_t i)
{
	const struct jsonr_value *l = jsonr_get(c->docs[i], "loaded");

	if (!l)
		return;
	setting_set(c, i, "loaded", "generator threads", true, jsonr_get(l, "generators"));
	setting_set(c, i, "loaded", "chase working set (bytes)", true, jsonr_get(l, "chase_bytes"));
	setting_set(c, i, "loaded", "generators' working set (bytes)", true, jsonr_get(l, "gen_bytes"));
	setting_set(c, i, "loaded", "trials", true, jsonr_get(l, "trials"));
	row_set(c, i, "loaded", "loaded: idle latency", "ns", num(l, "idle_latency_ns"), NAN);
	row_set(c, i, "loaded", "loaded: highest latency / idle", "x", num(l, "max_latency_ratio"), NAN);
	row_set(c, i, "loaded", "loaded: bandwidth where latency doubles", "GB/s", num(l, "bw_at_double_latency_gbps"), NAN);
}

static void gather_window(struct cmp *c, size_t i)
{
	const struct jsonr_value *w = jsonr_get(c->docs[i], "window"), *fl;

	if (!w)
		return;
	setting_set(c, i, "window", "ISA", true, jsonr_get(w, "isa"));
	setting_set(c, i, "window", "working set (bytes)", true, jsonr_get(w, "working_set_bytes"));
	setting_set(c, i, "window", "iterations per region", true, jsonr_get(w, "iters_per_region"));
	setting_set(c, i, "window", "trials per phase", true, jsonr_get(w, "trials_per_phase"));
	fl = jsonr_get(w, "fillers");
	for (const struct jsonr_value *f = fl && fl->type == JSONR_ARRAY ? fl->u.children.first : NULL; f; f = f->next) {
		const char *name = jsonr_get_string(f, "filler");
		char rname[64];

		snprintf(rname, sizeof(rname), "window capacity, %s", name ? name : "?");
		row_set(c, i, "window", rname, "entries", num(f, "capacity"), NAN);
	}
}

/* Decoded MB/s means the same only over the same bytes: the input, its
 * blocks and, for the workers, the worker counts measured. */
static void gather_app_bzip2(struct cmp *c, size_t i)
{
	const struct jsonr_value *b = jsonr_get(c->docs[i], "app.bzip2");
	struct bzip2_figures f;

	if (!bzip2_figures_read(c->docs[i], &f))
		return;
	setting_set(c, i, "app bzip2", "input", true, jsonr_get(b, "input"));
	setting_set(c, i, "app bzip2", "decoded bytes", true, jsonr_get(b, "decoded_bytes"));
	setting_set(c, i, "app bzip2", "blocks", true, jsonr_get(b, "blocks"));
	row_set(c, i, "app bzip2", "bzip2 decoded, best single-thread K", "MB/s", f.best_mb_per_s, NAN);
	row_set(c, i, "app bzip2", "bzip2 decoded, libbz2 one thread", "MB/s", f.libbz2_mb_per_s, NAN);
	setting_set(c, i, "app bzip2 workers", "input", true, jsonr_get(b, "input"));
	setting_num(c, i, "app bzip2 workers", "workers (most)", true, f.workers_most);
	row_set(c, i, "app bzip2 workers", "bzip2 decoded, workers' best", "MB/s", f.workers_mb_per_s, NAN);
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

static void print_report(const struct cmp *c, const char *const *labels, FILE *out)
{
	bool all_skip = false, any = false;
	bool group_skip[MAX_SETTINGS];
	char why[MAX_ROWS][200];
	int vw = 18;

	fprintf(out, "mlpscope compare: %zu runs\n", c->n);
	for (size_t i = 0; i < c->n; i++) {
		const char *cpu = jsonr_get_string(c->docs[i], "provenance.cpu_model");
		const char *ts = jsonr_get_string(c->docs[i], "provenance.timestamp_utc");
		const char *ver = jsonr_get_string(c->docs[i], "version");

		fprintf(out, "  %c  %s: %s, %s, mlpscope %s\n", letter(i), labels[i], cpu ? cpu : "unknown CPU",
			ts ? ts : "no timestamp", ver ? ver : "?");
	}

	fputs("\nsettings that differ:\n", out);
	for (size_t s = 0; s < c->nset; s++) {
		const struct csetting *st = &c->set[s];

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

	fprintf(out, "\n%-40s %-7s", "quantity", "unit");
	for (size_t i = 0; i < c->n; i++)
		fprintf(out, " %*c", vw, letter(i));
	for (size_t i = 1; i < c->n; i++)
		fprintf(out, "  %c/%c  ", letter(i), 'A');
	fputc('\n', out);
	for (size_t r = 0; r < c->nrows; r++) {
		const struct crow *row = &c->rows[r];
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
		{
			char name[96];

			/* Arm rows carry their page kind: "MLP estimate Ks (huge pages)". */
			if (!strncmp(row->group, "mlp (", 5))
				snprintf(name, sizeof(name), "%s %s", row->name, row->group + 4);
			else
				snprintf(name, sizeof(name), "%s", row->name);
			fprintf(out, "%-40s %-7s", name, row->unit);
		}
		for (size_t i = 0; i < c->n; i++) {
			char v[48];

			fmt_val(v, sizeof(v), row->v[i], row->unc[i]);
			fprintf(out, " %*s", vw, v);
		}
		for (size_t i = 1; i < c->n; i++) {
			if (row->v[0] != 0)
				fprintf(out, "  %5.2f ", row->v[i] / row->v[0]);
			else
				fputs("      - ", out);
		}
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
	struct cmp *c = NULL;
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
		setting_set(c, i, "", "schema_version", true, jsonr_get(c->docs[i], "schema_version"));
		setting_set(c, i, "", "mlpscope version", false, jsonr_get(c->docs[i], "version"));
		gather_latency(c, i);
		gather_mlp(c, i);
		gather_bandwidth(c, i);
		gather_multicore(c, i);
		gather_loaded(c, i);
		gather_window(c, i);
		gather_app_bzip2(c, i);
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

int cmd_compare(const struct options *o, char *err, size_t errlen)
{
	/* --html -: the page is stdout, the table goes nowhere. */
	FILE *text = atomic_is_stdout(o->html_path) ? atomic_discard_stream() : stdout;
	int rc;

	/* A directory or --sort: the fleet table alone (sections/fleet.c). */
	if (fleet_wanted(o))
		return fleet_run(o, text, true, err, errlen);
	rc = compare_run(o->paths, o->npaths, text, o->html_path, err, errlen);
	/* Three runs or more: also one row per run. */
	if (!rc && o->npaths >= 3)
		rc = fleet_run(o, text, false, err, errlen);
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
	"the settings that differ across the runs; --html FILE then holds the table.\n"
	"FIGURE: l1_latency_ns, l2_latency_ns, l3_latency_ns, memory_latency_ns,\n"
	"translation_ns, mlp_saturation_lanes, read_gbps_1_thread, read_gbps_all_threads,\n"
	"c2c_median_ns, noise_floor_pct, warnings_count, bzip2_mbps (app bzip2's best\n"
	"single thread), libbz2_mbps, bzip2_workers_mbps (decoded MB/s, 10^6 B/s).\n"
	"A file that is not mlpscope's, is truncated, or has a newer schema: exit 2.\n";

const struct section section_compare = {
	.name = "compare",
	.options = "sort",
	.summary = "compare results side by side: mlpscope compare A.json B.json [C.json...]",
	.help = compare_help, .kind = SECTION_FILE_COMMAND,
	.outputs = SECTION_OUT_HTML | SECTION_OUT_SVG, .operands = SECTION_ARGS_MANY,
	.usage = "mlpscope compare A.json B.json [C.json...] | DIR [--sort FIGURE]",
	.command = cmd_compare,
};
