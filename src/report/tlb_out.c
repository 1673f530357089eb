/*
 * The tlb section, text and JSON. The table sets the two page sizes side by
 * side at each page count, with the control (the same lines packed densely)
 * that the extra is measured against; the steps are named with the entries
 * and reach they imply and set beside what CPUID claims, which in a guest is
 * what the hypervisor chose to show.
 */
#include "report/tlb_out.h"

#include "report/perm_out.h"
#include "util/format.h"

#include <math.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field tlb_level_fields[] = {
	JSONW_FIELD(UINT, "entries", struct tlb_level, entries),
	JSONW_FIELD(UINT, "reach_bytes", struct tlb_level, reach_bytes),
	JSONW_FIELD(UINT, "page_bytes", struct tlb_level, page_bytes),
	JSONW_FIELD(DOUBLE, "extra_ns", struct tlb_level, extra_ns),
};

static const struct jsonw_field tlb_point_fields[] = {
	JSONW_FIELD(UINT, "pages", struct tlb_point, pages),
	JSONW_FIELD(UINT, "page_bytes", struct tlb_point, page_bytes),
	JSONW_FIELD(DOUBLE, "ns_per_load", struct tlb_point, ns_per_load),
	JSONW_FIELD(DOUBLE, "control_ns", struct tlb_point, control_ns),
	JSONW_FIELD(DOUBLE, "extra_ns", struct tlb_point, extra_ns),
	JSONW_FIELD(UINT, "loads_per_region", struct tlb_point, loads_per_region),
};

static const struct jsonw_field tlb_series_fields[] = {
	JSONW_FIELD(UINT, "page_bytes", struct tlb_series, page_bytes),
	JSONW_FIELD(DOUBLE, "walk_ns", struct tlb_series, walk_ns),
	JSONW_FIELD(DOUBLE, "max_extra_ns", struct tlb_series, max_extra_ns),
	JSONW_FIELD(BOOL, "walk_on_plateau", struct tlb_series, walk_on_plateau),
	JSONW_FIELD(BOOL, "steps_hidden_by_floor", struct tlb_series, steps_hidden),
	JSONW_FIELD(UINT, "arena_bytes", struct tlb_series, arena_bytes),
	JSONW_FIELD(UINT, "arena_huge_obtained_bytes", struct tlb_series, huge_obtained_bytes),
};

static const struct jsonw_field cpu_tlb_fields[] = {
	JSONW_FIELD(UINT, "level", struct cpu_tlb, level),
	JSONW_FIELD(STRING, "type", struct cpu_tlb, type),
	JSONW_FIELD(UINT, "page_bytes", struct cpu_tlb, page_bytes),
	JSONW_FIELD(UINT, "entries", struct cpu_tlb, entries),
	JSONW_FIELD(UINT, "ways", struct cpu_tlb, ways),
	JSONW_FIELD(STRING, "source", struct cpu_tlb, source),
};

static const struct jsonw_field tlb_result_fields[] = {
	JSONW_FIELD(UINT, "stride_bytes", struct tlb_result, stride_bytes),
	JSONW_FIELD(UINT, "control_arena_bytes", struct tlb_result, control_arena_bytes),
	JSONW_FIELD(UINT, "control_arena_huge_obtained_bytes", struct tlb_result, control_huge_obtained_bytes),
	JSONW_FIELD(UINT, "trials", struct tlb_result, trials),
	JSONW_FIELD(DOUBLE, "noise_floor_pct", struct tlb_result, noise_floor_pct),
	JSONW_FIELD(DOUBLE, "step_tolerance_pct", struct tlb_result, tolerance_pct),
	JSONW_FIELD(DOUBLE, "region_target_ns", struct tlb_result, region_ns),
	JSONW_FIELD(UINT, "seed", struct tlb_result, seed),
	JSONW_FIELD(DOUBLE, "seconds", struct tlb_result, seconds),
};

