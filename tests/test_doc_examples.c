/*
 * Every `mlpscope ...` example in README.md and docs/ *.md that measures
 * nothing (help, --help, compare of stored files, plan --from, model --from,
 * trace of fixtures, qmodel, window --dump-code) is run, so an example that
 * stops working fails the suite. An example is a command line in a fenced
 * block, or a code span that starts with `mlpscope ` (or `build/mlpscope `)
 * and names more than the command; a synopsis (a [bracket], `...`, `|`, or
 * an UPPERCASE metavariable) is not one. A code span holding an option with
 * a value (`--chains 1,8,16`) is an example too when its paragraph names one
 * command and that command needs no operand: the option is run with it.
 * Files the docs name stand for fixtures (stand_ins[]); outputs go to a
 * scratch folder. Measuring examples are counted and left to the user.
 */
#include "harness.h"
#include "spawn.h"

#include "frame/registry.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EX_MAX_WORDS 24
#define EX_TEXT 512

/* The files the docs' examples name, and what stands in for each. */
static const struct {
	const char *doc, *fixture;
} stand_ins[] = {
	{"a.json", "tests/data/report_a.json"},
	{"b.json", "tests/data/report_b.json"},
	{"run.json", "tests/data/report_a.json"},
	{"window.json", "tests/data/window.json"},
	/* a result that holds plan.facts, as `plan --from` wants */
	{"r.json", "tests/data/cpus/intel-xeon-f6-m106/latency_retimed.json"},
	{"prog.lackey", "tests/data/lackey_chase.trace"},
	{"results/", "@results"},      /* a folder of results, made in the scratch folder */
};

static const char *const output_options[] = {"--json", "--html", "--svg", "--csv", "--prom"};

struct runner {
	char scratch[256];
	unsigned run, measuring, synopses;
	char failure[1024];
};

static bool is_synopsis(char *const *w, int n)
{
	for (int i = 0; i < n; i++)
		if (strpbrk(w[i], "[]|") || strstr(w[i], "...") || (w[i][0] >= 'A' && w[i][0] <= 'Z'))
			return true;
	return false;
}

static bool has_word(char *const *w, int n, const char *word)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(w[i], word))
			return true;
	return false;
}

/* The command row an example runs (NULL: the full report, or an unknown
 * word, which running it reports). */
static const struct section *command_of(char *const *w, int n)
{
	return n && w[0][0] != '-' ? registry_find(w[0]) : NULL;
}

static bool measures_nothing(char *const *w, int n)
{
	const struct section *s = command_of(w, n);

	if (has_word(w, n, "--help") || has_word(w, n, "--version") || has_word(w, n, "--dump-code"))
		return true;
	if (n && w[0][0] != '-' && !s)
		return true;   /* not a command: running it says so, and fails */
	return s && (s->kind == SECTION_FILE_COMMAND || s->kind == SECTION_HELP);
}

static bool is_output_option(const char *w)
{
	for (size_t i = 0; i < sizeof(output_options) / sizeof(output_options[0]); i++)
		if (!strcmp(w, output_options[i]))
			return true;
	return false;
}

/* Words into argv with the stand-ins and outputs in place; a redirection
 * and what follows it are dropped (stdout is captured). */
static int build_argv(struct runner *rn, char *const *w, int n, char *bin, char *argv[], char store[][EX_TEXT])
{
	int argc = 0;

	argv[argc++] = bin;
	for (int i = 0; i < n && argc < EX_MAX_WORDS; i++) {
		const char *word = w[i];

		if (!strcmp(word, ">"))
			break;
		if (i > 0 && is_output_option(w[i - 1]) && strcmp(word, "-")) {
			snprintf(store[argc], EX_TEXT, "%s/%s", rn->scratch, word);
			word = store[argc];
		} else {
			for (size_t k = 0; k < sizeof(stand_ins) / sizeof(stand_ins[0]); k++)
				if (!strcmp(word, stand_ins[k].doc)) {
					if (stand_ins[k].fixture[0] == '@')
						snprintf(store[argc], EX_TEXT, "%s/%s", rn->scratch, stand_ins[k].fixture + 1);
					else
						snprintf(store[argc], EX_TEXT, "%s", stand_ins[k].fixture);
					word = store[argc];
				}
		}
		argv[argc++] = (char *)word;
	}
	argv[argc] = NULL;
	return argc;
}

