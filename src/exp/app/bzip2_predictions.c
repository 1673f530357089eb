/*
 * Predictions for `app bzip2`, read before anything is measured and judged
 * after. A speed-up is a ratio of two timings, each of which may sit
 * anywhere within the run's floor, so the ratio's own band is about twice
 * the floor: a measured figure within that band of the expected one
 * supports the prediction, one beyond twice the band contradicts it, and
 * one between the two cannot be told from noise in one run. A figure the
 * run did not measure (an axis narrowed away) is inconclusive, never
 * judged. Measures nothing.
 */
#include "exp/app/bzip2.h"

#include "util/inputfile.h"
#include "util/sha256.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The axes a prediction may name: numbered ones take ":N". */
static const struct {
	const char *name, *figure;
	bool numbered;
} axes[] = {
	{"lanes", "walk_speedup", true},    {"r", "walk_ratio", true},
	{"huffman", "stage_speedup", false}, {"mtf", "stage_speedup", false},
	{"crc", "stage_speedup", false},     {"rle", "stage_speedup", false},
	{"lane", "stage_speedup", false},
	{"interleave", "measured_speedup", false}, {"scout", "measured_speedup", false},
	{"translation", "paired_speedup", false},  {"workers", "speedup", true},
	{"libbz2", "best_vs_libbz2", false},
};
#define NAXES (sizeof(axes) / sizeof(axes[0]))
static const char axes_form[] =
	"lanes:K, r:K, huffman, mtf, crc, rle, lane, interleave, scout, translation, workers:N or libbz2";

/* The axis row word names (its number into *n), -1 when none. */
static int axis_of(const char *word, unsigned *n)
{
	const char *colon = strchr(word, ':');
	size_t len = colon ? (size_t)(colon - word) : strlen(word);

	*n = 0;
	for (size_t i = 0; i < NAXES; i++) {
		char *end;
		unsigned long v;

		if (strlen(axes[i].name) != len || strncmp(axes[i].name, word, len) || !colon != !axes[i].numbered)
			continue;
		if (!colon)
			return (int)i;
		v = strtoul(colon + 1, &end, 10);
		if (colon[1] < '1' || colon[1] > '9' || *end || v > 64)
			return -1;
		*n = (unsigned)v;
		return (int)i;
	}
	return -1;
}

static int parse_line(char *line, unsigned no, struct app_bzip2_predictions *ps, char *err, size_t errlen)
{
	struct app_bzip2_prediction *p = &ps->p[ps->n];
	char *save = NULL, *word = strtok_r(line, " \t", &save), *num = word ? strtok_r(NULL, " \t", &save) : NULL;
	char *rest, *end;
	unsigned n;

	if (!word)
		return 0;
	if (ps->n == APP_BZ2_PREDICTIONS_MAX)
		return snprintf(err, errlen, "line %u: more than %d predictions (expected at most that many)", no,
				APP_BZ2_PREDICTIONS_MAX), -EINVAL;
	if (axis_of(word, &n) < 0)
		return snprintf(err, errlen, "line %u: '%.24s' is not an axis (expected %s)", no, word, axes_form), -EINVAL;
	if (!num || (p->expected = strtod(num, &end), *end) || !isfinite(p->expected) || !(p->expected > 0))
		return snprintf(err, errlen, "line %u: '%.24s' is not a positive figure (expected AXIS FIGURE HYPOTHESIS, "
				"e.g. lanes:8 6.5 too few loads visible)", no, num ? num : ""), -EINVAL;
	rest = strtok_r(NULL, "", &save);
	while (rest && (*rest == ' ' || *rest == '\t'))
		rest++;
	for (size_t k = rest ? strlen(rest) : 0; k && (rest[k - 1] == ' ' || rest[k - 1] == '\t'); k--)
		rest[k - 1] = 0;
	if (!rest || !*rest)
		return snprintf(err, errlen, "line %u: %s has no hypothesis (expected AXIS FIGURE HYPOTHESIS: what the "
				"figure would show)", no, word), -EINVAL;
	snprintf(p->axis, sizeof(p->axis), "%s", word);
	snprintf(p->hypothesis, sizeof(p->hypothesis), "%s", rest);
	p->figure = axes[axis_of(word, &n)].figure;
	p->measured = NAN;
	p->verdict = "inconclusive";
	p->why = "not judged yet";
	ps->n++;
	return 0;
}

int app_bzip2_predictions_parse(const char *text, size_t len, struct app_bzip2_predictions *ps, char *err,
				size_t errlen)
{
	unsigned no = 0;
	size_t at = 0;

	ps->n = 0;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		char line[512], *hash;
		int rc;

		no++;
		if (end - at >= sizeof(line))
			return snprintf(err, errlen, "line %u: longer than %zu bytes (expected one short prediction a line)",
					no, sizeof(line) - 1), -EINVAL;
		memcpy(line, text + at, end - at);
		line[end - at] = 0;
		if ((hash = strchr(line, '#')))
			*hash = 0;
		line[strcspn(line, "\r")] = 0;
		if ((rc = parse_line(line, no, ps, err, errlen)))
			return rc;
		at = end + 1;
	}
	if (!ps->n)
		return snprintf(err, errlen, "no predictions (expected lines of AXIS FIGURE HYPOTHESIS)"), -EINVAL;
	return 0;
}

