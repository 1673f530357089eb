/*
 * CPUID and XGETBV on every ISA but x86-64, which has neither: both answer
 * -ENOTSUP with zeroed outputs, so the decoders (core/cpu_id_*.c) fall back
 * to what the host seam reports. cpu_x86_64.c holds the real ones.
 */
#if !defined(__x86_64__)
#include "arch/cpu.h"

#include <errno.h>
#include <string.h>

int cpu_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	(void)leaf;
	(void)sub;
	memset(r, 0, 4 * sizeof(r[0]));
	return -ENOTSUP;
}

int cpu_xgetbv(uint64_t *xcr0)
{
	*xcr0 = 0;
	return -ENOTSUP;
}
#else
typedef int cpu_no_x86_not_built;
#endif
