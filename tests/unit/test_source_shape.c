/*
 * The source text's shape, checked as code: no function in src/ over
 * MAX_FUNCTION_LINES lines outside generated code (kern/ *.gen.c), and no
 * comment naming a machine (a CPU's code name) or an issue number: a
 * comment says the hardware fact, and where a figure was fitted the
 * recorded guest in docs/VALIDATION.md says which machine it was.
 *
 * A function body is read in the tree's own style: its "{" and its "}"
 * alone on a line at column 0; its length counts both.
 */
#include "../harness.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FUNCTION_LINES 100

/* CPU code names a comment must not carry (matched as words, any case
 * for the first letter is the tree's own). "Zen" counts only with a
 * generation after it. */
static const char *const machine_names[] = {
	"Ice Lake", "Emerald Rapids", "Sapphire Rapids", "Granite Rapids",
	"Golden Cove", "Sunny Cove", "Raptor Lake", "Raptor Cove",
	"Alder Lake", "Skylake", "Cascade Lake", "Cooper Lake", "Broadwell",
	"Haswell", "Milan", "Genoa", "Turin", "Bergamo", "Neoverse",
};

static bool is_word_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The name of the function whose body opens at text line start: the
 * identifier before the first "(" in the lines above it. */
static void function_name(const char *text, const char *open, char *out, size_t len)
{
	const char *head = open, *paren = NULL, *begin;

	/* back over the header's lines: each starts with a word or a tab */
	for (int lines = 0; head > text && lines < 5; lines++) {
		const char *start = head - 1;

		while (start > text && start[-1] != '\n')
			start--;
		if (!(is_word_char(*start) || *start == '\t'))
			break;
		head = start;
	}
	for (const char *p = head; p < open && !paren; p++)
		if (*p == '(')
			paren = p;
	snprintf(out, len, "?");
	if (!paren)
		return;
	begin = paren;
	while (begin > text && is_word_char(begin[-1]))
		begin--;
	snprintf(out, len, "%.*s", (int)(paren - begin), begin);
}

/* The longest function body in text: its length in lines (0 with none),
 * its name into name. Bodies longer than limit that aren't allowed (by
 * allowed(name), may be NULL) are written into bad, one "name (N lines)"
 * each; returns their count. */
static int long_functions(const char *text, int limit, bool (*allowed)(const char *file, const char *name),
			  const char *file, char *bad, size_t badlen)
{
	const char *open = NULL;
	int line = 1, open_line = 0, count = 0;

	for (const char *p = text; *p; p++) {
		bool at_start = p == text || p[-1] == '\n';

		if (at_start && p[0] == '{' && (p[1] == '\n' || !p[1])) {
			open = p;
			open_line = line;
		} else if (at_start && p[0] == '}' && (p[1] == '\n' || !p[1]) && open) {
			int n = line - open_line + 1;
			char name[96];

			function_name(text, open, name, sizeof(name));
			if (n > limit && !(allowed && allowed(file, name))) {
				size_t used = strlen(bad);

				snprintf(bad + used, badlen - used, "%s%s: %s (%d lines)", used ? "; " : "", file, name, n);
				count++;
			}
			open = NULL;
		}
		if (*p == '\n')
			line++;
	}
	return count;
}

/* A forbidden name in comment text c (length n), or NULL: a machine's
 * code name, "Zen" with a generation, or "issue" with a number. */
static const char *forbidden_in(const char *c, size_t n, char *out, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		if (i && is_word_char(c[i - 1]))
			continue;
		for (size_t k = 0; k < sizeof(machine_names) / sizeof(machine_names[0]); k++) {
			size_t m = strlen(machine_names[k]);

			if (i + m <= n && !strncmp(c + i, machine_names[k], m) && (i + m == n || !is_word_char(c[i + m]))) {
				snprintf(out, len, "%s", machine_names[k]);
				return out;
			}
		}
		if (i + 4 < n && !strncmp(c + i, "Zen", 3)) {
			size_t j = i + 3;

			if (c[j] == ' ' || c[j] == '-')
				j++;
			if (j < n && c[j] >= '0' && c[j] <= '9') {
				snprintf(out, len, "%.*s", (int)(j + 1 - i), c + i);
				return out;
			}
		}
		if (i + 6 < n && !strncasecmp(c + i, "issue", 5)) {
			size_t j = i + 5;

			while (j < n && (c[j] == ' ' || c[j] == '#'))
				j++;
			if (j > i + 5 && j < n && c[j] >= '0' && c[j] <= '9') {
				snprintf(out, len, "%.*s", (int)(j + 1 - i), c + i);
				return out;
			}
		}
	}
	return NULL;
}

/* The first forbidden name in text's comments (/ * * / and //, strings
 * skipped), into out with its line; NULL when there is none. */
static const char *comment_naming_machine(const char *text, char *out, size_t len, int *at_line)
{
	int line = 1;

	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			line++;
		} else if (*p == '"' || *p == '\'') {
			char q = *p;

			for (p++; *p && *p != q && *p != '\n'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				break;
			if (*p == '\n')
				line++;
		} else if (p[0] == '/' && (p[1] == '*' || p[1] == '/')) {
			const char *end = p[1] == '*' ? strstr(p + 2, "*/") : strchr(p, '\n');

			if (!end)
				end = p + strlen(p);
			if (forbidden_in(p, (size_t)(end - p), out, len)) {
				*at_line = line;
				return out;
			}
			for (; p < end; p++)
				if (*p == '\n')
					line++;
			if (!*p)
				break;
		}
	}
	return NULL;
}

