/*
 * The app section in text and JSON. The table puts the kernel's speedup
 * beside the chase's at the same K and footprint, because the question the
 * section answers is a ratio: how much of what the chase curve promises a
 * real walk gets. Occupancy assumes every dependent load is a miss of the
 * chase's t(1); the text says so.
 */
#include "report/app_out.h"

#include "report/app_bzip2_out.h"
#include "report/app_chase_out.h"
#include "exp/app/kernels.h"
#include "report/csv.h"
#include "core/bounds.h"
#include "util/format.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field app_stage_fields[] = {
	JSONW_FIELD(STRING, "name", struct app_stage, name),
	JSONW_FIELD(DOUBLE, "seconds", struct app_stage, seconds),
};

static const struct jsonw_field app_point_fields[] = {
	JSONW_FIELD(UINT, "k", struct app_point, k),
	JSONW_FIELD(DOUBLE, "ns_per_item", struct app_point, ns_per_item),
	JSONW_FIELD(DOUBLE, "items_per_second", struct app_point, items_per_second),
	JSONW_FIELD(DOUBLE, "dependent_loads_per_item", struct app_point, dependent_loads_per_item),
	JSONW_FIELD(DOUBLE, "loads_per_item", struct app_point, loads_per_item),
	JSONW_FIELD(DOUBLE, "ns_per_dependent_load", struct app_point, ns_per_dependent_load),
	JSONW_FIELD(DOUBLE, "speedup", struct app_point, speedup),
	JSONW_FIELD(DOUBLE, "chase_speedup", struct app_point, chase_speedup),
	JSONW_FIELD(DOUBLE, "ratio", struct app_point, ratio),
	JSONW_FIELD(DOUBLE, "occupancy_inferred", struct app_point, occupancy),
	JSONW_FIELD(DOUBLE, "chase_concurrency_littles_law", struct app_point, chase_occupancy),
};

static const struct jsonw_field app_kernel_setup_fields[] = {
	JSONW_FIELD(UINT, "footprint_bytes", struct app_kernel_result, footprint_bytes),
	JSONW_FIELD(STRING, "pages_requested", struct app_kernel_result, pages_requested),
	JSONW_FIELD(UINT, "total_bytes", struct app_kernel_result, total_bytes),
	JSONW_FIELD(UINT, "huge_bytes_obtained", struct app_kernel_result, huge_bytes_obtained),
	JSONW_FIELD(BOOL, "may_fit_cache", struct app_kernel_result, may_fit_cache),
	JSONW_FIELD(STRING, "may_fit_cache_from", struct app_kernel_result, may_fit_cache_from),
	JSONW_FIELD(STRING, "warmth", struct app_kernel_result, warmth),
	JSONW_FIELD(UINT, "trials", struct app_kernel_result, trials),
	JSONW_FIELD(DOUBLE, "setup_seconds", struct app_kernel_result, setup_seconds),
};

static const struct jsonw_field app_headline_fields[] = {
	JSONW_FIELD(UINT, "k", struct app_kernel_result, headline_k),
	JSONW_FIELD(STRING, "variant", struct app_kernel_result, headline_variant),
	JSONW_FIELD(DOUBLE, "speedup", struct app_kernel_result, headline_speedup),
	JSONW_FIELD(DOUBLE, "chase_speedup", struct app_kernel_result, headline_chase_speedup),
	JSONW_FIELD(DOUBLE, "ratio", struct app_kernel_result, headline_ratio),
};

static void format_headline_figures(const struct app_kernel_result *k, char *out, size_t len)
{
	if (k->ceiling && k->chase.ran)
		snprintf(out, len, "chase reaches S = %.2f at K = %u; %s (independent loads, no lanes) keeps %.2f in "
			 "flight (R = %.2f)", k->headline_chase_speedup, k->headline_k, k->kernel, k->headline_speedup,
			 k->headline_ratio);
	else if (!k->chase.ran)
		snprintf(out, len, "no chase reference in this run; %s got S = %.2f at K = %u", k->kernel,
			 k->headline_speedup, k->headline_k);
	else
		snprintf(out, len, "chase predicts S = %.2f at K = %u; %s got %.2f (R = %.2f)",
			 k->headline_chase_speedup, k->headline_k, k->kernel, k->headline_speedup,
			 k->headline_ratio);
}

