/*
 * The machine section's facts. Sources are kept apart and tagged because
 * they disagree in practice: a KVM guest's sysfs and CPUID may both show a
 * whole socket's L3 while one core reaches only its slice, and the two need
 * not even agree with each other. The core clock is measured with a chain of
 * dependent one-cycle adds, since a guest's /proc/cpuinfo MHz is whatever the
 * host said at boot.
 */
#include "exp/machine.h"

#include "arch/cpu.h"
#include "core/host.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"
#define HUGETLB_DIR "/sys/kernel/mm/hugepages"

static void format_size(char *out, size_t len, size_t bytes)
{
	if (bytes && bytes % (1u << 20) == 0)
		snprintf(out, len, "%zu MiB", bytes >> 20);
	else if (bytes && bytes % 1024 == 0)
		snprintf(out, len, "%zu KiB", bytes >> 10);
	else
		snprintf(out, len, "%zu B", bytes);
}

int machine_read_bracketed(const char *path, char *out, size_t len)
{
	char line[256], *open, *close_br;
	int rc = host_read_line(path, line, sizeof(line));

	out[0] = 0;
	if (rc)
		return rc;
	open = strchr(line, '[');
	close_br = open ? strchr(open, ']') : NULL;
	if (!open || !close_br || close_br == open + 1)
		return -EINVAL;
	*close_br = 0;
	snprintf(out, len, "%s", open + 1);
	return 0;
}

static int source_states_sizes(const struct machine_cache *caches, int n, const char *source)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(caches[i].source, source) && caches[i].desc.size_bytes)
			return 1;
	return 0;
}

static int add_note(char (*notes)[MACHINE_NOTE_LEN], int max, int k, const struct cache_desc *c, const char *what,
		    const char *a, const char *va, const char *b, const char *vb)
{
	if (k >= max)
		return k;
	snprintf(notes[k], MACHINE_NOTE_LEN, "L%d %s %s: %s says %s, %s says %s", c->level, c->type, what, a, va, b,
		 vb);
	return k + 1;
}

int machine_compare_caches(const struct machine_cache *caches, int n, char (*notes)[MACHINE_NOTE_LEN],
			   int max)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		const struct machine_cache *a = &caches[i];
		int matched = 0;

		for (int j = 0; j < n; j++) {
			const struct machine_cache *b = &caches[j];
			char va[32], vb[32];

			if (!strcmp(a->source, b->source) || a->desc.level != b->desc.level ||
			    strcmp(a->desc.type, b->desc.type))
				continue;
			matched = 1;
			/* Each pair is seen twice (i, j) and (j, i): report it once. */
			if (j < i)
				continue;
			if (a->desc.size_bytes && b->desc.size_bytes && a->desc.size_bytes != b->desc.size_bytes) {
				format_size(va, sizeof(va), a->desc.size_bytes);
				format_size(vb, sizeof(vb), b->desc.size_bytes);
				k = add_note(notes, max, k, &a->desc, "size", a->source, va, b->source, vb);
			}
			if (a->desc.line_bytes && b->desc.line_bytes && a->desc.line_bytes != b->desc.line_bytes) {
				format_size(va, sizeof(va), a->desc.line_bytes);
				format_size(vb, sizeof(vb), b->desc.line_bytes);
				k = add_note(notes, max, k, &a->desc, "line", a->source, va, b->source, vb);
			}
			if (a->desc.ways && b->desc.ways && a->desc.ways != b->desc.ways) {
				snprintf(va, sizeof(va), "%d-way", a->desc.ways);
				snprintf(vb, sizeof(vb), "%d-way", b->desc.ways);
				k = add_note(notes, max, k, &a->desc, "associativity", a->source, va, b->source,
					     vb);
			}
		}
		/* A source that states only line sizes (CTR_EL0) is silent about
		 * L2 and L3 by design; silence is a disagreement only from a
		 * source that enumerates whole caches. */
		if (!matched) {
			for (int j = 0; j < n; j++) {
				const char *other = caches[j].source;
				char va[32];

				if (!strcmp(other, a->source) || !source_states_sizes(caches, n, other))
					continue;
				format_size(va, sizeof(va), a->desc.size_bytes);
				k = add_note(notes, max, k, &a->desc, "presence", a->source, va, other, "no such cache");
				break;
			}
		}
	}
	return k;
}

