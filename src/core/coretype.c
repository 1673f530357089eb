/*
 * Core types from the host seam (core/coretype.h). The facts relied on:
 * Linux registers one PMU per core kind on Intel hybrid parts and lists its
 * CPUs in /sys/devices/<pmu>/cpus ("cpu_core" the P-cores, "cpu_atom" the
 * E-cores); arm64 exposes each CPU's MIDR_EL1 as a hex word (the part number
 * in bits 15:4, implementer in 31:24); cpu_capacity is scaled so the biggest
 * core reads 1024 and equal values mean equal cores to the scheduler.
 */
#include "core/coretype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPU_DIR "/sys/devices/system/cpu"

/* Entries of CPU_DIR: one per CPU plus a few dozen control files. */
#define CPU_DIR_ENTRIES (HOST_CPUS_MAX + 64)

/* "0-3,8" into set; false for anything else. */
static int parse_cpus(const char *s, unsigned char *set)
{
	int n = 0;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= HOST_CPUS_MAX)
			return -1;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= HOST_CPUS_MAX)
				return -1;
			s = end;
		}
		for (long c = a; c <= b; c++, n++)
			set[c] = 1;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return n;
}

/* The group named type, added when new: its index, -1 when full. */
static int group_index(struct coretype_map *m, const char *type, const char *source)
{
	for (int i = 0; i < m->ntypes; i++)
		if (!strcmp(m->types[i].type, type))
			return i;
	if (m->ntypes == CORETYPE_MAX)
		return -1;
	snprintf(m->types[m->ntypes].type, CORETYPE_NAME_LEN, "%s", type);
	m->types[m->ntypes].source = source;
	return m->ntypes++;
}

static void assign(struct coretype_map *m, int cpu, const char *type, const char *source)
{
	int g = group_index(m, type, source);

	if (g >= 0)
		m->type_of[cpu] = (signed char)g;
}

/* Intel hybrid: each PMU's CPU list. */
static int read_hybrid(struct coretype_map *m)
{
	static const struct {
		const char *path, *type;
	} kinds[] = {{"/sys/devices/cpu_core/cpus", "P-core"}, {"/sys/devices/cpu_atom/cpus", "E-core"}};
	char line[4096];

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		unsigned char set[HOST_CPUS_MAX] = {0};

		if (host_read_line(kinds[k].path, line, sizeof(line)) || parse_cpus(line, set) <= 0)
			continue;
		for (int cpu = 0; cpu < HOST_CPUS_MAX; cpu++)
			if (set[cpu])
				assign(m, cpu, kinds[k].type, "cpu_core/cpu_atom");
	}
	return m->ntypes;
}

/* Arm Ltd's part numbers (MIDR bits 15:4) of the cores that appear in
 * big.LITTLE pairs; any other part is named by its MIDR alone. */
static const char *arm_part_name(unsigned long midr)
{
	static const struct {
		unsigned part;
		const char *name;
	} parts[] = {
		{0xd03, "Cortex-A53"}, {0xd04, "Cortex-A35"}, {0xd05, "Cortex-A55"}, {0xd07, "Cortex-A57"},
		{0xd08, "Cortex-A72"}, {0xd09, "Cortex-A73"}, {0xd0a, "Cortex-A75"}, {0xd0b, "Cortex-A76"},
		{0xd0c, "Neoverse-N1"}, {0xd0d, "Cortex-A77"}, {0xd40, "Neoverse-V1"}, {0xd41, "Cortex-A78"},
		{0xd44, "Cortex-X1"}, {0xd46, "Cortex-A510"}, {0xd47, "Cortex-A710"}, {0xd48, "Cortex-X2"},
		{0xd49, "Neoverse-N2"}, {0xd4d, "Cortex-A715"}, {0xd4e, "Cortex-X3"}, {0xd4f, "Neoverse-V2"},
		{0xd80, "Cortex-A520"}, {0xd81, "Cortex-A720"}, {0xd82, "Cortex-X4"},
	};

	if (((midr >> 24) & 0xff) != 0x41)
		return NULL;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].part == ((midr >> 4) & 0xfff))
			return parts[i].name;
	return NULL;
}

