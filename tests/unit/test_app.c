/* The app section's experiment: the check fires on a broken walk, every K
 * and both lane forms give the same output, --text round-trips, and the
 * writers produce the documented JSON keys. Tiny tables: these test logic,
 * not speed. */
#include "../harness.h"

#include "exp/app/kernels.h"
#include "util/jsonr.h"
#include "report/app_out.h"
#include "util/jsonw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t no_stop;

/* The stub clock: these tests check what the walks compute, never a time. */
static void small_params(struct app_params *p, enum textgen_kind kind)
{
	*p = (struct app_params){
		.footprint_bytes = 256 << 10,
		.line_bytes = 64,
		.pages = PAGES_SMALL,
		.max_k = APP_K_MAX,
		.trials = 1,
		.seed = 5,
		.clock = test_stub_clock(),
		.stop = &no_stop,
		.input = kind,
	};
}

/* Lane 0 stops one byte short: the kind of off-by-one a lane split makes. */
static void short_walk(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin, unsigned k,
		       size_t steps)
{
	app_bwt_walk_state32(table, out, pos, seg_begin, k, steps);
	out[seg_begin[0] + (steps ? steps - 1 : 0)] ^= 0x5a;
}

TEST(app_bwt_check_fires_on_a_broken_walk)
{
	static struct app_kernel_result r;
	struct app_params p;
	char err[256] = "";
	int rc;

	small_params(&p, TEXTGEN_MARKOV);
	p.broken_walk = short_walk;
	rc = app_run("bwt", &p, &r, err, sizeof(err));
	CHECK(rc == -EPROTO, "a broken walk returned %d (expected -EPROTO)", rc);
	CHECK(!r.check.ok, "check.ok stayed true");
	CHECK(strstr(r.check.failure, "bwt") && strstr(r.check.failure, "K = "),
	      "failure does not name kernel and K: %s", r.check.failure);
}

/* Correct for a whole segment, wrong in lane 0's last row of a partial
 * walk: only the sweep's fixed-rows walks (walk_rows) break. */
static void partial_walk_breaks(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin, unsigned k,
				size_t steps)
{
	app_bwt_walk_state32(table, out, pos, seg_begin, k, steps);
	if (steps && steps + 1 < seg_begin[1] - seg_begin[0])
		out[seg_begin[0] + steps - 1] ^= 0x5a;
}

TEST(app_bwt_fixed_rows_per_walk_are_checked)
{
	static struct app_kernel_result r;
	struct app_params p;
	char err[256] = "";
	int rc;

	small_params(&p, TEXTGEN_MARKOV);
	p.walk_rows = 16384;
	rc = app_run("bwt", &p, &r, err, sizeof(err));
	CHECK(rc == 0 && r.check.ok, "fixed rows: rc %d: %s %s", rc, err, r.check.failure);
	for (unsigned i = 0; i < r.nparams; i++)
		if (!strcmp(r.params[i].key, "walk_rows"))
			CHECK(r.params[i].number == 16384, "walk_rows %g", r.params[i].number);
	p.broken_walk = partial_walk_breaks;
	rc = app_run("bwt", &p, &r, err, sizeof(err));
	CHECK(rc == -EPROTO && !r.check.ok, "a walk wrong only in its fixed rows returned %d", rc);
	CHECK(strstr(r.check.failure, "partial walk") != NULL, "failure does not say partial: %s", r.check.failure);
}

