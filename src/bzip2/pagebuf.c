/*
 * pagebuf.h: buffers of 2 MiB pages faulted in by the kernel at once.
 * On a guest a first touch of a small page from user space costs about
 * 12 us (the trap and the host's fault behind it): a decoder's buffers,
 * each block's slice of input and the window came to 1,900-3,300 faults a
 * 30 MB file, 8-12% of its CPU time, the second thread's share of them
 * its lost speed-up. Huge pages faulted in by MADV_POPULATE_WRITE cost
 * 0.1 ms a MiB. Both are advice: without THP or that madvise (before
 * Linux 5.14) the pages are small and faulted in as they are touched.
 */
#include "bzip2/pagebuf.h"

#include <stdint.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define PAGEBUF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PAGEBUF_ASAN 1
#endif
#endif

#ifdef PAGEBUF_ASAN
/* compiler-rt's interface (sanitizer/asan_interface.h), declared here so
 * the plain build needs no sanitizer headers. */
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#endif

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define PAGE_2M ((size_t)2 << 20)
#define PAGE_4K ((size_t)4096)

size_t pagebuf_bytes(size_t bytes)
{
	return bytes ? (bytes + PAGE_2M - 1) / PAGE_2M * PAGE_2M : PAGE_2M;
}

void *pagebuf_map(size_t bytes)
{
	void *p = pagebuf_reserve(bytes);

	if (p)
		pagebuf_populate(p, pagebuf_bytes(bytes));
	return p;
}

void pagebuf_populate(void *p, size_t bytes)
{
	(void)madvise(p, bytes, MADV_POPULATE_WRITE);
}

void pagebuf_populate_within(void *p, size_t bytes)
{
	uintptr_t from = ((uintptr_t)p + PAGE_4K - 1) & ~(uintptr_t)(PAGE_4K - 1);
	uintptr_t to = ((uintptr_t)p + bytes) & ~(uintptr_t)(PAGE_4K - 1);

	if (to > from)
		(void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
}

void *pagebuf_reserve(size_t bytes)
{
	size_t n = pagebuf_bytes(bytes), span = n + PAGE_2M, head;
	uint8_t *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *p;

	if (raw == MAP_FAILED)
		return NULL;
	/* A huge page needs a 2 MiB aligned range: over-map and trim. */
	p = (uint8_t *)(((uintptr_t)raw + PAGE_2M - 1) & ~(uintptr_t)(PAGE_2M - 1));
	head = (size_t)(p - raw);
	if (head)
		munmap(raw, head);
	if (span - head - n)
		munmap(p + n, span - head - n);
	/* A tail that would fill half a huge page or less stays in small
	 * pages: whole, it would hold more memory unused than used. */
	if (bytes % PAGE_2M && bytes % PAGE_2M <= PAGE_2M / 2) {
		(void)madvise(p + n - PAGE_2M, PAGE_2M, MADV_NOHUGEPAGE);
		n -= PAGE_2M;
	}
	if (n)
		(void)madvise(p, n, MADV_HUGEPAGE);
	return p;
}

void *pagebuf_reserve_small(size_t bytes)
{
	size_t n = pagebuf_bytes(bytes);
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	(void)madvise(p, n, MADV_NOHUGEPAGE);
	return p;
}

void pagebuf_fence(void *p, size_t used, size_t cap)
{
#ifdef PAGEBUF_ASAN
	__asan_unpoison_memory_region(p, used);
	__asan_poison_memory_region((uint8_t *)p + used, cap - used);
#else
	(void)p;
	(void)used;
	(void)cap;
#endif
}

void pagebuf_unmap(void *p, size_t bytes)
{
	if (!p)
		return;
#ifdef PAGEBUF_ASAN
	/* A later mapping at these addresses must not start fenced. */
	__asan_unpoison_memory_region(p, pagebuf_bytes(bytes));
#endif
	munmap(p, pagebuf_bytes(bytes));
}
