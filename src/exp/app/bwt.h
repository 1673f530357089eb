/*
 * The inverse-BWT decoder's data: bzip2's T-vector (one word per row: the
 * next row in text order above bit 8, the row's first-column byte below),
 * built from a BWT with an end mark, and a slow reference inversion the
 * tests and nothing else use. Walking the table from the row of text
 * position p emits text[p], text[p + 1], ... with one dependent load a byte.
 */
#ifndef MLPSCOPE_EXP_APP_BWT_H
#define MLPSCOPE_EXP_APP_BWT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 32-bit words hold a row index in 24 bits: up to this many rows. */
#define BWT_NARROW_MAX_ROWS ((size_t)1 << 24)

/* Whether a table of `rows` rows needs 64-bit words. */
bool bwt_table_wide(size_t rows);
size_t bwt_table_bytes(size_t rows);

/* The table for bwt[0..rows) (rows = text bytes + 1, bwt from sais_bwt,
 * primary the end mark's row) into table: 64-bit words when wide (needed
 * past BWT_NARROW_MAX_ROWS; tests force it on small texts), else 32-bit.
 * Row 0 is the end mark's own row; its word points at primary. */
void bwt_table_build(const uint8_t *bwt, size_t rows, size_t primary, void *table, bool wide);

/* Invert by the LF mapping, backwards, one row at a time: text[0..rows-1).
 * Independent of the table; returns 0 or -ENOMEM. */
int bwt_invert_reference(const uint8_t *bwt, size_t rows, size_t primary, uint8_t *text);

/* FNV-1a, 64-bit, over bytes: the output hash every K and variant must match. */
uint64_t bwt_hash(const uint8_t *p, size_t n);

#endif
