/*
 * Writers of the queue model. The simulation is exact and the bound is what
 * `model` and `trace` use, so the two are printed side by side; the
 * characteriser's figures say what the memory saw, its flags and
 * properties that nothing broke (the model completes only what it accepted,
 * in time order, within its slots, so no flag can fire: the JSON says why).
 */
#include "report/qmodel_out.h"

#include "report/charz_out.h"
#include "report/qmodel_dram_out.h"
#include "util/jsonw.h"

#include <math.h>

static void bound_text(const struct qmodel_bound *b, char *buf, size_t len)
{
	char names[64];
	size_t used = 0;

	for (int t = 0; t < QMODEL_NTERMS && used < len; t++)
		used += (size_t)snprintf(buf + used, len - used, b->term[t] > 0 ? "%s%s/%s %.1f" : "%s%s/%s -",
					 t ? ", " : "", t == QMODEL_TERM_BANDWIDTH ? "bytes" : "L",
					 t == QMODEL_TERM_LATENCY ? "K" : t == QMODEL_TERM_CONCURRENCY ? "Q" : "B",
					 b->term[t]);
	qmodel_bound_names(b, names, sizeof(names));
	if (used < len)
		snprintf(buf + used, len - used, " -> %.1f (%s)", b->bound, names);
}

static void row_text(FILE *out, const char *what, const struct qmodel_result *r, const struct qmodel_bound *b)
{
	char bound[200];

	bound_text(b, bound, sizeof(bound));
	fprintf(out, "  %-14s %12.0f %12.1f %11.2f %6llu   %s\n", what, r->makespan, r->per_request,
		r->seen.mean_outstanding, (unsigned long long)r->seen.high_water, bound);
}

static uint64_t irregular(const struct charz_summary *s)
{
	return s->stride_classified - s->stride_regular;
}

static void versus_row(FILE *out, const char *what, const struct qmodel_result *r, const struct qmodel_bound *b)
{
	char names[64];

	qmodel_bound_names(b, names, sizeof(names));
	fprintf(out, "  %-14s %8llu %7llu %11.2f %6llu %9llu %10llu %12.0f  %s\n", what,
		(unsigned long long)r->seen.reads, (unsigned long long)r->seen.writes, r->seen.mean_outstanding,
		(unsigned long long)r->seen.high_water, (unsigned long long)r->seen.stride_regular,
		(unsigned long long)irregular(&r->seen), r->makespan, names);
}

/* Seed 003's scenario B: identical reads, opposite bottlenecks. */
static void versus_text(FILE *out, const struct qmodel_table *t)
{
	const struct qmodel_comparison *c = &t->cmp;

	fprintf(out, "chase against stream: the same %llu reads as one dependent chain and as independent requests\n",
		(unsigned long long)t->requests);
	fprintf(out, "  %-14s %8s %7s %11s %6s %9s %10s %12s  %s\n", "feed", "reads", "writes", "mean outst", "peak",
		"regular", "irregular", "makespan", "bound by");
	versus_row(out, "pointer chase", &c->chase, &c->chase_bound);
	versus_row(out, "stream", &c->stream, &c->stream_bound);
	if (isfinite(c->slowdown))
		fprintf(out, "  the chase takes %.1fx the stream's time for the same reads: dependency structure, not "
			"miss count, sets it; the stride columns tell the two apart where the read count cannot\n",
			c->slowdown);
	fprintf(out, "  (strides: requests whose line delta repeats the previous one, the first two unclassified; the "
		"model issues reads only, so writes are 0: it has no writebacks)\n");
}

void qmodel_write_text(FILE *out, const struct qmodel_table *t)
{
	char q[32], bw[32], what[32];

	snprintf(q, sizeof(q), t->m.queue_cap > 0 ? "%.0f" : "unlimited", t->m.queue_cap);
	snprintf(bw, sizeof(bw), t->m.bytes_per_tick > 0 ? "%g bytes/tick" : "unlimited", t->m.bytes_per_tick);
	fprintf(out, "queue model: %llu requests of %llu bytes, each outstanding L = %g ticks; at most Q = %s "
		"outstanding; data path B = %s\n", (unsigned long long)t->requests,
		(unsigned long long)t->m.request_bytes, t->m.latency, q, bw);
	fprintf(out, "  (a tick is the caller's unit: cycles for the textbook case, ns for a measured run)\n");
	fprintf(out, "  %-14s %12s %12s %11s %6s   %s\n", "feed", "makespan", "per request", "mean outst",
		"peak", "bound per request: max(L/K, L/Q, bytes/B)");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct qmodel_row *r = &t->rows[i];

		qmodel_row_name(what, sizeof(what), r);
		row_text(out, what, &r->r, &r->b);
	}
	if (t->versus)
		versus_text(out, t);
	if (t->has_dram)
		qmodel_dram_write_text(out, t);
}

