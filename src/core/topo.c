/*
 * CPUs, pinning, model strings, cache sizes and memory figures as the OS
 * reports them, every one read through the host seam (core/host.h).
 * Pinning matters for a latency tool: a migration mid-run lands the chase on
 * a core whose private caches and TLBs are cold, and the scheduler moves
 * threads more readily on a 2-CPU VM than one expects.
 */
#include "core/topo.h"

#include "core/host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* sysfs sizes look like "32K", "1024K", "32768K" or "64M". */
static size_t parse_sysfs_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return (size_t)v;
}

static void read_cpu_model(struct topo *t)
{
	FILE *f = host_fopen("/proc/cpuinfo");
	char line[512];

	snprintf(t->cpu_model, sizeof(t->cpu_model), "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		/* x86 says "model name"; arm64 kernels give no name, only
		 * "CPU implementer"/"CPU part", which identify the core. */
		if (!strncmp(line, "model name", 10) || !strncmp(line, "Hardware", 8)) {
			colon += 2;
			colon[strcspn(colon, "\n")] = 0;
			snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", colon);
			break;
		}
		/* The first block's part, as cpu_id names CPU 0: on big.LITTLE
		 * the last block is another core (core/coretype.h names each). */
		if (!strncmp(line, "CPU part", 8) && !strcmp(t->cpu_model, "unknown")) {
			colon += 2;
			colon[strcspn(colon, "\n")] = 0;
			snprintf(t->cpu_model, sizeof(t->cpu_model), "arm part %s", colon);
		}
	}
	fclose(f);
}

static void read_caches(struct topo *t, int cpu)
{
	char path[128], buf[64];

	t->ncaches = 0;
	t->line_bytes = 64;
	for (int idx = 0; idx < 16 && t->ncaches < TOPO_MAX_CACHES; idx++) {
		struct cache_desc *c = &t->caches[t->ncaches];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
		if (host_read_line(path, buf, sizeof(buf)))
			break;
		c->level = atoi(buf);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
		if (host_read_line(path, c->type, sizeof(c->type)))
			snprintf(c->type, sizeof(c->type), "Unknown");
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, idx);
		c->size_bytes = host_read_line(path, buf, sizeof(buf)) ? 0 : parse_sysfs_size(buf);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/coherency_line_size", cpu, idx);
		c->line_bytes = host_read_line(path, buf, sizeof(buf)) ? 0 : (size_t)atol(buf);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/ways_of_associativity", cpu, idx);
		c->ways = host_read_line(path, buf, sizeof(buf)) ? 0 : atoi(buf);
		if (c->level == 1 && strcmp(c->type, "Instruction") && c->line_bytes)
			t->line_bytes = c->line_bytes;
		t->ncaches++;
	}
}

size_t topo_meminfo_bytes(const char *field)
{
	FILE *f = host_fopen("/proc/meminfo");
	size_t len = strlen(field);
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && sscanf(line + len, ": %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (size_t)kb * 1024;
}

static void format_affinity(char *out, size_t len)
{
	int cpus[HOST_CPUS_MAX], n = host_current_cpus(cpus, HOST_CPUS_MAX);
	size_t used = 0;

	out[0] = 0;
	for (int i = 0; i < n && i < HOST_CPUS_MAX && used + 8 < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%d", used ? "," : "", cpus[i]);
}

void topo_read(struct topo *t)
{
	memset(t, 0, sizeof(*t));
	t->cpu = -1;
	read_cpu_model(t);
	t->online_cpus = host_online_cpus();
	read_caches(t, topo_default_cpu() < 0 ? 0 : topo_default_cpu());
	t->mem_available_bytes = topo_meminfo_bytes("MemAvailable");
	format_affinity(t->affinity, sizeof(t->affinity));
}

/* level 0: every level. */
static size_t largest_data_cache(const struct topo *t, int level)
{
	size_t best = 0;

	for (int i = 0; i < t->ncaches; i++)
		if ((!level || t->caches[i].level == level) && strcmp(t->caches[i].type, "Instruction") &&
		    t->caches[i].size_bytes > best)
			best = t->caches[i].size_bytes;
	return best;
}

size_t topo_largest_cache_bytes(const struct topo *t)
{
	return largest_data_cache(t, 0);
}

size_t topo_cache_bytes_at(const struct topo *t, int level)
{
	return largest_data_cache(t, level);
}

int topo_default_cpu(void)
{
	int cpu;

	return host_current_cpus(&cpu, 1) > 0 ? cpu : -1;
}

int topo_cpu_allowed(int cpu)
{
	int cpus[HOST_CPUS_MAX], n = host_current_cpus(cpus, HOST_CPUS_MAX);

	for (int i = 0; i < n && i < HOST_CPUS_MAX; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

int topo_pin(struct topo *t, int cpu)
{
	int rc = host_pin(cpu);

	if (rc)
		return rc;
	t->cpu = cpu;
	format_affinity(t->affinity, sizeof(t->affinity));
	return 0;
}
