/*
 * The decoder's own footprint: the block bookkeeping's arithmetic, and the
 * allocator count around two decoders made and warmed here (malloc'd
 * T-vectors, so nothing is mapped and no smaps is read): at least their
 * block and table buffers each, n of them at n workers, or said to be
 * unmeasured where the allocator keeps its own books (a sanitizer's).
 */
#include "../harness.h"

#include "bzip2/bz2.h"
#include "exp/app/bzip2.h"

#include <stdlib.h>
#include <string.h>

TEST(bzip2_footprint_bookkeeping_counts_each_candidate)
{
	size_t one = app_bzip2_bookkeeping_bytes(1), two = app_bzip2_bookkeeping_bytes(2);

	/* rc, end bit, CRC, size, bytes, seconds per candidate (and a spare),
	 * plus its magic and its rate: 52 bytes on LP64. */
	CHECK(two - one == 2 * sizeof(uint64_t) + 2 * sizeof(uint32_t) + sizeof(int) + sizeof(size_t) + 2 * sizeof(double),
	      "%zu bytes per candidate", two - one);
	/* No candidates: the spare row only. */
	CHECK(app_bzip2_bookkeeping_bytes(0) == one - (two - one) &&
	      app_bzip2_bookkeeping_bytes(0) == sizeof(uint64_t) + 2 * sizeof(uint32_t) + sizeof(int) + sizeof(size_t) + sizeof(double),
	      "%zu bytes for none", app_bzip2_bookkeeping_bytes(0));
}

TEST(bzip2_footprint_counts_the_decoders_own_buffers)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct bz2_decoder *dec[2] = {NULL, NULL};
	struct app_bzip2_footprint f;
	size_t at1, at2;

	CHECK(r, "calloc");
	app_bzip2_footprint_begin(&f);
	for (unsigned i = 0; i < 2; i++)
		CHECK((dec[i] = bz2_decoder_new()), "decoder %u", i);
	app_bzip2_footprint_ready(&f, dec, 2, r);
	if (!r->decoder_bytes_each) {
		CHECK(strstr(r->decoder_bytes_from, "unmeasured"), "'%s'", r->decoder_bytes_from);
		bz2_decoder_free(dec[0]);
		bz2_decoder_free(dec[1]);
		free(r);
		SKIP("the allocator's in-use count is not glibc's here");
	}
	/* Each holds a block's symbols and its 4-byte-per-row T-vector at least. */
	CHECK(r->decoder_bytes_each >= 5 * (size_t)BZ2_MAX_BLOCK_BYTES, "%zu bytes each", r->decoder_bytes_each);
	at1 = app_bzip2_footprint_at(&f, 1, 3);
	at2 = app_bzip2_footprint_at(&f, 2, 3);
	CHECK(at1 >= r->decoder_bytes_each + app_bzip2_bookkeeping_bytes(3), "at 1: %zu", at1);
	CHECK(at2 - at1 == r->decoder_bytes_each, "at 2 %zu, at 1 %zu", at2, at1);
	bz2_decoder_free(dec[0]);
	bz2_decoder_free(dec[1]);
	free(r);
}
