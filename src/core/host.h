/*
 * The host seam: every fact mlpscope reads about the machine it runs on
 * comes through here. sysfs and procfs files, CPUID leaves and XCR0, the
 * AArch64 HWCAP and CTR_EL0, the CPUs online and allowed, the base page
 * size, whether perf_event_open opens a cycles counter and whether a
 * user-space counter read works. They come from the running machine, or
 * from a recorded host: a folder holding one machine's files under their
 * absolute paths (proc/cpuinfo, sys/devices/system/cpu/cpu0/cache/...) and
 * host.txt, its answers to what no file holds (docs/METHODOLOGY.md, "Recorded
 * hosts"; tools/record_host.sh writes one). A file the folder lacks reads as
 * absent, as on a kernel without it. The tests point the seam at
 * tests/data/cpus/<cpu>/host and tests/data/hosts/<name>; MLPSCOPE_HOST does
 * the same for the binary, a testing aid the report names.
 * Not here: what this process observes of itself (/proc/self/smaps, maps,
 * exe and the page size its own mappings use) is read live whatever the
 * host, since it describes this run's mappings; and the counter the clock
 * times with (arch.h), which is the instrument, not a claim.
 */
#ifndef MLPSCOPE_CORE_HOST_H
#define MLPSCOPE_CORE_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* CPU numbers a host may name: 0 .. HOST_CPUS_MAX - 1 (glibc's cpu_set_t). */
#define HOST_CPUS_MAX 1024
#define HOST_CLOCK_SAMPLES_MAX 8
#define HOST_NAME_LEN 64

/* Read facts from the recorded host in dir from now on: 0, or -errno
 * (-EPROTO for a host.txt that breaks its format) with err naming the
 * folder, the line and the rule. The previous source stays on failure. */
int host_use_recorded(const char *dir, char *err, size_t errlen);

/* Read facts from the running machine (the default). */
void host_use_live(void);

/* The recorded host's folder, NULL while facts come from this machine. */
const char *host_recorded_dir(void);

/* How many facts were asked of the seam since the process started: the
 * test runner reruns, once per recorded host, each test that asked any. */
unsigned long host_reads(void);

/* ---- files ---- */

/* Open a host file by its absolute path ("/proc/cpuinfo") for reading:
 * NULL with errno set when it is absent. */
FILE *host_fopen(const char *path);

/* The first line of a host file, newline removed: 0 or -errno. */
int host_read_line(const char *path, char *buf, size_t len);

/* The one decimal number a host file holds (perf_event_paranoid, hugetlb
 * page counts): 0, -errno when it cannot be opened, -EINVAL when it holds
 * no number. */
int host_read_long(const char *path, long *value);

/* Entries of a host folder, '.' names left out, sorted: how many (at most
 * max written, each cut to HOST_NAME_LEN - 1), or -errno. */
int host_list_dir(const char *path, char (*names)[HOST_NAME_LEN], int max);

/* This process's /proc/self/NAME ("smaps", "maps"), always this machine's. */
FILE *host_self_fopen(const char *name);

/* "/proc/self/NAME" into out (for a reader that takes a path). */
void host_self_path(const char *name, char *out, size_t len);

/* The page size this process's mappings use (always this machine's). */
size_t host_self_page_bytes(void);

/* CPUs this process may run threads on now (taskset, a cgroup's cpuset),
 * fewer where a cgroup's CPU quota gives less time (host_cpu_quota.h), at
 * least 1: always this machine's, for sizing work that is not a
 * measurement (parsing many files at once, mlpbunzip2's workers), never a
 * fact about the recorded host. */
int host_self_cpus(void);
/* Those CPUs' numbers, ascending, the same way (always this machine's;
 * the quota not applied): writes at most max, returns how many there are
 * (may exceed max), or -errno. */
int host_self_cpu_list(int *cpus, int max);

/* ---- CPUs ---- */

/* CPUs online (the host's count, not those this process may use). */
int host_online_cpus(void);

/* CPUs in the affinity mask the process had at start-up, ascending:
 * writes at most max, returns how many there are (may exceed max), or
 * -errno when the mask cannot be read. */
int host_allowed_cpus(int *cpus, int max);

/* CPUs the calling thread may run on now (after host_pin), the same way. */
int host_current_cpus(int *cpus, int max);

/* Pin the calling thread to cpu: 0 or -errno (-EINVAL when the host does
 * not allow it). On a recorded host the pin is also tried on this machine,
 * where the measurement runs, and its failure ignored. */
int host_pin(int cpu);

/* The base page size the host reports. */
size_t host_page_bytes(void);

/* ---- what the ISA states ---- */

/* The host's ISA: "x86_64", "aarch64", or another arch name. */
const char *host_isa(void);

/* CPUID leaf/subleaf into r (EAX, EBX, ECX, EDX): 0, or -ENOTSUP on a host
 * that is not x86-64. A leaf a recorded host does not hold reads as zeros. */
int host_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]);

/* XCR0, the register states the OS saves: 0, or -ENOTSUP where there is
 * none (not x86-64, or OSXSAVE clear). */
int host_xcr0(uint64_t *value);

/* AArch64: AT_HWCAP and CTR_EL0. 0, or -ENOTSUP on another ISA. */
int host_hwcap(unsigned long *value);
int host_ctr_el0(uint64_t *value);

/* ---- the PMU ---- */

/* perf_event_open of a user-space cycles counter on this thread: 0 when it
 * opened (and was closed again), else the errno (positive) it failed with;
 * ENODATA for a recorded host that does not say. */
int host_perf_cycles_errno(void);

/* What a user-space counter read did in a forked child. */
struct host_rdpmc {
	int tested;              /* 0 when the ISA has no user-space counter read */
	int child_signal;        /* signal the child died of, 0 when it exited */
	int child_status;        /* its exit status: 0 the read worked */
	int with_mmap;           /* the child mmapped a cycles event first (rdpmc=1 mode) */
};

/* Try the read in a forked child (a fault kills only the child): 0, or
 * -errno when the child could not be forked or waited for (-ENODATA: a
 * recorded host that does not say). */
int host_rdpmc_probe(struct host_rdpmc *out);

/* ---- measurements a recording replays ---- */

/* The core clock samples (MHz) a recorded host holds, in the order timed:
 * how many (at most max), 0 when it holds none, -ENODEV while facts come
 * from this machine (time it instead). */
int host_recorded_core_clock(double *mhz, int max);

#endif