/* Run one example (its words after "mlpscope"); the first failure is kept. */
static void run_example(struct runner *rn, const char *where, char *const *w, int n)
{
	char bin[4200], store[EX_MAX_WORDS + 1][EX_TEXT], *argv[EX_MAX_WORDS + 2];
	struct test_run o;

	if (is_synopsis(w, n)) {
		rn->synopses++;
		return;
	}
	if (!measures_nothing(w, n)) {
		rn->measuring++;
		return;
	}
	test_binary(bin, sizeof(bin));
	build_argv(rn, w, n, bin, argv, store);
	rn->run++;
	if (test_run(argv, true, &o)) {
		if (!rn->failure[0])
			snprintf(rn->failure, sizeof(rn->failure), "%s: cannot run the binary", where);
		return;
	}
	if (o.status && !rn->failure[0]) {
		char cmd[300] = "";
		size_t used = 0;

		for (int i = 0; i < n && used < sizeof(cmd); i++)
			used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, " %s", w[i]);
		snprintf(rn->failure, sizeof(rn->failure), "%s: `mlpscope%s` exits %d: %.400s", where, cmd, o.status, o.out);
	}
	free(o.out);
}

/* Split text at spaces into w (in place); returns the count. */
static int split_words(char *text, char **w)
{
	int n = 0;

	for (char *save = NULL, *t = strtok_r(text, " \t", &save); t && n < EX_MAX_WORDS; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	return n;
}

/* The words after "mlpscope" or "build/mlpscope" at the start of s, into w;
 * -1 when s does not start so. The text is copied into buf. */
static int command_words(const char *s, char *buf, size_t len, char **w)
{
	const char *rest = NULL;

	while (*s == ' ')
		s++;
	if (!strncmp(s, "build/mlpscope", 14))
		rest = s + 14;
	else if (!strncmp(s, "mlpscope", 8))
		rest = s + 8;
	if (!rest || (*rest && *rest != ' '))
		return -1;
	snprintf(buf, len, "%s", rest);
	return split_words(buf, w);
}

/* A fenced block's line: everything before a " #" comment. */
static void block_line(struct runner *rn, const char *where, const char *line)
{
	char buf[EX_TEXT], *w[EX_MAX_WORDS], *hash;
	int n = command_words(line, buf, sizeof(buf), w);

	if (n < 0)
		return;
	snprintf(buf, sizeof(buf), "%s", line);
	if ((hash = strstr(buf, " #")))
		*hash = 0;
	n = command_words(buf, buf, sizeof(buf), w);
	run_example(rn, where, w, n);
}

/* The one command a paragraph's spans name, or NULL (none, or several). */
static const struct section *paragraph_command(const char *para)
{
	const struct section *found = NULL;

	for (const char *a = strchr(para, '`'); a; a = strchr(a, '`')) {
		const char *b = strchr(a + 1, '`');
		char span[EX_TEXT], buf[EX_TEXT], *w[EX_MAX_WORDS];
		int n;

		if (!b)
			break;
		snprintf(span, sizeof(span), "%.*s", (int)(b - a - 1), a + 1);
		n = command_words(span, buf, sizeof(buf), w);
		if (n > 0 && command_of(w, n)) {
			if (found && found != command_of(w, n))
				return NULL;
			found = command_of(w, n);
		}
		a = b + 1;
	}
	return found;
}

/* A paragraph outside fenced blocks: its code spans. */
static void paragraph(struct runner *rn, const char *where, const char *para)
{
	const struct section *cmd = paragraph_command(para);

	for (const char *a = strchr(para, '`'); a; a = strchr(a, '`')) {
		const char *b = strchr(a + 1, '`');
		char span[EX_TEXT], buf[EX_TEXT], *w[EX_MAX_WORDS + 1];
		int n;

		if (!b)
			break;
		snprintf(span, sizeof(span), "%.*s", (int)(b - a - 1), a + 1);
		a = b + 1;
		n = command_words(span, buf, sizeof(buf), w);
		if (n > 1) {
			run_example(rn, where, w, n);
			continue;
		}
		/* `--option value` beside the one command of the paragraph */
		if (!strncmp(span, "--", 2) && strchr(span, ' ') && cmd && cmd->operands != SECTION_ARGS_ONE &&
		    cmd->operands != SECTION_ARGS_MANY && !cmd->needs_from && measures_nothing((char *[]){(char *)cmd->name}, 1)) {
			snprintf(buf, sizeof(buf), "%.32s %.400s", cmd->name, span);
			n = split_words(buf, w);
			run_example(rn, where, w, n);
		}
	}
}

static int run_file(struct runner *rn, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[2048], where[300], *para = NULL;
	size_t plen = 0, pcap = 0;
	unsigned lineno = 0, para_line = 0;
	bool fenced = false;

	if (!f)
		return -1;
	for (;;) {
		bool eof = !fgets(line, sizeof(line), f);
		bool blank = eof || line[strspn(line, " \t\r\n")] == 0;

		lineno += !eof;
		line[strcspn(line, "\n")] = 0;
		if (!eof && !strncmp(line + strspn(line, " "), "```", 3)) {
			fenced = !fenced;
			blank = true;
		}
		if ((blank || fenced) && plen) {
			snprintf(where, sizeof(where), "%s:%u", path, para_line);
			paragraph(rn, where, para);
			plen = 0;
		}
		if (eof)
			break;
		if (fenced) {
			snprintf(where, sizeof(where), "%s:%u", path, lineno);
			block_line(rn, where, line);
			continue;
		}
		if (blank)
			continue;
		if (plen + strlen(line) + 2 > pcap) {
			char *more = realloc(para, pcap = 2 * (plen + strlen(line) + 2));

			if (!more)
				break;
			para = more;
		}
		if (!plen)
			para_line = lineno;
		plen += (size_t)sprintf(para + plen, "%s%s", plen ? " " : "", line);
	}
	free(para);
	fclose(f);
	return 0;
}

TEST(doc_examples_that_measure_nothing_run, NEEDS_BINARY)
{
	/* This test runs the mlpscope binary (build/mlpscope): its prerequisite is declared here. */
	static struct runner rn;
	char path[700];
	DIR *d;
	struct dirent *e;

	memset(&rn, 0, sizeof(rn));
	test_scratch_make(rn.scratch, sizeof(rn.scratch), "docex");
	CHECK(rn.scratch[0], "no scratch folder");
	snprintf(path, sizeof(path), "%s/results", rn.scratch);
	CHECK(mkdir(path, 0700) == 0, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/results/a.json", rn.scratch);
	CHECK(test_copy_file("tests/data/report_a.json", path) == 0, "copy to %s", path);
	snprintf(path, sizeof(path), "%s/results/b.json", rn.scratch);
	CHECK(test_copy_file("tests/data/report_b.json", path) == 0, "copy to %s", path);
	CHECK(run_file(&rn, "README.md") == 0, "README.md not found (run from the repository root)");
	CHECK((d = opendir("docs")), "docs/ not found");
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len > 3 && len < 256 && !strcmp(e->d_name + len - 3, ".md")) {
			snprintf(path, sizeof(path), "docs/%.255s", e->d_name);
			run_file(&rn, path);
		}
	}
	closedir(d);
	test_scratch_remove(rn.scratch, "docex");
	CHECK(!rn.failure[0], "%s", rn.failure);
	/* README alone has a dozen: finding few means the reader broke */
	CHECK(rn.run >= 12, "only %u examples run (%u measuring, %u synopses)", rn.run, rn.measuring, rn.synopses);
	snprintf(tctx->message, sizeof(tctx->message), "%u examples run; %u measure (not run), %u synopses", rn.run,
		 rn.measuring, rn.synopses);
}
