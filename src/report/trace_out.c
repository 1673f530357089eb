/*
 * Writers for the trace command: the characterisation of one lackey trace
 * and, given a measured result, the time of its misses under each bound.
 * They print what trace_analyse found and nothing else; figures a trace
 * cannot give (no data accesses, too few requests for a stride) say so.
 */
#include "report/trace_out.h"

#include "report/charz_out.h"
#include "util/format.h"
#include "util/jsonw.h"

#include <math.h>
#include <string.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field charz_summary_fields[] = {
	JSONW_FIELD(UINT, "high_water", struct charz_summary, high_water),
	JSONW_FIELD(UINT, "outstanding_at_end", struct charz_summary, outstanding_at_end),
	JSONW_FIELD(UINT, "requests", struct charz_summary, requests),
	JSONW_FIELD(UINT, "reads", struct charz_summary, reads),
	JSONW_FIELD(UINT, "writes", struct charz_summary, writes),
	JSONW_FIELD(UINT, "completions", struct charz_summary, completions),
	JSONW_FIELD(UINT, "dropped", struct charz_summary, dropped),
	JSONW_FIELD(UINT, "unmatched", struct charz_summary, unmatched),
	JSONW_FIELD(UINT, "stride_classified", struct charz_summary, stride_classified),
	JSONW_FIELD(UINT, "stride_regular", struct charz_summary, stride_regular),
};

static const struct jsonw_field trace_count_fields[] = {
	JSONW_FIELD(UINT, "lines", struct trace_result, lines),
	JSONW_FIELD(UINT, "valgrind_lines", struct trace_result, valgrind_lines),
	JSONW_FIELD(UINT, "instructions", struct trace_result, instr),
	JSONW_FIELD(UINT, "loads", struct trace_result, loads),
	JSONW_FIELD(UINT, "stores", struct trace_result, stores),
	JSONW_FIELD(UINT, "modifies", struct trace_result, modifies),
	JSONW_FIELD(UINT, "malformed", struct trace_result, malformed),
};

static const struct jsonw_field trace_line_fields[] = {
	JSONW_FIELD(UINT, "line_touches", struct trace_result, touches),
	JSONW_FIELD(UINT, "distinct_lines", struct trace_result, distinct_lines),
	JSONW_FIELD(UINT, "bytes_touched", struct trace_result, bytes_touched),
	JSONW_FIELD(UINT, "cold_touches", struct trace_result, cold),
};

static const char timing_model[] =
	"a model, not a measurement: one tick per instruction record; one request per change of line, "
	"issued at its tick and outstanding L ticks; the program's dependences are ignored";

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
}

static const char *flag_why(const void *ctx, unsigned flag)
{
	return trace_flag_unarmable(ctx, flag);
}

static const char *prop_why(const void *ctx, enum charz_prop p)
{
	return trace_prop_unarmable(ctx, p);
}

/* Every figure, flag and property of the characteriser, under the timing
 * model. */
static void write_requests_text(FILE *out, const struct trace_result *r)
{
	const struct charz_summary *q = &r->requests;
	char cap[48];

	snprintf(cap, sizeof(cap), r->queue_cap ? "Q = %llu (--queue)" : "unlimited", (unsigned long long)r->queue_cap);
	fprintf(out, "  line requests (%s; L = %g ticks: %s; capacity %s):\n", timing_model, r->latency_ticks,
		r->latency_source, cap);
	fprintf(out, "    %llu requests (%llu reads, %llu writes), %llu completed, %llu dropped, %llu unmatched, "
		"%llu outstanding at the end\n", (unsigned long long)q->requests, (unsigned long long)q->reads,
		(unsigned long long)q->writes, (unsigned long long)q->completions, (unsigned long long)q->dropped,
		(unsigned long long)q->unmatched, (unsigned long long)q->outstanding_at_end);
	if (q->has_data)
		fprintf(out, "    mean outstanding %.2f over %.0f ticks (the concurrency this request rate needs at L, "
			"by Little's law; not what the program reached); high-water %llu\n", q->mean_outstanding,
			q->window, (unsigned long long)q->high_water);
	else
		fprintf(out, "    mean outstanding: no data (a window of zero ticks)\n");
	fprintf(out, "    delivered %llu bytes, used %llu", (unsigned long long)q->delivered_bytes,
		(unsigned long long)q->used_bytes);
	if (q->used_reported && q->delivered_bytes)
		fprintf(out, " (%.1f%%: the bytes each request's run of accesses touched)\n", 100 * q->used_fraction);
	else
		fprintf(out, " (never reported)\n");
	if (q->flags & CHARZ_FLAG_OVERFLOW)
		fprintf(out, "    at L this request rate needs more than Q = %llu outstanding: the model does not stall, "
			"so %llu requests were past the capacity (dropped) and their completions found nothing "
			"(unmatched); the mean above is what Q held, not what the rate needs\n", (unsigned long long)r->queue_cap,
			(unsigned long long)q->dropped);
	charz_write_checks_text(out, "    ", q, flag_why, prop_why, r);
}

