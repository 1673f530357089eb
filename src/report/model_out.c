/*
 * Writer for the model command. The words matter as much as the numbers:
 * Ks and the plateau are a saturation of this kernel's throughput on this
 * machine, never "the queue size"; each resource that could set it is listed
 * with the evidence for or against it, and where no measurement here can
 * decide, the text names the measurement that would. A candidate accounts
 * for the plateau when its term reaches the measured time within the floor;
 * it is ruled out when its term is under half of it.
 */
#include "report/model_out.h"

#include <math.h>
#include <string.h>

static bool known(double v)
{
	return isfinite(v) && v > 0;
}

size_t model_plateau_index(const struct env_inputs *in)
{
	/* The last point: deepest into the plateau, where the lanes' own
	 * latency explains least (at the knee L/K still nearly does). */
	return in->npoints ? in->npoints - 1 : 0;
}

static void binding_names(const struct env_point *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	if (p->binding < 0) {
		snprintf(buf, len, "none known");
		return;
	}
	for (int t = 0; t < ENV_NTERMS && used < len; t++)
		if (p->tied_mask & (1u << t))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "",
						 envelope_term_name((enum env_term)t));
}

/* for / against / partial, in words, for a term at the plateau. */
static const char *judge(double term_ns, double measured_ns, double floor_frac)
{
	if (!known(term_ns))
		return "undecided";
	if (term_ns >= measured_ns * (1 - floor_frac))
		return "for";
	if (term_ns < 0.5 * measured_ns)
		return "against";
	return "partial";
}

struct candidate {
	const char *name;
	enum env_term term;
	const char *what;
};

static const struct candidate candidates[] = {
	{"dependency (L/K)", ENV_LATENCY, "the lanes' own latency: more lanes would still help"},
	{"core issue (u/P)", ENV_ISSUE, "the instructions of each access at the best rate measured"},
	{"load ports", ENV_LOAD_PORTS, "loads of each access at the L1D's loads per cycle"},
	{"store ports", ENV_STORE_PORTS, "stores of each access (spills) at the L1D's stores per cycle"},
	{"core work, L1-resident", ENV_CORE, "this kernel with every load a hit"},
	{"bandwidth, one core", ENV_BW_CORE, "lines this core streamed in the bandwidth section"},
	{"bandwidth, memory system", ENV_BW_MEMORY, "lines the memory system delivered to all threads"},
	{"load queue", ENV_LOAD_QUEUE, "entries held about L by each load (chase and stack reloads)"},
	{"reorder buffer", ENV_ROB, "entries held about L by each instruction of an access"},
	{"L1D miss buffers", ENV_MISS_BUFFERS, "one buffer held about L by each access's missing line"},
};

/* One paragraph, wrapped at width columns after indent. */
static void write_wrapped(FILE *out, const char *text, const char *indent, size_t width)
{
	size_t col = 0;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col && col + 1 + n > width) {
			fputc('\n', out);
			col = 0;
		}
		if (!col)
			col = (size_t)fprintf(out, "%s", indent);
		else
			col += (size_t)fprintf(out, " ");
		col += fwrite(text, 1, n, out);
		text += n;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

