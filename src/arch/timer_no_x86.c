/*
 * Whether the timer is invariant, on every ISA but x86-64: yes. AArch64's
 * generic timer (CNTVCT_EL0) ticks at CNTFRQ_EL0 whatever the core's clock
 * by the architecture's definition, and the generic target's
 * CLOCK_MONOTONIC_RAW counts nanoseconds. Only the TSC needs asking
 * (x86_64.c reads CPUID's invariant-TSC bit).
 */
#if !defined(__x86_64__)
#include "arch/arch.h"

int arch_timer_invariant(void)
{
	return 1;
}
#else
typedef int arch_timer_no_x86_not_built;
#endif