void trace_write_text(FILE *out, const char *path, const struct trace_result *r)
{
	uint64_t data = r->loads + r->stores + r->modifies;
	char name[32];

	fprintf(out, "trace: %s\n", path);
	fprintf(out, "  records: %llu data (%llu loads, %llu stores, %llu modifies), %llu instruction fetches;"
		" %llu valgrind lines ignored\n", (unsigned long long)data, (unsigned long long)r->loads,
		(unsigned long long)r->stores, (unsigned long long)r->modifies, (unsigned long long)r->instr,
		(unsigned long long)r->valgrind_lines);
	if (r->malformed) {
		fprintf(out, "  malformed: %llu of %llu lines; first:\n", (unsigned long long)r->malformed,
			(unsigned long long)r->lines);
		for (uint64_t i = 0; i < r->malformed && i < TRACE_BAD_REPORTED; i++)
			fprintf(out, "    line %llu: \"%s\"\n", (unsigned long long)r->bad[i].line_no, r->bad[i].text);
	}
	if (r->ends_without_newline)
		fprintf(out, "  warning: the last line has no newline: the trace looks truncated\n");
	if (!data) {
		fprintf(out, "  no data accesses: no footprint, reuse or stride figures (no data, not zero)\n");
		return;
	}
	fprintf(out, "  read/write mix: %.1f%% loads, %.1f%% stores, %.1f%% modifies (a modify is a load and a store)\n",
		pct(r->loads, data), pct(r->stores, data), pct(r->modifies, data));
	fprintf(out, "  footprint: %llu distinct %d-byte lines = %llu bytes; %llu distinct bytes touched\n",
		(unsigned long long)r->distinct_lines, TRACE_LINE_BYTES,
		(unsigned long long)(r->distinct_lines * TRACE_LINE_BYTES), (unsigned long long)r->bytes_touched);
	fprintf(out, "  useful bytes per line delivered: %.1f of %d (%.1f%%), each distinct line counted once\n",
		(double)r->bytes_touched / (double)r->distinct_lines, TRACE_LINE_BYTES,
		pct(r->bytes_touched, r->distinct_lines * TRACE_LINE_BYTES));
	trace_prefetch_write_text(out, r);
	if (r->requests.stride_classified)
		fprintf(out, "  stride regularity: %.1f%% of %llu line requests repeat the previous line delta"
			" (%llu requests, the first two unclassified)\n", 100 * r->requests.stride_regular_fraction,
			(unsigned long long)r->requests.stride_classified, (unsigned long long)r->requests.requests);
	else
		fprintf(out, "  stride regularity: no data (fewer than three line requests)\n");
	write_requests_text(out, r);
	fprintf(out, "  reuse distance (distinct lines between two touches of a line), %llu line touches:\n",
		(unsigned long long)r->touches);
	fprintf(out, "    %-22s %12llu %6.1f%%\n", "cold (first touch)", (unsigned long long)r->cold, pct(r->cold, r->touches));
	for (unsigned b = 0; b < TRACE_HIST_BUCKETS; b++) {
		char range[48];

		if (!r->reuse_hist[b])
			continue;
		if (b <= 1)
			snprintf(range, sizeof(range), "%u", b);
		else
			snprintf(range, sizeof(range), "%llu-%llu", 1ull << (b - 1), b == 64 ? ~0ull : (1ull << b) - 1);
		fprintf(out, "    %-22s %12llu %6.1f%%\n", range, (unsigned long long)r->reuse_hist[b],
			pct(r->reuse_hist[b], r->touches));
	}
	fprintf(out, "  fully-associative LRU cache, %d-byte lines:\n", TRACE_LINE_BYTES);
	fprintf(out, "    %-10s %10s %9s %12s\n", "size", "lines", "hit rate", "misses");
	for (size_t i = 0; i < r->ncaches; i++) {
		report_format_bytes(name, sizeof(name), (size_t)r->cache_bytes[i]);
		fprintf(out, "    %-10s %10llu %8.1f%% %12llu\n", name,
			(unsigned long long)(r->cache_bytes[i] / TRACE_LINE_BYTES), pct(r->cache_hits[i], r->touches),
			(unsigned long long)(r->touches - r->cache_hits[i]));
	}
}

