/*
 * Sections agree. Latency is the reference: it has the steady-state check.
 * Each other figure is compared with latency's point at the same working
 * set and page size (the nearest, and the reason says so, when latency has
 * no point within 4%). A difference beyond the noise floor gets the
 * reasons the results show: a different set, a different page backing
 * obtained, a timed region whose untimed lead-in is shorter than one load
 * per 4 KiB of the set (the page-walk caches and page-table lines are not
 * warm: see latency's steady-state check), or other threads running.
 * Latency's warm references (a back-to-back chase at each level's middle)
 * are lines of their own, judged as latency judges them (two-sided, at its
 * level tolerance): a difference there says the curve was not warm, or that
 * one of the two read wrong. Every comparison is two-sided: a figure faster
 * than latency's beyond the floor differs as much as a slower one.
 * Draws conclusions only; its text and JSON are report/agreement_out.c.
 */
#include "analyse/agreement.h"

#include "core/stats.h"
#include "util/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct latency_curve_point *latency_near(const struct latency_curve *l, size_t set, bool huge)
{
	const struct latency_curve_point *best = NULL;

	for (unsigned i = 0; i < l->npoints; i++) {
		const struct latency_curve_point *p = &l->points[i];

		if (p->huge != huge)
			continue;
		if (!best || fabs(log((double)p->size_bytes / (double)set)) < fabs(log((double)best->size_bytes / (double)set)))
			best = p;
	}
	return best;
}

static struct agreement_line *line_for(struct agreement_result *a, const struct latency_curve *l, size_t set, bool huge)
{
	const struct latency_curve_point *p = latency_near(l, set, huge);
	struct agreement_line *ln;

	if (!p)
		return NULL;
	for (unsigned i = 0; i < a->nlines; i++)
		if (a->lines[i].set_bytes == p->size_bytes && a->lines[i].huge == huge)
			return &a->lines[i];
	if (a->nlines == AGREEMENT_LINES_MAX)
		return NULL;
	ln = &a->lines[a->nlines++];
	memset(ln, 0, sizeof(*ln));
	ln->set_bytes = p->size_bytes;
	ln->huge = huge;
	ln->fig[0] = (struct agreement_figure){.section = "latency", .ns = p->chase_ns, .set_bytes = p->size_bytes,
					   .huge_fraction = p->huge_fraction};
	ln->nfig = 1;
	if (p->steady_checked && !p->steady_ok)
		snprintf(ln->fig[0].reason, sizeof(ln->fig[0].reason), "not steady: %.1f ns over 4x longer regions",
			 p->steady_long_ns);
	return ln;
}

static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

/* lead_in_loads: untimed loads right before the timed region;
 * faster_state: as struct agreement_chase's, or NULL. Returns the figure
 * added, NULL when none was (no line, a full line, a NaN). */
static struct agreement_figure *add(struct agreement_result *a, const struct latency_curve *l,
				    const char *section, double ns, size_t set, bool huge, double huge_fraction,
				    double lead_in_loads, unsigned other_threads, const char *faster_state)
{
	struct agreement_line *ln = line_for(a, l, set, huge);
	struct agreement_figure *f, *ref;
	const struct latency_curve_point *p;
	char *why, t[160];
	size_t len;

	if (!ln || ln->nfig == AGREEMENT_FIGURES_MAX || !isfinite(ns))
		return NULL;
	ref = &ln->fig[0];
	p = latency_near(l, set, huge);
	f = &ln->fig[ln->nfig++];
	*f = (struct agreement_figure){.section = section, .ns = ns, .set_bytes = set, .huge_fraction = huge_fraction};
	f->diff_pct = 100.0 * (ns / ref->ns - 1.0);
	f->differs = !stats_agree_within_pct(ns, ref->ns, a->tolerance_pct);
	if (!f->differs)
		return f;
	why = f->reason;
	len = sizeof(f->reason);
	if (fabs(log((double)set / (double)ref->set_bytes)) > log(1.04)) {
		snprintf(t, sizeof(t), "different working set (%.0f MiB against latency's %.0f MiB)",
			 (double)set / 1048576.0, (double)ref->set_bytes / 1048576.0);
		append(why, len, t);
	}
	if ((huge_fraction >= 0.9) != (ref->huge_fraction >= 0.9)) {
		snprintf(t, sizeof(t), "page backing differs (%.0f%% huge against latency's %.0f%%)",
			 100 * huge_fraction, 100 * ref->huge_fraction);
		append(why, len, t);
	}
	if (p && p->steady_checked && !p->steady_ok) {
		snprintf(t, sizeof(t), "warm-up: latency's regions are not steady (%.1f ns, over 4x: %.1f)", ref->ns,
			 p->steady_long_ns);
		append(why, len, t);
	}
	if (lead_in_loads < (double)set / 4096.0) {
		snprintf(t, sizeof(t), "warm-up: %.0f untimed loads before each region, under one per 4 KiB (%.0f)",
			 lead_in_loads, (double)set / 4096.0);
		append(why, len, t);
	}
	if (other_threads) {
		snprintf(t, sizeof(t), "load: %u other thread(s) running beside it", other_threads);
		append(why, len, t);
	}
	if (faster_state && ns < ref->ns)
		append(why, len, faster_state);
	if (!why[0] && p && p->ntrials) {
		/* Same set, backing and warm-up: what is left is the machine
		 * between the sections, which latency's own trials bound. */
		double lo = p->trials_min_ns, hi = p->trials_max_ns;

		snprintf(why, len, "no cause in the results (same set and backing, both warm): the machine changed "
			 "between the sections; latency's own trials here ranged %.1f-%.1f ns%s", lo, hi,
			 ns >= lo && ns <= hi ? ", and this figure lies inside that range" : "");
	}
	return f;
}

