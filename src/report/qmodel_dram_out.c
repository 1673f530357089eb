/*
 * The queue model's DRAM part in text and JSON: per feed, the row hits,
 * empties and conflicts the model's own addresses met (exact) beside the
 * derivation's expectation, and the banks the in-flight requests kept busy;
 * then the two-walks case, where two sequential walks interleaved at the
 * controller destroy each other's row locality in a layer neither can see.
 */
#include "report/qmodel_dram_out.h"

#include "util/jsonw.h"

#include <math.h>

/* The row buffer's counts over one feed, before the figures drawn from them. */
static const struct jsonw_field count_fields[] = {
	JSONW_FIELD(UINT, "requests", struct dram_count, requests),
	JSONW_FIELD(UINT, "in_flight", struct dram_count, in_flight),
	JSONW_FIELD(UINT, "row_hits", struct dram_count, hits),
	JSONW_FIELD(UINT, "row_empty", struct dram_count, empty),
	JSONW_FIELD(UINT, "row_conflicts", struct dram_count, conflicts),
};

static void map_text(FILE *out, const struct dram_map *d, uint64_t line_bytes)
{
	fprintf(out, "DRAM map: %u channel%s x %u rank%s x %u banks = %llu banks; rows of %llu bytes (%llu lines of "
		"%llu); interleave %s: %s\n", d->channels, d->channels == 1 ? "" : "s", d->ranks,
		d->ranks == 1 ? "" : "s", d->banks_per_rank, (unsigned long long)dram_banks(d),
		(unsigned long long)d->row_bytes, (unsigned long long)(d->row_bytes / line_bytes),
		(unsigned long long)line_bytes, dram_interleave_name(d->interleave),
		d->interleave == DRAM_INTERLEAVE_LINE ? "consecutive lines change bank"
						      : "a row of consecutive bytes stays in one bank");
	fprintf(out, "  (open page: each bank keeps the last row it opened; requests served in arrival order; "
		"counts, no timing; model = the derivation in docs/MODEL.md)\n");
}

/* A fraction as a percentage; a scattered walk's expected hit rate is a
 * few in a hundred thousand, which two decimals would print as 0. */
static void pct(char *buf, size_t len, double f)
{
	snprintf(buf, len, f == 0 || 100 * f >= 0.01 ? "%.2f%%" : "%.1e%%", 100 * f);
}

static void row_text(FILE *out, const char *what, const struct qmodel_dram *q)
{
	const struct dram_count *c = &q->seen;
	char seen[32], model[32];

	pct(seen, sizeof(seen), dram_hit_fraction(c));
	pct(model, sizeof(model), q->hit_model);
	fprintf(out, "  %-14s %9llu %9llu %8llu %9llu %9s %9s %10.2f %8.2f\n", what, (unsigned long long)c->in_flight,
		(unsigned long long)c->hits, (unsigned long long)c->empty, (unsigned long long)c->conflicts, seen,
		model, c->banks_busy_mean, q->banks_model);
}

static void walk_text(FILE *out, const char *what, const struct dram_count *c)
{
	fprintf(out, "  %-28s %6.2f%%: %llu hits of %llu, %llu activations (%llu conflicts)\n", what,
		100 * dram_hit_fraction(c), (unsigned long long)c->hits, (unsigned long long)c->requests,
		(unsigned long long)dram_activations(c), (unsigned long long)c->conflicts);
}

static void two_text(FILE *out, const struct qmodel_table *t)
{
	const struct dram_two_streams *two = &t->two;

	fprintf(out, "two sequential walks of %llu lines each, interleaved one for one at the controller "
		"(A0 B0 A1 B1 ...), row-hit rate:\n", (unsigned long long)two->lines_each);
	walk_text(out, "A alone", &two->alone);
	walk_text(out, "B in A's bank, another row", &two->same_bank);
	for (int w = 0; w < DRAM_TWO_WINDOWS; w++) {
		char what[40];

		snprintf(what, sizeof(what), "same bank, FR-FCFS, %llu held", (unsigned long long)dram_two_windows[w]);
		walk_text(out, what, &two->same_bank_reordered[w]);
	}
	if (two->apart_possible)
		walk_text(out, "B half the banks away", &two->apart);
	else
		fprintf(out, "  %-28s -: one bank, nowhere else to put B\n", "B in another bank");
	if (dram_hit_fraction(&two->same_bank) < dram_hit_fraction(&two->alone))
		fprintf(out, "  each walk alone keeps its row open; interleaved in one bank, each access finds the other's "
			"row open: the interleaving, not either walk, destroyed the locality; a controller that holds "
			"several requests and serves the open row's first (FR-FCFS) wins hits back, the more the more "
			"it holds: concurrency buys row hits\n");
	if (two->apart_possible && dram_hit_fraction(&two->apart) < dram_hit_fraction(&two->alone))
		fprintf(out, "  under this interleave each walk visits every bank, so no placement keeps the two out of "
			"each other's banks: what spreads one walk's requests over the banks mixes two walks in each\n");
}