/* The conclusion at the plateau, in words, one clause per line. */
static void conclude(const struct env_inputs *in, const struct env_point *p, char *buf, size_t len)
{
	double t = p->measured_ns, frac = in->noise_floor_frac;
	double bw = fmax(known(p->ns[ENV_BW_CORE]) ? p->ns[ENV_BW_CORE] : 0,
			 known(p->ns[ENV_BW_MEMORY]) ? p->ns[ENV_BW_MEMORY] : 0);
	size_t used = 0;
	int best = -1;

#define SAY(...) (used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__))
	buf[0] = 0;
	for (int term = ENV_ISSUE; term < ENV_NTERMS; term++)
		if (known(p->ns[term]) && (best < 0 || p->ns[term] > p->ns[best]))
			best = term;
	if (best >= 0 && p->ns[best] >= t * (1 - frac)) {
		SAY("The envelope reaches the measured time: %s accounts for the plateau (within the floor).",
		    envelope_term_name((enum env_term)best));
		return;
	}
	if (best >= 0)
		SAY("No measured resource accounts for the plateau: the largest independent term (%s) is %.0f%% of "
		    "the measured time.\n", envelope_term_name((enum env_term)best), 100 * p->ns[best] / t);
	if (bw > 0 && bw < 0.5 * t)
		SAY("Not bandwidth: the bandwidth section moved %.1fx the lines per second this K moved.\n", t / bw);
	else if (bw > 0)
		SAY("Bandwidth is not ruled out: its term is %.0f%% of the measured time.\n", 100 * bw / t);
	else
		SAY("Bandwidth is undecided: the bandwidth section (in the full report) would decide.\n");
	/* A level's peak is one point of its own sweep: it clears the main
	 * sweep's count only by the wider of the two floors. */
	double cfrac = fmax(frac, in->cache_peak_floor_frac);

	if (known(p->loaded_latency_ns)) {
		double n = p->loaded_latency_ns / t, rise = p->loaded_latency_ns / in->t1.value - 1;

		if (n < p->k * (1 - 2 * frac) && rise < 0.25) {
			SAY("Not queueing downstream: at this traffic the memory system's latency is %.0f%% above idle, "
			    "so by Little's law %.1f of the K = %.0f lanes had a request in flight; the rest waited in "
			    "the core.\n", 100 * rise, n, p->k);
			/* mlp.levels gives t(1)/t(K) at a cache level, not a count
			 * of outstanding misses: its t(1) carries translation and
			 * work the lanes overlap, so it may rule no structure out.
			 * Only a figure that measures a structure may. */
			if (known(p->ns[ENV_MISS_BUFFERS]))
				SAY("What is left is a cap of about %.0f requests in flight, and not the L1D miss buffers: "
				    "window measured %.0f of them (its miss filler), more than were in flight. The L2's queue "
				    "of misses%s or a limit beyond it caps this: PMU counts of outstanding L2 misses would "
				    "name it.", n, in->miss_buffers.value,
				    known(p->ns[ENV_LOAD_QUEUE]) ? "" : ", the load queue");
			else if (in->cache_peak_concurrency > n * (1 + 2 * cfrac))
				SAY("What is left is a cap of about %.0f requests in flight, set in the core or past it. "
				    "With its working set in the %s the same kernel reached t(1)/t(K) = %.1f (mlp.levels), "
				    "but that ratio is not a count of outstanding misses (its t(1) carries latency the "
				    "lanes overlap, translation among it), so it cannot tell whether the L1D miss "
				    "buffers%s, the L2's queue of misses or a limit beyond it caps this: no section here "
				    "measures them; PMU counts of outstanding L1D and L2 misses would name it.", n,
				    in->cache_peak_level, in->cache_peak_concurrency,
				    known(p->ns[ENV_LOAD_QUEUE]) ? "" : ", the load queue");
			else if (in->cache_peak_concurrency > n * 0.85)
				SAY("What is left is a cap of about %.0f requests in flight, and t(1)/t(K) is about the "
				    "same whatever the latency: with the working set in the %s (t(1) %.1f ns against %.1f) "
				    "the same kernel reached %.1f (mlp.levels). That is what a cap in the L1D's miss "
				    "buffers would give, but the ratio is not a count of outstanding misses, so it cannot "
				    "tell: PMU counts of outstanding L1D misses would.", n, in->cache_peak_level,
				    in->cache_peak_t1_ns, in->t1.value, in->cache_peak_concurrency);
			else
				SAY("What is left is a cap of about %.0f requests in flight. Which structure holds it "
				    "(L1D miss buffers, the L2's miss queue%s) no section here measures: PMU counts of "
				    "outstanding L1D and L2 misses would name it.", n,
				    known(p->ns[ENV_LOAD_QUEUE]) ? "" : ", or the load queue until window's figure is given");
		} else {
			SAY("About K requests were in flight (%.1f by Little's law), each %.0f%% slower than idle: "
			    "queueing downstream of the core sets the plateau.", n, 100 * rise);
		}
	} else {
		SAY("Whether fewer than K requests were in flight (a cap in the core) or all were, each slower "
		    "(queueing beyond it), is undecided: the loaded section (in the full report) reaching %.2f GB/s, "
		    "or a probe chain timed inside the K-lane run, would decide.", in->line_bytes / t);
		if (in->cache_peak_concurrency > in->plateau_concurrency * (1 + 2 * cfrac))
			SAY("\nWith its working set in the %s the same kernel reached t(1)/t(K) = %.1f (mlp.levels); "
			    "that ratio is not a count of outstanding misses, so it cannot say which structure caps "
			    "this one.", in->cache_peak_level, in->cache_peak_concurrency);
	}
#undef SAY
}

