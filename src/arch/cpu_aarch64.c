/*
 * AArch64: CTR_EL0, PMCCNTR_EL0 and the add chain. MIDR_EL1 is readable
 * from EL0 only through kernel emulation, so the identity comes from
 * /proc/cpuinfo (the kernel prints MIDR's fields there) and features from
 * HWCAP, both through the host seam (core/cpu_id_arm.c decodes them).
 * PMCCNTR_EL0 traps (SIGILL) unless PMUSERENR_EL0 grants EL0.
 */
#if defined(__aarch64__)
#include "arch/cpu.h"

#include <errno.h>

int cpu_ctr_el0(uint64_t *value)
{
	uint64_t ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	*value = ctr;
	return 0;
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
