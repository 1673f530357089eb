/*
 * Running the mlpscope binary from a test: the output captured whole, the
 * exit status and the wall time. Test code only.
 */
#ifndef MLPSCOPE_TESTS_SPAWN_H
#define MLPSCOPE_TESTS_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

struct test_run {
	int status;          /* the exit status; 128 + signal when killed */
	double seconds;
	char *out;           /* stdout (and stderr when asked), NUL-terminated; free() it */
	size_t len;
};

/* Run argv (argv[0] a path, argv NULL-terminated) with stdin from
 * /dev/null, stdout captured, and stderr into the same capture when
 * with_stderr (else left as the test's). 0, or -1 when it could not start. */
int test_run(char *const argv[], bool with_stderr, struct test_run *r);

/* The path of the mlpscope binary under test, into buf. */
void test_binary(char *buf, size_t len);

#endif
