/*
 * `app bzip2` in text and JSON. The variant table puts the measured whole
 * speedup over K=1 beside the one Amdahl's law predicts from the walk's
 * fraction f of K=1's time and the walk's own speedup s, because the
 * question is how much of what the lanes buy the walk reaches the whole
 * decoder. MB are 10^6 bytes of decoded output.
 */
#include "report/app_bzip2_out.h"

#include <math.h>
#include <string.h>

#include "report/app_bzip2_checks_out.h"
#include "report/app_bzip2_instructions_out.h"
#include "report/app_bzip2_processes_out.h"
#include "report/app_chase_out.h"

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field app_bzip2_stages_fields[] = {
	JSONW_FIELD(DOUBLE, "decode", struct app_bzip2_stages, decode),
	JSONW_FIELD(DOUBLE, "table", struct app_bzip2_stages, table),
	JSONW_FIELD(DOUBLE, "starts", struct app_bzip2_stages, starts),
	JSONW_FIELD(DOUBLE, "traversal", struct app_bzip2_stages, traversal),
	JSONW_FIELD(DOUBLE, "assembly", struct app_bzip2_stages, assembly),
	JSONW_FIELD(DOUBLE, "rle", struct app_bzip2_stages, rle),
	JSONW_FIELD(DOUBLE, "crc", struct app_bzip2_stages, crc),
};

static const struct jsonw_field app_bzip2_result_fields[] = {
	JSONW_FIELD(BOOL, "generated", struct app_bzip2_result, generated),
	JSONW_FIELD(UINT, "compressed_bytes", struct app_bzip2_result, compressed_bytes),
	JSONW_FIELD(UINT, "decoded_bytes", struct app_bzip2_result, decoded_bytes),
	JSONW_FIELD(UINT, "blocks", struct app_bzip2_result, blocks),
	JSONW_FIELD(UINT, "streams", struct app_bzip2_result, streams),
	JSONW_FIELD(TEXT, "libbz2_version", struct app_bzip2_result, libbz2_version),
	JSONW_FIELD(TEXT, "output_sha256", struct app_bzip2_result, hash),
};

static const struct jsonw_field app_bzip2_fit_fields[] = {
	JSONW_FIELD(DOUBLE, "budget_seconds", struct app_bzip2_result, budget_seconds),
	JSONW_FIELD(DOUBLE, "estimated_seconds", struct app_bzip2_result, estimated_seconds),
	JSONW_FIELD(TEXT, "shrunk", struct app_bzip2_result, shrunk),
	JSONW_FIELD(UINT, "prefix_blocks", struct app_bzip2_result, prefix_blocks),
	JSONW_FIELD(BOOL, "tools_skipped", struct app_bzip2_result, tools_skipped),
	JSONW_FIELD(UINT, "file_compressed_bytes", struct app_bzip2_result, file_compressed_bytes),
	JSONW_FIELD(UINT, "rows", struct app_bzip2_result, rows),
};

static const struct jsonw_field app_bzip2_variant_fields[] = {
	JSONW_FIELD(DOUBLE, "walk_seconds", struct app_bzip2_variant, walk_seconds),
	JSONW_FIELD(DOUBLE, "walk_fraction", struct app_bzip2_variant, walk_fraction),
	JSONW_FIELD(DOUBLE, "walk_speedup", struct app_bzip2_variant, walk_speedup),
	JSONW_FIELD(DOUBLE, "predicted_speedup", struct app_bzip2_variant, predicted_speedup),
	JSONW_FIELD(DOUBLE, "measured_speedup", struct app_bzip2_variant, measured_speedup),
	JSONW_FIELD(UINT, "single_lane_fallbacks", struct app_bzip2_variant, fallbacks),
	JSONW_FIELD(DOUBLE, "chase_speedup", struct app_bzip2_variant, chase_speedup),
	JSONW_FIELD(DOUBLE, "walk_ratio", struct app_bzip2_variant, walk_ratio),
	JSONW_FIELD(UINT, "plain_paths", struct app_bzip2_variant, plain),
	JSONW_FIELD(DOUBLE, "ns_per_row", struct app_bzip2_variant, ns_per_row),
	JSONW_FIELD(DOUBLE, "ns_per_byte", struct app_bzip2_variant, ns_per_byte),
	JSONW_FIELD(UINT, "table_arena_bytes", struct app_bzip2_variant, table_arena_bytes),
	JSONW_FIELD(UINT, "table_huge_bytes_obtained", struct app_bzip2_variant, table_huge_bytes),
};

