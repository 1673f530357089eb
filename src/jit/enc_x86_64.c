/*
 * x86-64 encoder: one function per instruction form, all opcodes in the one
 * table below, each citing the Intel SDM (Vol. 2, order no. 325383) opcode
 * table it comes from. Only SSE2 forms (the x86-64 baseline), so the code
 * runs on every x86-64 the binary may be copied to; no VEX/EVEX. Nothing
 * here executes anything, so it builds and is tested on any host.
 * Probe register use (SysV): rdi = ptrs, rsi = iters, rdx = scratch, chase
 * lanes in rax and rcx, integer fillers r8..r11, FP fillers xmm0..xmm14
 * with xmm15 as the shared source: all caller-saved, so no spills. The
 * missing-load probe walks its table with rdx and holds its base in r8
 * (it has no other fillers).
 */
#include "jit/enc.h"

#include "jit/jit.h"

#include <stdbool.h>

enum x86_form {
	X_NOP, X_MOV_LOAD, X_MOV_STORE, X_MOV_RR, X_XOR_R32, X_ADD, X_ADDPD, X_MOVAPS, X_MOVSD_LOAD, X_XORPS,
	X_DEC, X_JNZ, X_RET,
	X_NFORMS
};

struct x86_form_desc {
	uint8_t prefix;     /* mandatory prefix (66, F2) emitted before REX, 0 if none */
	uint8_t op[2];      /* opcode bytes after any 0F escape */
	uint8_t oplen;
	bool rex_w;         /* REX.W: 64-bit operand size */
	int8_t ext;         /* ModRM.reg opcode extension (/digit), -1 for /r */
	const char *cite;
};

/* The encodings. Citations: Intel 64 and IA-32 Architectures SDM, Vol. 2A
 * ch. 3.3 "Instructions (A-L)", Vol. 2B ch. 4.3 "Instructions (M-U)";
 * the same opcodes are in AMD APM Vol. 3 (24594) ch. 3 / Vol. 4 (26568). */
static const struct x86_form_desc forms[X_NFORMS] = {
	[X_NOP]        = {0,    {0x90},       1, false, -1, "SDM 2B 4.3 NOP: NP 90"},
	[X_MOV_LOAD]   = {0,    {0x8b},       1, true,  -1, "SDM 2B 4.3 MOV: REX.W + 8B /r  MOV r64, r/m64"},
	[X_MOV_STORE]  = {0,    {0x89},       1, true,  -1, "SDM 2B 4.3 MOV: REX.W + 89 /r  MOV r/m64, r64"},
	[X_MOV_RR]     = {0,    {0x89},       1, true,  -1, "SDM 2B 4.3 MOV: REX.W + 89 /r  MOV r/m64, r64 (mod=11, register)"},
	[X_XOR_R32]    = {0,    {0x31},       1, false, -1, "SDM 2B 4.3 XOR: 31 /r  XOR r/m32, r32 (mod=11, register)"},
	[X_ADD]        = {0,    {0x01},       1, true,  -1, "SDM 2A 3.3 ADD: REX.W + 01 /r  ADD r/m64, r64"},
	[X_ADDPD]      = {0x66, {0x0f, 0x58}, 2, false, -1, "SDM 2A 3.3 ADDPD: 66 0F 58 /r  ADDPD xmm1, xmm2/m128"},
	[X_MOVAPS]     = {0,    {0x0f, 0x28}, 2, false, -1, "SDM 2B 4.3 MOVAPS: NP 0F 28 /r  MOVAPS xmm1, xmm2/m128"},
	[X_MOVSD_LOAD] = {0xf2, {0x0f, 0x10}, 2, false, -1, "SDM 2B 4.3 MOVSD: F2 0F 10 /r  MOVSD xmm1, m64"},
	[X_XORPS]      = {0,    {0x0f, 0x57}, 2, false, -1, "SDM 2B 4.3 XORPS: NP 0F 57 /r  XORPS xmm1, xmm2/m128"},
	[X_DEC]        = {0,    {0xff},       1, true,   1, "SDM 2A 3.3 DEC: REX.W + FF /1  DEC r/m64"},
	[X_JNZ]        = {0,    {0x0f, 0x85}, 2, false, -1, "SDM 2A 3.3 Jcc: 0F 85 cd  JNZ rel32"},
	[X_RET]        = {0,    {0xc3},       1, false, -1, "SDM 2B 4.3 RET: C3  near return"},
};

/* Prefix, REX (only when a bit is set), opcode. reg and rm are the full
 * 4-bit register numbers; their high bits go to REX.R and REX.B (SDM 2A
 * 2.2.1 "REX Prefixes"). */
