/*
 * The loaded probe's text and JSON. The text says what the two CPUs share,
 * because a probe beside the lanes on another core sees the queues of the
 * last cache and memory, not those inside the lanes' own core, and the
 * Little's-law column is read against that.
 */
#include "report/mlp_probe_out.h"

#include "core/bounds.h"
#include "util/format.h"

#include <math.h>

/* A point's keys before and after its Little's-law verdict, in order. */
static const struct jsonw_field point_figure_fields[] = {
	JSONW_FIELD(UINT, "lanes", struct mlp_probe_point, lanes),
	JSONW_FIELD(STRING, "chosen_as", struct mlp_probe_point, chosen_as),
	JSONW_FIELD(DOUBLE, "t_loaded_ns", struct mlp_probe_point, t_loaded_ns),
	JSONW_FIELD(DOUBLE, "ratio_to_idle", struct mlp_probe_point, ratio_to_idle),
	JSONW_FIELD(DOUBLE, "lanes_ns_per_access", struct mlp_probe_point, lanes_ns_per_access),
	JSONW_FIELD(DOUBLE, "littles_law_concurrency", struct mlp_probe_point, littles_law_concurrency),
};

static const struct jsonw_field point_mark_fields[] = {
	JSONW_FIELD(BOOL, "impossible", struct mlp_probe_point, impossible),
	JSONW_FIELD(BOOL, "retimed", struct mlp_probe_point, retimed),
};

static void text_row(const struct mlp_probe_point *pt, double floor_pct, FILE *f)
{
	char k[16];

	snprintf(k, sizeof(k), pt->lanes ? "%u" : "idle", pt->lanes);
	fprintf(f, "  %5s  %-9s  %11.1f  %6.2f", k, pt->chosen_as, pt->t_loaded_ns, pt->ratio_to_idle);
	if (!pt->lanes) {
		fprintf(f, "\n");
		return;
	}
	if (isfinite(pt->littles_law_concurrency))
		fprintf(f, "  %12.2f  %8.1f  %s", pt->lanes_ns_per_access, pt->littles_law_concurrency,
			mlp_probe_little_name(pt->little));
	else    /* the lanes published no count inside the window */
		fprintf(f, "  %12s  %8s  %s", "-", "-", mlp_probe_little_name(pt->little));
	if (pt->impossible)
		fprintf(f, "  IMPOSSIBLE: below idle beyond the floor (%.1f%%) after a re-time",
			bounds_ratio_floor_pct(floor_pct));
	fprintf(f, "\n");
}

void mlp_probe_write_text(const struct mlp_probe *pr, FILE *f)
{
	char fl[96];

	if (pr->state == MLP_PROBE_NOT_PLANNED)
		return;
	fprintf(f, "\n  loaded probe: one dependent chase timed while K lanes run on another CPU\n");
	if (pr->state != MLP_PROBE_MEASURED) {
		fprintf(f, "    %s: %s\n", mlp_probe_state_name(pr->state), pr->why);
		return;
	}
	fprintf(f, "    probe on CPU %d, lanes on CPU %d: %s\n", pr->probe_cpu, pr->lanes_cpu, pr->sharing);
	fprintf(f, "    both on the sweep's cycle (%zu nodes, its layout check above), the probe half a cycle ahead\n",
		pr->chain_nodes);
	fprintf(f, "    %d loads per window, %d trials per point round-robin; floor %s\n", MLP_PROBE_HOPS,
		MLP_PROBE_TRIALS, report_format_floor(fl, sizeof(fl), pr->noise_floor_pct, pr->floor_from_run));
	fprintf(f, "\n  %5s  %-9s  %11s  %6s  %12s  %8s  %s\n", "K", "chosen as", "t_loaded ns", "/idle",
		"lanes ns/acc", "N=X*W", "Little's law vs K");
	text_row(&pr->idle, pr->noise_floor_pct, f);
	for (unsigned i = 0; i < pr->npoints; i++)
		text_row(&pr->points[i], pr->noise_floor_pct, f);
	if (pr->retimed_points)
		fprintf(f, "  re-timed once: idle and %u point(s) below it; the rows are the re-timed figures.\n",
			pr->retimed_points - 1);
	fprintf(f, "  t_loaded: the probe's ns per dependent load, min over the trials whose lanes kept their median\n"
		   "  rate (a window with the lanes descheduled carries no load); idle: the same with the lanes\n"
		   "  CPU spinning on no loads (the sweep's own t(1): %.1f ns). lanes ns/acc: the lanes' elapsed\n"
		   "  time per access over that trial's window (throughput X = 1/it). N = X * t_loaded: the lanes'\n"
		   "  accesses in flight if each took the probe's time; K lanes keep at most K. Judged within the\n"
		   "  ratio's floor; below K: the lanes wait where the probe does not (inside their own core);\n"
		   "  above K: the lanes' accesses complete sooner than the probe's load (a finding to explain).\n"
		   "  probe %.1f s\n", pr->sweep_t1_ns, pr->seconds);
}

