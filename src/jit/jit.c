/*
 * The W^X code buffer. Pages go RW (emit) -> RX (run) with one mprotect and
 * never hold both: SELinux execmem, PaX and OpenBSD-style policies refuse
 * RWX, and we would rather fail visibly than ask for it. After writing code,
 * AArch64 needs the data cache cleaned and the instruction cache invalidated
 * for the range (its I-cache is not coherent with stores); x86-64 keeps them
 * coherent in hardware and the builtin compiles to nothing there.
 */
#include "jit/jit.h"

#include "core/host.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int jit_code_map(struct jit_code *c, size_t cap_bytes)
{
	size_t page = host_self_page_bytes();
	void *p;

	memset(c, 0, sizeof(*c));
	cap_bytes = (cap_bytes + page - 1) / page * page;
	if (cap_bytes == 0)
		cap_bytes = page;
	p = mmap(NULL, cap_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	c->base = p;
	c->cap_bytes = cap_bytes;
	return 0;
}

void jit_emit_bytes(struct jit_code *c, const void *bytes, size_t n)
{
	if (c->err)
		return;
	if (c->sealed) {
		c->err = -EPERM;
		return;
	}
	if (!c->base || n > c->cap_bytes - c->len_bytes) {
		c->err = -ENOSPC;
		return;
	}
	memcpy(c->base + c->len_bytes, bytes, n);
	c->len_bytes += n;
}

void jit_emit_u8(struct jit_code *c, uint8_t v)
{
	jit_emit_bytes(c, &v, 1);
}

void jit_emit_u32le(struct jit_code *c, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};

	jit_emit_bytes(c, b, sizeof(b));
}

void jit_patch_u32le(struct jit_code *c, size_t offset, uint32_t v)
{
	if (c->err)
		return;
	if (c->sealed || offset + 4 > c->len_bytes) {
		c->err = c->sealed ? -EPERM : -EINVAL;
		return;
	}
	for (int i = 0; i < 4; i++)
		c->base[offset + (size_t)i] = (uint8_t)(v >> (8 * i));
}

int jit_code_seal(struct jit_code *c)
{
	if (c->err)
		return c->err;
	if (!c->base)
		return -EINVAL;
	if (mprotect(c->base, c->cap_bytes, PROT_READ | PROT_EXEC))
		return -errno;
	/* Clean D-cache / invalidate I-cache to the point of unification; a
	 * no-op on x86-64, required on AArch64 before the first execution. */
	__builtin___clear_cache((char *)c->base, (char *)c->base + c->len_bytes);
	c->sealed = true;
	return 0;
}

void *jit_code_entry(const struct jit_code *c)
{
	return c->sealed ? c->base : NULL;
}

void jit_code_unmap(struct jit_code *c)
{
	if (c->base)
		munmap(c->base, c->cap_bytes);
	memset(c, 0, sizeof(*c));
}

int jit_mapping_perms(const void *addr, char perms[5])
{
	FILE *f = host_self_fopen("maps");
	uintptr_t a = (uintptr_t)addr;
	char line[512];
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char p[5];

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, p) != 3)
			continue;
		if (a >= lo && a < hi) {
			memcpy(perms, p, 5);
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}
