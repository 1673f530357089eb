/*
 * Text and JSON for the window experiment. The text says which N fits and
 * which does not rather than one number, because the step is only known to
 * lie between two sampled points; capacity counts the chase loads where
 * they occupy the structure, and the note says how clean the step was.
 */
#include "report/window_out.h"
#include "exp/window_ramp.h"
#include "report/csv.h"
#include "report/window_keys.h"
#include "util/format.h"

#include "jit/enc.h"
#include "jit/jit.h"

#include <errno.h>
#include <math.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field repeat_fields[] = {
	JSONW_FIELD(BOOL, WINDOW_REPEAT_KEY_AGREES, struct window_filler_result, repeat.agrees),
	JSONW_FIELD(DOUBLE, WINDOW_REPEAT_KEY_FITS_SIDE_NS_PER_ITER, struct window_filler_result, repeat.fits_ns),
	JSONW_FIELD(DOUBLE, WINDOW_REPEAT_KEY_FAILS_SIDE_NS_PER_ITER, struct window_filler_result, repeat.fails_ns),
	JSONW_FIELD(BOOL, WINDOW_REPEAT_KEY_RESWEEP, struct window_filler_result, repeat.resweep),
};

static const struct jsonw_field repeat_step_fields[] = {
	JSONW_FIELD(UINT, WINDOW_REPEAT_KEY_STEP_N_FITS, struct window_filler_result, repeat.step_n_fits),
	JSONW_FIELD(UINT, WINDOW_REPEAT_KEY_STEP_N_FAILS, struct window_filler_result, repeat.step_n_fails),
	JSONW_FIELD(DOUBLE, WINDOW_REPEAT_KEY_CAPACITY, struct window_filler_result, repeat.capacity),
	JSONW_FIELD(DOUBLE, WINDOW_REPEAT_KEY_JUMP_RATIO, struct window_filler_result, repeat.jump_ratio),
};

static const struct jsonw_field window_result_fields[] = {
	JSONW_FIELD(STRING, WINDOW_KEY_ISA, struct window_result, isa),
	JSONW_FIELD(UINT, WINDOW_KEY_WORKING_SET_BYTES, struct window_result, working_set_bytes),
	JSONW_FIELD(UINT, WINDOW_KEY_TOTAL_BYTES, struct window_result, total_bytes),
	JSONW_FIELD(UINT, WINDOW_KEY_HUGE_BYTES_OBTAINED, struct window_result, huge_bytes_obtained),
	JSONW_FIELD(BOOL, WINDOW_KEY_LAYOUT_OK, struct window_result, layout.ok),
	JSONW_FIELD(UINT, WINDOW_KEY_PERM_SEED, struct window_result, perm_seed),
	JSONW_FIELD(UINT, WINDOW_KEY_PERM_HASH, struct window_result, perm_hash),
	JSONW_FIELD(UINT, WINDOW_KEY_ITERS_PER_REGION, struct window_result, iters),
	JSONW_FIELD(UINT, WINDOW_KEY_TRIALS_PER_PHASE, struct window_result, trials),
	JSONW_FIELD(DOUBLE, WINDOW_KEY_NOISE_FLOOR_PCT, struct window_result, noise_floor_pct),
	JSONW_FIELD(DOUBLE, WINDOW_KEY_SETUP_SECONDS, struct window_result, setup_seconds),
	JSONW_FIELD(DOUBLE, WINDOW_KEY_SWEEP_SECONDS, struct window_result, sweep_seconds),
};

static const struct jsonw_field filler_step_fields[] = {
	JSONW_FIELD(UINT, WINDOW_FILLER_KEY_STEP_N_FITS, struct window_filler_result, step_n_fits),
	JSONW_FIELD(UINT, WINDOW_FILLER_KEY_STEP_N_FAILS, struct window_filler_result, step_n_fails),
	JSONW_FIELD(DOUBLE, WINDOW_FILLER_KEY_CAPACITY, struct window_filler_result, capacity),
	JSONW_FIELD(DOUBLE, WINDOW_FILLER_KEY_CAPACITY_LOW, struct window_filler_result, capacity_low),
	JSONW_FIELD(DOUBLE, WINDOW_FILLER_KEY_CAPACITY_HIGH, struct window_filler_result, capacity_high),
};

