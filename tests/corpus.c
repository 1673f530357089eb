/*
 * The corpus loader: answers.txt parsed into key/value pairs, the entry's
 * identity checked against its folder name, result files opened through
 * the same loader the tool uses for saved results. Nothing here measures.
 */
#include "corpus.h"

#include "analyse/load.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* "<vendor>-<anything>-f<family>-m<model>": the identity a name promises. */
static bool name_identity(const char *name, char *vendor, size_t vlen, int *family, int *model)
{
	const char *dash = strchr(name, '-'), *f = NULL, *m = NULL;
	char *end;

	if (!dash || (size_t)(dash - name) >= vlen)
		return false;
	snprintf(vendor, vlen, "%.*s", (int)(dash - name), name);
	/* the last "-f" and "-m" components */
	for (const char *p = name; (p = strstr(p, "-f")); p++)
		f = p + 2;
	for (const char *p = name; (p = strstr(p, "-m")); p++)
		m = p + 2;
	if (!f || !m || m < f)
		return false;
	*family = (int)strtol(f, &end, 10);
	if (end == f || strncmp(end, "-m", 2))
		return false;
	*model = (int)strtol(m, &end, 10);
	return end != m && *end == 0;
}

/* err = "NAME: [answers.txt line N: ]what"; returns rc. */
__attribute__((format(printf, 6, 7))) static int fail(char *err, size_t errlen, int rc, const struct corpus_cpu *c,
						     unsigned line, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(err, errlen, "%s: answers.txt line %u: %s", c->name, line, what);
	else
		snprintf(err, errlen, "%s: %s", c->name, what);
	return rc;
}

static bool parse_value(const char *text, double *v)
{
	char *end;

	if (!strcmp(text, "yes") || !strcmp(text, "no")) {
		*v = !strcmp(text, "yes");
		return true;
	}
	if (!strcmp(text, "none")) {
		*v = NAN;
		return true;
	}
	*v = strtod(text, &end);
	return end != text && *end == 0 && isfinite(*v);
}

static int parse_line(struct corpus_cpu *c, char *line, unsigned ln, bool *have_cpu, char *err, size_t errlen)
{
	char key[64], value[64], vendor[16];
	char *pub = strstr(line, "public:");
	int family, model, used = 0;
	struct corpus_answer *a;

	if (sscanf(line, "%63s %63s %n", key, value, &used) < 2)
		return fail(err, errlen, -EPROTO, c, ln, "'%s' is not 'key value [public: ...]'", line);
	if (!strcmp(key, "cpu")) {
		if (sscanf(line, "cpu %15s %d %d", vendor, &family, &model) != 3)
			return fail(err, errlen, -EPROTO, c, ln, "'%s' is not 'cpu VENDOR FAMILY MODEL'", line);
		if (strcasecmp(vendor, c->vendor) || family != c->family || model != c->model)
			return fail(err, errlen, -EPROTO, c, ln, "'%s' is not the CPU the folder's name says", line);
		*have_cpu = true;
		return 0;
	}
	if (!*have_cpu)
		return fail(err, errlen, -EPROTO, c, ln, "'%s' before the 'cpu VENDOR FAMILY MODEL' line", key);
	if (corpus_answer_find(c, key))
		return fail(err, errlen, -EPROTO, c, ln, "'%s' answered twice", key);
	if (c->nanswers >= CORPUS_ANSWERS_MAX)
		return fail(err, errlen, -EPROTO, c, ln, "more than the loader holds at '%s'", key);
	if (pub && pub < line + used)
		pub = NULL;
	if (pub == NULL && line[used] != 0)
		return fail(err, errlen, -EPROTO, c, ln, "'%s': after the value only 'public: ...' may follow",
			    line);
	a = &c->answers[c->nanswers];
	if (!parse_value(value, &a->value))
		return fail(err, errlen, -EPROTO, c, ln, "'%s' is not a number, yes, no or none", value);
	snprintf(a->key, sizeof(a->key), "%s", key);
	a->public_figure[0] = 0;
	if (pub) {
		pub += strlen("public:");
		while (isspace((unsigned char)*pub))
			pub++;
		snprintf(a->public_figure, sizeof(a->public_figure), "%s", pub);
	}
	c->nanswers++;
	return 0;
}

