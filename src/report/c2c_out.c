/*
 * The c2c section's text, JSON and heat map. Rows are the CPU that owns
 * the line (first touched it), columns its partner; a cell is half a round
 * trip in ns. The heat map colours the median matrix on one linear scale
 * from the fastest pair to the slowest, with the value written in each
 * cell while cells are large enough to read, so a cluster of near CPUs
 * (an SMT pair, a CCX, a socket) shows as a block.
 */
#include "report/c2c_out.h"

#include "util/jsonr.h"
#include "util/atomic.h"
#include "util/jsonw.h"
#include "report/svg.h"

#include <errno.h>
#include <math.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field c2c_result_fields[] = {
	JSONW_FIELD(DOUBLE, "min_ns", struct c2c_result, min_ns_all),
	JSONW_FIELD(DOUBLE, "median_ns", struct c2c_result, median_ns_all),
	JSONW_FIELD(UINT, "pairs", struct c2c_result, pairs),
	JSONW_FIELD(UINT, "pairs_timed_out", struct c2c_result, pairs_timed_out),
	JSONW_FIELD(DOUBLE, "pair_budget_ms", struct c2c_result, pair_budget_ms),
	JSONW_FIELD(UINT, "round_trips_per_sample", struct c2c_result, round_trips),
};

static void text_matrix(FILE *f, const struct c2c_result *r, const double *m, const char *what)
{
	fprintf(f, "  %s (ns): row = the line's owner, column = its partner\n  %8s", what, "");
	for (unsigned b = 0; b < r->ncpus; b++)
		fprintf(f, " %7s%d", "cpu", r->cpu[b]);
	fputc('\n', f);
	for (unsigned a = 0; a < r->ncpus; a++) {
		fprintf(f, "  cpu%-5d", r->cpu[a]);
		for (unsigned b = 0; b < r->ncpus; b++) {
			double v = m[(size_t)a * r->ncpus + b];

			if (isfinite(v))
				fprintf(f, " %*.1f", 7 + (r->cpu[b] >= 10) + (r->cpu[b] >= 100), v);
			else
				fprintf(f, " %*s", 7 + (r->cpu[b] >= 10) + (r->cpu[b] >= 100), "-");
		}
		fputc('\n', f);
	}
}

void c2c_write_text(const void *result, FILE *f)
{
	const struct c2c_result *r = result;

	fprintf(f, "\nc2c: core-to-core cache-line latency (one way: round trip / 2, ns)\n");
	fprintf(f, "  placement      %s\n", C2C_PLACEMENT);
	fprintf(f, "  planned        %zu ordered pairs x at most %.1f ms (%u round trips per sample, up to %d samples): "
		"at most %.2f s; took %.2f s\n", r->pairs, r->pair_budget_ms, r->round_trips, C2C_MAX_SAMPLES,
		r->estimated_s, r->seconds);
	fprintf(f, "  overall        min %.1f ns, median of the pairs' medians %.1f ns\n", r->min_ns_all, r->median_ns_all);
	if (r->pairs_timed_out)
		fprintf(f, "  timed out      %zu pair(s): a partner stopped answering (descheduled?); shown as -\n",
			r->pairs_timed_out);
	if (r->ncpus > C2C_TEXT_MATRIX_MAX) {
		fprintf(f, "  matrices       %u x %u: in --json (c2c.matrix_median_ns) and the --html heat map\n",
			r->ncpus, r->ncpus);
		return;
	}
	text_matrix(f, r, r->median_ns, "median");
	text_matrix(f, r, r->min_ns, "min");
}

static void json_matrix(struct jsonw *w, const char *key, const struct c2c_result *r, const double *m)
{
	jsonw_array_begin(w, key);
	for (unsigned a = 0; a < r->ncpus; a++)
		jsonw_double_array(w, NULL, m + (size_t)a * r->ncpus, r->ncpus);
	jsonw_array_end(w);
}

void c2c_write_json(const void *result, struct jsonw *w, const char *key)
{
	const struct c2c_result *r = result;

	jsonw_object_begin(w, key);
	jsonw_string(w, "quantity", "one-way cache-line transfer between two cores: half a round trip, ns");
	jsonw_string(w, "placement", C2C_PLACEMENT);
	jsonw_array_begin(w, "cpus");
	for (unsigned i = 0; i < r->ncpus; i++)
		jsonw_int(w, NULL, r->cpu[i]);
	jsonw_array_end(w);
	json_matrix(w, "matrix_median_ns", r, r->median_ns);
	json_matrix(w, "matrix_min_ns", r, r->min_ns);
	jsonw_array_begin(w, "matrix_samples");
	for (unsigned a = 0; a < r->ncpus; a++) {
		jsonw_array_begin(w, NULL);
		for (unsigned b = 0; b < r->ncpus; b++)
			jsonw_uint(w, NULL, r->samples[(size_t)a * r->ncpus + b]);
		jsonw_array_end(w);
	}
	jsonw_array_end(w);
	JSONW_FIELDS(w, r, c2c_result_fields);
	jsonw_int(w, "samples_max", C2C_MAX_SAMPLES);
	jsonw_double(w, "estimated_seconds", r->estimated_s);
	jsonw_double(w, "seconds", r->seconds);
	jsonw_object_end(w);
}

