/*
 * The instruction counts of bzip2_instructions.h. The block is made here
 * from a fixed seed so that every run, every host and every build counts
 * the same input: the counts then differ only where the code or the
 * compiler does. Functions are put in stages by their names (the decoder's
 * own, in src/bzip2/); a name no stage claims is "other".
 */
#include "exp/app/bzip2_instructions.h"

#include "bzip2/bz2.h"
#include "bzip2/libbz2_ref.h"
#include "core/clock.h"
#include "exp/app/bzip2_processes.h"
#include "exp/app/textgen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The block: bzip2's largest, of the text the default input is made of. */
#define INSTR_TEXT_BYTES 900000u
#define INSTR_SEED 1u

const char *const app_bzip2_instr_stage_names[APP_BZ2_INSTR_STAGES] = {"decode", "table", "walk", "rle", "crc",
									"other"};

/* Name prefixes of each stage's functions (static helpers keep their
 * names in the symbol table; a ".constprop.0" suffix does not matter). */
static const struct {
	const char *prefix;
	enum app_bzip2_instr_stage stage;
} stage_of_name[] = {
	{"group_", APP_BZ2_INSTR_DECODE},       {"runs_", APP_BZ2_INSTR_DECODE},
	{"count_bytes", APP_BZ2_INSTR_DECODE},  {"symbols_", APP_BZ2_INSTR_DECODE},
	{"block_body", APP_BZ2_INSTR_DECODE},   {"bz2_block_decode", APP_BZ2_INSTR_DECODE},
	{"bz2_symbols", APP_BZ2_INSTR_DECODE},  {"bz2_huffman", APP_BZ2_INSTR_DECODE},
	{"pair_build", APP_BZ2_INSTR_DECODE},   {"bz2_bits", APP_BZ2_INSTR_DECODE},
	{"shuffle_list", APP_BZ2_INSTR_DECODE}, {"words_list", APP_BZ2_INSTR_DECODE},
	{"bz2_ibwt_table", APP_BZ2_INSTR_TABLE}, {"table_from_runs", APP_BZ2_INSTR_TABLE},
	{"walk_", APP_BZ2_INSTR_WALK},          {"pace", APP_BZ2_INSTR_WALK},
	{"bz2_walk", APP_BZ2_INSTR_WALK},       {"bz2_ibwt_walk", APP_BZ2_INSTR_WALK},
	{"lane_", APP_BZ2_INSTR_WALK},          {"key_cmp", APP_BZ2_INSTR_WALK},
	{"bz2_rle", APP_BZ2_INSTR_RLE},         {"next_run", APP_BZ2_INSTR_RLE},
	{"bz2_crc", APP_BZ2_INSTR_CRC},         {"crc_", APP_BZ2_INSTR_CRC},
};

static enum app_bzip2_instr_stage stage_of(const char *fn, size_t len)
{
	for (size_t i = 0; i < sizeof(stage_of_name) / sizeof(stage_of_name[0]); i++) {
		size_t n = strlen(stage_of_name[i].prefix);

		if (n <= len && !strncmp(fn, stage_of_name[i].prefix, n))
			return stage_of_name[i].stage;
	}
	return APP_BZ2_INSTR_OTHER;
}

int app_bzip2_instructions_parse(const char *text, struct app_bzip2_instructions *r)
{
	enum app_bzip2_instr_stage cur = APP_BZ2_INSTR_OTHER;
	bool any = false;

	r->total = 0;
	memset(r->stage, 0, sizeof(r->stage));
	for (const char *p = text; p && *p;) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, "fn=", 3)) {
			cur = stage_of(p + 3, n - 3);
		} else if (*p >= '0' && *p <= '9') {
			/* "LINE COUNT": with --cache-sim=no, Ir is the one event. */
			char *end;
			unsigned long long ir;

			strtoull(p, &end, 10);
			ir = strtoull(end, NULL, 10);
			r->stage[cur] += ir;
			r->total += ir;
			any = true;
		}
		p += n + (p[n] == '\n');
	}
	return any ? 0 : -1;
}

void app_bzip2_instructions_derive(struct app_bzip2_instructions *r)
{
	uint64_t decoder = 0;

	for (unsigned s = 0; s < APP_BZ2_INSTR_OTHER; s++)
		decoder += r->stage[s];
	r->decoder_per_row = r->rows ? (double)decoder / (double)r->rows : 0;
	r->decoder_per_byte = r->output_bytes ? (double)decoder / (double)r->output_bytes : 0;
}

