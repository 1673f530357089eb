/*
 * x86-64 CPU identification through CPUID. Relies on: leaf 1 for
 * family/model/stepping (extended fields folded in as the SDM and APM
 * prescribe), leaf 4 (Intel) or 0x8000001D (AMD/Hygon, when TOPOEXT is set)
 * for deterministic cache parameters, XGETBV for whether the OS saves the
 * vector state AVX needs. Under KVM every one of these is what the
 * hypervisor chose to show, which is why machine.c puts them next to sysfs.
 */
#if defined(__x86_64__)
#include "arch/cpu.h"

#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static void cpuid2(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint32_t max_basic_leaf(void)
{
	return __get_cpuid_max(0, NULL);
}

static uint32_t max_ext_leaf(void)
{
	return __get_cpuid_max(0x80000000u, NULL);
}

/* XCR0: which register states the OS saves on a context switch. A CPU that
 * has AVX under an OS that does not save YMM faults on the first VEX op. */
static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static void add_feature(struct cpu_id *id, const char *name)
{
	if (id->nfeatures < CPU_MAX_FEATURES)
		id->features[id->nfeatures++] = name;
}

int cpu_identify(struct cpu_id *id)
{
	uint32_t r[4], max = max_basic_leaf(), maxext = max_ext_leaf();
	uint32_t base_family, base_model;
	uint64_t xcr0 = 0;
	int os_avx = 0, os_avx512 = 0;

	memset(id, 0, sizeof(*id));
	cpuid2(0, 0, r);
	/* The vendor string is EBX, EDX, ECX in that order. */
	memcpy(id->vendor, &r[1], 4);
	memcpy(id->vendor + 4, &r[3], 4);
	memcpy(id->vendor + 8, &r[2], 4);
	if (max < 1)
		return 0;
	cpuid2(1, 0, r);
	base_family = (r[0] >> 8) & 0xf;
	base_model = (r[0] >> 4) & 0xf;
	id->stepping = r[0] & 0xf;
	id->family = base_family == 0xf ? base_family + ((r[0] >> 20) & 0xff) : base_family;
	id->model = (base_family == 0x6 || base_family == 0xf) ? (((r[0] >> 16) & 0xf) << 4) | base_model
							       : base_model;
	if (r[2] & (1u << 27)) {
		xcr0 = read_xcr0();
		os_avx = (xcr0 & 0x6) == 0x6;
		os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
	}
	if (r[3] & (1u << 26))
		add_feature(id, "sse2");
	if ((r[2] & (1u << 28)) && os_avx)
		add_feature(id, "avx");
	if (max >= 7) {
		uint32_t s[4];

		cpuid2(7, 0, s);
		if ((s[1] & (1u << 5)) && os_avx)
			add_feature(id, "avx2");
		if ((s[1] & (1u << 16)) && os_avx512)
			add_feature(id, "avx512f");
	}
	if (maxext >= 0x80000007u) {
		uint32_t s[4];

		cpuid2(0x80000007u, 0, s);
		if (s[3] & (1u << 8))
			add_feature(id, "invariant_tsc");
	}
	if (maxext >= 0x80000001u) {
		uint32_t s[4];

		cpuid2(0x80000001u, 0, s);
		if (s[3] & (1u << 27))
			add_feature(id, "rdtscp");
	}
	if (r[2] & (1u << 31))
		add_feature(id, "hypervisor");
	return 0;
}

/* Which leaf enumerates caches here: 4 on Intel (and most others), and on
 * AMD/Hygon 0x8000001D, present only when TOPOEXT (0x80000001 ECX bit 22) is
 * set; AMD's leaf 4 reads as zeros. Both leaves share one register layout. */
static uint32_t cache_leaf(void)
{
	uint32_t r[4];
	char vendor[13] = {0};

	cpuid2(0, 0, r);
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		if (max_ext_leaf() < 0x8000001Du)
			return 0;
		cpuid2(0x80000001u, 0, r);
		return (r[2] & (1u << 22)) ? 0x8000001Du : 0;
	}
	return r[0] >= 4 ? 4 : 0;
}

int cpu_read_caches(struct cache_desc *out, int max)
{
	uint32_t leaf = cache_leaf();
	int n = 0;

	if (!leaf)
		return -ENOTSUP;
	/* Subleaves run until a type-0 ("no more caches") entry; the bound only
	 * guards against a hypervisor that never says so. */
	for (uint32_t sub = 0; sub < 16 && n < max; sub++) {
		uint32_t r[4], type, line, parts, ways, sets;
		struct cache_desc *c = &out[n];

		cpuid2(leaf, sub, r);
		type = r[0] & 0x1f;
		if (type == 0)
			break;
		line = (r[1] & 0xfff) + 1;
		parts = ((r[1] >> 12) & 0x3ff) + 1;
		ways = ((r[1] >> 22) & 0x3ff) + 1;
		sets = r[2] + 1;
		memset(c, 0, sizeof(*c));
		c->level = (int)((r[0] >> 5) & 0x7);
		snprintf(c->type, sizeof(c->type), "%s",
			 type == 1 ? "Data" : type == 2 ? "Instruction" : type == 3 ? "Unified" : "Unknown");
		c->size_bytes = (size_t)ways * parts * line * sets;
		c->line_bytes = line;
		/* Bit 9: fully associative; the ways field then is not the
		 * associativity, and sysfs reports 0 for it as well. */
		c->ways = (r[0] & (1u << 9)) ? 0 : (int)ways;
		n++;
	}
	return n;
}

const char *cpu_caches_source(void)
{
	return "cpuid";
}

int cpu_read_pmc(uint32_t index, uint64_t *value)
{
	uint32_t lo, hi;

	/* Faults with #GP (SIGSEGV) unless CR4.PCE is set for this process,
	 * which Linux does only while a perf event is mmapped (rdpmc=1) or
	 * always (rdpmc=2); a guest without a virtual PMU never sets it. */
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index));
	*value = ((uint64_t)hi << 32) | lo;
	return 0;
}

uint64_t cpu_add_chain(uint64_t iters)
{
	uint64_t acc = 0, one = 1;

	if (!iters)
		return 0;
	/* Register-source adds: some cores (Golden Cove) execute small
	 * add-immediates at rename with no latency, which would read as a clock
	 * several times too fast. The DEC/JNZ pair is independent of the chain
	 * and hides under it. */
	__asm__ volatile("1:\n\t"
			 "add %[one], %[acc]\n\t"
			 "add %[one], %[acc]\n\t"
			 "add %[one], %[acc]\n\t"
			 "add %[one], %[acc]\n\t"
			 "add %[one], %[acc]\n\t"
			 "add %[one], %[acc]\n\t"
			 "add %[one], %[acc]\n\t"
			 "add %[one], %[acc]\n\t"
			 "dec %[n]\n\t"
			 "jnz 1b"
			 : [acc] "+r"(acc), [n] "+r"(iters)
			 : [one] "r"(one)
			 : "cc");
	return acc;
}
#else
typedef int cpu_x86_64_not_built;
#endif
