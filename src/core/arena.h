/*
 * Memory arenas with a page backing that is requested, then *verified*:
 * a THP request is advice the kernel may ignore (THP "never", fragmentation,
 * a cgroup limit), so the backing obtained is read back from /proc/self/smaps
 * and that, not the request, is what gets reported.
 */
#ifndef MLPSCOPE_CORE_ARENA_H
#define MLPSCOPE_CORE_ARENA_H

#include <stddef.h>

enum page_request { PAGES_SMALL, PAGES_HUGE };

#define ARENA_HUGE_BYTES ((size_t)2 << 20)

struct arena {
	char *base;                /* 2 MiB aligned */
	size_t bytes;              /* usable, a multiple of 2 MiB */
	enum page_request requested;
	size_t huge_bytes_obtained;/* AnonHugePages over the mapping */
	int collapse_errno;        /* 0 when MADV_COLLAPSE ran (or was not needed) */
	int smaps_errno;           /* 0 when smaps could be read */
};

/* Map, advise, pre-fault and verify. bytes is rounded up to 2 MiB. Returns
 * 0 or -errno (mmap's). */
int arena_map(struct arena *a, size_t bytes, enum page_request req);

/* Re-read the obtained huge-page bytes for the arena's range; -errno when
 * smaps is unreadable. */
int arena_backing_obtained(const struct arena *a, size_t *huge_bytes);

void arena_unmap(struct arena *a);

const char *arena_request_name(enum page_request req);

#endif
