/*
 * x86-64: the TSC read between two LFENCEs. The leading LFENCE keeps RDTSC
 * from executing before earlier loads complete (without it a timed chase
 * reads short, and unpredictably so); the trailing one keeps later loads
 * from starting before the read. Invariance is CPUID 0x80000007 EDX bit 8,
 * which KVM passes through when the host's TSC is stable.
 */
#if defined(__x86_64__)
#include "arch/arch.h"

#include <cpuid.h>

uint64_t arch_timer_read(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence"
			 : "=a"(lo), "=d"(hi)
			 :
			 : "memory");
	return ((uint64_t)hi << 32) | lo;
}

uint64_t arch_timer_read_unfenced(void)
{
	uint32_t lo, hi;

	/* "memory" keeps the compiler's order; the CPU may still run RDTSC
	 * before earlier loads complete, which is what this read is for. */
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

const char *arch_timer_fence_name(void)
{
	return "lfence";
}

const char *arch_timer_source(void)
{
	return "tsc+lfence";
}

double arch_timer_stated_hz(void)
{
	return 0.0;
}

int arch_timer_invariant(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u)
		return 0;
	__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
	return (edx >> 8) & 1;
}

const char *arch_name(void)
{
	return "x86_64";
}
#else
typedef int arch_x86_64_not_built;
#endif