static void gather_caches(struct machine_info *m)
{
	struct cache_desc cpu_caches[TOPO_MAX_CACHES];
	int n;

	m->ncaches = 0;
	for (int i = 0; i < m->topo.ncaches && m->ncaches < MACHINE_MAX_CACHES; i++)
		m->caches[m->ncaches++] = (struct machine_cache){m->topo.caches[i], "sysfs"};
	n = cpu_read_caches(cpu_caches, TOPO_MAX_CACHES);
	for (int i = 0; i < n && m->ncaches < MACHINE_MAX_CACHES; i++)
		m->caches[m->ncaches++] = (struct machine_cache){cpu_caches[i], cpu_caches_source()};
	m->ndisagreements = machine_compare_caches(m->caches, m->ncaches, m->cache_disagreements, MACHINE_MAX_NOTES);
}

static int compare_hugepage(const void *a, const void *b)
{
	size_t x = ((const struct machine_hugepage *)a)->size_bytes;
	size_t y = ((const struct machine_hugepage *)b)->size_bytes;

	return x < y ? -1 : x > y;
}

static void gather_pages(struct machine_info *m)
{
	char names[16][HOST_NAME_LEN];
	int n;
	long v;

	m->base_page_bytes = host_page_bytes();
	if (host_read_long(THP_DIR "/hpage_pmd_size", &v) == 0 && v > 0)
		m->thp_pmd_bytes = (size_t)v;
	machine_read_bracketed(THP_DIR "/enabled", m->thp_enabled, sizeof(m->thp_enabled));
	machine_read_bracketed(THP_DIR "/defrag", m->thp_defrag, sizeof(m->thp_defrag));
	n = host_list_dir(HUGETLB_DIR, names, 16);
	for (int i = 0; i < n && m->nhugepage_sizes < MACHINE_MAX_HUGEPAGE_SIZES; i++) {
		struct machine_hugepage *h = &m->hugepages[m->nhugepage_sizes];
		unsigned long kb;
		char path[512];

		if (sscanf(names[i], "hugepages-%lukB", &kb) != 1)
			continue;
		h->size_bytes = (size_t)kb << 10;
		snprintf(path, sizeof(path), HUGETLB_DIR "/%.*s/nr_hugepages", HOST_NAME_LEN, names[i]);
		h->nr_pages = host_read_long(path, &v) ? -1 : v;
		snprintf(path, sizeof(path), HUGETLB_DIR "/%.*s/free_hugepages", HOST_NAME_LEN, names[i]);
		h->free_pages = host_read_long(path, &v) ? -1 : v;
		m->nhugepage_sizes++;
	}
	qsort(m->hugepages, (size_t)m->nhugepage_sizes, sizeof(m->hugepages[0]), compare_hugepage);
}

static int single_allowed_cpu(void)
{
	int cpu;

	return host_current_cpus(&cpu, 1) == 1 ? cpu : -1;
}

/* Sink for the chain's sum: a result nobody reads could let a compiler drop
 * a call whose asm it sees as pure (it is volatile, but be explicit). */
static volatile uint64_t chain_sink;

static double time_chain_ns(const struct clock_info *clock, uint64_t iters)
{
	uint64_t t0, t1;

	t0 = clock_now();
	chain_sink = cpu_add_chain(iters);
	t1 = clock_now();
	return clock_ticks_to_ns(clock, t1 - t0);
}

int machine_estimate_core_clock(const struct clock_info *clock, int nsamples, double sample_ms,
				struct machine_core_clock *out)
{
	uint64_t iters = 1u << 12;
	double ns;