/* A fall of the ns-per-load curve, x being pages walked. */
static const struct jsonw_field tlb_fall_fields[] = {
	JSONW_FIELD(DOUBLE, "pages", struct curve_fall, x),
	JSONW_FIELD(DOUBLE, "ns_per_load", struct curve_fall, y),
	JSONW_FIELD(DOUBLE, "ref_pages", struct curve_fall, ref_x),
	JSONW_FIELD(DOUBLE, "ref_ns_per_load", struct curve_fall, ref_y),
	JSONW_FIELD(DOUBLE, "fall_pct", struct curve_fall, fall_pct),
};

static const char *series_name(const struct tlb_series *s)
{
	return s->page_bytes == TLB_STRIDE_BYTES ? "small" : "huge";
}

static void write_steps_text(const struct tlb_result *r, const struct tlb_series *s, FILE *f)
{
	char reach[32], obt[32], all[32];

	report_format_bytes(obt, sizeof(obt), s->huge_obtained_bytes);
	report_format_bytes(all, sizeof(all), s->arena_bytes);
	fprintf(f, "  %s pages (%s of %s obtained huge): ", series_name(s), obt, all);
	if (!s->nlevels) {
		report_format_bytes(reach, sizeof(reach), (size_t)s->points[s->npoints - 1].pages * r->stride_bytes);
		/* No step found while the extra still rose: the tolerance (this
		 * run's floor) hid the steps, and nothing can be said of reach. */
		if (s->steps_hidden)
			fprintf(f, "no step up to %u pages (%s) within this run's tolerance (%.1f%%), although the "
				"extra rose %.2f -> %.2f ns: the floor hides the steps, not resolved in this run\n",
				s->points[s->npoints - 1].pages, reach, r->tolerance_pct, s->first_extra_ns,
				s->max_extra_ns);
		else
			fprintf(f, "no step up to %u pages (%s): the fastest TLB reaches all of it\n",
				s->points[s->npoints - 1].pages, reach);
		return;
	}
	fputc('\n', f);
	for (unsigned k = 0; k < s->nlevels; k++) {
		const struct tlb_level *l = &s->levels[k];
		char rep[120] = "CPU reports: unknown";

		report_format_bytes(reach, sizeof(reach), l->reach_bytes);
		if (l->reported_entries) {
			char rr[32];

			report_format_bytes(rr, sizeof(rr), (size_t)l->reported_entries * s->page_bytes);
			snprintf(rep, sizeof(rep), "CPU reports L%u %u entries (reach %s): %s", k + 1,
				 l->reported_entries, rr, l->agrees_with_reported ? "agrees" : "DIFFERS (beyond 1.5x)");
		} else if (r->nreported) {
			/* Past the TLB levels the CPU lists: the walk itself got
			 * dearer (page-table lines or the walker's caches). */
			snprintf(rep, sizeof(rep), "past every TLB the CPU lists: a walk-cost step (page-table lines "
				 "or the walker's caches)");
		}
		fprintf(f, "    step %u: after ~%u pages (reach %s), +%.2f ns per load over the control; %s\n", k + 1,
			l->entries, reach, l->extra_ns, rep);
		if (l->impossible)
			fprintf(f, "      IMPOSSIBLE: above what translation can add to a load, %d memory accesses "
				   "(%.1f ns); left out of the summary\n", TLB_STEP_MAX_MEMORY_ACCESSES, r->step_bound_ns);
	}
	fprintf(f, "    page walk (every TLB level missed): +%.2f ns per load", s->walk_ns);
	if (!s->walk_on_plateau)
		fprintf(f, "; at %u pages +%.2f ns (rising again: page-table lines leave a cache)",
			s->points[s->npoints - 1].pages, s->max_extra_ns);
	fputc('\n', f);
	if (s->steps_hidden)
		fprintf(f, "    NOT RESOLVED: the first step found lies past the CPU's first level, and this run's "
			"tolerance (%.1f%%, its floor) is above what an L1 TLB miss costs: a smaller step is hidden\n",
			r->tolerance_pct);
}

