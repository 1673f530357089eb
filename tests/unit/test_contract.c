/*
 * The test contract, checked as code (harness.h states it): a TEST that
 * opens /sys or /proc, runs build/mlpscope or another program, times this
 * machine or runs threads on its CPUs declares the prerequisite that says
 * so (NEEDS_HOST, NEEDS_BINARY or NEEDS_PROGRAMS), directly or through a
 * helper of its file it calls; and in src/ only the host seam (core/host*.c)
 * and the ISA's instructions (arch/) ask the machine anything. Both checks
 * read the source text: a call through a pointer or another file's helper
 * is not followed, so each file's own helpers are where such calls live.
 * This file's planted cases are string literals, so it is not scanned.
 */
#include "../harness.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a token in a test's body (or a helper's it calls) needs. Call
 * tokens are sought outside string literals, paths inside them. */
static const struct {
	const char *token;
	bool in_string;
	unsigned needs;          /* any one of these bits satisfies it */
	const char *what;
} touches[] = {
	{NULL, true, NEEDS_HOST, "opens a /sys or /proc file"},  /* see opens_host_path */
	{"clock_init(", false, NEEDS_HOST, "calibrates this machine's clock"},
	{"team_run(", false, NEEDS_HOST, "runs threads on this machine's CPUs"},
	{"pmu_group_open(", false, NEEDS_HOST, "opens perf events"},
	{"topo_pin(", false, NEEDS_HOST, "pins to this machine's CPUs"},
	{"test_binary(", false, NEEDS_BINARY, "runs build/mlpscope"},
	{"test_run(", false, NEEDS_BINARY | NEEDS_PROGRAMS, "runs a program"},
	{"/mlpscope\"", true, NEEDS_BINARY, "runs build/mlpscope"},
	{"/mlpscope ", true, NEEDS_BINARY, "runs build/mlpscope"},
	{"popen(", false, NEEDS_BINARY | NEEDS_PROGRAMS, "runs a program"},
	{"system(", false, NEEDS_BINARY | NEEDS_PROGRAMS, "runs a program"},
	{"execv", false, NEEDS_BINARY | NEEDS_PROGRAMS, "runs a program"},
	{"test_toolchain(", false, NEEDS_PROGRAMS, "runs a host tool"},
};
#define NTOUCHES (sizeof(touches) / sizeof(touches[0]))

#define MAX_UNITS 256

/* A top-level function or test of one file, with what its body touches. */
struct unit {
	char name[96];
	bool test, validate;
	unsigned declared;       /* NEEDS_* on TEST(name, ...) */
	unsigned long touched;   /* bit k: touches[k] appears in the body */
	char *body;
};

static const struct {
	const char *name;
	unsigned bit;
} need_words[] = {
	{"NEEDS_HOST", NEEDS_HOST}, {"NEEDS_BINARY", NEEDS_BINARY}, {"NEEDS_PROGRAMS", NEEDS_PROGRAMS},
	{"NEEDS_LIBBZ2", NEEDS_LIBBZ2}, {"NEEDS_NATIVE", NEEDS_NATIVE},
};

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)))
		len = fread(buf, 1, (size_t)n, f);
	fclose(f);
	if (buf)
		buf[len] = 0;
	return buf;
}

/* The identifier a top-level line defines: TEST(x...) / VALIDATE(x), or
 * the name before the first '(' of a function header. */
