/*
 * compare's fleet table. Every result is loaded and vetted first (so a bad
 * file is found before any output), its headline summary built, what the
 * table needs kept and the document freed, and one row per result printed
 * with the views' columns, sorted best first by the --sort figure
 * (default: memory latency): ascending for times and the floor, descending
 * for bandwidth and lanes. Settings that change what a figure means
 * (working sets, thread counts, version, --quick's shorter sets) are listed
 * with how many results hold each value, as compare does for two runs; the
 * figures are shown regardless, and the list says why two rows may not be
 * like for like. Outliers are sought among like results only (one CPU
 * model, the same settings: a group) by analyse/outliers.c, and marked.
 * Hosts are named by file (results do not record a host name) and CPU
 * model. The columns and settings are the sections' views' (report/view.h),
 * in the order they give; only the document's own (the warnings, the
 * version, the CPUs online) are here.
 */
#include "sections/fleet.h"

#include "sections/fleet_html.h"

#include "analyse/load.h"
#include "analyse/outliers.h"
#include "core/host.h"
#include "util/jsonr.h"
#include "report/summary.h"
#include "report/view.h"
#include "frame/registry.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool fleet_wanted(const struct options *o, const char *sort_by)
{
	struct stat st;

	if (sort_by)
		return true;
	for (unsigned i = 0; i < o->npaths; i++)
		if (!stat(o->paths[i], &st) && S_ISDIR(st.st_mode))
			return true;
	return false;
}

bool fleet_reads_name(const char *name)
{
	size_t len = strlen(name);

	return len >= 6 && !strcmp(name + len - 5, ".json") && name[0] != '.';
}

