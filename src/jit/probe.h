/*
 * The out-of-order window probe: a generated loop of two independent
 * pointer chases, each load followed by N fillers of one kind. While lane
 * B's load still fits in the core's structures behind lane A's load and its
 * N fillers, the two misses overlap and an iteration costs one memory
 * latency; when it does not, they serialise and the cost doubles. This file
 * builds and times that loop; it picks no N and fits nothing (exp/window.c
 * does), and it knows no ISA (jit/enc.h does).
 */
#ifndef MLPSCOPE_JIT_PROBE_H
#define MLPSCOPE_JIT_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jit/jit.h"

struct clock_info;
struct enc_ops;

enum probe_filler {
	PROBE_FILLER_NOP,          /* reorder buffer */
	PROBE_FILLER_MOV,          /* reorder buffer, where register moves are eliminated at rename */
	PROBE_FILLER_ZERO,         /* reorder buffer, where zeroing idioms take no register */
	PROBE_FILLER_FMOV,         /* reorder buffer, where FP/vector moves are eliminated */
	PROBE_FILLER_INT_ADD,      /* integer register file */
	PROBE_FILLER_FP_ADD,       /* FP/vector register file */
	PROBE_FILLER_STORE,        /* store queue */
	PROBE_FILLER_LOAD_FP,      /* load queue (FP destinations: integer ones hit the int PRF first) */
	PROBE_FILLER_STORE_NOP,    /* store, nop, store, nop ...: N counts both */
	PROBE_FILLER_LOAD_FP_NOP,  /* load, nop, ... */
	PROBE_FILLER_MISS,         /* L1D miss buffers: each filler a load that misses to DRAM */
	PROBE_FILLER_COUNT
};

/* The structures the fillers bound; several fillers may bound one. */
enum probe_structure {
	PROBE_STRUCT_ROB, PROBE_STRUCT_INT_RF, PROBE_STRUCT_FP_RF, PROBE_STRUCT_SQ, PROBE_STRUCT_LQ,
	PROBE_STRUCT_MISS, PROBE_STRUCT_COUNT
};

/* JSON key ("reorder_buffer", ...) and words ("reorder buffer", ...). */
const char *probe_structure_key(enum probe_structure s);
const char *probe_structure_name(enum probe_structure s);

struct probe_filler_info {
	const char *name;          /* "nop", "int_add", ... (JSON and CLI spelling) */
	const char *structure;     /* what it is expected to fill */
	enum probe_structure bounds; /* the structure whose size its step gives */
	unsigned fillers_per_entry;/* 2 for the nop-interleaved kinds: N/2 of them count */
	unsigned chase_entries;    /* 2 where the two chase loads occupy the structure too */
};

const struct probe_filler_info *probe_filler_info(enum probe_filler f);

/* Filler kind by name; -EINVAL when unknown. */
int probe_filler_parse(const char *name, enum probe_filler *f);

/* The fillers a window run sweeps when none are named: all but the
 * missing-load one, which is opt-in (its sweep drives DRAM traffic at the
 * core's own limit and is priced by no budget). */
#define PROBE_FILLERS_DEFAULT (((1u << PROBE_FILLER_COUNT) - 1) & ~(1u << PROBE_FILLER_MISS))

/* One entry of the missing-load filler's table (its probe's scratch
 * argument points at one): this iteration's base address in the miss
 * buffer, and the next entry (the table is a cycle, so the probe needs no
 * bound). Filler k of the iteration loads base + k * ENC_MISS_STRIDE_BYTES. */
struct probe_miss_entry {
	uint64_t base;
	uint64_t next;
};

/* The generated function (see jit/enc.h for the register conventions). */
typedef void (*probe_fn)(uintptr_t ptrs[2], uint64_t iters, void *scratch);

/* Upper bound on the code bytes of a probe with n fillers per miss, for
 * sizing a buffer. */
size_t probe_code_bytes_max(unsigned n);

/* Emit the loop for filler f and n fillers per miss into c with the given
 * encoder (any ISA: the gold tests emit AArch64 on x86-64). Returns c->err:
 * 0 or -ENOSPC. */
int probe_emit(struct jit_code *c, const struct enc_ops *ops, enum probe_filler f, unsigned n);

/* A small fixed probe that uses every instruction form of the encoder once
 * or more, with register numbers and displacements that exercise REX bits
 * and every ModRM displacement size: the gold listing's input. */
int probe_emit_sample(struct jit_code *c, const struct enc_ops *ops);

struct probe {
	struct jit_code code;
	probe_fn fn;
	enum probe_filler filler;
	unsigned n;
};

/* Map, emit for this host, seal. Returns 0, -ENOTSUP where the host has no
 * encoder, -EINVAL for a bad filler, or a jit_code error. */
int probe_build(struct probe *p, enum probe_filler f, unsigned n);

void probe_free(struct probe *p);

/* Run iters loop iterations (>= 1) from the chase pointers in ptrs (updated
 * in place), timed with the clock clock_init chose. Returns ns per
 * iteration. scratch: ENC_SCRATCH_LINES lines, 64-byte aligned. */
double probe_run_ns_per_iter(const struct probe *p, uintptr_t ptrs[2], uint64_t iters, void *scratch,
			     const struct clock_info *clock);

#endif