static bool unit_header(const char *line, struct unit *u)
{
	const char *p, *open = strchr(line, '(');

	memset(u, 0, sizeof(*u));
	if (!open || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '/' || line[0] == '*' ||
	    strchr(line, ';') || strchr(line, '='))
		return false;
	if (!strncmp(line, "TEST(", 5) || !strncmp(line, "VALIDATE(", 9)) {
		u->test = true;
		u->validate = line[0] == 'V';
		p = open + 1;
		snprintf(u->name, sizeof(u->name), "%.*s", (int)strcspn(p, ",)"), p);
		for (size_t i = 0; i < sizeof(need_words) / sizeof(need_words[0]); i++)
			if (strstr(line, need_words[i].name))
				u->declared |= need_words[i].bit;
		return true;
	}
	for (p = open; p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_');)
		p--;
	if (p == open)
		return false;
	snprintf(u->name, sizeof(u->name), "%.*s", (int)(open - p), p);
	return true;
}

/* The "{" line that opens the body of a header at line: the next line, or
 * after the header's continuation lines (a parameter list over several
 * lines, each indented); NULL when there is none. */
static char *body_open(char *line)
{
	char *next = strchr(line, '\n');

	for (int k = 0; next && k < 4; k++) {
		if (next[1] == '{')
			return next + 1;
		if (next[1] != '\t' && next[1] != ' ')
			return NULL;
		next = strchr(next + 1, '\n');
	}
	return NULL;
}

/* Split src into its top-level units: a header line at column 0, its body
 * up to the next line that is "}" alone. Returns how many. */
static int split_units(char *src, struct unit *units, int cap)
{
	int n = 0;
	char *line = src;

	while (line && *line && n < cap) {
		char *next = strchr(line, '\n'), *open, *end;
		struct unit u;
		bool header;

		if (next)
			*next = 0;
		header = unit_header(line, &u);
		if (next)
			*next = '\n';
		if (header && (open = body_open(line))) {
			end = strstr(open, "\n}\n");
			u.body = line;
			if (end)
				end[1] = 0;
			units[n++] = u;
			line = end ? end + 3 : NULL;
			continue;
		}
		line = next ? next + 1 : NULL;
	}
	return n;
}

/* Whether body calls name: the identifier, not part of a longer one, then '('. */
static bool calls(const char *body, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = body; (p = strstr(p, name)); p += len)
		if ((p == body || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) && p[len] == '(')
			return true;
	return false;
}

/* body with every string literal's contents blanked: calls, not text. */
static char *code_only(const char *body)
{
	char *c = strdup(body);
	bool in = false;

	for (char *p = c; c && *p; p++) {
		if (*p == '\\' && in && p[1]) {
			*p++ = ' ';
			*p = ' ';
		} else if (*p == '"' && !(p > c && p[-1] == '\'')) {
			in = !in;
		} else if (in) {
			*p = ' ';
		}
	}
	return c;
}

/* A /sys or /proc path in a literal and a call that opens or probes a path
 * in the same body: a direct read of this machine's files. */
static bool opens_host_path(const char *body, const char *code)
{
	static const char *const openers[] = {"fopen", "open", "opendir", "access", "stat", "readlink"};

	if (!strstr(body, "\"/sys") && !strstr(body, "\"/proc"))
		return false;
	for (size_t i = 0; i < sizeof(openers) / sizeof(openers[0]); i++)
		if (calls(code, openers[i]))
			return true;
	return false;
}

/* Each unit's own tokens, then what the helpers it calls touch, to a fixed
 * point (helpers calling helpers). */
static void propagate(struct unit *u, int n)
{
	bool changed = true;

	for (int i = 0; i < n; i++) {
		const char *body = u[i].body + strlen(u[i].name);
		char *code = code_only(body);

		for (size_t k = 0; code && k < NTOUCHES; k++)
			if (touches[k].token ? strstr(touches[k].in_string ? body : code, touches[k].token) != NULL
					     : opens_host_path(body, code))
				u[i].touched |= 1ul << k;
		free(code);
	}
	while (changed) {
		changed = false;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				if (i != j && !u[j].test && (u[i].touched | u[j].touched) != u[i].touched &&
				    calls(u[i].body + strlen(u[i].name) + 1, u[j].name)) {
					u[i].touched |= u[j].touched;
					changed = true;
				}
	}
}

/* The TESTs of one file that touch the host without the prerequisite:
 * how many, the first described in why. */
static int check_file(const char *path, const char *label, char *why, size_t whylen, FILE *each)
{
	static struct unit units[MAX_UNITS];
	char *src = read_all(path);
	int n, bad = 0;

	if (!src) {
		snprintf(why, whylen, "%.200s: %s", path, strerror(errno));
		return 1;
	}
	n = split_units(src, units, MAX_UNITS);
	propagate(units, n);
	for (int i = 0; i < n; i++) {
		if (!units[i].test || units[i].validate)
			continue;
		for (size_t k = 0; k < NTOUCHES; k++)
			if ((units[i].touched & (1ul << k)) && !(units[i].declared & touches[k].needs)) {
				if (each)
					fprintf(each, "     %s: TEST(%s) %s\n", label, units[i].name, touches[k].what);
				if (!bad++)
					snprintf(why, whylen, "%.120s: TEST(%.95s) %s without declaring %s", label,
						 units[i].name, touches[k].what,
						 touches[k].needs & NEEDS_HOST ? "NEEDS_HOST"
						 : touches[k].needs & NEEDS_PROGRAMS && !(touches[k].needs & NEEDS_BINARY)
							 ? "NEEDS_PROGRAMS"
							 : "NEEDS_BINARY or NEEDS_PROGRAMS");
				break;
			}
	}
	free(src);
	return bad;
}