static int add_path(struct fleet *f, const char *path, char *err, size_t errlen)
{
	if (f->n == FLEET_MAX_RESULTS) {
		snprintf(err, errlen, "compare: more than %d results (expected fewer files)", FLEET_MAX_RESULTS);
		return 2;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct fleet_host *h = realloc(f->h, cap * sizeof(*h));

		if (!h) {
			snprintf(err, errlen, "compare: out of memory");
			return 1;
		}
		f->h = h;
		f->cap = cap;
	}
	memset(&f->h[f->n], 0, sizeof(f->h[f->n]));
	snprintf(f->h[f->n].path, sizeof(f->h[f->n].path), "%s", path);
	f->h[f->n].index = f->n;
	f->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every *.json directly in dir, in name order. */
static int add_dir(struct fleet *f, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d) {
		snprintf(err, errlen, "compare: '%s': %s", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (!fleet_reads_name(e->d_name))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));

			if (!nn) {
				rc = 1;
				break;
			}
			names = nn;
		}
		if (!(names[n] = malloc(strlen(dir) + len + 2))) {
			rc = 1;
			break;
		}
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (rc)
		snprintf(err, errlen, "compare: out of memory");
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n && !rc; i++)
		rc = add_path(f, names[i], err, errlen);
	if (!rc && !n) {
		snprintf(err, errlen, "compare: '%s' holds no *.json results (expected a directory of mlpscope --json files)", dir);
		rc = 2;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* The column named name in f, or -1. */
static int column_of(const struct fleet *f, const char *name)
{
	for (size_t i = 0; i < f->l.ncol; i++)
		if (!strcmp(f->l.col[i]->figure, name))
			return (int)i;
	return -1;
}

static const struct view_fleet_column *sort_column;
static int sort_index;

/* Best first; hosts without the figure last; equal ones in file order. */
static int by_key(const void *pa, const void *pb)
{
	const struct fleet_host *a = pa, *b = pb;
	double x = a->value[sort_index], y = b->value[sort_index];

	if (isnan(x) || isnan(y)) {
		if (isnan(x) != isnan(y))
			return isnan(x) - isnan(y);
	} else if (x != y) {
		return (x < y) == !sort_column->higher_is_better ? -1 : 1;
	}
	return (a->index > b->index) - (a->index < b->index);
}

static void setting_text(char *out, size_t len, const struct jsonr_value *doc, const char *key)
{
	const struct jsonr_value *v = jsonr_get(doc, key);

	if (!v)
		snprintf(out, len, "(absent)");
	else if (v->type == JSONR_NUMBER)
		snprintf(out, len, "%.10g", v->u.number);
	else if (v->type == JSONR_STRING)
		snprintf(out, len, "%s", v->u.string.bytes);
	else
		snprintf(out, len, "%s", jsonr_type_name(v->type));
}

/* One setting's distinct values: the first host holding each, and how many. */
struct distinct {
	size_t first, count;
};

static const struct fleet *sorting_fleet;
static size_t sorting_setting;

static int by_setting_text(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(sorting_fleet->h[a].setting[sorting_setting], sorting_fleet->h[b].setting[sorting_setting]);

	return c ? c : (a > b) - (a < b);
}

static int by_first(const void *pa, const void *pb)
{
	const struct distinct *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

/* The distinct values of setting k among f's hosts, by first appearance,
 * into d (f->n entries, idx for the sort); their number. Sorting
 * the hosts by value keeps a thousand results with a thousand values from
 * comparing every pair. */
static long distinct_values(const struct fleet *f, size_t k, struct distinct *d, size_t *idx)
{
	size_t nd = 0;

	for (size_t i = 0; i < f->n; i++)
		idx[i] = i;
	sorting_fleet = f;
	sorting_setting = k;
	qsort(idx, f->n, sizeof(*idx), by_setting_text);
	for (size_t i = 0; i < f->n; i++) {
		if (!i || strcmp(f->h[idx[i]].setting[k], f->h[idx[i - 1]].setting[k]))
			d[nd++] = (struct distinct){ idx[i], 0 };
		d[nd - 1].count++;
	}
	qsort(d, nd, sizeof(*d), by_first);
	return (long)nd;
}

/* "latency.max_bytes: 268435456 (2), 1073741824 (1)" per key that differs
 * among the results that hold it (as in compare); 0 or -ENOMEM. */
static int print_settings(const struct fleet *f, FILE *out)
{
	struct distinct *d = malloc((f->n + 1) * sizeof(*d));
	size_t *idx = malloc((f->n + 1) * sizeof(*idx));
	bool any = false;

	if (!d || !idx) {
		free(d);
		free(idx);
		return -ENOMEM;
	}
	fputs("settings that differ (figures under them are not like for like):\n", out);
	for (size_t k = 0; k < f->l.nsetting; k++) {
		long nd = distinct_values(f, k, d, idx), held = 0;

		for (long j = 0; j < nd; j++)
			held += strcmp(f->h[d[j].first].setting[k], "(absent)") != 0;
		if (held < 2)
			continue;
		any = true;
		fprintf(out, "  %s:", f->l.setting[k]->key);
		for (long j = 0; j < nd; j++)
			if (strcmp(f->h[d[j].first].setting[k], "(absent)"))
				fprintf(out, " %s (%zu)", f->h[d[j].first].setting[k], d[j].count);
		fputc('\n', out);
	}
	if (!any)
		fputs("  none\n", out);
	free(d);
	free(idx);
	return 0;
}

/* What the table and the judgement need from h's document (its summary s):
 * each column's figure, its stated +- and its scale figure, the CPU, the
 * settings and the floor. */
static void read_host(const struct fleet *f, struct fleet_host *h, const struct jsonr_value *doc,
		      const struct summary *s)
{
	const struct summary_figure *floor = summary_find(s, FLEET_FLOOR_FIGURE);
	const char *cpu = jsonr_get_string(doc, "provenance.cpu_model");

	for (size_t c = 0; c < f->l.ncol; c++) {
		const struct view_fleet_column *col = f->l.col[c];
		const struct summary_figure *g = summary_find(s, col->figure);
		const struct summary_figure *sc = f->l.scale[c] ? summary_find(s, f->l.scale[c]) : NULL;

		h->decimals[c] = col->value || !g ? 1 : g->decimals;
		h->value[c] = col->value ? col->value(doc, col->figure) : g ? g->value : NAN;
		h->uncertainty[c] = !col->value && g ? g->uncertainty : NAN;
		h->scale[c] = sc ? sc->value : NAN;
		h->mark[c] = 0;
		h->tolerance[c] = NAN;
	}
	for (size_t k = 0; k < f->l.nsetting; k++)
		setting_text(h->setting[k], sizeof(h->setting[k]), doc, f->l.setting[k]->key);
	snprintf(h->cpu, sizeof(h->cpu), "%s", cpu ? cpu : "?");
	h->floor_pct = floor ? floor->value : NAN;
}

static int same_group_key(const struct fleet_host *a, const struct fleet_host *b, size_t nsetting)
{
	int c = strcmp(a->cpu, b->cpu);

	for (size_t k = 0; !c && k < nsetting; k++)
		c = strcmp(a->setting[k], b->setting[k]);
	return c;
}

static int by_group_key(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = same_group_key(&sorting_fleet->h[a], &sorting_fleet->h[b], sorting_fleet->l.nsetting);

	return c ? c : (a > b) - (a < b);
}

/* Groups of like results (one CPU model, every setting the same), numbered
 * in table order: the first row's group is 0 (A). 0 or -ENOMEM. */
static int make_groups(struct fleet *f)
{
	size_t *idx = malloc((f->n + 1) * sizeof(*idx)), *rep = malloc((f->n + 1) * sizeof(*rep));

	f->group_size = calloc(f->n + 1, sizeof(*f->group_size));
	f->group_first = malloc((f->n + 1) * sizeof(*f->group_first));
	if (!idx || !rep || !f->group_size || !f->group_first) {
		free(idx);
		free(rep);
		return -ENOMEM;
	}
	for (size_t i = 0; i < f->n; i++)
		idx[i] = i;
	sorting_fleet = f;
	qsort(idx, f->n, sizeof(*idx), by_group_key);
	/* each run of equal keys is one group, its row in table order first */
	for (size_t i = 0, run = 0; i < f->n; i++) {
		if (i && same_group_key(&f->h[idx[i]], &f->h[idx[i - 1]], f->l.nsetting))
			run = i;
		rep[idx[i]] = idx[run];
	}
	f->ngroups = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (rep[i] == i) {
			f->group_first[f->ngroups] = i;
			f->h[i].group = f->ngroups++;
		} else {
			f->h[i].group = f->h[rep[i]].group;
		}
		f->group_size[f->h[i].group]++;
	}
	free(idx);
	free(rep);
	return 0;
}

/* Marks every judged column's outliers (analyse/outliers.c). 0 or -ENOMEM. */
static int judge(struct fleet *f)
{
	size_t n = f->n;
	size_t *group = malloc((n + 1) * sizeof(*group));
	double *floor = malloc((n + 1) * sizeof(*floor)), *v = malloc(4 * (n + 1) * sizeof(*v));
	double *median = malloc((f->ngroups + 1) * sizeof(*median));
	signed char *mark = malloc(n + 1);
	int rc = -ENOMEM;

	f->median = malloc((f->ngroups + 1) * FLEET_MAX_COLUMNS * sizeof(*f->median));
	if (!group || !floor || !v || !median || !mark || !f->median)
		goto out;
	for (size_t i = 0; i < n; i++) {
		group[i] = f->h[i].group;
		floor[i] = f->h[i].floor_pct;
	}
	for (size_t c = 0; c < f->l.ncol; c++) {
		struct outliers_fleet fl = { n, f->ngroups, group, floor };
		struct outliers_figure fig = { v, v + n + 1, f->l.scale[c] ? v + 2 * (n + 1) : NULL };
		double *tol = v + 3 * (n + 1);
		int marked = 0;

		for (size_t g = 0; g < f->ngroups; g++)
			f->median[g * FLEET_MAX_COLUMNS + c] = NAN;
		f->judged[c] = fleet_column_judged(f->l.col[c]);
		if (!f->judged[c])
			continue;
		for (size_t i = 0; i < n; i++) {
			v[i] = f->h[i].value[c];
			v[n + 1 + i] = f->h[i].uncertainty[c];
			v[2 * (n + 1) + i] = f->h[i].scale[c];
		}
		if ((marked = outliers_judge(&fl, &fig, median, tol, mark)) < 0)
			goto out;
		for (size_t g = 0; g < f->ngroups; g++)
			f->median[g * FLEET_MAX_COLUMNS + c] = median[g];
		for (size_t i = 0; i < n; i++) {
			f->h[i].mark[c] = mark[i];
			f->h[i].tolerance[c] = tol[i];
			f->h[i].outlier |= mark[i] != 0;
		}
	}
	f->noutliers = 0;
	for (size_t i = 0; i < n; i++)
		f->noutliers += f->h[i].outlier;
	rc = 0;
out:
	free(group);
	free(floor);
	free(v);
	free(median);
	free(mark);
	return rc;
}

static void print_table(const struct fleet *f, FILE *out)
{
	int lw = 8;

	for (size_t i = 0; i < f->n; i++)
		if ((int)strlen(f->h[i].label) > lw)
			lw = (int)strlen(f->h[i].label) > 40 ? 40 : (int)strlen(f->h[i].label);
	fprintf(out, "\nfleet: %zu results, one row each, sorted by %s (%s first); - not measured, * an outlier\n", f->n,
		f->sort->figure, f->sort->higher_is_better ? "highest" : "lowest");
	fprintf(out, "%-*s", lw, "result");
	for (size_t c = 0; c < f->l.ncol; c++)
		fprintf(out, " %9s", f->l.col[c]->head);
	fputs("  cpu\n", out);
	for (size_t i = 0; i < f->n; i++) {
		fprintf(out, "%-*.*s", lw, lw, f->h[i].label);
		for (size_t c = 0; c < f->l.ncol; c++) {
			char v[48];

			fleet_cell(v, sizeof(v), &f->h[i], c, true);
			fprintf(out, " %9s", v);
		}
		fprintf(out, "  %s\n", f->h[i].cpu);
	}
}

/* Groups named on the "groups:" line, at most. */
#define GROUPS_LISTED 26

/* The outliers, each with the figures that made it one, and what was not
 * judged and why. */
static void print_outliers(const struct fleet *f, FILE *out)
{
	size_t small = 0, no_floor = 0, no_floors = 0;
	bool *floored = calloc(f->ngroups + 1, sizeof(*floored));

	fprintf(out, "\noutliers: %zu of %zu results, marked * above. A figure is one when it lies further from\n"
		     "its group's median (a group: one CPU model, the same settings, %d results or more) than its\n"
		     "tolerance: the larger of the run's noise floor and the group's median floor, as a share of\n"
		     "that median, or the figure's own +- where that is larger. The floor and the warnings are\n"
		     "context, not judged.\n",
		f->noutliers, f->n, OUTLIERS_MIN_GROUP);
	for (size_t c = 0; c < f->l.ncol; c++)
		if (f->judged[c] && f->l.scale[c])
			fprintf(out, "%s is a difference: its floor is a share of %s\n", f->l.col[c]->head, f->l.scale[c]);
	if (f->ngroups > 1) {
		fputs("groups:", out);
		/* a heterogeneous fleet's list is cut: each outlier names its own */
		for (size_t g = 0; g < f->ngroups && g < GROUPS_LISTED; g++) {
			char name[16];

			fleet_group_name(name, sizeof(name), g);
			fprintf(out, "%s %s %s (%zu)", g ? "," : "", name, f->h[f->group_first[g]].cpu, f->group_size[g]);
		}
		if (f->ngroups > GROUPS_LISTED)
			fprintf(out, " and %zu more", f->ngroups - GROUPS_LISTED);
		fputc('\n', out);
	}
	for (size_t i = 0; i < f->n && floored; i++)
		floored[f->h[i].group] |= !isnan(f->h[i].floor_pct);
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_host *h = &f->h[i];
		bool judged = f->group_size[h->group] >= OUTLIERS_MIN_GROUP;
		char marks[1024];

		small += !judged;
		/* without a floor of its own a run takes its group's; a group
		 * with none has no tolerance at all */
		if (judged && isnan(h->floor_pct) && floored) {
			no_floor += floored[h->group];
			no_floors += !floored[h->group];
		}
		if (!h->outlier)
			continue;
		fprintf(out, "  %s", h->label);
		if (f->ngroups > 1) {
			char name[16];

			fleet_group_name(name, sizeof(name), h->group);
			fprintf(out, " (%s)", name);
		}
		fleet_marks(marks, sizeof(marks), f, h);
		fprintf(out, ": %s\n", marks);
	}
	if (small)
		fprintf(out, "not judged: %zu result%s in groups of fewer than %d\n", small, small == 1 ? "" : "s",
			OUTLIERS_MIN_GROUP);
	if (no_floors)
		fprintf(out, "not judged: %zu result%s in groups without a noise floor (no noise section)\n", no_floors,
			no_floors == 1 ? "" : "s");
	if (no_floor)
		fprintf(out, "judged by the group's floor: %zu result%s without a noise floor of their own\n", no_floor,
			no_floor == 1 ? "" : "s");
	free(floored);
}