static void emit_head(struct jit_code *c, enum x86_form f, unsigned reg, unsigned rm)
{
	const struct x86_form_desc *d = &forms[f];
	uint8_t rex = (uint8_t)(0x40 | (d->rex_w ? 8 : 0) | ((reg >> 3) & 1) << 2 | ((rm >> 3) & 1));

	if (d->prefix)
		jit_emit_u8(c, d->prefix);
	if (rex != 0x40)
		jit_emit_u8(c, rex);
	jit_emit_bytes(c, d->op, d->oplen);
}

static void emit_modrm_reg(struct jit_code *c, unsigned reg, unsigned rm)
{
	jit_emit_u8(c, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

/* ModRM (+SIB) (+disp) for [base + disp] (SDM 2A 2.1.5, Tables 2-2, 2-3):
 * mod 00 has no displacement except that rm=101 (rbp/r13) then means
 * RIP-relative, so those bases always carry one; rm=100 (rsp/r12) needs a
 * SIB byte with no index (0x24). */
static void emit_modrm_mem(struct jit_code *c, unsigned reg, unsigned base, int32_t disp)
{
	unsigned mod = disp == 0 && (base & 7) != 5 ? 0 : disp >= -128 && disp <= 127 ? 1 : 2;

	jit_emit_u8(c, (uint8_t)(mod << 6 | (reg & 7) << 3 | (base & 7)));
	if ((base & 7) == 4)
		jit_emit_u8(c, 0x24);
	if (mod == 1)
		jit_emit_u8(c, (uint8_t)(int8_t)disp);
	else if (mod == 2)
		jit_emit_u32le(c, (uint32_t)disp);
}

void enc_x86_64_nop(struct jit_code *c)
{
	emit_head(c, X_NOP, 0, 0);
}

void enc_x86_64_mov_r64_m64(struct jit_code *c, unsigned dst, unsigned base, int32_t disp)
{
	emit_head(c, X_MOV_LOAD, dst, base);
	emit_modrm_mem(c, dst, base, disp);
}

void enc_x86_64_mov_m64_r64(struct jit_code *c, unsigned base, int32_t disp, unsigned src)
{
	emit_head(c, X_MOV_STORE, src, base);
	emit_modrm_mem(c, src, base, disp);
}

void enc_x86_64_add_r64_r64(struct jit_code *c, unsigned dst, unsigned src)
{
	/* 01 /r is ADD r/m64, r64: the destination is the r/m operand. */
	emit_head(c, X_ADD, src, dst);
	emit_modrm_reg(c, src, dst);
}

void enc_x86_64_mov_r64_r64(struct jit_code *c, unsigned dst, unsigned src)
{
	/* 89 /r is MOV r/m64, r64: the destination is the r/m operand. */
	emit_head(c, X_MOV_RR, src, dst);
	emit_modrm_reg(c, src, dst);
}

void enc_x86_64_xor_r32_r32(struct jit_code *c, unsigned dst, unsigned src)
{
	emit_head(c, X_XOR_R32, src, dst);
	emit_modrm_reg(c, src, dst);
}

void enc_x86_64_movaps_xmm_xmm(struct jit_code *c, unsigned dst, unsigned src)
{
	emit_head(c, X_MOVAPS, dst, src);
	emit_modrm_reg(c, dst, src);
}

void enc_x86_64_addpd_xmm_xmm(struct jit_code *c, unsigned dst, unsigned src)
{
	emit_head(c, X_ADDPD, dst, src);
	emit_modrm_reg(c, dst, src);
}

void enc_x86_64_movsd_xmm_m64(struct jit_code *c, unsigned dst, unsigned base, int32_t disp)
{
	emit_head(c, X_MOVSD_LOAD, dst, base);
	emit_modrm_mem(c, dst, base, disp);
}

void enc_x86_64_xorps_xmm_xmm(struct jit_code *c, unsigned dst, unsigned src)
{
	emit_head(c, X_XORPS, dst, src);
	emit_modrm_reg(c, dst, src);
}

void enc_x86_64_dec_r64(struct jit_code *c, unsigned reg)
{
	emit_head(c, X_DEC, 0, reg);
	emit_modrm_reg(c, (unsigned)forms[X_DEC].ext, reg);
}

void enc_x86_64_jnz_rel32(struct jit_code *c, size_t target)
{
	/* rel32 counts from the end of this 6-byte instruction. */
	int64_t rel = (int64_t)target - (int64_t)(c->len_bytes + 6);

	emit_head(c, X_JNZ, 0, 0);
	jit_emit_u32le(c, (uint32_t)(int32_t)rel);
}

void enc_x86_64_ret(struct jit_code *c)
{
	emit_head(c, X_RET, 0, 0);
}

/* ---- the probe's building blocks ---- */

#define INT_ROT 4   /* r8..r11 */
#define FP_ROT 15   /* xmm0..xmm14; xmm15 is the source */

static void x_prologue(struct jit_code *c)
{
	enc_x86_64_mov_r64_m64(c, X86_RAX, X86_RDI, 0);
	enc_x86_64_mov_r64_m64(c, X86_RCX, X86_RDI, 8);
	/* Zeroing idioms here are fine: they run once, outside the loop. */
	for (unsigned x = 0; x < 16; x++)
		enc_x86_64_xorps_xmm_xmm(c, x, x);
}

static void x_chase(struct jit_code *c, unsigned lane)
{
	unsigned r = lane ? X86_RCX : X86_RAX;

	enc_x86_64_mov_r64_m64(c, r, r, 0);
}

static void x_int_add(struct jit_code *c, unsigned k)
{
	/* Each destination also reads itself (two-operand form), so the adds
	 * form INT_ROT chains of 1-cycle adds: they finish long before the miss
	 * returns and so each holds its register until it retires. */
	enc_x86_64_add_r64_r64(c, X86_R8 + k % INT_ROT, X86_RDX);
}

/* The reorder-buffer fillers beside nop, for cores that drop nops before
 * they take a window entry (some AMD cores do: a nop-interleaved probe overlaps at
 * twice the N). Each is handled at rename, so it takes a window entry but
 * no execution port and no new physical register: a 64-bit move between
 * integer registers (AMD SOG 19h "zero cycle move"), the 32-bit XOR
 * zeroing idiom, and MOVAPS between XMM registers. The source is never
 * written in the loop, so no move waits on another. */
static void x_mov(struct jit_code *c, unsigned k)
{
	enc_x86_64_mov_r64_r64(c, X86_R8 + k % INT_ROT, X86_RDX);
}

static void x_zero(struct jit_code *c, unsigned k)
{
	unsigned r = X86_R8 + k % INT_ROT;

	enc_x86_64_xor_r32_r32(c, r, r);
}

static void x_fmov(struct jit_code *c, unsigned k)
{
	enc_x86_64_movaps_xmm_xmm(c, k % FP_ROT, 15);
}

static void x_fp_add(struct jit_code *c, unsigned k)
{
	enc_x86_64_addpd_xmm_xmm(c, k % FP_ROT, 15);
}

static void x_store(struct jit_code *c, unsigned k)
{
	enc_x86_64_mov_m64_r64(c, X86_RDX, (int32_t)(k % ENC_SCRATCH_LINES * ENC_LINE_BYTES), X86_RDI);
}

static void x_load_fp(struct jit_code *c, unsigned k)
{
	/* MOVSD from memory writes the whole register (upper half zeroed), so it
	 * does not depend on the destination's old value. */
	enc_x86_64_movsd_xmm_m64(c, k % FP_ROT, X86_RDX, (int32_t)(k % ENC_SCRATCH_LINES * ENC_LINE_BYTES));
}

/* The missing loads: r8 takes this iteration's base from the table entry
 * rdx points at, and rdx steps to the next entry (two loads that hit, off
 * both chases' paths). */
static void x_miss_next(struct jit_code *c)
{
	enc_x86_64_mov_r64_m64(c, X86_R8, X86_RDX, 0);
	enc_x86_64_mov_r64_m64(c, X86_RDX, X86_RDX, 8);
}

static void x_miss_load(struct jit_code *c, unsigned k)
{
	enc_x86_64_movsd_xmm_m64(c, k % FP_ROT, X86_R8, (int32_t)(k * ENC_MISS_STRIDE_BYTES));
}

static void x_loop_end(struct jit_code *c, size_t loop_start)
{
	/* DEC + JNZ macro-fuse on current cores: one slot of loop overhead. */
	enc_x86_64_dec_r64(c, X86_RSI);
	enc_x86_64_jnz_rel32(c, loop_start);
}

static void x_epilogue(struct jit_code *c)
{
	enc_x86_64_mov_m64_r64(c, X86_RDI, 0, X86_RAX);
	enc_x86_64_mov_m64_r64(c, X86_RDI, 8, X86_RCX);
	enc_x86_64_ret(c);
}

const struct enc_ops enc_x86_64_ops = {
	.isa = "x86_64",
	.prologue = x_prologue,
	.chase = x_chase,
	.nop = enc_x86_64_nop,
	.mov = x_mov,
	.zero = x_zero,
	.fmov = x_fmov,
	.int_add = x_int_add,
	.fp_add = x_fp_add,
	.store = x_store,
	.load_fp = x_load_fp,
	.miss_next = x_miss_next,
	.miss_load = x_miss_load,
	.loop_end = x_loop_end,
	.epilogue = x_epilogue,
};
