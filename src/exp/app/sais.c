/*
 * SA-IS over int32 symbols with an explicit unique smallest last symbol:
 * the top level widens the bytes to c + 1 and appends 0, so the recursion
 * (on the names of LMS substrings) and the top level share one routine.
 * That costs 4 bytes a symbol of scratch, which the walk's own table
 * dwarfs. Types live in a byte array; S = 1, L = 0.
 */
#include "exp/app/sais.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_lms(const uint8_t *t, int32_t i)
{
	return i > 0 && t[i] && !t[i - 1];
}

/* Bucket starts (end = false) or exclusive ends (end = true) per symbol. */
static void buckets(const int32_t *s, int32_t n, int32_t *bkt, int32_t k, bool end)
{
	int32_t sum = 0;

	memset(bkt, 0, (size_t)k * sizeof(*bkt));
	for (int32_t i = 0; i < n; i++)
		bkt[s[i]]++;
	for (int32_t c = 0; c < k; c++) {
		sum += bkt[c];
		bkt[c] = end ? sum : sum - bkt[c];
	}
}

static void induce(const int32_t *s, int32_t *sa, const uint8_t *t, int32_t n, int32_t *bkt, int32_t k)
{
	buckets(s, n, bkt, k, false);
	for (int32_t i = 0; i < n; i++) {
		int32_t j = sa[i] - 1;

		if (sa[i] > 0 && !t[j])
			sa[bkt[s[j]]++] = j;
	}
	buckets(s, n, bkt, k, true);
	for (int32_t i = n - 1; i >= 0; i--) {
		int32_t j = sa[i] - 1;

		if (sa[i] > 0 && t[j])
			sa[--bkt[s[j]]] = j;
	}
}

/* Whether the LMS substrings at a and b differ (symbols or types). */
static bool lms_differ(const int32_t *s, const uint8_t *t, int32_t n, int32_t a, int32_t b)
{
	for (int32_t d = 0;; d++) {
		if (a + d >= n || b + d >= n || s[a + d] != s[b + d] || t[a + d] != t[b + d])
			return true;
		if (d > 0 && (is_lms(t, a + d) || is_lms(t, b + d)))
			return !(is_lms(t, a + d) && is_lms(t, b + d));
	}
}

/* s[n - 1] == 0 is the unique smallest symbol; symbols are < k. */
static int sais_rec(const int32_t *s, int32_t *sa, int32_t n, int32_t k)
{
	uint8_t *t = malloc((size_t)n);
	int32_t *bkt = malloc((size_t)k * sizeof(*bkt));
	int32_t n1 = 0, names = 0, prev = -1;
	int rc = 0;

	if (!t || !bkt) {
		rc = -ENOMEM;
		goto out;
	}
	t[n - 1] = 1;
	for (int32_t i = n - 2; i >= 0; i--)
		t[i] = s[i] < s[i + 1] || (s[i] == s[i + 1] && t[i + 1]);

	/* Stage 1: LMS suffixes at their buckets' ends, induce, and the LMS
	 * substrings come out sorted. */
	buckets(s, n, bkt, k, true);
	for (int32_t i = 0; i < n; i++)
		sa[i] = -1;
	for (int32_t i = 1; i < n; i++)
		if (is_lms(t, i))
			sa[--bkt[s[i]]] = i;
	induce(s, sa, t, n, bkt, k);
	for (int32_t i = 0; i < n; i++)
		if (is_lms(t, sa[i]))
			sa[n1++] = sa[i];

	/* Name them: equal substrings share a name. LMS positions are at least
	 * two apart, so pos / 2 indexes the free upper half without collision. */
	for (int32_t i = n1; i < n; i++)
		sa[i] = -1;
	for (int32_t i = 0; i < n1; i++) {
		int32_t pos = sa[i];

		if (prev < 0 || lms_differ(s, t, n, pos, prev))
			names++;
		prev = pos;
		sa[n1 + pos / 2] = names - 1;
	}
	for (int32_t i = n - 1, j = n - 1; i >= n1; i--)
		if (sa[i] >= 0)
			sa[j--] = sa[i];

	/* Stage 2: the reduced string's suffix array, recursively if names
	 * repeat, else directly (each name is its own rank). */
	int32_t *s1 = sa + n - n1, *sa1 = sa;

	if (names < n1) {
		if ((rc = sais_rec(s1, sa1, n1, names)))
			goto out;
	} else {
		for (int32_t i = 0; i < n1; i++)
			sa1[s1[i]] = i;
	}

	/* Stage 3: the sorted LMS suffixes, placed at their buckets' ends in
	 * reverse order, induce the whole array. */
	buckets(s, n, bkt, k, true);
	for (int32_t i = 1, j = 0; i < n; i++)
		if (is_lms(t, i))
			s1[j++] = i;
	for (int32_t i = 0; i < n1; i++)
		sa1[i] = s1[sa1[i]];
	for (int32_t i = n1; i < n; i++)
		sa[i] = -1;
	for (int32_t i = n1 - 1; i >= 0; i--) {
		int32_t j = sa[i];

		sa[i] = -1;
		sa[--bkt[s[j]]] = j;
	}
	induce(s, sa, t, n, bkt, k);
out:
	free(t);
	free(bkt);
	return rc;
}

int sais_build(const uint8_t *text, size_t n, int32_t *sa)
{
	int32_t *s;
	int rc;

	if (n > SAIS_MAX_BYTES)
		return -EOVERFLOW;
	/* The end mark alone has no LMS suffix to induce from. */
	if (n == 0) {
		sa[0] = 0;
		return 0;
	}
	if (!(s = malloc((n + 1) * sizeof(*s))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		s[i] = (int32_t)text[i] + 1;
	s[n] = 0;
	rc = sais_rec(s, sa, (int32_t)n + 1, 257);
	free(s);
	return rc;
}

void sais_bwt(const uint8_t *text, size_t n, const int32_t *sa, uint8_t *bwt, size_t *primary)
{
	*primary = 0;
	for (size_t i = 0; i <= n; i++) {
		if (sa[i] == 0) {
			bwt[i] = 0;
			*primary = i;
		} else {
			bwt[i] = text[sa[i] - 1];
		}
	}
}
