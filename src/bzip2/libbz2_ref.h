/*
 * libbz2, the reference our decoder is checked against byte for byte and
 * timed beside (src/bzip2/libbz2_ref.c). Present only where the build found
 * bzlib.h; bz2_ref_available says which.
 */
#ifndef MLPSCOPE_BZIP2_LIBBZ2_REF_H
#define MLPSCOPE_BZIP2_LIBBZ2_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool bz2_ref_available(void);
/* libbz2's own version string, or NULL without it. */
const char *bz2_ref_version(void);

typedef int (*bz2_ref_sink)(void *ctx, const uint8_t *p, size_t n);

/* Decode every stream of in[0..len) through buf (buf_bytes, reused per
 * chunk), handing each chunk to sink (may be NULL). 0; -1 when libbz2
 * refuses (why says its code; the bytes it decoded before refusing, a
 * block that fails its CRC among them, have been sunk); -ENOMEM; -ENOTSUP
 * without libbz2; or the sink's nonzero return. */
int bz2_ref_decode(const uint8_t *in, size_t len, bz2_ref_sink sink, void *ctx, uint8_t *buf, size_t buf_bytes,
		   char *why, size_t whylen);

/* Compress in[0..n) as one stream at level 1..9 into out (*out_len bytes
 * of room; set to the bytes written). 0, -1 with why, -ENOTSUP. */
int bz2_ref_compress(const uint8_t *in, size_t n, int level, uint8_t *out, size_t *out_len, char *why,
		     size_t whylen);

#endif