static const struct jsonw_field app_bzip2_translation_fields[] = {
	JSONW_FIELD(UINT, "small_variant", struct app_bzip2_translation, small_variant),
	JSONW_FIELD(UINT, "huge_variant", struct app_bzip2_translation, huge_variant),
	JSONW_FIELD(DOUBLE, "whole_speedup", struct app_bzip2_translation, whole_speedup),
	JSONW_FIELD(DOUBLE, "table_speedup", struct app_bzip2_translation, table_speedup),
	JSONW_FIELD(DOUBLE, "walk_speedup", struct app_bzip2_translation, walk_speedup),
	JSONW_FIELD(DOUBLE, "paired_speedup", struct app_bzip2_translation, paired_speedup),
	JSONW_FIELD(DOUBLE, "minima_speedup", struct app_bzip2_translation, minima_speedup),
	JSONW_FIELD(UINT, "paired_arena_bytes", struct app_bzip2_translation, paired_arena_bytes),
};

static const struct jsonw_field app_bzip2_axis_fields[] = {
	JSONW_FIELD(STRING, "axis", struct app_bzip2_axis, name),
	JSONW_FIELD(STRING, "fast_path", struct app_bzip2_axis, fast_path),
	JSONW_FIELD(STRING, "stage", struct app_bzip2_axis, stage),
	JSONW_FIELD(UINT, "plain_variant", struct app_bzip2_axis, plain_variant),
	JSONW_FIELD(UINT, "fast_variant", struct app_bzip2_axis, fast_variant),
	JSONW_FIELD(DOUBLE, "stage_plain_seconds", struct app_bzip2_axis, stage_plain_seconds),
	JSONW_FIELD(DOUBLE, "stage_fast_seconds", struct app_bzip2_axis, stage_fast_seconds),
	JSONW_FIELD(DOUBLE, "stage_fraction", struct app_bzip2_axis, stage_fraction),
	JSONW_FIELD(DOUBLE, "stage_speedup", struct app_bzip2_axis, stage_speedup),
	JSONW_FIELD(DOUBLE, "predicted_speedup", struct app_bzip2_axis, predicted_speedup),
	JSONW_FIELD(DOUBLE, "measured_speedup", struct app_bzip2_axis, measured_speedup),
};

static const struct jsonw_field app_bzip2_overlap_fields[] = {
	JSONW_FIELD(STRING, "axis", struct app_bzip2_overlap_axis, name),
	JSONW_FIELD(STRING, "how", struct app_bzip2_overlap_axis, how),
	JSONW_FIELD(UINT, "threads", struct app_bzip2_overlap_axis, threads),
	JSONW_FIELD(UINT, "base_variant", struct app_bzip2_overlap_axis, base_variant),
	JSONW_FIELD(UINT, "variant", struct app_bzip2_overlap_axis, variant),
	JSONW_FIELD(DOUBLE, "base_seconds", struct app_bzip2_overlap_axis, base_seconds),
	JSONW_FIELD(DOUBLE, "seconds", struct app_bzip2_overlap_axis, seconds),
	JSONW_FIELD(DOUBLE, "hideable_fraction", struct app_bzip2_overlap_axis, fraction),
	JSONW_FIELD(DOUBLE, "bound_speedup", struct app_bzip2_overlap_axis, bound_speedup),
	JSONW_FIELD(DOUBLE, "measured_speedup", struct app_bzip2_overlap_axis, measured_speedup),
};

