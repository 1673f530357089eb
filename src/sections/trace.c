/*
 * The trace command: a bad --from or --latency is found before the trace is
 * read (a usage error before the work), the hit rates are given for the
 * caches this machine reports, and the request model's L comes from, in
 * order: --latency, the --from result's t(1) in core cycles (one
 * instruction record per cycle), or the textbook 200.
 */
#include "sections/trace.h"
#include "frame/registry.h"

#include "analyse/envelope.h"
#include "analyse/load.h"
#include "sections/qmodel.h"
#include "analyse/trace_analyse.h"
#include "util/atomic.h"
#include "util/jsonw.h"
#include "report/trace_out.h"
#include "util/inputfile.h"
#include "core/topo.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The lanes arm the bounds come from: "mlp" with a sweep, else its huge
 * then small arm (the arena the model's terms are most often read from). */
static const struct jsonr_value *mlp_arm(const struct jsonr_value *root, char *name, size_t len)
{
	static const char *const arms[] = {"huge", "small"};
	const struct jsonr_value *m = jsonr_get(root, "mlp");

	if (!m || m->type != JSONR_OBJECT)
		return NULL;
	if (jsonr_member(m, "sweep")) {
		snprintf(name, len, "mlp");
		return m;
	}
	for (size_t i = 0; i < sizeof(arms) / sizeof(arms[0]); i++)
		if (jsonr_member(m, arms[i])) {
			snprintf(name, len, "mlp.%s", arms[i]);
			return jsonr_member(m, arms[i]);
		}
	return NULL;
}

static int load_from(const char *path, struct jsonr_doc *doc, struct env_inputs *in, char *err, size_t errlen)
{
	const struct jsonr_value *arm;
	char name[16], what[256] = "";
	int rc = result_load(path, doc, err, errlen);

	if (rc)
		return result_load_usage_error(rc) ? 2 : 1;
	if (!(arm = mlp_arm(doc->root, name, sizeof(name)))) {
		snprintf(err, errlen, "%s: no mlp section with a sweep", path);
		return 2;
	}
	if (envelope_inputs_from(doc->root, arm, name, NULL, in, what, sizeof(what))) {
		snprintf(err, errlen, "%s: %s", path, what);
		return 2;
	}
	return 0;
}

/* L in ticks from a result: t(1) ns x the middle of the timed core-clock
 * range, in cycles; 0 when the file has no core clock. */
static double latency_cycles(const struct jsonr_value *root, const struct env_inputs *in)
{
	double lo, hi;

	if (!jsonr_get_number(root, "machine.core_clock_mhz.min", &lo) ||
	    !jsonr_get_number(root, "machine.core_clock_mhz.max", &hi) || !(lo > 0) || !(hi >= lo))
		return 0;
	return in->t1.value * (lo + hi) / 2 / 1000;
}

static int write_json(const struct trace_request *rq, struct atomic_file *a, const struct trace_result *r,
		      const struct env_inputs *in, char *err, size_t errlen)
{
	struct jsonw w;
	int rc;

	jsonw_init(&w, a->f);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	jsonw_int(&w, "schema_version", 1);
	trace_write_json(&w, rq->trace_path, r, rq->from_path, in);
	jsonw_object_end(&w);
	jsonw_finish(&w);
	if ((rc = atomic_commit(a))) {
		snprintf(err, errlen, "--json: writing '%s' failed: %s", rq->json_out, strerror(-rc));
		return 1;
	}
	return 0;
}

int trace_cmd_run_request(const struct trace_request *rq, FILE *out, char *err, size_t errlen)
{
	struct trace_params p = {.cache_bytes = rq->cache_bytes, .ncaches = rq->ncaches, .queue_cap = rq->queue_cap};
	struct trace_result *r = calloc(1, sizeof(*r));
	struct env_inputs *in = calloc(1, sizeof(*in));
	struct jsonr_doc doc = {0};
	struct atomic_file json = {0};
	char lsrc[160];
	bool have_from = false;
	FILE *f = NULL;
	char what[200];
	int rc;

	if (!r || !in) {
		snprintf(err, errlen, "out of memory");
		rc = 1;
		goto out;
	}
	/* --latency and --from first: a bad one is a usage error found before the work */
	if (rq->latency_text && qmodel_parse_ticks(rq->latency_text, &p.latency_ticks)) {
		snprintf(err, errlen, "--latency: '%s' is not a latency (expected a number of ticks > 0, e.g. 200)",
			 rq->latency_text);
		rc = 2;
		goto out;
	}
	p.latency_source = "--latency";
	if (rq->from_path) {
		if ((rc = load_from(rq->from_path, &doc, in, err, errlen)))
			goto out;
		have_from = true;
		if (!rq->latency_text && (p.latency_ticks = latency_cycles(doc.root, in)) > 0) {
			snprintf(lsrc, sizeof(lsrc), "t(1) %.1f ns x the middle of machine.core_clock_mhz, one instruction "
				 "record per cycle", in->t1.value);
			p.latency_source = lsrc;
		}
	}
	/* the output opens before the work, a bad path a usage error */
	if (rq->json_out && (rc = atomic_open(&json, rq->json_out))) {
		snprintf(err, errlen, "--json: cannot write '%s': %s (expected a writable file path)", rq->json_out,
			 atomic_strerror(rc));
		rc = 2;
		goto out;
	}
	/* The same opening as every reader: a FIFO or a directory is refused
	 * with its path, before anything blocks. */
	rc = inputfile_open(rq->trace_path, err, errlen);
	if (rc < 0) {
		rc = inputfile_usage_error(rc) ? 2 : 1;
		goto out;
	}
	if (!(f = fdopen(rc, "r"))) {
		snprintf(err, errlen, "%s: %s", rq->trace_path, strerror(errno));
		close(rc);
		rc = 1;
		goto out;
	}
	errno = 0;
	rc = trace_analyse(f, &p, r, what, sizeof(what));
	if (rc) {
		snprintf(err, errlen, "%s: %s", rq->trace_path, what);
		rc = rc == -EINVAL ? 2 : 1;
		goto out;
	}
	if (!r->instr && !r->loads && !r->stores && !r->modifies) {
		snprintf(err, errlen, "%s: no lackey records (%llu lines, %llu malformed): not a valgrind lackey trace",
			 rq->trace_path, (unsigned long long)r->lines, (unsigned long long)r->malformed);
		rc = 2;
		goto out;
	}
	trace_write_text(out, rq->trace_path, r);
	if (have_from && r->touches)
		trace_write_bounds(out, rq->from_path, r, in);
	rc = 0;
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "writing the trace report: %s", strerror(errno));
		rc = 1;
		goto out;
	}
	if (rq->json_out)
		rc = write_json(rq, &json, r, have_from && r->touches ? in : NULL, err, errlen);