void qmodel_dram_write_text(FILE *out, const struct qmodel_table *t)
{
	char what[32];

	map_text(out, &t->map, t->m.request_bytes);
	fprintf(out, "  %-14s %9s %9s %8s %9s %9s %9s %10s %8s\n", "feed", "in flight", "row hits", "empty",
		"conflicts", "hit rate", "model", "banks busy", "model");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct qmodel_row *r = &t->rows[i];

		qmodel_row_name(what, sizeof(what), r);
		row_text(out, what, &r->dram);
	}
	fprintf(out, "  (chains draw scattered lines from %llu MiB; the stream walks consecutive lines; banks busy: "
		"distinct banks among each run of in-flight requests, averaged)\n",
		(unsigned long long)(QMODEL_CHAIN_LINES * t->m.request_bytes >> 20));
	two_text(out, t);
}

static void count_json(struct jsonw *w, const char *key, const struct dram_count *c)
{
	double hit = dram_hit_fraction(c);

	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, c, count_fields);
	jsonw_uint(w, "activations", dram_activations(c));
	jsonw_double_or_null(w, "row_hit_fraction", isfinite(hit), hit);
	jsonw_double(w, "banks_busy_mean", c->banks_busy_mean);
	jsonw_object_end(w);
}

void qmodel_dram_row_json(struct jsonw *w, const struct qmodel_table *t, const struct qmodel_row *r)
{
	if (!t->has_dram) {
		jsonw_null(w, "dram");
		return;
	}
	jsonw_object_begin(w, "dram");
	count_json(w, "seen", &r->dram.seen);
	jsonw_double(w, "row_hit_fraction_model", r->dram.hit_model);
	jsonw_double(w, "banks_busy_model", r->dram.banks_model);
	jsonw_object_end(w);
}

void qmodel_dram_write_json(struct jsonw *w, const struct qmodel_table *t)
{
	if (!t->has_dram) {
		jsonw_null(w, "dram_map");
		jsonw_null(w, "dram_two_streams");
		return;
	}
	jsonw_object_begin(w, "dram_map");
	jsonw_uint(w, "channels", t->map.channels);
	jsonw_uint(w, "ranks", t->map.ranks);
	jsonw_uint(w, "banks_per_rank", t->map.banks_per_rank);
	jsonw_uint(w, "banks", dram_banks(&t->map));
	jsonw_uint(w, "row_bytes", t->map.row_bytes);
	jsonw_uint(w, "line_bytes", t->m.request_bytes);
	jsonw_string(w, "interleave", dram_interleave_name(t->map.interleave));
	jsonw_string(w, "policy", "open page, arrival order");
	jsonw_uint(w, "chain_footprint_bytes", QMODEL_CHAIN_LINES * t->m.request_bytes);
	jsonw_object_end(w);
	jsonw_object_begin(w, "dram_two_streams");
	jsonw_uint(w, "lines_each", t->two.lines_each);
	jsonw_uint(w, "base_same_bytes", t->two.base_same_bytes);
	jsonw_uint_or_null(w, "base_apart_bytes", t->two.apart_possible, t->two.base_apart_bytes);
	count_json(w, "alone", &t->two.alone);
	count_json(w, "same_bank", &t->two.same_bank);
	jsonw_array_begin(w, "same_bank_reordered");
	for (int k = 0; k < DRAM_TWO_WINDOWS; k++)
		count_json(w, NULL, &t->two.same_bank_reordered[k]);
	jsonw_array_end(w);
	if (t->two.apart_possible)
		count_json(w, "apart", &t->two.apart);
	else
		jsonw_null(w, "apart");
	jsonw_object_end(w);
}
