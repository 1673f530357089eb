/*
 * cpu_quota_cpus over made trees standing for "/": cgroup v2 and v1, a
 * limit on a parent, a container that sees only its own part of the
 * hierarchy, no limit, and files that do not parse.
 */
#include "../harness.h"

#include "core/host_cpu_quota.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Writes text to root/rel, making the folders on the way. */
static int put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (!(f = fopen(path, "w")))
		return -1;
	fputs(text, f);
	return fclose(f);
}

struct quota_case {
	const char *what;
	const char *files[8][2];   /* path below the root, its text */
	int want;
};

TEST(cpu_quota_reads_each_hierarchy_and_takes_the_smallest_limit)
{
	static const struct quota_case cases[] = {
		{"v2, a service with 1.5 CPUs",
		 {{"proc/self/cgroup", "0::/system.slice/x.service\n"},
		  {"sys/fs/cgroup/system.slice/x.service/cpu.max", "150000 100000\n"},
		  {"sys/fs/cgroup/system.slice/cpu.max", "max 100000\n"}},
		 2},
		{"v2, its slice limited to 3 of 4 the service may have",
		 {{"proc/self/cgroup", "0::/system.slice/x.service\n"},
		  {"sys/fs/cgroup/system.slice/x.service/cpu.max", "400000 100000\n"},
		  {"sys/fs/cgroup/system.slice/cpu.max", "300000 100000\n"}},
		 3},
		{"v2 in a container: the host's path, the container's limit at the mount's root",
		 {{"proc/self/cgroup", "0::/kubepods/pod1/abc\n"}, {"sys/fs/cgroup/cpu.max", "250000 100000\n"}},
		 3},
		{"v2, no limit anywhere",
		 {{"proc/self/cgroup", "0::/user.slice\n"}, {"sys/fs/cgroup/user.slice/cpu.max", "max 100000\n"}},
		 0},
		{"v1, cpu beside cpuacct, half a CPU",
		 {{"proc/self/cgroup", "4:memory:/a\n3:cpu,cpuacct:/docker/abc\n0::/\n"},
		  {"sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "50000\n"},
		  {"sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n"}},
		 1},
		{"v1, no limit (-1) on cpu's path; cpuacct's path, limited, is not cpu's",
		 {{"proc/self/cgroup", "2:cpuacct:/limited\n1:cpu:/free\n"},
		  {"sys/fs/cgroup/cpu/free/cpu.cfs_quota_us", "-1\n"},
		  {"sys/fs/cgroup/cpu/free/cpu.cfs_period_us", "100000\n"},
		  {"sys/fs/cgroup/cpu/limited/cpu.cfs_quota_us", "50000\n"},
		  {"sys/fs/cgroup/cpu/limited/cpu.cfs_period_us", "100000\n"}},
		 0},
		{"files that do not parse",
		 {{"proc/self/cgroup", "garbage\n0::/s\n"}, {"sys/fs/cgroup/s/cpu.max", "lots 0\n"}},
		 0},
		{"no /proc/self/cgroup", {{"proc/self/other", "x\n"}}, 0},
	};
	char root[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct quota_case *c = &cases[i];
		int got;

		test_scratch_make(root, sizeof(root), "quota");
		CHECK(root[0], "mkdtemp");
		for (size_t j = 0; j < 8 && c->files[j][0]; j++)
			CHECK(!put(root, c->files[j][0], c->files[j][1]), "writing %s", c->files[j][0]);
		got = cpu_quota_cpus(root);
		test_scratch_remove(root, "quota");
		CHECK(got == c->want, "%s: %d CPUs, expected %d", c->what, got, c->want);
	}
}