static void point_json(struct jsonw *w, const struct mlp_probe_point *pt)
{
	jsonw_object_begin(w, NULL);
	JSONW_FIELDS(w, pt, point_figure_fields);
	jsonw_string(w, "littles_law", mlp_probe_little_name(pt->little));
	JSONW_FIELDS(w, pt, point_mark_fields);
	jsonw_double_array(w, "trials_ns", pt->trials_ns, pt->ntrials);
	jsonw_double_array(w, "trials_lanes_ns_per_access", pt->trials_lanes_ns, pt->ntrials);
	jsonw_object_end(w);
}

static void measured_json(struct jsonw *w, const struct mlp_probe *pr)
{
	jsonw_int(w, "probe_cpu", pr->probe_cpu);
	jsonw_int(w, "lanes_cpu", pr->lanes_cpu);
	jsonw_string(w, "sharing", pr->sharing);
	jsonw_uint(w, "chain_nodes", pr->chain_nodes);
	jsonw_string(w, "placement", "the probe walks the sweep's cycle half a cycle ahead of the lanes");
	jsonw_uint(w, "hops_per_window", MLP_PROBE_HOPS);
	jsonw_uint(w, "trials", MLP_PROBE_TRIALS);
	jsonw_double(w, "noise_floor_pct", pr->noise_floor_pct);
	jsonw_string(w, "noise_floor_source", report_floor_source(pr->noise_floor_pct, pr->floor_from_run));
	jsonw_double(w, "idle_ns", pr->idle.t_loaded_ns);
	jsonw_double_array(w, "idle_trials_ns", pr->idle.trials_ns, pr->idle.ntrials);
	jsonw_double(w, "sweep_t1_ns", pr->sweep_t1_ns);
	jsonw_array_begin(w, "points");
	for (unsigned i = 0; i < pr->npoints; i++)
		point_json(w, &pr->points[i]);
	jsonw_array_end(w);
	jsonw_uint(w, "impossible_points", pr->nimpossible);
	jsonw_uint(w, "retimed_points", pr->retimed_points);
}

void mlp_probe_write_json(struct jsonw *w, const struct mlp_probe *pr)
{
	if (pr->state == MLP_PROBE_NOT_PLANNED)
		return;
	jsonw_object_begin(w, "loaded_probe");
	jsonw_string(w, "state", mlp_probe_state_name(pr->state));
	jsonw_string(w, "quantity", "t_loaded: ns per dependent load of a probe chase on one CPU while K lanes run on "
		     "another, min over the trials whose lanes kept their median rate; beside the same probe with that "
		     "CPU idle");
	if (pr->state == MLP_PROBE_MEASURED)
		measured_json(w, pr);
	else
		jsonw_string(w, "why", pr->why);
	jsonw_double(w, "seconds", pr->seconds);
	jsonw_object_end(w);
}
