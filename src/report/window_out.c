/*
 * Text and JSON for the window experiment. The text says which N fits and
 * which does not rather than one number, because the step is only known to
 * lie between two sampled points; capacity counts the chase loads where
 * they occupy the structure, and the note says how clean the step was.
 */
#include "report/window_out.h"
#include "report/csv.h"
#include "util/format.h"

#include "jit/enc.h"
#include "jit/jit.h"

#include <errno.h>

void window_write_text(const void *result, FILE *f)
{
	const struct window_result *r = result;

	fprintf(f, "\nwindow: out-of-order structures behind a DRAM miss (%s), %u trials x %llu iterations per point\n",
		r->isa ? r->isa : "?", r->trials, (unsigned long long)r->iters);
	fprintf(f, "  chase arena %zu MiB, %zu MiB in huge pages; layout check %s; noise floor %.1f%% (" REPORT_FLOOR_OWN ")\n",
		r->total_bytes >> 20, r->huge_bytes_obtained >> 20, r->layout.ok ? "ok" : "FAILED",
		r->noise_floor_pct);
	if (r->note[0])
		fprintf(f, "  warning: %s\n", r->note);
	fprintf(f, "  %-12s %-36s %9s %9s %9s %9s %8s\n", "filler", "fills", "fits N", "fails N",
		"capacity", "ramp N", "points");
	for (unsigned i = 0; i < r->nfillers; i++) {
		const struct window_filler_result *fr = &r->fillers[i];

		if (fr->step_found)
			fprintf(f, "  %-12s %-36s %9u %9u %9.1f ", fr->name, fr->structure, fr->step_n_fits,
				fr->step_n_fails, fr->capacity);
		else
			fprintf(f, "  %-12s %-36s %9s %9s %9s ", fr->name, fr->structure, "-", "-", "-");
		if (fr->ramp_found)
			fprintf(f, "%9u %8u\n", fr->ramp_onset_n, fr->npoints);
		else
			fprintf(f, "%9s %8u\n", "-", fr->npoints);
		fprintf(f, "  %-12s %s\n", "", fr->note);
	}
	if (r->nsummary)
		fprintf(f, "  per structure (the largest figure among its fillers; cross-checks and repeats):\n");
	for (unsigned i = 0; i < r->nsummary; i++) {
		const struct window_summary *sm = &r->summary[i];

		fprintf(f, "  %-24s %s\n", probe_structure_name(sm->structure), sm->note);
	}
	fprintf(f, "  sweep %.1f s, of which the repeat %.1f s (setup %.1f s)\n", r->sweep_seconds, r->repeat_seconds,
		r->setup_seconds);
}

static void write_repeat(struct jsonw *w, const struct window_filler_result *fr)
{
	if (!fr->repeat.done) {
		jsonw_null(w, "repeat");
		return;
	}
	jsonw_object_begin(w, "repeat");
	jsonw_bool(w, "agrees", fr->repeat.agrees);
	jsonw_double(w, "fits_side_ns_per_iter", fr->repeat.fits_ns);
	jsonw_double(w, "fails_side_ns_per_iter", fr->repeat.fails_ns);
	jsonw_bool(w, "resweep", fr->repeat.resweep);
	if (fr->repeat.resweep && fr->repeat.step_found) {
		jsonw_uint(w, "step_n_fits", fr->repeat.step_n_fits);
		jsonw_uint(w, "step_n_fails", fr->repeat.step_n_fails);
		jsonw_double(w, "capacity", fr->repeat.capacity);
		jsonw_double(w, "jump_ratio", fr->repeat.jump_ratio);
	} else {
		jsonw_null(w, "step_n_fits");
		jsonw_null(w, "step_n_fails");
		jsonw_null(w, "capacity");
	}
	jsonw_object_end(w);
}

static void write_names(struct jsonw *w, const char *key, const struct window_result *r, const unsigned *idx,
			unsigned n)
{
	jsonw_array_begin(w, key);
	for (unsigned k = 0; k < n; k++)
		jsonw_string(w, NULL, r->fillers[idx[k]].name);
	jsonw_array_end(w);
}

/* window.summary: one object per structure, keyed by its name. */
static void write_summary(struct jsonw *w, const struct window_result *r)
{
	jsonw_object_begin(w, "summary");
	for (unsigned i = 0; i < r->nsummary; i++) {
		const struct window_summary *sm = &r->summary[i];

		jsonw_object_begin(w, probe_structure_key(sm->structure));
		jsonw_string(w, "structure", probe_structure_name(sm->structure));
		jsonw_bool(w, "measured", sm->measured);
		if (sm->measured) {
			jsonw_double(w, "capacity", sm->capacity);
			jsonw_double(w, "capacity_low", sm->capacity_low);
			jsonw_double(w, "capacity_high", sm->capacity_high);
			jsonw_string(w, "from", r->fillers[sm->from].name);
		} else {
			jsonw_null(w, "capacity");
			jsonw_null(w, "from");
		}
		jsonw_string(w, "unit", "entries");
		write_names(w, "agree", r, sm->agree, sm->nagree);
		write_names(w, "disagree", r, sm->disagree, sm->ndisagree);
		write_names(w, "no_step", r, sm->nostep, sm->nnostep);
		jsonw_bool(w, "partitioned", sm->partitioned);
		jsonw_bool(w, "noise_limited", sm->noise_limited);
		jsonw_string(w, "note", sm->note);
		jsonw_object_end(w);
	}
	jsonw_object_end(w);
}

