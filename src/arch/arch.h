/*
 * The narrow per-ISA contract: a fenced timestamp read, what that counter is,
 * and the few machine facts that need an instruction to learn. Everything
 * else in mlpscope is ISA-neutral C. Exactly one of x86_64.c, aarch64.c or
 * generic.c provides these symbols; the other two compile to nothing.
 */
#ifndef MLPSCOPE_ARCH_H
#define MLPSCOPE_ARCH_H

#include <stdint.h>

/* Counter value, ordered against surrounding loads: no load issued before
 * the call may complete after it, none after may start before it. */
uint64_t arch_timer_read(void);

/* The same counter read without its fences (RDTSC alone; CNTVCT without
 * ISB), so the validate check can show that the fences matter: a region
 * timed with it reads shorter, because the read runs ahead of the loads it
 * should follow. Never for timing. Where there is no fence to drop (the
 * portable clock), the fenced read itself, and arch_timer_fence_name NULL. */
uint64_t arch_timer_read_unfenced(void);

/* The fence arch_timer_read adds ("lfence", "isb"), or NULL. */
const char *arch_timer_fence_name(void);

/* Human-readable counter name recorded in provenance, e.g. "tsc+lfence". */
const char *arch_timer_source(void);

/* Counter frequency in Hz when the ISA states it (CNTFRQ_EL0), 0 when it
 * must be calibrated against CLOCK_MONOTONIC_RAW. */
double arch_timer_stated_hz(void);

/* 1 when the counter ticks at a constant rate across P-states and C-states
 * (invariant TSC, the generic timer); 0 when that is not established. */
int arch_timer_invariant(void);

/* ISA name as recorded in provenance ("x86_64", "aarch64", or the generic
 * fallback's best guess). */
const char *arch_name(void);

#endif
