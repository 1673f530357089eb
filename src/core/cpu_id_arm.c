/*
 * AArch64 identification decoded from what the host seam gives: the MIDR
 * fields the kernel prints in /proc/cpuinfo ("CPU implementer/architecture/
 * variant/part/revision"), the HWCAP bits, and CTR_EL0, which states only
 * the smallest I and D line sizes, never sizes or associativity. Portable
 * C: any build reads a recorded AArch64 host.
 */
#include "core/cpu_id.h"

#include "core/host.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Linux's arm64 HWCAP bits (arch/arm64/include/uapi/asm/hwcap.h). */
#define ARM_HWCAP_ASIMD (1ul << 1)
#define ARM_HWCAP_SVE (1ul << 22)

static const char *implementer_name(unsigned long code)
{
	switch (code) {
	case 0x41: return "ARM";
	case 0x42: return "Broadcom";
	case 0x43: return "Cavium";
	case 0x46: return "Fujitsu";
	case 0x48: return "HiSilicon";
	case 0x4e: return "NVIDIA";
	case 0x51: return "Qualcomm";
	case 0x61: return "Apple";
	case 0xc0: return "Ampere";
	default: return NULL;
	}
}

/* Reads the first CPU's block only: on big.LITTLE parts the cores differ, and
 * the caller reports the core it is pinned to by model string elsewhere. */
static void read_midr_fields(struct cpu_id *id)
{
	FILE *f = host_fopen("/proc/cpuinfo");
	char line[256];
	unsigned long impl = 0, variant = 0, revision = 0;
	int seen_impl = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		unsigned long v;

		if (line[0] == '\n')
			break;
		if (!colon)
			continue;
		v = strtoul(colon + 1, NULL, 0);
		if (!strncmp(line, "CPU implementer", 15)) {
			impl = v;
			seen_impl = 1;
		} else if (!strncmp(line, "CPU architecture", 16)) {
			id->family = (unsigned int)v;
		} else if (!strncmp(line, "CPU variant", 11)) {
			variant = v;
		} else if (!strncmp(line, "CPU part", 8)) {
			id->model = (unsigned int)v;
		} else if (!strncmp(line, "CPU revision", 12)) {
			revision = v;
		}
	}
	fclose(f);
	if (seen_impl) {
		const char *name = implementer_name(impl);

		if (name)
			snprintf(id->vendor, sizeof(id->vendor), "%s", name);
		else
			snprintf(id->vendor, sizeof(id->vendor), "arm:0x%02lx", impl);
	}
	id->stepping = (unsigned int)((variant << 4) | (revision & 0xf));
}

int cpu_id_arm_identify(struct cpu_id *id)
{
	unsigned long hwcap = 0;

	memset(id, 0, sizeof(*id));
	read_midr_fields(id);
	if (host_hwcap(&hwcap))
		hwcap = 0;
	if (hwcap & ARM_HWCAP_ASIMD)
		id->features[id->nfeatures++] = "asimd";
	if (hwcap & ARM_HWCAP_SVE)
		id->features[id->nfeatures++] = "sve";
	return 0;
}

static void line_only(struct cache_desc *c, const char *type, size_t line_bytes)
{
	memset(c, 0, sizeof(*c));
	c->level = 1;
	snprintf(c->type, sizeof(c->type), "%s", type);
	c->line_bytes = line_bytes;
}

int cpu_id_arm_caches(struct cache_desc *out, int max)
{
	uint64_t ctr;
	int n = 0;

	if (host_ctr_el0(&ctr))
		return 0;
	/* DminLine/IminLine are log2 of the line in 4-byte words. */
	if (n < max)
		line_only(&out[n++], "Data", (size_t)4 << ((ctr >> 16) & 0xf));
	if (n < max)
		line_only(&out[n++], "Instruction", (size_t)4 << (ctr & 0xf));
	return n;
}