static const struct jsonw_field app_bzip2_workers_fields[] = {
	JSONW_FIELD(UINT, "workers", struct app_bzip2_workers, n),
	JSONW_FIELD(DOUBLE, "wall_seconds", struct app_bzip2_workers, wall_seconds),
	JSONW_FIELD(DOUBLE, "mb_per_s", struct app_bzip2_workers, mb_per_s),
	JSONW_FIELD(DOUBLE, "speedup", struct app_bzip2_workers, speedup),
	JSONW_FIELD(BOOL, "retimed", struct app_bzip2_workers, retimed),
	JSONW_FIELD(BOOL, "speedup_above_workers", struct app_bzip2_workers, above_workers),
	JSONW_FIELD(DOUBLE, "cpu_seconds_per_gb", struct app_bzip2_workers, cpu_seconds_per_gb),
	JSONW_FIELD(DOUBLE, "block_mb_per_s_min", struct app_bzip2_workers, block_mb_per_s_min),
	JSONW_FIELD(DOUBLE, "block_mb_per_s_median", struct app_bzip2_workers, block_mb_per_s_median),
	JSONW_FIELD(DOUBLE, "block_mb_per_s_max", struct app_bzip2_workers, block_mb_per_s_max),
	JSONW_FIELD(INT, "peak_rss_kib", struct app_bzip2_workers, peak_rss_kib),
	JSONW_FIELD(UINT, "decoder_bytes", struct app_bzip2_workers, decoder_bytes),
	JSONW_FIELD(DOUBLE, "scan_seconds", struct app_bzip2_workers, scan_seconds),
	JSONW_FIELD(DOUBLE, "blocks_seconds", struct app_bzip2_workers, blocks_seconds),
	JSONW_FIELD(DOUBLE, "imbalance_seconds", struct app_bzip2_workers, imbalance_seconds),
	JSONW_FIELD(DOUBLE, "block_slowdown", struct app_bzip2_workers, block_slowdown),
	JSONW_FIELD(STRING, "shortfall_cause", struct app_bzip2_workers, shortfall_cause),
};

static const struct jsonw_field app_bzip2_tool_fields[] = {
	JSONW_FIELD(TEXT, "name", struct app_bzip2_tool, name),
	JSONW_FIELD(TEXT, "version", struct app_bzip2_tool, version),
	JSONW_FIELD(TEXT, "command", struct app_bzip2_tool, command),
	JSONW_FIELD(DOUBLE, "seconds", struct app_bzip2_tool, seconds),
	JSONW_FIELD(DOUBLE, "mb_per_s", struct app_bzip2_tool, mb_per_s),
	JSONW_FIELD(DOUBLE, "ours_vs_tool", struct app_bzip2_tool, ratio),
};

static const char *layout_name(enum bz2_layout l)
{
	return l == BZ2_LAYOUT_REGISTERS ? "registers" : "state";
}

static const char *prefetch_name(enum bz2_prefetch p)
{
	return p == BZ2_PREFETCH_NEXT ? "next" : p == BZ2_PREFETCH_TWO ? "two" : "off";
}

/* The decode-stage paths of a variant: all fast, all plain, the one axis
 * fast over all plain, or all fast in the lane form. */
static const char *paths_name(unsigned plain)
{
	switch (plain) {
	case 0: return "fast";
	case BZ2_PLAIN_ALL: return "plain";
	case BZ2_PLAIN_ALL & ~BZ2_PLAIN_HUFFMAN: return "+huffman";
	case BZ2_PLAIN_ALL & ~BZ2_PLAIN_MTF: return "+mtf";
	case BZ2_PLAIN_ALL & ~BZ2_PLAIN_CRC: return "+crc";
	case BZ2_PLAIN_ALL & ~BZ2_PLAIN_RLE: return "+rle";
	case BZ2_DECODE_LANE: return "lane";
	default: return "mixed";
	}
}

static const char *overlap_name(enum bz2_overlap o)
{
	return o == BZ2_OVERLAP_INTERLEAVE ? "interleave" : o == BZ2_OVERLAP_SCOUT ? "scout" : "off";
}

