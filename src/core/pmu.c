/*
 * The PMU probe and the perf_event group layer. The probe's facts (the
 * paranoid level, whether a cycles counter opens, what a user-space read
 * did) come through the host seam, so a recorded host answers them. Facts
 * relied on by the groups: perf counts a thread's events only while the
 * group is scheduled on a PMU, and says so through time_enabled /
 * time_running (running < enabled means the group was multiplexed and its
 * raw counts are partial).
 */
#include "core/pmu.h"

#include "core/host.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

const struct pmu_event_spec pmu_event_task_clock = {"task_clock_ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK};
const struct pmu_event_spec pmu_event_page_faults = {"page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS};
const struct pmu_event_spec pmu_event_cycles = {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES};
const struct pmu_event_spec pmu_event_instructions = {"instructions", PERF_TYPE_HARDWARE,
						      PERF_COUNT_HW_INSTRUCTIONS};

#define GROUP_READ_FORMAT                                                                                  \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

/* This thread, any CPU, user space only: kernel and hypervisor time is not
 * the program under test, and excluding it keeps the open legal at
 * perf_event_paranoid 2 for an unprivileged user. Returns fd or -errno. */
static int event_open(const struct pmu_event_spec *e, int group_fd)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = e->type;
	attr.config = e->config;
	attr.read_format = GROUP_READ_FORMAT;
	/* Only the leader starts disabled; members follow it. */
	attr.disabled = group_fd < 0;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int pmu_probe(struct pmu_probe *p)
{
	struct host_rdpmc rd;
	long paranoid;
	int rc;

	memset(p, 0, sizeof(*p));
	p->paranoid_known = host_read_long("/proc/sys/kernel/perf_event_paranoid", &paranoid) == 0;
	if (p->paranoid_known)
		p->paranoid = (int)paranoid;
	p->hw_errno = host_perf_cycles_errno();
	p->hardware_counters = p->hw_errno == 0;
	rc = host_rdpmc_probe(&rd);
	p->rdpmc_tested = rd.tested;
	p->rdpmc_child_signal = rd.child_signal;
	p->rdpmc_child_status = rd.child_status;
	p->rdpmc_with_mmap = rd.with_mmap;
	p->rdpmc_works = rd.tested && !rd.child_signal && rd.child_status == 0;
	return rc;
}

int pmu_group_open(struct pmu_group *g, const struct pmu_event_spec *events, int n)
{
	int rc = 0;

	memset(g, 0, sizeof(*g));
	if (n < 1 || n > PMU_GROUP_MAX)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		int fd = event_open(&events[i], i ? g->fds[0] : -1);

		if (fd < 0) {
			rc = fd;
			goto out;
		}
		g->fds[i] = fd;
		g->names[i] = events[i].name;
		g->n = i + 1;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &g->ids[i]) < 0) {
			rc = -errno;
			goto out;
		}
	}
out:
	if (rc)
		pmu_group_close(g);
	return rc;
}

/* PERF_FORMAT_GROUP layout: nr, time_enabled, time_running, then
 * {value, id} per member. Times are the group's lifetime totals. */
static int read_group(const struct pmu_group *g, uint64_t *buf, size_t bufbytes)
{
	ssize_t got = read(g->fds[0], buf, bufbytes);

	if (got < 0)
		return -errno;
	if (got < (ssize_t)(3 * sizeof(uint64_t)))
		return -EIO;
	if (buf[0] != (uint64_t)g->n || (size_t)got < (3 + 2 * buf[0]) * sizeof(uint64_t))
		return -EIO;
	return 0;
}

int pmu_group_enable(struct pmu_group *g)
{
	uint64_t buf[3 + 2 * PMU_GROUP_MAX];
	int rc;

	if (g->n < 1)
		return -EBADF;
	if (ioctl(g->fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) < 0)
		return -errno;
	/* RESET leaves time_enabled/time_running growing over the group's
	 * life: a reused group would judge "counted" and "multiplexed" on
	 * cumulative time. Note them here; the read subtracts. */
	if ((rc = read_group(g, buf, sizeof(buf))))
		return rc;
	g->base_enabled_ns = buf[1];
	g->base_running_ns = buf[2];
	if (ioctl(g->fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0)
		return -errno;
	return 0;
}

int pmu_group_disable(struct pmu_group *g)
{
	if (g->n < 1)
		return -EBADF;
	if (ioctl(g->fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) < 0)
		return -errno;
	return 0;
}

int pmu_group_read(struct pmu_group *g)
{
	uint64_t buf[3 + 2 * PMU_GROUP_MAX];
	uint64_t nr;
	int rc;

	if (g->n < 1)
		return -EBADF;
	if ((rc = read_group(g, buf, sizeof(buf))))
		return rc;
	nr = buf[0];
	g->time_enabled_ns = buf[1] - g->base_enabled_ns;
	g->time_running_ns = buf[2] - g->base_running_ns;
	for (uint64_t k = 0; k < nr; k++) {
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];

		/* Match by id, not position: the kernel lists members in its own
		 * order, which need not be the order they were opened in. */
		for (int i = 0; i < g->n; i++)
			if (g->ids[i] == id)
				g->values[i] = value;
	}
	g->counted = g->time_running_ns > 0;
	g->multiplexed = g->time_running_ns < g->time_enabled_ns;
	return 0;
}

int pmu_group_value(const struct pmu_group *g, const char *name, uint64_t *value)
{
	for (int i = 0; i < g->n; i++) {
		if (strcmp(g->names[i], name))
			continue;
		if (!g->counted)
			return -ENODATA;
		*value = g->values[i];
		return 0;
	}
	return -ENOENT;
}

void pmu_group_close(struct pmu_group *g)
{
	/* Members first: closing the leader alone would promote them to
	 * singleton groups for the instant before they close. */
	for (int i = g->n - 1; i >= 0; i--)
		close(g->fds[i]);
	g->n = 0;
}
