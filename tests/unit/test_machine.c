/*
 * The machine section: what it reads from each recorded host (identity,
 * caches from both sources and their comparison, CPUs, THP, hugetlb, the
 * PMU probe, TLBs) against that host's answers, so the suite holds it on
 * every host the runner substitutes; the writers on those facts. On this
 * machine itself (NEEDS_HOST): the perf_event group layer with software
 * events (which every Linux has, so its plumbing is tested for real even in
 * a guest with no PMU) and the forked RDPMC probe; the core-clock estimate
 * is a VALIDATE check.
 */
#include "../harness.h"
#include "../corpus.h"

#include "core/cpu_id.h"
#include "core/clock.h"
#include "exp/machine.h"
#include "core/pmu.h"
#include "core/host.h"
#include "core/team.h"
#include "util/jsonw.h"
#include "report/machine_out.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct clock_info test_clock;

static const struct clock_info *calibrated_clock(void)
{
	if (test_clock.ticks_per_ns == 0)
		clock_init(&test_clock);
	return &test_clock;
}

/* Touch one byte per page of a region. volatile: the stores are the point. */
static void touch_pages(volatile char *p, size_t bytes, size_t page)
{
	for (size_t off = 0; off < bytes; off += page)
		p[off] = 1;
}

TEST(pmu_software_group_counts_page_faults_of_a_fresh_region, NEEDS_HOST)
{
	const struct pmu_event_spec ev[] = {pmu_event_task_clock, pmu_event_page_faults};
	size_t page = (size_t)sysconf(_SC_PAGESIZE), npages = 256, bytes = npages * page;
	struct pmu_group g;
	uint64_t first = 0, again = 0, task_ns = 0;
	char *p;
	int rc = pmu_group_open(&g, ev, 2);

	if (rc == -ENOSYS || rc == -EACCES || rc == -EPERM)
		SKIP("perf_event_open refused even software events here (%s)", strerror(-rc));
	CHECK(rc == 0, "pmu_group_open(task-clock, page-faults): %s", strerror(-rc));
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED, "mmap: %s", strerror(errno));
	/* Small pages only: a THP would satisfy 512 first touches with one fault. */
	madvise(p, bytes, MADV_NOHUGEPAGE);

	CHECK(pmu_group_enable(&g) == 0, "enable");
	touch_pages(p, bytes, page);
	CHECK(pmu_group_disable(&g) == 0, "disable");
	CHECK(pmu_group_read(&g) == 0, "read");
	CHECK(g.counted, "group never ran (enabled %llu ns)", (unsigned long long)g.time_enabled_ns);
	CHECK(!g.multiplexed, "software group multiplexed: running %llu of %llu ns",
	      (unsigned long long)g.time_running_ns, (unsigned long long)g.time_enabled_ns);
	CHECK(pmu_group_value(&g, "page_faults", &first) == 0, "no page_faults value");
	CHECK(pmu_group_value(&g, "task_clock_ns", &task_ns) == 0 && task_ns > 0, "task clock %llu ns",
	      (unsigned long long)task_ns);
	/* Anonymous first touches fault once per page (no fault-around for
	 * anonymous memory); allow for a kernel that maps a few small folios. */
	CHECK(first >= npages / 2, "%llu faults for %zu fresh pages", (unsigned long long)first, npages);

	/* Enable resets: touching the now-present pages must add (almost) none. */
	CHECK(pmu_group_enable(&g) == 0, "re-enable");
	touch_pages(p, bytes, page);
	CHECK(pmu_group_disable(&g) == 0, "disable");
	CHECK(pmu_group_read(&g) == 0, "read");
	CHECK(pmu_group_value(&g, "page_faults", &again) == 0, "no page_faults value");
	CHECK(again < 8, "%llu faults touching %zu present pages", (unsigned long long)again, npages);
	munmap(p, bytes);
	pmu_group_close(&g);
	snprintf(tctx->message, sizeof(tctx->message), "%llu faults for %zu fresh pages, %llu for present ones",
		 (unsigned long long)first, npages, (unsigned long long)again);
}

static void spin_cpu_ns(uint64_t ns)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t.tv_nsec - t0.tv_nsec) < ns);
}

