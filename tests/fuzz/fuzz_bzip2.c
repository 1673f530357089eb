/*
 * libFuzzer target: our bzip2 decoder over any bytes, with one lane and
 * with lanes in both layouts, overlapped (interleaved and scout), its decode stage on the fast paths (pair
 * table, unchecked groups, packed MTF words) and on the plain ones. It must never crash, hang or read out of
 * bounds; every walk must decode the same bytes or fail at the same block;
 * and what it accepts libbz2 must decode to the same bytes. Output is capped at 1 MiB,
 * checked before a block is expanded, so a run-length bomb (the corpus
 * soon holds inputs of 6 MB of output) costs neither memory nor the time
 * of expanding it and its CRC four times under ASan.
 */
#include "bzip2/bz2.h"
#include "bzip2_sink.h"
#include "bzip2/libbz2_ref.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);



static int keep_ref(void *ctx, const uint8_t *p, size_t n)
{
	struct acc *a = ctx;

	if (n > CAP_BYTES - a->n)
		return 1;
	memcpy(a->p + a->n, p, n);
	a->n += n;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The walks, and the decode stage's paths: all fast first, then the
	 * table Huffman with the memmove MTF, then all plain. */
	static const struct {
		struct bz2_walk_opts walk;
		unsigned plain;
		enum bz2_overlap overlap;
	} walks[] = {
		{{.lanes = 1}, 0, BZ2_OVERLAP_OFF},
		{{.lanes = 4, .layout = BZ2_LAYOUT_REGISTERS, .prefetch = BZ2_PREFETCH_NEXT}, BZ2_PLAIN_MTF, BZ2_OVERLAP_OFF},
		{{.lanes = 3, .segments = 64, .layout = BZ2_LAYOUT_STATE, .prefetch = BZ2_PREFETCH_TWO}, BZ2_PLAIN_ALL,
		 BZ2_OVERLAP_OFF},
		/* Block b+1's decode beside block b's walk: in slices, and on
		 * a scout thread; errors must still come in block order. */
		{{.lanes = 8, .prefetch = BZ2_PREFETCH_NEXT}, 0, BZ2_OVERLAP_INTERLEAVE},
		{{.lanes = 2}, 0, BZ2_OVERLAP_SCOUT},
	};
	/* Kept across inputs: two 8 MiB allocations per input, and the
	 * decoder's ~5 MB of block buffers per walk, cost more under ASan
	 * than the decode of most inputs (20-50 exec/s when reallocated). */
	static struct acc first, other;
	static struct bz2_decoder *dec;
	int rc0 = 0;
	struct bz2_error e0 = {0};

	if (!first.p && !(first.p = malloc(CAP_BYTES)))
		abort();
	if (!other.p && !(other.p = malloc(CAP_BYTES)))
		abort();
	if (!dec && !(dec = bz2_decoder_new()))
		abort();
	for (size_t i = 0; i < sizeof(walks) / sizeof(walks[0]); i++) {
		struct bz2_decode_opts o = {.walk = walks[i].walk, .max_output_bytes = CAP_BYTES, .plain = walks[i].plain,
					    .overlap = walks[i].overlap, .scout_cpu = -1};
		struct acc *a = i ? &other : &first;
		struct bz2_error e;
		int rc;

		a->n = 0;
		rc = bz2_decode_with(dec, data, size, &o, keep, a, NULL, &e);
		if (rc == -1 && (!e.what[0] || e.byte_offset > size))
			abort();  /* a refusal says why and where */
		if (!i) {
			rc0 = rc;
			e0 = e;
		} else if (rc != rc0 || (rc == -1 && e.block != e0.block) || (!rc && (a->n != first.n ||
			   memcmp(a->p, first.p, first.n)))) {
			abort();  /* the lanes changed what was decoded */
		}
	}
	if (!rc0 && bz2_ref_available()) {
		static uint8_t buf[1 << 16];
		char why[200];

		other.n = 0;
		if (bz2_ref_decode(data, size, keep_ref, &other, buf, sizeof(buf), why, sizeof(why)) ||
		    other.n != first.n || memcmp(other.p, first.p, first.n))
			abort();  /* we accepted what libbz2 decodes differently */
	}
	return 0;
}
