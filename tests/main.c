/*
 * Test runner.
 *   mlpscope-tests [--validate] [--host DIR] [--missing NAME,...] [--list]
 *                  [--hosts NAME,...] [--shard K/N] [SUBSTRING...] [-SUBSTRING...]
 * runs the tests whose name contains any SUBSTRING (all by default) and none
 * of the -SUBSTRINGs, in registration order: the logic tests (TEST), or with
 * --validate the hardware checks (VALIDATE) instead. A TEST reads the
 * recorded host TEST_HOST_DEFAULT (--host DIR: that one instead); a test
 * that read any host fact runs again on every other recorded host under
 * TEST_HOST_ROOTS, so the suite's verdict holds on each (a test that read
 * none gives the same verdict whatever the host). --missing host,binary,...
 * treats those prerequisites as missing (the qemu run); --hosts limits the
 * reruns to the recorded hosts whose folder names contain one of the NAMEs
 * (the qemu run: the per-host verdicts are C logic the native run already
 * gives on every host, and emulated they were a third of its time);
 * --shard K/N runs the Kth of every N selected tests (N processes at once
 * share the emulated run, which is serial and came last on check's longest
 * lane); --list prints each test with its prerequisites.
 */
#include "harness.h"

#include "core/clock.h"
#include "core/host.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 512
#define MAX_HOSTS 32

static struct {
	const char *name;
	test_fn fn;
	int hardware;
	unsigned needs;
	bool read_host;          /* asked the seam for a fact in its first run */
} tests[MAX_TESTS];
static int ntests;
static char bin_dir[4096];
static const char *current_host;   /* NULL: this machine */

static const char *const need_names[NEEDS_COUNT] = {"host", "binary", "programs", "libbz2", "native"};

