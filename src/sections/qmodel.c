/*
 * The qmodel command. Every option is checked before anything runs; the
 * textbook figures are the defaults, so `mlpscope qmodel` alone shows them.
 * The bound's ticks and the simulation's makespan are printed side by side:
 * the simulation is exact, the bound is what `model` and `trace` use.
 */
#include "sections/qmodel.h"
#include "frame/registry.h"

#include "analyse/qmodel.h"
#include "analyse/qmodel_dram.h"
#include "report/qmodel_out.h"
#include "util/atomic.h"
#include "util/jsonw.h"
#include "util/usage.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TEXTBOOK_LATENCY 200
#define TEXTBOOK_REQUESTS 64
#define REQUESTS_MAX 100000000ull

/* A finite number > 0 (>= 0 when zero_ok), whole string. */
static int parse_real(const char *s, bool zero_ok, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0 || (!zero_ok && v == 0))
		return -EINVAL;
	*out = v;
	return 0;
}

int qmodel_parse_ticks(const char *s, double *out)
{
	return parse_real(s, false, out);
}

static int parse_lanes(const char *s, struct qmodel_cmd_args *a)
{
	const char *p = s;

	a->nlanes = 0;
	for (;;) {
		char *end;
		unsigned long long v;

		if (*p < '0' || *p > '9' || a->nlanes == QMODEL_CMD_MAX_LANES)
			return -EINVAL;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno || !v || v > REQUESTS_MAX)
			return -EINVAL;
		a->lanes[a->nlanes++] = v;
		if (!*end)
			return 0;
		if (*end != ',')
			return -EINVAL;
		p = end + 1;
	}
}

/* The model's inputs; each left out is the textbook case's. */
static const struct option_spec qmodel_latency_opt = {
	.name = "latency", .arg = "TICKS", .kind = OPTION_STRING, .deflt = "200",
	.help = "each request outstanding this long",
};
static const struct option_spec qmodel_chains_opt = {
	.name = "chains", .arg = "LIST", .kind = OPTION_STRING, .deflt = "1,8,16",
	.help = "dependent chains K to simulate",
};
static const struct option_spec qmodel_requests_opt = {
	.name = "requests", .arg = "N", .kind = OPTION_U64, .lo = 1, .hi = 100000000, .value = TEXTBOOK_REQUESTS,
	.deflt = "64", .help = "requests in all, 1..1e8",
};
static const struct option_spec qmodel_queue_opt = {
	.name = "queue", .arg = "Q", .kind = OPTION_UINT, .lo = 1, .hi = 1000000, .deflt = "unlimited",
	.help = "at most Q outstanding",
};
static const struct option_spec qmodel_bytes_per_tick_opt = {
	.name = "bytes-per-tick", .arg = "B", .kind = OPTION_STRING, .deflt = "unlimited", .help = "data path rate",
};
static const struct option_spec qmodel_versus_opt = {
	.name = "chase-vs-stream", .kind = OPTION_FLAG,
	.help = "also the same reads as one dependent chain and as a stream, strides and reads/writes beside",
};

static const struct option_spec qmodel_dram_map_opt = {
	.name = "dram-map", .arg = "MAP", .kind = OPTION_STRING, .deflt = "none",
	.help = "row hits and bank spread through this DRAM map, e.g. ch=2,rank=1,bank=16,row=8K,interleave=line",
};

static const struct option_spec *const qmodel_options[] = {
	&qmodel_latency_opt, &qmodel_chains_opt, &qmodel_requests_opt, &qmodel_queue_opt, &qmodel_bytes_per_tick_opt,
	&qmodel_versus_opt, &qmodel_dram_map_opt, NULL,
};

