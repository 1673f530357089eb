/*
 * Every other target: no identification instruction we can rely on, no
 * user-space counter read. The add chain is C with an empty asm barrier after
 * each add so the compiler can neither fold the chain into a multiply nor
 * reorder it; its clock estimate is approximate (the loop's own compare and
 * branch may not hide under the chain on a narrow core).
 */
#if !defined(__x86_64__) && !defined(__aarch64__)
#include "arch/cpu.h"

#include <errno.h>

int cpu_ctr_el0(uint64_t *value)
{
	*value = 0;
	return -ENOTSUP;
}

int cpu_read_pmc(uint32_t index, uint64_t *value)
{
	(void)index;
	*value = 0;
	return -ENOTSUP;
}

uint64_t cpu_add_chain(uint64_t iters)
{
	uint64_t acc = 0, one = 1;

	while (iters--) {
		for (unsigned int i = 0; i < CPU_ADD_CHAIN_PER_ITER; i++) {
			acc += one;
			__asm__ volatile("" : "+r"(acc));
		}
	}
	return acc;
}
#else
typedef int cpu_generic_not_built;
#endif