/* Every .c file in tests/ and tests/unit/ under root but this file and the
 * runner's own: how many TESTs break the contract, the first in why. */
static int check_tests(const char *root, char *why, size_t whylen, FILE *each)
{
	static const char *const dirs[] = {"tests", "tests/unit"};
	int bad = 0;

	for (size_t d = 0; d < 2; d++) {
		char dir[PATH_MAX];
		DIR *dh;
		struct dirent *e;

		snprintf(dir, sizeof(dir), "%s/%s", root, dirs[d]);
		if (!(dh = opendir(dir)))
			continue;
		while ((e = readdir(dh))) {
			size_t len = strlen(e->d_name);
			char path[PATH_MAX + 300], label[300], one[512] = "";
			int k;

			if (len < 3 || strcmp(e->d_name + len - 2, ".c") || !strcmp(e->d_name, "test_contract.c") ||
			    !strcmp(e->d_name, "main.c"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			snprintf(label, sizeof(label), "%s/%s", dirs[d], e->d_name);
			if ((k = check_file(path, label, one, sizeof(one), each)) && !bad)
				snprintf(why, whylen, "%s", one);
			bad += k;
		}
		closedir(dh);
	}
	return bad;
}

TEST(every_test_that_touches_the_host_declares_it)
{
	char why[600] = "";
	int bad = check_tests(".", why, sizeof(why), stdout);

	CHECK(bad == 0, "%d test(s) against the contract, first: %s", bad, why);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%.200s/%.100s", dir, name);
	if (test_write_text(path, text)) {
		/* the checks below then find nothing and fail */
	}
}

/* The check fires on each kind of planted violation, through a helper too,
 * and a declared prerequisite (or a VALIDATE) quiets it. */
TEST(contract_check_finds_a_planted_violation)
{
	static const char *const bad[] = {
		"TEST(reads_sysfs)\n{\n\tFILE *f = fopen(\"/sys/devices/system/cpu/cpu0/cache/index0/size\", \"r\");\n}\n",
		"static int run_bin(const char *a)\n{\n\tchar cmd[64];\n\n\tsnprintf(cmd, 64, \"%s/mlpscope %s\", "
		"test_bin_dir(), a);\n\treturn system(cmd);\n}\n\nTEST(runs_the_binary)\n{\n\tCHECK(run_bin(\"--help\") == 0, "
		"\"x\");\n}\n",
		"static void calibrate(void)\n{\n\tclock_init(&c);\n}\n\nstatic void setup(void)\n{\n\tcalibrate();\n}\n\n"
		"TEST(times_this_machine)\n{\n\tsetup();\n}\n",
		"TEST(opens_proc)\n{\n\tFILE *f = fopen(\"/proc/meminfo\", \"r\");\n}\n",
		"static void check_tool(struct test_ctx *tctx, const char *tool,\n\t\t       const char *arch)\n{\n"
		"\tif (test_toolchain(tool, why, sizeof(why)))\n\t\treturn;\n}\n\nTEST(uses_a_tool)\n{\n\tcheck_tool(tctx, "
		"\"objdump\", \"x\");\n}\n",
	};
	static const char *const good =
		"TEST(reads_sysfs, NEEDS_HOST)\n{\n\tFILE *f = fopen(\"/sys/kernel/mm/x\", \"r\");\n}\n\n"
		"TEST(runs_it, NEEDS_BINARY)\n{\n\tsystem(\"build/mlpscope --help\");\n}\n\n"
		"VALIDATE(times_it)\n{\n\tclock_init(&c);\n}\n\n"
		"static int calls_nothing(void)\n{\n\treturn 0;\n}\n\nTEST(pure)\n{\n\tcalls_nothing();\n}\n";
	char root[256], unit[PATH_MAX], why[600];

	test_scratch_make(root, sizeof(root), "contract");
	CHECK(root[0], "mkdtemp");
	snprintf(unit, sizeof(unit), "%s/tests", root);
	CHECK(!mkdir(unit, 0700), "mkdir %s", unit);
	snprintf(unit, sizeof(unit), "%s/tests/unit", root);
	CHECK(!mkdir(unit, 0700), "mkdir %s", unit);
	put(unit, "test_planted.c", good);
	CHECK(check_tests(root, why, sizeof(why), NULL) == 0, "declared prerequisites flagged: %s", why);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[2048];

		snprintf(text, sizeof(text), "%s\n%s", good, bad[i]);
		put(unit, "test_planted.c", text);
		why[0] = 0;
		CHECK(check_tests(root, why, sizeof(why), NULL) == 1, "planted case %zu not found exactly once: %s", i, why);
		CHECK(strstr(why, "test_planted.c: TEST("), "case %zu: %s", i, why);
	}
	test_scratch_remove(root, "contract");
	snprintf(tctx->message, sizeof(tctx->message), "last: %.500s", why);
}

/* ---- src/: the seam is the only way to the machine ---- */

/* Calls that ask the machine a fact; outside the seam and arch/ they break
 * the rule whatever their argument. */
static const char *const asks[] = {"sched_getaffinity(", "sysconf(", "getauxval(", "__cpuid", "__get_cpuid"};
/* Files open a path here; with a "/proc or "/sys literal in the same file,
 * that file reads the machine around the seam. */
static const char *const opens[] = {"fopen", "opendir", "open", "popen"};

static bool seam_file(const char *rel)
{
	return !strncmp(rel, "core/host", 9) || !strncmp(rel, "arch/", 5);
}

static int check_src_dir(const char *root, const char *rel, char *why, size_t whylen)
{
	char dir[PATH_MAX];
	DIR *d;
	struct dirent *e;
	int bad = 0;

	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	if (!(d = opendir(dir)))
		return 0;
	while ((e = readdir(d))) {
		char sub[PATH_MAX], path[PATH_MAX * 2], *src;
		size_t len = strlen(e->d_name);
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
		snprintf(path, sizeof(path), "%s/%s", root, sub);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			bad += check_src_dir(root, sub, why, whylen);
			continue;
		}
		if (len < 3 || strcmp(e->d_name + len - 2, ".c") || seam_file(sub) || !(src = read_all(path)))
			continue;
		for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++)
			if (strstr(src, asks[i]) && !bad++)
				snprintf(why, whylen, "src/%.200s calls %s: ask core/host.h instead", sub, asks[i]);
		if (strstr(src, "\"/proc") || strstr(src, "\"/sys"))
			for (size_t i = 0; i < sizeof(opens) / sizeof(opens[0]); i++)
				if (calls(src, opens[i])) {
					if (!bad++)
						snprintf(why, whylen, "src/%.200s names /proc or /sys and calls %s: read "
							 "it through core/host.h", sub, opens[i]);
					break;
				}
		free(src);
	}
	closedir(d);
	return bad;
}

