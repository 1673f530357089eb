/*
 * The DRAM map: the textbook case of docs/MODEL.md worked by hand (a 4 KiB
 * walk through 16 banks of 1 KiB rows: 93.75% row hits with the bank above
 * the column, 75% with it above the line), the two-walks row-conflict case,
 * the random-line derivation against a long simulated walk, the parser's
 * accepted and refused forms, and the qmodel command's text and JSON (every
 * key through the result vetter).
 */
#include "../harness.h"

#include "analyse/dram.h"
#include "analyse/vet.h"
#include "sections/qmodel.h"
#include "util/jsonr.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct dram_map textbook_row = {
	.channels = 1, .ranks = 1, .banks_per_rank = 16, .row_bytes = 1024, .interleave = DRAM_INTERLEAVE_ROW,
};

static uint64_t seq_addr(const void *ctx, uint64_t i)
{
	(void)ctx;
	return i * 64;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* ctx: the footprint in lines */
static uint64_t random_addr(const void *ctx, uint64_t i)
{
	return mix(i) % *(const uint64_t *)ctx * 64;
}

/* docs/MODEL.md, "The DRAM map", worked by hand: 4096 bytes = 64 lines; a
 * 1 KiB row holds 16; bank above the column: 4 rows opened, 60 hits of 64;
 * bank above the line: each of the 16 banks gets lines b, b+16, b+32, b+48,
 * all in its row 0: 16 opened, 48 hits. */
TEST(dram_textbook_4k_walk_through_16_banks)
{
	struct dram_map line = textbook_row;
	struct dram_count c;
	uint64_t bank, row;

	line.interleave = DRAM_INTERLEAVE_LINE;
	CHECK(dram_count(&textbook_row, 64, seq_addr, NULL, 64, 16, &c) == 0, "count");
	CHECK(c.hits == 60 && c.empty == 4 && c.conflicts == 0 && dram_activations(&c) == 4, "row: %llu hits, %llu act",
	      (unsigned long long)c.hits, (unsigned long long)dram_activations(&c));
	CHECK(dram_hit_fraction(&c) == 0.9375 && dram_seq_hit_model(&textbook_row, 64, 64) == 0.9375, "93.75%%");
	/* windows of 16 consecutive lines: the 4 row-aligned ones touch 1 bank,
	 * the other 45 touch 2 */
	CHECK(fabs(c.banks_busy_mean - 94.0 / 49) < 1e-12, "row: banks busy %g, want 94/49", c.banks_busy_mean);
	CHECK(fabs(dram_seq_banks_model(&textbook_row, 64, 16) - (1 + 15.0 / 16)) < 1e-12, "row: 1 + 15/16");
	CHECK(dram_count(&line, 64, seq_addr, NULL, 64, 16, &c) == 0, "count");
	CHECK(c.hits == 48 && c.empty == 16 && c.conflicts == 0, "line: %llu hits", (unsigned long long)c.hits);
	CHECK(dram_hit_fraction(&c) == 0.75 && dram_seq_hit_model(&line, 64, 64) == 0.75, "75%%");
	CHECK(c.banks_busy_mean == 16 && dram_seq_banks_model(&line, 64, 16) == 16, "line: 16 banks busy");
	/* a long walk: 1 - line/row under either map */
	CHECK(dram_count(&line, 64, seq_addr, NULL, 1 << 16, 1, &c) == 0 && dram_hit_fraction(&c) == 1 - 64.0 / 1024,
	      "line, long: %g", dram_hit_fraction(&c));
	CHECK(dram_seq_hit_model(&textbook_row, 64, 1 << 16) == 1 - 64.0 / 1024, "row, long");
	/* the bit layouts: line 17 is bank 1 (line) or bank 1, row 0 (row) */
	dram_locate(&line, 64, 17 * 64, &bank, &row);
	CHECK(bank == 1 && row == 0, "line: line 17 in bank %llu row %llu", (unsigned long long)bank,
	      (unsigned long long)row);
	dram_locate(&textbook_row, 64, 16 * 1024 + 5 * 64, &bank, &row);
	CHECK(bank == 0 && row == 1, "row: 16 KiB + 320 in bank %llu row %llu", (unsigned long long)bank,
	      (unsigned long long)row);
}

/* Seed 003's two cores: each walk alone is all row hits but one per row;
 * interleaved in one bank at different rows, every access finds the other's
 * row open. */
TEST(dram_two_walks_in_one_bank_conflict_on_every_access)
{
	struct dram_map line = textbook_row;
	struct dram_two_streams t;

	CHECK(dram_two_streams(&textbook_row, 64, 64, &t) == 0, "two");
	CHECK(t.base_same_bytes == 16 * 1024 && t.base_apart_bytes == 16 * 1024 + 8 * 1024, "bases %llu %llu",
	      (unsigned long long)t.base_same_bytes, (unsigned long long)t.base_apart_bytes);
	CHECK(t.alone.hits == 60 && dram_activations(&t.alone) == 4, "alone");
	/* A and B each touch banks 0..3: 4 first opens, the other 124 conflicts */
	CHECK(t.same_bank.hits == 0 && t.same_bank.empty == 4 && t.same_bank.conflicts == 124, "same bank: %llu hits, "
	      "%llu conflicts", (unsigned long long)t.same_bank.hits, (unsigned long long)t.same_bank.conflicts);
	CHECK(t.apart_possible && t.apart.hits == 120 && t.apart.conflicts == 0, "apart: %llu hits",
	      (unsigned long long)t.apart.hits);
	/* open-row first among W held: W = 2 already finds the other walk's
	 * next line in the open row most of the time; W = 32 (16 per walk, a
	 * whole row of each) loses only the 4 switches between the walks'
	 * rows, one per bank: 80, 112, 120 hits, as an independent replay of
	 * the same policy gives */
	CHECK(t.same_bank_reordered[0].hits == 80 && t.same_bank_reordered[1].hits == 112 &&
	      t.same_bank_reordered[2].hits == 120 && t.same_bank_reordered[2].conflicts == 4,
	      "reordered: %llu %llu %llu", (unsigned long long)t.same_bank_reordered[0].hits,
	      (unsigned long long)t.same_bank_reordered[1].hits, (unsigned long long)t.same_bank_reordered[2].hits);
	/* bank above the line: both walks visit every bank, alternately */
	line.interleave = DRAM_INTERLEAVE_LINE;
	CHECK(dram_two_streams(&line, 64, 64, &t) == 0, "two");
	CHECK(t.alone.hits == 48 && t.same_bank.hits == 0 && t.apart.hits == 0 && t.apart.conflicts == 112,
	      "line: alone %llu, same %llu, apart %llu", (unsigned long long)t.alone.hits,
	      (unsigned long long)t.same_bank.hits, (unsigned long long)t.apart.hits);
	line.banks_per_rank = 1;
	line.row_bytes = 64;
	CHECK(dram_two_streams(&line, 64, 8, &t) == 0 && !t.apart_possible && t.same_bank.hits == 0, "one bank");
}

/* Random lines: a request hits when its line lies in the row its bank has
 * open, banks x row / footprint; P requests keep banks (1 - (1 - 1/banks)^P)
 * banks busy. A footprint of 4 rows per bank makes the hit rate 1/4. */
/* A window of one is arrival order: the reordering counter and the plain
 * one agree on every stream. */
TEST(dram_reordered_with_one_held_is_arrival_order)
{
	struct dram_map m = textbook_row;
	uint64_t lines = 16 * 4 * 16;
	struct dram_count a, b;

	for (int il = 0; il < 2; il++) {
		m.interleave = il ? DRAM_INTERLEAVE_LINE : DRAM_INTERLEAVE_ROW;
		CHECK(dram_count(&m, 64, random_addr, &lines, 20000, 1, &a) == 0 &&
		      dram_count_reordered(&m, 64, random_addr, &lines, 20000, 1, &b) == 0, "count");
		CHECK(a.hits == b.hits && a.empty == b.empty && a.conflicts == b.conflicts && b.banks_busy_mean == 1,
		      "%s: %llu vs %llu hits", dram_interleave_name(m.interleave), (unsigned long long)a.hits,
		      (unsigned long long)b.hits);
		/* holding more can only find more of the open rows here */
		CHECK(dram_count_reordered(&m, 64, random_addr, &lines, 20000, 16, &b) == 0 && b.hits > a.hits &&
		      b.in_flight == 16, "16 held: %llu hits", (unsigned long long)b.hits);
	}
	CHECK(dram_count_reordered(&m, 64, random_addr, &lines, 4, 1000, &b) == 0 && b.in_flight == 4, "clamped to n");
}

TEST(dram_random_lines_match_the_derivation)
{
	struct dram_map m = {.channels = 2, .ranks = 1, .banks_per_rank = 16, .row_bytes = 8192,
			     .interleave = DRAM_INTERLEAVE_LINE};
	uint64_t lines = 32 * 4 * 128;
	struct dram_count c;

	for (int il = 0; il < 2; il++) {
		m.interleave = il ? DRAM_INTERLEAVE_ROW : DRAM_INTERLEAVE_LINE;
		CHECK(dram_count(&m, 64, random_addr, &lines, 400000, 8, &c) == 0, "count");
		CHECK(dram_random_hit_model(&m, lines * 64) == 0.25, "model 1/4");
		CHECK(fabs(dram_hit_fraction(&c) - 0.25) < 0.005, "%s: hit %g, want 0.25", dram_interleave_name(m.interleave),
		      dram_hit_fraction(&c));
		CHECK(fabs(c.banks_busy_mean - dram_random_banks_model(&m, 8)) < 0.02, "banks busy %g, model %g",
		      c.banks_busy_mean, dram_random_banks_model(&m, 8));
	}
	/* by hand: 32 (1 - (31/32)^8) = 32 (1 - 0.77570) = 7.1776 */
	CHECK(fabs(dram_random_banks_model(&m, 8) - 7.1776) < 1e-4, "%g", dram_random_banks_model(&m, 8));
	CHECK(dram_random_hit_model(&m, 1ull << 30) == 1.0 / 4096, "1 GiB: 32 x 8 KiB / 1 GiB");
	CHECK(dram_random_hit_model(&m, 1024) == 1, "a footprint inside the open rows hits");
}

TEST(dram_map_parse_accepts_the_form_and_refuses_the_rest)
{
	static const char *const bad[] = {
		"", "ch=2", "ch=2,rank=1,bank=16,row=8K", "ch=2,rank=1,bank=16,row=8K,interleave=page",
		"ch=2,rank=1,bank=16,row=8K,interleave=line,ch=2", "ch=0,rank=1,bank=16,row=8K,interleave=line",
		"ch=2,rank=1,bank=16,row=8Q,interleave=line", "ch=2,rank=1,bank=16,row=8K,interleave=line,",
		"ch=2,rank=1,bank=16,row=,interleave=line", "ch=2 rank=1", "ch=-1,rank=1,bank=16,row=8K,interleave=row",
		"ch=99999999999999999999,rank=1,bank=16,row=8K,interleave=row",
	};
	struct dram_map m;

	CHECK(dram_map_parse("ch=2,rank=1,bank=16,row=8K,interleave=line", &m) == 0 && m.channels == 2 &&
	      m.ranks == 1 && m.banks_per_rank == 16 && m.row_bytes == 8192 && m.interleave == DRAM_INTERLEAVE_LINE,
	      "the brief's form");
	CHECK(dram_map_parse("interleave=row,row=2KiB,bank=8,rank=2,ch=1", &m) == 0 && m.row_bytes == 2048 &&
	      m.interleave == DRAM_INTERLEAVE_ROW && dram_banks(&m) == 16, "any order, KiB");
	CHECK(dram_map_parse("ch=1,rank=1,bank=4,row=1000,interleave=row", &m) == 0 && dram_map_check(&m, 64) == -EINVAL,
	      "a row of 1000 bytes holds no whole number of lines");
	CHECK(dram_map_parse("ch=64,rank=16,bank=256,row=8K,interleave=row", &m) == 0 && dram_map_check(&m, 64),
	      "262144 banks");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(dram_map_parse(bad[i], &m) == -EINVAL, "'%s' accepted", bad[i]);
}

/* The command: a malformed map is a usage error naming the form, before any
 * work; a good one adds the table and the two walks, and its JSON passes the
 * result vetter. */
TEST(dram_qmodel_command_text_json_and_usage)
{
	char jout[] = "/tmp/mlpscope-dram-XXXXXX", err[512], *text = NULL;
	int fd = mkstemp(jout);
	struct options o;
	struct qmodel_cmd_args a;
	struct jsonr_doc doc;
	size_t len = 0;
	FILE *out;
	double v;

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	memset(&o, 0, sizeof(o));
	options_put(&o, "dram-map", 0, "ch=2,rank=1,bank=16");
	CHECK(qmodel_cmd_parse(&o, &a, err, sizeof(err)) == 2 && strstr(err, "--dram-map: 'ch=2,rank=1,bank=16' is not") &&
	      strstr(err, "expected ch=N,rank=N,bank=N,row=SIZE,interleave=line|row") && !strchr(err, '\n'),
	      "message: %s", err);
	memset(&o, 0, sizeof(o));
	options_put(&o, "dram-map", 0, "ch=1,rank=1,bank=16,row=1K,interleave=row");
	options_put(&o, "queue", 16, NULL);
	o.json_path = jout;
	CHECK(qmodel_cmd_parse(&o, &a, err, sizeof(err)) == 0, "parse: %s", err);
	CHECK((out = open_memstream(&text, &len)), "memstream");
	CHECK(qmodel_cmd_run(&a, out, err, sizeof(err)) == 0, "run: %s", err);
	fclose(out);
	CHECK(strstr(text, "  stream                16        60        4         0    93.75%    93.75%") &&
	      strstr(text, "B in A's bank, another row     0.00%: 0 hits of 128, 128 activations (124 conflicts)"),
	      "text: %s", text);
	free(text);
	CHECK(jsonr_parse_file(jout, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	unlink(jout);
	CHECK(vet_result(doc.root, jout, err, sizeof(err)) == 0, "vet: %s", err);
	CHECK(jsonr_get_number(jsonr_index(jsonr_get(doc.root, "qmodel.rows"), 3), "dram.seen.row_hits", &v) && v == 60,
	      "stream row hits %g", v);
	CHECK(jsonr_get_number(doc.root, "qmodel.dram_map.banks", &v) && v == 16 &&
	      jsonr_get_number(doc.root, "qmodel.dram_two_streams.same_bank.row_conflicts", &v) && v == 124,
	      "map and two walks");
	jsonr_free(&doc);
}
