/*
 * mlpbunzip2's command line: bzip2's decompression flags (-d -c -k -f -t
 * -q -v, -s and -1..-9 accepted as bzip2 accepts them with -d, where they
 * change nothing), lbzip2's -n THREADS, and the long forms bzip2 spells.
 * Parsing only: main.c prints and picks the exit status.
 */
#ifndef MLPSCOPE_BUNZIP2_ARGS_H
#define MLPSCOPE_BUNZIP2_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#define BUNZIP2_THREADS_MAX 4096

struct bunzip2_args {
	bool to_stdout, keep, force, test, quiet, help, version;
	unsigned verbose;
	unsigned threads;      /* 0: the CPUs this process may run on */
	int nfiles;
	char **files;          /* argv's first nfiles entries */
};

/* 0, or -1 with err one line naming the argument and the accepted form.
 * The files are moved to the front of argv, in order, over what was
 * there (a->files is argv, a->nfiles of them). */
int bunzip2_args_parse(int argc, char **argv, struct bunzip2_args *a, char *err, size_t errlen);

/* The output name bzip2 gives in's decompressed copy: .bz2 and .bz
 * dropped, .tbz2 and .tbz made .tar, else ".out" added (*guessed false).
 * 0, or -1 when it would not fit in len. */
int bunzip2_output_name(const char *in, char *out, size_t len, bool *guessed);

/* The --help text. */
extern const char bunzip2_usage[];

#endif
