/*
 * The traffic efficiency with prefetch counted: the program's useful bytes
 * over every byte delivered, when a next-line prefetcher of degree 1, 2 or
 * 4 runs over the trace's touches (analyse/prefetch.h). Without prefetch
 * each distinct line is delivered once; with it, the lines fetched ahead
 * that demand never touched are delivered too and used by nobody, which the
 * program's own accounting cannot see. A model of the prefetcher, stated.
 */
#include "report/trace_out.h"

#include "util/jsonw.h"

#include <math.h>

static const char model_words[] =
	"a model: a tagged next-line prefetcher of degree D (a miss, or the first use of a prefetched line, "
	"fetches the next D lines not yet delivered), every line kept once delivered";

static double pct_of(double f)
{
	return 100 * f;
}

void trace_prefetch_write_text(FILE *out, const struct trace_result *r)
{
	double none = r->distinct_lines ? (double)r->bytes_touched / ((double)r->distinct_lines * TRACE_LINE_BYTES) : NAN;

	fprintf(out, "  prefetch over-fetch (%s):\n", model_words);
	fprintf(out, "    %-7s %12s %11s %9s %11s %9s %10s %17s\n", "degree", "demand lines", "prefetched", "used",
		"never used", "accuracy", "delivered", "useful/delivered");
	fprintf(out, "    %-7s %12llu %11s %9s %11s %9s %10llu %16.1f%%\n", "none", (unsigned long long)r->distinct_lines,
		"-", "-", "-", "-", (unsigned long long)r->distinct_lines, pct_of(none));
	for (int d = 0; d < PREFETCH_NDEGREES; d++) {
		const struct prefetch_figures *f = &r->prefetch[d];
		double acc = prefetch_accuracy(f);
		char accs[16];

		snprintf(accs, sizeof(accs), isfinite(acc) ? "%.1f%%" : "-", pct_of(acc));
		fprintf(out, "    %-7u %12llu %11llu %9llu %11llu %9s %10llu %16.1f%%\n", f->degree,
			(unsigned long long)f->demand_lines, (unsigned long long)f->prefetched,
			(unsigned long long)f->used, (unsigned long long)prefetch_unused(f), accs,
			(unsigned long long)prefetch_delivered_lines(f),
			pct_of(prefetch_efficiency(f, r->bytes_touched, TRACE_LINE_BYTES)));
	}
	fprintf(out, "    (useful: the %llu distinct bytes the program touched; delivered: lines x %d bytes; a line "
		"fetched ahead and never touched is traffic nobody used)\n", (unsigned long long)r->bytes_touched,
		TRACE_LINE_BYTES);
}

void trace_prefetch_write_json(struct jsonw *w, const struct trace_result *r)
{
	double none = r->distinct_lines ? (double)r->bytes_touched / ((double)r->distinct_lines * TRACE_LINE_BYTES) : NAN;

	jsonw_object_begin(w, "prefetch");
	jsonw_string(w, "model", model_words);
	jsonw_double_or_null(w, "useful_over_delivered_without", isfinite(none), none);
	jsonw_array_begin(w, "degrees");
	for (int d = 0; d < PREFETCH_NDEGREES; d++) {
		const struct prefetch_figures *f = &r->prefetch[d];
		double acc = prefetch_accuracy(f), eff = prefetch_efficiency(f, r->bytes_touched, TRACE_LINE_BYTES);

		jsonw_object_begin(w, NULL);
		jsonw_uint(w, "degree", f->degree);
		jsonw_uint(w, "demand_lines", f->demand_lines);
		jsonw_uint(w, "prefetched_lines", f->prefetched);
		jsonw_uint(w, "prefetch_used_lines", f->used);
		jsonw_uint(w, "prefetch_unused_lines", prefetch_unused(f));
		jsonw_double_or_null(w, "accuracy", isfinite(acc), acc);
		jsonw_uint(w, "delivered_bytes", prefetch_delivered_lines(f) * TRACE_LINE_BYTES);
		jsonw_double_or_null(w, "useful_over_delivered", isfinite(eff), eff);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
}
