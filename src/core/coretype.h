/*
 * Which kind of core each CPU is, as the host states it: a hybrid x86 part
 * lists its P-cores and E-cores in /sys/devices/cpu_core/cpus and
 * /sys/devices/cpu_atom/cpus; an AArch64 kernel gives each CPU's MIDR_EL1 in
 * /sys/devices/system/cpu/cpuN/regs/identification/midr_el1 (big.LITTLE
 * parts have two or three); failing both, cpu_capacity (the scheduler's
 * relative capacity) still separates big from little. Read through the host
 * seam only; a figure's core is named from this, not from CPU 0's identity.
 * Not here: what each kind of core measures (that is the sections' work).
 */
#ifndef MLPSCOPE_CORE_CORETYPE_H
#define MLPSCOPE_CORE_CORETYPE_H

#include <stddef.h>

#include "core/host.h"

#define CORETYPE_MAX 8
#define CORETYPE_NAME_LEN 48
#define CORETYPE_CPUS_LEN 128

struct coretype_group {
	char cpus[CORETYPE_CPUS_LEN]; /* list form: "0-7", "0-3,8" */
	char type[CORETYPE_NAME_LEN]; /* "P-core", "Cortex-A76 (MIDR 0x414fd0b0)", "capacity 1024" */
	const char *source;           /* "cpu_core/cpu_atom", "midr_el1" or "cpu_capacity" */
};

struct coretype_map {
	int ntypes;                   /* 0: the host states no core type */
	struct coretype_group types[CORETYPE_MAX];
	signed char type_of[HOST_CPUS_MAX]; /* index into types, -1 unstated */
};

/* Read the host's core types, the first source that states any (hybrid
 * lists, then MIDR per CPU, then cpu_capacity): how many types (0 when none
 * is stated; a host with more than CORETYPE_MAX kinds keeps the first). */
int coretype_read(struct coretype_map *m);

/* The type of cpu, NULL when the host does not state it. */
const char *coretype_of_cpu(const struct coretype_map *m, int cpu);

/* How many distinct types the n CPUs cover (0 when none is stated). */
int coretype_count_among(const struct coretype_map *m, const int *cpus, int n);

/* "CPUs 0-7 P-core, 8-15 E-core (from cpu_core/cpu_atom)", or "not stated
 * by the host (...)" when m holds none. */
void coretype_describe(const struct coretype_map *m, char *out, size_t len);

#endif