out:
	atomic_abort(&json);
	if (f)
		fclose(f);
	jsonr_free(&doc);
	free(in);
	free(r);
	return rc;
}

int trace_cmd_run_caches(const char *trace_path, const char *json_path_or_NULL, const uint64_t *cache_bytes,
			 size_t ncaches, FILE *out, char *err, size_t errlen)
{
	struct trace_request rq = {
		.trace_path = trace_path, .from_path = json_path_or_NULL, .cache_bytes = cache_bytes, .ncaches = ncaches,
	};

	return trace_cmd_run_request(&rq, out, err, errlen);
}

int trace_cmd_run(const char *trace_path, const char *json_path_or_NULL, FILE *out, char *err, size_t errlen)
{
	return trace_cmd_run_caches(trace_path, json_path_or_NULL, NULL, 0, out, err, errlen);
}

/* What the trace's timing model and the --from comparison read. */
static const struct option_spec trace_latency_opt = {
	.name = "latency", .arg = "TICKS", .kind = OPTION_STRING, .deflt = "the --from result's t(1) in cycles, else 200",
	.help = "each request outstanding this long",
};
static const struct option_spec trace_queue_opt = {
	.name = "queue", .arg = "Q", .kind = OPTION_UINT, .lo = 1, .hi = 1000000, .deflt = "unlimited",
	.help = "the characteriser's capacity, arming its overflow",
};
static const struct option_spec trace_from_opt = {
	.name = "from", .arg = "FILE", .kind = OPTION_STRING,
	.help = "take L, Q and B from this mlpscope JSON result",
};

