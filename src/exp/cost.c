/*
 * The cost model's rates, measured once at the start of a run, and the
 * prices derived from them. Each rate is measured the way the sections
 * spend it: a chain built and verified in fresh memory (Sattolo cycle,
 * layout walk) past every cache, a dependent chase over that chain, first
 * touch of a fresh huge-page-requested arena, one thread reading a set. The
 * chains are 2x the last cache, 32 to 64 MiB, so the whole takes under a
 * second: past a reported L3 of up to 32 MiB (and past a guest's share of
 * a larger one); the planner needs each rate within tens of percent, and
 * each is the best of two or three tries.
 */
#include "exp/cost.h"

#include "core/arena.h"
#include "core/chain.h"
#include "util/jsonr.h"
#include "kern/lanes.h"
#include "kern/stream.h"
#include "util/jsonw.h"
#include "core/team.h"
#include "core/topo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The keys of each JSON object written here, in order (docs/OUTPUT.md). */
static const struct jsonw_field cost_facts_fields[] = {
	JSONW_FIELD(TEXT, "machine", struct cost_facts, machine),
	JSONW_FIELD(UINT, "l1_bytes", struct cost_facts, l1_bytes),
	JSONW_FIELD(UINT, "l2_bytes", struct cost_facts, l2_bytes),
	JSONW_FIELD(UINT, "llc_bytes", struct cost_facts, llc_bytes),
	JSONW_FIELD(UINT, "line_bytes", struct cost_facts, line_bytes),
	JSONW_FIELD(UINT, "cpus", struct cost_facts, cpus),
	JSONW_FIELD(UINT, "mem_total_bytes", struct cost_facts, mem_total_bytes),
	JSONW_FIELD(UINT, "mem_available_bytes", struct cost_facts, mem_available_bytes),
};

static const struct jsonw_field cost_rates_fields[] = {
	JSONW_FIELD(DOUBLE, "touch_gbps", struct cost_facts, rates.touch_gbps),
	JSONW_FIELD(DOUBLE, "build_ns_per_node", struct cost_facts, rates.build_ns_per_node),
	JSONW_FIELD(DOUBLE, "dram_ns", struct cost_facts, rates.dram_ns),
	JSONW_FIELD(DOUBLE, "stream_gbps", struct cost_facts, rates.stream_gbps),
	JSONW_FIELD(DOUBLE, "seconds", struct cost_facts, rates.seconds),
	JSONW_FIELD(TEXT, "from", struct cost_facts, rates.from),
};

#define MIB ((size_t)1 << 20)

void cost_facts_from_topo(const struct topo *t, struct cost_facts *f)
{
	int n = team_allowed_cpus(NULL, 0);

	memset(f, 0, sizeof(*f));
	f->l1_bytes = topo_cache_bytes_at(t, 1);
	f->l2_bytes = topo_cache_bytes_at(t, 2);
	f->llc_bytes = topo_largest_cache_bytes(t);
	f->line_bytes = t->line_bytes ? t->line_bytes : 64;
	f->cpus = n > 0 ? (unsigned)n : 1;
	f->mem_total_bytes = topo_meminfo_bytes("MemTotal");
	f->mem_available_bytes = t->mem_available_bytes;
	snprintf(f->machine, sizeof(f->machine), "%s", t->cpu_model);
}

/* A set past the caches the OS reports, but small enough to stay cheap:
 * 2x the last cache, 32 to 64 MiB. A larger reported cache (a guest shown
 * a socket's L3) is not filled: the price of a miss then reads low, and
 * the planner's margin covers that. */
static size_t probe_bytes(const struct cost_facts *f)
{
	size_t b = 2 * f->llc_bytes;

	return b < 32 * MIB ? 32 * MIB : b > 64 * MIB ? 64 * MIB : (b + ARENA_HUGE_BYTES - 1) / ARENA_HUGE_BYTES * ARENA_HUGE_BYTES;
}

static double seconds(uint64_t w0)
{
	return (double)(clock_wall_ns() - w0) / 1e9;
}

/* First touch of a fresh huge-page-requested arena, GB/s. */
static int measure_touch(size_t bytes, double *gbps)
{
	struct arena a = {0};
	uint64_t w = clock_wall_ns();
	int rc = arena_map(&a, bytes, PAGES_HUGE);

	if (!rc)
		*gbps = (double)a.bytes / (double)(clock_wall_ns() - w);
	arena_unmap(&a);
	return rc;
}

