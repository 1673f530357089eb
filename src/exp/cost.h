/*
 * The cost model's inputs: a machine's facts (its caches, CPUs and memory)
 * and four rates measured in the first half second of a run (first touch
 * of fresh memory, building and verifying a chain, one dependent miss to
 * memory, one thread's read stream). From them, the time a piece of work
 * will take. The planner (budget.c) sizes every section by these; nothing
 * here knows a section. The rates of a machine we do not have come from a
 * facts file instead (cost_facts_from_json), so the same planner runs there.
 */
#ifndef MLPSCOPE_EXP_COST_H
#define MLPSCOPE_EXP_COST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/clock.h"

struct jsonr_value;
struct jsonw;
struct topo;

struct cost_rates {
	double touch_gbps;          /* first touch of fresh (huge-page requested) memory, decimal GB/s */
	double build_ns_per_node;   /* build + verify one random-chain node past the caches (memory touched) */
	double dram_ns;             /* one dependent load that misses every cache, huge pages */
	double stream_gbps;         /* one thread's sequential read, decimal GB/s */
	double seconds;             /* what measuring these cost */
	char from[96];              /* "measured", or where a facts file took them from */
};

struct cost_facts {
	size_t l1_bytes, l2_bytes, llc_bytes; /* data/unified, as the OS reports; 0: none */
	size_t line_bytes;
	unsigned cpus;              /* CPUs this process may run on */
	size_t mem_total_bytes, mem_available_bytes;
	struct cost_rates rates;
	char machine[128];          /* CPU model or a label */
};

/* Facts of this machine from its topology; rates zero until measured. */
void cost_facts_from_topo(const struct topo *t, struct cost_facts *f);

/* Measure the four rates (about 0.3-1 s; arenas of a few tens of MiB,
 * sized from f's caches). 0 or -errno. */
int cost_measure_rates(const struct clock_info *c, const struct cost_facts *f, struct cost_rates *out);

/* Read facts from a JSON document: a result with a `plan.facts` object, or
 * a facts file whose root is that object. 0, or -EINVAL with err naming the
 * missing or bad key. */
int cost_facts_from_json(const struct jsonr_value *root, struct cost_facts *f, char *err, size_t errlen);

/* Write f as the object `key` (the same keys cost_facts_from_json reads). */
void cost_facts_write_json(const struct cost_facts *f, struct jsonw *w, const char *key);

/* Seconds to first-touch bytes of fresh memory. */
double cost_touch_s(const struct cost_facts *f, size_t bytes);

/* Seconds to first-touch `bytes` of a fresh arena that no earlier probe
 * faulted: at the measured rate, but never faster than COST_FRESH_GBPS.
 * The rate's probe maps 8-16 MiB thrice and keeps its best, pages the
 * process just freed; a section's large arenas come fresh from the host:
 * on one recorded guest about 1 GB/s, huge pages or small, where the probe
 * read 10-14 GB/s. */
double cost_fresh_touch_s(const struct cost_facts *f, size_t bytes);

/* Seconds to build and verify a random chain of nodes nodes in fresh memory
 * (touch included: build_ns_per_node was measured that way). */
double cost_build_s(const struct cost_facts *f, size_t nodes);

/* ns per dependent random load over a set of set_bytes: the cache level the
 * OS reports it fits, else a DRAM miss. A coarse step model, not a curve:
 * it prices warm-up walks, it is never reported as a latency. */
double cost_chase_ns(const struct cost_facts *f, size_t set_bytes);

/* Seconds for one thread to read bytes sequentially from memory. */
double cost_stream_s(const struct cost_facts *f, size_t bytes);

#endif
