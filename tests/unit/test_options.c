/*
 * Every (command, option) pair is either honoured or refused: a command
 * given an option it never reads would measure as if it were absent, which
 * a user cannot see. Each section declares its options in its own file
 * (its row's .options); the declarations are checked against the parser
 * (a declared option is accepted, any other refused with exit 2), against
 * each other (one name parses one way), against the section's source
 * (what it declares it reads, and every option it reads it declares) and
 * against --help, `help CMD` and the man page (exactly the declared ones).
 */
#include "../harness.h"

#include "cli.h"
#include "man.h"
#include "frame/registry.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options several commands take: where to write, where to run and how
 * long; which commands take each follows from their rows (shared_honoured).
 * Anything else belongs to the sections that declare it. */
static const char *const shared[] = {
	"cpu", "quick", "json", "prom", "html", "svg", "csv", "archive", "help", "version",
};

/* The fields of struct plan (or struct options) an option is resolved
 * into for the sections: a section that reads one of them honours it. */
static const struct {
	const char *option;
	const char *fields[3];
} plan_reads[] = {
	{"size", {"working_set_bytes"}}, {"spacing", {"spacing_bytes"}}, {"pages", {"pages", "npages"}},
	{"accesses", {"accesses"}}, {"threads", {"threads"}}, {"budget", {"budget_s"}}, {"seed", {"seed"}},
};

/* A value each option accepts, so only the pairing decides. */
static const char *value_of(const char *name, const char *arg)
{
	static const struct { const char *name, *value; } v[] = {
		{"size", "1G"}, {"spacing", "64"}, {"pages", "small"}, {"max-lanes", "8"}, {"repeat", "1"},
		{"trials", "3"}, {"accesses", "4096"}, {"seed", "1"}, {"cpu", "0"}, {"threads", "1"},
		{"max-n", "64"}, {"dump-code", "nop:4"}, {"fillers", "nop"}, {"input", "markov"},
		{"requests", "4"}, {"queue", "2"}, {"lanes", "2"}, {"segments", "64"}, {"layout", "registers"},
		{"prefetch", "off"}, {"output-buffer", "reused"}, {"budget", "30"}, {"latency", "200"},
		{"chains", "1"}, {"bytes-per-tick", "1"}, {"sort", "read_gbps_1_thread"},
		{"dram-map", "ch=1,rank=1,bank=16,row=1K,interleave=row"},
	};

	if (!arg)
		return NULL;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(v[i].name, name))
			return v[i].value;
	return "/tmp/mlpscope-options-test";
}

static bool is_shared(const char *name)
{
	for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if (!strcmp(shared[i], name))
			return true;
	return false;
}

static const struct option_spec *declared(const struct section *s, const char *name)
{
	for (const struct option_spec *const *d = s->options; d && *d; d++)
		if (!strcmp((*d)->name, name))
			return *d;
	return NULL;
}

static bool honours(const struct section *cmd, const char *name);

/* Whether cmd should take the shared option: an output its row says it
 * writes; where to pin and where to archive the binary only when it
 * measures; --quick where it takes the --budget that --quick shortens. */
static bool shared_honoured(const struct section *cmd, const char *name)
{
	static const struct { const char *name; unsigned bit; } outputs[] = {
		{"json", SECTION_OUT_JSON}, {"html", SECTION_OUT_HTML}, {"svg", SECTION_OUT_SVG},
		{"csv", SECTION_OUT_CSV}, {"prom", SECTION_OUT_PROM},
	};

	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (!strcmp(name, outputs[i].name))
			return (cmd->outputs & outputs[i].bit) != 0;
	if (!strcmp(name, "cpu") || !strcmp(name, "archive"))
		return cmd->kind == SECTION_MEASURE || cmd->kind == SECTION_REPORT;
	if (!strcmp(name, "quick"))
		return honours(cmd, "budget");
	return true;
}

/* Whether cmd should take the option: declared by it, or by a section of
 * the full report (not alone) when cmd is the report. */
static bool honours(const struct section *cmd, const char *name)
{
	if (is_shared(name))
		return shared_honoured(cmd, name);
	if (declared(cmd, name))
		return true;
	if (cmd->kind != SECTION_REPORT)
		return false;
	for (size_t i = 0; i < registry_count; i++)
		if (registry[i]->in_report && declared(registry[i], name) && !declared(registry[i], name)->alone)
			return true;
	return false;
}