/* Build + verify a chain in a fresh arena (touch included, as the sections
 * do), then time a dependent chase over it after a lead-in that warms the
 * page walks: ns per node, ns per load. */
static int measure_chain(const struct clock_info *c, size_t bytes, size_t line, uint64_t seed, double *build_ns,
			 double *chase_ns)
{
	struct arena a = {0};
	struct chain ch = {0};
	struct layout_check check;
	uint64_t w = clock_wall_ns(), t0, t1;
	size_t hops = 100000;
	uintptr_t start;
	int rc;

	if ((rc = arena_map(&a, bytes, PAGES_HUGE)) ||
	    (rc = chain_build_verified(&ch, a.base, a.bytes, line, line, seed, chain_offset_linear, &check)))
		goto out;
	*build_ns = (double)(clock_wall_ns() - w) / (double)ch.nodes;
	start = (uintptr_t)ch.base;
	start = lanes_kernel(1)(&start, 20000);
	*chase_ns = INFINITY;
	for (int i = 0; i < 3; i++) {
		uintptr_t s = start;

		t0 = clock_now();
		start = lanes_kernel(1)(&s, hops);
		t1 = clock_now();
		*chase_ns = fmin(*chase_ns, clock_ticks_to_ns(c, t1 - t0) / (double)hops);
	}
out:
	chain_free(&ch);
	arena_unmap(&a);
	return rc;
}

int cost_measure_rates(const struct clock_info *c, const struct cost_facts *f, struct cost_rates *out)
{
	const struct stream_kernel *rd = stream_kernel_widest(STREAM_READ, false);
	struct arena a = {0};
	size_t bytes = probe_bytes(f), line = f->line_bytes;
	uint64_t w0 = clock_wall_ns();
	volatile uint64_t sink = 0;
	double best, g, b, d;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	/* Each rate is the best of a few tries, as every estimate here is: the
	 * first big fault of a process can stall in compaction for tens of
	 * milliseconds (THP defrag), and a neighbour's burst lands on one try,
	 * not all; the sections then run at the better rate. */
	for (int i = 0; i < 3 && !rc; i++)
		if (!(rc = measure_touch(bytes / 4, &g)) && g > out->touch_gbps)
			out->touch_gbps = g;
	out->build_ns_per_node = out->dram_ns = INFINITY;
	for (int i = 0; i < 2 && !rc; i++)
		if (!(rc = measure_chain(c, bytes, line, 99 + (uint64_t)i, &b, &d))) {
			out->build_ns_per_node = fmin(out->build_ns_per_node, b);
			out->dram_ns = fmin(out->dram_ns, d);
		}
	/* Stream: the widest read kernel over a touched arena, best of 3. */
	if (!rc && rd && !(rc = arena_map(&a, bytes / 2, PAGES_HUGE))) {
		size_t n = a.bytes / STREAM_CHUNK_BYTES * STREAM_CHUNK_BYTES;

		best = INFINITY;
		for (int i = 0; i < 3; i++) {
			uint64_t t0 = clock_now();

			sink += rd->fn(NULL, a.base, n, 1);
			best = fmin(best, clock_ticks_to_ns(c, clock_now() - t0));
		}
		out->stream_gbps = (double)n / best;
		arena_unmap(&a);
	}
	snprintf(out->from, sizeof(out->from), "measured (best of 2-3 tries; chains over %zu MiB)", bytes / MIB);
	out->seconds = seconds(w0);
	(void)sink;
	return rc;
}

static bool read_size(const struct jsonr_value *o, const char *key, size_t *v)
{
	double d;

	if (!jsonr_get_number(o, key, &d) || !(d >= 0) || d > 1e15)
		return false;
	*v = (size_t)d;
	return true;
}