static void fleet_free(struct fleet *f)
{
	free(f->h);
	free(f->group_size);
	free(f->group_first);
	free(f->median);
}

/* One loader's share of the hosts: every step-th from first, in file
 * order, stopping at its first bad file. */
struct loader {
	struct fleet *f;
	size_t first, step;
	size_t failed;  /* the bad file's index, f->n when none */
	int rc;
	char err[512];
};

/* Load, vet and read each host of l's share, freeing each document once
 * read. The previous one is freed only after the next is parsed: freed
 * first, its memory sat at the top of the heap, went back to the kernel
 * and was faulted in again, file after file (a third of the time of a
 * thousand). */
static void *load_share(void *arg)
{
	struct loader *l = arg;
	struct summary *sum = malloc(sizeof(*sum));
	struct jsonr_doc doc[2] = { { 0 }, { 0 } };
	size_t k = 0;

	l->failed = l->f->n;
	if (!sum) {
		l->failed = l->first;
		l->rc = 1;
		snprintf(l->err, sizeof(l->err), "compare: out of memory");
		return NULL;
	}
	for (size_t i = l->first; i < l->f->n; i += l->step, k++) {
		struct jsonr_doc *d = &doc[k % 2];
		int e = result_load(l->f->h[i].path, d, l->err, sizeof(l->err));

		jsonr_free(&doc[(k + 1) % 2]);
		if (e) {
			l->failed = i;
			l->rc = result_load_usage_error(e) ? 2 : 1;
			break;
		}
		summary_build(registry_views(), d->root, sum);
		read_host(l->f, &l->f->h[i], d->root, sum);
	}
	jsonr_free(&doc[0]);
	jsonr_free(&doc[1]);
	free(sum);
	return NULL;
}