/* The curve's falls beside the table: a fault of the run, not a property
 * of the TLB, so the reader reads the points around them with doubt. */
static void write_falls_text(const struct tlb_result *r, FILE *f)
{
	if (!r->nfalls) {
		fprintf(f, "  ns per load never falls by more than the floor (%.1f%%) as pages grow\n", r->noise_floor_pct);
		return;
	}
	for (unsigned s = 0; s < r->nseries; s++)
		for (unsigned i = 0; i < r->series[s].nfalls && i < TLB_FALLS_MAX; i++) {
			const struct curve_fall *c = &r->series[s].falls[i];

			fprintf(f, "  NON-MONOTONIC: %s pages fall %.1f -> %.1f ns per load from %.0f to %.0f pages "
				"(-%.1f%%, beyond the %.1f%% floor): more pages cannot translate faster, so the higher point is\n"
				"  suspect (a fault or a neighbour during it), not a TLB property\n",
				series_name(&r->series[s]), c->ref_y, c->y, c->ref_x, c->x, c->fall_pct, r->noise_floor_pct);
		}
}

void tlb_write_text(const void *result, FILE *f)
{
	const struct tlb_result *r = result;
	const struct tlb_series *sm = &r->series[0], *hg = r->nseries > 1 ? &r->series[1] : NULL;
	char obt[32], all[32];

	fprintf(f, "\ntlb: ns per dependent load, one load per %zu B page (line offset rotating), pages swept in count\n",
		r->stride_bytes);
	report_format_bytes(obt, sizeof(obt), r->control_huge_obtained_bytes);
	report_format_bytes(all, sizeof(all), r->control_arena_bytes);
	fprintf(f, "  control: the same number of lines packed densely (64 per 4 KiB), huge pages (%s of %s obtained)\n",
		obt, all);
	fprintf(f, "  extra = chase - control: translation, by subtraction; %u trials round-robin, each value the minimum;\n"
		   "  a step is a plateau more than %.1f%% (at least %.1f ns) above the one before\n",
		r->trials, r->tolerance_pct, TLB_MIN_STEP_NS);
	/* A recorded result that predates the walk has no nodes: nothing to say. */
	if (r->layout.nodes)
		fprintf(f, "  layout check: walked %zu steps, %zu distinct nodes, %zu distinct lines (expected %zu): %s\n",
			r->layout.steps_walked, r->layout.distinct_nodes_walked, r->layout.distinct_lines_walked,
			r->layout.expected_lines,
			r->layout.ok ? "ok" : "FAILED: some chain visits fewer lines than it claims, its points are suspect");
	if (r->perm_hash)
		perm_write_text(f, r->seed, r->perm_hash, TLB_CHAIN_SEEDS);
	fprintf(f, "\n  %7s  %10s  %12s  %12s  %12s  %11s  %11s\n", "pages", "span", "small ns", "huge ns",
		"control ns", "small extra", "huge extra");
	for (unsigned i = 0; i < sm->npoints; i++) {
		char span[32];

		report_format_bytes(span, sizeof(span), (size_t)sm->points[i].pages * r->stride_bytes);
		fprintf(f, "  %7u  %10s  %12.2f", sm->points[i].pages, span, sm->points[i].ns_per_load);
		if (hg)
			fprintf(f, "  %12.2f", hg->points[i].ns_per_load);
		else
			fprintf(f, "  %12s", "-");
		fprintf(f, "  %12.2f  %11.2f", sm->points[i].control_ns, sm->points[i].extra_ns);
		if (hg)
			fprintf(f, "  %11.2f", hg->points[i].extra_ns);
		fputc('\n', f);
	}
	write_falls_text(r, f);
	fprintf(f, "\n  steps (a TLB level running out):\n");
	for (unsigned s = 0; s < r->nseries; s++)
		write_steps_text(r, &r->series[s], f);
	if (!r->huge_reach_known)
		fprintf(f, "  huge-page reach: unknown (%s)\n",
			r->nseries < 2 ? "huge pages not measured" : "small pages showed no step to compare with");
	else if (r->huge_reach_effective)
		fprintf(f, "  huge-page reach: effective: 2 MiB pages need no entry where 4 KiB pages step\n");
	else
		fprintf(f, "  huge-page reach: NOT effective: 2 MiB pages step where 4 KiB pages do, so each entry covers\n"
			   "  4 KiB (a guest whose huge pages are backed by small host pages translates them as small)\n");
	if (r->reported_rc < 0)
		fprintf(f, "  TLB sizes the CPU reports: unknown on this ISA\n");
	else if (!r->nreported)
		fprintf(f, "  TLB sizes the CPU reports: none (CPUID gives no TLB descriptors here)\n");
	fprintf(f, "  setup and sweep %.1f s\n", r->seconds);
}

