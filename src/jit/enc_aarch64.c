/*
 * AArch64 encoder: one function per instruction form, all base opcodes in
 * the one table below, each citing the Arm ARM (DDI 0487) section: C6.2
 * "Alphabetical list of A64 base instructions", C7.2 "... Advanced SIMD and
 * floating-point instructions". Every A64 instruction is one little-endian
 * 32-bit word. Nothing here executes anything, so it builds and is tested
 * on any host (the tests disassemble it with the cross objdump and may run
 * it under qemu-aarch64). Probe register use (AAPCS64): x0 = ptrs,
 * x1 = iters, x2 = scratch, chase lanes x9 and x10, integer fillers
 * x11..x17, FP fillers d0..d7 and d16..d29 with d30, d31 as sources
 * (d8..d15 are callee-saved and left alone). The missing-load probe walks
 * its table with x2 and uses x5, x6 for its base and stride.
 */
#include "jit/enc.h"

#include "jit/jit.h"

enum a64_form {
	A_NOP, A_LDR_X, A_STR_X, A_LDR_D, A_MOV_X, A_ADD_X, A_FMOV_D, A_FADD_D, A_MOVI_D, A_SUBS_X, A_B_COND, A_RET,
	A_MOVZ_X, A_MOVK_X, A_BL, A_SVC, A_NFORMS
};

struct a64_form_desc {
	uint32_t base;      /* the word with every operand field zero */
	const char *cite;
};

static const struct a64_form_desc forms[A_NFORMS] = {
	[A_NOP]    = {0xd503201f, "C6.2 NOP (HINT #0)"},
	[A_LDR_X]  = {0xf9400000, "C6.2 LDR (immediate), unsigned offset, 64-bit: size=11 111 0 01 01 imm12 Rn Rt"},
	[A_STR_X]  = {0xf9000000, "C6.2 STR (immediate), unsigned offset, 64-bit: size=11 111 0 01 00 imm12 Rn Rt"},
	[A_LDR_D]  = {0xfd400000, "C7.2 LDR (immediate, SIMD&FP), unsigned offset, 64-bit Dt: size=11 111 1 01 01"},
	[A_MOV_X]  = {0xaa0003e0, "C6.2 MOV (register), alias of ORR (shifted register) Xd, XZR, Xm: sf=1 01 01010 00 0 Rm 0 11111 Rd"},
	[A_ADD_X]  = {0x8b000000, "C6.2 ADD (shifted register), 64-bit, LSL #0: sf=1 0 0 01011 00 0 Rm imm6=0 Rn Rd"},
	[A_FMOV_D] = {0x1e604000, "C7.2 FMOV (register), double: 0 0 0 11110 ftype=01 1 0000 00 10000 Rn Rd"},
	[A_FADD_D] = {0x1e602800, "C7.2 FADD (scalar), double: 0 0 0 11110 ftype=01 1 Rm 001 0 10 Rn Rd"},
	[A_MOVI_D] = {0x2f00e400, "C7.2 MOVI, 64-bit scalar Dd, #imm: Q=0 op=1 cmode=1110, imm8=0"},
	[A_SUBS_X] = {0xf1000000, "C6.2 SUBS (immediate), 64-bit: sf=1 1 1 100010 sh=0 imm12 Rn Rd"},
	[A_B_COND] = {0x54000000, "C6.2 B.cond: 0101010 0 imm19 0 cond"},
	[A_RET]    = {0xd65f0000, "C6.2 RET: 1101011 0 0 10 11111 000000 Rn 00000"},
	[A_MOVZ_X] = {0xd2800000, "C6.2 MOVZ, 64-bit: sf=1 10 100101 hw imm16 Rd"},
	[A_MOVK_X] = {0xf2800000, "C6.2 MOVK, 64-bit: sf=1 11 100101 hw imm16 Rd"},
	[A_BL]     = {0x94000000, "C6.2 BL: 1 00101 imm26"},
	[A_SVC]    = {0xd4000001, "C6.2 SVC: 11010100 000 imm16 000 01"},
};

#define COND_NE 1u  /* C1.2.4 condition codes: NE = 0001 */

static void emit(struct jit_code *c, enum a64_form f, uint32_t fields)
{
	jit_emit_u32le(c, forms[f].base | fields);
}