int qmodel_cmd_parse(const struct options *o, struct qmodel_cmd_args *a, char *err, size_t errlen)
{
	const char *latency = option_text(o, &qmodel_latency_opt), *chains = option_text(o, &qmodel_chains_opt);
	const char *bytes_per_tick = option_text(o, &qmodel_bytes_per_tick_opt);
	const char *dram_map = option_text(o, &qmodel_dram_map_opt);

	memset(a, 0, sizeof(*a));
	a->latency = TEXTBOOK_LATENCY;
	a->requests = option_number(o, &qmodel_requests_opt);
	a->queue_cap = option_number(o, &qmodel_queue_opt);
	a->request_bytes = 64;
	a->chase_vs_stream = option_flag(o, &qmodel_versus_opt);
	a->json_out = o->json_path;
	a->lanes[0] = 1;
	a->lanes[1] = 8;
	a->lanes[2] = 16;
	a->nlanes = 3;
	if (latency && qmodel_parse_ticks(latency, &a->latency))
		return usage_fail(err, errlen, "--latency: '%s' is not a latency (expected a number of ticks > 0, "
				  "e.g. 200)", latency);
	if (bytes_per_tick && parse_real(bytes_per_tick, true, &a->bytes_per_tick))
		return usage_fail(err, errlen, "--bytes-per-tick: '%s' is not a rate (expected a number >= 0, "
				  "0 for unlimited, e.g. 3.2)", bytes_per_tick);
	if (dram_map && (dram_map_parse(dram_map, &a->dram) || dram_map_check(&a->dram, a->request_bytes)))
		return usage_fail(err, errlen, "--dram-map: '%s' is not a DRAM map (expected %s; at most %u banks in "
				  "all, the row a multiple of the %llu-byte line)", dram_map, DRAM_MAP_FORM,
				  DRAM_MAX_BANKS, (unsigned long long)a->request_bytes);
	a->has_dram = dram_map != NULL;
	if (chains && parse_lanes(chains, a))
		return usage_fail(err, errlen, "--chains: '%s' is not a list of chain counts (expected up to %d "
				  "integers 1..%llu separated by commas, e.g. 1,8,16)", chains,
				  QMODEL_CMD_MAX_LANES, REQUESTS_MAX);
	return 0;
}

_Static_assert(QMODEL_CMD_MAX_LANES + 1 <= QMODEL_OUT_MAX_ROWS, "a row per chain count and the stream");

/* Every row (each K, then the stream) and, when asked, the comparison. */
static int qmodel_simulate(const struct qmodel_cmd_args *a, struct qmodel_table *t)
{
	struct qmodel_workload stream = {.feed = QMODEL_FEED_STREAM, .requests = a->requests};
	int rc;

	memset(t, 0, sizeof(*t));
	t->m = (struct qmodel_memory){
		.latency = a->latency, .queue_cap = a->queue_cap, .bytes_per_tick = a->bytes_per_tick,
		.request_bytes = a->request_bytes,
	};
	t->requests = a->requests;
	for (size_t i = 0; i < a->nlanes; i++) {
		struct qmodel_workload chains = {.feed = QMODEL_FEED_CHAINS, .chains = a->lanes[i], .requests = a->requests};
		struct qmodel_row *r = &t->rows[t->nrows++];

		if ((rc = qmodel_run(&t->m, &chains, &r->r)))
			return rc;
		r->chains = a->lanes[i];
		qmodel_bound_at(&t->m, (double)a->lanes[i], 0, &r->b);
		if (a->has_dram && (rc = qmodel_dram_at(&a->dram, &t->m, &chains, &r->dram)))
			return rc;
	}
	if ((rc = qmodel_run(&t->m, &stream, &t->rows[t->nrows].r)))
		return rc;
	if (a->has_dram && (rc = qmodel_dram_at(&a->dram, &t->m, &stream, &t->rows[t->nrows].dram)))
		return rc;
	qmodel_bound_at(&t->m, 0, 0, &t->rows[t->nrows++].b);
	t->has_dram = a->has_dram;
	t->map = a->dram;
	if (a->has_dram && (rc = dram_two_streams(&a->dram, a->request_bytes, a->requests, &t->two)))
		return rc;
	t->versus = a->chase_vs_stream;
	return t->versus ? qmodel_compare_chase_stream(&t->m, a->requests, &t->cmp) : 0;
}