	memset(out, 0, sizeof(*out));
	if (!clock || !(clock->ticks_per_ns > 0) || nsamples < 1 || nsamples > MACHINE_CLOCK_SAMPLES ||
	    !(sample_ms > 0))
		return -EINVAL;
	/* Size the chain: grow until one run is at least 0.5 ms (well above
	 * timer resolution and empty-region cost), then scale to sample_ms.
	 * This also warms the core out of an idle P-state before sampling. */
	while ((ns = time_chain_ns(clock, iters)) < 0.5e6 && iters < (1ull << 40))
		iters *= 2;
	if (ns > 0)
		iters = (uint64_t)((double)iters * sample_ms * 1e6 / ns) + 1;
	out->sample_ms = sample_ms;
	out->adds_per_sample = (unsigned long long)(iters * CPU_ADD_CHAIN_PER_ITER);
	for (int i = 0; i < nsamples; i++) {
		double mhz;

		ns = time_chain_ns(clock, iters);
		/* One add per cycle: adds per ns is GHz. */
		mhz = ns > 0 ? (double)out->adds_per_sample / ns * 1e3 : 0.0;
		out->samples_mhz[i] = mhz;
		if (i == 0 || mhz < out->min_mhz)
			out->min_mhz = mhz;
		if (i == 0 || mhz > out->max_mhz)
			out->max_mhz = mhz;
	}
	out->nsamples = nsamples;
	return 0;
}

void machine_core_clock_state(double min_mhz, double max_mhz, double floor_pct, struct machine_clock_state *out)
{
	double tol = isfinite(floor_pct) ? floor_pct : MACHINE_CLOCK_STEADY_MIN_PCT;

	out->tolerance_pct = fmin(fmax(tol, MACHINE_CLOCK_STEADY_MIN_PCT), MACHINE_CLOCK_STEADY_MAX_PCT);
	out->known = min_mhz > 0 && max_mhz >= min_mhz && isfinite(max_mhz);
	out->spread_pct = out->known ? 100.0 * (max_mhz / min_mhz - 1.0) : NAN;
	out->steady = out->known && out->spread_pct <= out->tolerance_pct;
}

/* Timed here, or the samples a recorded host holds (a replay times
 * nothing: -ENODATA when it holds none). */
static int core_clock(const struct clock_info *clock, struct machine_core_clock *out)
{
	double mhz[MACHINE_CLOCK_SAMPLES];
	int n = host_recorded_core_clock(mhz, MACHINE_CLOCK_SAMPLES);

	if (n == -ENODEV)
		return machine_estimate_core_clock(clock, MACHINE_CLOCK_SAMPLES, MACHINE_CLOCK_SAMPLE_MS, out);
	memset(out, 0, sizeof(*out));
	if (n <= 0)
		return -ENODATA;
	for (int i = 0; i < n; i++) {
		out->samples_mhz[i] = mhz[i];
		out->min_mhz = i == 0 || mhz[i] < out->min_mhz ? mhz[i] : out->min_mhz;
		out->max_mhz = i == 0 || mhz[i] > out->max_mhz ? mhz[i] : out->max_mhz;
	}
	out->nsamples = n;
	out->sample_ms = MACHINE_CLOCK_SAMPLE_MS;
	return 0;
}

static const char *errno_name(int err)
{
	switch (err) {
	case 0: return NULL;
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case ENOSYS: return "ENOSYS";
	case EBUSY: return "EBUSY";
	case ENODATA: return "ENODATA";
	default: return "E?";
	}
}

const char *machine_signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGILL: return "SIGILL";
	case SIGBUS: return "SIGBUS";
	case SIGTRAP: return "SIGTRAP";
	case SIGKILL: return "SIGKILL";
	default: return "another signal";
	}
}

