/*
 * What every app kernel shares: the chase reference and the figures
 * derived against it. The reference is the lanes experiment itself
 * (exp/mlp.c) at the kernel's footprint and page request, run in the same
 * invocation: the same arena code, verified page backing, layout check and
 * noise floor, so "the chase predicts S" means the very curve `mlp` reports.
 */
#include "exp/app/app.h"
#include "exp/curve_falls.h"

#include "exp/mlp.h"
#include "core/bounds.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void app_param_num(struct app_kernel_result *r, const char *key, double v)
{
	if (r->nparams < APP_PARAMS_MAX)
		r->params[r->nparams++] = (struct app_param){.key = key, .number = v};
}

void app_param_text(struct app_kernel_result *r, const char *key, const char *v)
{
	if (r->nparams < APP_PARAMS_MAX) {
		struct app_param *a = &r->params[r->nparams++];

		*a = (struct app_param){.key = key, .is_text = true};
		snprintf(a->text, sizeof(a->text), "%s", v);
	}
}

void app_stage_add(struct app_kernel_result *r, const char *name, double seconds)
{
	if (r->nstages < APP_STAGES_MAX)
		r->stages[r->nstages++] = (struct app_stage){name, seconds};
}

void app_footprint_set(const struct app_params *p, struct app_kernel_result *r, size_t footprint_bytes)
{
	r->footprint_bytes = footprint_bytes;
	r->may_fit_cache = p->largest_cache_bytes && footprint_bytes <= p->largest_cache_bytes;
}

void app_arena_record(const struct app_params *p, struct app_kernel_result *r, const struct arena *a)
{
	r->pages_requested = arena_request_name(p->pages);
	r->total_bytes = a->bytes;
	r->huge_bytes_obtained = a->huge_bytes_obtained;
}

void app_arena_recheck(struct app_kernel_result *r, const struct arena *a)
{
	size_t huge_after;

	if (!arena_backing_obtained(a, &huge_after) && huge_after < r->huge_bytes_obtained)
		r->huge_bytes_obtained = huge_after;
}

int app_sweep(const struct app_params *p, struct app_kernel_result *r, size_t nslots, app_slot_fn run, void *ctx)
{
	uint64_t ws = clock_wall_ns();
	int rc;

	for (unsigned tr = 0; tr < p->trials; tr++)
		for (size_t i = 0; i < nslots; i++) {
			if (*p->stop)
				return -EINTR;
			if ((rc = run(ctx, i, tr == 0)))
				return rc;
		}
	r->sweep_seconds = (double)(clock_wall_ns() - ws) / 1e9;
	return 0;
}

/* mlp needs whole nodes of one line each; the footprint rounded up. */
static size_t chase_bytes(size_t footprint, size_t line)
{
	size_t min = 2 * line;

	footprint = (footprint + line - 1) / line * line;
	return footprint < min ? min : footprint;
}

int app_chase_run(const struct app_params *p, size_t footprint_bytes, struct app_chase *c)
{
	static struct mlp_result m;
	struct mlp_params mp = {
		.working_set_bytes = chase_bytes(footprint_bytes, p->line_bytes),
		.spacing_bytes = p->line_bytes,
		.line_bytes = p->line_bytes,
		.pages = p->pages,
		.max_lanes = p->max_k,
		.repeats = 1,
		.trials = 6,
		.accesses = 256 * 1024,
		.seed = p->seed,
		.clock = p->clock,
		.stop = p->stop,
	};
	uint64_t w0 = clock_wall_ns();
	int rc;

	memset(c, 0, sizeof(*c));
	rc = mlp_run(&mp, &m);
	c->layout_ok = m.layout.ok;
	if (rc)
		goto out;
	c->ran = true;
	c->working_set_bytes = mp.working_set_bytes;
	c->pages_requested = m.pages_requested;
	c->total_bytes = m.total_bytes;
	c->huge_bytes_obtained = m.huge_bytes_obtained;
	c->perm_hash = m.perm_hash;
	c->latency_ns = m.sweep[0].ns_per_access;
	c->noise_floor_pct = m.noise_floor_pct;
	c->knee_k = m.estimate.fit_saturation_lanes;
	for (unsigned i = 0; i < APP_NLANE_SET && app_lane_set[i] <= m.npoints; i++) {
		unsigned k = app_lane_set[i];

		c->k[i] = k;
		c->ns_per_access[i] = m.sweep[k - 1].ns_per_access;
		c->speedup[i] = m.sweep[k - 1].speedup;
		c->impossible[i] = m.sweep[k - 1].impossible;
		c->nimpossible += c->impossible[i];
		c->npoints = i + 1;
	}
	app_chase_mark_falls(c);
	if (!mlp_latency_falls_after_traffic(&m, &c->control_fall, &c->control_fall_k))
		c->control_fall_k = 0;
	c->seconds = (double)(clock_wall_ns() - w0) / 1e9;
out:
	mlp_result_free(&m);
	return rc;
}

