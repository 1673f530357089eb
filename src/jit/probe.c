/*
 * Building and timing the window probe. The loop body is
 *     chase A; N fillers; chase B; N fillers; decrement; branch
 * so lane B's load is N fillers behind lane A's, and the next iteration's A
 * is N fillers behind B. Filler numbering continues across both groups so
 * register and line rotation is the same everywhere in the loop. Nothing
 * here is ISA-specific; the encoders carry the instructions.
 */
#include "jit/probe.h"

#include "core/clock.h"
#include "jit/enc.h"

#include <errno.h>
#include <string.h>

#define ROB PROBE_STRUCT_ROB
static const struct probe_filler_info infos[PROBE_FILLER_COUNT] = {
	[PROBE_FILLER_NOP]         = {"nop", "reorder buffer", ROB, 1, 2},
	[PROBE_FILLER_MOV]         = {"mov", "reorder buffer (eliminated moves)", ROB, 1, 2},
	[PROBE_FILLER_ZERO]        = {"zero_idiom", "reorder buffer (zeroing idioms)", ROB, 1, 2},
	[PROBE_FILLER_FMOV]        = {"fmov", "reorder buffer (eliminated FP moves)", ROB, 1, 2},
	[PROBE_FILLER_INT_ADD]     = {"int_add", "integer register file", PROBE_STRUCT_INT_RF, 1, 2},
	[PROBE_FILLER_FP_ADD]      = {"fp_add", "FP/vector register file", PROBE_STRUCT_FP_RF, 1, 0},
	[PROBE_FILLER_STORE]       = {"store", "store queue", PROBE_STRUCT_SQ, 1, 0},
	[PROBE_FILLER_LOAD_FP]     = {"load_fp", "load queue", PROBE_STRUCT_LQ, 1, 2},
	[PROBE_FILLER_STORE_NOP]   = {"store_nop", "store queue (nop-interleaved check)", PROBE_STRUCT_SQ, 2, 0},
	[PROBE_FILLER_LOAD_FP_NOP] = {"load_fp_nop", "load queue (nop-interleaved check)", PROBE_STRUCT_LQ, 2, 2},
	[PROBE_FILLER_MISS]        = {"miss", "L1D miss buffers (loads that miss to DRAM)", PROBE_STRUCT_MISS, 1, 2},
};
#undef ROB

static const char *const struct_keys[PROBE_STRUCT_COUNT][2] = {
	[PROBE_STRUCT_ROB] = {"reorder_buffer", "reorder buffer"},
	[PROBE_STRUCT_INT_RF] = {"int_register_file", "integer register file"},
	[PROBE_STRUCT_FP_RF] = {"fp_register_file", "FP/vector register file"},
	[PROBE_STRUCT_SQ] = {"store_queue", "store queue"},
	[PROBE_STRUCT_LQ] = {"load_queue", "load queue"},
	[PROBE_STRUCT_MISS] = {"l1d_miss_buffers", "L1D miss buffers"},
};

const char *probe_structure_key(enum probe_structure s)
{
	return (unsigned)s < PROBE_STRUCT_COUNT ? struct_keys[s][0] : NULL;
}

const char *probe_structure_name(enum probe_structure s)
{
	return (unsigned)s < PROBE_STRUCT_COUNT ? struct_keys[s][1] : NULL;
}

const struct probe_filler_info *probe_filler_info(enum probe_filler f)
{
	return (unsigned)f < PROBE_FILLER_COUNT ? &infos[f] : NULL;
}

int probe_filler_parse(const char *name, enum probe_filler *f)
{
	for (unsigned i = 0; i < PROBE_FILLER_COUNT; i++)
		if (!strcmp(name, infos[i].name)) {
			*f = (enum probe_filler)i;
			return 0;
		}
	return -EINVAL;
}

size_t probe_code_bytes_max(unsigned n)
{
	/* The longest filler form is 9 bytes (x86-64 MOVSD with REX and
	 * disp32); the fixed part is well under 256 bytes on both ISAs. */
	return 2 * (size_t)n * 16 + 512;
}

