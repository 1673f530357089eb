/*
 * Writes host.txt of a recorded host (src/core/host.c states the format)
 * for the machine it runs on: the answers no file holds. CPUID leaves are
 * dumped raw, every subleaf the decoders may ask for, all-zero ones left
 * out (a leaf a recording lacks reads as zeros). tools/record_host.sh runs
 * it beside copying the files; linked with the same objects as mlpscope.
 */
#include "core/clock.h"
#include "core/host.h"
#include "exp/machine.h"
#include "provenance.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void cpu_list(FILE *f, const int *cpus, int n)
{
	for (int i = 0; i < n; i++) {
		int j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		fprintf(f, "%s%d", i ? "," : "", cpus[i]);
		if (j > i)
			fprintf(f, "-%d", cpus[j]);
		i = j;
	}
	fputc('\n', f);
}

static bool cpuid_line(FILE *f, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	host_cpuid(leaf, sub, r);
	if (r[0] | r[1] | r[2] | r[3])
		fprintf(f, "cpuid 0x%08" PRIx32 " 0x%" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32 " 0x%08" PRIx32
			" 0x%08" PRIx32 "\n", leaf, sub, r[0], r[1], r[2], r[3]);
	return r[0] | r[1] | r[2] | r[3];
}

/* How many subleaves a leaf has: the cache leaves end at a type-0 entry,
 * 7 and 0x18 name their last in EAX, the topology leaves end at a level of
 * type 0, 0xd lists state components up to 63. */
static uint32_t subleaves(uint32_t leaf, const uint32_t r0[4])
{
	switch (leaf) {
	case 4: case 0x8000001du: return 16;
	case 7: case 0x18: return r0[0] + 1 < 32 ? r0[0] + 1 : 32;
	case 0xb: case 0x1f: return 8;
	case 0xd: return 64;
	default: return 1;
	}
}

static void dump_range(FILE *f, uint32_t first)
{
	uint32_t r[4], max;

	host_cpuid(first, 0, r);
	max = r[0];
	if (max < first || max - first > 0x100)
		return;
	for (uint32_t leaf = first; leaf <= max; leaf++) {
		uint32_t r0[4], n;

		host_cpuid(leaf, 0, r0);
		n = subleaves(leaf, r0);
		for (uint32_t sub = 0; sub < n; sub++) {
			bool any = cpuid_line(f, leaf, sub, r);

			/* a cache or topology list ends at its first empty entry */
			if (sub && !any && leaf != 0xd)
				break;
			if ((leaf == 4 || leaf == 0x8000001du) && !(r[0] & 0x1f))
				break;
		}
	}
}

int main(void)
{
	static int cpus[HOST_CPUS_MAX];
	struct clock_info clock;
	struct machine_core_clock cc;
	struct host_rdpmc rd;
	uint64_t v64;
	unsigned long hw;
	time_t now = time(NULL);
	char day[32];
	int n, err;

	strftime(day, sizeof(day), "%Y-%m-%d", gmtime(&now));
	printf("# A recorded host: the answers no file holds (src/core/host.c states the format).\n");
	printf("# Written by tools/record_host.sh on %s with mlpscope %s.\n", day, provenance_version());
	printf("isa %s\n", host_isa());
	printf("online_cpus %d\n", host_online_cpus());
	n = host_allowed_cpus(cpus, HOST_CPUS_MAX);
	printf("allowed_cpus ");
	cpu_list(stdout, cpus, n < HOST_CPUS_MAX ? n : HOST_CPUS_MAX);
	printf("page_bytes %zu\n", host_page_bytes());
	err = host_perf_cycles_errno();
	printf("perf_cycles %s\n", err ? strerrorname_np(err) : "ok");
	if (host_rdpmc_probe(&rd) == 0) {
		if (!rd.tested)
			printf("rdpmc none\n");
		else if (rd.child_signal)
			printf("rdpmc %s\n", machine_signal_name(rd.child_signal));
		else if (rd.child_status)
			printf("rdpmc exit %d\n", rd.child_status);
		else
			printf("rdpmc works\n");
	}
	if (host_xcr0(&v64) == 0)
		printf("xcr0 0x%" PRIx64 "\n", v64);
	if (host_hwcap(&hw) == 0)
		printf("hwcap 0x%lx\n", hw);
	if (host_ctr_el0(&v64) == 0)
		printf("ctr_el0 0x%" PRIx64 "\n", v64);
	dump_range(stdout, 0);
	dump_range(stdout, 0x80000000u);
	clock_init(&clock);
	if (machine_estimate_core_clock(&clock, MACHINE_CLOCK_SAMPLES, MACHINE_CLOCK_SAMPLE_MS, &cc) == 0) {
		printf("core_clock_mhz");
		for (int i = 0; i < cc.nsamples; i++)
			printf(" %.0f", cc.samples_mhz[i]);
		printf("\n");
	}
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