/* Most threads that load results at once: parsing is all CPU, each file
 * its own, so the load splits by file across the CPUs online. */
#define FLEET_LOADERS 8

/* Every host loaded (a thousand results: 250 MB of JSON), on one thread
 * per CPU; the error is the first bad file's in file order, as one thread
 * would find it. */
static int load_hosts(struct fleet *f, char *err, size_t errlen)
{
	struct loader l[FLEET_LOADERS];
	pthread_t tid[FLEET_LOADERS];
	bool started[FLEET_LOADERS] = { false };
	size_t nl = (size_t)host_self_cpus(), bad = 0;

	if (nl > FLEET_LOADERS)
		nl = FLEET_LOADERS;
	if (nl > f->n / 4 + 1)
		nl = f->n / 4 + 1;
	for (size_t t = 0; t < nl; t++) {
		l[t] = (struct loader){ .f = f, .first = t, .step = nl };
		/* the first share is this thread's; a thread that cannot start
		 * leaves its share to be loaded here */
		started[t] = t > 0 && !pthread_create(&tid[t], NULL, load_share, &l[t]);
	}
	load_share(&l[0]);
	for (size_t t = 1; t < nl; t++) {
		if (started[t])
			pthread_join(tid[t], NULL);
		else
			load_share(&l[t]);
	}
	for (size_t t = 1; t < nl; t++)
		if (l[t].failed < l[bad].failed)
			bad = t;
	if (l[bad].failed < f->n)
		snprintf(err, errlen, "%s", l[bad].err);
	return l[bad].failed < f->n ? l[bad].rc : 0;
}

