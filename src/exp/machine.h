/*
 * What this machine permits, gathered once before any experiment: identity,
 * caches as both the OS and the CPU state them (and where they disagree),
 * page sizes and THP policy, the timer, a measured core-clock range, and what
 * the PMU allows. Everything here is a claim about the machine except the
 * core clock, which is timed: /proc/cpuinfo's MHz is a snapshot, and the
 * clock of these guests swings by 70% between samples.
 */
#ifndef MLPSCOPE_EXP_MACHINE_H
#define MLPSCOPE_EXP_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/coretype.h"
#include "core/cpu_id.h"
#include "core/clock.h"
#include "core/pmu.h"
#include "core/topo.h"

#define MACHINE_MAX_CACHES (2 * TOPO_MAX_CACHES)
#define MACHINE_MAX_NOTES 8
#define MACHINE_NOTE_LEN 160
#define MACHINE_MAX_HUGEPAGE_SIZES 4
#define MACHINE_CLOCK_SAMPLES 7
#define MACHINE_CLOCK_SAMPLE_MS 5.0

struct machine_cache {
	struct cache_desc desc;  /* size_bytes / ways 0 when the source does not say */
	const char *source;      /* "sysfs", "cpuid" or "ctr_el0" */
};

struct machine_hugepage {
	size_t size_bytes;
	long nr_pages;           /* hugetlb pool size (nr_hugepages) */
	long free_pages;         /* free_hugepages */
};

struct machine_core_clock {
	double samples_mhz[MACHINE_CLOCK_SAMPLES];
	int nsamples;
	double min_mhz, max_mhz;
	double sample_ms;        /* length of each timed chain */
	unsigned long long adds_per_sample;
};

struct machine_info {
	char facts_from[160];    /* "this machine", or "recorded host DIR" (core/host.h) */
	struct topo topo;        /* cpu_model, online_cpus, affinity, sysfs caches */
	int pinned_cpu;          /* the only CPU in the affinity mask, -1 when several */
	struct cpu_id cpu;
	int cpu_id_known;        /* 0 when the ISA has no identification (generic) */
	/* Each CPU's kind (hybrid lists, MIDR per CPU, cpu_capacity): cpu
	 * above is CPU 0's identity, which on a hybrid part is not every core's. */
	struct coretype_map core_types;
	int allowed_core_types;  /* how many kinds the start-up affinity mask spans */

	struct machine_cache caches[MACHINE_MAX_CACHES];
	int ncaches;
	char cache_disagreements[MACHINE_MAX_NOTES][MACHINE_NOTE_LEN];
	int ndisagreements;

	size_t base_page_bytes;
	size_t thp_pmd_bytes;    /* 0 when the kernel does not say */
	struct machine_hugepage hugepages[MACHINE_MAX_HUGEPAGE_SIZES];
	int nhugepage_sizes;
	char thp_enabled[32];    /* the bracketed mode, "" when unreadable */
	char thp_defrag[32];

	const char *timer_source;
	int timer_invariant;
	double ticks_per_ns;
	double timer_resolution_ns;

	struct machine_core_clock core_clock;
	int core_clock_rc;       /* 0, or -errno when no estimate was made */

	struct pmu_probe pmu;
	int pmu_rc;              /* pmu_probe's return */
	const char *pmu_errno_name; /* "ENOENT", ... ; NULL when hardware counters opened */
	char pmu_meaning[512];   /* which claims follow, in words */
};

/* Gather everything above. Run it pinned: the core-clock estimate times the
 * core it runs on. Takes about MACHINE_CLOCK_SAMPLES * MACHINE_CLOCK_SAMPLE_MS
 * plus a fork. Returns 0, or -EINVAL when clock is NULL or uncalibrated;
 * a fact that cannot be read is left empty and flagged, never invented. */
int machine_probe(struct machine_info *m, const struct clock_info *clock);

/* Time cpu_add_chain against clock_now() nsamples times (1..MACHINE_CLOCK_
 * SAMPLES), each about sample_ms long, and store each sample in MHz and
 * their range. A preempted sample reads low; the range shows it rather than
 * hiding it. Returns 0 or -EINVAL. */
int machine_estimate_core_clock(const struct clock_info *clock, int nsamples, double sample_ms,
				struct machine_core_clock *out);

/* Whether the core clock's samples are one clock: their spread, 100 x
 * (max / min - 1), within tolerance_pct. A clock that moves between samples
 * (a P-state flipping 3657 <-> 1997 MHz, a host's share of the core) turns
 * ns into no single cycle count, so cycle figures are derived only from a
 * steady one. The tolerance is the run's floor (NaN: none), clamped to
 * [MACHINE_CLOCK_STEADY_MIN_PCT, MACHINE_CLOCK_STEADY_MAX_PCT]: 5 ms samples
 * carry their own timing noise below the first, and past the second no
 * cycle figure names one clock whatever the floor. Pure. */
#define MACHINE_CLOCK_STEADY_MIN_PCT 5.0
#define MACHINE_CLOCK_STEADY_MAX_PCT 20.0
struct machine_clock_state {
	bool known;              /* samples with a positive minimum */
	bool steady;
	double spread_pct;       /* NaN when not known */
	double tolerance_pct;
};
void machine_core_clock_state(double min_mhz, double max_mhz, double floor_pct, struct machine_clock_state *out);

/* Read the bracketed word of a sysfs mode file ("always [madvise] never" ->
 * "madvise") into out. Returns 0, -errno when the file cannot be read, or
 * -EINVAL when it holds no bracketed word. */
int machine_read_bracketed(const char *path, char *out, size_t len);

/* Compare each cache of one source with the same level and type from
 * another, by size, line and ways (a 0 means "not stated" and is not
 * compared); a cache one source states and the other lacks is a note too.
 * Writes up to max notes, returns how many. */
int machine_compare_caches(const struct machine_cache *caches, int n, char (*notes)[MACHINE_NOTE_LEN],
			   int max);

/* Fill m->pmu_meaning from m->pmu and m->pmu_errno_name: which claims
 * follow from what the probe found. It promises counting only where a
 * section counts, and none does. */
void machine_describe_pmu(struct machine_info *m);

/* "SIGSEGV", "SIGILL", ... for the signals a counter-read probe dies of. */
const char *machine_signal_name(int sig);

#endif