/* pos: position within the group after one chase; k: running filler number. */
static void emit_filler(struct jit_code *c, const struct enc_ops *ops, enum probe_filler f, unsigned pos,
			unsigned k)
{
	switch (f) {
	case PROBE_FILLER_NOP: ops->nop(c); break;
	case PROBE_FILLER_MOV: ops->mov(c, k); break;
	case PROBE_FILLER_ZERO: ops->zero(c, k); break;
	case PROBE_FILLER_FMOV: ops->fmov(c, k); break;
	case PROBE_FILLER_INT_ADD: ops->int_add(c, k); break;
	case PROBE_FILLER_FP_ADD: ops->fp_add(c, k); break;
	case PROBE_FILLER_STORE: ops->store(c, k); break;
	case PROBE_FILLER_LOAD_FP: ops->load_fp(c, k); break;
	/* Odd positions after each chase are nops, so the first filler behind
	 * a miss is always the load or store and N counts both kinds; k / 2
	 * keeps the line and register rotation dense. */
	case PROBE_FILLER_STORE_NOP: pos % 2 ? ops->nop(c) : ops->store(c, k / 2); break;
	case PROBE_FILLER_LOAD_FP_NOP: pos % 2 ? ops->nop(c) : ops->load_fp(c, k / 2); break;
	case PROBE_FILLER_MISS: ops->miss_load(c, k); break;
	case PROBE_FILLER_COUNT: break;
	}
}

int probe_emit(struct jit_code *c, const struct enc_ops *ops, enum probe_filler f, unsigned n)
{
	size_t loop_start;
	unsigned k = 0;

	if ((unsigned)f >= PROBE_FILLER_COUNT)
		return -EINVAL;
	ops->prologue(c);
	loop_start = c->len_bytes;
	/* The missing loads' base for this iteration: fresh lines each time
	 * round, read from the table and not from either chase. */
	if (f == PROBE_FILLER_MISS)
		ops->miss_next(c);
	for (unsigned lane = 0; lane < 2; lane++) {
		ops->chase(c, lane);
		for (unsigned i = 0; i < n; i++, k++)
			emit_filler(c, ops, f, i, k);
	}
	ops->loop_end(c, loop_start);
	ops->epilogue(c);
	return c->err;
}

int probe_emit_sample(struct jit_code *c, const struct enc_ops *ops)
{
	size_t loop_start;

	ops->prologue(c);
	loop_start = c->len_bytes;
	ops->chase(c, 0);
	ops->nop(c);
	for (unsigned k = 0; k < 5; k++)
		ops->mov(c, k);
	ops->zero(c, 0);
	ops->zero(c, 3);
	for (unsigned k = 0; k < 16; k += 7)
		ops->fmov(c, k);
	/* Enough of each to wrap the register rotation at least once on
	 * x86-64 (4 integer, 15 FP) and to use each displacement size. */
	for (unsigned k = 0; k < 5; k++)
		ops->int_add(c, k);
	for (unsigned k = 0; k < 16; k += 7)
		ops->fp_add(c, k);
	for (unsigned k = 0; k < 3; k++)
		ops->store(c, k);
	for (unsigned k = 0; k < 16; k += 7)
		ops->load_fp(c, k);
	ops->chase(c, 1);
	ops->loop_end(c, loop_start);
	ops->epilogue(c);
	return c->err;
}

int probe_build(struct probe *p, enum probe_filler f, unsigned n)
{
	const struct enc_ops *ops = enc_host_ops();
	int rc;

	memset(p, 0, sizeof(*p));
	if (!ops)
		return -ENOTSUP;
	if ((unsigned)f >= PROBE_FILLER_COUNT)
		return -EINVAL;
	if ((rc = jit_code_map(&p->code, probe_code_bytes_max(n))))
		return rc;
	if ((rc = probe_emit(&p->code, ops, f, n)) || (rc = jit_code_seal(&p->code))) {
		jit_code_unmap(&p->code);
		return rc;
	}
	p->fn = (probe_fn)jit_code_entry(&p->code);
	p->filler = f;
	p->n = n;
	return 0;
}

void probe_free(struct probe *p)
{
	jit_code_unmap(&p->code);
	p->fn = NULL;
}

double probe_run_ns_per_iter(const struct probe *p, uintptr_t ptrs[2], uint64_t iters, void *scratch,
			     const struct clock_info *clock)
{
	uint64_t t0, t1;

	t0 = clock_now();
	p->fn(ptrs, iters, scratch);
	t1 = clock_now();
	return clock_ticks_to_ns(clock, t1 - t0) / (double)iters;
}
