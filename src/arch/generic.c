/*
 * Every other target: CLOCK_MONOTONIC_RAW in nanoseconds, so one tick is one
 * ns. A syscall-backed clock costs tens of ns per read, which the timed-region
 * sizing in clock.c accounts for; there is no fence to order loads against it
 * beyond the call itself.
 */
#if !defined(__x86_64__) && !defined(__aarch64__)
#include "arch/arch.h"

#include <time.h>

uint64_t arch_timer_read(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t arch_timer_read_unfenced(void)
{
	return arch_timer_read();
}

const char *arch_timer_fence_name(void)
{
	return NULL;
}

const char *arch_timer_source(void)
{
	return "clock_monotonic_raw";
}

double arch_timer_stated_hz(void)
{
	return 1e9;
}

const char *arch_name(void)
{
	return "generic";
}
#else
typedef int arch_generic_not_built;
#endif