static const struct jsonw_field miss_knee_fields[] = {
	JSONW_FIELD(DOUBLE, WINDOW_KNEE_KEY_BUFFERS, struct window_filler_result, miss.buffers),
	JSONW_FIELD(DOUBLE, WINDOW_KNEE_KEY_BUFFERS_LOW, struct window_filler_result, miss.buffers_low),
	JSONW_FIELD(DOUBLE, WINDOW_KNEE_KEY_BUFFERS_HIGH, struct window_filler_result, miss.buffers_high),
	JSONW_FIELD(UINT, WINDOW_KNEE_KEY_N_FITS, struct window_filler_result, miss.n_fits),
	JSONW_FIELD(UINT, WINDOW_KNEE_KEY_N_FAILS, struct window_filler_result, miss.n_fails),
	JSONW_FIELD(DOUBLE, WINDOW_KNEE_KEY_FLAT_NS_PER_ITER, struct window_filler_result, miss.flat_ns),
	JSONW_FIELD(DOUBLE, WINDOW_KNEE_KEY_RMS_REL_RESIDUAL, struct window_filler_result, miss.rms_rel_residual),
	JSONW_FIELD(BOOL, WINDOW_KNEE_KEY_PLAUSIBLE, struct window_filler_result, miss.plausible),
};

static const struct jsonw_field miss_buffer_fields[] = {
	JSONW_FIELD(UINT, WINDOW_MISS_BUFFER_KEY_BUFFER_BYTES, struct window_miss_buffer, buffer_bytes),
	JSONW_FIELD(UINT, WINDOW_MISS_BUFFER_KEY_TABLE_ENTRIES, struct window_miss_buffer, table_entries),
	JSONW_FIELD(UINT, WINDOW_MISS_BUFFER_KEY_LINES_PER_ITERATION_MAX, struct window_miss_buffer, lines_per_iteration_max),
	JSONW_FIELD(UINT, WINDOW_MISS_BUFFER_KEY_LINES_CHECKED, struct window_miss_buffer, lines_checked),
	JSONW_FIELD(UINT, WINDOW_MISS_BUFFER_KEY_LINES_REPEATED, struct window_miss_buffer, lines_repeated),
};

static const struct jsonw_field window_point_fields[] = {
	JSONW_FIELD(UINT, WINDOW_POINT_KEY_N, struct window_point, n),
	JSONW_FIELD(DOUBLE, WINDOW_POINT_KEY_NS_PER_ITER, struct window_point, ns_per_iter),
	JSONW_FIELD(UINT, WINDOW_POINT_KEY_TRIALS, struct window_point, ntrials),
};

static const struct jsonw_field filler_fit_fields[] = {
	JSONW_FIELD(DOUBLE, WINDOW_FILLER_KEY_FLAT_NS_PER_ITER, struct window_filler_result, fit.flat_ns),
	JSONW_FIELD(DOUBLE, WINDOW_FILLER_KEY_JUMP_RATIO, struct window_filler_result, fit.jump_ratio),
	JSONW_FIELD(DOUBLE, WINDOW_FILLER_KEY_RMS_REL_RESIDUAL, struct window_filler_result, fit.rms_rel_residual),
	JSONW_FIELD(DOUBLE, WINDOW_FILLER_KEY_SECONDS, struct window_filler_result, seconds),
	JSONW_FIELD(TEXT, WINDOW_FILLER_KEY_NOTE, struct window_filler_result, note),
};

/* Words the window's figures cannot carry by themselves (seed 004's own
 * doubts), printed with every window report. */
static const char *const window_caveats[] = {
	"the structure names are inferences: a limit that counts stores (loads) and nothing else is read as the store "
	"(load) queue; that it is one structure, and not, say, a store queue plus something that tracks stores after "
	"they retire, is not shown",
	"every filler but miss hits L1, so their steps count the entries held by hits only; the miss filler's knee "
	"counts misses in flight, which the L1D miss buffers hold but which a limit further out (the L2's queue of "
	"misses) could cap first: the figure is the tighter of the two",
};

static void write_caveats_text(FILE *f)
{
	fprintf(f, "  caveats:\n");
	for (size_t i = 0; i < sizeof(window_caveats) / sizeof(window_caveats[0]); i++)
		fprintf(f, "    - %s\n", window_caveats[i]);
}

/* Each stepping filler's ramp against its step (exp/window_ramp.h),
 * grouped by the structure it bounds; the filler a structure's figure
 * comes from is marked. */