void test_register(const char *name, test_fn fn, int hardware, unsigned needs)
{
	if (ntests < MAX_TESTS)
		tests[ntests++] = (typeof(tests[0])){name, fn, hardware, needs, false};
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

const char *test_host_dir(void)
{
	return current_host;
}

const struct clock_info *test_stub_clock(void)
{
	static const struct clock_info stub = {.source = "test stub", .invariant = 1, .ticks_per_ns = 1.0,
					       .resolution_ticks = 1};

	return &stub;
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

/* Options taking a value, skipped where test names are matched. */
static bool takes_value(const char *arg)
{
	return !strcmp(arg, "--host") || !strcmp(arg, "--missing") || !strcmp(arg, "--hosts") ||
	       !strcmp(arg, "--shard");
}

/* With no arguments every test runs; otherwise those whose name contains
 * any argument, less those containing an argument written -SUBSTRING. */
static bool selected(const char *name, int argc, char **argv)
{
	bool any_include = false, included = false;

	for (int a = 1; a < argc; a++) {
		if (takes_value(argv[a])) {
			a++;
			continue;
		}
		if (!strncmp(argv[a], "--", 2))
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

/* Which prerequisites are missing here, and why (empty: present). */
static char missing_why[NEEDS_COUNT][160];

static void find_missing(const char *missing_list, const char *substituted)
{
	char bin[4200];

	snprintf(bin, sizeof(bin), "%s/mlpscope", bin_dir);
	if (substituted)
		snprintf(missing_why[0], sizeof(missing_why[0]), "the host is replaced by %s (--host)", substituted);
	if (access(bin, X_OK))
		snprintf(missing_why[1], sizeof(missing_why[1]), "no %.100s (make builds it)", bin);
#ifndef HAVE_LIBBZ2
	snprintf(missing_why[3], sizeof(missing_why[3]), "built without libbz2 (tools/deps.sh installs libbz2-dev)");
#endif
	for (unsigned k = 0; missing_list && k < NEEDS_COUNT; k++) {
		const char *p = missing_list;
		size_t len = strlen(need_names[k]);

		while ((p = strstr(p, need_names[k]))) {
			if ((p == missing_list || p[-1] == ',') && (p[len] == ',' || !p[len]))
				snprintf(missing_why[k], sizeof(missing_why[k]), "--missing %s", missing_list);
			p += len;
		}
	}
}

/* The first prerequisite of needs missing here, -1 when none is. */
static int first_missing(unsigned needs)
{
	for (int k = 0; k < NEEDS_COUNT; k++)
		if ((needs & (1u << k)) && missing_why[k][0])
			return k;
	return -1;
}

static void format_needs(unsigned needs, char *out, size_t len)
{
	size_t used = 0;

	out[0] = 0;
	for (int k = 0; k < NEEDS_COUNT; k++)
		if (needs & (1u << k))
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "," : "", need_names[k]);
	if (!used)
		snprintf(out, len, "logic");
}

/* Point the seam and a child binary's MLPSCOPE_HOST at dir (NULL: this
 * machine). 0, or -1 with the reason printed. */
static int use_host(const char *dir)
{
	char err[512], abs[PATH_MAX];

	current_host = dir;
	if (!dir) {
		host_use_live();
		unsetenv("MLPSCOPE_HOST");
		return 0;
	}
	/* absolute: a test may run the binary from another folder */
	if (!realpath(dir, abs))
		snprintf(abs, sizeof(abs), "%s", dir);
	if (host_use_recorded(abs, err, sizeof(err))) {
		printf("FAIL recorded host %s\n     %s\n", dir, err);
		return -1;
	}
	setenv("MLPSCOPE_HOST", abs, 1);
	return 0;
}

struct tally {
	int passed, failed, skipped;
};

/* Run test i on the host the seam points at; quiet: print only a failure
 * (tagged with the host). */
static void run_one(int i, const char *recorded, bool quiet, struct tally *t)
{
	struct test_ctx c = {0};
	struct timespec a, b;
	unsigned long reads;
	int miss = first_missing(tests[i].needs);

	if (miss >= 0) {
		if (!quiet)
			printf("SKIP %s: needs %s: %s\n", tests[i].name, need_names[miss], missing_why[miss]);
		t->skipped += !quiet;
		return;
	}
	if (use_host(tests[i].needs & NEEDS_HOST ? NULL : recorded)) {
		t->failed++;
		return;
	}
	reads = host_reads();
	clock_gettime(CLOCK_MONOTONIC, &a);
	tests[i].fn(&c);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!(tests[i].needs & NEEDS_HOST) && host_reads() != reads)
		tests[i].read_host = true;
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;

	if (c.failed) {
		printf("FAIL %s%s%s (%.1f s)\n     %s\n", tests[i].name, quiet ? " on " : "", quiet ? recorded : "", s,
		       c.message);
		t->failed++;
	} else if (c.skipped) {
		if (!quiet)
			printf("SKIP %s: %s\n", tests[i].name, c.message);
		t->skipped += !quiet;
	} else {
		if (!quiet)
			printf("PASS %s (%.1f s)%s%s\n", tests[i].name, s, c.message[0] ? ": " : "", c.message);
		t->passed++;
	}
}

static int compare_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* ROOT/<entry>/host for every entry of each root that has one, sorted. */
static int list_hosts(char (*out)[320], int cap)
{
	static const char *const roots[] = TEST_HOST_ROOTS;
	int n = 0;

	for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		DIR *d = opendir(roots[r]);
		struct dirent *e;

		while (d && (e = readdir(d)) && n < cap) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(out[n], sizeof(out[n]), "%s/%.64s/host", roots[r], e->d_name);
			n += !access(out[n], R_OK);
		}
		if (d)
			closedir(d);
	}
	qsort(out, (size_t)n, sizeof(out[0]), compare_str);
	return n;
}

/* Whether the host folder path names one of the comma-separated names
 * (every host when names is NULL). */
static bool host_wanted(const char *path, const char *names)
{
	char list[256], *save = NULL;

	if (!names)
		return true;
	snprintf(list, sizeof(list), "%s", names);
	for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
		if (*name && strstr(path, name))
			return true;
	return false;
}

