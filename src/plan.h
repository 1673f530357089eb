/*
 * The plan: options resolved against this machine (default working set from
 * the reported caches and free memory, the CPU to pin) and checked, so that
 * every refusal happens before any long work starts.
 */
#ifndef MLPSCOPE_PLAN_H
#define MLPSCOPE_PLAN_H

#include "arena.h"
#include "cli.h"
#include "clock.h"
#include "jit/probe.h"
#include "result.h"
#include "topo.h"

struct plan {
	size_t working_set_bytes;
	size_t spacing_bytes;
	size_t accesses;
	int cpu;
	int npages;
	enum page_request pages[2];
	unsigned threads;            /* bandwidth, multicore, loaded: resolved --threads */
	bool skip_loaded;            /* fewer than 2 threads: the report skips loaded */
	unsigned window_fillers;     /* bit (1u << enum probe_filler); 0: all */
	bool dump_code;
	enum probe_filler dump_filler;
	unsigned dump_n;
	size_t app_footprint_bytes;  /* app: the walked structure's bytes */
};

/* Resolve and validate. Returns 0, or 2 with a one-line message in err.
 * Warnings (a working set that fits a reported cache, a default shrunk to
 * fit free memory) go into r. */
int plan_make(const struct options *o, const struct topo *t, struct plan *p,
	      struct report *r, char *err, size_t errlen);

/* Bytes a run of this plan holds at its peak, for the free-memory check. */
size_t plan_peak_bytes(size_t working_set_bytes, size_t spacing_bytes);

/* Lengthen timed regions, if needed, so the timer's own cost stays under 1%
 * of the shortest plausible region. */
void plan_fit_clock(struct plan *p, const struct clock_info *c, struct report *r);

#endif