static void write_level(struct jsonw *w, const struct tlb_level *l, double bound_ns)
{
	jsonw_object_begin(w, NULL);
	JSONW_FIELDS(w, l, tlb_level_fields);
	if (l->impossible) {
		jsonw_bool(w, "impossible", true);
		jsonw_double(w, "bound_ns", bound_ns);
	}
	if (l->reported_entries) {
		jsonw_uint(w, "reported_entries", l->reported_entries);
		jsonw_bool(w, "agrees_with_reported", l->agrees_with_reported);
	} else {
		jsonw_null(w, "reported_entries");
		jsonw_null(w, "agrees_with_reported");
	}
	jsonw_object_end(w);
}

static void write_falls_json(struct jsonw *w, const struct tlb_result *r)
{
	jsonw_uint(w, "non_monotonic_found", r->nfalls);
	jsonw_array_begin(w, "non_monotonic");
	for (unsigned s = 0; s < r->nseries; s++)
		for (unsigned i = 0; i < r->series[s].nfalls && i < TLB_FALLS_MAX; i++) {
			const struct curve_fall *c = &r->series[s].falls[i];

			jsonw_object_begin(w, NULL);
			jsonw_uint(w, "page_bytes", r->series[s].page_bytes);
			JSONW_FIELDS(w, c, tlb_fall_fields);
			jsonw_object_end(w);
		}
	jsonw_array_end(w);
}

void tlb_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct tlb_result *r = result;

	jsonw_object_begin(w, key);
	jsonw_array_begin(w, "points");
	for (unsigned s = 0; s < r->nseries; s++)
		for (unsigned i = 0; i < r->series[s].npoints; i++) {
			const struct tlb_point *p = &r->series[s].points[i];

			jsonw_object_begin(w, NULL);
			JSONW_FIELDS(w, p, tlb_point_fields);
			jsonw_double_array(w, "trials_ns", p->trials_ns, p->ntrials);
			jsonw_object_end(w);
		}
	jsonw_array_end(w);
	jsonw_array_begin(w, "levels");
	for (unsigned s = 0; s < r->nseries; s++)
		for (unsigned k = 0; k < r->series[s].nlevels; k++)
			write_level(w, &r->series[s].levels[k], r->step_bound_ns);
	jsonw_array_end(w);
	JSONW_OBJECT_ARRAY(w, "walk", r->series, r->nseries, tlb_series_fields);
	jsonw_bool_or_null(w, "huge_reach_effective", r->huge_reach_known, r->huge_reach_effective);
	JSONW_OBJECT_ARRAY(w, "reported", r->reported, r->nreported, cpu_tlb_fields);
	jsonw_bool(w, "reported_known", r->reported_rc >= 0);
	JSONW_FIELDS(w, r, tlb_result_fields);
	if (r->layout.nodes) {
		perm_write_layout_check_json(w, &r->layout, false);
		jsonw_uint(w, "layout_failed_chains", r->nlayout_failed);
	}
	if (r->perm_hash)
		perm_write_json(w, r->seed, r->perm_hash, TLB_CHAIN_SEEDS);
	write_falls_json(w, r);
	jsonw_object_end(w);
}
