/*
 * Option values: parsing one argument as its declaration says (sizes,
 * bounded integers, page kinds, text), keeping it by name or in a shared
 * field, and reading it back by a section's own declaration, its default
 * when absent. Which command may take which option is the parser's
 * (cli.c); what a value means is the declaring section's.
 */
#include "frame/options.h"

#include "util/usage.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const struct option_spec option_budget = {
	.name = "budget", .arg = "SECONDS", .kind = OPTION_UINT, .lo = 5, .hi = 86400,
	.help = "time budget, 5..86400 s: sizes and trials shrink to fit it, a section that cannot is refused "
		"(a default never is: the smallest plan runs and says by how much it is over)",
	.field = offsetof(struct options, budget_s),
};

const struct option_spec option_threads = {
	.name = "threads", .arg = "N", .kind = OPTION_UINT, .lo = 1, .hi = 1024, .deflt = "every allowed CPU",
	.help = "at most N threads, one per CPU",
	.field = offsetof(struct options, threads),
};

const struct option_spec option_seed = {
	.name = "seed", .arg = "N", .kind = OPTION_U64, .hi = UINT64_MAX, .deflt = "1", .help = "permutation seed",
	.field = offsetof(struct options, seed),
};

const struct option_spec *const options_threaded[] = {&option_threads, &option_budget, NULL};
const struct option_spec *const options_seeded_threaded[] = {&option_seed, &option_threads, &option_budget, NULL};
const struct option_spec *const options_budget_only[] = {&option_budget, NULL};
const struct option_spec *const options_seeded[] = {&option_seed, &option_budget, NULL};

static const char size_form[] = "N[K|M|G|T][i][B], e.g. 1G or 512MiB";

const struct option_given *options_given(const struct options *o, const char *name)
{
	for (unsigned i = 0; i < o->ngiven; i++)
		if (!strcmp(o->given[i].name, name))
			return &o->given[i];
	return NULL;
}

unsigned long long option_number(const struct options *o, const struct option_spec *spec)
{
	const struct option_given *g = options_given(o, spec->name);

	return g ? g->number : spec->value;
}

const char *option_text(const struct options *o, const struct option_spec *spec)
{
	const struct option_given *g = options_given(o, spec->name);

	return g ? g->text : NULL;
}

bool option_flag(const struct options *o, const struct option_spec *spec)
{
	return options_given(o, spec->name) != NULL;
}

void options_put(struct options *o, const char *name, unsigned long long number, const char *text)
{
	struct option_given *g = (struct option_given *)options_given(o, name);

	if (!g && o->ngiven < OPTIONS_GIVEN_MAX)
		g = &o->given[o->ngiven++];
	if (g)
		*g = (struct option_given){name, number, text};
}