TEST(src_reads_the_machine_only_through_the_host_seam)
{
	char why[400] = "";
	int bad = check_src_dir("src", "", why, sizeof(why));

	CHECK(bad == 0, "%d file(s) around the seam, first: %s", bad, why);
}

TEST(seam_check_finds_a_planted_reader)
{
	char root[256], path[PATH_MAX], why[400] = "";

	test_scratch_make(root, sizeof(root), "seam");
	CHECK(root[0], "mkdtemp");
	snprintf(path, sizeof(path), "%s/core", root);
	CHECK(!mkdir(path, 0700), "mkdir");
	put(path, "host.c", "FILE *f = fopen(\"/proc/cpuinfo\", \"r\");\n");
	put(path, "topo.c", "int n = host_online_cpus();\n");
	CHECK(check_src_dir(root, "", why, sizeof(why)) == 0, "the seam itself flagged: %s", why);
	put(path, "topo.c", "FILE *f = fopen(\"/proc/cpuinfo\", \"r\");\n");
	CHECK(check_src_dir(root, "", why, sizeof(why)) == 1 && strstr(why, "core/topo.c"), "a direct read: %s", why);
	put(path, "topo.c", "long n = sysconf(_SC_NPROCESSORS_ONLN);\n");
	CHECK(check_src_dir(root, "", why, sizeof(why)) == 1 && strstr(why, "sysconf"), "a direct count: %s", why);
	test_scratch_remove(root, "seam");
}