/* A group used twice judges the second use on its own time: the kernel's
 * RESET zeroes counts but not enabled/running, so without the baseline the
 * second, empty use would report the first use's milliseconds too. */
TEST(pmu_group_reused_judges_each_use_on_its_own_time, NEEDS_HOST)
{
	const struct pmu_event_spec ev[] = {pmu_event_task_clock};
	struct pmu_group g;
	uint64_t first_ns;
	int rc = pmu_group_open(&g, ev, 1);

	if (rc == -ENOSYS || rc == -EACCES || rc == -EPERM)
		SKIP("perf_event_open refused even software events here (%s)", strerror(-rc));
	CHECK(rc == 0, "pmu_group_open(task-clock): %s", strerror(-rc));
	CHECK(pmu_group_enable(&g) == 0, "enable");
	/* Spin, not sleep: a per-thread event's times advance only while the
	 * thread runs. */
	spin_cpu_ns(20000000);
	CHECK(pmu_group_disable(&g) == 0 && pmu_group_read(&g) == 0, "first use");
	first_ns = g.time_enabled_ns;
	CHECK(first_ns >= 15000000, "first use enabled %llu ns, spun 20 ms of CPU", (unsigned long long)first_ns);
	CHECK(pmu_group_enable(&g) == 0, "re-enable");
	CHECK(pmu_group_disable(&g) == 0 && pmu_group_read(&g) == 0, "second use");
	CHECK(g.time_enabled_ns < first_ns / 2, "second, empty use enabled %llu ns after a first of %llu: cumulative",
	      (unsigned long long)g.time_enabled_ns, (unsigned long long)first_ns);
	CHECK(g.time_running_ns <= g.time_enabled_ns, "running %llu > enabled %llu",
	      (unsigned long long)g.time_running_ns, (unsigned long long)g.time_enabled_ns);
	pmu_group_close(&g);
}

/* Whether any file under dir (recursively) other than pmu.c/pmu.h calls
 * the counter-group layer: the only way a section could count. */
static bool src_opens_counter_group(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char path[PATH_MAX], line[512];
		struct stat st;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			found = src_opens_counter_group(path);
			continue;
		}
		if (!strcmp(e->d_name, "pmu.c") || !strcmp(e->d_name, "pmu.h") || !(f = fopen(path, "r")))
			continue;
		while (!found && fgets(line, sizeof(line), f))
			found = strstr(line, "pmu_group_open(") != NULL;
		fclose(f);
	}
	closedir(d);
	return found;
}

/* pmu_meaning may promise counting only where a section counts: while no
 * file in src/ but the layer itself opens a counter group, the meaning on a
 * machine with counters must say nothing is counted. */
TEST(machine_pmu_meaning_promises_no_counting_no_section_does)
{
	static struct machine_info m;
	char src[PATH_MAX];

	snprintf(src, sizeof(src), "%s/../src", test_bin_dir());
	if (access(src, R_OK))
		snprintf(src, sizeof(src), "src");
	CHECK(!access(src, R_OK), "cannot find src/ beside %s", test_bin_dir());
	memset(&m, 0, sizeof(m));
	m.pmu.hardware_counters = 1;
	m.pmu.rdpmc_tested = 1;
	m.pmu.rdpmc_works = 1;
	machine_describe_pmu(&m);
	if (src_opens_counter_group(src))
		return;  /* a section counts: the meaning may say so */
	CHECK(!strstr(m.pmu_meaning, "can be counted") && !strstr(m.pmu_meaning, "beside the timing"),
	      "promises counting while no section counts: %s", m.pmu_meaning);
	CHECK(strstr(m.pmu_meaning, "no section counts"), "does not say no section counts: %s", m.pmu_meaning);
	/* without counters it must not promise them either */
	m.pmu.hardware_counters = 0;
	m.pmu_errno_name = "ENOENT";
	machine_describe_pmu(&m);
	CHECK(strstr(m.pmu_meaning, "No hardware counters") && strstr(m.pmu_meaning, "ENOENT"), "%s", m.pmu_meaning);
}

