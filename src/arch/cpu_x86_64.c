/*
 * x86-64: CPUID, XGETBV, RDPMC and the add chain. The answers are decoded
 * in core/cpu_id_x86.c (through the host seam, so a recorded host can give
 * them instead); under KVM every CPUID leaf is what the hypervisor chose
 * to show, which is why machine.c puts them next to sysfs.
 */
#if defined(__x86_64__)
#include "arch/cpu.h"

#include <cpuid.h>
#include <errno.h>

int cpu_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
	return 0;
}

int cpu_xgetbv(uint64_t *xcr0)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	*xcr0 = ((uint64_t)hi << 32) | lo;
	return 0;
}

int cpu_ctr_el0(uint64_t *value)
{
	*value = 0;
	return -ENOTSUP;
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
	/* Register-source adds: some cores (e.g. a recent Intel P-core) execute small
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
