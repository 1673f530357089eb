/*
 * x86-64 identification decoded from CPUID leaves, read through the host
 * seam (a recorded host's answers, or the CPU's). Relies on: leaf 1 for
 * family/model/stepping (extended fields folded in as the SDM and APM
 * prescribe), leaf 4 (Intel) or 0x8000001D (AMD/Hygon, when TOPOEXT is set)
 * for deterministic cache parameters, XCR0 for whether the OS saves the
 * vector state AVX needs, and the TLB leaves. Portable C: it decodes
 * numbers, so any build can read a recorded x86-64 host.
 */
#include "core/cpu_id.h"

#include "core/host.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void cpuid2(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	if (host_cpuid(leaf, sub, r))
		memset(r, 0, 4 * sizeof(r[0]));
}

static uint32_t max_basic_leaf(void)
{
	uint32_t r[4];

	cpuid2(0, 0, r);
	return r[0];
}

static uint32_t max_ext_leaf(void)
{
	uint32_t r[4];

	cpuid2(0x80000000u, 0, r);
	/* A CPU without extended leaves answers with basic-leaf data: only a
	 * value in the extended range names the highest extended leaf. */
	return r[0] >= 0x80000000u ? r[0] : 0;
}

static void add_feature(struct cpu_id *id, const char *name)
{
	if (id->nfeatures < CPU_MAX_FEATURES)
		id->features[id->nfeatures++] = name;
}

int cpu_id_x86_identify(struct cpu_id *id)
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
		host_xcr0(&xcr0);
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