int fleet_run(const struct options *o, const char *sort_by, FILE *out, bool with_html, char *err, size_t errlen)
{
	struct fleet f = {0};
	const char *sort = sort_by ? sort_by : "memory_latency_ns";
	int rc = 0;

	fleet_layout(registry_views(), &f.l);
	if ((sort_index = column_of(&f, sort)) < 0) {
		char list[512];
		size_t used = 0;

		for (size_t c = 0; c < f.l.ncol && used < sizeof(list); c++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", c ? ", " : "", f.l.col[c]->figure);
		/* A long wrong name and the whole list may not fit one error line:
		 * then the list is in `help compare`, never cut mid-name. */
		if ((size_t)snprintf(err, errlen, "--sort: '%s' is not a fleet figure (expected one of %s)", sort, list) >= errlen)
			snprintf(err, errlen, "--sort: '%.60s' is not a fleet figure (expected one of those `mlpscope help "
				 "compare` lists)", sort);
		return 2;
	}
	f.sort = sort_column = f.l.col[sort_index];
	for (unsigned i = 0; i < o->npaths && !rc; i++) {
		struct stat st;

		if (!stat(o->paths[i], &st) && S_ISDIR(st.st_mode))
			rc = add_dir(&f, o->paths[i], err, errlen);
		else
			rc = add_path(&f, o->paths[i], err, errlen);
	}
	if (!rc)
		rc = load_hosts(&f, err, errlen);
	if (!rc && f.n) {
		qsort(f.h, f.n, sizeof(*f.h), by_key);
		/* labels point into each host's own path: set once it has moved */
		for (size_t i = 0; i < f.n; i++)
			f.h[i].label = strrchr(f.h[i].path, '/') ? strrchr(f.h[i].path, '/') + 1 : f.h[i].path;
		if (make_groups(&f) || judge(&f) || print_settings(&f, out)) {
			snprintf(err, errlen, "compare: out of memory");
			rc = 1;
			goto out;
		}
		print_table(&f, out);
		print_outliers(&f, out);
		if (fflush(out) || ferror(out)) {
			snprintf(err, errlen, "compare: writing the table: %s", strerror(errno));
			rc = 1;
		} else if (with_html && o->html_path) {
			rc = fleet_html_write(&f, o->html_path, err, errlen);
		}
	}
out:
	fleet_free(&f);
	return rc;
}