int option_parse_size(const char *s, size_t *out)
{
	unsigned long long v = 0, mult = 1;
	const char *p = s;

	if (*p == '-')
		return -EDOM;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (ULLONG_MAX - (unsigned)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (*p) {
		const char *units = "KMGT";
		const char *u = strchr(units, *p);
		int power;

		if (!u)
			return *p == 'B' && !p[1] ? (*out = v, v ? 0 : -EDOM) : -EINVAL;
		power = (int)(u - units) + 1;
		p++;
		/* "KB" is SI (1000); "K", "Ki" and "KiB" are binary (1024). */
		unsigned base = (p[0] == 'B' && !p[1]) ? 1000 : 1024;

		if (*p == 'i')
			p++;
		if (*p == 'B')
			p++;
		if (*p)
			return -EINVAL;
		while (power--) {
			if (mult > ULLONG_MAX / base)
				return -ERANGE;
			mult *= base;
		}
	}
	if (v && mult > ULLONG_MAX / v)
		return -ERANGE;
	if (v * mult > SIZE_MAX)
		return -ERANGE;
	if (v == 0)
		return -EDOM;
	*out = (size_t)(v * mult);
	return 0;
}

static int parse_uint(const char *s, unsigned long long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	return *end ? -EINVAL : 0;
}

static int read_size(const struct option_spec *d, const char *v, unsigned long long *n, char *err, size_t errlen)
{
	size_t bytes;
	int rc = option_parse_size(v, &bytes);

	if (rc == -EDOM)
		return usage_fail(err, errlen, "--%s: '%s' must be greater than zero (expected %s)", d->name, v, size_form);
	if (rc == -ERANGE)
		return usage_fail(err, errlen, "--%s: '%s' is too large (expected %s)", d->name, v, size_form);
	if (rc)
		return usage_fail(err, errlen, "--%s: '%s' is not a size (expected %s)", d->name, v, size_form);
	if (d->hi && (bytes < d->lo || bytes > d->hi))
		return usage_fail(err, errlen, "--%s: '%s' is out of range (expected %llu..%llu)", d->name, v, d->lo,
				  d->hi);
	if (d->kind == OPTION_SPACING && (bytes & (bytes - 1)))
		return usage_fail(err, errlen, "--%s: '%s' is not a power of two from 8 to 2MiB "
				  "(expected e.g. 8, 64, 4096)", d->name, v);
	*n = bytes;
	return 0;
}

static int read_integer(const struct option_spec *d, const char *v, unsigned long long *n, char *err,
			size_t errlen)
{
	int rc = parse_uint(v, n);

	if (rc || *n < d->lo || *n > d->hi)
		return usage_fail(err, errlen, "--%s: '%s' is %s (expected an integer %llu..%llu)", d->name, v,
				  rc == -EINVAL ? "not an integer" : "out of range", d->lo, d->hi);
	return 0;
}

static int read_pages(const struct option_spec *d, const char *v, unsigned long long *n, char *err, size_t errlen)
{
	if (!strcmp(v, "small"))
		*n = PAGES_CHOICE_SMALL;
	else if (!strcmp(v, "huge"))
		*n = PAGES_CHOICE_HUGE;
	else if (!strcmp(v, "both"))
		*n = PAGES_CHOICE_BOTH;
	else
		return usage_fail(err, errlen, "--%s: '%s' is not a page kind (expected small, huge or both)", d->name, v);
	return 0;
}

/* A shared option's own field, typed as struct options declares it. */
static void store_field(struct options *o, const struct option_spec *d, unsigned long long n, const char *text)
{
	char *at = (char *)o + d->field;

	switch (d->kind) {
	case OPTION_STRING:
		*(const char **)at = text;
		break;
	case OPTION_FLAG:
		*(bool *)at = true;
		break;
	case OPTION_U64:
		*(uint64_t *)at = n;
		break;
	case OPTION_INT:
		*(int *)at = (int)n;
		break;
	default:
		*(unsigned *)at = (unsigned)n;
		break;
	}
}

int option_set(struct options *o, const struct option_spec *d, const char *v, char *err, size_t errlen)
{
	unsigned long long n = 1;
	int rc = 0;

	switch (d->kind) {
	case OPTION_SIZE:
	case OPTION_SPACING:
		rc = read_size(d, v, &n, err, errlen);
		break;
	case OPTION_UINT:
	case OPTION_U64:
	case OPTION_INT:
		rc = read_integer(d, v, &n, err, errlen);
		break;
	case OPTION_PAGES:
		rc = read_pages(d, v, &n, err, errlen);
		break;
	case OPTION_STRING:
		if (!*v)
			return usage_fail(err, errlen, "--%s: empty value (expected %s)", d->name, d->arg);
		break;
	case OPTION_FLAG:
	case OPTION_HELP:
	case OPTION_VERSION:
		break;
	}
	if (rc)
		return rc;
	if (d->field)
		store_field(o, d, n, v);
	else
		options_put(o, d->name, n, d->kind == OPTION_STRING ? v : NULL);
	return 0;
}
