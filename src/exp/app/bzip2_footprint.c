/*
 * The decoder's own footprint per worker count: what its buffers (block
 * symbols, the T-vector, the walk's text and output, the walk's scratch)
 * and the parallel decoder's block bookkeeping hold, instead of the
 * process's peak RSS (which counts every arena and input the run ever
 * touched). Read from the allocator's own in-use count (glibc's mallinfo2,
 * summed over its arenas, mmapped chunks included) around the decoders'
 * making, plus the T-vector arenas mapped beside malloc. Another allocator
 * (a sanitizer's) keeps its own books: then the count cannot hold even one
 * block's buffer, and the figure is left unmeasured rather than printed.
 */
#include "exp/app/bzip2.h"

#include "core/arena.h"
#include "exp/app/bzip2_tables.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
static int heap_in_use(size_t *bytes)
{
	struct mallinfo2 m = mallinfo2();

	*bytes = m.uordblks + m.hblkhd;
	return 0;
}
#else
static int heap_in_use(size_t *bytes)
{
	*bytes = 0;
	return -ENOTSUP;
}
#endif

static size_t mapped_bytes(const struct bz2_decoder *d)
{
	const struct arena *a = app_bz2_table(d, 0), *b = app_bz2_table(d, 1);

	return (a ? a->bytes : 0) + (b ? b->bytes : 0);
}

void app_bzip2_footprint_begin(struct app_bzip2_footprint *f)
{
	f->ok = !heap_in_use(&f->heap_before);
}

void app_bzip2_footprint_ready(struct app_bzip2_footprint *f, struct bz2_decoder *const *dec, unsigned n,
			       struct app_bzip2_result *r)
{
	size_t now = 0;

	f->ok = f->ok && n && !heap_in_use(&now) && now >= f->heap_before;
	/* One decoder's block buffer alone is a malloc of the largest block:
	 * a count below n of them is not this allocator's. */
	f->ok = f->ok && now - f->heap_before >= (size_t)n * BZ2_MAX_BLOCK_BYTES;
	f->heap_ready = now;
	f->each_bytes = f->ok ? (now - f->heap_before) / n + mapped_bytes(dec[0]) : 0;
	r->decoder_bytes_each = f->each_bytes;
	snprintf(r->decoder_bytes_from, sizeof(r->decoder_bytes_from), "%s",
		 f->ok ? "allocator in-use bytes (mallinfo2) around the decoders' making, plus their mapped T-vectors"
		       : "unmeasured: the allocator's in-use count is not glibc's or does not hold the decoders");
}

size_t app_bzip2_bookkeeping_bytes(size_t ncand)
{
	/* Per candidate block: its rc, end bit, CRC, size, bytes, seconds (with
	 * one spare), its magic's offset and its rate for the spread. */
	return (ncand + 1) * (sizeof(int) + sizeof(uint64_t) + 2 * sizeof(uint32_t) + sizeof(size_t) + sizeof(double)) +
	       ncand * (sizeof(uint64_t) + sizeof(double));
}

size_t app_bzip2_footprint_at(const struct app_bzip2_footprint *f, unsigned n, size_t ncand)
{
	size_t now = 0;

	if (!f->ok || heap_in_use(&now))
		return 0;
	/* Workers 0..n-1 decode with decoders 0..n-1, the ones the earlier
	 * counts used and more: what the heap grew by since all were warmed is
	 * their growth (a block larger than the warming one). */
	return (size_t)n * f->each_bytes + (now > f->heap_ready ? now - f->heap_ready : 0) +
	       app_bzip2_bookkeeping_bytes(ncand);
}