static int write_json(struct atomic_file *f, const char *path, const struct qmodel_table *t, char *err,
		      size_t errlen)
{
	struct jsonw w;
	int rc;

	jsonw_init(&w, f->f);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	jsonw_int(&w, "schema_version", 1);
	qmodel_write_json(&w, t);
	jsonw_object_end(&w);
	jsonw_finish(&w);
	if ((rc = atomic_commit(f))) {
		snprintf(err, errlen, "--json: writing '%s' failed: %s", path, atomic_strerror(rc));
		return 1;
	}
	return 0;
}

int qmodel_cmd_run(const struct qmodel_cmd_args *a, FILE *out, char *err, size_t errlen)
{
	struct qmodel_table *t = malloc(sizeof(*t));
	struct atomic_file json = {0};
	int rc;

	if (!t) {
		snprintf(err, errlen, "qmodel: out of memory");
		return 1;
	}
	/* the output opens before the work, a bad path a usage error */
	if (a->json_out && (rc = atomic_open(&json, a->json_out))) {
		snprintf(err, errlen, "--json: cannot write '%s': %s (expected a writable file path)", a->json_out,
			 atomic_strerror(rc));
		free(t);
		return 2;
	}
	if ((rc = qmodel_simulate(a, t))) {
		snprintf(err, errlen, "qmodel: %s", strerror(-rc));
		rc = 1;
		goto out;
	}
	qmodel_write_text(out, t);
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "writing the queue model: %s", strerror(errno));
		rc = 1;
		goto out;
	}
	rc = a->json_out ? write_json(&json, a->json_out, t, err, errlen) : 0;
out:
	atomic_abort(&json);
	free(t);
	return rc;
}

int cmd_qmodel(const struct options *o, char *err, size_t errlen)
{
	struct qmodel_cmd_args a;
	int rc = qmodel_cmd_parse(o, &a, err, errlen);

	/* --json -: the JSON is stdout, the text goes nowhere. */
	return rc ? rc : qmodel_cmd_run(&a, atomic_is_stdout(a.json_out) ? atomic_discard_stream() : stdout, err, errlen);
}

static const char qmodel_help[] =
	"mlpscope qmodel [--latency TICKS] [--chains LIST] [--requests N] [--queue Q]\n"
	"[--bytes-per-tick B] [--chase-vs-stream] [--dram-map MAP] [--json FILE]:\n"
	"simulates requests that each stay outstanding L ticks, at most Q at once,\n"
	"through a data path of B bytes per tick, fed by K dependent chains (each issues\n"
	"its next request when the last completes) and by a stream of independent ones.\n"
	"Prints the makespan, the time per request, the mean and peak outstanding the\n"
	"memory saw, and the bound max(L/K, L/Q, bytes/B) with its binding term. A tick\n"
	"is the caller's unit. With no option it answers the textbook case: 64 misses at\n"
	"L = 200 cycles take 12,800 cycles at K = 1, 1,600 at K = 8 and 800 at K = 16.\n"
	"--chase-vs-stream adds the same reads as one dependent chain and as a stream,\n"
	"with reads, writes, regular and irregular strides side by side. --json writes\n"
	"every row with the characteriser's figures, flags (and why none can fire in the\n"
	"model), properties and covers; --json - writes it alone to stdout. --dram-map\n"
	"MAP (ch=N,rank=N,bank=N,row=SIZE,interleave=line|row) adds, per feed, the row\n"
	"hits, empties and conflicts its addresses meet through that map (open page,\n"
	"arrival order) and the banks its in-flight requests keep busy, each beside the\n"
	"derivation's figure, and two sequential walks interleaved in one bank, served in\n"
	"arrival order and open-row first among 2, 8 and 32 held requests, against the\n"
	"same walks kept apart. No measurement is made; see docs/MODEL.md.\n";

const struct section section_qmodel = {
	.name = "qmodel",
	.options = qmodel_options,
	.summary = "the queue model: K dependent chains against latency, a queue cap and a data path",
	.help = qmodel_help, .kind = SECTION_FILE_COMMAND, .outputs = SECTION_OUT_JSON,
	.usage = "mlpscope qmodel [--latency TICKS] [--chains LIST] [--requests N] [--queue Q] [--bytes-per-tick B] "
		 "[--chase-vs-stream] [--dram-map MAP] [--json FILE]",
	.command = cmd_qmodel,
};