void app_format_headline(const struct app_kernel_result *k, char *out, size_t len)
{
	size_t n;

	format_headline_figures(k, out, len);
	n = strlen(out);
	if (k->headline_impossible && n < len)
		snprintf(out + n, len - n, " [IMPOSSIBLE: a speedup above K = %u]", k->headline_k);
}

/* A knee, or why there is none: no chase, or under two possible K to fit. */
static void format_knee(char *out, size_t len, double knee)
{
	if (isfinite(knee))
		snprintf(out, len, "%.1f", knee);
	else
		snprintf(out, len, "none");
}

static void write_kernel_text(const struct app_kernel_result *k, FILE *f)
{
	const struct app_chase *c = &k->chase;
	char fp[32], huge[32], total[32], head[240];
	/* The floor app_finish judged the speedups against (exp/app/app.h). */
	double floor_pct = c->ran && isfinite(c->noise_floor_pct) ? c->noise_floor_pct : 2.0;

	report_format_bytes(fp, sizeof(fp), k->footprint_bytes);
	report_format_bytes(huge, sizeof(huge), k->huge_bytes_obtained);
	report_format_bytes(total, sizeof(total), k->total_bytes);
	fprintf(f, "\napp %s: a real walk as K lanes against the chase curve at the same footprint\n", k->kernel);
	fprintf(f, "  params:");
	for (unsigned i = 0; i < k->nparams; i++) {
		const struct app_param *p = &k->params[i];

		if (p->is_text)
			fprintf(f, "%s %s=%s", i ? "," : "", p->key, p->text);
		else
			fprintf(f, "%s %s=%.15g", i ? "," : "", p->key, p->number);
	}
	fprintf(f, "\n  footprint %s (the walked table), %s pages requested; backing obtained: %s of %s in "
		   "huge pages\n", fp, k->pages_requested, huge, total);
	if (c->ran) {
		report_format_bytes(huge, sizeof(huge), c->huge_bytes_obtained);
		report_format_bytes(total, sizeof(total), c->total_bytes);
		fprintf(f, "  chase reference (mlp, this run): %zu B working set, latency t(1) %.1f ns, knee Ks %.1f, "
			   "noise floor %.1f%%, layout check %s, %s of %s huge, %.1f s\n",
			c->working_set_bytes, c->latency_ns, c->knee_k, c->noise_floor_pct,
			c->layout_ok ? "ok" : "FAILED", huge, total, c->seconds);
		fprintf(f, "  chase reference warmth: %s\n", APP_CHASE_WARMTH);
		if (c->nimpossible)
			fprintf(f, "  chase reference: %u S_chase above K after mlp's re-time, marked IMPOSSIBLE below\n",
				c->nimpossible);
		if (c->nimpossible && c->control_fall_k)
			fprintf(f, "  the state: the chase's control ran %.2fx its K = 1 speed right after K = %u lanes: a\n"
				   "  load's latency here falls after traffic, so t(1) (idle) against t(K) (loaded) can pass K\n",
				c->control_fall, c->control_fall_k);
		if (c->nfalls)
			fprintf(f, "  chase reference: %u S_chase NON-MONOTONIC, below a smaller K's beyond the floor (a lane "
				"added cannot undo the others' overlap: those points are suspect)\n", c->nfalls);
	}
	fprintf(f, "  check: %s (%u runs, %s %016" PRIx64 ")\n", k->check.ok ? "ok" : k->check.failure,
		k->check.runs_checked, k->check.what, k->check.expected_hash);
	fprintf(f, "  stages (%s):\n", k->warmth);
	for (unsigned i = 0; i < k->nstages; i++)
		fprintf(f, "    %-58s %9.3f s\n", k->stages[i].name, k->stages[i].seconds);
	for (unsigned v = 0; v < k->nvariants; v++) {
		const struct app_variant *var = &k->variants[v];
		char app_knee[32], chase_knee[32];

		fprintf(f, "\n  %s: %s\n", var->name, var->what);
		fprintf(f, "  %4s %10s %10s %9s %8s %8s %8s %8s %8s\n", "K", "items/s", "ns/item", "ns/depld",
			"S_app", "S_chase", "R", "occ_inf", "conc_chs");
		for (unsigned i = 0; i < var->npoints; i++) {
			const struct app_point *p = &var->points[i];

			fprintf(f, "  %4u %10.3g %10.3f %9.3f %8.2f %8.2f %8.2f %8.2f %8.2f", p->k,
				p->items_per_second, p->ns_per_item, p->ns_per_dependent_load, p->speedup,
				p->chase_speedup, p->ratio, p->occupancy, p->chase_occupancy);
			if (p->impossible || p->chase_impossible)
				fprintf(f, "  IMPOSSIBLE: %s above K (bound %.2f with the floor)",
					p->impossible && p->chase_impossible ? "S_app and S_chase"
					: p->impossible ? "S_app" : "S_chase", bounds_limit(p->k, bounds_ratio_floor_pct(floor_pct)));
			fputc('\n', f);
		}
		if (var->nimpossible)
			fprintf(f, "  IMPOSSIBLE: %u S_app above K (K lanes hold at most K items in progress); left out "
				   "of the knee and plateau\n", var->nimpossible);
		format_knee(app_knee, sizeof(app_knee), var->knee_k);
		format_knee(chase_knee, sizeof(chase_knee), c->ran ? c->knee_k : NAN);
		fprintf(f, "  knee (fit Ks): app %s, chase %s; app plateau from K = %u; output hash %016" PRIx64
			   "\n", app_knee, chase_knee, var->plateau_k, var->output_hash);
	}
	fprintf(f, "  ns/item: elapsed / items (min over %u trials), throughput; ns/depld: per dependent load.\n"
		   "  S_app = t(1)/t(K) of the variant; S_chase: the chase's at the same K and footprint; R = S_app/S_chase.\n"
		   "  occ_inf: chase t(1) x random loads per item / ns per item, an inference (misses in flight by\n"
		   "  Little's law if every one misses and each takes t(1)), not a count; conc_chs: the chase's\n"
		   "  t(1)/t(K). setup %.1f s (not in any walk), sweep %.1f s.\n",
		k->trials, k->setup_seconds, k->sweep_seconds);
	app_format_headline(k, head, sizeof(head));
	fprintf(f, "  %s\n", head);
}

