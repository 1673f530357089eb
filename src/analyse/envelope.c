/*
 * The envelope's terms and their sources. Why each comes from where it does:
 * - L is the measured t(1): the latency of one dependent access on this
 *   chain, idle. Each term that holds a resource "about L" uses it, which is
 *   the shortest hold, so each is a lower bound.
 * - B is never the lanes sweep's own best rate (that term would be the best
 *   time seen and tie with any other explanation): it is the bandwidth
 *   section's read, a sequential stream the prefetchers help, so b/B is
 *   optimistic for scattered lines; a random-line stream moves less.
 * - u is counted in the compiled kernel (spills included), P measured on
 *   the same kernels with every load an L1 hit, so u/P is the core's issue
 *   cost per access at the best rate it sustained for this instruction mix.
 * - The ports are split from u/P: a loop can sit on its loads or on its
 *   stores while the aggregate rate has room. Their counts a cycle are the
 *   vendors' (analyse/ports.c), by the CPU the result's machine section
 *   recorded; cycles become ns at the fastest core clock the run timed,
 *   the clock that makes the term smallest, so it stays a lower bound.
 * - Window capacities are entries; each load (the chase load and the stack
 *   reloads) holds a load-queue entry, and each instruction a ROB entry,
 *   until the oldest outstanding miss retires, about L: Q_j / (m_j W_j).
 */
#include "analyse/envelope.h"

#include "analyse/ports.h"
#include "util/jsonr.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool positive(double v)
{
	return isfinite(v) && v > 0;
}

const char *envelope_term_name(enum env_term t)
{
	static const char *const names[ENV_NTERMS] = {
		"latency", "issue", "load_ports", "store_ports", "core", "bandwidth_core", "bandwidth_memory",
		"load_queue", "rob", "miss_buffers",
	};

	return (unsigned)t < ENV_NTERMS ? names[t] : "?";
}

