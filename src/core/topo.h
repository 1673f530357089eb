/*
 * What the OS says about the machine: CPU model, caches (sysfs), free
 * memory, affinity and pinning, read through the host seam (core/host.h). Reported sizes are claims, not measurements:
 * a guest may be shown a whole socket's L3 while one core reaches its slice.
 */
#ifndef MLPSCOPE_CORE_TOPO_H
#define MLPSCOPE_CORE_TOPO_H

#include <stddef.h>

#define TOPO_MAX_CACHES 8

struct cache_desc {
	int level;
	char type[16];       /* "Data", "Instruction", "Unified" */
	size_t size_bytes;
	size_t line_bytes;
	int ways;
};

struct topo {
	char cpu_model[128];
	int cpu;                 /* CPU pinned to, -1 when unpinned */
	char affinity[256];      /* allowed CPUs after pinning, list form */
	int online_cpus;
	struct cache_desc caches[TOPO_MAX_CACHES];
	int ncaches;
	size_t line_bytes;       /* coherency line size; 64 when unreported */
	size_t mem_available_bytes;
};

/* Read everything above except pinning. */
void topo_read(struct topo *t);

/* Largest data/unified cache the OS reports, 0 when none. */
size_t topo_largest_cache_bytes(const struct topo *t);

/* Largest data/unified cache the OS reports at this level (1 = L1), 0 when
 * none. */
size_t topo_cache_bytes_at(const struct topo *t, int level);

/* A /proc/meminfo figure ("MemTotal", "MemAvailable") in bytes; 0 when the
 * file or the line cannot be read. */
size_t topo_meminfo_bytes(const char *field);

/* First CPU in the current affinity mask, -1 on error. */
int topo_default_cpu(void);

/* 1 when cpu is in the current affinity mask. */
int topo_cpu_allowed(int cpu);

/* Pin the calling thread to cpu and refresh t->cpu / t->affinity. Returns 0
 * or -errno. */
int topo_pin(struct topo *t, int cpu);

#endif