TEST(pmu_group_refuses_values_it_did_not_count, NEEDS_HOST)
{
	const struct pmu_event_spec ev[] = {pmu_event_page_faults};
	struct pmu_group g;
	uint64_t v = 12345;
	int rc = pmu_group_open(&g, ev, 1);

	if (rc == -ENOSYS || rc == -EACCES || rc == -EPERM)
		SKIP("perf_event_open refused even software events here (%s)", strerror(-rc));
	CHECK(rc == 0, "open: %s", strerror(-rc));
	/* Never enabled: the group has not run, so it has no value to give. */
	CHECK(pmu_group_read(&g) == 0, "read");
	CHECK(!g.counted, "a never-enabled group claims it ran for %llu ns", (unsigned long long)g.time_running_ns);
	CHECK(pmu_group_value(&g, "page_faults", &v) == -ENODATA && v == 12345, "value of an idle group given");
	CHECK(pmu_group_value(&g, "cycles", &v) == -ENOENT, "value of an event not in the group given");
	pmu_group_close(&g);
	CHECK(pmu_group_open(&g, ev, 0) == -EINVAL, "empty group accepted");
	CHECK(pmu_group_open(&g, ev, PMU_GROUP_MAX + 1) == -EINVAL, "oversized group accepted");
}

TEST(pmu_hardware_group_agrees_with_the_probe, NEEDS_HOST)
{
	const struct pmu_event_spec ev[] = {pmu_event_cycles, pmu_event_instructions};
	struct pmu_probe p;
	struct pmu_group g;
	int rc;

	CHECK(pmu_probe(&p) == 0, "probe failed");
	rc = pmu_group_open(&g, ev, 2);
	if (p.hardware_counters) {
		CHECK(rc == 0, "probe opened cycles but the group failed: %s", strerror(-rc));
		pmu_group_close(&g);
		snprintf(tctx->message, sizeof(tctx->message), "hardware counters present");
	} else {
		CHECK(rc == -p.hw_errno, "probe said errno %d, the group got %d", p.hw_errno, -rc);
		snprintf(tctx->message, sizeof(tctx->message), "no hardware counters: %s", strerror(p.hw_errno));
	}
}

TEST(pmu_rdpmc_probe_runs_in_a_child_and_the_parent_survives, NEEDS_HOST)
{
	struct pmu_probe p;
	pid_t self = getpid();
	int rc = pmu_probe(&p);

	CHECK(rc == 0, "pmu_probe: %s", strerror(-rc));
	CHECK(getpid() == self, "the probe returned in another process");
#if defined(__x86_64__) || defined(__aarch64__)
	CHECK(p.rdpmc_tested, "this ISA has a user counter read, yet the child did not try it (status %d)",
	      p.rdpmc_child_status);
#endif
	/* Either the read worked (clean exit 0) or the child died of a signal;
	 * a nonzero exit status means the child itself went wrong. */
	CHECK(p.rdpmc_works || p.rdpmc_child_signal || !p.rdpmc_tested,
	      "child neither read the counter nor faulted: exit status %d", p.rdpmc_child_status);
	CHECK(!(p.rdpmc_works && p.rdpmc_child_signal), "child both worked and died");
	snprintf(tctx->message, sizeof(tctx->message), "rdpmc %s, child signal %d (%s)%s; cycles errno %d; paranoid %d",
		 p.rdpmc_works ? "works" : "faults", p.rdpmc_child_signal, machine_signal_name(p.rdpmc_child_signal),
		 p.rdpmc_with_mmap ? " with event mmapped" : "", p.hw_errno, p.paranoid);
}

