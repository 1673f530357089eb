/*
 * `app bzip2`'s instruction counts: the production decoder (mlpbunzip2
 * -c -n1) run once under Cachegrind (valgrind --tool=cachegrind
 * --cache-sim=no) over one fixed block (generated markov text, libbz2 -9),
 * its instructions summed per function and the functions grouped into the
 * decoder's stages. The counts are the same run to run for the same
 * binary, where timings move with the host: a change to the decoder shows
 * in them exactly. Measures only; never prints.
 */
#ifndef MLPSCOPE_EXP_APP_BZIP2_INSTRUCTIONS_H
#define MLPSCOPE_EXP_APP_BZIP2_INSTRUCTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* decode (bits, Huffman, MTF, runs, counts), table (the T-vector),
 * walk (the lanes and their assembly), rle, crc; other: the process's
 * start, its I/O, the allocator and libc. */
enum app_bzip2_instr_stage {
	APP_BZ2_INSTR_DECODE, APP_BZ2_INSTR_TABLE, APP_BZ2_INSTR_WALK, APP_BZ2_INSTR_RLE, APP_BZ2_INSTR_CRC,
	APP_BZ2_INSTR_OTHER, APP_BZ2_INSTR_STAGES
};
extern const char *const app_bzip2_instr_stage_names[APP_BZ2_INSTR_STAGES];

/* The seconds a count takes: Cachegrind's start and one block decoded at
 * its ~50x slowdown (4.5 s on a 2-vCPU guest under a load of 8; the
 * planner's price). */
#define APP_BZ2_INSTR_SECONDS 5.0

struct app_bzip2_instructions {
	bool ran;                        /* counted; else why says why not */
	char why[160];
	char tool[48];                   /* "valgrind-3.19.0 cachegrind" */
	char input[120];                 /* what was decoded, in words */
	uint64_t rows, output_bytes;     /* the block's BWT rows and its decoded bytes */
	uint64_t total;                  /* every instruction of the process */
	uint64_t stage[APP_BZ2_INSTR_STAGES];
	double decoder_per_row;          /* the five decoder stages' sum / rows */
	double decoder_per_byte;         /* the same / output bytes */
	double seconds;                  /* what counting took */
};

/* The seam: a Cachegrind output file's text (its "fn=" and count lines)
 * into r->total and r->stage[] by function name. 0, or -1 when it holds
 * no counts. Pure. */
int app_bzip2_instructions_parse(const char *text, struct app_bzip2_instructions *r);

/* The per-row and per-byte figures from r's counts, rows and bytes. Pure. */
void app_bzip2_instructions_derive(struct app_bzip2_instructions *r);

/* The live count, mlpbunzip2 and valgrind found as the whole-process rows
 * find their programs, pinned to cpu. 0 (r->ran false with why where
 * either is missing or the count failed), or -ENOMEM. */
int app_bzip2_instructions_measure(struct app_bzip2_instructions *r, int cpu);

#endif