static void write_overlaps_text(const struct app_bzip2_result *r, FILE *f)
{
	if (!r->noverlaps)
		return;
	fprintf(f, "  overlap axes: block b+1's decode beside block b's walk, against the same walk in turn;\n"
		   "  f: the part a perfect overlap hides (interleave: the smaller of walk and decode; scout: the smaller\n"
		   "  of decode+table and walk+rle+crc), bound 1/(1-f):\n");
	fprintf(f, "  %-10s %7s %-4s %9s %9s %6s %7s %9s\n", "axis", "threads", "K", "base s", "s", "f", "bound",
		"measured");
	for (unsigned i = 0; i < r->noverlaps; i++) {
		const struct app_bzip2_overlap_axis *x = &r->overlaps[i];

		fprintf(f, "  %-10s %7u %-4u %9.4f %9.4f %6.2f %7.3f %9.3f  (%s)\n", x->name, x->threads,
			r->variants[x->variant].k, x->base_seconds, x->seconds, x->fraction, x->bound_speedup,
			x->measured_speedup, x->how);
	}
}

static void write_axes_text(const struct app_bzip2_result *r, FILE *f)
{
	const struct app_bzip2_variant *at;

	if (!r->naxes)
		return;
	at = &r->variants[r->axes[0].plain_variant];
	fprintf(f, "  decode-stage axes at K=%u %s prefetch %s: every path plain (%.4f s), then each alone fast;\n"
		   "  f: the stage's share of the all-plain whole, s: the stage's own speedup, predicted 1/((1-f)+f/s):\n",
		at->k, layout_name(at->layout), prefetch_name(at->prefetch), at->warm_seconds);
	fprintf(f, "  %-8s %-29s %-7s %9s %9s %6s %6s %9s %9s\n", "axis", "fast path", "stage", "plain s", "fast s", "f",
		"s", "predicted", "measured");
	for (unsigned i = 0; i < r->naxes; i++) {
		const struct app_bzip2_axis *x = &r->axes[i];

		fprintf(f, "  %-8s %-29s %-7s %9.4f %9.4f %6.2f %6.2f %9.3f %9.3f\n", x->name, x->fast_path, x->stage,
			x->stage_plain_seconds, x->stage_fast_seconds, x->stage_fraction, x->stage_speedup,
			x->predicted_speedup, x->measured_speedup);
		if (!strcmp(x->name, "lane"))
			fprintf(f, "  lane: over every path fast in two passes (%.4f s), not all plain: the next group's Huffman "
				   "lookups taken between\n  this group's MTF steps, two dependency chains on one core "
				   "(s > 1 only where the passes wait on their chains)\n",
				r->variants[x->plain_variant].warm_seconds);
	}
}

/* The T-vector's pages as requested and obtained: "huge 100%". */
static const char *pages_text(const struct app_bzip2_variant *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s %.0f%%", arena_request_name(v->pages),
		 v->table_arena_bytes ? 100.0 * (double)v->table_huge_bytes / (double)v->table_arena_bytes : 0.0);
	return buf;
}

/* The translation axis: the same walk with the T-vector on small pages and
 * on huge, what huge pages bought the whole, the table stage (its writes
 * scatter over the T-vector) and the walk. */
static void write_translation_text(const struct app_bzip2_result *r, FILE *f)
{
	if (!r->ntranslations)
		return;
	fprintf(f, "  translation axis (the T-vector's arena, small pages against huge, obtained per smaps; speedup =\n"
		   "  small / huge: the variants' own warm minima, whole, table and walk stages; then paired, per iteration\n"
		   "  one decode on each, the order alternating: the minimum quotient, and the sides' minima's quotient):\n");
	for (unsigned i = 0; i < r->ntranslations; i++) {
		const struct app_bzip2_translation *x = &r->translations[i];
		const struct app_bzip2_variant *sm = &r->variants[x->small_variant], *hu = &r->variants[x->huge_variant];
		char a[24], b[24];

		fprintf(f, "    K=%u %s prefetch %s: %s %.4f s, %s %.4f s: whole %.3fx, table %.3fx, walk %.3fx; "
			   "paired %.3fx, minima %.3fx (%u pairs, huge %.0f%% obtained)\n",
			hu->k, layout_name(hu->layout), prefetch_name(hu->prefetch), pages_text(sm, a, sizeof(a)),
			sm->warm_seconds, pages_text(hu, b, sizeof(b)), hu->warm_seconds, x->whole_speedup,
			x->table_speedup, x->walk_speedup, x->paired_speedup, x->minima_speedup, x->npaired,
			x->paired_arena_bytes ? 100.0 * (double)x->paired_huge_bytes[1] / (double)x->paired_arena_bytes : 0.0);
	}
}

