/*
 * Writers for the trace command: the characterisation of one lackey trace
 * and, given a measured result, the time of its misses under each bound.
 * They print what trace_analyse found and nothing else; figures a trace
 * cannot give (no data accesses, too few requests for a stride) say so.
 */
#include "report/trace_out.h"

#include "qmodel.h"
#include "report/format.h"

#include <math.h>

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
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
	if (r->requests.stride_classified)
		fprintf(out, "  stride regularity: %.1f%% of %llu line requests repeat the previous line delta"
			" (%llu requests, the first two unclassified)\n", 100 * r->requests.stride_regular_fraction,
			(unsigned long long)r->requests.stride_classified, (unsigned long long)r->requests.requests);
	else
		fprintf(out, "  stride regularity: no data (fewer than three line requests)\n");
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

/* The misses of each cache size priced under the measured bounds. The
 * program's own dependency structure is unknown, so L/K is shown as the
 * all-dependent case (K = 1) and the lower bound uses only L/Q and bytes/B,
 * which hold whatever K the program reaches. */
void trace_write_bounds(FILE *out, const char *json_path, const struct trace_result *r,
			const struct model_inputs *in)
{
	struct qmodel_memory m = {
		.latency = in->latency_ns,
		.queue_cap = in->concurrency,
		.bytes_per_tick = in->bytes_per_ns,
		.request_bytes = TRACE_LINE_BYTES,
	};
	struct qmodel_bound b;
	char name[32], names[64];

	qmodel_bound_at(&m, 0, in->noise_floor_frac, &b);
	qmodel_bound_names(&b, names, sizeof(names));
	fprintf(out, "  time of the misses, from %s %s: L = %.2f ns, Q = %.2f, B = %.3f bytes/ns\n", json_path,
		in->section, in->latency_ns, in->concurrency, in->bytes_per_ns);
	fprintf(out, "    %-10s %12s %16s %14s %14s %14s  %s\n", "size", "misses", "all dependent_ns", "M*L/Q_ns",
		"M*64/B_ns", "lower_bound_ns", "binding");
	for (size_t i = 0; i < r->ncaches; i++) {
		double miss = (double)(r->touches - r->cache_hits[i]);

		report_format_bytes(name, sizeof(name), (size_t)r->cache_bytes[i]);
		fprintf(out, "    %-10s %12.0f %16.0f %14.0f %14.0f %14.0f  %s\n", name, miss, miss * in->latency_ns,
			miss * b.term[QMODEL_TERM_CONCURRENCY], miss * b.term[QMODEL_TERM_BANDWIDTH], miss * b.bound,
			names);
	}
}

