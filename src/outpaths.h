/*
 * The files a command line names, checked against each other before any
 * work: an output that names an input (a result, the window file, a trace,
 * --text, a result inside a directory of results) or another output, or a
 * directory output given "-", is a usage error naming both. "-" names
 * standard output on every file output (at most one of them). Nothing here
 * opens, creates or writes a file; it only looks (stat, realpath).
 */
#ifndef MLPSCOPE_OUTPATHS_H
#define MLPSCOPE_OUTPATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "frame/options.h"

/* 0, or 2 with err holding one line that names both paths and the option
 * or operand each came from. */
int outpaths_check(const struct options *o, char *err, size_t errlen);

/* Whether a file output is "-": the text report then stays off stdout. */
bool outpaths_stdout_taken(const struct options *o);

#endif
