/*
 * The code buffer's lifecycle: map writable, emit bytes, seal (make it
 * read+execute and flush the instruction cache), unmap. The buffer is never
 * writable and executable at once: hardened kernels refuse such mappings,
 * and a W+X page is a gift to anything that can write into this process.
 * Nothing here knows an instruction; encoders (enc.h) only append bytes.
 */
#ifndef MLPSCOPE_JIT_JIT_H
#define MLPSCOPE_JIT_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jit_code {
	uint8_t *base;        /* page-aligned mapping, NULL when unmapped */
	size_t cap_bytes;     /* mapped length, a multiple of the page size */
	size_t len_bytes;     /* bytes emitted so far */
	int err;              /* sticky: -ENOSPC once an emit overflowed, -EPERM after seal */
	bool sealed;          /* read+execute; no more emits */
};

/* Map at least cap_bytes read+write (rounded up to pages). Returns 0 or
 * -errno (mmap's). */
int jit_code_map(struct jit_code *c, size_t cap_bytes);

/* Append bytes. Errors are sticky in c->err (checked once, at seal) so an
 * encoder can emit a run of instructions without testing each one. */
void jit_emit_bytes(struct jit_code *c, const void *bytes, size_t n);
void jit_emit_u8(struct jit_code *c, uint8_t v);
void jit_emit_u32le(struct jit_code *c, uint32_t v);

/* Overwrite 4 bytes already emitted at offset (branch fix-ups). */
void jit_patch_u32le(struct jit_code *c, size_t offset, uint32_t v);

/* Drop write permission and add execute (one mprotect: the pages go from
 * RW to RX, never through RWX), then make the instruction cache coherent
 * with what was written. Returns c->err if an emit failed, else 0 or
 * -errno (mprotect's). */
int jit_code_seal(struct jit_code *c);

/* Entry point of sealed code (offset 0); NULL if not sealed. */
void *jit_code_entry(const struct jit_code *c);

void jit_code_unmap(struct jit_code *c);

/* Permissions of the mapping holding addr as /proc/self/maps shows them
 * ("rw-p", "r-xp"), into perms[5]. Returns 0, -ENOENT when no mapping
 * holds addr, or -errno when maps cannot be read. Tests use it to check W^X
 * against the kernel's view rather than ours. */
int jit_mapping_perms(const void *addr, char perms[5]);

#endif