/* One cache size's misses priced under each independent term (ns per
 * miss; 0 unknown), the lower bound and its binding term(s). The program's
 * dependency structure is unknown, so L is shown as the all-dependent case
 * and the bound uses only terms that hold whatever concurrency it reaches:
 * each from its own section, never from the lanes sweep it would explain. */
struct trace_price {
	double misses;
	double dependent_ns, lq_ns, bw_core_ns, bw_memory_ns;
	double concurrency_ns;    /* M x L / C: a prediction, never part of the bound */
	double bound_ns;          /* NAN when no independent term is known */
	char binding[64];
};

/* C for M x L / C: the request model's mean outstanding, 0 without data
 * (seed 003's predicted_cycles: no concurrency is "no data", not an
 * infinite speedup). */
static double model_concurrency(const struct trace_result *r)
{
	return r->requests.has_data && r->requests.mean_outstanding > 0 ? r->requests.mean_outstanding : 0;
}

static void price(const struct env_inputs *in, const struct trace_result *r, double misses, struct trace_price *p)
{
	static const enum env_term terms[] = {ENV_LOAD_QUEUE, ENV_BW_CORE, ENV_BW_MEMORY};
	double per[3], best = 0;
	size_t used = 0;

	memset(p, 0, sizeof(*p));
	p->misses = misses;
	per[0] = in->load_queue.value > 0 ? in->t1.value / in->load_queue.value : 0;
	per[1] = in->read_core.value > 0 ? in->line_bytes / in->read_core.value : 0;
	per[2] = in->read_memory.value > 0 ? in->line_bytes / in->read_memory.value : 0;
	p->dependent_ns = misses * in->t1.value;
	p->concurrency_ns = model_concurrency(r) > 0 ? p->dependent_ns / model_concurrency(r) : 0;
	p->lq_ns = misses * per[0];
	p->bw_core_ns = misses * per[1];
	p->bw_memory_ns = misses * per[2];
	for (int i = 0; i < 3; i++)
		best = fmax(best, per[i]);
	p->bound_ns = best > 0 ? misses * best : NAN;
	for (int i = 0; i < 3 && best > 0; i++)
		if (per[i] > 0 && per[i] >= best * (1 - in->noise_floor_frac) && used < sizeof(p->binding))
			used += (size_t)snprintf(p->binding + used, sizeof(p->binding) - used, "%s%s", used ? "+" : "",
						 envelope_term_name(terms[i]));
	if (!used)
		snprintf(p->binding, sizeof(p->binding), "unknown");
}

static void cell(FILE *out, double ns)
{
	if (ns > 0)
		fprintf(out, " %16.0f", ns);
	else
		fprintf(out, " %16s", "-");
}

void trace_write_bounds(FILE *out, const char *json_path, const struct trace_result *r,
			const struct env_inputs *in)
{
	static const enum env_term terms[] = {ENV_LOAD_QUEUE, ENV_BW_CORE, ENV_BW_MEMORY};
	char name[32], src[2 * ENV_SOURCE_LEN];

	fprintf(out, "  time of the misses, from %s %s, each term from its own evidence:\n", json_path, in->section);
	fprintf(out, "    L = %s\n", in->t1.source);
	for (size_t t = 0; t < sizeof(terms) / sizeof(terms[0]); t++) {
		envelope_term_source(in, terms[t], src, sizeof(src));
		fprintf(out, "    %s: %s\n", envelope_term_name(terms[t]), src);
	}
	if (model_concurrency(r) > 0)
		fprintf(out, "    C = %.2f, the request model's mean outstanding: M*L/C is the time at the concurrency this "
			"trace's request rate needs, a prediction beside the bound, never part of it\n", model_concurrency(r));
	else
		fprintf(out, "    C: no data (the request model's window is empty): M*L/C unknown\n");
	fprintf(out, "    %-10s %12s %16s %16s %16s %16s %16s %16s  %s\n", "size", "misses", "all_dependent_ns",
		"M*L/C_ns", "M*L/Q_lq_ns", "M*line/B1_ns", "M*line/Bmax_ns", "lower_bound_ns", "binding");
	for (size_t i = 0; i < r->ncaches; i++) {
		struct trace_price p;

		price(in, r, (double)(r->touches - r->cache_hits[i]), &p);
		report_format_bytes(name, sizeof(name), (size_t)r->cache_bytes[i]);
		fprintf(out, "    %-10s %12.0f", name, p.misses);
		cell(out, p.dependent_ns);
		cell(out, p.concurrency_ns);
		cell(out, p.lq_ns);
		cell(out, p.bw_core_ns);
		cell(out, p.bw_memory_ns);
		cell(out, isnan(p.bound_ns) ? 0 : p.bound_ns);
		fprintf(out, "  %s\n", p.binding);
	}
}

