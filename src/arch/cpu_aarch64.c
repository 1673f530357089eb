/*
 * AArch64 CPU identification. MIDR_EL1 is readable from EL0 only through
 * kernel emulation, so the identity comes from /proc/cpuinfo's "CPU
 * implementer/architecture/variant/part/revision" lines (the kernel prints
 * MIDR's fields there); features from HWCAP via getauxval; caches from
 * CTR_EL0, which states only the smallest I and D line sizes, never sizes or
 * associativity. PMCCNTR_EL0 traps (SIGILL) unless PMUSERENR_EL0 grants EL0.
 */
#if defined(__aarch64__)
#include "arch/cpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1ul << 1)
#endif
#ifndef HWCAP_SVE
#define HWCAP_SVE (1ul << 22)
#endif

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
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	unsigned long impl = 0, variant = 0, revision = 0;
	int seen_impl = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		unsigned long v;

		if (!colon)
			continue;
		if (line[0] == '\n')
			break;
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

int cpu_identify(struct cpu_id *id)
{
	unsigned long hwcap = getauxval(AT_HWCAP);

	memset(id, 0, sizeof(*id));
	read_midr_fields(id);
	if (hwcap & HWCAP_ASIMD)
		id->features[id->nfeatures++] = "asimd";
	if (hwcap & HWCAP_SVE)
		id->features[id->nfeatures++] = "sve";
	return 0;
}

int cpu_read_caches(struct cache_desc *out, int max)
{
	uint64_t ctr;
	int n = 0;

	/* Linux lets EL0 read CTR_EL0 (emulating it where errata require). Its
	 * DminLine/IminLine fields are log2 of the line in 4-byte words. */
	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	if (n < max) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].level = 1;
		snprintf(out[n].type, sizeof(out[n].type), "Data");
		out[n].line_bytes = (size_t)4 << ((ctr >> 16) & 0xf);
		n++;
	}
	if (n < max) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].level = 1;
		snprintf(out[n].type, sizeof(out[n].type), "Instruction");
		out[n].line_bytes = (size_t)4 << (ctr & 0xf);
		n++;
	}
	return n;
}

const char *cpu_caches_source(void)
{
	return "ctr_el0";
}

/* AArch64 has no architected TLB-size register: unknown. */
int cpu_read_tlbs(struct cpu_tlb *out, int max)
{
	(void)out;
	(void)max;
	return -ENOTSUP;
}

int cpu_read_pmc(uint32_t index, uint64_t *value)
{
	uint64_t v;

	(void)index;
	/* The cycle counter; undefined-instruction trap (SIGILL) unless the
	 * kernel set PMUSERENR_EL0.EN/CR for this task. */
	__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
	*value = v;
	return 0;
}

uint64_t cpu_add_chain(uint64_t iters)
{
	uint64_t acc = 0, one = 1;

	if (!iters)
		return 0;
	/* Register-source adds, each waiting on the last; SUBS/B.NE run beside
	 * the chain. */
	__asm__ volatile("1:\n\t"
			 "add %x[acc], %x[acc], %x[one]\n\t"
			 "add %x[acc], %x[acc], %x[one]\n\t"
			 "add %x[acc], %x[acc], %x[one]\n\t"
			 "add %x[acc], %x[acc], %x[one]\n\t"
			 "add %x[acc], %x[acc], %x[one]\n\t"
			 "add %x[acc], %x[acc], %x[one]\n\t"
			 "add %x[acc], %x[acc], %x[one]\n\t"
			 "add %x[acc], %x[acc], %x[one]\n\t"
			 "subs %x[n], %x[n], #1\n\t"
			 "b.ne 1b"
			 : [acc] "+r"(acc), [n] "+r"(iters)
			 : [one] "r"(one)
			 : "cc");
	return acc;
}
#else
typedef int cpu_aarch64_not_built;
#endif