static uint32_t rd(unsigned r) { return r & 31; }
static uint32_t rn(unsigned r) { return (r & 31) << 5; }
static uint32_t rm(unsigned r) { return (r & 31) << 16; }
/* The unsigned-offset forms scale imm12 by the access size (8 bytes). */
static uint32_t uimm12_x8(uint32_t off_bytes) { return (off_bytes / 8 & 0xfff) << 10; }

/* Branch offsets are in words from this instruction; the field is masked
 * to its width (imm19, imm26), two's complement. */
static uint32_t branch_words(const struct jit_code *c, size_t target, unsigned bits)
{
	int64_t words = ((int64_t)target - (int64_t)c->len_bytes) / 4;

	return (uint32_t)words & ((1u << bits) - 1);
}

void enc_aarch64_nop(struct jit_code *c) { emit(c, A_NOP, 0); }

void enc_aarch64_ldr_x_imm(struct jit_code *c, unsigned xt, unsigned xn, uint32_t off_bytes)
{
	emit(c, A_LDR_X, uimm12_x8(off_bytes) | rn(xn) | rd(xt));
}

void enc_aarch64_str_x_imm(struct jit_code *c, unsigned xt, unsigned xn, uint32_t off_bytes)
{
	emit(c, A_STR_X, uimm12_x8(off_bytes) | rn(xn) | rd(xt));
}

void enc_aarch64_ldr_d_imm(struct jit_code *c, unsigned dt, unsigned xn, uint32_t off_bytes)
{
	emit(c, A_LDR_D, uimm12_x8(off_bytes) | rn(xn) | rd(dt));
}

void enc_aarch64_add_x_reg(struct jit_code *c, unsigned xd, unsigned xn, unsigned xm)
{
	emit(c, A_ADD_X, rm(xm) | rn(xn) | rd(xd));
}

void enc_aarch64_mov_x_reg(struct jit_code *c, unsigned xd, unsigned xm)
{
	emit(c, A_MOV_X, rm(xm) | rd(xd));
}

void enc_aarch64_fmov_d(struct jit_code *c, unsigned dd, unsigned dn)
{
	emit(c, A_FMOV_D, rn(dn) | rd(dd));
}

void enc_aarch64_fadd_d(struct jit_code *c, unsigned dd, unsigned dn, unsigned dm)
{
	emit(c, A_FADD_D, rm(dm) | rn(dn) | rd(dd));
}

void enc_aarch64_movi_d_zero(struct jit_code *c, unsigned dd)
{
	emit(c, A_MOVI_D, rd(dd));
}

void enc_aarch64_subs_x_imm(struct jit_code *c, unsigned xd, unsigned xn, uint32_t imm12)
{
	emit(c, A_SUBS_X, (imm12 & 0xfff) << 10 | rn(xn) | rd(xd));
}

void enc_aarch64_bne(struct jit_code *c, size_t target)
{
	emit(c, A_B_COND, branch_words(c, target, 19) << 5 | COND_NE);
}

void enc_aarch64_ret(struct jit_code *c) { emit(c, A_RET, rn(30)); }

void enc_aarch64_movz_x(struct jit_code *c, unsigned xd, uint16_t imm16, unsigned shift)
{
	emit(c, A_MOVZ_X, (shift / 16 & 3) << 21 | (uint32_t)imm16 << 5 | rd(xd));
}

void enc_aarch64_movk_x(struct jit_code *c, unsigned xd, uint16_t imm16, unsigned shift)
{
	emit(c, A_MOVK_X, (shift / 16 & 3) << 21 | (uint32_t)imm16 << 5 | rd(xd));
}

void enc_aarch64_bl(struct jit_code *c, size_t target)
{
	emit(c, A_BL, branch_words(c, target, 26));
}

void enc_aarch64_svc(struct jit_code *c, uint16_t imm16)
{
	emit(c, A_SVC, (uint32_t)imm16 << 5);
}

/* ---- the probe's building blocks ---- */

#define CHASE_A 9
#define CHASE_B 10
#define INT_ROT 7   /* x11..x17 */

/* FP destinations: every caller-saved D register but the two sources. */
static const uint8_t fp_dest[] = {0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20,
				  21, 22, 23, 24, 25, 26, 27, 28, 29};