/* An output, refused by the form "writes no such file (expected ...)". */
static bool output_option(const char *name)
{
	return !strcmp(name, "json") || !strcmp(name, "prom") || !strcmp(name, "html") || !strcmp(name, "svg") ||
	       !strcmp(name, "csv") || !strcmp(name, "archive");
}

/* Parse `mlpscope CMD [operands] --NAME [value]`: the status, err filled. */
static int parse_pair(const struct section *cmd, const char *name, const char *arg, char *err, size_t errlen)
{
	char flag[64];
	char *argv[12];
	struct options o;
	int argc = 0;

	argv[argc++] = (char *)"mlpscope";
	argv[argc++] = (char *)cmd->name;
	if (cmd->operands == SECTION_ARGS_MANY) {
		argv[argc++] = (char *)"a.json";
		argv[argc++] = (char *)"b.json";
	} else if (cmd->operands == SECTION_ARGS_ONE) {
		argv[argc++] = (char *)"t.lackey";
	}
	if (cmd->needs_from && strcmp(name, "from")) {
		argv[argc++] = (char *)"--from";
		argv[argc++] = (char *)"r.json";
	}
	snprintf(flag, sizeof(flag), "--%s", name);
	argv[argc++] = flag;
	if (arg)
		argv[argc++] = (char *)value_of(name, arg);
	argv[argc] = NULL;
	return cli_parse(argc, argv, &o, err, errlen);
}

TEST(options_every_command_option_pair_is_honoured_or_refused)
{
	unsigned pairs = 0, refused = 0;

	for (size_t c = 0; c < registry_count; c++) {
		const struct section *cmd = registry[c];
		const char *name, *arg;
		char help[2048];

		if (cmd->report_only || cmd->kind == SECTION_HELP)
			continue;
		for (size_t k = 0; cli_option(k, &name, &arg, help, sizeof(help)); k++) {
			char err[CLI_ERR_LEN] = "";
			bool want;
			int rc;

			if (!strcmp(name, "help") || !strcmp(name, "version"))
				continue;
			rc = parse_pair(cmd, name, arg, err, sizeof(err));
			want = honours(cmd, name);
			CHECK(want ? rc == 0 || !(strstr(err, "takes no such option") || strstr(err, "writes no")) : rc == 2,
			      "%s --%s: %s (%s)", cmd->name, name, rc ? err : "accepted", want ? "declared" : "not declared");
			if (!want)
				CHECK(strstr(err, name) && strstr(err, output_option(name) ? "(expected " : "expected it with"),
				      "%s --%s: %s", cmd->name, name, err);
			pairs++;
			refused += !want;
		}
	}
	CHECK(pairs > 200 && refused > 50, "%u pairs, %u refused", pairs, refused);
	snprintf(tctx->message, sizeof(tctx->message), "%u pairs, %u refused", pairs, refused);
}

/* Every name given can be kept and checked: there are fewer names than
 * the parser's slots, so none goes unrefused for want of one. */
TEST(options_fewer_names_than_slots)
{
	const char *name, *arg;
	char help[2048];
	size_t n = 0;

	while (cli_option(n, &name, &arg, help, sizeof(help)))
		n++;
	CHECK(n > 30 && n < OPTIONS_GIVEN_MAX, "%zu option names, %d slots", n, OPTIONS_GIVEN_MAX);
}

/* Two sections declaring one name parse it one way (the parser reads a
 * value before it knows which command takes it), and land it in one place. */
TEST(options_one_name_parses_one_way)
{
	unsigned names = 0;

	for (size_t i = 0; i < registry_count; i++)
		for (const struct option_spec *const *d = registry[i]->options; d && *d; d++) {
			CHECK(!is_shared((*d)->name), "%s declares --%s, which every command takes", registry[i]->name,
			      (*d)->name);
			CHECK((*d)->help && (*d)->help[0], "%s --%s: no help line", registry[i]->name, (*d)->name);
			for (size_t j = 0; j < i; j++) {
				const struct option_spec *e = declared(registry[j], (*d)->name);

				if (!e)
					continue;
				CHECK(e->kind == (*d)->kind && e->lo == (*d)->lo && e->hi == (*d)->hi && e->step == (*d)->step &&
				      e->field == (*d)->field && ((!e->arg && !(*d)->arg) || (e->arg && (*d)->arg &&
				      !strcmp(e->arg, (*d)->arg))),
				      "--%s: %s and %s declare it differently", (*d)->name, registry[j]->name, registry[i]->name);
				names++;
			}
		}
	snprintf(tctx->message, sizeof(tctx->message), "%u declarations of a name another section declares", names);
}

