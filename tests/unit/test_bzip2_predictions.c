/*
 * app bzip2's predictions: the file's form (each refusal names the line
 * and the accepted form), the example under tests/data, and the verdicts
 * on synthetic figures against a planted floor.
 */
#include "../harness.h"

#include "exp/app/bzip2.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse(const char *text, struct app_bzip2_predictions *ps, char *err, size_t errlen)
{
	return app_bzip2_predictions_parse(text, strlen(text), ps, err, errlen);
}

TEST(bzip2_predictions_parse_refuses_naming_the_line)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{"lanes:8 6 x\nlanes 6 no number\n", "line 2: 'lanes' is not an axis"},
		{"lanes:0 6 zero lanes\n", "'lanes:0' is not an axis"},
		{"huffman:2 1.5 numbered\n", "'huffman:2' is not an axis"},
		{"# only\n\n", "no predictions"},
		{"mtf fast a hypothesis\n", "line 1: 'fast' is not a positive figure"},
		{"mtf -1 a hypothesis\n", "'-1' is not a positive figure"},
		{"crc 1.2\n", "line 1: crc has no hypothesis"},
		{"crc 1.2   # a comment is not one\n", "crc has no hypothesis"},
	};
	struct app_bzip2_predictions *ps = calloc(1, sizeof(*ps));
	char err[300];

	CHECK(ps, "calloc");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		CHECK(parse(bad[i].text, ps, err, sizeof(err)) == -EINVAL && strstr(err, bad[i].says), "case %zu: '%s'", i,
		      err);
		CHECK(strstr(err, "expected") || strstr(err, "no predictions"), "case %zu names no form: %s", i, err);
	}
	CHECK(parse("workers:2 1.9 shared request service\r\nlibbz2 1.2 lanes # why\n", ps, err, sizeof(err)) == 0,
	      "%s", err);
	CHECK(ps->n == 2 && !strcmp(ps->p[0].axis, "workers:2") && ps->p[0].expected == 1.9 &&
	      !strcmp(ps->p[0].hypothesis, "shared request service") && !strcmp(ps->p[1].hypothesis, "lanes"),
	      "%u: '%s' '%s'", ps->n, ps->p[0].hypothesis, ps->p[1].hypothesis);
	free(ps);
}

TEST(bzip2_predictions_example_file_reads)
{
	struct app_bzip2_predictions *ps = calloc(1, sizeof(*ps));
	char err[300] = "";

	CHECK(ps, "calloc");
	CHECK(app_bzip2_predictions_read("tests/data/bzip2/predictions.txt", ps, err, sizeof(err)) == 0, "%s", err);
	CHECK(ps->n == 6 && strlen(ps->sha256) == 64 && ps->written_utc[0], "%u predictions", ps->n);
	CHECK(app_bzip2_predictions_read("tests/data/bzip2/absent.txt", ps, err, sizeof(err)) == -ENOENT &&
	      strstr(err, "--predictions: tests/data/bzip2/absent.txt") && strstr(err, "expected"), "%s", err);
	free(ps);
}

/* Floor 10%: a ratio's band 20%; supported within 20%, contradicted past
 * 40%, inconclusive between and where the run has no such figure. */
TEST(bzip2_predictions_verdicts_against_the_floor)
{
	struct app_bzip2_predictions *ps = calloc(1, sizeof(*ps));
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	char err[300];

	CHECK(ps && r, "calloc");
	CHECK(parse("lanes:8 6 a\nlanes:8 10 b\nlanes:8 4.5 c\nlanes:4 2 d\nworkers:2 1.9 e\nhuffman 1.5 f\n", ps, err,
		    sizeof(err)) == 0, "%s", err);
	r->nvariants = 2;
	r->variants[0].k = 1;
	r->variants[1].k = 8;
	r->variants[1].walk_speedup = 6.5;
	r->nworkers = 2;
	r->workers[0].n = 1, r->workers[0].speedup = 1;
	r->workers[1].n = 2, r->workers[1].speedup = 1.0;
	r->naxes = 1;
	r->axes[0].name = "huffman", r->axes[0].stage_speedup = 1.35;
	app_bzip2_predictions_judge(ps, r, 10);
	CHECK(ps->tolerance_pct == 20, "band %.1f", ps->tolerance_pct);
	CHECK(!strcmp(ps->p[0].verdict, "supported") && ps->p[0].measured == 6.5, "6 vs 6.5: %s", ps->p[0].verdict);
	CHECK(!strcmp(ps->p[1].verdict, "inconclusive"), "10 vs 6.5 (35%% off): %s", ps->p[1].verdict);
	CHECK(!strcmp(ps->p[2].verdict, "contradicted"), "4.5 vs 6.5 (44%% off): %s", ps->p[2].verdict);
	CHECK(!strcmp(ps->p[3].verdict, "inconclusive") && isnan(ps->p[3].measured) && strstr(ps->p[3].why, "not measured"),
	      "K=4 not swept: %s", ps->p[3].verdict);
	CHECK(!strcmp(ps->p[4].verdict, "contradicted"), "1.9 vs 1.0 (47%% off): %s", ps->p[4].verdict);
	CHECK(!strcmp(ps->p[5].verdict, "supported"), "1.5 vs 1.35: %s", ps->p[5].verdict);
	app_bzip2_predictions_judge(ps, r, 0);
	CHECK(!strcmp(ps->p[0].verdict, "inconclusive") && strstr(ps->p[0].why, "no floor"), "no floor: %s",
	      ps->p[0].verdict);
	free(ps);
	free(r);
}