TEST(app_bwt_every_k_and_form_gives_the_same_output)
{
	static struct app_kernel_result r;
	static const enum textgen_kind kinds[] = {TEXTGEN_RANDOM, TEXTGEN_MARKOV, TEXTGEN_REPEAT};
	struct app_params p;
	char err[256] = "";

	for (unsigned i = 0; i < 3; i++) {
		int rc;

		small_params(&p, kinds[i]);
		rc = app_run("bwt", &p, &r, err, sizeof(err));
		CHECK(rc == 0, "%s: rc %d: %s %s", textgen_name(kinds[i]), rc, err, r.check.failure);
		CHECK(r.check.ok && r.nvariants == 3, "%s: check or variants", textgen_name(kinds[i]));
		/* K = 1 first, every K of app_lane_set, one output hash for all. */
		for (unsigned v = 0; v < r.nvariants; v++) {
			CHECK(r.variants[v].npoints == (v == 2 ? 4u : APP_NLANE_SET) && r.variants[v].points[0].k == 1,
			      "%s: points", r.variants[v].name);
			CHECK(r.variants[v].output_hash == r.check.expected_hash, "%s: hash differs",
			      r.variants[v].name);
		}
		CHECK(r.check.runs_checked == 2 * APP_NLANE_SET + 4 + 2, "%u runs checked", r.check.runs_checked);
	}
}

TEST(app_bwt_text_file_round_trips_from_one_byte)
{
	static struct app_kernel_result r;
	static const char *const bodies[] = {"x", "\0", "abababababab", "mississippi\n"};
	static const size_t lens[] = {1, 1, 12, 12};
	char path[] = "/tmp/mlpscope-test-app-XXXXXX", err[256] = "";
	struct app_params p;
	int fd = mkstemp(path);

	CHECK(fd >= 0, "mkstemp failed");
	for (unsigned i = 0; i < 4; i++) {
		int rc;

		CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, bodies[i], lens[i], 0) == (ssize_t)lens[i], "write");
		small_params(&p, TEXTGEN_MARKOV);
		p.text_path = path;
		rc = app_run("bwt", &p, &r, err, sizeof(err));
		if (rc)
			unlink(path);
		CHECK(rc == 0 && r.check.ok, "body %u: rc %d: %s %s", i, rc, err, r.check.failure);
	}
	CHECK(ftruncate(fd, 0) == 0, "truncate");
	small_params(&p, TEXTGEN_MARKOV);
	p.text_path = path;
	err[0] = 0;
	CHECK(app_run("bwt", &p, &r, err, sizeof(err)) == -EINVAL && strstr(err, "empty"),
	      "an empty file was not refused: %s", err);
	close(fd);
	unlink(path);
}

TEST(app_json_has_the_documented_keys)
{
	static struct app_result res;
	struct app_params p;
	char err[256] = "", *buf = NULL, jerr[256];
	size_t len = 0;
	struct jsonw w;
	struct jsonr_doc doc = {0};
	FILE *m;
	static const char *const keys[] = {"\"params\"", "\"setup_seconds\"", "\"stages\"", "\"variants\"",
		"\"points\"", "\"ns_per_item\"", "\"ns_per_dependent_load\"", "\"speedup\"", "\"chase_speedup\"",
		"\"ratio\"", "\"occupancy\"", "\"knee_k\"", "\"output_hash\"", "\"check\"", "\"ok\""};

	small_params(&p, TEXTGEN_RANDOM);
	CHECK(app_run("bwt", &p, &res.kernels[0], err, sizeof(err)) == 0, "run: %s", err);
	CHECK(res.kernels[0].nvariants == 3, "variants");
	res.nkernels = 1;
	CHECK((m = open_memstream(&buf, &len)), "memstream");
	jsonw_init(&w, m);
	jsonw_object_begin(&w, NULL);
	app_write_json(&res, &w, "app");
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(m);
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strstr(buf, keys[i])) {
			free(buf);
			CHECK(0, "key %s missing", keys[i]);
		}
	int rc = jsonr_parse(buf, len, 0, &doc, jerr, sizeof(jerr));
	char dir[] = "/tmp/mlpscope-test-app-csv-XXXXXX", path[128], line[512] = "", row[512];
	int rows = 0;
	FILE *f;

	free(buf);
	CHECK(rc == 0, "the app JSON does not parse: %s", jerr);
	/* The CSV: a header, then one row per (variant, K) of the one kernel. */
	CHECK(mkdtemp(dir), "mkdtemp");
	rc = app_write_csv(dir, doc.root);
	jsonr_free(&doc);
	snprintf(path, sizeof(path), "%s/app_bwt_points.csv", dir);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		while (fgets(row, sizeof(row), f))
			rows++;
		fclose(f);
	}
	unlink(path);
	rmdir(dir);
	CHECK(rc == 0 && f, "app_write_csv: rc %d, file %s", rc, f ? "written" : "missing");
	CHECK(!strncmp(line, "variant,k,ns_per_item", 21), "header '%s'", line);
	CHECK(rows == (int)(res.kernels[0].variants[0].npoints + res.kernels[0].variants[1].npoints +
			    res.kernels[0].variants[2].npoints), "%d rows", rows);
}

