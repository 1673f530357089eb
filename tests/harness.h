/*
 * A tiny test harness: tests register themselves, each ends PASS, FAIL (with
 * the failed condition and a message) or SKIP (with the reason the machine
 * cannot run it). The run ends with the line "N passed, N failed, N skipped".
 * Two lists: TEST(name) asserts logic only (synthetic timings, recorded
 * curves from tests/data/cpus/) and runs by default (`make test`);
 * VALIDATE(name) times real hardware, names the property of the CPU it
 * assumes and SKIPs where the machine lacks it; it runs only under
 * --validate (`make validate`), never in `make check`.
 */
#ifndef MLPSCOPE_TESTS_HARNESS_H
#define MLPSCOPE_TESTS_HARNESS_H

#include <stddef.h>
#include <stdio.h>

struct test_ctx {
	int failed;
	int skipped;
	char message[512];
};

typedef void (*test_fn)(struct test_ctx *tctx);

/* hardware: a VALIDATE check (runs only under --validate). */
void test_register(const char *name, test_fn fn, int hardware);
void test_fail(struct test_ctx *t, const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void test_skip(struct test_ctx *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs tests/toolchain.sh CHECK (from the repository root, where the tests
 * run): 0 when the optional tools behind CHECK work end to end; otherwise -1
 * with the script's reason ("CHECK: what is missing (tools/deps.sh --test
 * installs it)") in why, for the caller's SKIP. */
int test_toolchain(const char *check, char *why, size_t whylen);

/* Directory holding the mlpscope binary under test (next to the test binary). */
const char *test_bin_dir(void);

/* Entries in dir other than those starting with '.' (the temporaries a
 * writer might leave behind count), or -1 when dir cannot be opened. */
int test_count_entries(const char *dir);

/* Writes text to path (created or truncated): 0, or -1 on any failure. */
int test_write_text(const char *path, const char *text);

/* The whole of a text file, NUL-terminated (free it), or NULL. */
char *test_read_text(const char *path);

/* Copies file from to file to (created or truncated): 0, or -1. */
int test_copy_file(const char *from, const char *to);

/* Makes a fresh folder /tmp/mlpscope-TAG-XXXXXX and writes its path into
 * dir (dir[0] == 0 when mkdtemp fails). */
void test_scratch_make(char *dir, size_t len, const char *tag);

/* Removes dir and all below it, but only a folder test_scratch_make made
 * with the same tag; a folder left behind fails nothing. */
void test_scratch_remove(const char *dir, const char *tag);

#define TEST_REGISTERED(name, hardware)                                     \
	static void name(struct test_ctx *tctx);                            \
	__attribute__((constructor)) static void register_##name(void)      \
	{                                                                   \
		test_register(#name, name, hardware);                       \
	}                                                                   \
	static void name(struct test_ctx *tctx)

/* Logic only: deterministic on every CPU. */
#define TEST(name) TEST_REGISTERED(name, 0)
/* A hardware check: a short real run asserting a shape, with a SKIP naming
 * the missing property where this CPU cannot show it. */
#define VALIDATE(name) TEST_REGISTERED(name, 1)

#define CHECK(cond, ...)                                                    \
	do {                                                                \
		if (!(cond)) {                                              \
			test_fail(tctx, __FILE__, __LINE__, #cond, __VA_ARGS__); \
			return;                                             \
		}                                                           \
	} while (0)

#define SKIP(...)                                                           \
	do {                                                                \
		test_skip(tctx, __VA_ARGS__);                               \
		return;                                                     \
	} while (0)

#endif
