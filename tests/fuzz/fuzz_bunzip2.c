/*
 * libFuzzer target: the production decoder (bunzip2.h, what mlpbunzip2
 * runs) over any bytes, on the caller's thread (its decoder kept from one
 * input to the next) and with two workers (the input read in 509-byte
 * chunks there, so magics and blocks straddle reads, and any input past
 * one chunk starts the workers: one that ends within its first chunk
 * holding one block or none is decoded on the caller's thread). It must
 * never crash, hang or read out of bounds; both runs must give the same
 * status, bytes and refusing block; and against libbz2 the
 * same accept or refuse, the same bytes on accept, and on a refusal only
 * bytes libbz2 also decoded before refusing (whole blocks of the same
 * bytes). Trailing garbage after a stream is ignored as bzip2 ignores it,
 * so libbz2 is given the bytes before it. Output is capped at 1 MiB
 * (max_output_bytes, checked before a block is written), past which only
 * the two runs are compared.
 */
#include "bzip2/bunzip2.h"
#include "bzip2/libbz2_ref.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP_BYTES ((size_t)1 << 20)

struct out {
	uint8_t *p;
	size_t n;
};

/* Past the cap only libbz2's sink can go (ours stops first): 1 stops it. */
static int put(void *ctx, const uint8_t *buf, size_t len)
{
	struct out *o = ctx;

	if (len > CAP_BYTES - o->n)
		return 1;
	memcpy(o->p + o->n, buf, len);
	o->n += len;
	return 0;
}

static int put_ref(void *ctx, const uint8_t *buf, size_t len)
{
	return put(ctx, buf, len);
}

static void need(struct out *o)
{
	if (!o->p && !(o->p = malloc(CAP_BYTES)))
		abort();
	o->n = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct out one, two, ref;
	static uint8_t buf[1 << 16];
	/* The caller's-thread run keeps its decoder and window from one input
	 * to the next (as mlpbunzip2 does from file to file): what an input
	 * that decoded left in them must not change the next one's bytes. */
	static struct bunzip2_keep *keep;
	struct bunzip2_opts o1 = {.threads = 1, .max_output_bytes = CAP_BYTES};
	struct bunzip2_opts o2 = {.threads = 2, .max_output_bytes = CAP_BYTES, .chunk_bytes = 509};
	struct bunzip2_summary s1, s2;
	struct bunzip2_error e1, e2;
	char why[200];
	size_t len = size;
	int rc1, rc2, rcr;

	need(&one);
	need(&two);
	need(&ref);
	if (!keep)
		keep = bunzip2_keep_new();
	o1.keep = keep;
	rc1 = bunzip2_decode_memory(data, size, put, &one, &o1, &s1, &e1);
	rc2 = bunzip2_decode_memory(data, size, put, &two, &o2, &s2, &e2);
	if (rc1 && (!e1.what[0] || e1.byte_offset > size))
		abort();  /* a refusal says why and where */
	if (rc1 != rc2 || one.n != two.n || memcmp(one.p, two.p, one.n) ||
	    (rc1 && (e1.block != e2.block || e1.stream != e2.stream)))
		abort();  /* the workers changed what was decoded */
	if (rc1 == BUNZIP2_LIMIT || !bz2_ref_available())
		return 0;
	if (!rc1 && s1.garbage_bytes)
		len = (size_t)s1.garbage_offset;
	rcr = bz2_ref_decode(data, len, put_ref, &ref, buf, sizeof(buf), why, sizeof(why));
	if (rcr == 1)
		return 0;  /* libbz2 passed the cap: it accepts more than we wrote */
	if ((rc1 == 0) != (rcr == 0))
		abort();  /* accepted by one, refused by the other */
	if (!rc1 && (ref.n != one.n || memcmp(ref.p, one.p, one.n)))
		abort();  /* both accept, with different bytes */
	if (rc1 && (one.n > ref.n || memcmp(ref.p, one.p, one.n)))
		abort();  /* we wrote what libbz2 did not decode */
	return 0;
}
