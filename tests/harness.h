/*
 * A tiny test harness: tests register themselves, each ends PASS, FAIL (with
 * the failed condition and a message) or SKIP (with the reason the machine
 * cannot run it). The run ends with the line "N passed, N failed, N skipped".
 * Two lists: TEST(name) asserts logic and runs by default (`make test`);
 * VALIDATE(name) times real hardware, names the property of the CPU it
 * assumes and SKIPs where the machine lacks it; it runs only under
 * --validate (`make validate`), never in `make check`.
 *
 * The test contract: a TEST never touches the machine it runs on. Host facts
 * (sysfs, procfs, CPUID, the CPUs, THP, perf) come from the recorded host the
 * runner points the seam at (core/host.h; tests/data/cpus/<cpu>/host, and
 * MLPSCOPE_HOST for a child binary), timings from synthetic data or recorded
 * curves. A test that must do more declares it, like git's test_have_prereq:
 * TEST(name, NEEDS_HOST | NEEDS_BINARY). The runner gives it what it needs
 * (a NEEDS_HOST test reads this machine, not a recording) or SKIPs it naming
 * the prerequisite missing here; the qemu run of `make check` selects by the
 * same properties (--missing). tests/unit/test_contract.c fails when a test
 * opens /sys or /proc, runs a program or times this machine without the
 * prerequisite that says so.
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

/* Prerequisites a test declares (names as --missing and --list spell them). */
#define NEEDS_HOST     (1u << 0) /* "host": this machine itself: perf_event_open, its CPUs and threads, a
                                  * calibrated clock, a wall-clock bound; the seam reads it live */
#define NEEDS_BINARY   (1u << 1) /* "binary": runs build/mlpscope (whose facts still come from MLPSCOPE_HOST) */
#define NEEDS_PROGRAMS (1u << 2) /* "programs": runs a host program (python3, make, valgrind, objdump ...) */
#define NEEDS_LIBBZ2   (1u << 3) /* "libbz2": the decoder's reference library, linked only where found */
#define NEEDS_NATIVE   (1u << 4) /* "native": this build's own ISA at native speed (not under qemu) */
#define NEEDS_COUNT    5

/* hardware: a VALIDATE check (runs only under --validate); needs: NEEDS_*. */
void test_register(const char *name, test_fn fn, int hardware, unsigned needs);
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

/* The recorded host the current test reads (the seam's folder), NULL while
 * a NEEDS_HOST test reads this machine. */
const char *test_host_dir(void);

struct clock_info;

/* A clock for logic tests: CLOCK_MONOTONIC_RAW's nanoseconds as ticks, no
 * calibration, nothing measured (the figures it times are never asserted). */
const struct clock_info *test_stub_clock(void);

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

/* The recorded host a TEST reads unless the runner is given --host: this
 * project's own machine (docs/VALIDATION.md, the Zen 3 guest). */
#define TEST_HOST_DEFAULT "tests/data/cpus/amd-epyc-f25-m1/host"

/* Every recorded host the suite is run against: the corpus's CPUs, then the
 * hand-made hostile ones (caches absent, CPUID zero, one CPU, 1024 CPUs, no
 * THP, no perf, an AArch64 host). */
#define TEST_HOST_ROOTS {"tests/data/cpus", "tests/data/hosts"}

#define TEST_REGISTERED(name, hardware, needs)                              \
	static void name(struct test_ctx *tctx);                            \
	__attribute__((constructor)) static void register_##name(void)      \
	{                                                                   \
		test_register(#name, name, hardware, needs);                \
	}                                                                   \
	static void name(struct test_ctx *tctx)

/* TEST(name) is logic: the same verdict on every CPU and every recorded
 * host. TEST(name, NEEDS_...) declares what more it needs. */
#define TEST(...) TEST_NEEDS_(__VA_ARGS__, 0u, 0u)
#define TEST_NEEDS_(name, needs, ...) TEST_REGISTERED(name, 0, needs)
/* A hardware check: a short real run asserting a shape, with a SKIP naming
 * the missing property where this CPU cannot show it. Reads this machine. */
#define VALIDATE(name) TEST_REGISTERED(name, 1, NEEDS_HOST)

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