static void bound_json(struct jsonw *w, const struct qmodel_bound *b)
{
	static const char *const keys[QMODEL_NTERMS] = {"latency", "concurrency", "bandwidth"};
	char names[64];

	jsonw_object_begin(w, "bound");
	for (int t = 0; t < QMODEL_NTERMS; t++)
		jsonw_double_or_null(w, keys[t], b->term[t] > 0, b->term[t]);
	jsonw_double_or_null(w, "per_request", b->bound > 0, b->bound);
	qmodel_bound_names(b, names, sizeof(names));
	jsonw_string(w, "binding", names);
	jsonw_object_end(w);
}

static const char *flag_why(const void *ctx, unsigned flag)
{
	(void)ctx;
	return qmodel_flag_unarmable(flag);
}

static const char *prop_why(const void *ctx, enum charz_prop p)
{
	(void)ctx;
	return qmodel_prop_unarmable(p);
}

/* What the memory saw, of the characteriser's counts (docs/MODEL.md). */
static const struct jsonw_field seen_fields[] = {
	JSONW_FIELD(UINT, "high_water", struct charz_summary, high_water),
	JSONW_FIELD(UINT, "requests", struct charz_summary, requests),
	JSONW_FIELD(UINT, "reads", struct charz_summary, reads),
	JSONW_FIELD(UINT, "writes", struct charz_summary, writes),
	JSONW_FIELD(UINT, "completions", struct charz_summary, completions),
	JSONW_FIELD(UINT, "stride_classified", struct charz_summary, stride_classified),
	JSONW_FIELD(UINT, "stride_regular", struct charz_summary, stride_regular),
};

static void seen_json(struct jsonw *w, const struct charz_summary *s)
{
	jsonw_object_begin(w, "seen");
	jsonw_double_or_null(w, "mean_outstanding", s->has_data, s->mean_outstanding);
	JSONW_FIELDS(w, s, seen_fields);
	jsonw_uint(w, "stride_irregular", irregular(s));
	jsonw_uint(w, "delivered_bytes", s->delivered_bytes);
	charz_write_checks_json(w, s, flag_why, prop_why, NULL);
	jsonw_object_end(w);
}

/* row: a table row, which carries "dram"; NULL for the comparison's two. */
static void result_json(struct jsonw *w, const char *key, uint64_t chains, const struct qmodel_result *r,
			const struct qmodel_bound *b, const struct qmodel_table *t, const struct qmodel_row *row)
{
	jsonw_object_begin(w, key);
	jsonw_string(w, "feed", chains ? "chains" : "stream");
	jsonw_uint_or_null(w, "chains", chains, chains);
	jsonw_double(w, "makespan_ticks", r->makespan);
	jsonw_double(w, "per_request_ticks", r->per_request);
	bound_json(w, b);
	seen_json(w, &r->seen);
	if (row)
		qmodel_dram_row_json(w, t, row);
	jsonw_object_end(w);
}

void qmodel_write_json(struct jsonw *w, const struct qmodel_table *t)
{
	jsonw_object_begin(w, "qmodel");
	jsonw_object_begin(w, "inputs");
	jsonw_double(w, "latency_ticks", t->m.latency);
	jsonw_double_or_null(w, "queue_cap", t->m.queue_cap > 0, t->m.queue_cap);
	jsonw_double_or_null(w, "bytes_per_tick", t->m.bytes_per_tick > 0, t->m.bytes_per_tick);
	jsonw_uint(w, "request_bytes", t->m.request_bytes);
	jsonw_uint(w, "requests", t->requests);
	jsonw_string(w, "tick", "the caller's unit: cycles for the textbook case, ns for a measured run");
	jsonw_object_end(w);
	jsonw_array_begin(w, "rows");
	for (size_t i = 0; i < t->nrows; i++)
		result_json(w, NULL, t->rows[i].chains, &t->rows[i].r, &t->rows[i].b, t, &t->rows[i]);
	jsonw_array_end(w);
	if (t->versus) {
		jsonw_object_begin(w, "chase_vs_stream");
		jsonw_uint(w, "reads", t->requests);
		jsonw_double_or_null(w, "slowdown", isfinite(t->cmp.slowdown), t->cmp.slowdown);
		result_json(w, "chase", 1, &t->cmp.chase, &t->cmp.chase_bound, t, NULL);
		result_json(w, "stream", 0, &t->cmp.stream, &t->cmp.stream_bound, t, NULL);
		jsonw_object_end(w);
	} else {
		jsonw_null(w, "chase_vs_stream");
	}
	qmodel_dram_write_json(w, t);
	jsonw_object_end(w);
}