VALIDATE(machine_core_clock_estimate_is_positive_and_ordered)
{
	const struct clock_info *clock = calibrated_clock();
	struct machine_core_clock c;
	int rc = machine_estimate_core_clock(clock, MACHINE_CLOCK_SAMPLES, 2.0, &c);
	char *s = tctx->message;
	size_t left = sizeof(tctx->message);

	CHECK(rc == 0, "estimate: %s", strerror(-rc));
	CHECK(c.nsamples == MACHINE_CLOCK_SAMPLES, "%d samples", c.nsamples);
	CHECK(c.min_mhz > 0 && c.min_mhz <= c.max_mhz, "min %.1f max %.1f MHz", c.min_mhz, c.max_mhz);
	for (int i = 0; i < c.nsamples; i++)
		CHECK(c.samples_mhz[i] >= c.min_mhz && c.samples_mhz[i] <= c.max_mhz, "sample %d (%.1f) outside range",
		      i, c.samples_mhz[i]);
	/* A chain the compiler or core collapsed would read far above any
	 * real clock; one that is not one add per cycle far below. */
	CHECK(c.min_mhz > 100 && c.max_mhz < 10000, "implausible core clock %.0f-%.0f MHz", c.min_mhz, c.max_mhz);
	CHECK(machine_estimate_core_clock(NULL, 3, 1.0, &c) == -EINVAL, "NULL clock accepted");
	CHECK(machine_estimate_core_clock(clock, MACHINE_CLOCK_SAMPLES + 1, 1.0, &c) == -EINVAL, "too many samples");
	rc = machine_estimate_core_clock(clock, MACHINE_CLOCK_SAMPLES, 2.0, &c);
	CHECK(rc == 0, "second estimate");
	for (int i = 0; i < c.nsamples && left > 8; i++) {
		int n = snprintf(s, left, "%s%.0f", i ? " " : "MHz ", c.samples_mhz[i]);

		s += n;
		left -= (size_t)n;
	}
}

/* The answers of the corpus entry (or hand-made host) whose host/ the
 * runner points the seam at: tests/data/cpus/<cpu>/answers.txt. */
static int current_answers(struct corpus_cpu *c, char *err, size_t errlen)
{
	char dir[256];
	const char *host = test_host_dir();
	const char *slash = host ? strrchr(host, '/') : NULL;

	if (!slash) {
		snprintf(err, errlen, "no recorded host in use");
		return -ENOENT;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - host), host);
	return corpus_cpu_load(dir, c, err, errlen);
}

static struct machine_info probed;
static struct corpus_cpu probed_answers;

/* machine_probe on the recorded host in use, and its answers. */
static int probe_recorded(char *err, size_t errlen)
{
	int rc = current_answers(&probed_answers, err, errlen);

	if (rc)
		return rc;
	rc = machine_probe(&probed, test_stub_clock());
	if (rc)
		snprintf(err, errlen, "machine_probe: %s", strerror(-rc));
	return rc;
}

static int count_source(const struct machine_info *m, const char *source)
{
	int n = 0;

	for (int i = 0; i < m->ncaches; i++)
		n += !strcmp(m->caches[i].source, source);
	return n;
}

/* What the machine section reads from the host, each fact against the
 * host's answer (host.* keys): run on every recorded host, hostile ones
 * included. */
TEST(machine_facts_are_the_recorded_hosts_answers)
{
	struct cpu_tlb tlbs[CPU_TLB_MAX];
	unsigned threads = 0;
	int allowed = team_allowed_cpus(NULL, 0), ntlb = cpu_read_tlbs(tlbs, CPU_TLB_MAX);
	char err[512];
	double want;

	CHECK(probe_recorded(err, sizeof(err)) == 0, "%s", err);
	const struct machine_info *m = &probed;
	const struct {
		const char *key;
		double got;
	} facts[] = {
		{"host.online_cpus", m->topo.online_cpus},
		{"host.family", m->cpu.family},
		{"host.model", m->cpu.model},
		{"host.features", m->cpu.nfeatures},
		{"host.caches_sysfs", count_source(m, "sysfs")},
		{"host.caches_cpu", m->ncaches - count_source(m, "sysfs")},
		{"host.l1d_bytes", (double)topo_cache_bytes_at(&m->topo, 1)},
		{"host.l2_bytes", (double)topo_cache_bytes_at(&m->topo, 2)},
		{"host.llc_bytes", (double)topo_largest_cache_bytes(&m->topo)},
		{"host.cache_disagreements", m->ndisagreements},
		{"host.thp_madvise", !strcmp(m->thp_enabled, "madvise")},
		{"host.hugepage_sizes", m->nhugepage_sizes},
		{"host.hardware_counters", m->pmu.hardware_counters},
		{"host.pmu_errno", m->pmu.hw_errno},
		{"host.rdpmc_tested", m->pmu.rdpmc_tested},
		{"host.rdpmc_works", m->pmu.rdpmc_works},
		{"host.core_clock_samples", m->core_clock.nsamples},
		{"host.mem_available_bytes", (double)m->topo.mem_available_bytes},
		{"host.core_types", m->core_types.ntypes},
		{"host.allowed_core_types", m->allowed_core_types},
	};

	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		CHECK(corpus_answer_get(&probed_answers, facts[i].key, &want), "%s: no answer %s", probed_answers.name,
		      facts[i].key);
		CHECK(facts[i].got == want, "%s: %s is %.0f, answer %.0f", probed_answers.name, facts[i].key,
		      facts[i].got, want);
	}
	CHECK(corpus_answer_get(&probed_answers, "host.allowed_cpus", &want) && allowed == want,
	      "%s: %d CPUs allowed", probed_answers.name, allowed);
	CHECK(team_resolve_threads(0, &threads, err, sizeof(err)) == 0 &&
		      corpus_answer_get(&probed_answers, "host.threads_default", &want) && threads == want,
	      "%s: --threads 0 resolves to %u", probed_answers.name, threads);
	CHECK(corpus_answer_get(&probed_answers, "host.tlbs", &want) && (isnan(want) ? ntlb < 0 : ntlb == want),
	      "%s: cpu_read_tlbs gave %d", probed_answers.name, ntlb);
	snprintf(tctx->message, sizeof(tctx->message), "%s", probed_answers.name);
}

