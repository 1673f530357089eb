/*
 * libbz2 as the reference decoder: BZ2_bzDecompress over a whole file,
 * one stream after another (libbz2 stops at each stream's end; bzip2 -d
 * starts it again while input remains), handing each decoded chunk to a
 * sink. Built only where the Makefile found bzlib.h (HAVE_LIBBZ2); without
 * it every call says so and `app bzip2` refuses before measuring.
 */
#include "bzip2/libbz2_ref.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef HAVE_LIBBZ2
#include <bzlib.h>

bool bz2_ref_available(void)
{
	return true;
}

const char *bz2_ref_version(void)
{
	return BZ2_bzlibVersion();
}

int bz2_ref_decode(const uint8_t *in, size_t len, bz2_ref_sink sink, void *ctx, uint8_t *buf, size_t buf_bytes,
		   char *why, size_t whylen)
{
	size_t pos = 0;
	int rc = 0;

	if (buf_bytes > UINT32_MAX)
		buf_bytes = UINT32_MAX;
	do {
		bz_stream s = {0};
		int r = BZ2_bzDecompressInit(&s, 0, 0);

		if (r != BZ_OK) {
			snprintf(why, whylen, "libbz2: BZ2_bzDecompressInit returned %d", r);
			return r == BZ_MEM_ERROR ? -ENOMEM : -1;
		}
		s.next_in = (char *)(uintptr_t)(in + pos);
		s.avail_in = (unsigned)(len - pos < UINT32_MAX ? len - pos : UINT32_MAX);
		do {
			s.next_out = (char *)buf;
			s.avail_out = (unsigned)buf_bytes;
			r = BZ2_bzDecompress(&s);
			if (r != BZ_OK && r != BZ_STREAM_END) {
				snprintf(why, whylen, "libbz2: BZ2_bzDecompress returned %d near byte %zu", r,
					 pos + (size_t)((const uint8_t *)s.next_in - (in + pos)));
				rc = r == BZ_MEM_ERROR ? -ENOMEM : -1;
				/* A block failing its CRC has been written whole
				 * by now: what libbz2 decoded it to. */
				if (sink && s.avail_out < buf_bytes)
					(void)sink(ctx, buf, buf_bytes - s.avail_out);
				break;
			}
			if (sink && (rc = sink(ctx, buf, buf_bytes - s.avail_out)))
				break;
			if (r == BZ_OK && !s.avail_in && s.avail_out) {
				snprintf(why, whylen, "libbz2: the input ends inside a stream");
				rc = -1;
				break;
			}
		} while (r != BZ_STREAM_END);
		pos = (size_t)((const uint8_t *)s.next_in - in);
		BZ2_bzDecompressEnd(&s);
	} while (!rc && pos < len);
	return rc;
}
int bz2_ref_compress(const uint8_t *in, size_t n, int level, uint8_t *out, size_t *out_len, char *why,
		     size_t whylen)
{
	unsigned cap = *out_len > UINT32_MAX ? UINT32_MAX : (unsigned)*out_len;
	int r;

	if (n > UINT32_MAX) {
		snprintf(why, whylen, "libbz2: %zu bytes is more than one call compresses", n);
		return -1;
	}
	r = BZ2_bzBuffToBuffCompress((char *)out, &cap, (char *)(uintptr_t)in, (unsigned)n, level, 0, 0);
	if (r != BZ_OK) {
		snprintf(why, whylen, "libbz2: BZ2_bzBuffToBuffCompress returned %d", r);
		return r == BZ_MEM_ERROR ? -ENOMEM : -1;
	}
	*out_len = cap;
	return 0;
}
#else
bool bz2_ref_available(void)
{
	return false;
}

const char *bz2_ref_version(void)
{
	return NULL;
}

int bz2_ref_decode(const uint8_t *in, size_t len, bz2_ref_sink sink, void *ctx, uint8_t *buf, size_t buf_bytes,
		   char *why, size_t whylen)
{
	(void)in, (void)len, (void)sink, (void)ctx, (void)buf, (void)buf_bytes;
	snprintf(why, whylen, "built without libbz2 (none links with this compiler; tools/deps.sh installs libbz2-dev)");
	return -ENOTSUP;
}

int bz2_ref_compress(const uint8_t *in, size_t n, int level, uint8_t *out, size_t *out_len, char *why,
		     size_t whylen)
{
	(void)in, (void)n, (void)level, (void)out, (void)out_len;
	return bz2_ref_decode(NULL, 0, NULL, NULL, NULL, 0, why, whylen);
}
#endif
