/*
 * Instruction encoders for the probe loop: one function per instruction
 * form for x86-64 and AArch64, and a per-ISA table of the handful of probe
 * building blocks (struct enc_ops). Encoders only append bytes to a
 * jit_code, so both compile and are tested on every host; only *running*
 * the result needs the matching ISA, and enc_host_ops() is the one place
 * that says which that is. Operand conventions of the generated function:
 *     void probe(uintptr_t ptrs[2], uint64_t iters, void *scratch)
 * ptrs[] holds the two chase pointers (read at entry, written back at exit
 * so the next call continues along the cycle), iters >= 1 loop iterations,
 * scratch a 64-byte aligned block of ENC_SCRATCH_LINES lines.
 */
#ifndef MLPSCOPE_JIT_ENC_H
#define MLPSCOPE_JIT_ENC_H

#include <stddef.h>
#include <stdint.h>

struct jit_code;

/* L1-resident lines the store and load fillers rotate over: few enough to
 * stay in any L1, more than one so stores do not all hit one line. */
#define ENC_SCRATCH_LINES 8
#define ENC_LINE_BYTES 64

/* Between the missing loads of one iteration: a 4 KiB page and a line, so
 * each lands in its own page (no stream a prefetcher follows within a
 * page) and in the next L1 set (no set fills up before the buffers do). */
#define ENC_MISS_STRIDE_BYTES (4096 + 64)

struct enc_ops {
	const char *isa;          /* "x86_64", "aarch64" */
	/* Load ptrs[0..1] into the chase registers; zero every FP register a
	 * filler reads or writes (garbage could be a denormal, and denormal adds
	 * take a microcode assist on some cores). */
	void (*prologue)(struct jit_code *c);
	/* lane 0 or 1: p = *p on that lane's chase register. */
	void (*chase)(struct jit_code *c, unsigned lane);
	/* Filler number k of the loop body; k picks the rotating destination
	 * register or the scratch line. */
	void (*nop)(struct jit_code *c);
	/* Window-entry fillers handled at rename (no register, no port where
	 * the core eliminates them): register move, zeroing idiom, FP move. */
	void (*mov)(struct jit_code *c, unsigned k);
	void (*zero)(struct jit_code *c, unsigned k);
	void (*fmov)(struct jit_code *c, unsigned k);
	void (*int_add)(struct jit_code *c, unsigned k);
	void (*fp_add)(struct jit_code *c, unsigned k);
	void (*store)(struct jit_code *c, unsigned k);
	void (*load_fp)(struct jit_code *c, unsigned k);
	/* The missing-load filler (scratch is then a struct probe_miss_entry
	 * cycle, jit/probe.h): miss_next, once per iteration, takes this
	 * iteration's base and steps to the next entry; miss_load k loads the
	 * line at base + k * ENC_MISS_STRIDE_BYTES into an FP register. */
	void (*miss_next)(struct jit_code *c);
	void (*miss_load)(struct jit_code *c, unsigned k);
	/* Decrement iters and branch back to loop_start (a byte offset). */
	void (*loop_end)(struct jit_code *c, size_t loop_start);
	/* Store the chase registers back to ptrs[0..1] and return. */
	void (*epilogue)(struct jit_code *c);
};

extern const struct enc_ops enc_x86_64_ops;
extern const struct enc_ops enc_aarch64_ops;

/* The encoder whose code this host runs, NULL where there is none. */
static inline const struct enc_ops *enc_host_ops(void)
{
#if defined(__x86_64__)
	return &enc_x86_64_ops;
#elif defined(__aarch64__)
	return &enc_aarch64_ops;
#else
	return NULL;
#endif
}

/* ---- x86-64 forms (registers numbered as in ModRM/REX: rax=0 .. r15=15,
 * xmm0..xmm15 likewise). Memory operands are [base + disp32]; the encoder
 * picks the shortest ModRM form for the displacement. */
enum { X86_RAX, X86_RCX, X86_RDX, X86_RBX, X86_RSP, X86_RBP, X86_RSI, X86_RDI,
       X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15 };

void enc_x86_64_nop(struct jit_code *c);
void enc_x86_64_mov_r64_m64(struct jit_code *c, unsigned dst, unsigned base, int32_t disp);
void enc_x86_64_mov_m64_r64(struct jit_code *c, unsigned base, int32_t disp, unsigned src);
void enc_x86_64_mov_r64_r64(struct jit_code *c, unsigned dst, unsigned src);
void enc_x86_64_xor_r32_r32(struct jit_code *c, unsigned dst, unsigned src);
void enc_x86_64_movaps_xmm_xmm(struct jit_code *c, unsigned dst, unsigned src);
void enc_x86_64_add_r64_r64(struct jit_code *c, unsigned dst, unsigned src);
void enc_x86_64_addpd_xmm_xmm(struct jit_code *c, unsigned dst, unsigned src);
void enc_x86_64_movsd_xmm_m64(struct jit_code *c, unsigned dst, unsigned base, int32_t disp);
void enc_x86_64_xorps_xmm_xmm(struct jit_code *c, unsigned dst, unsigned src);
void enc_x86_64_dec_r64(struct jit_code *c, unsigned reg);
/* Branch to the byte offset target of the same buffer. */
void enc_x86_64_jnz_rel32(struct jit_code *c, size_t target);
void enc_x86_64_ret(struct jit_code *c);

/* ---- AArch64 forms (x0..x30 = 0..30, 31 = xzr/sp per form; d0..d31).
 * Offsets are in bytes, multiples of 8, 0..32760 (the scaled unsigned
 * 12-bit form). */
void enc_aarch64_nop(struct jit_code *c);
void enc_aarch64_ldr_x_imm(struct jit_code *c, unsigned xt, unsigned xn, uint32_t off_bytes);
void enc_aarch64_str_x_imm(struct jit_code *c, unsigned xt, unsigned xn, uint32_t off_bytes);
void enc_aarch64_ldr_d_imm(struct jit_code *c, unsigned dt, unsigned xn, uint32_t off_bytes);
void enc_aarch64_add_x_reg(struct jit_code *c, unsigned xd, unsigned xn, unsigned xm);
void enc_aarch64_mov_x_reg(struct jit_code *c, unsigned xd, unsigned xm);
void enc_aarch64_fmov_d(struct jit_code *c, unsigned dd, unsigned dn);
void enc_aarch64_fadd_d(struct jit_code *c, unsigned dd, unsigned dn, unsigned dm);
void enc_aarch64_movi_d_zero(struct jit_code *c, unsigned dd);
void enc_aarch64_subs_x_imm(struct jit_code *c, unsigned xd, unsigned xn, uint32_t imm12);
/* B.NE to the byte offset target of the same buffer. */
void enc_aarch64_bne(struct jit_code *c, size_t target);
void enc_aarch64_ret(struct jit_code *c);
/* Forms the emulation test's tiny program needs around the probe. */
void enc_aarch64_movz_x(struct jit_code *c, unsigned xd, uint16_t imm16, unsigned shift);
void enc_aarch64_movk_x(struct jit_code *c, unsigned xd, uint16_t imm16, unsigned shift);
void enc_aarch64_bl(struct jit_code *c, size_t target);
void enc_aarch64_svc(struct jit_code *c, uint16_t imm16);

#endif
