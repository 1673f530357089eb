/*
 * The running machine's answers behind the host seam: the affinity mask
 * (captured before main, since main.c pins the main thread before the
 * experiments ask), the CPU count, the ISA's identification instructions,
 * HWCAP, and what the PMU permits. The PMU facts relied on: a guest
 * without a virtual PMU has no hardware events (perf_event_open fails with
 * ENOENT or EOPNOTSUPP) and faults on RDPMC, which on x86 with rdpmc=1 (the
 * default) works only while a perf event is mmapped by the process.
 */
#include "core/host_live.h"

#include "arch/arch.h"
#include "arch/cpu.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static cpu_set_t startup_mask;
static int startup_mask_errno = EAGAIN;

__attribute__((constructor)) static void capture_startup_mask(void)
{
	startup_mask_errno = sched_getaffinity(0, sizeof(startup_mask), &startup_mask) ? errno : 0;
}

static int list_mask(const cpu_set_t *set, int *cpus, int max)
{
	int n = 0;

	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set)) {
			if (n < max)
				cpus[n] = cpu;
			n++;
		}
	return n;
}

int host_live_online_cpus(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

int host_live_allowed_cpus(int *cpus, int max)
{
	if (startup_mask_errno)
		return -startup_mask_errno;
	return list_mask(&startup_mask, cpus, max);
}

int host_live_current_cpus(int *cpus, int max)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	return list_mask(&set, cpus, max);
}

int host_live_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

size_t host_live_page_bytes(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

const char *host_live_isa(void)
{
	return arch_name();
}

int host_live_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	return cpu_cpuid(leaf, sub, r);
}

int host_live_xcr0(uint64_t *value)
{
	uint32_t r[4];

	*value = 0;
	/* XGETBV faults unless the OS set OSXSAVE (leaf 1 ECX bit 27). */
	if (cpu_cpuid(1, 0, r) || !(r[2] & (1u << 27)))
		return -ENOTSUP;
	return cpu_xgetbv(value);
}

int host_live_hwcap(unsigned long *value)
{
	*value = 0;
	/* AT_HWCAP's bits mean different things per ISA: only AArch64's are
	 * decoded (core/cpu_id_arm.c). */
	if (strcmp(arch_name(), "aarch64"))
		return -ENOTSUP;
	*value = getauxval(AT_HWCAP);
	return 0;
}

int host_live_ctr_el0(uint64_t *value)
{
	return cpu_ctr_el0(value);
}

/* This thread, any CPU, user space only, as core/pmu.c opens its groups:
 * excluding kernel and hypervisor keeps the open legal at
 * perf_event_paranoid 2 for an unprivileged user. Returns fd or -errno. */
static int cycles_open(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int host_live_perf_cycles_errno(void)
{
	int fd = cycles_open();

	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

/* Child exit codes: 0 the read worked, CHILD_NO_INSN the ISA has no
 * user-space read. Anything else is a fault, seen as a signal. */
#define CHILD_NO_INSN 3

/* Runs in the forked child; never returns. Only syscalls and the counter
 * read: the parent may be multi-threaded, so no locks or stdio here. */
static void rdpmc_child(int report_fd)
{
	struct rlimit no_core = {0, 0};
	uint32_t index = 0;
	uint64_t value;
	char mmapped = '0';
	int fd;

	/* A faulting probe must not leave a core file or reach a sanitizer's
	 * handler, which would turn the signal into an exit status. */
	setrlimit(RLIMIT_CORE, &no_core);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	fd = cycles_open();
	if (fd >= 0) {
		long page = sysconf(_SC_PAGESIZE);
		struct perf_event_mmap_page *pc = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);

		/* Mmapping the event is what grants RDPMC under rdpmc=1, and its
		 * page names the hardware counter the event sits in. */
		if (pc != MAP_FAILED) {
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			mmapped = '1';
			if (pc->cap_user_rdpmc && pc->index)
				index = pc->index - 1;
		}
	}
	if (write(report_fd, &mmapped, 1) != 1)
		_exit(4);
	if (cpu_read_pmc(index, &value) == -ENOTSUP)
		_exit(CHILD_NO_INSN);
	__asm__ volatile("" : : "r"(value));
	_exit(0);
}

int host_live_rdpmc_probe(int *tested, int *child_signal, int *child_status, int *with_mmap)
{
	int pipefd[2], status, rc = 0;
	char mmapped = '0';
	pid_t pid;

	*tested = *child_signal = *child_status = *with_mmap = 0;
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	/* Flush so the child cannot inherit and later duplicate buffered
	 * output (it leaves with _exit, but be sure). */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return rc;
	}
	if (pid == 0) {
		close(pipefd[0]);
		rdpmc_child(pipefd[1]);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &mmapped, 1) != 1)
		mmapped = '0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	*with_mmap = mmapped == '1';
	if (WIFSIGNALED(status)) {
		*tested = 1;
		*child_signal = WTERMSIG(status);
	} else if (WIFEXITED(status)) {
		*child_status = WEXITSTATUS(status);
		*tested = *child_status != CHILD_NO_INSN;
	}
	return 0;
}