/* The block's rows and bytes, from our own decode of it. */
static int rows_sink(void *ctx, unsigned block, const uint8_t *out, size_t bytes, const struct bz2_stage_ticks *t)
{
	struct app_bzip2_instructions *r = ctx;

	(void)block;
	(void)out;
	r->rows += t->rows;
	r->output_bytes += bytes;
	return 0;
}

/* The fixed block into path (a temporary file). 0, -ENOMEM, -errno, or
 * -ENOTSUP with why set. */
static int write_block(struct app_bzip2_instructions *r, char *path)
{
	uint8_t *text = malloc(INSTR_TEXT_BYTES), *z = malloc(INSTR_TEXT_BYTES * 2);
	size_t zlen = INSTR_TEXT_BYTES * 2;
	struct bz2_decode_opts o = {.walk = {.lanes = 1}};
	struct bz2_error e;
	int fd = -1, rc = -ENOMEM;

	if (!text || !z)
		goto out;
	textgen_fill(text, INSTR_TEXT_BYTES, TEXTGEN_MARKOV, INSTR_SEED);
	if ((rc = bz2_ref_compress(text, INSTR_TEXT_BYTES, 9, z, &zlen, r->why, sizeof(r->why)))) {
		rc = rc == -1 ? -ENOTSUP : rc;
		goto out;
	}
	if ((rc = bz2_decode(z, zlen, &o, rows_sink, r, NULL, &e))) {
		snprintf(r->why, sizeof(r->why), "our decode of the block: %.120s", e.what);
		rc = -ENOTSUP;
		goto out;
	}
	if ((fd = mkstemps(path, 4)) < 0 || write(fd, z, zlen) != (ssize_t)zlen)
		rc = -errno ? -errno : -EIO;
	else
		rc = 0;
	snprintf(r->input, sizeof(r->input), "one block: %u bytes of generated markov text (seed %u), libbz2 -9",
		 INSTR_TEXT_BYTES, INSTR_SEED);
out:
	if (fd >= 0)
		close(fd);
	free(text);
	free(z);
	return rc;
}

/* The Cachegrind output file's text (malloc'd), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n + 1))) {
		size_t got = fread(buf, 1, (size_t)n, f);

		buf[got] = 0;
	}
	if (f)
		fclose(f);
	return buf;
}

int app_bzip2_instructions_measure(struct app_bzip2_instructions *r, int cpu)
{
	char valgrind[256], bunzip2[256], block[] = "/tmp/mlpscope-instr-XXXXXX.bz2";
	char outopt[64], cg[] = "/tmp/mlpscope-instr-XXXXXX.cg", *text;
	uint64_t t0 = clock_wall_ns();
	int rc, fd;

	memset(r, 0, sizeof(*r));
	if (app_bzip2_program_find("valgrind", valgrind, sizeof(valgrind))) {
		snprintf(r->why, sizeof(r->why), "valgrind is not installed");
		return 0;
	}
	if (app_bzip2_program_find("mlpbunzip2", bunzip2, sizeof(bunzip2))) {
		snprintf(r->why, sizeof(r->why), "mlpbunzip2 was not found beside this binary or on PATH");
		return 0;
	}
	if ((rc = write_block(r, block)))
		return rc == -ENOMEM ? rc : 0;
	if ((fd = mkstemps(cg, 3)) < 0) {
		snprintf(r->why, sizeof(r->why), "a temporary file: %s", strerror(errno));
		goto out;
	}
	close(fd);
	snprintf(outopt, sizeof(outopt), "--cachegrind-out-file=%s", cg);
	{
		const char *argv[] = {valgrind, "--tool=cachegrind", "--cache-sim=no", outopt, bunzip2, "-c", "-n1",
				      block, NULL};
		double sec;

		if (app_bzip2_program_run(argv, cpu, &sec, r->why, sizeof(r->why)))
			goto out;
	}
	if (!(text = slurp(cg)) || app_bzip2_instructions_parse(text, r)) {
		snprintf(r->why, sizeof(r->why), "Cachegrind wrote no counts (%s)", cg);
		free(text);
		goto out;
	}
	free(text);
	snprintf(r->tool, sizeof(r->tool), "valgrind --tool=cachegrind");
	app_bzip2_instructions_derive(r);
	r->ran = true;
out:
	r->seconds = (double)(clock_wall_ns() - t0) * 1e-9;
	unlink(block);
	unlink(cg);
	return 0;
}
