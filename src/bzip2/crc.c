/*
 * bzip2's CRC-32: the polynomial 0x04c11db7 fed most significant bit first
 * (not zlib's reflected form), initial value and final xor all ones. The
 * block CRC covers a block's decoded bytes; the stream CRC folds the block
 * CRCs with a rotate (bz2_crc_combine). Sliced, because a byte-at-a-time
 * table is a serial dependency of one load per byte, slower than the walk
 * it checks: by 4 (four tables, one 32-bit word a step) or by 8 (eight
 * tables, 8 KiB, two words a step: the second word's four loads do not
 * wait for the running CRC, so twice the bytes per step of the chain).
 */
#include "bzip2/bz2.h"

#include <pthread.h>

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_make_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i << 24;

		for (int k = 0; k < 8; k++)
			c = (c & 0x80000000u) ? (c << 1) ^ 0x04c11db7u : c << 1;
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] << 8) ^ crc_table[0][crc_table[t - 1][i] >> 24];
}

uint32_t bz2_crc4(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	pthread_once(&crc_once, crc_make_tables);
	for (; n >= 4; n -= 4, p += 4) {
		c ^= (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		c = crc_table[3][c >> 24] ^ crc_table[2][(c >> 16) & 0xff] ^ crc_table[1][(c >> 8) & 0xff] ^
		    crc_table[0][c & 0xff];
	}
	for (; n; n--)
		c = (c << 8) ^ crc_table[0][(c >> 24) ^ *p++];
	return ~c;
}

uint32_t bz2_crc(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	pthread_once(&crc_once, crc_make_tables);
	for (; n >= 8; n -= 8, p += 8) {
		c ^= (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		c = crc_table[7][c >> 24] ^ crc_table[6][(c >> 16) & 0xff] ^ crc_table[5][(c >> 8) & 0xff] ^
		    crc_table[4][c & 0xff] ^ crc_table[3][p[4]] ^ crc_table[2][p[5]] ^ crc_table[1][p[6]] ^
		    crc_table[0][p[7]];
	}
	for (; n; n--)
		c = (c << 8) ^ crc_table[0][(c >> 24) ^ *p++];
	return ~c;
}