/* The seam serves a scratch recorded host for one check, then the runner's. */
static void use_scratch_host(const char *dir)
{
	char err[256];

	if (host_use_recorded(dir, err, sizeof(err)))
		fprintf(stderr, "%s\n", err);
}

static void restore_runner_host(void)
{
	char err[256];

	if (!test_host_dir())
		host_use_live();
	else if (host_use_recorded(test_host_dir(), err, sizeof(err)))
		fprintf(stderr, "%s\n", err);
}

TEST(machine_compare_caches_flags_each_disagreement)
{
	struct machine_cache cs[] = {
		{{1, "Data", 32768, 64, 8}, "sysfs"},
		{{3, "Unified", 32u << 20, 64, 16}, "sysfs"},
		{{1, "Data", 32768, 64, 8}, "cpuid"},
		{{3, "Unified", 16u << 20, 64, 16}, "cpuid"},
		{{2, "Unified", 512u << 10, 64, 8}, "sysfs"},
	};
	char notes[MACHINE_MAX_NOTES][MACHINE_NOTE_LEN];
	int n = machine_compare_caches(cs, 5, notes, MACHINE_MAX_NOTES);

	CHECK(n == 2, "%d notes, expected L3 size and missing L2", n);
	CHECK(strstr(notes[0], "L3 Unified size") && strstr(notes[0], "32 MiB") && strstr(notes[0], "16 MiB"),
	      "note: %s", notes[0]);
	CHECK(strstr(notes[1], "L2 Unified") && strstr(notes[1], "no such cache"), "note: %s", notes[1]);
	/* Agreement, and a source that states only lines, give no notes. */
	cs[3].desc.size_bytes = 32u << 20;
	CHECK(machine_compare_caches(cs, 4, notes, MACHINE_MAX_NOTES) == 0, "agreeing sources: %s", notes[0]);
	struct machine_cache arm[] = {
		{{1, "Data", 65536, 64, 4}, "sysfs"},
		{{2, "Unified", 1u << 20, 64, 8}, "sysfs"},
		{{1, "Data", 0, 64, 0}, "ctr_el0"},
	};
	CHECK(machine_compare_caches(arm, 3, notes, MACHINE_MAX_NOTES) == 0, "line-only source: %s", notes[0]);
	arm[2].desc.line_bytes = 128;
	CHECK(machine_compare_caches(arm, 3, notes, MACHINE_MAX_NOTES) == 1 && strstr(notes[0], "line"),
	      "line mismatch not flagged");
}