static char *read_source(const char *path)
{
	return test_read_text(path);
}

/* The file holding `const struct section section_NAME = {`. */
static char *section_source(const char *section, char *path, size_t len)
{
	char needle[96];
	DIR *d = opendir("src/sections");
	struct dirent *e;
	char *found = NULL;

	snprintf(needle, sizeof(needle), "const struct section section_%s = {", section);
	while (d && !found && (e = readdir(d))) {
		char *text;

		if (!strstr(e->d_name, ".c"))
			continue;
		snprintf(path, len, "src/sections/%s", e->d_name);
		text = read_source(path);
		if (text && strstr(text, needle))
			found = text;
		else
			free(text);
	}
	if (d)
		closedir(d);
	return found;
}

/* Every file of src/sections and src/ joined: where a declaration's reads
 * may lie (compare's --sort is read by its fleet table). */
static char *all_sources(void)
{
	static const char *const dirs[] = {"src", "src/sections"};
	size_t used = 0;
	char *all = calloc(1, 1);

	for (size_t k = 0; k < 2 && all; k++) {
		DIR *d = opendir(dirs[k]);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char path[300], *text, *grown;
			size_t n;

			if (!strstr(e->d_name, ".c"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[k], e->d_name);
			if (!(text = read_source(path)))
				continue;
			n = strlen(text);
			if ((grown = realloc(all, used + n + 2))) {
				all = grown;
				memcpy(all + used, text, n);
				used += n;
				all[used++] = '\n';
				all[used] = 0;
			}
			free(text);
		}
		if (d)
			closedir(d);
	}
	return all;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* "o->field" or "plan->field" as a whole read in text: a section's own knob
 * of the same name is not it. */
static bool reads_field(const char *text, const char *field)
{
	static const char *const from[] = {"o->", "plan->"};

	for (size_t k = 0; k < 2; k++) {
		char needle[48];
		size_t n = (size_t)snprintf(needle, sizeof(needle), "%s%s", from[k], field);

		for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
			if ((at == text || !ident_char(at[-1])) && !ident_char(at[n]))
				return true;
	}
	return false;
}

static bool reads_through_plan(const char *text, const char *option)
{
	for (size_t i = 0; i < sizeof(plan_reads) / sizeof(plan_reads[0]); i++)
		if (!strcmp(plan_reads[i].option, option))
			for (size_t f = 0; f < 3 && plan_reads[i].fields[f]; f++)
				if (reads_field(text, plan_reads[i].fields[f]))
					return true;
	return false;
}

/* The variable in text defined as `struct option_spec VAR = {` with
 * `.name = "option"`, into var; false when text defines none. */
static bool spec_variable(const char *text, const char *option, char *var, size_t len)
{
	char name[80];

	snprintf(name, sizeof(name), ".name = \"%s\"", option);
	for (const char *at = strstr(text, "struct option_spec "); at; at = strstr(at + 1, "struct option_spec ")) {
		const char *v = at + strlen("struct option_spec "), *brace = strstr(v, "= {"), *end;
		size_t n = 0;

		while (ident_char(v[n]))
			n++;
		if (!n || !brace || brace != v + n + 1 || !(end = strstr(brace, "};")))
			continue;
		{
			const char *found = strstr(brace, name);

			if (found && found < end) {
				snprintf(var, len, "%.*s", (int)n, v);
				return true;
			}
		}
	}
	return false;
}

/* Whether text reads var through option_number, option_text or option_flag. */
static bool reads_spec(const char *text, const char *var)
{
	char needle[96];

	snprintf(needle, sizeof(needle), "&%s)", var);
	for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle)) {
		const char *call = at;

		while (call > text && *call != '(')
			call--;
		while (call > text && ident_char(call[-1]))
			call--;
		if (!strncmp(call, "option_number(", 14) || !strncmp(call, "option_text(", 12) ||
		    !strncmp(call, "option_flag(", 12))
			return true;
	}
	return false;
}