static void write_stages_text(const char *label, const struct app_bzip2_variant *v, FILE *f)
{
	const struct app_bzip2_stages *s = &v->stages;
	double w = v->warm_seconds > 0 ? v->warm_seconds : 1;

	fprintf(f, "  stages, %s (K=%u %s, warm, seconds over all blocks and %% of the whole):\n", label, v->k,
		layout_name(v->layout));
	fprintf(f, "    decode (bits, Huffman, MTF) %.4f (%.0f%%), table %.4f (%.0f%%), starts %.4f (%.0f%%), "
		   "traversal %.4f (%.0f%%),\n    assembly %.4f (%.0f%%), rle %.4f (%.0f%%), crc %.4f (%.0f%%); whole %.4f\n",
		s->decode, 100 * s->decode / w, s->table, 100 * s->table / w, s->starts, 100 * s->starts / w, s->traversal,
		100 * s->traversal / w, s->assembly, 100 * s->assembly / w, s->rle, 100 * s->rle / w, s->crc,
		100 * s->crc / w, v->warm_seconds);
}

/* The reference beside the walk, and whether the table sits in a cache:
 * R near 1 in a cache says the walk overlaps as a chase does there, not
 * that it would in memory. */
static void write_chase_text(const struct app_bzip2_result *r, FILE *f)
{
	const struct app_chase *c = &r->chase;

	fprintf(f, "  table: 4 B x %zu rows (the largest block the headers allow) = %zu bytes; cache-resident: %s, "
		   "by the %s: %s\n", r->block_rows, r->table_bytes, r->resident ? "yes" : "no",
		r->resident_from ? r->resident_from : "unknown", r->resident_where);
	if (!c->ran) {
		fprintf(f, "  chase at that footprint: not run here (app bzip2 alone measures it)\n");
		return;
	}
	fprintf(f, "  chase at that footprint (mlp, %s pages%s): %zu B, t(1) %.1f ns per dependent load, knee Ks %.1f, "
		   "floor %.1f%%; S_chase:", c->pages_requested, r->chase_reused ? ", the bwt kernel's in this run" : "",
		c->working_set_bytes, c->latency_ns, c->knee_k, c->noise_floor_pct);
	for (unsigned i = 0; i < c->npoints; i++)
		fprintf(f, " K=%u %.2f%s%s", c->k[i], c->speedup[i], c->impossible[i] ? " (IMPOSSIBLE: above K)" : "",
			c->non_monotonic[i] ? " (NON-MONOTONIC: below a smaller K's)" : "");
	fputc('\n', f);
	if (c->nimpossible && c->control_fall_k)
		fprintf(f, "  the state: the chase's control ran %.2fx its K = 1 speed right after K = %u lanes: a load's "
			   "latency here falls after traffic, so t(1) (idle) against t(K) (loaded) can pass K\n",
			c->control_fall, c->control_fall_k);
}