int app_bzip2_predictions_read(const char *path, struct app_bzip2_predictions *ps, char *err, size_t errlen)
{
	unsigned char *data = NULL;
	size_t len = 0;
	char why[300];
	struct sha256 h;
	struct stat st;
	struct tm tm;
	int rc;

	memset(ps, 0, sizeof(*ps));
	if ((rc = inputfile_read_all(path, 64 << 10, &data, &len, why, sizeof(why)))) {
		if (rc == -ENODATA || rc == -EFBIG)
			snprintf(why, sizeof(why), "%s: %s", path, rc == -EFBIG ? "over 64 KiB" : "empty");
		snprintf(err, errlen, "--predictions: %s (expected a readable file of AXIS FIGURE HYPOTHESIS lines)", why);
		return rc;
	}
	rc = app_bzip2_predictions_parse((const char *)data, len, ps, why, sizeof(why));
	if (rc)
		snprintf(err, errlen, "--predictions: %s: %s", path, why);
	sha256_init(&h);
	sha256_update(&h, data, len);
	sha256_final_hex(&h, ps->sha256);
	snprintf(ps->path, sizeof(ps->path), "%s", path);
	if (!stat(path, &st) && gmtime_r(&st.st_mtime, &tm))
		strftime(ps->written_utc, sizeof(ps->written_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	free(data);
	return rc;
}

/* The sweep's own variant at K: prefetch off, reused output, every decode
 * path fast, no overlap, the sweep's pages (registers first, as planned). */
static const struct app_bzip2_variant *base_variant(const struct app_bzip2_result *r, unsigned k)
{
	for (unsigned i = 0; i < r->nvariants; i++) {
		const struct app_bzip2_variant *v = &r->variants[i];

		if (v->k == k && v->prefetch == BZ2_PREFETCH_OFF && !v->fresh_output && !v->plain &&
		    v->overlap == BZ2_OVERLAP_OFF && v->pages == r->pages)
			return v;
	}
	return NULL;
}

static double named_axis(const struct app_bzip2_result *r, const char *name)
{
	for (unsigned i = 0; i < r->naxes; i++)
		if (!strcmp(r->axes[i].name, name))
			return r->axes[i].stage_speedup;
	for (unsigned i = 0; i < r->noverlaps; i++)
		if (!strcmp(r->overlaps[i].name, name))
			return r->overlaps[i].measured_speedup;
	return NAN;
}

/* The figure a prediction names, NaN when this run did not measure it. */
static double measured_figure(const struct app_bzip2_result *r, const struct app_bzip2_prediction *p)
{
	unsigned n;
	int a = axis_of(p->axis, &n);
	const struct app_bzip2_variant *v;
	const char *name = a >= 0 ? axes[a].name : "";

	if (!strcmp(name, "lanes") || !strcmp(name, "r")) {
		if (!(v = base_variant(r, n)))
			return NAN;
		return !strcmp(name, "lanes") ? v->walk_speedup : v->walk_ratio;
	}
	if (!strcmp(name, "workers")) {
		for (unsigned i = 0; i < r->nworkers; i++)
			if (r->workers[i].n == n)
				return r->workers[i].speedup;
		return NAN;
	}
	if (!strcmp(name, "translation"))
		return r->ntranslations ? r->translations[0].paired_speedup : NAN;
	if (!strcmp(name, "libbz2"))
		return r->best_vs_libbz2;
	return named_axis(r, name);
}

void app_bzip2_predictions_judge(struct app_bzip2_predictions *ps, const struct app_bzip2_result *r,
				 double floor_pct)
{
	ps->tolerance_pct = floor_pct > 0 ? 2 * floor_pct : 0;
	for (unsigned i = 0; i < ps->n; i++) {
		struct app_bzip2_prediction *p = &ps->p[i];
		double m = measured_figure(r, p), off;

		p->measured = isfinite(m) && m > 0 ? m : NAN;
		p->verdict = "inconclusive";
		if (!isfinite(p->measured)) {
			p->why = "not measured in this run";
			continue;
		}
		if (!(ps->tolerance_pct > 0)) {
			p->why = "no floor measured to judge against";
			continue;
		}
		off = 100 * fabs(p->measured / p->expected - 1);
		if (off <= ps->tolerance_pct) {
			p->verdict = "supported";
			p->why = "within twice the floor of the expected figure";
		} else if (off > 2 * ps->tolerance_pct) {
			p->verdict = "contradicted";
			p->why = "beyond twice the floor's band";
		} else {
			p->why = "between one and two bands off: not told from noise in one run";
		}
	}
}