void window_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct window_result *r = result;

	jsonw_object_begin(w, key);
	jsonw_string(w, "isa", r->isa);
	jsonw_uint(w, "working_set_bytes", r->working_set_bytes);
	jsonw_uint(w, "total_bytes", r->total_bytes);
	jsonw_uint(w, "huge_bytes_obtained", r->huge_bytes_obtained);
	jsonw_bool(w, "layout_ok", r->layout.ok);
	jsonw_uint(w, "perm_seed", r->perm_seed);
	jsonw_uint(w, "perm_hash", r->perm_hash);
	jsonw_uint(w, "iters_per_region", r->iters);
	jsonw_uint(w, "trials_per_phase", r->trials);
	jsonw_double(w, "noise_floor_pct", r->noise_floor_pct);
	jsonw_double(w, "setup_seconds", r->setup_seconds);
	jsonw_double(w, "sweep_seconds", r->sweep_seconds);
	if (r->note[0])
		jsonw_string(w, "warning", r->note);
	jsonw_array_begin(w, "fillers");
	for (unsigned i = 0; i < r->nfillers; i++) {
		const struct window_filler_result *fr = &r->fillers[i];

		jsonw_object_begin(w, NULL);
		jsonw_string(w, "filler", fr->name);
		jsonw_string(w, "structure", fr->structure);
		jsonw_array_begin(w, "points");
		for (unsigned j = 0; j < fr->npoints; j++) {
			jsonw_object_begin(w, NULL);
			jsonw_uint(w, "n", fr->points[j].n);
			jsonw_double(w, "ns_per_iter", fr->points[j].ns_per_iter);
			jsonw_uint(w, "trials", fr->points[j].ntrials);
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		if (fr->step_found) {
			jsonw_uint(w, "step_n_fits", fr->step_n_fits);
			jsonw_uint(w, "step_n_fails", fr->step_n_fails);
			jsonw_double(w, "capacity", fr->capacity);
			jsonw_double(w, "capacity_low", fr->capacity_low);
			jsonw_double(w, "capacity_high", fr->capacity_high);
		} else {
			jsonw_null(w, "step_n_fits");
			jsonw_null(w, "step_n_fails");
			jsonw_null(w, "capacity");
		}
		jsonw_uint_or_null(w, "ramp_onset_n", fr->ramp_found, fr->ramp_onset_n);
		jsonw_double(w, "flat_ns_per_iter", fr->fit.flat_ns);
		jsonw_double(w, "jump_ratio", fr->fit.jump_ratio);
		jsonw_double(w, "rms_rel_residual", fr->fit.rms_rel_residual);
		jsonw_double(w, "seconds", fr->seconds);
		jsonw_string(w, "note", fr->note);
		jsonw_array_begin(w, "transition_n");
		for (unsigned j = 0; j < fr->ntransition; j++)
			jsonw_uint(w, NULL, fr->transition_n[j]);
		jsonw_array_end(w);
		write_repeat(w, fr);
		if (fr->step_found) {
			jsonw_double(w, "whole_capacity", fr->whole_capacity);
			jsonw_double(w, "whole_capacity_low", fr->whole_capacity_low);
			jsonw_double(w, "whole_capacity_high", fr->whole_capacity_high);
		} else {
			jsonw_null(w, "whole_capacity");
		}
		jsonw_bool(w, "partitioned", fr->partitioned);
		jsonw_bool(w, "disagrees", fr->disagrees);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_double(w, "repeat_seconds", r->repeat_seconds);
	write_summary(w, r);
	jsonw_object_end(w);
}

int window_dump_code(enum probe_filler f, unsigned n, FILE *out)
{
	const struct enc_ops *ops = enc_host_ops();
	struct jit_code c;
	int rc;

	if (!ops)
		return -ENOTSUP;
	if ((rc = jit_code_map(&c, probe_code_bytes_max(n))))
		return rc;
	/* Emitted but never sealed: these bytes are only written out. */
	if (!(rc = probe_emit(&c, ops, f, n)) && fwrite(c.base, 1, c.len_bytes, out) != c.len_bytes)
		rc = -EIO;
	jit_code_unmap(&c);
	return rc;
}

static const struct csv_col filler_cols[] = {
	{ "filler", "filler" }, { "structure", "structure" }, { "step_n_fits", "step_n_fits" },
	{ "step_n_fails", "step_n_fails" }, { "capacity_entries", "capacity" },
	{ "capacity_low_entries", "capacity_low" }, { "capacity_high_entries", "capacity_high" },
	{ "ramp_onset_n", "ramp_onset_n" }, { "flat_ns_per_iter", "flat_ns_per_iter" },
	{ "jump_ratio", "jump_ratio" }, { "rms_rel_residual", "rms_rel_residual" },
};

static const struct csv_col wpoint_cols[] = {
	{ "n", "n" }, { "ns_per_iter", "ns_per_iter" }, { "trials", "trials" },
};

int window_write_csv(const char *dir, const struct jsonr_value *doc)
{
	struct csv_group g[CSV_MAX_GROUPS] = { { NULL, NULL } };
	const struct jsonr_value *v = jsonr_get(doc, "window.fillers");
	size_t ng = 0;
	int rc;

	if ((rc = csv_write_rows(dir, "window_fillers", v, filler_cols, CSV_NCOLS(filler_cols))))
		return rc;
	for (v = v && v->type == JSONR_ARRAY ? v->u.children.first : NULL; v && ng < CSV_MAX_GROUPS; v = v->next)
		g[ng++] = (struct csv_group){ jsonr_get_string(v, "filler"), jsonr_get(v, "points") };
	return csv_write_table(dir, "window_points", "filler", g, ng, wpoint_cols, CSV_NCOLS(wpoint_cols));
}