/* White (fastest) to deep blue (slowest): readable in grey print too. */
static void cell_colour(char *out, size_t len, double t)
{
	int r = (int)lround(255 - t * (255 - 8)), g = (int)lround(255 - t * (255 - 69)), b = (int)lround(255 - t * (255 - 148));

	snprintf(out, len, "#%02x%02x%02x", r, g, b);
}

static int cpu_at(const struct jsonr_value *cpus, size_t i)
{
	const struct jsonr_value *v = jsonr_index(cpus, i);

	/* A hostile file's 1e300 must not reach an int conversion (undefined). */
	return v && v->type == JSONR_NUMBER && v->u.number >= 0 && v->u.number < 1e6 ? (int)v->u.number : -1;
}

int c2c_write_heatmap(FILE *f, const struct jsonr_value *doc, const char *id, bool standalone)
{
	const struct jsonr_value *c = jsonr_get(doc, "c2c"), *cpus, *m, *row, *cell;
	double lo = INFINITY, hi = -INFINITY;
	size_t n, i, j;
	int cellpx, left = 70, top = 60, size, width;

	if (!c || !(cpus = jsonr_get(c, "cpus")) || cpus->type != JSONR_ARRAY || !(m = jsonr_get(c, "matrix_median_ns")) ||
	    m->type != JSONR_ARRAY || !(n = cpus->u.children.count) || m->u.children.count != n)
		return -ENOENT;
	for (row = m->u.children.first; row; row = row->next)
		for (cell = row->type == JSONR_ARRAY ? row->u.children.first : NULL; cell; cell = cell->next)
			if (cell->type == JSONR_NUMBER && isfinite(cell->u.number)) {
				lo = fmin(lo, cell->u.number);
				hi = fmax(hi, cell->u.number);
			}
	cellpx = n <= 8 ? 64 : n <= 32 ? 20 : n <= 64 ? 10 : 3;
	size = cellpx * (int)n;
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	/* Wide enough for the title even at 2 CPUs. */
	width = left + size + 160 > 460 ? left + size + 160 : 460;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", id, width, top + size + 20, width, top + size + 20);
	fputs("<text x=\"8\" y=\"18\" font-size=\"14\">core-to-core latency, median of half round trips (ns)</text>\n", f);
	fputs("<text x=\"8\" y=\"36\" fill=\"#444\">row: the CPU that owns the line; column: its partner</text>\n", f);
	for (i = 0, row = m->u.children.first; row; row = row->next, i++) {
		/* Every label while cells are large enough, else every 16th. */
		if (cellpx >= 10 || i % 16 == 0) {
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">cpu%d</text>\n", left - 4,
				top + (int)i * cellpx + cellpx / 2 + 4, cpu_at(cpus, i));
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
				left + (int)i * cellpx + cellpx / 2, top - 4, cpu_at(cpus, i));
		}
		for (j = 0, cell = row->type == JSONR_ARRAY ? row->u.children.first : NULL; cell; cell = cell->next, j++) {
			bool ok = cell->type == JSONR_NUMBER && isfinite(cell->u.number);
			char col[16] = "#dddddd";

			if (ok)
				cell_colour(col, sizeof(col), hi > lo ? (cell->u.number - lo) / (hi - lo) : 0.5);
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>cpu%d -&gt; cpu%d: ",
				left + (int)j * cellpx, top + (int)i * cellpx, cellpx, cellpx, col, cpu_at(cpus, i), cpu_at(cpus, j));
			if (ok)
				fprintf(f, "%.1f ns", cell->u.number);
			else
				fputs("not measured", f);
			fputs("</title></rect>\n", f);
			if (ok && cellpx >= 40)
				fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\">%.1f</text>\n",
					left + (int)j * cellpx + cellpx / 2, top + (int)i * cellpx + cellpx / 2 + 4,
					hi > lo && (cell->u.number - lo) / (hi - lo) > 0.5 ? "#fff" : "#000", cell->u.number);
		}
	}
	if (isfinite(lo))
		fprintf(f, "<text x=\"%d\" y=\"%d\">fastest %.1f ns (white)</text>\n<text x=\"%d\" y=\"%d\">slowest %.1f ns (blue)</text>\n",
			left + size + 10, top + 12, lo, left + size + 10, top + 28, hi);
	fputs("</svg>\n", f);
	return atomic_stream_error(f);
}
