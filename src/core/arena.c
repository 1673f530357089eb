/*
 * mmap, alignment, THP advice, pre-faulting and smaps read-back.
 * Hardware and kernel facts relied on: a 2 MiB THP can only back a 2 MiB
 * aligned virtual range, and the advice must be given before first touch (a
 * page faulted in small stays small until khugepaged or MADV_COLLAPSE, Linux
 * 6.1+, rebuilds it). Pre-faulting matters: a first-touch fault inside a timed
 * loop costs microseconds, far more than the miss being measured.
 */
#include "core/arena.h"

#include "core/host.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

const char *arena_request_name(enum page_request req)
{
	return req == PAGES_HUGE ? "huge" : "small";
}

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

/* Over-map by 2 MiB and trim, so the kept range is aligned to a huge page.
 * No MAP_NORESERVE: the arena is pre-faulted anyway, and without it an
 * impossible size fails here with ENOMEM instead of meeting the OOM killer. */
static char *map_aligned(size_t bytes)
{
	size_t span = bytes + ARENA_HUGE_BYTES;
	char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *aligned;
	size_t head;

	if (raw == MAP_FAILED)
		return NULL;
	aligned = (char *)round_up((size_t)raw, ARENA_HUGE_BYTES);
	head = (size_t)(aligned - raw);
	if (head)
		munmap(raw, head);
	if (span - head - bytes)
		munmap(aligned + bytes, span - head - bytes);
	return aligned;
}

int arena_map(struct arena *a, size_t bytes, enum page_request req)
{
	memset(a, 0, sizeof(*a));
	a->bytes = round_up(bytes, ARENA_HUGE_BYTES);
	a->requested = req;
	a->base = map_aligned(a->bytes);
	if (!a->base)
		return -errno;
	/* Advice is best-effort: a kernel without THP returns EINVAL, and the
	 * read-back below reports what that meant. */
	madvise(a->base, a->bytes, req == PAGES_HUGE ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	/* Fault every page in from the kernel's side first (Linux 5.14+): on a
	 * guest each fault taken from user space cost about 11 us, 0.72 s for
	 * 258 MiB of small pages against 0.04 s here; the pages and their sizes
	 * are the same. The touch below then finds them present, or faults them
	 * itself where the kernel has no such advice. */
	(void)madvise(a->base, a->bytes, MADV_POPULATE_WRITE);
	for (size_t off = 0; off < a->bytes; off += 4096)
		a->base[off] = 0;
	if (req == PAGES_HUGE) {
		a->smaps_errno = -arena_backing_obtained(a, &a->huge_bytes_obtained);
		if (a->huge_bytes_obtained < a->bytes &&
		    madvise(a->base, a->bytes, MADV_COLLAPSE) != 0)
			a->collapse_errno = errno;
	}
	a->smaps_errno = -arena_backing_obtained(a, &a->huge_bytes_obtained);
	return 0;
}

static size_t overlap(size_t a0, size_t a1, size_t b0, size_t b1)
{
	size_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* Sum AnonHugePages over every VMA that overlaps the arena. A VMA reaching
 * past the arena (the kernel merges neighbours with equal flags) is counted
 * at most for its overlapping bytes. */
int arena_backing_obtained(const struct arena *a, size_t *huge_bytes)
{
	FILE *f = host_self_fopen("smaps");
	char line[512];
	size_t lo = (size_t)a->base, hi = lo + a->bytes, vma_overlap = 0, total = 0;

	*huge_bytes = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long v0, v1, kb;

		if (sscanf(line, "%lx-%lx ", &v0, &v1) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			vma_overlap = overlap(lo, hi, v0, v1);
		} else if (vma_overlap && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1) {
			size_t got = (size_t)kb * 1024;

			total += got < vma_overlap ? got : vma_overlap;
		}
	}
	fclose(f);
	*huge_bytes = total;
	return 0;
}

void arena_unmap(struct arena *a)
{
	if (a->base)
		munmap(a->base, a->bytes);
	a->base = NULL;
}