/* The CPU numbers CPU_DIR lists (cpu0, cpu1 ...) into cpus: how many. */
static int list_cpus(int *cpus)
{
	static char names[CPU_DIR_ENTRIES][HOST_NAME_LEN];
	int n = host_list_dir(CPU_DIR, names, CPU_DIR_ENTRIES), ncpus = 0;

	for (int i = 0; i < n; i++) {
		char *end;
		long cpu;

		if (strncmp(names[i], "cpu", 3))
			continue;
		cpu = strtol(names[i] + 3, &end, 10);
		if (end != names[i] + 3 && !*end && cpu >= 0 && cpu < HOST_CPUS_MAX)
			cpus[ncpus++] = (int)cpu;
	}
	return ncpus;
}

/* One word per CPU (MIDR or capacity): a group per distinct value. */
static int read_per_cpu(struct coretype_map *m, const int *cpus, int ncpus, const char *file, const char *source)
{
	for (int i = 0; i < ncpus; i++) {
		char path[128], line[64], type[CORETYPE_NAME_LEN];
		unsigned long v;
		char *end;

		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/%s", cpus[i], file);
		if (host_read_line(path, line, sizeof(line)))
			continue;
		v = strtoul(line, &end, 0);
		if (end == line)
			continue;
		if (!strcmp(source, "cpu_capacity")) {
			snprintf(type, sizeof(type), "capacity %lu", v);
		} else {
			const char *name = arm_part_name(v);

			/* The low 32 bits are the MIDR; the kernel prints 64. */
			if (name)
				snprintf(type, sizeof(type), "%s (MIDR 0x%08lx)", name, v & 0xffffffffUL);
			else
				snprintf(type, sizeof(type), "MIDR 0x%08lx", v & 0xffffffffUL);
		}
		assign(m, cpus[i], type, source);
	}
	return m->ntypes;
}

/* "0-7,12" from the CPUs of group g. */
static void format_group(struct coretype_map *m, int g)
{
	char *out = m->types[g].cpus;
	size_t used = 0;

	out[0] = 0;
	for (int cpu = 0; cpu < HOST_CPUS_MAX; cpu++) {
		int last = cpu;

		if (m->type_of[cpu] != g)
			continue;
		while (last + 1 < HOST_CPUS_MAX && m->type_of[last + 1] == g)
			last++;
		if (used + 16 >= CORETYPE_CPUS_LEN)
			break;
		used += (size_t)(last > cpu ? snprintf(out + used, CORETYPE_CPUS_LEN - used, "%s%d-%d",
						       used ? "," : "", cpu, last)
					    : snprintf(out + used, CORETYPE_CPUS_LEN - used, "%s%d", used ? "," : "",
						       cpu));
		cpu = last;
	}
}

int coretype_read(struct coretype_map *m)
{
	static int cpus[HOST_CPUS_MAX];
	int ncpus;

	memset(m, 0, sizeof(*m));
	memset(m->type_of, -1, sizeof(m->type_of));
	if (!read_hybrid(m)) {
		ncpus = list_cpus(cpus);
		if (!read_per_cpu(m, cpus, ncpus, "regs/identification/midr_el1", "midr_el1"))
			read_per_cpu(m, cpus, ncpus, "cpu_capacity", "cpu_capacity");
	}
	for (int g = 0; g < m->ntypes; g++)
		format_group(m, g);
	return m->ntypes;
}

const char *coretype_of_cpu(const struct coretype_map *m, int cpu)
{
	if (cpu < 0 || cpu >= HOST_CPUS_MAX || m->type_of[cpu] < 0)
		return NULL;
	return m->types[m->type_of[cpu]].type;
}

int coretype_count_among(const struct coretype_map *m, const int *cpus, int n)
{
	unsigned char seen[CORETYPE_MAX] = {0};
	int count = 0;

	for (int i = 0; i < n; i++)
		if (cpus[i] >= 0 && cpus[i] < HOST_CPUS_MAX && m->type_of[cpus[i]] >= 0 &&
		    !seen[m->type_of[cpus[i]]]++)
			count++;
	return count;
}

void coretype_describe(const struct coretype_map *m, char *out, size_t len)
{
	size_t used = 0;

	if (!m->ntypes) {
		snprintf(out, len, "not stated by the host (no cpu_core/cpu_atom lists, midr_el1 or cpu_capacity)");
		return;
	}
	out[0] = 0;
	for (int g = 0; g < m->ntypes && used < len; g++)
		used += (size_t)snprintf(out + used, len - used, "%s%s %s", g ? ", " : "CPUs ", m->types[g].cpus,
					 m->types[g].type);
	if (used < len)
		snprintf(out + used, len - used, " (from %s)", m->types[0].source);
}