unsigned app_chase_mark_falls(struct app_chase *c)
{
	double k[APP_NLANE_SET], s[APP_NLANE_SET];
	struct curve_fall falls[APP_NLANE_SET];
	size_t n;

	for (unsigned i = 0; i < c->npoints; i++) {
		k[i] = c->k[i];
		s[i] = c->impossible[i] ? NAN : c->speedup[i];
		c->non_monotonic[i] = false;
	}
	n = curve_find_falls(k, s, c->npoints, c->noise_floor_pct, falls, APP_NLANE_SET);
	for (size_t j = 0; j < n; j++)
		c->non_monotonic[falls[j].index] = true;
	c->nfalls = (unsigned)n;
	return c->nfalls;
}

int app_chase_checked(const struct app_params *p, size_t footprint_bytes, const char *kernel,
		      struct app_kernel_result *r)
{
	int rc = app_chase_run(p, footprint_bytes, &r->chase);

	if (rc == -EPROTO) {
		r->check.ok = false;
		snprintf(r->check.failure, sizeof(r->check.failure), "%s: the chase reference's layout check failed",
			 kernel);
	}
	return rc;
}

unsigned app_lane_count(unsigned max_k)
{
	unsigned n = 0;

	while (n < APP_NLANE_SET && app_lane_set[n] <= max_k)
		n++;
	return n;
}

static double chase_speedup_at(const struct app_chase *c, unsigned k)
{
	for (unsigned i = 0; i < c->npoints; i++)
		if (c->k[i] == k)
			return c->speedup[i];
	return NAN;
}

/* Marked by mlp after its re-time, or (a stored chase read back) above K
 * by more than the ratio's floor of the chase's own floor. */
static bool chase_impossible_at(const struct app_chase *c, unsigned k)
{
	for (unsigned i = 0; i < c->npoints; i++)
		if (c->k[i] == k)
			return c->impossible[i] ||
			       bounds_exceeded(c->speedup[i], k, bounds_ratio_floor_pct(c->noise_floor_pct));
	return false;
}

void app_start(const struct app_params *p, struct app_kernel_result *r, const char *kernel, const char *warmth,
	       const char *check_what)
{
	memset(r, 0, sizeof(*r));
	r->kernel = kernel;
	r->trials = p->trials;
	r->warmth = warmth;
	r->check.ok = true;
	r->check.what = check_what;
}

/* K lanes of a walk keep at most K of its items in progress, so t(1)/t(K)
 * of one variant cannot exceed K: beyond the ratio's floor, a timing is
 * wrong. */
static void mark_impossible(struct app_variant *var, double floor_pct)
{
	var->nimpossible = 0;
	for (unsigned i = 0; i < var->npoints; i++) {
		struct app_point *pt = &var->points[i];

		pt->impossible = bounds_exceeded(pt->speedup, pt->k, bounds_ratio_floor_pct(floor_pct));
		var->nimpossible += pt->impossible;
	}
}

