/*
 * What the performance-monitoring unit permits, and a small perf_event
 * counter layer. A guest without a virtual PMU has no hardware events
 * (perf_event_open fails with ENOENT or EOPNOTSUPP) and faults on RDPMC, yet
 * software events (task-clock, page-faults) exist on every Linux, so the
 * layer's plumbing can be exercised anywhere. Nothing here prints.
 */
#ifndef MLPSCOPE_CORE_PMU_H
#define MLPSCOPE_CORE_PMU_H

#include <stdint.h>

struct pmu_probe {
	int hardware_counters;   /* 1 when a user-space cycles counter opened for this thread */
	int hw_errno;            /* errno of that perf_event_open; 0 when it opened */
	int paranoid;            /* /proc/sys/kernel/perf_event_paranoid */
	int paranoid_known;      /* 0 when that file could not be read */
	int rdpmc_tested;        /* 0 when the ISA has no user-space counter read */
	int rdpmc_child_signal;  /* signal the probing child died from; 0 when it exited */
	int rdpmc_child_status;  /* its exit status when it exited: 0 = the read worked */
	int rdpmc_with_mmap;     /* 1 when the child mmapped a cycles event first (rdpmc=1 mode) */
	int rdpmc_works;         /* 1 when the child read a counter and exited cleanly */
};

/* Probe the three facts above through the host seam (core/host.h): on this
 * machine the RDPMC read runs in a forked child with core dumps off, so a
 * fault kills only the child. Returns 0, or -errno when the child could not
 * be forked or waited for (the other fields are still filled). */
int pmu_probe(struct pmu_probe *p);

/* Event kinds the layer opens: perf_event_attr type and config. */
struct pmu_event_spec {
	const char *name;        /* "task_clock_ns", "page_faults", "cycles" */
	uint32_t type;           /* PERF_TYPE_SOFTWARE, PERF_TYPE_HARDWARE, ... */
	uint64_t config;         /* PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_HW_CPU_CYCLES, ... */
};

#define PMU_GROUP_MAX 8

/* One perf_event group on the calling thread, any CPU, user space only. The
 * first event leads; the group is scheduled onto the PMU as a whole, so its
 * counts cover the same intervals. */
struct pmu_group {
	int fds[PMU_GROUP_MAX];
	uint64_t ids[PMU_GROUP_MAX];
	const char *names[PMU_GROUP_MAX];
	int n;
	/* The kernel's enabled/running times at the last pmu_group_enable:
	 * PERF_EVENT_IOC_RESET zeroes counts but not these, so each use is
	 * judged on its own time, not the group's lifetime. */
	uint64_t base_enabled_ns, base_running_ns;
	/* Filled by pmu_group_read, for the use since the last enable: */
	uint64_t values[PMU_GROUP_MAX];
	uint64_t time_enabled_ns;
	uint64_t time_running_ns;
	int counted;             /* time_running_ns > 0: the values are real counts */
	int multiplexed;         /* running < enabled: counted only part of the time */
};

/* Open n events as one group, disabled. Returns 0 or -errno (ENOENT or
 * EOPNOTSUPP for hardware events on a machine without them; nothing is left
 * open on error). */
int pmu_group_open(struct pmu_group *g, const struct pmu_event_spec *events, int n);

/* Zero the counts, note the group's enabled/running times so the next read
 * covers this use alone, and start / stop counting the whole group. 0 or
 * -errno. */
int pmu_group_enable(struct pmu_group *g);
int pmu_group_disable(struct pmu_group *g);

/* Read every count with time_enabled / time_running and set counted and
 * multiplexed. Values are raw, never scaled: a multiplexed group's counts
 * are partial and the caller must reject or flag them. 0 or -errno. */
int pmu_group_read(struct pmu_group *g);

/* Value of the event named name after pmu_group_read; -ENOENT when the group
 * has no such event, -ENODATA when the group did not run. */
int pmu_group_value(const struct pmu_group *g, const char *name, uint64_t *value);

void pmu_group_close(struct pmu_group *g);

/* Software events every Linux has, for the layer's own tests and for
 * experiments that want page faults alongside their timing. */
extern const struct pmu_event_spec pmu_event_task_clock;
extern const struct pmu_event_spec pmu_event_page_faults;
/* Hardware events: open only where pmu_probe found hardware_counters. */
extern const struct pmu_event_spec pmu_event_cycles;
extern const struct pmu_event_spec pmu_event_instructions;

#endif
