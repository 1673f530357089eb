/*
 * The text and JSON of app bzip2's self-checks. The baseline line says the
 * bound and where each of its terms came from, so a reader can redo the
 * arithmetic: (chase t(1) + the walk's own work) x (1 + floor); the
 * predictions likewise print the band they were judged in.
 */
#include "report/app_bzip2_checks_out.h"

#include <math.h>

#define MIB ((double)(1u << 20))

/* A K=1 walk's figures after the output buffer it wrote to. */
static const struct jsonw_field baseline_walk_fields[] = {
	JSONW_FIELD(DOUBLE, "first_ns_per_row", struct app_bzip2_baseline_row, first_ns_per_row),
	JSONW_FIELD(DOUBLE, "walk_ns_per_row", struct app_bzip2_baseline_row, walk_ns_per_row),
	JSONW_FIELD(BOOL, "retimed", struct app_bzip2_baseline_row, retimed),
	JSONW_FIELD(BOOL, "slow", struct app_bzip2_baseline_row, slow),
};

static const char *output_name(const struct app_bzip2_variant *v)
{
	return v->fresh_output ? "fresh" : "reused";
}

static void write_baseline_text(const struct app_bzip2_result *r, FILE *f)
{
	const struct app_bzip2_baseline *b = &r->baseline;

	if (!b->checked) {
		fprintf(f, "  K=1 baseline: not checked (no chase at the table's footprint or no K=1 walk)\n");
		return;
	}
	fprintf(f, "  K=1 baseline: at most %.1f ns per row = (chase t(1) %.1f ns + the walk's own work %.1f ns, %s) "
		   "x (1 + %.1f%% floor):", b->bound_ns_per_row, b->chase_ns, b->work_ns_per_row, b->work_from,
		b->floor_pct);
	for (unsigned i = 0; i < b->nrows; i++) {
		const struct app_bzip2_baseline_row *row = &b->rows[i];

		fprintf(f, "%s %s output %.1f ns", i ? ";" : "", output_name(&r->variants[row->variant]),
			row->walk_ns_per_row);
		if (row->retimed)
			fprintf(f, " (re-timed; first %.1f ns)", row->first_ns_per_row);
		fprintf(f, "%s", row->slow ? " SLOW BASELINE: s and R(K) divide by it" : " ok");
	}
	fputc('\n', f);
}

/* The decoders' own buffers beside the process's peak RSS, which counts
 * every arena and input the run touched before the workers. */
static void write_footprint_text(const struct app_bzip2_result *r, FILE *f)
{
	if (!r->nworkers)
		return;
	if (!r->decoder_bytes_each) {
		fprintf(f, "  decoder's own buffers: %s\n", r->decoder_bytes_from[0] ? r->decoder_bytes_from : "unmeasured");
		return;
	}
	fprintf(f, "  decoder's own buffers: %.2f MiB per warmed decoder; peak per worker count:", r->decoder_bytes_each / MIB);
	for (unsigned i = 0; i < r->nworkers; i++)
		fprintf(f, "%s %u: %.2f MiB", i ? "," : "", r->workers[i].n, r->workers[i].decoder_bytes / MIB);
	fprintf(f, " (%s)\n", r->decoder_bytes_from);
}

/* Each prediction beside its measured figure, with the band it was judged
 * in, so a reader can redo the verdict. */
static void write_predictions_text(const struct app_bzip2_predictions *ps, FILE *f)
{
	if (!ps->n)
		return;
	fprintf(f, "  predictions from %s (sha256 %.16s..., written %s), judged within %.1f%% (twice the chase's floor):\n",
		ps->path, ps->sha256, ps->written_utc[0] ? ps->written_utc : "at an unknown time", ps->tolerance_pct);
	fprintf(f, "    %-12s %-16s %9s %9s %-13s %s\n", "axis", "figure", "expected", "measured", "verdict", "hypothesis");
	for (unsigned i = 0; i < ps->n; i++) {
		const struct app_bzip2_prediction *p = &ps->p[i];
		char m[24] = "-";

		if (isfinite(p->measured))
			snprintf(m, sizeof(m), "%.2f", p->measured);
		fprintf(f, "    %-12s %-16s %9.2f %9s %-13s %s\n", p->axis, p->figure, p->expected, m, p->verdict,
			p->hypothesis);
	}
}

static void write_hypotheses_text(const struct app_bzip2_result *r, FILE *f)
{
	if (!r->hypotheses[0].name)
		return;
	fprintf(f, "  hypotheses, from the timing axes (band %.1f%%: twice the chase's floor):\n", r->hypotheses_band_pct);
	fprintf(f, "    %-23s %-9s %s\n", "hypothesis", "verdict", "evidence; the counter that would decide it");
	for (unsigned i = 0; i < APP_BZ2_HYPOTHESES; i++)
		fprintf(f, "    %-23s %-9s %s; %s\n", r->hypotheses[i].name, r->hypotheses[i].verdict,
			r->hypotheses[i].evidence, r->hypotheses[i].counter);
}

