/*
 * A cgroup's CPU bandwidth limit as a count of CPUs (host_cpu_quota.h). The
 * process's cgroup paths come from /proc/self/cgroup: "0::PATH" for v2,
 * "N:cpu,cpuacct:PATH" for v1's cpu controller. Inside a container the
 * path may name the host's hierarchy while the mount shows only the
 * container's part of it, so the walk starts at PATH and goes up to the
 * mount's root, reading each level that exists: the container's own limit
 * is at the root of what it sees. Read here, not through host_fopen: a
 * recorded host redirects that, and this limit sizes work on the machine
 * the process runs on (host_self_cpus).
 */
#include "core/host_cpu_quota.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where each hierarchy is mounted, below root. */
#define V2_MOUNT "/sys/fs/cgroup"
static const char *const v1_mounts[] = {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"};

static int cpus_of(long long quota, long long period)
{
	if (quota <= 0 || period <= 0)
		return 0;
	return (int)((quota + period - 1) / period);
}

/* v2: "max PERIOD" (no limit) or "QUOTA PERIOD". */
static int v2_limit(const char *dir)
{
	char path[PATH_MAX], word[32];
	long long period = 0;
	int cpus = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/cpu.max", dir) >= (int)sizeof(path) || !(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%31s %lld", word, &period) == 2 && strcmp(word, "max"))
		cpus = cpus_of(strtoll(word, NULL, 10), period);
	fclose(f);
	return cpus;
}

static long long read_number(const char *dir, const char *name)
{
	char path[PATH_MAX];
	long long v = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) || !(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%lld", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* v1: a quota of -1 is no limit. */
static int v1_limit(const char *dir)
{
	return cpus_of(read_number(dir, "cpu.cfs_quota_us"), read_number(dir, "cpu.cfs_period_us"));
}

/* The smaller of two limits, 0 standing for none. */
static int smaller(int a, int b)
{
	return a && (!b || a < b) ? a : b;
}

/* The smallest limit from mount + path up to mount; 0 for none (also
 * where the mount is absent: no level's file opens). */
static int walk_up(const char *mount, const char *path, int (*limit)(const char *dir))
{
	char dir[PATH_MAX];
	size_t base = strlen(mount);
	int best = 0;

	if (snprintf(dir, sizeof(dir), "%s%s", mount, strcmp(path, "/") ? path : "") >= (int)sizeof(dir))
		return 0;
	for (;;) {
		char *slash;

		best = smaller(best, limit(dir));
		if (strlen(dir) <= base || !(slash = strrchr(dir + base, '/')))
			return best;
		*slash = '\0';
	}
}

/* Whether the comma-separated list names the cpu controller. */
static int names_cpu(const char *list)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");

		if (n == 3 && !strncmp(p, "cpu", 3))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

int cpu_quota_cpus(const char *root)
{
	char path[PATH_MAX], mount[PATH_MAX], line[PATH_MAX + 64];
	int best = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/proc/self/cgroup", root) >= (int)sizeof(path) || !(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *cg = ctl ? strchr(ctl + 1, ':') : NULL;

		if (!cg)
			continue;
		*ctl++ = '\0';
		*cg++ = '\0';
		cg[strcspn(cg, "\n")] = '\0';
		if (cg[0] != '/')
			continue;
		if (!strcmp(line, "0") && !ctl[0]) {
			snprintf(mount, sizeof(mount), "%s%s", root, V2_MOUNT);
			best = smaller(best, walk_up(mount, cg, v2_limit));
		} else if (names_cpu(ctl)) {
			for (size_t i = 0; i < sizeof(v1_mounts) / sizeof(v1_mounts[0]); i++) {
				snprintf(mount, sizeof(mount), "%s%s", root, v1_mounts[i]);
				best = smaller(best, walk_up(mount, cg, v1_limit));
			}
		}
	}
	fclose(f);
	return best;
}
