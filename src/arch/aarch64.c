/*
 * AArch64: the virtual counter CNTVCT_EL0 behind ISB. The ISB keeps the
 * counter read from being performed early, out of order with the loads
 * before it; its frequency is architecturally stated in CNTFRQ_EL0, and the
 * generic timer is constant-rate by definition.
 */
#if defined(__aarch64__)
#include "arch/arch.h"

uint64_t arch_timer_read(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
	return v;
}

uint64_t arch_timer_read_unfenced(void)
{
	uint64_t v;

	/* Without the ISB the counter may be read before earlier loads
	 * complete: only the validate check that shows the ISB matters uses it. */
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

const char *arch_timer_fence_name(void)
{
	return "isb";
}

const char *arch_timer_source(void)
{
	return "cntvct+isb";
}

double arch_timer_stated_hz(void)
{
	uint64_t f;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return (double)f;
}

const char *arch_name(void)
{
	return "aarch64";
}
#else
typedef int arch_aarch64_not_built;
#endif