void app_bzip2_write_text(const struct app_bzip2_result *r, FILE *f)
{
	const struct app_bzip2_variant *b = &r->variants[r->best];

	fprintf(f, "\napp bzip2: our own decoder, its inverse-BWT walk as K lanes, beside libbz2\n");
	fprintf(f, "  input: %s\n", r->input);
	if (!r->blocks) {
		fprintf(f, "  check: ok, ours decodes it to 0 bytes as libbz2 %s does\n", r->libbz2_version);
		fprintf(f, "  nothing to time: the input holds no block (%u empty stream%s); no variant, chase, peer or "
			   "process ran\n  %.1f s in all\n", r->streams, r->streams == 1 ? "" : "s", r->seconds);
		return;
	}
	if (r->budget_seconds > 0)
		fprintf(f, "  budget: %.0f s for this experiment, estimated %.0f s after shrinking; shrunk: %s\n",
			r->budget_seconds, r->estimated_seconds, r->shrunk[0] ? r->shrunk : "nothing");
	fprintf(f, "  check: ok, every variant's output equal to libbz2 %s's (sha256 %s)\n", r->libbz2_version, r->hash);
	fprintf(f, "  %-3s %-9s %-8s %-6s %-8s %-10s %9s %9s %8s %6s %6s %9s %9s %7s %5s %6s\n", "K", "layout",
		"prefetch", "output", "decode", "pages", "cold s", "warm s", "MB/s", "f", "s", "predicted", "measured", "S_chase", "R",
		"ns/row");
	for (unsigned i = 0; i < r->nvariants; i++) {
		const struct app_bzip2_variant *v = &r->variants[i];

		char sc[16] = "-", ratio[16] = "-", pg[24];

		if (isfinite(v->chase_speedup))
			snprintf(sc, sizeof(sc), "%.2f", v->chase_speedup);
		if (isfinite(v->walk_ratio))
			snprintf(ratio, sizeof(ratio), "%.2f", v->walk_ratio);
		fprintf(f, "  %-3u %-9s %-8s %-6s %-8s %-10s %9.4f %9.4f %8.1f %6.2f %6.2f %9.2f %9.2f %7s %5s %6.2f%s\n",
			v->k, layout_name(v->layout), prefetch_name(v->prefetch), v->fresh_output ? "fresh" : "reused",
			v->overlap ? overlap_name(v->overlap) : paths_name(v->plain), pages_text(v, pg, sizeof(pg)), v->cold_seconds, v->warm_seconds, v->mb_per_s, v->walk_fraction,
			v->walk_speedup, v->predicted_speedup, v->measured_speedup, sc, ratio, v->ns_per_row,
			v->fallbacks ? " (some blocks walked with one lane)" : "");
	}
	fprintf(f, "  f: the walk's share of K=1's whole time; s: the walk's speedup over K=1; predicted "
		   "1/((1-f)+f/s);\n  S_chase: the chase's t(1)/t(K) at the table's footprint; R = s/S_chase; decode: "
		   "the decode-stage paths (fast, plain, +AXIS: only it fast;\n  interleave, scout: fast, overlapped);\n  pages: the T-vector arena's request and "
		   "the share of it huge pages back (smaps); ns/row: warm ns per BWT row (%llu rows)\n",
		(unsigned long long)r->rows);
	write_chase_text(r, f);
	app_bzip2_checks_write_text(r, f);
	for (unsigned i = 0; i < r->nvariants; i++)
		if (r->variants[i].k == 1 && !r->variants[i].fresh_output) {
			write_stages_text("K=1", &r->variants[i], f);
			break;
		}
	write_stages_text("best", b, f);
	write_axes_text(r, f);
	write_overlaps_text(r, f);
	write_translation_text(r, f);
	fprintf(f, "  libbz2 %s BZ2_bzDecompress, one thread, same bytes: %.4f s, %.1f MB/s\n", r->libbz2_version,
		r->libbz2_seconds, r->libbz2_mb_per_s);
	fprintf(f, "  best single thread: K=%u %s prefetch %s, %.1f MB/s = %.2fx libbz2; its largest stage: %s "
		   "(%.0f%% of its time)\n", b->k, layout_name(b->layout), prefetch_name(b->prefetch), b->mb_per_s,
		r->best_vs_libbz2, r->bound_stage, 100 * r->bound_fraction);
	for (unsigned i = 0; i < r->ntools; i++)
		fprintf(f, "  %s (%s; pinned to this CPU, a process, its start in the time): %.4f s, %.1f MB/s; "
			   "ours best single thread %.2fx\n", r->tools[i].command, r->tools[i].version, r->tools[i].seconds,
			r->tools[i].mb_per_s, r->tools[i].ratio);
	if (r->tools_skipped)
		fprintf(f, "  peers: left out (or some of them), the budget's share for them spent\n");
	app_bzip2_processes_write_text(&r->processes, f);
	app_bzip2_instructions_write_text(&r->instructions, f);
	if (r->workers_sequential_fallback)
		fprintf(f, "  workers: the scanned block boundaries did not chain through the file; not measured\n");
	if (r->nworkers) {
		fprintf(f, "  workers (block-parallel at the best variant, magic scan included):\n");
		fprintf(f, "  %-7s %9s %8s %8s %13s %22s %10s %7s %7s %8s\n", "workers", "wall s", "MB/s", "speedup",
			"CPU-s per GB", "block MB/s min/med/max", "peak RSS", "scan s", "uneven", "slowdown");
		for (unsigned i = 0; i < r->nworkers; i++) {
			const struct app_bzip2_workers *w = &r->workers[i];
			char spread[48], speedup[24];

			snprintf(spread, sizeof(spread), "%.0f/%.0f/%.0f", w->block_mb_per_s_min, w->block_mb_per_s_median,
				 w->block_mb_per_s_max);
			snprintf(speedup, sizeof(speedup), "%.2f%s", w->speedup, w->above_workers ? "!" : "");
			fprintf(f, "  %-7u %9.4f %8.1f %8s %13.2f %22s %6ld KiB %7.4f %7.4f %8.2f\n", w->n, w->wall_seconds,
				w->mb_per_s, speedup, w->cpu_seconds_per_gb, spread, w->peak_rss_kib, w->scan_seconds,
				w->imbalance_seconds, w->block_slowdown);
		}
		fprintf(f, "  scan s: the serial magic scan; uneven: the busiest worker's block seconds less the mean; "
			   "slowdown: the blocks' summed seconds over one worker's\n");
		for (unsigned i = 1; i < r->nworkers; i++)
			if (r->workers[i].above_workers)
				fprintf(f, "  %u workers!: %.2fx is above %u after a re-time of both rows: no speed-up %u "
					   "workers can have (one worker's row ran slow beyond the floor); not a figure to use\n",
					r->workers[i].n, r->workers[i].speedup, r->workers[i].n, r->workers[i].n);
			else if (r->workers[i].retimed)
				fprintf(f, "  %u workers: above %u at first, both rows re-timed: %.2fx\n", r->workers[i].n,
					r->workers[i].n, r->workers[i].speedup);
		for (unsigned i = 1; i < r->nworkers; i++)
			if (r->workers[i].speedup < 0.9 * r->workers[i].n)
				fprintf(f, "  %u workers reach %.2fx of %u: the largest loss is %s\n", r->workers[i].n,
					r->workers[i].speedup, r->workers[i].n, r->workers[i].shortfall_cause);
	}
	fprintf(f, "  %.1f s in all\n", r->seconds);
}

