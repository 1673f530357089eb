/*
 * The few instructions that ask the CPU about itself or count with it:
 * CPUID and XGETBV (x86-64), CTR_EL0 (AArch64), a user-space counter read
 * and a dependent-add chain for estimating the core clock. Only the
 * instructions: what their answers mean is decoded in core/cpu_id_*.c,
 * which read them through the host seam (core/host.h) so a recorded host
 * can answer instead. One of cpu_x86_64.c, cpu_aarch64.c or cpu_generic.c
 * provides these symbols (cpu_no_x86.c the CPUID and XGETBV answers of every
 * ISA without them); the files for other ISAs compile to nothing.
 */
#ifndef MLPSCOPE_ARCH_CPU_H
#define MLPSCOPE_ARCH_CPU_H

#include <stdint.h>

/* CPUID leaf/subleaf into r (EAX, EBX, ECX, EDX): 0, or -ENOTSUP where the
 * ISA has no CPUID. */
int cpu_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]);

/* XGETBV(0): the register states the OS saves. Faults unless CPUID leaf 1
 * ECX bit 27 (OSXSAVE) is set: the caller checks. 0, or -ENOTSUP. */
int cpu_xgetbv(uint64_t *xcr0);

/* CTR_EL0 (Linux lets EL0 read it, emulating it where errata require): 0,
 * or -ENOTSUP where the ISA has none. */
int cpu_ctr_el0(uint64_t *value);

/* Execute the user-space counter read once (x86: RDPMC with ECX = index;
 * aarch64: MRS PMCCNTR_EL0, index ignored) and store the value. Returns 0,
 * or -ENOTSUP where the ISA has none. Where the OS has not granted user
 * access this raises SIGSEGV (x86) or SIGILL (aarch64): call it only in a
 * forked child. */
int cpu_read_pmc(uint32_t index, uint64_t *value);

/* Adds per iteration of cpu_add_chain: the chain is this many dependent
 * register adds per loop trip, so loop overhead overlaps with the chain. */
#define CPU_ADD_CHAIN_PER_ITER 8u

/* Run iters * CPU_ADD_CHAIN_PER_ITER dependent one-cycle integer adds and
 * return the sum (so the work is observable). One add per core cycle on every
 * core we know of, so adds / elapsed ns is the core clock in GHz. iters 0
 * does nothing. */
uint64_t cpu_add_chain(uint64_t iters);

#endif