/* The tolerance latency judged its references by (its level tolerance),
 * so this block and latency's own line give one verdict for one pair. */
static double reference_tolerance_pct(const struct agreement_result *a, const struct latency_curve *l)
{
	return isfinite(l->tolerance_pct) && l->tolerance_pct > 0 ? l->tolerance_pct : a->tolerance_pct;
}

/* Two-sided, as latency judges its references: a reference slower than
 * the curve beyond the tolerance is a difference too (either the curve
 * read faster than a warm chase can, or the reference's moment was slow;
 * the results cannot tell which). */
static void add_warm_reference(struct agreement_result *a, const struct latency_curve *lat,
			       const struct latency_curve_reference *x)
{
	const struct latency_curve_point *p = &lat->points[x->point];
	double tol = reference_tolerance_pct(a, lat);
	struct agreement_figure *g = add(a, lat, "warm chase", x->warm_ns, x->size_bytes, p->huge,
					 p->huge_fraction, (double)x->size_bytes, 0, NULL);

	if (!g)
		return;
	g->differs = !latency_reference_agrees(x->curve_ns, x->warm_ns, tol);
	g->reason[0] = 0;
	if (!g->differs)
		return;
	if (x->warm_ns > x->curve_ns)
		snprintf(g->reason, sizeof(g->reason),
			 "the back-to-back walks (%.2f ns) read slower than the curve (%.2f ns) beyond %.1f%%: the curve "
			 "read faster than a warm chase, or the machine was slower at the reference's moment",
			 x->warm_ns, x->curve_ns, tol);
	else
		snprintf(g->reason, sizeof(g->reason),
			 "latency's figure (%.2f ns) is not what back-to-back warm walks read (%.2f ns) beyond %.1f%%: "
			 "the curve was not taken warm here", x->curve_ns, x->warm_ns, tol);
}

void agreement_compute(const struct latency_curve *lat, const struct mlp_result *mlp, unsigned nmlp,
		   const struct loaded_result *ld, double floor_pct, struct agreement_result *a)
{
	memset(a, 0, sizeof(*a));
	a->tolerance_pct = isfinite(floor_pct) ? floor_pct : 10.0;
	if (!lat)
		return;
	for (unsigned i = 0; i < nmlp; i++) {
		const struct mlp_result *m = &mlp[i];
		bool huge = !strcmp(m->pages_requested, "huge");

		/* K = 1 walks accesses_per_point loads on a stretch of the cycle
		 * after an untimed pass over the block: its region is its own
		 * lead-in, and it is as long as the stretch. */
		if (m->npoints && m->sweep[0].lanes == 1)
			add(a, lat, "mlp K=1", m->sweep[0].ns_per_access, m->working_set_bytes, huge,
			    m->total_bytes ? (double)m->huge_bytes_obtained / (double)m->total_bytes : 0,
			    (double)m->accesses_per_point, 0, NULL);
	}
	if (ld) {
		size_t total = ld->chase_bytes + ld->gen_bytes;

		add(a, lat, "loaded idle", ld->idle_latency_ns, ld->chase_bytes, true,
		    total ? (double)ld->huge_bytes_obtained / (double)total : 0, (double)(ld->hops / 4), ld->generators,
		    NULL);
	}
	/* Latency's own warm references: at each level's middle, the same chase
	 * walked back to back. Full walks precede them, so they carry no
	 * warm-up reason; a difference says the curve's blocks were not warm,
	 * or, the reference slower, that one of the two read wrong. */
	for (unsigned i = 0; i < lat->nrefs; i++)
		add_warm_reference(a, lat, &lat->refs[i]);
	/* A line with latency alone compares nothing. */
	for (unsigned i = 0; i < a->nlines;)
		if (a->lines[i].nfig < 2)
			memmove(&a->lines[i], &a->lines[i + 1], (--a->nlines - i) * sizeof(a->lines[0]));
		else
			i++;
}

void agreement_add_chases(struct agreement_result *a, const struct latency_curve *lat,
			  const struct agreement_chase *c, unsigned n)
{
	if (!lat)
		return;
	for (unsigned i = 0; i < n; i++)
		add(a, lat, c[i].section, c[i].ns, c[i].set_bytes, c[i].huge, c[i].huge_fraction, c[i].lead_in_loads,
		    0, c[i].faster_state);
}