/* Drops the last item: the kind of bound error an unrolled loop makes. */
static uint64_t short_gather(const uint64_t *a, const uint32_t *idx, size_t n)
{
	return app_gather_plain(a, idx, n - 1);
}

TEST(app_gather_check_fires_on_a_broken_loop_and_passes_the_plain_one)
{
	static struct app_kernel_result r;
	struct app_params p;
	char err[256] = "";
	int rc;

	small_params(&p, TEXTGEN_RANDOM);
	p.trials = 3;
	CHECK((rc = app_run("gather", &p, &r, err, sizeof(err))) == 0, "plain gather: rc %d %s %s", rc, err,
	      r.check.failure);
	CHECK(r.check.ok && r.check.runs_checked == 3 && r.variants[0].output_hash == r.check.expected_hash,
	      "plain gather's check");
	p.broken_gather = short_gather;
	rc = app_run("gather", &p, &r, err, sizeof(err));
	CHECK(rc == -EPROTO && !r.check.ok && strstr(r.check.failure, "gather"),
	      "a broken gather returned %d: %s", rc, r.check.failure);
}

/* Skips the last lookup of the batch: a ring that stops one short. */
static void short_hash(const struct app_hash_table *t, const uint64_t *keys, size_t n, unsigned k,
		       struct app_hash_out *out)
{
	app_hash_amac(t, keys, n - 1, k, out);
}

TEST(app_hash_check_fires_on_a_broken_ring_and_every_form_agrees)
{
	static struct app_kernel_result r;
	struct app_params p;
	char err[256] = "";
	int rc;

	small_params(&p, TEXTGEN_RANDOM);
	CHECK((rc = app_run("hash", &p, &r, err, sizeof(err))) == 0, "hash: rc %d %s %s", rc, err, r.check.failure);
	CHECK(r.check.ok && r.nvariants == 8, "check or variants");
	/* Hit 1.0 variants share one sum, hit 0.5 another, and they differ. */
	for (unsigned v = 0; v < 8; v++)
		CHECK(r.variants[v].output_hash == r.variants[v < 4 ? 0 : 4].output_hash, "%s differs",
		      r.variants[v].name);
	CHECK(r.variants[0].output_hash != r.variants[4].output_hash, "hit 0.5 found as much as hit 1.0");
	CHECK(r.variants[2].npoints == APP_NLANE_SET && r.variants[0].npoints == 1, "points per form");
	p.broken_hash = short_hash;
	rc = app_run("hash", &p, &r, err, sizeof(err));
	CHECK(rc == -EPROTO && !r.check.ok && strstr(r.check.failure, "hash") && strstr(r.check.failure, "K = "),
	      "a broken ring returned %d: %s", rc, r.check.failure);
}

/* The sorted search answering one too far right: an off-by-one in the
 * final compare. */
static void off_by_one_search(const uint64_t *table, size_t n, const uint64_t *queries, size_t nq, unsigned k,
			      uint32_t *result)
{
	app_search_sorted(table, n, queries, nq, k, result);
	result[nq / 2]++;
}

TEST(app_search_check_fires_on_a_broken_search_and_every_form_agrees)
{
	static struct app_kernel_result r;
	struct app_params p;
	char err[256] = "";
	int rc;

	small_params(&p, TEXTGEN_RANDOM);
	p.footprint_bytes = 100000;      /* N = 12497: not a power of two, last level partial */
	CHECK((rc = app_run("search", &p, &r, err, sizeof(err))) == 0, "search: rc %d %s %s", rc, err,
	      r.check.failure);
	CHECK(r.check.ok && r.nvariants == 5 && r.check.runs_checked == 5 * APP_NLANE_SET, "check or variants");
	p.broken_search = off_by_one_search;
	rc = app_run("search", &p, &r, err, sizeof(err));
	CHECK(rc == -EPROTO && !r.check.ok && strstr(r.check.failure, "search"), "a broken search returned %d: %s",
	      rc, r.check.failure);
}