static void write_plateau(FILE *out, const struct env_inputs *in)
{
	size_t ip = model_plateau_index(in);
	struct env_point p;
	double t = in->measured_ns[ip], frac = in->noise_floor_frac;
	char src[2 * ENV_SOURCE_LEN], words[1024], unc[32] = "";

	envelope_at(in, ip, &p);
	/* A stored result may carry no floor (null): no +/- is known then. */
	if (isfinite(in->ks_uncertainty))
		snprintf(unc, sizeof(unc), " +/- %.1f", in->ks_uncertainty);
	fprintf(out, "\n  What sets the plateau. Ks = %.1f%s lanes and a plateau of %.1f accesses in flight\n"
		"  (t(1)/t(K)) are a saturation of this kernel's throughput (lanes_K, %.2f instructions and %.2f\n"
		"  loads per access at K = %.0f) on this machine: a knee is not a queue capacity, and several\n"
		"  resources could set it. At K = %.0f, the last point (%.2f ns per access measured), each candidate:\n",
		in->ks, unc, in->plateau_concurrency, in->insns_per_access[ip],
		in->loads_per_access[ip], p.k, p.k, t);
	for (size_t c = 0; c < sizeof(candidates) / sizeof(candidates[0]); c++) {
		enum env_term term = candidates[c].term;
		const char *j = judge(p.ns[term], t, frac);

		if (known(p.ns[term]))
			fprintf(out, "    %-26s %-9s %7.3f ns = %5.1f%% of the measured time (%s)\n", candidates[c].name,
				j, p.ns[term], 100 * p.ns[term] / t, candidates[c].what);
		else {
			envelope_term_source(in, term, src, sizeof(src));
			fprintf(out, "    %-26s %-9s %s\n", candidates[c].name, j, src);
		}
	}
	if (in->huge_pct >= 90)
		fprintf(out, "    %-26s %-9s %.0f%% of the arena in huge pages: few page walks\n",
			"translation (TLB, walks)", "against", in->huge_pct);
	else if (in->huge_pct >= 0)
		fprintf(out, "    %-26s %-9s only %.0f%% in huge pages: page walks share the miss machinery "
			"(compare mlp --pages both)\n", "translation (TLB, walks)", "possible", in->huge_pct);
	if (known(p.ns[ENV_MISS_BUFFERS]))
		fprintf(out, "    %-26s %-9s no section measures it (no PMU count of outstanding L2 misses here)\n",
			"L2 miss tracking", "unmeasured");
	else
		fprintf(out, "    %-26s %-9s no section in this file measures them (`window --fillers miss` measures "
			"the L1D's)\n", "L1D/L2 miss tracking", "unmeasured");
	if (known(p.loaded_latency_ns))
		fprintf(out, "    loaded latency at this K's %.2f GB/s of lines: %.1f ns (t(1) x the loaded section's "
			"rise);\n    Little's law: %.1f in flight (t_loaded/t(K)) against K = %.0f lanes and t(1)/t(K) = "
			"%.1f.\n", in->line_bytes / t, p.loaded_latency_ns, p.loaded_latency_ns / t, p.k,
			in->measured_ns[0] / t);
	else
		fprintf(out, "    loaded latency: unknown (no loaded curve in this file reaches %.2f GB/s)\n",
			in->line_bytes / t);
	conclude(in, &p, words, sizeof(words));
	fprintf(out, "  Verdict:\n");
	for (char *line = strtok(words, "\n"); line; line = strtok(NULL, "\n"))
		write_wrapped(out, line, "    ", 100);
}

void model_write_text(FILE *out, const struct env_inputs *in)
{
	static const char *const head[ENV_NTERMS] = {"L/K", "u/P", "ld_port", "st_port", "core",
						     "bw_core", "bw_mem", "load_q", "rob",
						     "miss_buf"};
	char src[2 * ENV_SOURCE_LEN];

	fprintf(out, "\n%s: the envelope t(K) >= max(terms), ns per access, each term from its own evidence\n",
		in->section);
	for (int t = 0; t < ENV_NTERMS; t++) {
		envelope_term_source(in, (enum env_term)t, src, sizeof(src));
		fprintf(out, "  %-16s %s\n", envelope_term_name((enum env_term)t), src);
	}
	fprintf(out, "  B is never this sweep's own best rate: that term would be the best time seen and tie with\n"
		"  any explanation. Terms within the floor (%.1f%%) of the largest are named together; margin is\n"
		"  binding / next - 1. t_loaded: t(1) scaled by the loaded section's latency rise at this K's\n"
		"  line rate; by Little's law t_loaded/t(K) were in flight, beside t(1)/t(K).\n",
		100 * in->noise_floor_frac);
	fprintf(out, "  %4s %9s", "K", "measured");
	for (int t = 0; t < ENV_NTERMS; t++)
		fprintf(out, " %8s", head[t]);
	fprintf(out, " %8s %7s %8s %6s %6s  %s\n", "env/meas", "margin", "t_loaded", "tL/tK", "t1/tK", "binding");
	for (size_t i = 0; i < in->npoints; i++) {
		struct env_point p;
		char names[96];

		envelope_at(in, i, &p);
		binding_names(&p, names, sizeof(names));
		fprintf(out, "  %4.0f %9.3f", p.k, p.measured_ns);
		for (int t = 0; t < ENV_NTERMS; t++)
			if (known(p.ns[t]))
				fprintf(out, " %8.3f", p.ns[t]);
			else
				fprintf(out, " %8s", "-");
		fprintf(out, " %8.3f", p.explained);
		if (isfinite(p.margin))
			fprintf(out, " %6.0f%%", 100 * p.margin);
		else
			fprintf(out, " %7s", "-");
		if (known(p.loaded_latency_ns))
			fprintf(out, " %8.1f %6.1f", p.loaded_latency_ns, p.loaded_latency_ns / p.measured_ns);
		else
			fprintf(out, " %8s %6s", "-", "-");
		fprintf(out, " %6.1f  %s\n", in->measured_ns[0] / p.measured_ns, names);
	}
	write_plateau(out, in);
}

