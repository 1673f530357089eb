/*
 * Walks the main program's PT_NOTE segments for the GNU build id. The note
 * is in memory because the linker places .note.gnu.build-id in a loaded
 * segment; a binary linked without --build-id has none and says so.
 * Holds no ELF file parsing: the program headers the loader mapped are the
 * ones that ran.
 */
#include "util/build_id.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static size_t align_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

static void to_hex(const unsigned char *id, size_t n, char *hex, size_t hexlen)
{
	size_t used = 0;

	hex[0] = 0;
	for (size_t i = 0; i < n && used + 3 <= hexlen; i++)
		used += (size_t)snprintf(hex + used, hexlen - used, "%02x", id[i]);
}

int build_id_from_notes(const void *buf, size_t len, size_t align, char *hex, size_t hexlen)
{
	const unsigned char *p = buf;
	size_t at = 0;

	if (align != 8)
		align = 4;
	while (at + sizeof(ElfW(Nhdr)) <= len) {
		ElfW(Nhdr) h;
		size_t name_at = at + sizeof(h), desc_at, next;

		memcpy(&h, p + at, sizeof(h));
		desc_at = name_at + align_up(h.n_namesz, align);
		next = desc_at + align_up(h.n_descsz, align);
		if (h.n_namesz > len || h.n_descsz > len || next > len || next <= at)
			return -EINVAL;
		if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && !memcmp(p + name_at, "GNU", 4) &&
		    h.n_descsz > 0 && 2 * (size_t)h.n_descsz < hexlen) {
			to_hex(p + desc_at, h.n_descsz, hex, hexlen);
			return 0;
		}
		at = next;
	}
	return -ENOENT;
}

struct search {
	char *hex;
	size_t hexlen;
	int rc;
};

/* The first object dl_iterate_phdr reports is the main program. */
static int on_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct search *s = data;

	(void)size;
	for (ElfW(Half) i = 0; i < info->dlpi_phnum && s->rc; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_NOTE)
			s->rc = build_id_from_notes((const void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz,
						    ph->p_align, s->hex, s->hexlen);
	}
	return 1;
}

int build_id_self(char *hex, size_t hexlen)
{
	struct search s = { .hex = hex, .hexlen = hexlen, .rc = -ENOENT };

	if (hexlen)
		hex[0] = 0;
	dl_iterate_phdr(on_object, &s);
	return s.rc;
}
