/* app bzip2's instruction counts: the Cachegrind file's parse and the
 * stages it sums (logic), and on this machine, that a count repeats
 * exactly and stays near the figure recorded for this compiler (validate). */
#include "../harness.h"

#include "exp/app/bzip2_instructions.h"

#include <math.h>
#include <string.h>

/* A Cachegrind file's shape (valgrind 3.19, --cache-sim=no): one function
 * of each stage, a suffixed clone, and a libc one. */
static const char cg_text[] =
	"desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
	"cmd: mlpbunzip2 -c -n1 block.bz2\n"
	"events: Ir\n"
	"fl=src/bzip2/symbols_split.c\n"
	"fn=group_next.constprop.0\n"
	"120 400\n"
	"121 100\n"
	"fn=runs_shuffle\n"
	"10 1000\n"
	"fl=src/bzip2/ibwt.c\n"
	"fn=bz2_ibwt_table\n"
	"40 700\n"
	"fn=walk_reg16\n"
	"300 900\n"
	"fl=src/bzip2/rle.c\n"
	"fn=next_run\n"
	"80 200\n"
	"fl=src/bzip2/crc.c\n"
	"fn=bz2_crc\n"
	"12 300\n"
	"fl=./string/memmove.S\n"
	"fn=__memmove_avx_unaligned_erms\n"
	"5 50\n"
	"summary: 3650\n";

TEST(bzip2_instructions_sum_each_stage_by_function_name)
{
	struct app_bzip2_instructions r = {.rows = 100, .output_bytes = 50};

	CHECK(app_bzip2_instructions_parse(cg_text, &r) == 0, "parse failed");
	CHECK(r.total == 3650, "total %llu, the summary says 3650", (unsigned long long)r.total);
	CHECK(r.stage[APP_BZ2_INSTR_DECODE] == 1500 && r.stage[APP_BZ2_INSTR_TABLE] == 700 &&
		      r.stage[APP_BZ2_INSTR_WALK] == 900 && r.stage[APP_BZ2_INSTR_RLE] == 200 &&
		      r.stage[APP_BZ2_INSTR_CRC] == 300 && r.stage[APP_BZ2_INSTR_OTHER] == 50,
	      "stages %llu %llu %llu %llu %llu %llu", (unsigned long long)r.stage[0], (unsigned long long)r.stage[1],
	      (unsigned long long)r.stage[2], (unsigned long long)r.stage[3], (unsigned long long)r.stage[4],
	      (unsigned long long)r.stage[5]);
	app_bzip2_instructions_derive(&r);
	CHECK(fabs(r.decoder_per_row - 36.0) < 1e-9 && fabs(r.decoder_per_byte - 72.0) < 1e-9,
	      "per row %.3f (36), per byte %.3f (72)", r.decoder_per_row, r.decoder_per_byte);
}

TEST(bzip2_instructions_refuse_a_file_with_no_counts)
{
	struct app_bzip2_instructions r = {0};

	CHECK(app_bzip2_instructions_parse("desc: x\nevents: Ir\n", &r) == -1, "a file with no count lines parsed");
}

/* The decoder's instructions a BWT row on the fixed block, as this tree's
 * gcc 12.2 -O2 build counts them (the figure to move with an intended
 * change to the decoder, and the reason in the commit). */
#define RECORDED_COMPILER "12.2.0"
#define RECORDED_PER_ROW 112.5
#define RECORDED_TOLERANCE 0.03

VALIDATE(bzip2_instructions_repeat_exactly_and_hold_their_figure)
{
	struct app_bzip2_instructions a, b;

	CHECK(app_bzip2_instructions_measure(&a, 0) == 0, "out of memory");
	if (!a.ran)
		SKIP("no count: %s", a.why);
	CHECK(app_bzip2_instructions_measure(&b, 0) == 0 && b.ran, "the second count did not run: %s", b.why);
	for (unsigned s = 0; s < APP_BZ2_INSTR_OTHER; s++)
		CHECK(a.stage[s] == b.stage[s], "stage %s counted %llu then %llu", app_bzip2_instr_stage_names[s],
		      (unsigned long long)a.stage[s], (unsigned long long)b.stage[s]);
#if defined(__GNUC__) && !defined(__clang__)
	if (strcmp(__VERSION__, RECORDED_COMPILER))
		SKIP("counts repeat exactly (%.1f a row); the recorded figure is gcc " RECORDED_COMPILER "'s, this is %s",
		     a.decoder_per_row, __VERSION__);
	CHECK(fabs(a.decoder_per_row / RECORDED_PER_ROW - 1) <= RECORDED_TOLERANCE,
	      "%.1f instructions a row against the recorded %.1f: the decoder changed (move the figure with the change)",
	      a.decoder_per_row, RECORDED_PER_ROW);
#else
	SKIP("counts repeat exactly (%.1f a row); the recorded figure is gcc's", a.decoder_per_row);
#endif
}
