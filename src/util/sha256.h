/*
 * SHA-256 (FIPS 180-4), for the binary hash recorded in provenance: a result
 * names the exact executable that produced it.
 */
#ifndef MLPSCOPE_UTIL_SHA256_H
#define MLPSCOPE_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;
	uint8_t block[64];
	size_t used;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Writes 64 lowercase hex digits and a NUL. */
void sha256_final_hex(struct sha256 *s, char hex[65]);

/* Hash a whole file; 0 or -errno. */
int sha256_file_hex(const char *path, char hex[65]);

#endif