#define FP_ROT (sizeof(fp_dest) / sizeof(fp_dest[0]))

static void a_prologue(struct jit_code *c)
{
	enc_aarch64_ldr_x_imm(c, CHASE_A, 0, 0);
	enc_aarch64_ldr_x_imm(c, CHASE_B, 0, 8);
	for (unsigned i = 0; i < FP_ROT; i++)
		enc_aarch64_movi_d_zero(c, fp_dest[i]);
	enc_aarch64_movi_d_zero(c, 30);
	enc_aarch64_movi_d_zero(c, 31);
}

static void a_chase(struct jit_code *c, unsigned lane)
{
	unsigned r = lane ? CHASE_B : CHASE_A;

	enc_aarch64_ldr_x_imm(c, r, r, 0);
}

static void a_int_add(struct jit_code *c, unsigned k)
{
	/* Three-operand form from two never-written sources: fully independent,
	 * each one only needs a free integer register. */
	enc_aarch64_add_x_reg(c, 11 + k % INT_ROT, 3, 4);
}

/* Window-entry fillers that cores with move elimination handle at rename:
 * a register move, MOVZ #0 (writes a constant, reads nothing), and FMOV
 * between D registers. Sources are never written in the loop. */
static void a_mov(struct jit_code *c, unsigned k)
{
	enc_aarch64_mov_x_reg(c, 11 + k % INT_ROT, 3);
}

static void a_zero(struct jit_code *c, unsigned k)
{
	enc_aarch64_movz_x(c, 11 + k % INT_ROT, 0, 0);
}

static void a_fmov(struct jit_code *c, unsigned k)
{
	enc_aarch64_fmov_d(c, fp_dest[k % FP_ROT], 30);
}

static void a_fp_add(struct jit_code *c, unsigned k)
{
	enc_aarch64_fadd_d(c, fp_dest[k % FP_ROT], 30, 31);
}

static void a_store(struct jit_code *c, unsigned k)
{
	enc_aarch64_str_x_imm(c, 3, 2, k % ENC_SCRATCH_LINES * ENC_LINE_BYTES);
}

static void a_load_fp(struct jit_code *c, unsigned k)
{
	enc_aarch64_ldr_d_imm(c, fp_dest[k % FP_ROT], 2, k % ENC_SCRATCH_LINES * ENC_LINE_BYTES);
}

/* The missing loads: x5 takes this iteration's base from the table entry
 * x2 points at, x2 steps to the next entry, and x6 holds the stride (the
 * scaled-offset LDR reaches 32760 bytes, fewer than 8 strides, so each
 * load is followed by an add that moves x5 on; the adds depend on nothing
 * but each other, one cycle apiece, off both chases' paths). */
static void a_miss_next(struct jit_code *c)
{
	enc_aarch64_ldr_x_imm(c, 5, 2, 0);
	enc_aarch64_ldr_x_imm(c, 2, 2, 8);
	enc_aarch64_movz_x(c, 6, ENC_MISS_STRIDE_BYTES, 0);
}

static void a_miss_load(struct jit_code *c, unsigned k)
{
	enc_aarch64_ldr_d_imm(c, fp_dest[k % FP_ROT], 5, 0);
	enc_aarch64_add_x_reg(c, 5, 5, 6);
}

static void a_loop_end(struct jit_code *c, size_t loop_start)
{
	enc_aarch64_subs_x_imm(c, 1, 1, 1);
	enc_aarch64_bne(c, loop_start);
}

static void a_epilogue(struct jit_code *c)
{
	enc_aarch64_str_x_imm(c, CHASE_A, 0, 0);
	enc_aarch64_str_x_imm(c, CHASE_B, 0, 8);
	enc_aarch64_ret(c);
}

const struct enc_ops enc_aarch64_ops = {
	.isa = "aarch64",
	.prologue = a_prologue,
	.chase = a_chase,
	.nop = enc_aarch64_nop,
	.mov = a_mov,
	.zero = a_zero,
	.fmov = a_fmov,
	.int_add = a_int_add,
	.fp_add = a_fp_add,
	.store = a_store,
	.load_fp = a_load_fp,
	.miss_next = a_miss_next,
	.miss_load = a_miss_load,
	.loop_end = a_loop_end,
	.epilogue = a_epilogue,
};