void app_bzip2_checks_write_text(const struct app_bzip2_result *r, FILE *f)
{
	write_baseline_text(r, f);
	write_footprint_text(r, f);
	write_predictions_text(&r->predictions, f);
	write_hypotheses_text(r, f);
}

/* The bound and its terms, null where the check did not run. */
static const struct jsonw_field baseline_fields[] = {
	JSONW_FIELD(DOUBLE, "chase_ns", struct app_bzip2_baseline, chase_ns),
	JSONW_FIELD(DOUBLE, "work_ns_per_row", struct app_bzip2_baseline, work_ns_per_row),
	JSONW_FIELD(TEXT, "work_from", struct app_bzip2_baseline, work_from),
	JSONW_FIELD(DOUBLE, "floor_pct", struct app_bzip2_baseline, floor_pct),
	JSONW_FIELD(DOUBLE, "bound_ns_per_row", struct app_bzip2_baseline, bound_ns_per_row),
};

static void write_baseline_json(const struct app_bzip2_result *r, struct jsonw *w)
{
	const struct app_bzip2_baseline *b = &r->baseline;

	jsonw_object_begin(w, "k1_baseline");
	jsonw_bool(w, "checked", b->checked);
	JSONW_FIELDS_OR_NULL(w, b, baseline_fields, b->checked);
	jsonw_uint(w, "slow_walks", b->nslow);
	jsonw_array_begin(w, "walks");
	for (unsigned i = 0; i < b->nrows; i++) {
		const struct app_bzip2_baseline_row *row = &b->rows[i];

		jsonw_object_begin(w, NULL);
		jsonw_uint(w, "variant", row->variant);
		jsonw_string(w, "output_buffer", output_name(&r->variants[row->variant]));
		JSONW_FIELDS(w, row, baseline_walk_fields);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
}

/* A prediction judged; jsonw_double writes an unmeasured (NaN) figure as null. */
static const struct jsonw_field prediction_fields[] = {
	JSONW_FIELD(TEXT, "axis", struct app_bzip2_prediction, axis),
	JSONW_FIELD(STRING, "figure", struct app_bzip2_prediction, figure),
	JSONW_FIELD(DOUBLE, "expected", struct app_bzip2_prediction, expected),
	JSONW_FIELD(DOUBLE, "measured", struct app_bzip2_prediction, measured),
	JSONW_FIELD(STRING, "verdict", struct app_bzip2_prediction, verdict),
	JSONW_FIELD(STRING, "why", struct app_bzip2_prediction, why),
	JSONW_FIELD(TEXT, "hypothesis", struct app_bzip2_prediction, hypothesis),
};

static void write_predictions_json(const struct app_bzip2_predictions *ps, struct jsonw *w)
{
	if (!ps->n) {
		jsonw_null(w, "predictions");
		return;
	}
	jsonw_object_begin(w, "predictions");
	jsonw_string(w, "path", ps->path);
	jsonw_string(w, "file_sha256", ps->sha256);
	jsonw_string_or_null(w, "written_utc", ps->written_utc[0], ps->written_utc);
	jsonw_double(w, "tolerance_pct", ps->tolerance_pct);
	JSONW_OBJECT_ARRAY(w, "items", ps->p, ps->n, prediction_fields);
	jsonw_object_end(w);
}

/* A hypothesis judged: all of them are, or none (the first's name NULL). */
static const struct jsonw_field hypothesis_fields[] = {
	JSONW_FIELD(STRING, "name", struct app_bzip2_hypothesis, name),
	JSONW_FIELD(STRING, "verdict", struct app_bzip2_hypothesis, verdict),
	JSONW_FIELD(TEXT, "evidence", struct app_bzip2_hypothesis, evidence),
	JSONW_FIELD(STRING, "counter", struct app_bzip2_hypothesis, counter),
};

static void write_hypotheses_json(const struct app_bzip2_result *r, struct jsonw *w)
{
	jsonw_double(w, "hypotheses_band_pct", r->hypotheses_band_pct);
	JSONW_OBJECT_ARRAY(w, "hypotheses", r->hypotheses, r->hypotheses[0].name ? APP_BZ2_HYPOTHESES : 0,
			   hypothesis_fields);
}

void app_bzip2_checks_write_json(const struct app_bzip2_result *r, struct jsonw *w)
{
	write_hypotheses_json(r, w);
	write_predictions_json(&r->predictions, w);
	write_baseline_json(r, w);
	jsonw_uint_or_null(w, "decoder_bytes_each", r->decoder_bytes_each > 0, r->decoder_bytes_each);
	jsonw_string_or_null(w, "decoder_bytes_from", r->decoder_bytes_from[0], r->decoder_bytes_from);
}