static void write_ramps_text(FILE *f, const struct window_result *r)
{
	unsigned stepped = 0, at_half = 0;

	fprintf(f, "  ramp before each step, against Q/2 (where two iterations' fillers together first exceed a limit "
		"Q; seed 004 expects the ramp there): checked, not assumed:\n");
	for (unsigned i = 0; i < r->nsummary; i++) {
		const struct window_summary *sm = &r->summary[i];

		for (unsigned k = 0; k < r->nfillers; k++) {
			const struct window_filler_result *fr = &r->fillers[k];
			struct window_ramp_check c;

			/* The missing loads have a knee, not a step with a ramp before it. */
			if (probe_filler_info(fr->filler)->bounds != sm->structure || !fr->step_found ||
			    fr->filler == PROBE_FILLER_MISS)
				continue;
			window_ramp_check(fr, &c);
			stepped++;
			at_half += c.verdict == WINDOW_RAMP_AT_HALF;
			fprintf(f, "    %-24s %-12s%s ", probe_structure_name(sm->structure), fr->name,
				sm->measured && sm->from == k ? "*" : " ");
			if (c.verdict == WINDOW_RAMP_NONE)
				fprintf(f, "fits at N=%u: %s\n", c.step_n, window_ramp_verdict_text(c.verdict));
			else
				fprintf(f, "ramp from N=%u (next point %u), fits at %u: %.2f-%.2f of it, %s\n", c.onset_n,
					c.next_n, c.step_n, c.ratio_low, c.ratio_high, window_ramp_verdict_text(c.verdict));
		}
	}
	fprintf(f, "    (* the filler the structure's figure comes from) the Q/2 ramp seen for %u of %u fillers that "
		"stepped\n", at_half, stepped);
}

/* The nop filler's ROB at the start, middle and end, the two states'
 * sizes and how much of the run each held. */
static void write_rob_text(FILE *f, const struct window_rob_timeline *t)
{
	if (!t->nchecks)
		return;
	fprintf(f, "  reorder buffer over the run (the nop filler at the start, middle and end; a core splits its ROB "
		"while its other hardware thread runs):\n");
	for (unsigned i = 0; i < t->nchecks; i++) {
		const struct window_rob_check *c = &t->checks[i];

		fprintf(f, "    %-7s %6.1f-%6.1f s  ", c->when, c->begin_s, c->end_s);
		/* With one size seen, "whole" only means the largest seen. */
		if (c->step_found)
			fprintf(f, "fits at N=%u, not at %u: %.1f entries, %s\n", c->step_n_fits, c->step_n_fails,
				c->capacity, t->have_partitioned || c->state != WINDOW_ROB_WHOLE
						     ? window_rob_state_name(c->state) : "the only size seen");
		else
			fprintf(f, "no step\n");
	}
	fprintf(f, "    %s\n", t->note);
}

/* Where the missing loads went, and whether their lines were distinct. */
static void write_miss_buffer_text(FILE *f, const struct window_miss_buffer *b)
{
	if (!b->built)
		return;
	fprintf(f, "  miss filler's lines: the chase arena's %zu MiB, %zu table entries (iterations before a line comes "
		"round), up to %u lines each, one page and a line apart; %llu lines walked, %s\n",
		b->buffer_bytes >> 20, b->table_entries, b->lines_per_iteration_max,
		(unsigned long long)b->lines_checked,
		b->lines_repeated ? "SOME REPEATED (the figure is void)" : "all distinct");
}

static void write_miss_buffer_json(struct jsonw *w, const struct window_miss_buffer *b)
{
	if (!b->built) {
		jsonw_null(w, WINDOW_KEY_MISS_BUFFER);
		return;
	}
	jsonw_object_begin(w, WINDOW_KEY_MISS_BUFFER);
	JSONW_FIELDS(w, b, miss_buffer_fields);
	jsonw_uint(w, WINDOW_MISS_BUFFER_KEY_STRIDE_BYTES, ENC_MISS_STRIDE_BYTES);
	jsonw_bool(w, WINDOW_MISS_BUFFER_KEY_LINES_DISTINCT, !b->lines_repeated);
	jsonw_object_end(w);
}

