/* The suffix array, the BWT and the T-vector against naive references:
 * 1 byte, all-equal bytes, 256 distinct bytes, random and repetitive text. */
#include "../harness.h"

#include "exp/app/bwt.h"
#include "exp/app/sais.h"
#include "exp/app/textgen.h"
#include "util/rng.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t *cmp_text;
static size_t cmp_n;

/* Suffixes with the end mark: a proper prefix sorts first. */
static int cmp_suffix(const void *pa, const void *pb)
{
	int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
	size_t la = cmp_n - (size_t)a, lb = cmp_n - (size_t)b;
	int r = memcmp(cmp_text + a, cmp_text + b, la < lb ? la : lb);

	return r ? r : (la < lb ? -1 : la > lb);
}

static void naive_sa(const uint8_t *t, size_t n, int32_t *sa)
{
	for (size_t i = 0; i <= n; i++)
		sa[i] = (int32_t)i;
	cmp_text = t;
	cmp_n = n;
	qsort(sa, n + 1, sizeof(*sa), cmp_suffix);
}

/* 0 when SA-IS, the BWT and both inversions agree with the naive sort. */
static int check_text(const uint8_t *t, size_t n, char *why, size_t whylen)
{
	int32_t *sa = malloc((n + 1) * 4), *ref = malloc((n + 1) * 4);
	uint8_t *bwt = malloc(n + 1), *back = malloc(n + 1), *walked = malloc(n + 1);
	uint32_t *tt = malloc(bwt_table_bytes(n + 1));
	size_t primary, row = 0;
	int bad = 1;

	if (!sa || !ref || !bwt || !back || !walked || !tt) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	naive_sa(t, n, ref);
	if (sais_build(t, n, sa)) {
		snprintf(why, whylen, "sais_build failed at n=%zu", n);
		goto out;
	}
	for (size_t i = 0; i <= n; i++)
		if (sa[i] != ref[i]) {
			snprintf(why, whylen, "n=%zu: sa[%zu] = %d, naive %d", n, i, sa[i], ref[i]);
			goto out;
		}
	sais_bwt(t, n, sa, bwt, &primary);
	for (size_t i = 0; i <= n; i++)
		if (i != primary && bwt[i] != t[ref[i] - 1]) {
			snprintf(why, whylen, "n=%zu: bwt[%zu] wrong", n, i);
			goto out;
		}
	if (bwt_invert_reference(bwt, n + 1, primary, back) || memcmp(back, t, n)) {
		snprintf(why, whylen, "n=%zu: LF inversion does not give the text back", n);
		goto out;
	}
	/* The T-vector walked from row(0) = primary emits the text forwards. */
	bwt_table_build(bwt, n + 1, primary, tt, false);
	row = primary;
	for (size_t i = 0; i < n; i++) {
		walked[i] = (uint8_t)tt[row];
		row = tt[row] >> 8;
	}
	if (memcmp(walked, t, n) || row != 0) {
		snprintf(why, whylen, "n=%zu: T-vector walk differs (ends at row %zu)", n, row);
		goto out;
	}
	bad = 0;
out:
	free(sa);
	free(ref);
	free(bwt);
	free(back);
	free(walked);
	free(tt);
	return bad;
}

TEST(app_sais_banana)
{
	const uint8_t *t = (const uint8_t *)"banana";
	int32_t sa[7], want[7] = {6, 5, 3, 1, 0, 4, 2};
	uint8_t bwt[7];
	size_t primary;

	CHECK(!sais_build(t, 6, sa), "sais_build failed");
	for (int i = 0; i < 7; i++)
		CHECK(sa[i] == want[i], "sa[%d] = %d, want %d", i, sa[i], want[i]);
	sais_bwt(t, 6, sa, bwt, &primary);
	bwt[primary] = '$';
	CHECK(!memcmp(bwt, "annb$aa", 7) && primary == 4, "bwt %.7s primary %zu", bwt, primary);
}

TEST(app_sais_edge_cases_match_naive)
{
	uint8_t t[1024] = {0};
	char why[160];

	CHECK(!check_text(t, 0, why, sizeof(why)), "empty: %s", why);
	t[0] = 'x';
	CHECK(!check_text(t, 1, why, sizeof(why)), "1 byte: %s", why);
	t[0] = 0;
	CHECK(!check_text(t, 1, why, sizeof(why)), "1 zero byte: %s", why);
	for (size_t n = 2; n <= 1024; n *= 2) {
		memset(t, 0, n);
		CHECK(!check_text(t, n, why, sizeof(why)), "all zero: %s", why);
		memset(t, 0xff, n);
		CHECK(!check_text(t, n, why, sizeof(why)), "all 0xff: %s", why);
	}
	for (int i = 0; i < 256; i++)
		t[i] = (uint8_t)i;
	CHECK(!check_text(t, 256, why, sizeof(why)), "256 distinct ascending: %s", why);
	for (int i = 0; i < 256; i++)
		t[i] = (uint8_t)(255 - i);
	CHECK(!check_text(t, 256, why, sizeof(why)), "256 distinct descending: %s", why);
	for (int i = 0; i < 512; i++)
		t[i] = (uint8_t)(i * 167);
	CHECK(!check_text(t, 512, why, sizeof(why)), "256 distinct twice: %s", why);
}

TEST(app_sais_random_and_repetitive_match_naive)
{
	static uint8_t t[20000];
	char why[160];
	struct rng r;

	rng_seed(&r, 7);
	for (int round = 0; round < 200; round++) {
		size_t n = 1 + rng_below(&r, 300);
		unsigned sigma = 1 + (unsigned)rng_below(&r, round % 2 ? 4 : 256);

		for (size_t i = 0; i < n; i++)
			t[i] = (uint8_t)rng_below(&r, sigma);
		CHECK(!check_text(t, n, why, sizeof(why)), "random round %d sigma %u: %s", round, sigma, why);
	}
	/* Periodic texts (abab..., aab aab ...) drive the recursion deepest. */
	for (size_t period = 1; period <= 7; period++) {
		for (size_t i = 0; i < 3000; i++)
			t[i] = (uint8_t)('a' + (i % period == period - 1));
		CHECK(!check_text(t, 3000, why, sizeof(why)), "period %zu: %s", period, why);
	}
	textgen_fill(t, sizeof(t), TEXTGEN_REPEAT, 3);
	CHECK(!check_text(t, sizeof(t), why, sizeof(why)), "repeat: %s", why);
	textgen_fill(t, sizeof(t), TEXTGEN_MARKOV, 3);
	CHECK(!check_text(t, sizeof(t), why, sizeof(why)), "markov: %s", why);
	textgen_fill(t, sizeof(t), TEXTGEN_RANDOM, 3);
	CHECK(!check_text(t, sizeof(t), why, sizeof(why)), "random: %s", why);
}