TEST(machine_thp_bracketed_mode_parses)
{
	static const char *path = "/sys/kernel/mm/transparent_hugepage/enabled";
	static const char *const folders[] = {"/sys", "/sys/kernel", "/sys/kernel/mm", "/sys/kernel/mm/transparent_hugepage"};
	char dir[256], file[400], out[32];
	int rc;

	test_scratch_make(dir, sizeof(dir), "thp");
	CHECK(dir[0], "mkdtemp");
	snprintf(file, sizeof(file), "%s/host.txt", dir);
	CHECK(test_write_text(file, "isa x86_64\nonline_cpus 1\nallowed_cpus 0\npage_bytes 4096\nperf_cycles ENOENT\n"
				    "rdpmc SIGSEGV\n") == 0, "write");
	for (size_t i = 0; i < sizeof(folders) / sizeof(folders[0]); i++) {
		snprintf(file, sizeof(file), "%s%s", dir, folders[i]);
		CHECK(!mkdir(file, 0700), "mkdir %s", file);
	}
	snprintf(file, sizeof(file), "%s%s", dir, path);
	CHECK(test_write_text(file, "always defer defer+madvise [madvise] never\n") == 0, "write");
	use_scratch_host(dir);
	rc = machine_read_bracketed(path, out, sizeof(out));
	restore_runner_host();
	CHECK(rc == 0 && !strcmp(out, "madvise"), "got '%s'", out);
	CHECK(test_write_text(file, "always madvise never\n") == 0, "rewrite");
	use_scratch_host(dir);
	rc = machine_read_bracketed(path, out, sizeof(out));
	restore_runner_host();
	CHECK(rc == -EINVAL && !out[0], "no bracket accepted: '%s'", out);
	unlink(file);
	use_scratch_host(dir);
	rc = machine_read_bracketed(path, out, sizeof(out));
	restore_runner_host();
	CHECK(rc == -ENOENT, "missing file not reported");
	test_scratch_remove(dir, "thp");
}

/* A strict JSON syntax check (RFC 8259 grammar, no semantics), enough to say
 * the writer's output parses. Returns the position after the value or NULL. */
static const char *json_value(const char *s, int depth);

static const char *json_ws(const char *s)
{
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

static const char *json_string(const char *s)
{
	if (*s++ != '"')
		return NULL;
	while (*s && *s != '"') {
		if ((unsigned char)*s < 0x20)
			return NULL;
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)s[i]))
						return NULL;
				s += 4;
			} else if (!strchr("\"\\/bfnrt", *s) || !*s) {
				return NULL;
			}
		}
		s++;
	}
	return *s == '"' ? s + 1 : NULL;
}

static const char *json_number(const char *s)
{
	const char *start;

	if (*s == '-')
		s++;
	start = s;
	while (isdigit((unsigned char)*s))
		s++;
	if (s == start || (*start == '0' && s - start > 1))
		return NULL;
	if (*s == '.') {
		start = ++s;
		while (isdigit((unsigned char)*s))
			s++;
		if (s == start)
			return NULL;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		start = s;
		while (isdigit((unsigned char)*s))
			s++;
		if (s == start)
			return NULL;
	}
	return s;
}