void window_write_text(const void *result, FILE *f)
{
	const struct window_result *r = result;
	char fl[96];

	fprintf(f, "\nwindow: out-of-order structures behind a DRAM miss (%s), %u trials x %llu iterations per point\n",
		r->isa ? r->isa : "?", r->trials, (unsigned long long)r->iters);
	fprintf(f, "  chase arena %zu MiB, %zu MiB in huge pages; layout check %s; noise floor %s\n",
		r->total_bytes >> 20, r->huge_bytes_obtained >> 20, r->layout.ok ? "ok" : "FAILED",
		report_format_floor(fl, sizeof(fl), r->noise_floor_pct, r->floor_from_run));
	if (r->note[0])
		fprintf(f, "  warning: %s\n", r->note);
	fprintf(f, "  %-12s %-36s %9s %9s %9s %9s %8s\n", "filler", "fills", "fits N", "fails N",
		"capacity", "ramp N", "points");
	for (unsigned i = 0; i < r->nfillers; i++) {
		const struct window_filler_result *fr = &r->fillers[i];

		char fills[64];

		/* A step the ROB made is not the targeted structure's size. */
		if (fr->rob_bound)
			snprintf(fills, sizeof(fills), "ROB-bound, not the %s",
				 probe_structure_name(probe_filler_info(fr->filler)->bounds));
		else
			snprintf(fills, sizeof(fills), "%s", fr->structure);
		if (fr->step_found)
			fprintf(f, "  %-12s %-36s %9u %9u %9.1f ", fr->name, fills, fr->step_n_fits,
				fr->step_n_fails, fr->capacity);
		else
			fprintf(f, "  %-12s %-36s %9s %9s %9s ", fr->name, fills, "-", "-", "-");
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
	write_miss_buffer_text(f, &r->miss_buffer);
	write_rob_text(f, &r->rob);
	write_ramps_text(f, r);
	write_caveats_text(f);
	fprintf(f, "  sweep %.1f s, of which the repeat %.1f s (setup %.1f s)\n", r->sweep_seconds, r->repeat_seconds,
		r->setup_seconds);
}

static void write_repeat(struct jsonw *w, const struct window_filler_result *fr)
{
	if (!fr->repeat.done) {
		jsonw_null(w, WINDOW_FILLER_KEY_REPEAT);
		return;
	}
	jsonw_object_begin(w, WINDOW_FILLER_KEY_REPEAT);
	JSONW_FIELDS(w, fr, repeat_fields);
	if (fr->repeat.resweep && fr->repeat.step_found) {
		JSONW_FIELDS(w, fr, repeat_step_fields);
	} else {
		jsonw_null(w, WINDOW_REPEAT_KEY_STEP_N_FITS);
		jsonw_null(w, WINDOW_REPEAT_KEY_STEP_N_FAILS);
		jsonw_null(w, WINDOW_REPEAT_KEY_CAPACITY);
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

/* A ROB check's step, null where it found none. */
static const struct jsonw_field rob_check_step_fields[] = {
	JSONW_FIELD(UINT, WINDOW_ROB_CHECK_KEY_STEP_N_FITS, struct window_rob_check, step_n_fits),
	JSONW_FIELD(UINT, WINDOW_ROB_CHECK_KEY_STEP_N_FAILS, struct window_rob_check, step_n_fails),
	JSONW_FIELD(DOUBLE, WINDOW_ROB_CHECK_KEY_CAPACITY, struct window_rob_check, capacity),
};

static void rob_check_members(struct jsonw *w, const void *e)
{
	const struct window_rob_check *c = e;

	jsonw_string(w, WINDOW_ROB_CHECK_KEY_WHEN, c->when);
	jsonw_double(w, WINDOW_ROB_CHECK_KEY_BEGIN_S, c->begin_s);
	jsonw_double(w, WINDOW_ROB_CHECK_KEY_END_S, c->end_s);
	JSONW_FIELDS_OR_NULL(w, c, rob_check_step_fields, c->step_found);
	jsonw_string(w, WINDOW_ROB_CHECK_KEY_STATE, window_rob_state_name(c->state));
}

/* A stepping filler's ramp against its step, null where a figure is not known. */
static void ramp_members(struct jsonw *w, const void *e)
{
	const struct window_filler_result *fr = e;
	struct window_ramp_check c;

	window_ramp_check(fr, &c);
	jsonw_string(w, WINDOW_RAMP_KEY_FILLER, fr->name);
	jsonw_string(w, WINDOW_RAMP_KEY_STRUCTURE, probe_structure_key(probe_filler_info(fr->filler)->bounds));
	jsonw_string(w, WINDOW_RAMP_KEY_VERDICT, window_ramp_verdict_key(c.verdict));
	jsonw_uint_or_null(w, WINDOW_RAMP_KEY_ONSET_N, isfinite(c.ratio_low), c.onset_n);
	jsonw_uint_or_null(w, WINDOW_RAMP_KEY_NEXT_N, isfinite(c.ratio_low), c.next_n);
	jsonw_uint_or_null(w, WINDOW_RAMP_KEY_STEP_N_FITS, c.verdict != WINDOW_RAMP_NO_STEP, c.step_n);
	jsonw_double_or_null(w, WINDOW_RAMP_KEY_RATIO_LOW, isfinite(c.ratio_low), c.ratio_low);
	jsonw_double_or_null(w, WINDOW_RAMP_KEY_RATIO_HIGH, isfinite(c.ratio_high), c.ratio_high);
}

/* The two states' sizes over the run, each null where no check saw it. */
static const struct jsonw_field rob_whole_fields[] = {
	JSONW_FIELD(DOUBLE, WINDOW_ROB_KEY_WHOLE_CAPACITY, struct window_rob_timeline, whole_capacity),
	JSONW_FIELD(UINT, WINDOW_ROB_KEY_WHOLE_N_FITS, struct window_rob_timeline, whole_n_fits),
	JSONW_FIELD(UINT, WINDOW_ROB_KEY_WHOLE_N_FAILS, struct window_rob_timeline, whole_n_fails),
};

static const struct jsonw_field rob_partitioned_fields[] = {
	JSONW_FIELD(DOUBLE, WINDOW_ROB_KEY_PARTITIONED_CAPACITY, struct window_rob_timeline, partitioned_capacity),
	JSONW_FIELD(UINT, WINDOW_ROB_KEY_PARTITIONED_N_FITS, struct window_rob_timeline, partitioned_n_fits),
	JSONW_FIELD(UINT, WINDOW_ROB_KEY_PARTITIONED_N_FAILS, struct window_rob_timeline, partitioned_n_fails),
};

/* window.rob_over_run: null where it was not measured (no nop filler, or
 * it ran alone). */
static void write_rob_json(struct jsonw *w, const struct window_rob_timeline *t)
{
	double run = t->run_s > 0 ? t->run_s : 1;

	if (!t->nchecks) {
		jsonw_null(w, WINDOW_KEY_ROB_OVER_RUN);
		return;
	}
	jsonw_object_begin(w, WINDOW_KEY_ROB_OVER_RUN);
	JSONW_OBJECT_ARRAY_EACH(w, WINDOW_ROB_KEY_CHECKS, t->checks, t->nchecks, rob_check_members);
	jsonw_bool(w, WINDOW_ROB_KEY_MEASURED, t->measured);
	JSONW_FIELDS_OR_NULL(w, t, rob_whole_fields, t->have_whole);
	JSONW_FIELDS_OR_NULL(w, t, rob_partitioned_fields, t->have_partitioned);
	jsonw_double(w, WINDOW_ROB_KEY_RUN_SECONDS, t->run_s);
	jsonw_double(w, WINDOW_ROB_KEY_WHOLE_FRACTION, t->whole_s / run);
	jsonw_double(w, WINDOW_ROB_KEY_PARTITIONED_FRACTION, t->partitioned_s / run);
	jsonw_double(w, WINDOW_ROB_KEY_UNKNOWN_FRACTION, t->unknown_s / run);
	jsonw_bool(w, WINDOW_ROB_KEY_ONE_STATE, t->one_state);
	jsonw_string(w, WINDOW_ROB_KEY_NOTE, t->note);
	jsonw_object_end(w);
}

/* window.summary: one object per structure, keyed by its name. */
static void write_summary(struct jsonw *w, const struct window_result *r)
{
	jsonw_object_begin(w, WINDOW_KEY_SUMMARY);
	for (unsigned i = 0; i < r->nsummary; i++) {
		const struct window_summary *sm = &r->summary[i];

		jsonw_object_begin(w, probe_structure_key(sm->structure));
		jsonw_string(w, WINDOW_SUMMARY_KEY_STRUCTURE, probe_structure_name(sm->structure));
		jsonw_bool(w, WINDOW_SUMMARY_KEY_MEASURED, sm->measured);
		if (sm->measured) {
			jsonw_double(w, WINDOW_SUMMARY_KEY_CAPACITY, sm->capacity);
			jsonw_double(w, WINDOW_SUMMARY_KEY_CAPACITY_LOW, sm->capacity_low);
			jsonw_double(w, WINDOW_SUMMARY_KEY_CAPACITY_HIGH, sm->capacity_high);
			jsonw_string(w, WINDOW_SUMMARY_KEY_FROM, r->fillers[sm->from].name);
		} else {
			jsonw_null(w, WINDOW_SUMMARY_KEY_CAPACITY);
			jsonw_null(w, WINDOW_SUMMARY_KEY_FROM);
		}
		jsonw_string(w, WINDOW_SUMMARY_KEY_UNIT, "entries");
		write_names(w, WINDOW_SUMMARY_KEY_AGREE, r, sm->agree, sm->nagree);
		write_names(w, WINDOW_SUMMARY_KEY_DISAGREE, r, sm->disagree, sm->ndisagree);
		write_names(w, WINDOW_SUMMARY_KEY_NO_STEP, r, sm->nostep, sm->nnostep);
		write_names(w, WINDOW_SUMMARY_KEY_ROB_BOUND, r, sm->rob_bound, sm->nrob_bound);
		jsonw_bool(w, WINDOW_SUMMARY_KEY_PARTITIONED, sm->partitioned);
		jsonw_bool(w, WINDOW_SUMMARY_KEY_NOISE_LIMITED, sm->noise_limited);
		jsonw_string(w, WINDOW_SUMMARY_KEY_NOTE, sm->note);
		jsonw_object_end(w);
	}
	jsonw_object_end(w);
}

/* window.ramps: each stepping filler's ramp against its step; window.caveats. */
static void write_ramps_json(struct jsonw *w, const struct window_result *r)
{
	JSONW_OBJECT_ARRAY_EACH(w, WINDOW_KEY_RAMPS, r->fillers, r->nfillers, ramp_members);
	jsonw_array_begin(w, WINDOW_KEY_CAVEATS);
	for (size_t i = 0; i < sizeof(window_caveats) / sizeof(window_caveats[0]); i++)
		jsonw_string(w, NULL, window_caveats[i]);
	jsonw_array_end(w);
}

/* One filler's object in window.fillers; rob_checked: the run timed the
 * ROB's state over the run, so each filler's state is known. */
static void write_filler(struct jsonw *w, const struct window_filler_result *fr, bool rob_checked)
{
	jsonw_object_begin(w, NULL);
	jsonw_string(w, WINDOW_FILLER_KEY_FILLER, fr->name);
	jsonw_string(w, WINDOW_FILLER_KEY_STRUCTURE, fr->structure);
	JSONW_OBJECT_ARRAY(w, WINDOW_FILLER_KEY_POINTS, fr->points, fr->npoints, window_point_fields);
	if (fr->step_found) {
		JSONW_FIELDS(w, fr, filler_step_fields);
	} else {
		jsonw_null(w, WINDOW_FILLER_KEY_STEP_N_FITS);
		jsonw_null(w, WINDOW_FILLER_KEY_STEP_N_FAILS);
		jsonw_null(w, WINDOW_FILLER_KEY_CAPACITY);
	}
	jsonw_uint_or_null(w, WINDOW_FILLER_KEY_RAMP_ONSET_N, fr->ramp_found, fr->ramp_onset_n);
	JSONW_FIELDS(w, fr, filler_fit_fields);
	jsonw_array_begin(w, WINDOW_FILLER_KEY_TRANSITION_N);
	for (unsigned j = 0; j < fr->ntransition; j++)
		jsonw_uint(w, NULL, fr->transition_n[j]);
	jsonw_array_end(w);
	write_repeat(w, fr);
	if (fr->step_found) {
		jsonw_double(w, WINDOW_FILLER_KEY_WHOLE_CAPACITY, fr->whole_capacity);
		jsonw_double(w, WINDOW_FILLER_KEY_WHOLE_CAPACITY_LOW, fr->whole_capacity_low);
		jsonw_double(w, WINDOW_FILLER_KEY_WHOLE_CAPACITY_HIGH, fr->whole_capacity_high);
	} else {
		jsonw_null(w, WINDOW_FILLER_KEY_WHOLE_CAPACITY);
	}
	jsonw_bool(w, WINDOW_FILLER_KEY_PARTITIONED, fr->partitioned);
	jsonw_bool(w, WINDOW_FILLER_KEY_DISAGREES, fr->disagrees);
	jsonw_double(w, WINDOW_FILLER_KEY_BEGIN_S, fr->begin_s);
	jsonw_double(w, WINDOW_FILLER_KEY_END_S, fr->end_s);
	jsonw_string_or_null(w, WINDOW_FILLER_KEY_ROB_STATE, rob_checked, window_rob_state_name(fr->rob_state));
	jsonw_bool(w, WINDOW_FILLER_KEY_ROB_BOUND, fr->rob_bound);
	if (fr->filler == PROBE_FILLER_MISS && fr->miss.knee_found) {
		jsonw_object_begin(w, WINDOW_FILLER_KEY_KNEE);
		JSONW_FIELDS(w, fr, miss_knee_fields);
		jsonw_double_or_null(w, WINDOW_KNEE_KEY_SLOPE_BUFFERS, isfinite(fr->miss.slope_buffers), fr->miss.slope_buffers);
		jsonw_object_end(w);
	} else {
		jsonw_null(w, WINDOW_FILLER_KEY_KNEE);
	}
	jsonw_object_end(w);
}

void window_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct window_result *r = result;

	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, r, window_result_fields);
	jsonw_string(w, WINDOW_KEY_NOISE_FLOOR_SOURCE, report_floor_source(r->noise_floor_pct, r->floor_from_run));
	if (r->note[0])
		jsonw_string(w, WINDOW_KEY_WARNING, r->note);
	jsonw_array_begin(w, WINDOW_KEY_FILLERS);
	for (unsigned i = 0; i < r->nfillers; i++)
		write_filler(w, &r->fillers[i], r->rob.nchecks);
	jsonw_array_end(w);
	jsonw_double(w, WINDOW_KEY_REPEAT_SECONDS, r->repeat_seconds);
	write_rob_json(w, &r->rob);
	write_miss_buffer_json(w, &r->miss_buffer);
	write_summary(w, r);
	write_ramps_json(w, r);
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
	{ "filler", WINDOW_FILLER_KEY_FILLER }, { "structure", WINDOW_FILLER_KEY_STRUCTURE },
	{ "step_n_fits", WINDOW_FILLER_KEY_STEP_N_FITS }, { "step_n_fails", WINDOW_FILLER_KEY_STEP_N_FAILS },
	{ "capacity_entries", WINDOW_FILLER_KEY_CAPACITY }, { "capacity_low_entries", WINDOW_FILLER_KEY_CAPACITY_LOW },
	{ "capacity_high_entries", WINDOW_FILLER_KEY_CAPACITY_HIGH }, { "ramp_onset_n", WINDOW_FILLER_KEY_RAMP_ONSET_N },
	{ "flat_ns_per_iter", WINDOW_FILLER_KEY_FLAT_NS_PER_ITER }, { "jump_ratio", WINDOW_FILLER_KEY_JUMP_RATIO },
	{ "rms_rel_residual", WINDOW_FILLER_KEY_RMS_REL_RESIDUAL },
};

static const struct csv_col wpoint_cols[] = {
	{ "n", WINDOW_POINT_KEY_N }, { "ns_per_iter", WINDOW_POINT_KEY_NS_PER_ITER }, { "trials", WINDOW_POINT_KEY_TRIALS },
};

int window_write_csv(const char *dir, const struct jsonr_value *doc)
{
	struct csv_group g[CSV_MAX_GROUPS] = { { NULL, NULL } };
	const struct jsonr_value *v = jsonr_get(doc, "window." WINDOW_KEY_FILLERS);
	size_t ng = 0;
	int rc;

	if ((rc = csv_write_rows(dir, "window_fillers", v, filler_cols, CSV_NCOLS(filler_cols))))
		return rc;
	for (v = v && v->type == JSONR_ARRAY ? v->u.children.first : NULL; v && ng < CSV_MAX_GROUPS; v = v->next)
		g[ng++] = (struct csv_group){ jsonr_get_string(v, WINDOW_FILLER_KEY_FILLER), jsonr_get(v, WINDOW_FILLER_KEY_POINTS) };
	return csv_write_table(dir, "window_points", WINDOW_FILLER_KEY_FILLER, g, ng, wpoint_cols, CSV_NCOLS(wpoint_cols));
}
