/*
 * The aligned text report. Every column names its quantity and unit, and
 * the table says which figures are throughput and which are assumptions
 * (one cache line per access), because a lanes table read as latencies is
 * the classic misreading of this experiment.
 */
#include "report/report.h"

#include "report/app_out.h"
#include "report/bandwidth_out.h"
#include "report/latency_out.h"
#include "report/machine_out.h"
#include "report/noise_out.h"
#include "report/window_out.h"

#include <inttypes.h>
#include <stdio.h>

void report_format_bytes(char *out, size_t len, size_t bytes)
{
	static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(out, len, "%zu B", bytes);
	else if (v == (double)(size_t)v)
		snprintf(out, len, "%.0f %s", v, unit[u]);
	else
		snprintf(out, len, "%.2f %s", v, unit[u]);
}

static void write_header(const struct report *r, FILE *f)
{
	const struct clock_info *c = &r->clock;

	fprintf(f, "mlpscope %s\n", r->version);
	fprintf(f, "cpu: %s (%s), %d online, pinned to CPU %d\n", r->topo.cpu_model,
		r->prov.arch, r->topo.online_cpus, r->topo.cpu);
	fprintf(f, "clock: %s, %.4f ticks/ns%s; step %.1f ns, empty region %.1f ns, "
		"so timed regions are kept above %.1f us\n",
		c->source, c->ticks_per_ns, c->invariant ? " (invariant)" : " (NOT invariant)",
		clock_ticks_to_ns(c, c->resolution_ticks), clock_ticks_to_ns(c, c->empty_region_ticks),
		c->min_region_ns / 1000.0);
}

static void write_mlp_setup(const struct mlp_result *m, FILE *f)
{
	const struct layout_check *l = &m->layout;
	char ws[32], huge[32], total[32];

	report_format_bytes(ws, sizeof(ws), m->working_set_bytes);
	report_format_bytes(huge, sizeof(huge), m->huge_bytes_obtained);
	report_format_bytes(total, sizeof(total), m->total_bytes);
	fprintf(f, "\nmlp: memory-level parallelism from K lanes of dependent loads, %s pages requested\n",
		m->pages_requested);
	fprintf(f, "  working set %s: %zu nodes, one every %zu B (line %zu B)\n", ws, l->nodes,
		m->spacing_bytes, m->line_bytes);
	fprintf(f, "  page backing obtained: %s of %s in huge pages (%.1f%%, from /proc/self/smaps)\n",
		huge, total, m->total_bytes ? 100.0 * (double)m->huge_bytes_obtained / (double)m->total_bytes : 0.0);
	fprintf(f, "  layout check: walked %zu steps, %zu distinct nodes, %zu distinct lines (expected %zu): %s\n",
		l->steps_walked, l->distinct_nodes_walked, l->distinct_lines_walked, l->expected_lines,
		l->ok ? "ok" : "FAILED");
	fprintf(f, "  permutation: Sattolo, seed %" PRIu64 ", hash %016" PRIx64 "\n", m->perm_seed, m->perm_hash);
	fprintf(f, "  %zu accesses per timed region; %u trials x %u repeats per point, visited round-robin\n",
		m->accesses_per_point, m->trials_per_repeat, m->estimate.repeats);
	fprintf(f, "  noise floor of the min-of-3 estimator: %.1f%% (this run's tolerance)\n",
		m->noise_floor_pct);
}