void app_write_text(const void *result, FILE *f)
{
	const struct app_result *r = result;

	for (unsigned i = 0; i < r->nkernels; i++)
		write_kernel_text(&r->kernels[i], f);
}

static void point_members(struct jsonw *w, const void *e)
{
	const struct app_point *p = e;

	JSONW_FIELDS(w, p, app_point_fields);
	if (p->impossible) {
		jsonw_bool(w, "impossible", true);
		jsonw_double(w, "speedup_bound", p->k);
	}
	if (p->chase_impossible)
		jsonw_bool(w, "chase_impossible", true);
	/* deprecated for one schema version: occupancy_inferred, chase_concurrency_littles_law */
	jsonw_double(w, "occupancy", p->occupancy);
	jsonw_double(w, "chase_occupancy", p->chase_occupancy);
	jsonw_double_array(w, "trials_ns_per_item", p->trials_ns, p->ntrials);
}

static void variant_members(struct jsonw *w, const void *e)
{
	const struct app_variant *var = e;

	jsonw_string(w, "name", var->name);
	jsonw_string(w, "what", var->what);
	JSONW_OBJECT_ARRAY_EACH(w, "points", var->points, var->npoints, point_members);
	jsonw_double(w, "knee_k", var->knee_k);
	jsonw_uint(w, "impossible_points", var->nimpossible);
	jsonw_uint(w, "plateau_k", var->plateau_k);
	jsonw_hex64(w, "output_hash", var->output_hash);
}