static bool any_host_wanted(char (*hosts)[320], int nhosts, const char *wanted)
{
	for (int h = 0; h < nhosts; h++)
		if (host_wanted(hosts[h], wanted))
			return true;
	return false;
}

/* Every test that read a host fact, once more on each other recorded host
 * that `wanted` names: one line per host, a line per failure. */
static void run_on_every_host(const char *first, const char *wanted, struct tally *t)
{
	static char hosts[MAX_HOSTS][320];
	int nhosts = list_hosts(hosts, MAX_HOSTS), nread = 0;

	for (int i = 0; i < ntests; i++)
		nread += tests[i].read_host;
	if (!nread)
		return;
	printf("the tests that read the host, again on every recorded host:");
	for (int i = 0; i < ntests; i++)
		if (tests[i].read_host)
			printf(" %s", tests[i].name);
	printf("\n");

	if (wanted && !any_host_wanted(hosts, nhosts, wanted)) {
		printf("FAIL --hosts %s: no recorded host's folder name contains it\n", wanted);
		t->failed++;
		return;
	}
	for (int h = 0; h < nhosts; h++) {
		struct tally ht = {0};
		struct timespec a, b;
		int n = 0;

		if (!strcmp(hosts[h], first) || !host_wanted(hosts[h], wanted))
			continue;
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (int i = 0; i < ntests; i++)
			if (tests[i].read_host) {
				run_one(i, hosts[h], true, &ht);
				n++;
			}
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("%s on %s: the %d tests that read the host (%.1f s)\n", ht.failed ? "FAIL" : "PASS", hosts[h], n,
		       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
		t->passed += ht.passed;
		t->failed += ht.failed;
	}
}

/* --shard K/N: 1 <= K <= N <= 64; 0 after an error message. */
static int parse_shard(const char *arg, unsigned *k, unsigned *n)
{
	char *end;
	unsigned long kk = strtoul(arg, &end, 10), nn = 0;

	if (*end == '/')
		nn = strtoul(end + 1, &end, 10);
	if (*end || kk < 1 || nn < kk || nn > 64) {
		fprintf(stderr, "mlpscope-tests: --shard %s: expected K/N with 1 <= K <= N <= 64\n", arg);
		return 0;
	}
	*k = (unsigned)kk;
	*n = (unsigned)nn;
	return 1;
}

int main(int argc, char **argv)
{
	struct tally t = {0};
	int hardware = 0, list = 0;
	const char *host = NULL, *missing = NULL, *rerun_hosts = NULL;
	char self[4096];
	unsigned shard = 1, shards = 1, nth = 0;

	for (int a = 1; a < argc; a++) {
		hardware |= !strcmp(argv[a], "--validate");
		list |= !strcmp(argv[a], "--list");
		if (takes_value(argv[a]) && a + 1 >= argc) {
			fprintf(stderr, "mlpscope-tests: %s needs a value\n", argv[a]);
			return 2;
		}
		if (!strcmp(argv[a], "--host"))
			host = argv[++a];
		else if (!strcmp(argv[a], "--missing"))
			missing = argv[++a];
		else if (!strcmp(argv[a], "--hosts"))
			rerun_hosts = argv[++a];
		else if (!strcmp(argv[a], "--shard") && !parse_shard(argv[++a], &shard, &shards))
			return 2;
	}

	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(bin_dir, sizeof(bin_dir), "%s", dirname(self));
	setvbuf(stdout, NULL, _IOLBF, 0);
	find_missing(missing, host);
	for (int i = 0; i < ntests; i++) {
		char needs[64];

		if (tests[i].hardware != hardware || !selected(tests[i].name, argc, argv) || nth++ % shards != shard - 1)
			continue;
		format_needs(tests[i].needs, needs, sizeof(needs));
		if (list)
			printf("%s %s\n", tests[i].name, needs);
		else
			run_one(i, host ? host : TEST_HOST_DEFAULT, false, &t);
	}
	if (list)
		return 0;
	if (!hardware && !host)
		run_on_every_host(TEST_HOST_DEFAULT, rerun_hosts, &t);
	printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
	return t.failed ? 1 : 0;
}
