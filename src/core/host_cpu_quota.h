/*
 * The CPU time a cgroup lets this process use, as a count of CPUs: a
 * container given 2 CPUs of a 64-CPU machine may still run on all 64
 * (its affinity), and 64 threads there take turns at 2 CPUs' worth of
 * time, each with its own memory.
 */
#ifndef MLPSCOPE_CORE_HOST_CPU_QUOTA_H
#define MLPSCOPE_CORE_HOST_CPU_QUOTA_H

/* The CPUs a cgroup's CPU bandwidth limit gives this process, rounded up:
 * cgroup v2's cpu.max, v1's cpu.cfs_quota_us over cpu.cfs_period_us, the
 * smallest over its cgroup and every parent the mount shows. 0 where no
 * limit is set or none can be read. root: the folder that stands for "/"
 * ("" for this machine; tests pass a tree of their own). */
int cpu_quota_cpus(const char *root);

#endif