/* Reads what it declares: each declaration read through its spec (in any
 * file) or through the plan field it resolves into (in the section's). */
static void check_declared_is_read(struct test_ctx *tctx, const struct section *s, const char *path, const char *text,
				   const char *all, unsigned *checked)
{
	for (const struct option_spec *const *d = s->options; d && *d; d++) {
		char var[80];
		bool read;

		if (*d == &option_budget)
			read = s->budget || reads_field(text, "budget_s");
		else if (*d == &option_seed)
			read = reads_through_plan(text, "seed");
		else if (*d == &option_threads)
			read = reads_through_plan(text, "threads");
		else if (spec_variable(text, (*d)->name, var, sizeof(var)))
			read = reads_spec(all, var) || reads_through_plan(text, (*d)->name);
		else {
			CHECK(0, "%s (%s): --%s is declared outside its file", s->name, path, (*d)->name);
			continue;
		}
		CHECK(read, "%s (%s): --%s is declared but never read", s->name, path, (*d)->name);
		(*checked)++;
	}
}

/* Declares what it reads: every plan field an option resolves into, and
 * every spec its file reads, is one of its declarations. */
static void check_read_is_declared(struct test_ctx *tctx, const struct section *s, const char *path, const char *text,
				   unsigned *checked)
{
	for (size_t i = 0; i < sizeof(plan_reads) / sizeof(plan_reads[0]); i++) {
		if (!reads_through_plan(text, plan_reads[i].option))
			continue;
		CHECK(declared(s, plan_reads[i].option) || (!strcmp(plan_reads[i].option, "budget") && s->budget),
		      "%s (%s): reads --%s through the plan but does not declare it", s->name, path, plan_reads[i].option);
		(*checked)++;
	}
	for (const char *at = strstr(text, "struct option_spec "); at; at = strstr(at + 1, "struct option_spec ")) {
		const char *v = at + strlen("struct option_spec "), *nm = strstr(v, ".name = \"");
		char var[80], name[48];
		size_t n = 0;

		while (ident_char(v[n]))
			n++;
		if (!n || v[n] != ' ' || !nm || sscanf(nm, ".name = \"%47[^\"]\"", name) != 1)
			continue;
		snprintf(var, sizeof(var), "%.*s", (int)n, v);
		if (reads_spec(text, var))
			CHECK(declared(s, name), "%s (%s): reads --%s (%s) but does not declare it", s->name, path, name, var);
		(*checked)++;
	}
}

TEST(options_a_section_reads_what_it_declares_and_declares_what_it_reads)
{
	unsigned checked = 0;
	char *all = all_sources();

	CHECK(all, "reading src");
	for (size_t c = 0; c < registry_count; c++) {
		const struct section *s = registry[c];
		char path[300], *text;

		if (s->kind == SECTION_HELP || s->kind == SECTION_REPORT || s->report_only)
			continue;
		text = section_source(s->name, path, sizeof(path));
		CHECK(text, "no source declares section %s", s->name);
		check_declared_is_read(tctx, s, path, text, all, &checked);
		check_read_is_declared(tctx, s, path, text, &checked);
		free(text);
	}
	free(all);
	if (tctx->failed)
		return;  /* keep the first failure's message */
	CHECK(checked > 40, "only %u checks", checked);
	snprintf(tctx->message, sizeof(tctx->message), "%u (section, option) declarations against their source", checked);
}

/* The "--name" words of a help text, as a space-separated list. */
static void help_names(const char *help, char *out, size_t len)
{
	size_t used = 0;

	out[0] = 0;
	for (const char *p = help; (p = strstr(p, "\n  --")); p += 4)
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, " %.*s", (int)strcspn(p + 5, " \n"), p + 5);
}

static char *captured_help(const char *topic)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (topic)
		fputs("\n", f);
	cli_print_help(f, topic);
	fclose(f);
	return buf;
}

/* Whether list (" a b c") holds exactly the declared names that command c
 * honours (NULL: every declared name), each once. */