static void write_stages_json(struct jsonw *w, const struct app_bzip2_stages *s)
{
	JSONW_FIELDS_OBJECT(w, "stage_seconds", s, app_bzip2_stages_fields);
}

static void variant_members(struct jsonw *w, const void *e)
{
	const struct app_bzip2_variant *v = e;

	jsonw_uint(w, "k", v->k);
	jsonw_uint(w, "segments", v->segments);
	jsonw_string(w, "layout", layout_name(v->layout));
	jsonw_string(w, "prefetch", prefetch_name(v->prefetch));
	jsonw_string(w, "output_buffer", v->fresh_output ? "fresh" : "reused");
	jsonw_double(w, "cold_seconds", v->cold_seconds);
	jsonw_double(w, "warm_seconds", v->warm_seconds);
	jsonw_double(w, "mb_per_s", v->mb_per_s);
	jsonw_string(w, "decode_paths", paths_name(v->plain));
	jsonw_string(w, "overlap", overlap_name(v->overlap));
	jsonw_string(w, "pages_requested", arena_request_name(v->pages));
	jsonw_double_array(w, "trial_seconds", v->trial_seconds, v->ntrials);
	write_stages_json(w, &v->stages);
	JSONW_FIELDS(w, v, app_bzip2_variant_fields);
}

