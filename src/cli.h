/*
 * Command line: the shared options and every section's declarations drive
 * parsing, validation, --help, `help CMD` and the man page.
 * Parsing is pure (no measurement, no printing): errors come back as one
 * line naming the argument and the accepted form, for main.c to print.
 */
#ifndef MLPSCOPE_CLI_H
#define MLPSCOPE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frame/options.h"

/* 0 on success; 2 (usage error) with err filled otherwise. */
int cli_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);

/* Parse "N[K|M|G|T][i][B]": K/Ki/KiB = 1024, KB = 1000 (SI). 0 on success,
 * else -EINVAL (not a size), -ERANGE (overflow), -EDOM (zero or negative). */
int cli_parse_size(const char *s, size_t *out);

/* General help, or the help of one command ("mlp", "report"), both from the
 * registry's rows and the option table. Returns 0, or -ENOENT for an
 * unknown topic. */
int cli_print_help(FILE *f, const char *topic);

/* Option i of those --help lists (from 0), for the man page: false past
 * the last. arg is NULL for a flag; help gets what --help says of it (each
 * declaring section's line and default; lines split by newlines). */
bool cli_option(size_t i, const char **name, const char **arg, char *help, size_t helplen);

/* One option as `help CMD` lists it. */
struct cli_option_line {
	const char *name;       /* without "--" */
	const char *arg;        /* metavariable; NULL for a flag */
	bool shared;            /* one every command takes (outputs, --cpu, --seed ...) */
	char help[2048];        /* what help says of it under the command: lines split
	                         * by newlines, each declaring section's, and a measuring
	                         * command's default --budget */
};

/* Option i (from 0) of those `help CMD` lists for command c, in its order
 * (c NULL: every option, as --help lists them): false past the last. The
 * same lines drive help's printer and docs/OUTPUT.md's option lists. */
bool cli_command_option(const struct section *c, size_t i, struct cli_option_line *line);

#endif