static void json_num_or_null(struct jsonw *w, const char *key, double v)
{
	if (isfinite(v) && v > 0)
		jsonw_double(w, key, v);
	else
		jsonw_null(w, key);
}

static void write_requests_json(struct jsonw *w, const struct trace_result *r)
{
	const struct charz_summary *q = &r->requests;

	jsonw_object_begin(w, "timing_model");
	jsonw_string(w, "what", timing_model);
	jsonw_double(w, "latency_ticks", r->latency_ticks);
	jsonw_string(w, "latency_source", r->latency_source);
	jsonw_string(w, "tick", "one instruction record");
	jsonw_uint(w, "ticks", r->ticks);
	jsonw_uint_or_null(w, "queue_cap", r->queue_cap, r->queue_cap);
	jsonw_object_end(w);
	jsonw_object_begin(w, "requests");
	jsonw_bool(w, "has_data", q->has_data);
	jsonw_double(w, "window_ticks", q->window);
	jsonw_double_or_null(w, "mean_outstanding", q->has_data, q->mean_outstanding);
	JSONW_FIELDS(w, q, charz_summary_fields);
	jsonw_double_or_null(w, "stride_regular_fraction", q->stride_classified, q->stride_regular_fraction);
	jsonw_uint(w, "delivered_bytes", q->delivered_bytes);
	jsonw_bool(w, "used_reported", q->used_reported);
	if (q->used_reported) {
		jsonw_uint(w, "used_bytes", q->used_bytes);
		jsonw_double_or_null(w, "used_fraction", isfinite(q->used_fraction), q->used_fraction);
	} else {
		jsonw_null(w, "used_bytes");
		jsonw_null(w, "used_fraction");
	}
	charz_write_checks_json(w, q, flag_why, prop_why, r);
	jsonw_object_end(w);
}

void trace_write_json(struct jsonw *w, const char *path, const struct trace_result *r, const char *json_path,
		      const struct env_inputs *in)
{
	jsonw_object_begin(w, "trace");
	jsonw_string(w, "path", path);
	JSONW_FIELDS(w, r, trace_count_fields);
	jsonw_array_begin(w, "malformed_first");
	for (uint64_t i = 0; i < r->malformed && i < TRACE_BAD_REPORTED; i++) {
		jsonw_object_begin(w, NULL);
		jsonw_uint(w, "line", r->bad[i].line_no);
		jsonw_string(w, "text", r->bad[i].text);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_bool(w, "ends_without_newline", r->ends_without_newline);
	jsonw_uint(w, "line_bytes", TRACE_LINE_BYTES);
	JSONW_FIELDS(w, r, trace_line_fields);
	jsonw_array_begin(w, "reuse_distance_hist");
	for (unsigned b = 0; b < TRACE_HIST_BUCKETS; b++) {
		if (!r->reuse_hist[b])
			continue;
		jsonw_object_begin(w, NULL);
		jsonw_uint(w, "from_lines", b <= 1 ? b : 1ull << (b - 1));
		jsonw_uint(w, "touches", r->reuse_hist[b]);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	write_requests_json(w, r);
	trace_prefetch_write_json(w, r);
	jsonw_array_begin(w, "caches");
	for (size_t i = 0; i < r->ncaches; i++) {
		struct trace_price p;

		jsonw_object_begin(w, NULL);
		jsonw_uint(w, "size_bytes", r->cache_bytes[i]);
		jsonw_uint(w, "hits", r->cache_hits[i]);
		jsonw_uint(w, "misses", r->touches - r->cache_hits[i]);
		if (in) {
			price(in, r, (double)(r->touches - r->cache_hits[i]), &p);
			json_num_or_null(w, "all_dependent_ns", p.dependent_ns);
			json_num_or_null(w, "concurrency_ns", p.concurrency_ns);
			json_num_or_null(w, "load_queue_ns", p.lq_ns);
			json_num_or_null(w, "bandwidth_core_ns", p.bw_core_ns);
			json_num_or_null(w, "bandwidth_memory_ns", p.bw_memory_ns);
			json_num_or_null(w, "lower_bound_ns", p.bound_ns);
			jsonw_string(w, "binding", p.binding);
		}
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	if (in) {
		jsonw_object_begin(w, "bounds_from");
		jsonw_string(w, "path", json_path);
		jsonw_string(w, "section", in->section);
		jsonw_string(w, "latency_source", in->t1.source);
		jsonw_double_or_null(w, "concurrency", model_concurrency(r) > 0, model_concurrency(r));
		jsonw_object_end(w);
	}
	jsonw_object_end(w);
}