static void set_source(struct env_source *s, double v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_source(struct env_source *s, double v, const char *fmt, ...)
{
	va_list ap;

	s->value = positive(v) ? v : 0;
	va_start(ap, fmt);
	vsnprintf(s->source, sizeof(s->source), fmt, ap);
	va_end(ap);
}

/* The best read of the bandwidth section: on one thread (core) and on any
 * number (memory). */
static void read_bandwidth(const struct jsonr_value *root, struct env_inputs *in)
{
	const struct jsonr_value *k = jsonr_get(root, "bandwidth.kernels");
	double best1 = 0, bestn = 0, th, g, bestn_threads = 0;
	char name1[48] = "", namen[48] = "";

	if (!k || k->type != JSONR_ARRAY || !k->u.children.first) {
		set_source(&in->read_core, 0, "unknown: no bandwidth section in this file (the full report or "
			   "`mlpscope bandwidth` measures the read this term needs)");
		set_source(&in->read_memory, 0, "%s", in->read_core.source);
		return;
	}
	for (const struct jsonr_value *e = k->u.children.first; e; e = e->next) {
		const char *op = jsonr_get_string(e, "op"), *kn = jsonr_get_string(e, "kernel");

		if (!op || strcmp(op, "read") || !jsonr_get_number(e, "threads", &th) ||
		    !jsonr_get_number(e, "gbps", &g) || !positive(g))
			continue;
		if (th == 1 && g > best1) {
			best1 = g;
			snprintf(name1, sizeof(name1), "%s", kn ? kn : "read");
		}
		if (g > bestn) {
			bestn = g;
			bestn_threads = th;
			snprintf(namen, sizeof(namen), "%s", kn ? kn : "read");
		}
	}
	if (best1 > 0)
		set_source(&in->read_core, best1, "bandwidth.kernels[%s, 1 thread].gbps = %.2f GB/s (a sequential "
			   "stream the prefetchers help: optimistic for scattered lines)", name1, best1);
	else
		set_source(&in->read_core, 0, "unknown: the bandwidth section has no 1-thread read");
	if (bestn > 0)
		set_source(&in->read_memory, bestn, "bandwidth.kernels[%s, %.0f threads].gbps = %.2f GB/s (the most "
			   "the memory system delivered to this tool)", namen, bestn_threads, bestn);
	else
		set_source(&in->read_memory, 0, "unknown: the bandwidth section has no read kernel");
}

/* window.summary.STRUCT from root, else from extra. */
static void read_window(const struct jsonr_value *root, const struct jsonr_value *extra, const char *structure,
			struct env_source *out)
{
	const struct jsonr_value *w = jsonr_get(root, "window");
	const char *where = "this file";
	char path[64];
	bool measured = false;
	double cap = 0;

	if (!w && extra) {
		w = jsonr_get(extra, "window");
		where = "the second file";
	}
	if (!w) {
		set_source(out, 0, "unknown: no window section (run `mlpscope window --json w.json`, then "
			   "`mlpscope model --from THIS.json w.json`)");
		return;
	}
	snprintf(path, sizeof(path), "summary.%s", structure);
	const struct jsonr_value *s = jsonr_get(w, path);

	if (!s) {
		set_source(out, 0, "unknown: %s's window has no summary.%s (an older window run)", where, structure);
		return;
	}
	if (!jsonr_get_bool(s, "measured", &measured) || !measured || !jsonr_get_number(s, "capacity", &cap) ||
	    !positive(cap)) {
		const char *note = jsonr_get_string(s, "note");

		set_source(out, 0, "unknown: window did not measure it (%s)", note ? note : "no step");
		return;
	}
	const char *from = jsonr_get_string(s, "from");

	set_source(out, cap, "window.summary.%s.capacity = %.0f entries (filler %s, %s)", structure, cap,
		   from ? from : "?", where);
}

static void read_loaded(const struct jsonr_value *root, struct env_inputs *in)
{
	const struct jsonr_value *c = jsonr_get(root, "loaded.curve");
	double idle, bw, lat;

	in->nloaded = 0;
	if (!c || c->type != JSONR_ARRAY || !jsonr_get_number(root, "loaded.idle_latency_ns", &idle) ||
	    !positive(idle))
		return;
	in->loaded_idle_ns = idle;
	for (const struct jsonr_value *e = c->u.children.first; e && in->nloaded < ENV_MAX_LOADED; e = e->next) {
		if (!jsonr_get_number(e, "bw_gbps", &bw) || !jsonr_get_number(e, "latency_ns", &lat) ||
		    !(bw >= 0) || !positive(lat))
			continue;
		/* insertion by bandwidth: the curve is swept by delay, not sorted by what it delivered */
		size_t j = in->nloaded++;

		while (j > 0 && in->loaded_bw_gbps[j - 1] > bw) {
			in->loaded_bw_gbps[j] = in->loaded_bw_gbps[j - 1];
			in->loaded_latency_ns[j] = in->loaded_latency_ns[j - 1];
			j--;
		}
		in->loaded_bw_gbps[j] = bw;
		in->loaded_latency_ns[j] = lat;
	}
}

/* The cache levels of mlp --levels (every level but the one the section's
 * own sweep is): of those whose chain stayed resident, the largest working
 * set, i.e. the last cache. Not the highest peak: a level near the core
 * (the L2) runs into the core's own issue rate before any miss tracking. */
static void read_levels(const struct jsonr_value *m, struct env_inputs *in)
{
	const struct jsonr_value *lv = jsonr_get(m, "levels");
	double peak, ws, best_ws = 0, t1, fl;
	bool main_sweep;

	if (!lv || lv->type != JSONR_ARRAY)
		return;
	for (const struct jsonr_value *l = lv->u.children.first; l; l = l->next) {
		const char *name = jsonr_get_string(l, "level");
		bool resident = false;

		/* only a level whose chain stayed in its cache (older files
		 * without the flag: not used) */
		if ((jsonr_get_bool(l, "from_main_sweep", &main_sweep) && main_sweep) ||
		    !jsonr_get_bool(l, "resident", &resident) || !resident ||
		    !jsonr_get_number(l, "peak_concurrency", &peak) || !positive(peak))
			continue;
		if (!jsonr_get_number(l, "working_set_bytes", &ws))
			ws = 0;
		if (!in->cache_peak_concurrency || ws > best_ws) {
			best_ws = ws;
			in->cache_peak_concurrency = peak;
			in->cache_peak_t1_ns = jsonr_get_number(l, "t1_ns", &t1) ? t1 : 0;
			in->cache_peak_floor_frac =
				jsonr_get_number(l, "noise_floor_pct", &fl) && fl > 0 ? fl / 100 : 0;
			snprintf(in->cache_peak_level, sizeof(in->cache_peak_level), "%s", name ? name : "?");
		}
	}
}

/* Loads and stores a cycle by the recorded CPU, and the clock that turns
 * cycles into ns: machine.core_clock_mhz.max, timed by the run. */
static void read_ports(const struct jsonr_value *root, struct env_inputs *in)
{
	const char *vendor = jsonr_get_string(root, "machine.vendor");
	double fam = -1, mod = -1, mhz = 0;
	struct ports p;

	jsonr_get_number(root, "machine.family", &fam);
	jsonr_get_number(root, "machine.model", &mod);
	ports_lookup(vendor, (int)fam, (int)mod, &p);
	if (p.assumed) {
		set_source(&in->load_ports, p.loads_per_cycle, "%.0f loads/cycle, %s", p.loads_per_cycle, p.source);
		set_source(&in->store_ports, p.stores_per_cycle, "%.0f stores/cycle, %s", p.stores_per_cycle, p.source);
	} else {
		set_source(&in->load_ports, p.loads_per_cycle, "%.0f loads/cycle: machine family %.0f model %.0f is "
			   "%s (public: %s)", p.loads_per_cycle, fam, mod, p.core, p.source);
		set_source(&in->store_ports, p.stores_per_cycle, "%.0f stores/cycle: machine family %.0f model %.0f "
			   "is %s (public: %s)", p.stores_per_cycle, fam, mod, p.core, p.source);
	}
	if (jsonr_get_number(root, "machine.core_clock_mhz.max", &mhz) && positive(mhz))
		set_source(&in->clock_ghz, mhz / 1000, "machine.core_clock_mhz.max = %.0f MHz (the fastest timed)",
			   mhz);
	else
		set_source(&in->clock_ghz, 0, "unknown: this file has no machine.core_clock_mhz (the machine "
			   "section of this version times the core clock)");
}

int envelope_inputs_from(const struct jsonr_value *root, const struct jsonr_value *m, const char *name,
			 const struct jsonr_value *extra, struct env_inputs *in, char *err, size_t errlen)
{
	const struct jsonr_value *sweep = jsonr_get(m, "sweep"), *pt;
	double v, k, t;
	bool counted = true;

	memset(in, 0, sizeof(*in));
	snprintf(in->section, sizeof(in->section), "%s", name);
	if (!sweep || sweep->type != JSONR_ARRAY || !sweep->u.children.first) {
		snprintf(err, errlen, "%s.sweep is missing or empty", name);
		return -EBADMSG;
	}
	in->line_bytes = jsonr_get_number(m, "line_bytes", &v) && positive(v) ? v : 64;
	in->noise_floor_frac = jsonr_get_number(m, "noise_floor_pct", &v) && isfinite(v) && v >= 0 ? v / 100 : 0;
	for (pt = sweep->u.children.first; pt && in->npoints < ENV_MAX_POINTS; pt = pt->next) {
		size_t i = in->npoints;

		if (!jsonr_get_number(pt, "lanes", &k) || !jsonr_get_number(pt, "ns_per_access", &t) || !positive(k)) {
			snprintf(err, errlen, "%s.sweep[%zu] lacks lanes or ns_per_access", name, i);
			return -EBADMSG;
		}
		in->lanes[i] = k;
		in->measured_ns[i] = t;
		if (jsonr_get_number(pt, "instructions_per_access", &v) && positive(v)) {
			in->insns_per_access[i] = v;
			in->loads_per_access[i] = jsonr_get_number(pt, "loads_per_access", &v) && positive(v) ? v : 1;
			in->stores_per_access[i] = jsonr_get_number(pt, "stores_per_access", &v) && positive(v) ? v : 0;
		} else {
			/* The generator's shape: K loads, a decrement and a branch. */
			counted = false;
			in->insns_per_access[i] = (k + 2) / k;
			in->loads_per_access[i] = 1;
		}
		if (jsonr_get_number(pt, "core_ns_per_access", &v) && positive(v))
			in->core_ns[i] = v;
		in->npoints++;
	}
	in->counts_assumed = !counted;
	if (counted) {
		const char *src = jsonr_get_string(m, "core.count_source");

		snprintf(in->count_source, sizeof(in->count_source), "mlp.sweep[].instructions_per_access, "
			 "loads_per_access (%s)", src ? src : "counted at build time");
	} else {
		snprintf(in->count_source, sizeof(in->count_source), "assumed from the generator's shape (K loads, a "
			 "decrement and a branch per iteration; no spills): this file has no counts");
	}
	if (in->lanes[0] == 1 && positive(in->measured_ns[0]))
		set_source(&in->t1, in->measured_ns[0], "mlp.sweep[0].ns_per_access = %.1f ns (t(1): one chain, idle)",
			   in->measured_ns[0]);
	else if (jsonr_get_number(m, "estimate.fit_latency_ns", &v) && positive(v))
		set_source(&in->t1, v, "mlp.estimate.fit_latency_ns = %.1f ns (the sweep has no K = 1)", v);
	else {
		snprintf(err, errlen, "%s has no usable latency (sweep[0] at K = 1 or estimate.fit_latency_ns)", name);
		return -EBADMSG;
	}
	if (jsonr_get_number(m, "core.issue_per_ns", &v) && positive(v)) {
		double at = 0;

		jsonr_get_number(m, "core.issue_at_lanes", &at);
		set_source(&in->issue, v, "mlp.core.issue_per_ns = %.2f instructions/ns: the best rate of these "
			   "kernels with every load an L1 hit (at K = %.0f)", v, at);
	} else {
		set_source(&in->issue, 0, "unknown: this file's mlp section has no core timing (mlp of this "
			   "version times the kernels L1-resident)");
	}
	read_bandwidth(root, in);
	read_ports(root, in);
	read_window(root, extra, "load_queue", &in->load_queue);
	read_window(root, extra, "reorder_buffer", &in->rob);
	read_window(root, extra, "l1d_miss_buffers", &in->miss_buffers);
	read_loaded(root, in);
	read_levels(m, in);
	in->ks = jsonr_get_number(m, "estimate.fit_saturation_lanes", &v) ? v : NAN;
	in->ks_uncertainty = jsonr_get_number(m, "estimate.fit_uncertainty", &v) ? v : NAN;
	in->plateau_concurrency = jsonr_get_number(m, "estimate.fit_plateau_concurrency", &v) ? v : NAN;
	in->plateau_from_lanes = jsonr_get_number(m, "estimate.plateau_from_lanes", &v) && v >= 1 ? (unsigned)v : 0;
	in->huge_pct = jsonr_get_number(m, "pages.huge_pct_obtained", &v) ? v : -1;
	return 0;
}

void envelope_term_source(const struct env_inputs *in, enum env_term t, char *buf, size_t len)
{
	switch (t) {
	case ENV_LATENCY:
		snprintf(buf, len, "L / K; L: %s", in->t1.source);
		break;
	case ENV_ISSUE:
		snprintf(buf, len, "u / P; u: %s; P: %s", in->count_source, in->issue.source);
		break;
	case ENV_LOAD_PORTS:
		snprintf(buf, len, "loads per access / (ports x f); ports: %s; f: %s", in->load_ports.source,
			 in->clock_ghz.source);
		break;
	case ENV_STORE_PORTS:
		snprintf(buf, len, "stores per access (stack spills; none: no term) / (ports x f); ports: %s; f: %s",
			 in->store_ports.source, in->clock_ghz.source);
		break;
	case ENV_CORE:
		snprintf(buf, len, "mlp.sweep[].core_ns_per_access: this kernel with every load an L1 hit");
		break;
	case ENV_BW_CORE:
		snprintf(buf, len, "%.0f B per access / B; B: %s", in->line_bytes, in->read_core.source);
		break;
	case ENV_BW_MEMORY:
		snprintf(buf, len, "%.0f B per access / B; B: %s", in->line_bytes, in->read_memory.source);
		break;
	case ENV_LOAD_QUEUE:
		snprintf(buf, len, "L x loads per access / Q; Q: %s", in->load_queue.source);
		break;
	case ENV_ROB:
		snprintf(buf, len, "L x instructions per access / ROB; ROB: %s", in->rob.source);
		break;
	case ENV_MISS_BUFFERS:
		snprintf(buf, len, "L x one missing line per access / M; M: %s", in->miss_buffers.source);
		break;
	default:
		snprintf(buf, len, "?");
	}
}

double envelope_loaded_latency(const struct env_inputs *in, double line_gbps)
{
	double lat;

	if (!in->nloaded || !positive(in->loaded_idle_ns) || !positive(in->t1.value) || !(line_gbps >= 0))
		return NAN;
	if (line_gbps > in->loaded_bw_gbps[in->nloaded - 1])
		return NAN;
	if (line_gbps <= in->loaded_bw_gbps[0]) {
		/* between idle (no traffic) and the lightest loaded point */
		double x0 = 0, y0 = in->loaded_idle_ns, x1 = in->loaded_bw_gbps[0], y1 = in->loaded_latency_ns[0];

		lat = x1 > x0 ? y0 + (y1 - y0) * (line_gbps - x0) / (x1 - x0) : y1;
	} else {
		size_t j = 1;

		while (j < in->nloaded && in->loaded_bw_gbps[j] < line_gbps)
			j++;
		double x0 = in->loaded_bw_gbps[j - 1], y0 = in->loaded_latency_ns[j - 1];
		double x1 = in->loaded_bw_gbps[j], y1 = in->loaded_latency_ns[j];

		lat = x1 > x0 ? y0 + (y1 - y0) * (line_gbps - x0) / (x1 - x0) : y1;
	}
	return in->t1.value * lat / in->loaded_idle_ns;
}

void envelope_at(const struct env_inputs *in, size_t i, struct env_point *p)
{
	double k = in->lanes[i], L = in->t1.value;

	memset(p, 0, sizeof(*p));
	p->k = k;
	p->measured_ns = in->measured_ns[i];
	p->ns[ENV_LATENCY] = L / k;
	if (in->issue.value > 0)
		p->ns[ENV_ISSUE] = in->insns_per_access[i] / in->issue.value;
	if (in->load_ports.value > 0 && in->clock_ghz.value > 0) {
		p->ns[ENV_LOAD_PORTS] = in->loads_per_access[i] / (in->load_ports.value * in->clock_ghz.value);
		p->ns[ENV_STORE_PORTS] = in->stores_per_access[i] / (in->store_ports.value * in->clock_ghz.value);
	}
	p->ns[ENV_CORE] = in->core_ns[i];
	if (in->read_core.value > 0)
		p->ns[ENV_BW_CORE] = in->line_bytes / in->read_core.value;
	if (in->read_memory.value > 0)
		p->ns[ENV_BW_MEMORY] = in->line_bytes / in->read_memory.value;
	if (in->load_queue.value > 0)
		p->ns[ENV_LOAD_QUEUE] = L * in->loads_per_access[i] / in->load_queue.value;
	if (in->rob.value > 0)
		p->ns[ENV_ROB] = L * in->insns_per_access[i] / in->rob.value;
	if (in->miss_buffers.value > 0)
		p->ns[ENV_MISS_BUFFERS] = L / in->miss_buffers.value;
	p->binding = p->next = -1;
	for (int t = 0; t < ENV_NTERMS; t++) {
		if (!positive(p->ns[t]))
			continue;
		if (p->binding < 0 || p->ns[t] > p->ns[p->binding]) {
			p->next = p->binding;
			p->binding = t;
		} else if (p->next < 0 || p->ns[t] > p->ns[p->next]) {
			p->next = t;
		}
	}
	p->margin = NAN;
	p->explained = NAN;
	p->loaded_latency_ns = positive(p->measured_ns)
		? envelope_loaded_latency(in, in->line_bytes / p->measured_ns) : NAN;
	if (p->binding < 0)
		return;
	p->envelope_ns = p->ns[p->binding];
	if (p->next >= 0)
		p->margin = p->ns[p->binding] / p->ns[p->next] - 1;
	for (int t = 0; t < ENV_NTERMS; t++)
		if (positive(p->ns[t]) && p->ns[t] >= p->envelope_ns * (1 - in->noise_floor_frac))
			p->tied_mask |= 1u << t;
	if (positive(p->measured_ns))
		p->explained = p->envelope_ns / p->measured_ns;
}