/* One point of one arm, as an entry (or entries) of a per-point array of
 * the model object. */
typedef void (*point_json_fn)(struct jsonw *w, const struct env_inputs *arm, const struct env_point *p);

/* The array under key: what write puts there for every point of every
 * arm, in order. */
static void write_point_array(struct jsonw *w, const char *key, const struct env_inputs *in, size_t n,
			      point_json_fn write)
{
	jsonw_array_begin(w, key);
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < in[s].npoints; i++) {
			struct env_point p;

			envelope_at(&in[s], i, &p);
			write(w, &in[s], &p);
		}
	jsonw_array_end(w);
}

static void write_terms_json(struct jsonw *w, const struct env_inputs *arm, const struct env_point *p)
{
	char src[2 * ENV_SOURCE_LEN];

	for (int t = 0; t < ENV_NTERMS; t++) {
		jsonw_object_begin(w, NULL);
		jsonw_string(w, "section", arm->section);
		jsonw_double(w, "k", p->k);
		jsonw_string(w, "name", envelope_term_name((enum env_term)t));
		jsonw_double_or_null(w, "ns", known(p->ns[t]), p->ns[t]);
		envelope_term_source(arm, (enum env_term)t, src, sizeof(src));
		jsonw_string(w, "source", src);
		jsonw_object_end(w);
	}
}

static void write_binding_json(struct jsonw *w, const struct env_inputs *arm, const struct env_point *p)
{
	char names[96];

	binding_names(p, names, sizeof(names));
	jsonw_object_begin(w, NULL);
	jsonw_string(w, "section", arm->section);
	jsonw_double(w, "k", p->k);
	jsonw_string_or_null(w, "term", p->binding >= 0, envelope_term_name((enum env_term)p->binding));
	jsonw_string(w, "tied", names);
	jsonw_string_or_null(w, "next", p->next >= 0, envelope_term_name((enum env_term)p->next));
	jsonw_double(w, "margin", p->margin);
	jsonw_double(w, "measured_ns", p->measured_ns);
	jsonw_double(w, "envelope_ns", p->envelope_ns);
	jsonw_double(w, "envelope_over_measured", p->explained);
	jsonw_object_end(w);
}

/* Only the points the loaded section's curve reaches. */
static void write_loaded_json(struct jsonw *w, const struct env_inputs *arm, const struct env_point *p)
{
	if (!known(p->loaded_latency_ns))
		return;
	jsonw_object_begin(w, NULL);
	jsonw_string(w, "section", arm->section);
	jsonw_double(w, "k", p->k);
	jsonw_double(w, "latency_ns", p->loaded_latency_ns);
	jsonw_double(w, "littles_concurrency", p->loaded_latency_ns / p->measured_ns);
	jsonw_double(w, "t1_concurrency", arm->measured_ns[0] / p->measured_ns);
	jsonw_string(w, "source", "t(1) x loaded.curve latency / loaded.idle_latency_ns at this K's line "
		     "rate, interpolated: the shared memory system's latency at this traffic");
	jsonw_object_end(w);
}

/* The keys of each run's inputs, in order: each figure beside the source
 * it was read from. */
