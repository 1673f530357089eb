/*
 * The qmodel command. Every option is checked before anything runs; the
 * textbook figures are the defaults, so `mlpscope qmodel` alone shows them.
 * The bound's ticks and the simulation's makespan are printed side by side:
 * the simulation is exact, the bound is what `model` and `trace` use.
 */
#include "sections/qmodel.h"
#include "sections/registry.h"

#include "analyse/qmodel.h"
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

int qmodel_cmd_parse(const struct options *o, struct qmodel_cmd_args *a, char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	a->latency = TEXTBOOK_LATENCY;
	a->requests = o->qmodel_requests ? o->qmodel_requests : TEXTBOOK_REQUESTS;
	a->queue_cap = o->qmodel_queue;
	a->request_bytes = 64;
	a->lanes[0] = 1;
	a->lanes[1] = 8;
	a->lanes[2] = 16;
	a->nlanes = 3;
	if (o->qmodel_latency && qmodel_parse_ticks(o->qmodel_latency, &a->latency))
		return usage_fail(err, errlen, "--latency: '%s' is not a latency (expected a number of ticks > 0, "
				  "e.g. 200)", o->qmodel_latency);
	if (o->qmodel_bytes_per_tick && parse_real(o->qmodel_bytes_per_tick, true, &a->bytes_per_tick))
		return usage_fail(err, errlen, "--bytes-per-tick: '%s' is not a rate (expected a number >= 0, "
				  "0 for unlimited, e.g. 3.2)", o->qmodel_bytes_per_tick);
	if (o->qmodel_chains && parse_lanes(o->qmodel_chains, a))
		return usage_fail(err, errlen, "--chains: '%s' is not a list of chain counts (expected up to %d "
				  "integers 1..%llu separated by commas, e.g. 1,8,16)", o->qmodel_chains,
				  QMODEL_CMD_MAX_LANES, REQUESTS_MAX);
	return 0;
}

static void bound_text(const struct qmodel_bound *b, char *buf, size_t len)
{
	char names[64];
	size_t used = 0;

	for (int t = 0; t < QMODEL_NTERMS && used < len; t++)
		used += (size_t)snprintf(buf + used, len - used, b->term[t] > 0 ? "%s%s/%s %.1f" : "%s%s/%s -",
					 t ? ", " : "", t == QMODEL_TERM_BANDWIDTH ? "bytes" : "L",
					 t == QMODEL_TERM_LATENCY ? "K" : t == QMODEL_TERM_CONCURRENCY ? "Q" : "B",
					 b->term[t]);
	qmodel_bound_names(b, names, sizeof(names));
	if (used < len)
		snprintf(buf + used, len - used, " -> %.1f (%s)", b->bound, names);
}

static void row(FILE *out, const char *what, const struct qmodel_result *r, const struct qmodel_bound *b)
{
	char bound[200];

	bound_text(b, bound, sizeof(bound));
	fprintf(out, "  %-14s %12.0f %12.1f %11.2f %6llu   %s\n", what, r->makespan, r->per_request,
		r->seen.mean_outstanding, (unsigned long long)r->seen.high_water, bound);
}

int qmodel_cmd_run(const struct qmodel_cmd_args *a, FILE *out, char *err, size_t errlen)
{
	struct qmodel_memory m = {
		.latency = a->latency,
		.queue_cap = a->queue_cap,
		.bytes_per_tick = a->bytes_per_tick,
		.request_bytes = a->request_bytes,
	};
	struct qmodel_workload stream = {.feed = QMODEL_FEED_STREAM, .requests = a->requests};
	struct qmodel_result r;
	struct qmodel_bound b;
	char q[32], bw[32], what[32];
	int rc;

	snprintf(q, sizeof(q), a->queue_cap > 0 ? "%.0f" : "unlimited", a->queue_cap);
	snprintf(bw, sizeof(bw), a->bytes_per_tick > 0 ? "%g bytes/tick" : "unlimited", a->bytes_per_tick);
	fprintf(out, "queue model: %llu requests of %llu bytes, each outstanding L = %g ticks; at most Q = %s "
		"outstanding; data path B = %s\n", (unsigned long long)a->requests,
		(unsigned long long)a->request_bytes, a->latency, q, bw);
	fprintf(out, "  (a tick is the caller's unit: cycles for the textbook case, ns for a measured run)\n");
	fprintf(out, "  %-14s %12s %12s %11s %6s   %s\n", "feed", "makespan", "per request", "mean outst",
		"peak", "bound per request: max(L/K, L/Q, bytes/B)");
	for (size_t i = 0; i < a->nlanes; i++) {
		struct qmodel_workload chains = {.feed = QMODEL_FEED_CHAINS, .chains = a->lanes[i], .requests = a->requests};

		if ((rc = qmodel_run(&m, &chains, &r)))
			goto fail;
		qmodel_bound_at(&m, (double)a->lanes[i], 0, &b);
		snprintf(what, sizeof(what), "K = %llu", (unsigned long long)a->lanes[i]);
		row(out, what, &r, &b);
	}
	if ((rc = qmodel_run(&m, &stream, &r)))
		goto fail;
	qmodel_bound_at(&m, 0, 0, &b);
	row(out, "stream", &r, &b);
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "writing the queue model: %s", strerror(errno));
		return 1;
	}
	return 0;
fail:
	snprintf(err, errlen, "qmodel: %s", strerror(-rc));
	return 1;
}

int cmd_qmodel(const struct options *o, char *err, size_t errlen)
{
	struct qmodel_cmd_args a;
	int rc = qmodel_cmd_parse(o, &a, err, errlen);

	return rc ? rc : qmodel_cmd_run(&a, stdout, err, errlen);
}

static const char qmodel_help[] =
	"mlpscope qmodel [--latency TICKS] [--chains LIST] [--requests N] [--queue Q]\n"
	"[--bytes-per-tick B]: simulates requests that each stay outstanding L ticks,\n"
	"at most Q at once, through a data path of B bytes per tick, fed by K dependent\n"
	"chains (each issues its next request when the last completes) and by a stream\n"
	"of independent ones. Prints the makespan, the time per request, the mean and\n"
	"peak outstanding the memory saw, and the bound max(L/K, L/Q, bytes/B) with\n"
	"its binding term. A tick is the caller's unit. With no option it answers the\n"
	"textbook case: 64 misses at L = 200 cycles take 12,800 cycles at K = 1, 1,600\n"
	"at K = 8 and 800 at K = 16. No measurement is made; see docs/MODEL.md.\n";

const struct section section_qmodel = {
	.name = "qmodel",
	.options = "latency chains requests queue bytes-per-tick",
	.summary = "the queue model: K dependent chains against latency, a queue cap and a data path",
	.help = qmodel_help, .kind = SECTION_FILE_COMMAND,
	.usage = "mlpscope qmodel [--latency TICKS] [--chains LIST] [--requests N] [--queue Q] [--bytes-per-tick B]",
	.command = cmd_qmodel,
};