int cpu_id_x86_caches(struct cache_desc *out, int max)
{
	uint32_t leaf = cache_leaf();
	int n = 0;

	if (!leaf)
		return 0;  /* the CPU enumerates no caches (AMD without TOPOEXT) */
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

#define KIB4 ((size_t)4096)
#define MIB2 ((size_t)2 << 20)
#define GIB1 ((size_t)1 << 30)

static int add_tlb(struct cpu_tlb *out, int n, int max, unsigned level, const char *type, size_t page_bytes,
		   unsigned entries, unsigned ways, const char *source)
{
	if (!entries || n >= max)
		return n;
	out[n] = (struct cpu_tlb){level, type, page_bytes, entries, ways, source};
	return n + 1;
}

/* AMD's 4-bit associativity code of leaves 0x80000006 and 0x80000019 (APM
 * vol. 3, CPUID Fn8000_0006): 0 for fully associative or a code not listed. */
static unsigned amd_ways(unsigned code)
{
	static const unsigned ways[16] = {0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, 0};

	return ways[code & 0xf];
}

/* One data TLB as leaves 0x80000006 and 0x80000019 word it: entries in bits
 * 27:16, the ways code in 31:28. */
static int add_amd_tlb(struct cpu_tlb *out, int n, int max, unsigned level, size_t page_bytes, uint32_t reg,
		       const char *source)
{
	return add_tlb(out, n, max, level, "data", page_bytes, (reg >> 16) & 0xfff, amd_ways(reg >> 28), source);
}

/* AMD/Hygon: L1 in 0x80000005 (EAX 2M/4M, EBX 4K: data entries in bits
 * 23:16, ways in 31:24, 0xFF fully associative), L2 in 0x80000006 (data
 * entries in bits 27:16, ways code in 31:28), 1 GiB pages in 0x80000019. */
static int amd_tlbs(struct cpu_tlb *out, int max)
{
	uint32_t r[4], maxext = max_ext_leaf();
	int n = 0;

	if (maxext >= 0x80000005u) {
		cpuid2(0x80000005u, 0, r);
		n = add_tlb(out, n, max, 1, "data", KIB4, (r[1] >> 16) & 0xff,
			    ((r[1] >> 24) & 0xff) == 0xff ? 0 : (r[1] >> 24) & 0xff, "cpuid 0x80000005");
		n = add_tlb(out, n, max, 1, "data", MIB2, (r[0] >> 16) & 0xff,
			    ((r[0] >> 24) & 0xff) == 0xff ? 0 : (r[0] >> 24) & 0xff, "cpuid 0x80000005");
	}
	if (maxext >= 0x80000006u) {
		cpuid2(0x80000006u, 0, r);
		n = add_amd_tlb(out, n, max, 2, KIB4, r[1], "cpuid 0x80000006");
		n = add_amd_tlb(out, n, max, 2, MIB2, r[0], "cpuid 0x80000006");
	}
	if (maxext >= 0x80000019u) {
		cpuid2(0x80000019u, 0, r);
		n = add_amd_tlb(out, n, max, 1, GIB1, r[0], "cpuid 0x80000019");
		n = add_amd_tlb(out, n, max, 2, GIB1, r[1], "cpuid 0x80000019");
	}
	return n;
}

/* Intel leaf 0x18, deterministic address translation parameters: per
 * subleaf, EDX 4:0 the type (1 data, 2 instruction, 3 unified, 4 load-only,
 * 5 store-only), 7:5 the level, bit 8 fully associative; EBX bits 0-3 the
 * page sizes held (4K, 2M, 4M, 1G), 31:16 the ways; ECX the sets. */
static int intel_leaf18(struct cpu_tlb *out, int max)
{
	static const char *types[6] = {NULL, "data", NULL, "unified", "load", "store"};
	uint32_t r[4], last;
	int n = 0;

	cpuid2(0x18, 0, r);
	last = r[0];
	for (uint32_t sub = 0; sub <= last && sub < 32; sub++) {
		unsigned type, level, ways, entries;

		cpuid2(0x18, sub, r);
		type = r[3] & 0x1f;
		if (type >= 6 || !types[type])
			continue;
		level = (r[3] >> 5) & 0x7;
		ways = (r[1] >> 16) & 0xffff;
		entries = ways * r[2];
		ways = (r[3] & (1u << 8)) ? 0 : ways;
		if (r[1] & 1)
			n = add_tlb(out, n, max, level, types[type], KIB4, entries, ways, "cpuid 0x18");
		if (r[1] & 6)
			n = add_tlb(out, n, max, level, types[type], MIB2, entries, ways, "cpuid 0x18");
		if (r[1] & 8)
			n = add_tlb(out, n, max, level, types[type], GIB1, entries, ways, "cpuid 0x18");
	}
	return n;
}

/* The data-TLB descriptors of leaf 2 (SDM vol. 2A, table "Encoding of CPUID
 * Leaf 2 Descriptors"); instruction TLBs and caches are not listed. A row
 * with two page sizes is one structure holding both. */
static const struct {
	uint8_t desc;
	uint8_t level;
	uint8_t ways;       /* 0: fully associative */
	uint16_t entries;
	bool k4, m2, g1;
} leaf2_tlbs[] = {
	{0x03, 1, 4, 64, true, false, false},   {0x04, 1, 4, 8, false, true, false},
	{0x05, 1, 4, 32, false, true, false},   {0x56, 1, 4, 16, false, true, false},
	{0x57, 1, 4, 16, true, false, false},   {0x59, 1, 0, 16, true, false, false},
	{0x5a, 1, 4, 32, false, true, false},   {0x5b, 1, 0, 64, true, true, false},
	{0x5c, 1, 0, 128, true, true, false},   {0x5d, 1, 0, 256, true, true, false},
	{0x63, 1, 4, 32, false, true, false},   {0x63, 1, 4, 4, false, false, true},
	{0x64, 1, 4, 512, true, false, false},  {0xa0, 1, 0, 32, true, false, false},
	{0xb3, 1, 4, 128, true, false, false},  {0xb4, 1, 4, 256, true, false, false},
	{0xba, 1, 4, 64, true, false, false},   {0xc0, 1, 4, 8, true, true, false},
	{0xc1, 2, 8, 1024, true, true, false},  {0xc2, 1, 4, 16, true, true, false},
	{0xc3, 2, 6, 1536, true, true, false},  {0xc3, 2, 4, 16, false, false, true},
	{0xc4, 1, 4, 32, false, true, false},   {0xca, 2, 4, 512, true, false, false},
};

static int intel_leaf2(struct cpu_tlb *out, int max)
{
	uint32_t r[4];
	int n = 0;

	cpuid2(2, 0, r);
	for (int reg = 0; reg < 4; reg++) {
		/* Bit 31 set: the register holds no descriptors. EAX's low
		 * byte is the iteration count, not a descriptor. */
		if (r[reg] & 0x80000000u)
			continue;
		for (int b = reg == 0 ? 1 : 0; b < 4; b++) {
			uint8_t d = (uint8_t)(r[reg] >> (8 * b));

			for (size_t i = 0; d && i < sizeof(leaf2_tlbs) / sizeof(leaf2_tlbs[0]); i++) {
				const char *type = leaf2_tlbs[i].level == 2 ? "unified" : "data";

				if (leaf2_tlbs[i].desc != d)
					continue;
				if (leaf2_tlbs[i].k4)
					n = add_tlb(out, n, max, leaf2_tlbs[i].level, type, KIB4, leaf2_tlbs[i].entries,
						    leaf2_tlbs[i].ways, "cpuid 2");
				if (leaf2_tlbs[i].m2)
					n = add_tlb(out, n, max, leaf2_tlbs[i].level, type, MIB2, leaf2_tlbs[i].entries,
						    leaf2_tlbs[i].ways, "cpuid 2");
				if (leaf2_tlbs[i].g1)
					n = add_tlb(out, n, max, leaf2_tlbs[i].level, type, GIB1, leaf2_tlbs[i].entries,
						    leaf2_tlbs[i].ways, "cpuid 2");
			}
		}
	}
	return n;
}

int cpu_id_x86_tlbs(struct cpu_tlb *out, int max)
{
	struct cpu_id id;

	cpu_id_x86_identify(&id);
	if (!strcmp(id.vendor, "AuthenticAMD") || !strcmp(id.vendor, "HygonGenuine"))
		return amd_tlbs(out, max);
	if (!strcmp(id.vendor, "GenuineIntel")) {
		uint32_t r[4];

		/* Descriptor 0xFF in leaf 2 means "see leaf 0x18"; leaf 0x18 is
		 * preferred wherever it exists. */
		if (max_basic_leaf() >= 0x18) {
			cpuid2(0x18, 0, r);
			if (r[0] || (r[3] & 0x1f))
				return intel_leaf18(out, max);
		}
		return max_basic_leaf() >= 2 ? intel_leaf2(out, max) : 0;
	}
	return 0;
}
