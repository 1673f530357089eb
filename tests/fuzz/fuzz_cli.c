/*
 * libFuzzer target: the command line parser. The input is split at NUL
 * bytes into argv (so an argument may hold any other byte), after a fixed
 * argv[0]. cli_parse must return 0 or 2 with a one-line message, and never
 * print, exit or read past its arguments.
 */
#include "cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[MAX_ARGS + 2], err[512], prog[] = "mlpscope";
	struct options o;
	int argc = 1, rc;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	argv[0] = prog;
	for (size_t i = 0; i <= size && argc <= MAX_ARGS;) {
		argv[argc++] = copy + i;
		i += strlen(copy + i) + 1;
	}
	argv[argc] = NULL;
	err[0] = 0;
	rc = cli_parse(argc, argv, &o, err, sizeof(err));
	if (rc != 0 && rc != 2)
		abort();
	if (rc && (!err[0] || strchr(err, '\n')))
		abort();  /* a refusal says why, on one line */
	free(copy);
	return 0;
}