TEST(app_bwt_ring_check_fires_when_the_end_is_unmarked)
{
	static struct app_kernel_result r;
	struct app_params p;
	char err[256] = "";
	int rc;

	small_params(&p, TEXTGEN_REPEAT);
	CHECK((rc = app_run("bwt", &p, &r, err, sizeof(err))) == 0, "rc %d: %s", rc, r.check.failure);
	CHECK(r.nvariants == 3 && !strcmp(r.variants[2].name, "ring_random_starts") && r.variants[2].npoints == 4 &&
	      r.variants[2].output_hash == r.check.expected_hash, "the ring variant: %u points", r.variants[2].npoints);
	CHECK(!strcmp(r.headline_variant, "lanes_regs"), "headline reads %s", r.headline_variant);
	p.broken_ring = true;
	rc = app_run("bwt", &p, &r, err, sizeof(err));
	CHECK(rc == -EPROTO && strstr(r.check.failure, "ring_random_starts"), "an unmarked end returned %d: %s", rc,
	      r.check.failure);
}

static void short_walk64(const void *table, uint8_t *out, uint64_t *pos, const size_t *seg_begin, unsigned k,
			 size_t steps)
{
	app_bwt_walk_state64(table, out, pos, seg_begin, k, steps);
	out[seg_begin[0] + (steps ? steps - 1 : 0)] ^= 0x5a;
}

/* The 64-bit table (needed past 2^24 rows) on a small text: the wide
 * kernels, tail and ring decode the same bytes as the narrow ones. */
TEST(app_bwt_wide_table_decodes_the_same_text)
{
	static struct app_kernel_result r;
	struct app_params p;
	char err[256] = "";
	int rc;

	small_params(&p, TEXTGEN_MARKOV);
	p.force_wide = true;
	CHECK((rc = app_run("bwt", &p, &r, err, sizeof(err))) == 0, "rc %d: %s", rc, r.check.failure);
	CHECK(r.check.ok && r.nvariants == 3 && r.variants[1].output_hash == r.check.expected_hash &&
	      r.variants[2].output_hash == r.check.expected_hash, "wide decode");
	for (unsigned i = 0; i < r.nparams; i++)
		if (!strcmp(r.params[i].key, "table_word_bytes"))
			CHECK(r.params[i].number == 8, "table_word_bytes %g", r.params[i].number);
	p.broken_walk = short_walk64;
	CHECK(app_run("bwt", &p, &r, err, sizeof(err)) == -EPROTO, "a broken walk passed on the wide table");
}

/* The chase reference's speedup over K: 1, 1.9, 3.6, 2.5 against a 10%
 * floor falls at the last K (30% below 3.6) and is flagged; 3.4 is within
 * the floor; an impossible point takes no part. */
TEST(app_chase_speedup_falling_as_k_grows_is_flagged_non_monotonic)
{
	static struct app_chase c;
	const double s[] = {1.0, 1.9, 3.6, 2.5};

	c.npoints = 4;
	c.noise_floor_pct = 10;
	for (unsigned i = 0; i < 4; i++) {
		c.k[i] = 1u << i;
		c.speedup[i] = s[i];
	}
	CHECK(app_chase_mark_falls(&c) == 1 && c.non_monotonic[3] && !c.non_monotonic[2], "falls %u", c.nfalls);
	c.speedup[3] = 3.4;
	CHECK(app_chase_mark_falls(&c) == 0 && !c.non_monotonic[3], "a fall within the floor flagged");
	c.speedup[3] = 2.5;
	c.impossible[2] = true;
	CHECK(app_chase_mark_falls(&c) == 0, "an impossible point made a fall");
}
