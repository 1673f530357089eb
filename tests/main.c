/*
 * Test runner. `mlpscope-tests [--validate] [SUBSTRING...] [-SUBSTRING...]`
 * runs the tests whose name contains any SUBSTRING (all by default) and none
 * of the -SUBSTRINGs, in registration order: the logic tests (TEST), or with
 * --validate the hardware checks (VALIDATE) instead.
 */
#include "harness.h"

#include <dirent.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TESTS 512

static struct {
	const char *name;
	test_fn fn;
	int hardware;
} tests[MAX_TESTS];
static int ntests;
static char bin_dir[4096];

void test_register(const char *name, test_fn fn, int hardware)
{
	if (ntests < MAX_TESTS)
		tests[ntests++] = (typeof(tests[0])){name, fn, hardware};
}

void test_fail(struct test_ctx *t, const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(t->message, sizeof(t->message), "%s:%d: %s: ", file, line, cond);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(t->message))
		vsnprintf(t->message + n, sizeof(t->message) - (size_t)n, fmt, ap);
	va_end(ap);
	t->failed = 1;
}

void test_skip(struct test_ctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof(t->message), fmt, ap);
	va_end(ap);
	t->skipped = 1;
}

int test_toolchain(const char *check, char *why, size_t whylen)
{
	char cmd[256], line[512] = "";
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "tests/toolchain.sh %s 2>&1", check);
	if (!(p = popen(cmd, "r"))) {
		snprintf(why, whylen, "%s: cannot run tests/toolchain.sh", check);
		return -1;
	}
	if (!fgets(line, sizeof(line), p))
		line[0] = 0;
	while (fgetc(p) != EOF)
		;
	st = pclose(p);
	if (st == 0)
		return 0;
	line[strcspn(line, "\n")] = 0;
	snprintf(why, whylen, "%s", strncmp(line, "SKIP ", 5) ? line : line + 5);
	if (!why[0])
		snprintf(why, whylen, "%s: tests/toolchain.sh failed with status %d", check, st);
	return -1;
}

const char *test_bin_dir(void)
{
	return bin_dir;
}

int test_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

int test_write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

char *test_read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = calloc(1, (size_t)len + 1)) && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int test_copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *i = fopen(from, "rb"), *o = fopen(to, "wb");
	size_t n;
	int rc = i && o ? 0 : -1;

	while (!rc && (n = fread(buf, 1, sizeof(buf), i)) > 0)
		rc = fwrite(buf, 1, n, o) == n ? 0 : -1;
	if (i)
		fclose(i);
	if (o && fclose(o))
		rc = -1;
	return rc;
}

void test_scratch_make(char *dir, size_t len, const char *tag)
{
	snprintf(dir, len, "/tmp/mlpscope-%s-XXXXXX", tag);
	if (!mkdtemp(dir))
		dir[0] = 0;
}

void test_scratch_remove(const char *dir, const char *tag)
{
	char prefix[64], cmd[4200];
	int n = snprintf(prefix, sizeof(prefix), "/tmp/mlpscope-%s-", tag);

	/* Only what test_scratch_make made: an rm -rf never reaches further. */
	if (n <= 0 || (size_t)n >= sizeof(prefix) || !dir[0] || strncmp(dir, prefix, (size_t)n))
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
		/* a scratch folder left behind fails nothing */
	}
}

/* With no arguments every test runs; otherwise those whose name contains
 * any argument, less those containing an argument written -SUBSTRING. */
static bool selected(const char *name, int argc, char **argv)
{
	bool any_include = false, included = false;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--validate"))
			continue;
		if (argv[a][0] == '-') {
			if (strstr(name, argv[a] + 1))
				return false;
			continue;
		}
		any_include = true;
		included = included || strstr(name, argv[a]);
	}
	return !any_include || included;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0;
	int hardware = 0;
	char self[4096];

	for (int a = 1; a < argc; a++)
		hardware |= !strcmp(argv[a], "--validate");

	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(bin_dir, sizeof(bin_dir), "%s", dirname(self));
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < ntests; i++) {
		struct test_ctx t = {0};
		struct timespec a, b;

		if (tests[i].hardware != hardware || !selected(tests[i].name, argc, argv))
			continue;
		clock_gettime(CLOCK_MONOTONIC, &a);
		tests[i].fn(&t);
		clock_gettime(CLOCK_MONOTONIC, &b);
		double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;

		if (t.failed) {
			printf("FAIL %s (%.1f s)\n     %s\n", tests[i].name, s, t.message);
			failed++;
		} else if (t.skipped) {
			printf("SKIP %s: %s\n", tests[i].name, t.message);
			skipped++;
		} else {
			printf("PASS %s (%.1f s)%s%s\n", tests[i].name, s, t.message[0] ? ": " : "", t.message);
			passed++;
		}
	}
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