/* The knee (saturation fit) and plateau of a variant from its possible points. */
static void fit_variant(struct app_variant *var, double floor_pct)
{
	double k[APP_NLANE_SET], t[APP_NLANE_SET], best;
	struct saturation_fit fit;
	unsigned n = 0;

	for (unsigned i = 0; i < var->npoints; i++)
		if (!var->points[i].impossible) {
			k[n] = var->points[i].k;
			t[n++] = var->points[i].ns_per_item;
		}
	var->plateau_k = 0;
	if (!n) {
		var->knee_k = NAN;
		return;
	}
	stats_fit_saturation(k, t, n, &fit);
	var->knee_k = n > 1 ? fit.saturation_lanes : NAN;
	best = stats_min(t, n);
	for (unsigned i = 0; i < n; i++)
		if (t[i] <= best * (1.0 + floor_pct / 100.0)) {
			var->plateau_k = (unsigned)k[i];
			break;
		}
}

/* Per point: the minimum over trials and everything derived from it; per
 * variant: the knee; per kernel: the headline at the largest K. */
void app_finish(const struct app_params *p, struct app_kernel_result *r)
{
	const struct app_chase *c = &r->chase;
	double floor_pct = c->ran && isfinite(c->noise_floor_pct) ? c->noise_floor_pct : 2.0;

	(void)p;
	for (unsigned v = 0; v < r->nvariants; v++) {
		struct app_variant *var = &r->variants[v];
		double t1;

		for (unsigned i = 0; i < var->npoints; i++) {
			struct app_point *pt = &var->points[i];

			pt->ns_per_item = stats_min(pt->trials_ns, pt->ntrials);
			pt->items_per_second = 1e9 / pt->ns_per_item;
			pt->ns_per_dependent_load = pt->dependent_loads_per_item > 0
							    ? pt->ns_per_item / pt->dependent_loads_per_item : NAN;
		}
		t1 = var->points[0].k == 1 ? var->points[0].ns_per_item : NAN;
		for (unsigned i = 0; i < var->npoints; i++) {
			struct app_point *pt = &var->points[i];

			pt->speedup = t1 / pt->ns_per_item;
			pt->chase_speedup = c->ran ? chase_speedup_at(c, pt->k) : NAN;
			pt->chase_impossible = c->ran && chase_impossible_at(c, pt->k);
			pt->ratio = pt->speedup / pt->chase_speedup;
			pt->chase_occupancy = pt->chase_speedup;
			pt->occupancy = c->ran ? c->latency_ns * pt->loads_per_item / pt->ns_per_item : NAN;
		}
		mark_impossible(var, floor_pct);
		fit_variant(var, floor_pct);
	}
	/* The headline reads the last variant (the register lanes, the best a
	 * compiler can do) at the largest K both curves have. */
	r->headline_impossible = false;
	if (r->nvariants && r->ceiling) {
		/* A control with no lanes: its occupancy against the chase's best. */
		const struct app_point *pt = &r->variants[0].points[0];

		r->headline_k = c->npoints ? c->k[c->npoints - 1] : 0;
		r->headline_variant = r->variants[0].name;
		r->headline_speedup = pt->occupancy;
		r->headline_chase_speedup = c->npoints ? c->speedup[c->npoints - 1] : NAN;
		r->headline_ratio = r->headline_speedup / r->headline_chase_speedup;
		r->headline_impossible = c->npoints && chase_impossible_at(c, c->k[c->npoints - 1]);
	} else if (r->nvariants) {
		const struct app_variant *var = &r->variants[r->nvariants - 1];

		for (unsigned v = 0; r->headline_want && v < r->nvariants; v++)
			if (!strcmp(r->variants[v].name, r->headline_want))
				var = &r->variants[v];
		const struct app_point *pt = &var->points[var->npoints - 1];

		r->headline_k = pt->k;
		r->headline_variant = var->name;
		r->headline_speedup = pt->speedup;
		r->headline_chase_speedup = pt->chase_speedup;
		r->headline_ratio = pt->ratio;
		r->headline_impossible = pt->impossible || pt->chase_impossible;
	}
}