void machine_describe_pmu(struct machine_info *m)
{
	const struct pmu_probe *p = &m->pmu;
	char rdpmc[160];
	size_t used;

	if (m->pmu_rc == -ENODATA)
		snprintf(rdpmc, sizeof(rdpmc), "whether user-space RDPMC works is not recorded");
	else if (!p->rdpmc_tested)
		snprintf(rdpmc, sizeof(rdpmc), "this ISA has no user-space counter read");
	else if (p->rdpmc_works)
		snprintf(rdpmc, sizeof(rdpmc), "user-space RDPMC works%s",
			 p->rdpmc_with_mmap ? " while a perf event is mmapped" : "");
	else if (p->rdpmc_child_signal)
		snprintf(rdpmc, sizeof(rdpmc), "user-space RDPMC faults (the probing child died of %s)",
			 machine_signal_name(p->rdpmc_child_signal));
	else
		snprintf(rdpmc, sizeof(rdpmc), "the RDPMC probe child exited with status %d", p->rdpmc_child_status);

	if (p->hardware_counters)
		/* Only what the code does: the probe opened a counter, but no
		 * section opens one beside its timing (tests/unit/test_machine.c
		 * fails if this promises counting while none does). */
		used = (size_t)snprintf(m->pmu_meaning, sizeof(m->pmu_meaning),
					"Hardware counters are available to this process (a cycles counter opened), "
					"but no section counts with them: every figure here is bounded by timing "
					"alone, not confirmed by counters; ");
	else if (p->hw_errno == ENODATA)
		used = (size_t)snprintf(m->pmu_meaning, sizeof(m->pmu_meaning),
					"Whether hardware counters exist is not recorded for this host: every figure "
					"here is bounded by timing alone, not confirmed by counters; ");
	else
		used = (size_t)snprintf(m->pmu_meaning, sizeof(m->pmu_meaning),
					"No hardware counters (perf_event_open for cycles failed with %s): cache "
					"misses, cycles and outstanding misses cannot be counted, so every figure "
					"here is bounded by timing alone, not confirmed by counters; ",
					m->pmu_errno_name ? m->pmu_errno_name : "an error");
	if (used < sizeof(m->pmu_meaning))
		snprintf(m->pmu_meaning + used, sizeof(m->pmu_meaning) - used, "%s.", rdpmc);
}

/* The kinds of core the process may run on: multi-threaded sections spread
 * over the start-up mask, so a mask that spans two kinds mixes them. */
static void gather_core_types(struct machine_info *m)
{
	static int cpus[HOST_CPUS_MAX];
	int n;

	coretype_read(&m->core_types);
	n = host_allowed_cpus(cpus, HOST_CPUS_MAX);
	m->allowed_core_types = coretype_count_among(&m->core_types, cpus, n < 0 ? 0 : n);
}

int machine_probe(struct machine_info *m, const struct clock_info *clock)
{
	memset(m, 0, sizeof(*m));
	if (!clock || !(clock->ticks_per_ns > 0))
		return -EINVAL;
	if (host_recorded_dir())
		snprintf(m->facts_from, sizeof(m->facts_from), "recorded host %s", host_recorded_dir());
	else
		snprintf(m->facts_from, sizeof(m->facts_from), "this machine");
	topo_read(&m->topo);
	m->pinned_cpu = single_allowed_cpu();
	m->topo.cpu = m->pinned_cpu;
	m->cpu_id_known = cpu_identify(&m->cpu) == 0;
	gather_core_types(m);
	gather_caches(m);
	gather_pages(m);

	m->timer_source = clock->source;
	m->timer_invariant = clock->invariant;
	m->ticks_per_ns = clock->ticks_per_ns;
	m->timer_resolution_ns = clock_ticks_to_ns(clock, clock->resolution_ticks);

	m->core_clock_rc = core_clock(clock, &m->core_clock);

	m->pmu_rc = pmu_probe(&m->pmu);
	m->pmu_errno_name = errno_name(m->pmu.hw_errno);
	machine_describe_pmu(m);
	return 0;
}