int corpus_cpu_load(const char *dir, struct corpus_cpu *c, char *err, size_t errlen)
{
	char path[256], line[512];
	const char *base = strrchr(dir, '/');
	bool have_cpu = false;
	unsigned ln = 0;
	FILE *f;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", base ? base + 1 : dir);
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	if (!name_identity(c->name, c->vendor, sizeof(c->vendor), &c->family, &c->model))
		return fail(err, errlen, -EPROTO, c, 0, "the folder's name is not <vendor>-<name>-f<family>-m<model>");
	snprintf(path, sizeof(path), "%s/answers.txt", dir);
	if (!(f = fopen(path, "r"))) {
		rc = -errno;
		return fail(err, errlen, rc, c, 0, "%s",
			    rc == -ENOENT ? "no answers.txt: an entry must say what the analysis concludes from its results"
					  : strerror(-rc));
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *p = line;
		size_t len;

		ln++;
		if (hash)
			*hash = 0;
		len = strlen(p);
		while (len && isspace((unsigned char)p[len - 1]))
			p[--len] = 0;
		while (isspace((unsigned char)*p))
			p++;
		if (*p)
			rc = parse_line(c, p, ln, &have_cpu, err, errlen);
	}
	if (!rc && ferror(f))
		rc = fail(err, errlen, -EIO, c, 0, "reading answers.txt failed");
	fclose(f);
	if (!rc && !have_cpu)
		rc = fail(err, errlen, -EPROTO, c, 0, "answers.txt has no 'cpu VENDOR FAMILY MODEL' line");
	if (!rc && c->nanswers == 0)
		rc = fail(err, errlen, -EPROTO, c, 0, "answers.txt holds no answers");
	return rc;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct corpus_cpu *)a)->name, ((const struct corpus_cpu *)b)->name);
}

int corpus_list(const char *root, struct corpus_cpu *out, unsigned cap, unsigned *n, char *err, size_t errlen)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char dir[sizeof(out->dir)];
	int rc = 0;

	*n = 0;
	if (!d) {
		snprintf(err, errlen, "%s: %s", root, strerror(errno));
		return -errno;
	}
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(dir, sizeof(dir), "%s/%.64s", root, e->d_name) >= sizeof(dir))
			continue;
		if (*n >= cap) {
			snprintf(err, errlen, "%s: more than %u entries", root, cap);
			rc = -E2BIG;
			break;
		}
		if (!(rc = corpus_cpu_load(dir, &out[*n], err, errlen)))
			(*n)++;
	}
	closedir(d);
	qsort(out, *n, sizeof(*out), cmp_name);
	return rc;
}

const struct corpus_answer *corpus_answer_find(const struct corpus_cpu *c, const char *key)
{
	for (unsigned i = 0; i < c->nanswers; i++)
		if (!strcmp(c->answers[i].key, key))
			return &c->answers[i];
	return NULL;
}

bool corpus_answer_get(const struct corpus_cpu *c, const char *key, double *value)
{
	const struct corpus_answer *a = corpus_answer_find(c, key);

	if (a)
		*value = a->value;
	return a != NULL;
}

int corpus_open(const struct corpus_cpu *c, const char *file, struct jsonr_doc *doc, char *err, size_t errlen)
{
	char path[320];

	memset(doc, 0, sizeof(*doc));
	snprintf(path, sizeof(path), "%s/%s", c->dir, file);
	if (access(path, F_OK)) {
		snprintf(err, errlen, "%s: no %s", c->name, file);
		return -ENOENT;
	}
	return result_load(path, doc, err, errlen);
}
