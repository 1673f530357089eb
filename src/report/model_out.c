/*
 * Writer for the model command: one mlp section's inputs (L, Q, B and where
 * each came from) and, per lane count, the measured time beside the bound
 * and the term that binds. It prints; the numbers come from model_cmd.c.
 */
#include "report/model_out.h"

#include <math.h>

void model_write_text(FILE *out, const struct model_inputs *in)
{
	fprintf(out, "%s\n", in->section);
	fprintf(out, "  L = %.2f ns (%s)\n", in->latency_ns, in->latency_source);
	if (in->concurrency > 0)
		fprintf(out, "  Q = %.2f (%s)\n", in->concurrency, in->concurrency_source);
	else
		fprintf(out, "  Q = unknown: no L/Q term\n");
	if (in->bytes_per_ns > 0)
		fprintf(out, "  B = %.3f bytes/ns = GB/s (highest line_gbps, at K = %.0f; %.0f B lines per access is an "
			"assumption)\n", in->bytes_per_ns, in->bandwidth_at_lanes, in->line_bytes);
	else
		fprintf(out, "  B = unknown: no bytes/B term\n");
	fprintf(out, "  bound t(K) >= max(L/K, L/Q, %.0f B/B); terms within the noise floor (%.1f%%) of the largest "
		"are named together.\n", in->line_bytes, 100 * in->noise_floor_frac);
	fprintf(out, "  B comes from this same sweep, so the bandwidth term is the best time seen: a bandwidth limit\n"
		"  and a concurrency limit tie there and this run alone cannot tell them apart.\n");
	fprintf(out, "  %5s %12s %12s %10s  %s\n", "K", "measured_ns", "bound_ns", "meas/bound", "binding");
	for (size_t i = 0; i < in->npoints; i++) {
		char names[64];
		double bound = model_bound_at(in, i, names, sizeof(names));

		fprintf(out, "  %5.0f %12.3f %12.3f %10.3f  %s\n", in->lanes[i], in->ns_per_access[i], bound,
			bound > 0 ? in->ns_per_access[i] / bound : NAN, names);
	}
}

