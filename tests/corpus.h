/*
 * The corpus of real CPUs (tests/data/cpus/<vendor>-<name>-f<family>-m<model>/):
 * one machine's raw results (report.json, window.json, caches and identity
 * as recorded) and answers.txt, what the analysis must conclude from them.
 * The loader refuses an entry without answers (a recording nobody checked
 * proves nothing) and ignores every file it does not know, so other tools
 * may keep their own facts beside the results. Test code only.
 */
#ifndef MLPSCOPE_TESTS_CORPUS_H
#define MLPSCOPE_TESTS_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/jsonr.h"

#define CORPUS_ROOT "tests/data/cpus"
#define CORPUS_CPUS_MAX 16
#define CORPUS_ANSWERS_MAX 192

/* One line of answers.txt: `key value [public: figure and source]`. value
 * is a number, `yes`/`no` (1/0) or `none` (NAN: the analysis finds none). */
struct corpus_answer {
	char key[64];
	double value;
	char public_figure[160];     /* "" where no public figure exists */
};

struct corpus_cpu {
	char name[64];               /* the folder's name */
	char dir[192];               /* CORPUS_ROOT/name */
	char vendor[16];
	int family, model;
	unsigned nanswers;
	struct corpus_answer answers[CORPUS_ANSWERS_MAX];
};

/* Load the entry in dir: answers.txt must exist, open with a line
 * `cpu VENDOR FAMILY MODEL` matching the folder's name and hold at least
 * one answer; every other line `key value [public: ...]`, keys unique,
 * '#' starts a comment. 0, or -ENOENT (no answers.txt), -EPROTO (an
 * answers file that breaks a rule above), other -errno; err names the
 * entry and the rule. Unknown files in dir are never read. */
int corpus_cpu_load(const char *dir, struct corpus_cpu *c, char *err, size_t errlen);

/* Every entry under root, sorted by name: 0 and *n set, or the first
 * refusal's rc with err naming it. */
int corpus_list(const char *root, struct corpus_cpu *out, unsigned cap, unsigned *n, char *err, size_t errlen);

const struct corpus_answer *corpus_answer_find(const struct corpus_cpu *c, const char *key);

/* The answer's value; false when the entry has no such key. */
bool corpus_answer_get(const struct corpus_cpu *c, const char *key, double *value);

/* Parse file (report.json, window.json ...) of the entry through the
 * result loader: 0; -ENOENT when the entry has no such file; else
 * result_load's rc, err naming the file. */
int corpus_open(const struct corpus_cpu *c, const char *file, struct jsonr_doc *doc, char *err, size_t errlen);

#endif