static void write_mlp_table(const struct mlp_result *m, FILE *f)
{
	unsigned c = 0;

	fprintf(f, "\n  %5s  %10s  %7s  %11s  %8s  %8s  %10s  %12s\n", "lanes", "time/acc", "speedup",
		"concurrency", "useful", "lines*", "lane walk", "control");
	fprintf(f, "  %5s  %10s  %7s  %11s  %8s  %8s  %10s  %12s\n", "K", "ns thrput", "x t1/tK",
		"t1/tK", "GB/s", "GB/s", "KiB/region", "ns/acc");
	for (unsigned i = 0; i < m->npoints; i++) {
		const struct mlp_point *p = &m->sweep[i];

		fprintf(f, "  %5u  %10.3f  %7.2f  %11.2f  %8.3f  %8.3f  %10.1f", p->lanes, p->ns_per_access,
			p->speedup, p->concurrency, p->useful_gbps, p->line_gbps,
			(double)(p->steps_per_lane * m->spacing_bytes) / 1024.0);
		if (c < m->ncontrol && m->control[c].lanes == p->lanes)
			fprintf(f, "  %12.3f", m->control[c++].ns_per_access);
		fputc('\n', f);
	}
	fprintf(f, "  time/acc: elapsed time / logical accesses, the reciprocal of throughput; a latency only at K=1.\n"
		   "  concurrency: t(1)/t(K), accesses in flight by Little's law.\n"
		   "  useful: 8 B per access; lines*: %zu B per access, an assumption (nothing counts lines here).\n"
		   "  control: one chain hopped K times per iteration (same loop overhead, no overlap).\n"
		   "  GB/s are decimal (1e9 B/s).\n",
		m->line_bytes);
}

static void write_mlp_estimate(const struct mlp_result *m, FILE *f)
{
	const struct mlp_estimate *e = &m->estimate;

	fprintf(f, "\n  estimate:\n");
	fprintf(f, "    fit t(K) = max(L/K, L/Ks):  Ks = %.1f +/- %.1f lanes, L = %.1f ns, "
		"plateau concurrency %.1f (rms residual %.1f%%)\n",
		e->fit_saturation_lanes, e->fit_uncertainty, e->fit_latency_ns,
		e->fit_plateau_concurrency, 100.0 * e->fit_rms_log_residual);
	fprintf(f, "    peak concurrency observed:  %.1f at K = %u\n", e->peak_concurrency, e->peak_lanes);
	fprintf(f, "    plateau from:               K = %u (first K within the floor of the best time)\n",
		e->plateau_from_lanes);
	fprintf(f, "    curve flat over the last 8 K: %s\n",
		e->flat_at_end ? "yes" : "NO: still improving at the cap; raise --max-lanes");
	fprintf(f, "    older tools' rules:         first K adding <5%%: %zu, <1%%: %zu "
		"(noise-sensitive; shown for comparison)\n", e->rule_5pct_lanes, e->rule_1pct_lanes);
	fprintf(f, "    repeats: %u, agreeing on Ks within 1 lane or 10%%: %u (Ks:", e->repeats,
		e->repeats_agreeing);
	for (unsigned i = 0; i < e->repeats; i++)
		fprintf(f, " %.1f", e->repeat_saturation_lanes[i]);
	fprintf(f, ")\n  setup %.1f s, sweep %.1f s\n", m->setup_seconds, m->sweep_seconds);
}

void report_write_text(const struct report *r, FILE *f)
{
	write_header(r, f);
	if (r->has_machine)
		machine_write_text(&r->machine, f);
	if (r->has_noise)
		report_write_noise_text(&r->noise, f);
	if (r->has_latency)
		report_write_latency_text(&r->latency, f);
	for (int i = 0; i < r->nmlp; i++) {
		write_mlp_setup(&r->mlp[i], f);
		write_mlp_table(&r->mlp[i], f);
		write_mlp_estimate(&r->mlp[i], f);
	}
	if (r->has_bandwidth)
		bandwidth_write_text(&r->bandwidth, f);
	if (r->has_multicore)
		multicore_write_text(&r->multicore, f);
	if (r->has_loaded)
		loaded_write_text(&r->loaded, f);
	if (r->has_window)
		window_write_text(&r->window, f);
	if (r->has_app)
		app_write_text(&r->app, f);
	if (r->nwarnings) {
		fprintf(f, "\nwarnings:\n");
		for (int i = 0; i < r->nwarnings; i++)
			fprintf(f, "  ! %s\n", r->warnings[i]);
	}
}
