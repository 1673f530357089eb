/*
 * Same-file tests: by device and inode where both paths exist (a hard link,
 * a symbolic link, another spelling), else by the resolved directory and the
 * last component, so an output that does not exist yet still matches. A
 * directory output writes only names of its own kind (*.svg, *.csv) and a
 * directory input reads only *.json (sections/fleet.c), so those are compared by
 * directory and name. A new output option is one row of `outputs`.
 */
#include "outpaths.h"

#include "sections/fleet.h"
#include "frame/registry.h"
#include "util/atomic.h"
#include "util/usage.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define F(x) offsetof(struct options, x)

static const struct {
	const char *flag;
	size_t field;
	const char *dir_writes;  /* a directory output: the extension of what it writes */
} outputs[] = {
	{"--json", F(json_path), NULL},
	{"--html", F(html_path), NULL},
	{"--prom", F(prom_path), NULL},
	{"--svg", F(svg_dir), ".svg"},
	{"--csv", F(csv_dir), ".csv"},
};
#define NOUT (sizeof(outputs) / sizeof(outputs[0]))

struct named {
	const char *what;  /* "--from", "an operand" */
	const char *path;
};

static const char *out_path(const struct options *o, size_t i)
{
	return *(const char *const *)((const char *)o + outputs[i].field);
}

/* The inputs: --from, --text, and the operands of a command that reads
 * files (help's operand is a topic, app's a kernel). */
static size_t inputs_of(const struct options *o, struct named *in)
{
	size_t n = 0;

	/* Inputs some sections declare, by name: the file each reads. */
	if (options_given(o, "from"))
		in[n++] = (struct named){"--from", options_given(o, "from")->text};
	if (options_given(o, "text"))
		in[n++] = (struct named){"--text", options_given(o, "text")->text};
	if (o->command->kind == SECTION_FILE_COMMAND)
		for (unsigned i = 0; i < o->npaths; i++)
			in[n++] = (struct named){o->command->operand_name ? o->command->operand_name : "a result", o->paths[i]};
	return n;
}

/* path's directory, resolved, and its last component; false when the
 * directory does not resolve (then nothing can be compared by name). */
static bool split_resolved(const char *path, char *dir, char *base)
{
	char d[PATH_MAX], b[PATH_MAX];

	snprintf(d, sizeof(d), "%s", path);
	snprintf(b, sizeof(b), "%s", path);
	snprintf(base, PATH_MAX, "%s", basename(b));
	return realpath(dirname(d), dir) != NULL;
}

static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char da[PATH_MAX], db[PATH_MAX], ba[PATH_MAX], bb[PATH_MAX];

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (!split_resolved(a, da, ba) || !split_resolved(b, db, bb))
		return !strcmp(a, b);
	return !strcmp(da, db) && !strcmp(ba, bb);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Whether output i (path out) would write over input in. */
static bool clobbers(size_t i, const char *out, const char *in)
{
	char dir[PATH_MAX], base[PATH_MAX];

	if (outputs[i].dir_writes)  /* a file it writes is DIR/NAME.ext */
		return !is_dir(in) && split_resolved(in, dir, base) && same_dir(dir, out) &&
		       ends_with(base, outputs[i].dir_writes);
	if (is_dir(in))             /* a directory of results: its *.json */
		return split_resolved(out, dir, base) && same_dir(dir, in) && fleet_reads_name(base);
	return same_file(out, in);
}

int outpaths_check(const struct options *o, char *err, size_t errlen)
{
	struct named in[POLICY_COMPARE_MAX_RUNS + 2];
	size_t nin = inputs_of(o, in);

	for (size_t i = 0; i < NOUT; i++) {
		const char *p = out_path(o, i);

		if (!p)
			continue;
		if (outputs[i].dir_writes && atomic_is_stdout(p))
			return usage_fail(err, errlen, "%s: '-' (standard output) cannot take a directory of files "
					  "(expected a directory)", outputs[i].flag);
		for (size_t j = i + 1; j < NOUT; j++) {
			const char *q = out_path(o, j);

			if (!q)
				continue;
			/* --svg DIR --html DIR/latency.svg: the plot would replace the page. */
			if (!outputs[i].dir_writes != !outputs[j].dir_writes) {
				size_t d = outputs[i].dir_writes ? i : j;
				const char *file = d == i ? q : p;

				if (!atomic_is_stdout(file) && clobbers(d, out_path(o, d), file))
					return usage_fail(err, errlen, "%s and %s both name '%s' (expected two different files)",
							  outputs[i].flag, outputs[j].flag, file);
				continue;
			}
			if (outputs[i].dir_writes)
				continue;
			if (atomic_is_stdout(p) && atomic_is_stdout(q))
				return usage_fail(err, errlen, "%s and %s both name standard output '-' (expected at most "
						  "one output on stdout)", outputs[i].flag, outputs[j].flag);
			/* Two outputs in one file: the second rename would silently win. */
			if (!atomic_is_stdout(p) && !atomic_is_stdout(q) && same_file(p, q))
				return usage_fail(err, errlen, "%s and %s both name '%s' (expected two different files)",
						  outputs[i].flag, outputs[j].flag, q);
		}
		if (atomic_is_stdout(p))
			continue;
		for (size_t k = 0; k < nin; k++)
			if (clobbers(i, p, in[k].path))
				return usage_fail(err, errlen, "%s: '%s' would write over the input '%s' (%s) (expected an "
						  "output apart from every input)", outputs[i].flag, p, in[k].path, in[k].what);
	}
	return 0;
}

bool outpaths_stdout_taken(const struct options *o)
{
	for (size_t i = 0; i < NOUT; i++)
		if (!outputs[i].dir_writes && atomic_is_stdout(out_path(o, i)))
			return true;
	return false;
}