static void check_lists_exactly(struct test_ctx *tctx, const char *what, const char *list, const struct section *c)
{
	size_t want = 0, have = 0;
	char copy[4096], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list);
	for (char *word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
		bool known = is_shared(word);

		for (size_t i = 0; i < registry_count && !known; i++)
			known = declared(registry[i], word) != NULL;
		CHECK(known, "%s lists --%s, which nothing declares", what, word);
		CHECK(!c || honours(c, word), "%s lists --%s, which %s refuses", what, word, c->name);
		have++;
	}
	for (size_t k = 0; k < sizeof(shared) / sizeof(shared[0]); k++)
		want += !c || honours(c, shared[k]);
	for (size_t i = 0; i < registry_count; i++)
		for (const struct option_spec *const *d = registry[i]->options; d && *d; d++) {
			char padded[72];
			bool first = true;

			for (size_t j = 0; j < i && first; j++)
				first = !declared(registry[j], (*d)->name);
			for (const struct option_spec *const *e = registry[i]->options; e != d && first; e++)
				first = strcmp((*e)->name, (*d)->name) != 0;
			if (!first || (c && !honours(c, (*d)->name)))
				continue;
			want++;
			snprintf(padded, sizeof(padded), " %s", (*d)->name);
			CHECK(strstr(list, padded), "%s does not list --%s", what, (*d)->name);
		}
	CHECK(have == want, "%s lists %zu options, %zu declared", what, have, want);
}

TEST(options_help_and_man_page_list_exactly_the_declared_options)
{
	char names[4096], *help = captured_help(NULL), *man = NULL;
	size_t len = 0, used = 0;
	FILE *f = open_memstream(&man, &len);

	CHECK(help && f, "memstream");
	man_write(f);
	fclose(f);
	help_names(help, names, sizeof(names));
	check_lists_exactly(tctx, "--help", names, NULL);
	/* The man page: each option a .B or .BI line in its OPTIONS section. */
	names[0] = 0;
	for (const char *p = strstr(man, ".SH OPTIONS"); p && (p = strstr(p, "\n.TP\n.B")); p += 4) {
		const char *at = strstr(p, "\\-\\-");
		char word[64];
		size_t k = 0;

		if (!at || at > p + 16)
			break;
		for (at += 4; *at && *at != ' ' && *at != '\n' && k + 1 < sizeof(word); at++)
			if (*at != '\\')
				word[k++] = *at;
		word[k] = 0;
		used += (size_t)snprintf(names + used, used < sizeof(names) ? sizeof(names) - used : 0, " %s", word);
	}
	check_lists_exactly(tctx, "the man page", names, NULL);
	for (size_t c = 0; c < registry_count; c++) {
		char *one, what[64];

		if (registry[c]->report_only || registry[c]->kind == SECTION_HELP || !registry[c]->help)
			continue;
		one = captured_help(registry[c]->name);
		CHECK(one, "help %s", registry[c]->name);
		help_names(strstr(one, "\noptions ") ? strstr(one, "\noptions ") : one, names, sizeof(names));
		snprintf(what, sizeof(what), "help %s", registry[c]->name);
		check_lists_exactly(tctx, what, names, registry[c]);
		free(one);
	}
	free(help);
	free(man);
}

/* The line of help that names --option, or "" when none does. */
static void option_line(const char *help, const char *option, char *line, size_t len)
{
	char needle[64];
	const char *at;

	snprintf(needle, sizeof(needle), "\n  --%s ", option);
	at = help ? strstr(help, needle) : NULL;
	snprintf(line, len, "%.*s", at ? (int)strcspn(at + 1, "\n") : 0, at ? at + 1 : "");
}

/* A section's own default is what `help CMD` says: --max-lanes is 64 for
 * mlp's sweep and 32 for app's walks, and each command says its own. */
TEST(options_help_says_each_commands_own_default)
{
	char *mlp = captured_help("mlp"), *app = captured_help("app"), line[512];

	CHECK(mlp && app, "help");
	option_line(mlp, "max-lanes", line, sizeof(line));
	CHECK(strstr(line, "(default 64)"), "help mlp: '%s'", line);
	option_line(app, "max-lanes", line, sizeof(line));
	CHECK(strstr(line, "(default 32)"), "help app: '%s'", line);
	free(mlp);
	free(app);
}
