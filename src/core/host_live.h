/*
 * The running machine's answers behind the host seam (host.h): the only
 * code that asks the kernel and the CPU what this machine is. host.c calls
 * these while no recorded host is in use; nothing else includes this.
 */
#ifndef MLPSCOPE_CORE_HOST_LIVE_H
#define MLPSCOPE_CORE_HOST_LIVE_H

#include <stddef.h>
#include <stdint.h>

/* CPU numbers listed: those below HOST_CPUS_MAX (host.h) and glibc's cpu_set_t. */
int host_live_online_cpus(void);
int host_live_allowed_cpus(int *cpus, int max);
int host_live_current_cpus(int *cpus, int max);
int host_live_pin(int cpu);
size_t host_live_page_bytes(void);
const char *host_live_isa(void);
int host_live_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]);
int host_live_xcr0(uint64_t *value);
int host_live_hwcap(unsigned long *value);
int host_live_ctr_el0(uint64_t *value);
int host_live_perf_cycles_errno(void);
/* The RDPMC child's outcome, as struct host_rdpmc's fields (host.h). */
int host_live_rdpmc_probe(int *tested, int *child_signal, int *child_status, int *with_mmap);

#endif