struct scan_state {
	char long_bad[4096];
	int nlong;
	char named[512];
	int nnamed;
	int nfiles;
};

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* Every .c and .h under dir (rel its path under src/), bzip2/ aside (a
 * library kept in its own shape), into st. */
static void scan_tree(const char *dir, const char *rel, struct scan_state *st)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char full[PATH_MAX], sub[PATH_MAX];
		struct stat sb;
		char *text;

		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", dir, e->d_name);
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		if (stat(full, &sb))
			continue;
		if (S_ISDIR(sb.st_mode)) {
			if (strcmp(sub, "bzip2"))
				scan_tree(full, sub, st);
			continue;
		}
		if (!ends_with(sub, ".c") && !ends_with(sub, ".h"))
			continue;
		if (!(text = test_read_text(full)))
			continue;
		st->nfiles++;
		if (!ends_with(sub, ".gen.c"))
			st->nlong += long_functions(text, MAX_FUNCTION_LINES, NULL, sub, st->long_bad,
						    sizeof(st->long_bad));
		{
			char word[64], msg[200];
			int line = 0;

			if (comment_naming_machine(text, word, sizeof(word), &line)) {
				size_t used = strlen(st->named);

				snprintf(msg, sizeof(msg), "%s%.100s:%d \"%s\"", used ? "; " : "", sub, line, word);
				snprintf(st->named + used, sizeof(st->named) - used, "%s", msg);
				st->nnamed++;
			}
		}
		free(text);
	}
	closedir(d);
}

static void src_root(char *out, size_t len)
{
	snprintf(out, len, "%s/../src", test_bin_dir());
	if (access(out, R_OK))
		snprintf(out, len, "src");
}

TEST(function_length_check_finds_a_planted_long_function)
{
	char *text = malloc(8192), bad[256] = "";
	size_t used = 0;

	CHECK(text, "no memory");
	used += (size_t)snprintf(text + used, 8192 - used, "/* short */\nstatic int short_one(void)\n{\n\treturn 0;\n}\n\n");
	used += (size_t)snprintf(text + used, 8192 - used, "static int\nlong_one(int a,\n\t int b)\n{\n");
	for (int i = 0; i < 99; i++)
		used += (size_t)snprintf(text + used, 8192 - used, "\ta += b;\n");
	snprintf(text + used, 8192 - used, "}\n");
	/* 99 statements and the two braces: 101 lines, one over */
	int n = long_functions(text, MAX_FUNCTION_LINES, NULL, "x.c", bad, sizeof(bad));
	free(text);
	CHECK(n == 1, "found %d long functions: %s", n, bad);
	CHECK(!strcmp(bad, "x.c: long_one (101 lines)"), "read \"%s\"", bad);
}

TEST(comment_check_finds_planted_machine_names_and_issue_numbers)
{
	char word[64];
	int line = 0;

	CHECK(comment_naming_machine("int a; /* fitted on the Zen 5 guest */\n", word, sizeof(word), &line) &&
		      !strcmp(word, "Zen 5") && line == 1,
	      "missed Zen 5");
	CHECK(comment_naming_machine("int a;\n// seen on Ice Lake\n", word, sizeof(word), &line) &&
		      !strcmp(word, "Ice Lake") && line == 2,
	      "missed Ice Lake");
	CHECK(comment_naming_machine("/*\n * as issue 41 asked\n */\n", word, sizeof(word), &line) &&
		      !strcmp(word, "issue 4"),
	      "missed the issue number");
	CHECK(!comment_naming_machine("const char *s = \"Zen 4 // Ice Lake\"; /* a recorded guest */\n", word,
				      sizeof(word), &line),
	      "a string or a plain comment read as a machine name: %s", word);
	CHECK(!comment_naming_machine("/* Zenith, zen, issues */\n", word, sizeof(word), &line),
	      "a word read as a machine name: %s", word);
}

/* The tree itself: no function over the limit, no machine or issue in a
 * comment. */
TEST(src_functions_are_short_and_comments_name_no_machine)
{
	char root[PATH_MAX];
	struct scan_state *st = calloc(1, sizeof(*st));

	CHECK(st, "no memory");
	src_root(root, sizeof(root));
	scan_tree(root, "", st);

	int nfiles = st->nfiles, nlong = st->nlong, nnamed = st->nnamed;
	char long_bad[sizeof(st->long_bad)], named[sizeof(st->named)];

	snprintf(long_bad, sizeof(long_bad), "%s", st->long_bad);
	snprintf(named, sizeof(named), "%s", st->named);
	free(st);
	CHECK(nfiles > 100, "read %d source files under %s", nfiles, root);
	CHECK(nlong == 0, "%d functions over %d lines: %s", nlong, MAX_FUNCTION_LINES, long_bad);
	CHECK(nnamed == 0, "%d files name a machine or an issue in a comment: %s", nnamed, named);
}