/* The decode-stage axes from planted variants at one walk: each path's
 * over all plain, and the lane axis over every path fast in two passes
 * (not over all plain), f and s from the stages, 1/((1-f)+f/s) beside the
 * measured whole; a prediction names it as "lane". */
TEST(bzip2_lane_axis_is_set_against_the_two_passes)
{
	struct app_bzip2_predictions *ps = calloc(1, sizeof(*ps));
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	/* K=1; the walk's two passes, all fast; all plain; Huffman alone fast;
	 * the lane form: its decode stage 0.30 -> 0.20 s of a 1.00 s whole. */
	static const struct {
		unsigned k, plain;
		double decode, whole;
	} v[] = {
		{1, 0, 0.30, 2.00}, {8, 0, 0.30, 1.00}, {8, BZ2_PLAIN_ALL, 0.60, 1.40},
		{8, BZ2_PLAIN_ALL & ~BZ2_PLAIN_HUFFMAN, 0.45, 1.25}, {8, BZ2_DECODE_LANE, 0.20, 0.92},
	};
	const struct app_bzip2_axis *lane = NULL;
	char err[300];

	CHECK(ps && r, "calloc");
	r->nvariants = sizeof(v) / sizeof(v[0]);
	for (unsigned i = 0; i < r->nvariants; i++) {
		r->variants[i].k = v[i].k;
		r->variants[i].plain = v[i].plain;
		r->variants[i].prefetch = v[i].k > 1 ? BZ2_PREFETCH_NEXT : BZ2_PREFETCH_OFF;
		r->variants[i].stages.decode = v[i].decode;
		r->variants[i].warm_seconds = v[i].whole;
		r->variants[i].mb_per_s = 1 / v[i].whole;
	}
	app_bzip2_derive(r);
	for (unsigned i = 0; i < r->naxes; i++)
		if (!strcmp(r->axes[i].name, "lane"))
			lane = &r->axes[i];
	CHECK(r->naxes == 2 && lane, "%u axes, lane %s", r->naxes, lane ? "found" : "missing");
	CHECK(lane->plain_variant == 1 && lane->fast_variant == 4, "lane set against variant %u (expected the two "
	      "passes, 1), its own %u", lane->plain_variant, lane->fast_variant);
	CHECK(fabs(lane->stage_fraction - 0.30) < 1e-12 && fabs(lane->stage_speedup - 1.5) < 1e-12 &&
	      fabs(lane->predicted_speedup - 1 / (0.7 + 0.3 / 1.5)) < 1e-12 &&
	      fabs(lane->measured_speedup - 1 / 0.92) < 1e-12,
	      "f %.3f s %.3f predicted %.4f measured %.4f", lane->stage_fraction, lane->stage_speedup,
	      lane->predicted_speedup, lane->measured_speedup);
	CHECK(r->axes[0].plain_variant == 2 && !strcmp(r->axes[0].name, "huffman"), "huffman against variant %u",
	      r->axes[0].plain_variant);
	CHECK(parse("lane 1.1 the lookups' chain hides under the MTF\n", ps, err, sizeof(err)) == 0, "%s", err);
	app_bzip2_predictions_judge(ps, r, 5);
	CHECK(ps->p[0].measured == lane->stage_speedup, "the lane prediction judged against %.3f",
	      ps->p[0].measured);
	free(ps);
	free(r);
}
