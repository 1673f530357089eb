/*
 * app bzip2's workers rows against their physical bound, fed planted
 * timings through the re-time seam (app_bzip2_workers_recheck with a stub
 * that stands for the trials run again): 2 workers can decode at most 2x
 * as fast as one. A speedup above that is timed again; one that a slow
 * one-worker row made comes back within the bound and is printed plain,
 * one that stays above is marked in the text and the JSON.
 */
#include "../harness.h"
#include "../memout.h"

#include "exp/app/bzip2.h"
#include "report/app_bzip2_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One worker's row at one_s, two workers' at two_s (run floor 5%). */
static void planted(struct app_bzip2_result *r, double one_s, double two_s)
{
	memset(r, 0, sizeof(*r));
	r->blocks = 2;
	r->baseline.checked = true;
	r->baseline.floor_pct = 5.0;
	r->nworkers = 2;
	r->workers[0] = (struct app_bzip2_workers){.n = 1, .wall_seconds = one_s, .speedup = 1, .shortfall_cause = "none"};
	r->workers[1] = (struct app_bzip2_workers){.n = 2, .wall_seconds = two_s, .speedup = one_s / two_s,
						   .shortfall_cause = "none"};
}

/* The stub re-time: each row's wall set to what the planted "true" times
 * say, counting the calls. */
struct again_stub {
	double one_s, two_s;
	unsigned calls;
};

static int again_stub(void *ctx, struct app_bzip2_workers *row)
{
	struct again_stub *s = ctx;

	s->calls++;
	row->wall_seconds = row->n == 1 ? s->one_s : s->two_s;
	return 0;
}

static char *text_of(const struct app_bzip2_result *r)
{
	struct memout m;
	FILE *f = memout_open(&m);

	if (!f)
		return NULL;
	app_bzip2_write_text(r, f);
	return memout_close(&m);
}

static char *json_of(const struct app_bzip2_result *r)
{
	struct memout m;
	struct jsonw *w = memout_json_open(&m);

	if (!w)
		return NULL;
	app_bzip2_write_json(r, w, "app_bzip2");
	return memout_json_close(&m);
}

TEST(bzip2_workers_speedup_within_its_bound_is_not_retimed)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct again_stub s = {0.100, 0.052, 0};

	CHECK(r, "no memory");
	planted(r, 0.100, 0.052);  /* 1.92x on 2 */
	CHECK(app_bzip2_workers_recheck(r, again_stub, &s) == 0, "recheck failed");
	CHECK(s.calls == 0, "%u re-times of a speedup within its bound", s.calls);
	CHECK(!r->workers[1].retimed && !r->workers[1].above_workers, "an honest row marked");
	free(r);
}

TEST(bzip2_workers_speedup_above_its_workers_is_retimed_then_printed_plain)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct again_stub s = {0.0960, 0.0500, 0};  /* the slow one-worker row was a busy moment */
	char *text;

	CHECK(r, "no memory");
	planted(r, 0.1200, 0.0500);  /* 2.40x on 2 */
	CHECK(app_bzip2_workers_recheck(r, again_stub, &s) == 0, "recheck failed");
	CHECK(s.calls == 2, "%u re-times, expected both rows", s.calls);
	CHECK(r->workers[1].retimed && !r->workers[1].above_workers, "retimed %d above %d", r->workers[1].retimed,
	      r->workers[1].above_workers);
	CHECK(fabs(r->workers[1].speedup - 1.92) < 1e-9, "speedup %.4f after the re-time", r->workers[1].speedup);
	text = text_of(r);
	CHECK(text, "no text");
	CHECK(strstr(text, "2 workers: above 2 at first, both rows re-timed: 1.92x"), "no re-time line:\n%s", text);
	CHECK(!strstr(text, "1.92!"), "a figure within its bound marked:\n%s", text);
	free(text);
	free(r);
}

TEST(bzip2_workers_speedup_still_above_its_workers_is_marked)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	struct again_stub s = {0.1100, 0.0500, 0};
	char *text, *json;

	CHECK(r, "no memory");
	planted(r, 0.1200, 0.0500);
	CHECK(app_bzip2_workers_recheck(r, again_stub, &s) == 0, "recheck failed");
	CHECK(r->workers[1].retimed && r->workers[1].above_workers, "2.20x on 2 workers not marked");
	text = text_of(r);
	CHECK(text, "no text");
	CHECK(strstr(text, "2.20!"), "the table's speedup not marked:\n%s", text);
	CHECK(strstr(text, "no speed-up 2 workers can have"), "no line saying why:\n%s", text);
	free(text);
	json = json_of(r);
	CHECK(json, "no JSON");
	CHECK(strstr(json, "\"speedup_above_workers\":true") || strstr(json, "\"speedup_above_workers\": true"),
	      "JSON without the mark:\n%.2000s", json);
	free(json);
	free(r);
}

/* An input of no block (an empty stream) times nothing: the text says so
 * in place of the tables, and the JSON holds no figure (null, no best),
 * never a rate or a speed-up of zeros. */
TEST(bzip2_empty_input_prints_no_figure)
{
	struct app_bzip2_result *r = calloc(1, sizeof(*r));
	char *text, *json;

	CHECK(r, "no memory");
	r->streams = 1;
	snprintf(r->input, sizeof(r->input), "empty.bz2: 14 bytes, 0 blocks, 1 stream, 0 bytes decoded");
	text = text_of(r);
	CHECK(text, "no text");
	CHECK(strstr(text, "nothing to time: the input holds no block (1 empty stream)"), "no line saying so:\n%s",
	      text);
	CHECK(!strstr(text, "MB/s") && !strstr(text, "x libbz2") && !strstr(text, "predicted"),
	      "a rate or a ratio printed:\n%s", text);
	free(text);
	json = json_of(r);
	CHECK(json, "no JSON");
	CHECK(strstr(json, "\"best\": null") && strstr(json, "\"libbz2_mb_per_s\": null"),
	      "a figure where nothing was timed:\n%.3000s", json);
	free(json);
	free(r);
}