int cost_facts_from_json(const struct jsonr_value *root, struct cost_facts *f, char *err, size_t errlen)
{
	const struct jsonr_value *o = jsonr_get(root, "plan.facts");
	const char *s, *bad = NULL;
	double cpus = 0;
	struct cost_rates *r = &f->rates;

	memset(f, 0, sizeof(*f));
	if (!o)
		o = root;
	if (!read_size(o, "l1_bytes", &f->l1_bytes))
		bad = "l1_bytes";
	else if (!read_size(o, "l2_bytes", &f->l2_bytes))
		bad = "l2_bytes";
	else if (!read_size(o, "llc_bytes", &f->llc_bytes))
		bad = "llc_bytes";
	else if (!read_size(o, "line_bytes", &f->line_bytes) || f->line_bytes < 8)
		bad = "line_bytes";
	else if (!jsonr_get_number(o, "cpus", &cpus) || !(cpus >= 1 && cpus <= 65536))
		bad = "cpus";
	else if (!read_size(o, "mem_total_bytes", &f->mem_total_bytes) || !f->mem_total_bytes)
		bad = "mem_total_bytes";
	else if (!read_size(o, "mem_available_bytes", &f->mem_available_bytes))
		bad = "mem_available_bytes";
	else if (!jsonr_get_number(o, "rates.touch_gbps", &r->touch_gbps) || !(r->touch_gbps > 0))
		bad = "rates.touch_gbps";
	else if (!jsonr_get_number(o, "rates.build_ns_per_node", &r->build_ns_per_node) || !(r->build_ns_per_node > 0))
		bad = "rates.build_ns_per_node";
	else if (!jsonr_get_number(o, "rates.dram_ns", &r->dram_ns) || !(r->dram_ns > 0))
		bad = "rates.dram_ns";
	else if (!jsonr_get_number(o, "rates.stream_gbps", &r->stream_gbps) || !(r->stream_gbps > 0))
		bad = "rates.stream_gbps";
	if (bad) {
		snprintf(err, errlen, "no usable '%s' (expected a result with plan.facts, or a facts file; "
			 "see docs/OUTPUT.md, plan)", bad);
		return -EINVAL;
	}
	f->cpus = (unsigned)cpus;
	snprintf(f->machine, sizeof(f->machine), "%s", (s = jsonr_get_string(o, "machine")) ? s : "unnamed");
	snprintf(r->from, sizeof(r->from), "%s", (s = jsonr_get_string(o, "rates.from")) ? s : "a facts file");
	return 0;
}

void cost_facts_write_json(const struct cost_facts *f, struct jsonw *w, const char *key)
{
	jsonw_object_begin(w, key);
	JSONW_FIELDS(w, f, cost_facts_fields);
	JSONW_FIELDS_OBJECT(w, "rates", f, cost_rates_fields);
	jsonw_object_end(w);
}

double cost_touch_s(const struct cost_facts *f, size_t bytes)
{
	return (double)bytes / f->rates.touch_gbps / 1e9;
}

/* Fresh pages from a host, at most (cost.h), GB/s. */
#define COST_FRESH_GBPS 1.0

double cost_fresh_touch_s(const struct cost_facts *f, size_t bytes)
{
	return (double)bytes / fmin(f->rates.touch_gbps, COST_FRESH_GBPS) / 1e9;
}

double cost_build_s(const struct cost_facts *f, size_t nodes)
{
	return (double)nodes * f->rates.build_ns_per_node / 1e9;
}

/* Where the OS reports no cache at all (a guest shown none), the smallest
 * L1d and L2 of any core we met: a set that fits them hits there whatever
 * the OS says (priced as misses, a latency sweep's sets inside the caches
 * cost many times their time). */
#define COST_L1_PRESUMED_BYTES ((size_t)32 << 10)
#define COST_L2_PRESUMED_BYTES ((size_t)256 << 10)

double cost_chase_ns(const struct cost_facts *f, size_t set_bytes)
{
	bool none = !f->l1_bytes && !f->l2_bytes && !f->llc_bytes;
	size_t l1 = none ? COST_L1_PRESUMED_BYTES : f->l1_bytes, l2 = none ? COST_L2_PRESUMED_BYTES : f->l2_bytes;

	/* Rough per-level prices relative to a DRAM miss: an L1 or L2 hit is a
	 * few ns on every core we met, an L3 hit a quarter to a half of a miss. */
	if (l1 && set_bytes <= l1)
		return 1.5;
	if (l2 && set_bytes <= l2)
		return 5.0;
	if (f->llc_bytes && set_bytes <= f->llc_bytes)
		return 0.4 * f->rates.dram_ns;
	return f->rates.dram_ns;
}

double cost_stream_s(const struct cost_facts *f, size_t bytes)
{
	return (double)bytes / f->rates.stream_gbps / 1e9;
}
