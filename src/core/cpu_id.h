/*
 * What the CPU says about itself: vendor and family/model/stepping, the
 * few ISA features that matter to a memory tool, its cache descriptors and
 * its data TLBs. Claims, not measurements: a hypervisor chooses what CPUID
 * shows a guest. Decoded from the host seam's answers (CPUID leaves on
 * x86-64; /proc/cpuinfo's MIDR fields, HWCAP and CTR_EL0 on AArch64), so
 * the decoders are portable C that a test runs on any build against a
 * recorded host of either ISA.
 */
#ifndef MLPSCOPE_CORE_CPU_ID_H
#define MLPSCOPE_CORE_CPU_ID_H

#include <stddef.h>

#include "core/topo.h"

#define CPU_MAX_FEATURES 16

struct cpu_id {
	char vendor[16];        /* "GenuineIntel", "AuthenticAMD", "ARM", "arm:0x41"; "" unknown */
	unsigned int family;    /* x86: base + extended family; arm: MIDR architecture */
	unsigned int model;     /* x86: extended model folded in; arm: MIDR part number */
	unsigned int stepping;  /* x86: stepping; arm: variant << 4 | revision */
	/* Names of the features present, from a fixed list (string literals):
	 * x86 "sse2 avx avx2 avx512f invariant_tsc rdtscp hypervisor",
	 * aarch64 "asimd sve". */
	const char *features[CPU_MAX_FEATURES];
	int nfeatures;
};

/* Fill id from the host's identification. Returns 0, or -ENOTSUP where the
 * host's ISA has no way to ask (id is then zeroed). */
int cpu_identify(struct cpu_id *id);

/* Cache descriptors as the CPU enumerates them (x86: CPUID leaf 4 on Intel,
 * 0x8000001D on AMD/Hygon; aarch64: CTR_EL0, which gives only the smallest
 * L1 line sizes, so size_bytes and ways are 0 there). Writes at most max
 * entries, returns how many (0: the CPU enumerates none), or -ENOTSUP. */
int cpu_read_caches(struct cache_desc *out, int max);

/* Name of the source cpu_read_caches reads, for provenance: "cpuid",
 * "ctr_el0" or "none". */
const char *cpu_caches_source(void);

/* A data (or unified) TLB as the CPU describes it: one entry per page size
 * it holds, so a TLB shared by 4 KiB and 2 MiB pages appears twice. */
struct cpu_tlb {
	unsigned level;          /* 1 = first level */
	const char *type;        /* "data", "unified", "load", "store" (string literals) */
	size_t page_bytes;       /* 4096, 2097152 (2 MiB and 4 MiB entries), 1073741824 */
	unsigned entries;
	unsigned ways;           /* 0: fully associative or not said */
	const char *source;      /* "cpuid 0x80000005", "cpuid 0x18", "cpuid 2", ... */
};

#define CPU_TLB_MAX 16

/* Data and unified TLBs as CPUID reports them: AMD/Hygon leaves 0x80000005,
 * 0x80000006 and 0x80000019; Intel leaf 0x18 where present, else the TLB
 * descriptors of leaf 2 this file knows. Writes at most max, returns how
 * many (0 when the CPU says nothing usable), or -ENOTSUP where the ISA has
 * no such enumeration (AArch64 and others: unknown). */
int cpu_read_tlbs(struct cpu_tlb *out, int max);

/* The per-ISA decoders the four functions above dispatch to by the host's
 * ISA (cpu_id_x86.c, cpu_id_arm.c): portable C over the seam's answers,
 * each with the contract of its counterpart above. */
int cpu_id_x86_identify(struct cpu_id *id);
int cpu_id_x86_caches(struct cache_desc *out, int max);
int cpu_id_x86_tlbs(struct cpu_tlb *out, int max);
int cpu_id_arm_identify(struct cpu_id *id);
int cpu_id_arm_caches(struct cache_desc *out, int max);

#endif