static const struct option_spec *const trace_options[] = {&trace_latency_opt, &trace_queue_opt, &trace_from_opt, NULL};

int cmd_trace(const struct options *o, char *err, size_t errlen)
{
	struct topo t;
	uint64_t caches[TOPO_MAX_CACHES];
	size_t n = 0;
	struct trace_request rq = {
		.trace_path = o->paths[0], .from_path = option_text(o, &trace_from_opt), .json_out = o->json_path,
		.latency_text = option_text(o, &trace_latency_opt), .queue_cap = option_number(o, &trace_queue_opt),
	};

	/* The hit rates a trace would see in the caches this machine reports. */
	topo_read(&t);
	for (int i = 0; i < t.ncaches; i++)
		if (strcmp(t.caches[i].type, "Instruction") && t.caches[i].size_bytes)
			caches[n++] = t.caches[i].size_bytes;
	rq.cache_bytes = n ? caches : NULL;
	rq.ncaches = n;
	/* --json -: the JSON is stdout, the text goes nowhere. */
	return trace_cmd_run_request(&rq, atomic_is_stdout(o->json_path) ? atomic_discard_stream() : stdout, err, errlen);
}

static const char trace_help[] =
	"mlpscope trace FILE [--from run.json] [--latency TICKS] [--queue Q] [--json FILE]:\n"
	"reads a trace written by\n"
	"  valgrind --tool=lackey --trace-mem=yes --log-file=FILE prog\n"
	"and reports its footprint, line-level reuse distances (and so the hit rate an\n"
	"LRU cache of each size this machine reports would give), stride regularity,\n"
	"the read/write mix and useful bytes per line delivered, and again with the\n"
	"lines a next-line prefetcher of degree 1, 2 and 4 would fetch and nobody use\n"
	"counted as delivered (a stated model). Line requests (one\n"
	"per change of line) run through a stated timing model: one tick per\n"
	"instruction record, each request outstanding L ticks (--latency; else the\n"
	"--from result's t(1) in core cycles; else 200), dependences ignored; it\n"
	"reports mean and peak outstanding, bytes delivered and used, and the\n"
	"characteriser's four flags and 13 properties (P1..P13), each property with\n"
	"how often its antecedent held. The model emits events in time order and\n"
	"completes only what it issued, so time_backwards and used_exceeds cannot fire\n"
	"here, and without a capacity neither can overflow or completion_idle: each\n"
	"says so. --queue Q gives the characteriser a capacity of Q; the model never\n"
	"stalls, so a request rate needing more than Q in flight at L raises overflow\n"
	"(and its dropped requests' completions, completion_idle). With --from, the\n"
	"time of its misses M: all dependent M x L, M x L / C at the model's mean\n"
	"outstanding C (a prediction), and a lower bound from terms measured apart\n"
	"from the lanes sweep: window's load queue, the bandwidth section's reads.\n"
	"--json - writes the JSON alone to stdout. Malformed lines are counted and the\n"
	"first few reported with their line numbers; never fatal. See docs/MODEL.md.\n";

const struct section section_trace = {
	.name = "trace",
	.options = trace_options,
	.summary = "characterise a program's memory trace (valgrind lackey format)",
	.help = trace_help, .kind = SECTION_FILE_COMMAND, .outputs = SECTION_OUT_JSON,
	.operands = SECTION_ARGS_ONE, .operand_name = "trace file",
	.usage = "mlpscope trace FILE [--from run.json] [--latency TICKS] [--queue Q] [--json FILE]",
	.command = cmd_trace,
};