static void translation_members(struct jsonw *w, const void *e)
{
	const struct app_bzip2_translation *x = e;

	JSONW_FIELDS(w, x, app_bzip2_translation_fields);
	jsonw_uint(w, "paired_small_huge_bytes_obtained", x->paired_huge_bytes[0]);
	jsonw_uint(w, "paired_huge_bytes_obtained", x->paired_huge_bytes[1]);
	jsonw_double_array(w, "paired_small_seconds", x->small_seconds, x->npaired);
	jsonw_double_array(w, "paired_huge_seconds", x->huge_seconds, x->npaired);
}

static void tool_members(struct jsonw *w, const void *e)
{
	const struct app_bzip2_tool *tool = e;

	JSONW_FIELDS(w, tool, app_bzip2_tool_fields);
	jsonw_double_array(w, "trial_seconds", tool->trial_seconds, tool->ntrials);
}

void app_bzip2_write_json(const struct app_bzip2_result *r, struct jsonw *w, const char *key)
{
	const struct app_bzip2_variant *b = &r->variants[r->best];

	jsonw_object_begin(w, key);
	jsonw_string(w, "input", r->input);
	if (r->path[0])
		jsonw_string(w, "path", r->path);
	JSONW_FIELDS(w, r, app_bzip2_result_fields);
	jsonw_bool(w, "check_ok", true);
	/* No block (empty streams): nothing was timed, so no figure. */
	jsonw_double_or_null(w, "libbz2_seconds", r->blocks, r->libbz2_seconds);
	jsonw_double_or_null(w, "libbz2_mb_per_s", r->blocks, r->libbz2_mb_per_s);
	jsonw_double_array(w, "libbz2_trial_seconds", r->libbz2_trial_seconds, r->libbz2_ntrials);
	JSONW_FIELDS(w, r, app_bzip2_fit_fields);
	jsonw_object_begin(w, "probe_seconds");
	jsonw_double(w, "k1", r->rates.k1);
	jsonw_double(w, "lanes", r->rates.lanes);
	jsonw_double(w, "hash", r->rates.hash);
	jsonw_object_end(w);
	JSONW_OBJECT_ARRAY_EACH(w, "variants", r->variants, r->nvariants, variant_members);
	if (r->nvariants) {
		jsonw_object_begin(w, "best");
		jsonw_uint(w, "variant", r->best);
		jsonw_uint(w, "k", b->k);
		jsonw_double(w, "mb_per_s", b->mb_per_s);
		jsonw_double(w, "vs_libbz2", r->best_vs_libbz2);
		jsonw_string(w, "largest_stage", r->bound_stage);
		jsonw_double(w, "largest_stage_fraction", r->bound_fraction);
		jsonw_object_end(w);
	} else {
		jsonw_null(w, "best");
	}
	JSONW_OBJECT_ARRAY(w, "decode_axes", r->axes, r->naxes, app_bzip2_axis_fields);
	JSONW_OBJECT_ARRAY(w, "overlap_axes", r->overlaps, r->noverlaps, app_bzip2_overlap_fields);
	jsonw_string(w, "pages_requested", arena_request_name(r->pages));
	JSONW_OBJECT_ARRAY_EACH(w, "translation", r->translations, r->ntranslations, translation_members);
	JSONW_OBJECT_ARRAY(w, "workers", r->workers, r->nworkers, app_bzip2_workers_fields);
	JSONW_OBJECT_ARRAY_EACH(w, "tools", r->tools, r->ntools, tool_members);
	app_bzip2_processes_write_json(&r->processes, w, "whole_process");
	app_bzip2_instructions_write_json(&r->instructions, w, "instructions");
	jsonw_uint(w, "block_rows", r->block_rows);
	jsonw_uint(w, "table_bytes", r->table_bytes);
	jsonw_bool(w, "resident", r->resident);
	jsonw_string(w, "resident_from", r->resident_from ? r->resident_from : "unknown");
	jsonw_string(w, "resident_where", r->resident_where);
	app_chase_write_json(w, &r->chase);
	jsonw_bool(w, "chase_reused", r->chase_reused);
	app_bzip2_checks_write_json(r, w);
	jsonw_double(w, "seconds", r->seconds);
	jsonw_object_end(w);
}