static void write_kernel_json(struct jsonw *w, const struct app_kernel_result *k)
{
	char head[240];

	jsonw_object_begin(w, k->kernel);
	jsonw_object_begin(w, "params");
	for (unsigned i = 0; i < k->nparams; i++) {
		if (k->params[i].is_text)
			jsonw_string(w, k->params[i].key, k->params[i].text);
		else
			jsonw_double(w, k->params[i].key, k->params[i].number);
	}
	jsonw_object_end(w);
	JSONW_FIELDS(w, k, app_kernel_setup_fields);
	JSONW_OBJECT_ARRAY(w, "stages", k->stages, k->nstages, app_stage_fields);
	JSONW_OBJECT_ARRAY_EACH(w, "variants", k->variants, k->nvariants, variant_members);
	jsonw_object_begin(w, "check");
	jsonw_bool(w, "ok", k->check.ok);
	jsonw_uint(w, "runs_checked", k->check.runs_checked);
	jsonw_hex64(w, "expected_hash", k->check.expected_hash);
	if (!k->check.ok)
		jsonw_string(w, "failure", k->check.failure);
	jsonw_object_end(w);
	app_chase_write_json(w, &k->chase);
	jsonw_object_begin(w, "headline");
	JSONW_FIELDS(w, k, app_headline_fields);
	if (k->headline_impossible)
		jsonw_bool(w, "impossible", true);
	app_format_headline(k, head, sizeof(head));
	jsonw_string(w, "text", head);
	jsonw_object_end(w);
	jsonw_double(w, "sweep_seconds", k->sweep_seconds);
	if (k->ceiling)
		jsonw_bool(w, "ceiling", true);
	jsonw_object_end(w);
}

void app_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct app_result *r = result;

	jsonw_object_begin(w, key);
	for (unsigned i = 0; i < r->nkernels; i++)
		write_kernel_json(w, &r->kernels[i]);
	if (r->bzip2)
		app_bzip2_write_json(r->bzip2, w, "bzip2");
	jsonw_object_end(w);
}

static const struct csv_col point_cols[] = {
	{"k", "k"}, {"ns_per_item", "ns_per_item"}, {"items_per_second", "items_per_second"},
	{"dependent_loads_per_item", "dependent_loads_per_item"}, {"ns_per_dependent_load", "ns_per_dependent_load"},
	{"speedup", "speedup"}, {"chase_speedup", "chase_speedup"}, {"ratio", "ratio"},
	{"occupancy_inferred", "occupancy_inferred"}, {"chase_concurrency_littles_law", "chase_concurrency_littles_law"},
};

int app_write_csv(const char *dir, const struct jsonr_value *doc)
{
	for (unsigned i = 0; i < app_nkernels; i++) {
		const struct jsonr_value *vars = NULL, *v;
		struct csv_group g[CSV_MAX_GROUPS];
		char path[64], name[48];
		size_t ng = 0;
		int rc;

		snprintf(path, sizeof(path), "app.%s.variants", app_kernels[i]->name);
		vars = jsonr_get(doc, path);
		for (v = vars && vars->type == JSONR_ARRAY ? vars->u.children.first : NULL; v && ng < CSV_MAX_GROUPS;
		     v = v->next)
			g[ng++] = (struct csv_group){jsonr_get_string(v, "name"), jsonr_get(v, "points")};
		snprintf(name, sizeof(name), "app_%s_points", app_kernels[i]->name);
		if ((rc = csv_write_table(dir, name, "variant", g, ng, point_cols, CSV_NCOLS(point_cols))))
			return rc;
	}
	return 0;
}