static const char *json_members(const char *s, int depth, char close, int keyed)
{
	s = json_ws(s);
	if (*s == close)
		return s + 1;
	for (;;) {
		if (keyed) {
			s = json_string(json_ws(s));
			if (!s)
				return NULL;
			s = json_ws(s);
			if (*s++ != ':')
				return NULL;
		}
		s = json_value(s, depth + 1);
		if (!s)
			return NULL;
		s = json_ws(s);
		if (*s == close)
			return s + 1;
		if (*s++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *s, int depth)
{
	if (depth > 64)
		return NULL;
	s = json_ws(s);
	if (*s == '{')
		return json_members(s + 1, depth, '}', 1);
	if (*s == '[')
		return json_members(s + 1, depth, ']', 0);
	if (*s == '"')
		return json_string(s);
	if (!strncmp(s, "true", 4))
		return s + 4;
	if (!strncmp(s, "false", 5))
		return s + 5;
	if (!strncmp(s, "null", 4))
		return s + 4;
	return json_number(s);
}

static int json_parses(const char *doc)
{
	const char *end = json_value(doc, 0);

	return end && *json_ws(end) == 0;
}

static int write_machine_json(const struct machine_info *m, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len - 1, "w");
	struct jsonw w;

	if (!f)
		return -1;
	memset(buf, 0, len);
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	machine_write_json(m, &w, "machine");
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(f);
	return 0;
}

static char json_buf[32768];

TEST(machine_json_output_parses_and_has_the_schema_keys)
{
	static const char *keys[] = {
		"\"machine\": {", "\"facts_from\": \"recorded host ", "\"cpu_model\": \"", "\"caches_reported\": [",
		"\"thp\": {", "\"enabled\": ", "\"defrag\": ", "\"core_clock_mhz\": {", "\"min\": ", "\"max\": ",
		"\"samples\": [", "\"pmu\": {", "\"hardware_counters\": ", "\"errno\": ", "\"rdpmc_child_signal\": ",
		"\"paranoid\": ", "\"pmu_meaning\": \"",
	};
	char err[512];
	double sysfs = 0;

	CHECK(probe_recorded(err, sizeof(err)) == 0, "%s", err);
	CHECK(write_machine_json(&probed, json_buf, sizeof(json_buf)) == 0, "fmemopen");
	CHECK(json_parses(json_buf), "output does not parse:\n%.400s", json_buf);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		CHECK(strstr(json_buf, keys[i]), "missing %s", keys[i]);
	/* Each cache as its source gave it: sysfs rows where the host has them. */
	corpus_answer_get(&probed_answers, "host.caches_sysfs", &sysfs);
	CHECK(!sysfs == !strstr(json_buf, "\"source\": \"sysfs\""), "%s: %g sysfs caches, JSON %s", probed_answers.name,
	      sysfs, strstr(json_buf, "\"source\": \"sysfs\"") ? "has some" : "has none");
	CHECK(!sysfs || strstr(json_buf, "\"level\": 1"), "no L1 row");
	/* The checker itself must reject a broken document. */
	json_buf[strlen(json_buf) - 2] = 0;
	CHECK(!json_parses(json_buf), "truncated JSON accepted");
	CHECK(!json_parses("{\"a\": 1,}") && !json_parses("{\"a\" 1}") && json_parses("{\"a\": [1.5e3, null]}"),
	      "JSON checker is wrong");
}

TEST(machine_json_writes_null_for_facts_it_could_not_read)
{
	static struct machine_info m;

	memset(&m, 0, sizeof(m));
	snprintf(m.topo.cpu_model, sizeof(m.topo.cpu_model), "test \"cpu\"");
	m.core_clock_rc = -EINVAL;
	m.pmu_rc = -EAGAIN;
	m.pmu.hw_errno = ENOENT;
	m.pmu_errno_name = "ENOENT";
	CHECK(write_machine_json(&m, json_buf, sizeof(json_buf)) == 0, "fmemopen");
	CHECK(json_parses(json_buf), "output does not parse:\n%.400s", json_buf);
	CHECK(strstr(json_buf, "\"min\": null") && strstr(json_buf, "\"max\": null"), "clock not null: %.600s",
	      json_buf);
	CHECK(strstr(json_buf, "\"rdpmc_child_signal\": null"), "child signal invented");
	CHECK(strstr(json_buf, "\"paranoid\": null"), "paranoid invented");
	CHECK(strstr(json_buf, "\"enabled\": null"), "THP mode invented");
	CHECK(strstr(json_buf, "\"cpu_model\": \"test \\\"cpu\\\"\""), "model not escaped");
}

TEST(machine_text_section_says_what_the_pmu_means)
{
	static char text[8192];
	char err[512];
	FILE *f;

	CHECK(probe_recorded(err, sizeof(err)) == 0, "%s", err);
	f = fmemopen(text, sizeof(text) - 1, "w");
	CHECK(f, "fmemopen");
	machine_write_text(&probed, f);
	fclose(f);
	CHECK(strstr(text, "machine:") && strstr(text, "core clock") && strstr(text, "facts from"), "text: %s", text);
	CHECK(strstr(text, "(sysfs)") || !count_source(&probed, "sysfs"), "sysfs caches not tagged: %s", text);
	CHECK(strstr(text, "none reported") || probed.ncaches, "no caches, not said: %s", text);
	CHECK(strstr(text, "thp") && strstr(text, "pmu") && strstr(text, "meaning"), "text: %s", text);
	if (!probed.pmu.hardware_counters)
		CHECK(strstr(text, "bounded by timing"), "no-PMU meaning missing: %s", text);
}