static const struct jsonw_field env_input_fields[] = {
	JSONW_FIELD(TEXT, "section", struct env_inputs, section),
	JSONW_FIELD(DOUBLE, "t1_ns", struct env_inputs, t1.value),
	JSONW_FIELD(TEXT, "t1_source", struct env_inputs, t1.source),
	JSONW_FIELD(DOUBLE, "issue_per_ns", struct env_inputs, issue.value),
	JSONW_FIELD(TEXT, "issue_source", struct env_inputs, issue.source),
	JSONW_FIELD(TEXT, "count_source", struct env_inputs, count_source),
	JSONW_FIELD(DOUBLE, "load_ports_per_cycle", struct env_inputs, load_ports.value),
	JSONW_FIELD(TEXT, "load_ports_source", struct env_inputs, load_ports.source),
	JSONW_FIELD(DOUBLE, "store_ports_per_cycle", struct env_inputs, store_ports.value),
	JSONW_FIELD(TEXT, "store_ports_source", struct env_inputs, store_ports.source),
	JSONW_FIELD(DOUBLE, "core_clock_ghz", struct env_inputs, clock_ghz.value),
	JSONW_FIELD(TEXT, "core_clock_source", struct env_inputs, clock_ghz.source),
	JSONW_FIELD(DOUBLE, "read_core_gbps", struct env_inputs, read_core.value),
	JSONW_FIELD(TEXT, "read_core_source", struct env_inputs, read_core.source),
	JSONW_FIELD(DOUBLE, "read_memory_gbps", struct env_inputs, read_memory.value),
	JSONW_FIELD(TEXT, "read_memory_source", struct env_inputs, read_memory.source),
	JSONW_FIELD(DOUBLE, "load_queue_entries", struct env_inputs, load_queue.value),
	JSONW_FIELD(TEXT, "load_queue_source", struct env_inputs, load_queue.source),
	JSONW_FIELD(DOUBLE, "rob_entries", struct env_inputs, rob.value),
	JSONW_FIELD(TEXT, "rob_source", struct env_inputs, rob.source),
	JSONW_FIELD(DOUBLE, "miss_buffers_entries", struct env_inputs, miss_buffers.value),
	JSONW_FIELD(TEXT, "miss_buffers_source", struct env_inputs, miss_buffers.source),
	JSONW_FIELD(DOUBLE, "line_bytes", struct env_inputs, line_bytes),
};

static void input_members(struct jsonw *w, const void *e)
{
	const struct env_inputs *in = e;

	JSONW_FIELDS(w, in, env_input_fields);
	jsonw_double(w, "noise_floor_pct", 100 * in->noise_floor_frac);
}

void model_write_json(struct jsonw *w, const char *from_path, const struct env_inputs *in, size_t n)
{
	jsonw_object_begin(w, "model");
	jsonw_string(w, "from", from_path);
	jsonw_string(w, "envelope", "t(K) >= max(L/K, u/P, m/(ld ports x f), s/(st ports x f), core, line/B1, line/Bmax, "
		     "L m/Q_lq, L u/ROB, L/M), ns per access");
	JSONW_OBJECT_ARRAY_EACH(w, "inputs", in, n, input_members);
	write_point_array(w, "terms", in, n, write_terms_json);
	write_point_array(w, "binding", in, n, write_binding_json);
	write_point_array(w, "loaded_latency", in, n, write_loaded_json);
	jsonw_array_begin(w, "plateau");
	for (size_t s = 0; s < n; s++) {
		size_t ip = model_plateau_index(&in[s]);
		struct env_point p;

		envelope_at(&in[s], ip, &p);
		jsonw_object_begin(w, NULL);
		jsonw_string(w, "section", in[s].section);
		jsonw_string(w, "what", "a saturation of this kernel's throughput on this machine, not a queue capacity");
		jsonw_double(w, "at_lanes", p.k);
		jsonw_double(w, "measured_ns", p.measured_ns);
		jsonw_array_begin(w, "candidates");
		for (size_t c = 0; c < sizeof(candidates) / sizeof(candidates[0]); c++) {
			enum env_term t = candidates[c].term;

			jsonw_object_begin(w, NULL);
			jsonw_string(w, "term", envelope_term_name(t));
			jsonw_string(w, "evidence", judge(p.ns[t], p.measured_ns, in[s].noise_floor_frac));
			jsonw_double_or_null(w, "fraction_of_measured", known(p.ns[t]), p.ns[t] / p.measured_ns);
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		jsonw_string(w, "unmeasured", known(p.ns[ENV_MISS_BUFFERS])
			     ? "L2 miss tracking and queueing beyond the core: decided by PMU counts of outstanding L2 "
			       "misses or a probe chain timed inside the K-lane run"
			     : "L1D/L2 miss tracking and queueing beyond the core: decided by window --fillers miss (the "
			       "L1D's), PMU counts of outstanding misses or a probe chain timed inside the K-lane run");
		char words[1024];

		conclude(&in[s], &p, words, sizeof(words));
		jsonw_string(w, "conclusion", words);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
}
