/*
 * Every (command, option) pair is either honoured or refused: a command
 * given an option it never reads would measure as if it were absent, which
 * a user cannot see. The declaration (each section's .options) is checked
 * twice: against the parser (a declared option is accepted, any other
 * refused with exit 2) and against the section's own source (what it
 * declares it reads, and every option it reads it declares).
 */
#include "../harness.h"

#include "cli.h"
#include "sections/registry.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options every command takes: where to write, where to run, what seed and
 * how long. Anything else belongs to the sections that declare it. */
static const char *const shared[] = {
	"seed", "cpu", "quick", "json", "prom", "html", "svg", "csv", "archive", "help", "version",
};

/* The fields of struct options and struct plan an option lands in: a
 * section that reads one of them honours that option. */
static const struct {
	const char *option;
	const char *fields[3];
} reads[] = {
	{"size", {"size_bytes", "working_set_bytes"}}, {"spacing", {"spacing_bytes"}},
	{"pages", {"pages", "npages"}}, {"max-lanes", {"max_lanes"}}, {"repeat", {"repeat"}},
	{"trials", {"trials"}}, {"accesses", {"accesses"}}, {"threads", {"threads"}},
	{"fillers", {"window_fillers"}}, {"max-n", {"max_n"}}, {"dump-code", {"dump_code"}},
	{"from", {"from_path"}}, {"budget", {"budget"}}, {"predictions", {"predictions_path"}},
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

static bool listed(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *at = list ? strstr(list, word) : NULL; at; at = strstr(at + 1, word))
		if ((at == list || at[-1] == ' ') && (at[n] == ' ' || at[n] == 0))
			return true;
	return false;
}

static bool is_shared(const char *name)
{
	for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if (!strcmp(shared[i], name))
			return true;
	return false;
}

/* Whether cmd should take the option: declared by it, or by a section of
 * the full report when cmd is the report. */
static bool honours(const struct section *cmd, const char *name)
{
	if (is_shared(name) || listed(cmd->options, name) || listed(cmd->options_alone, name))
		return true;
	if (cmd->kind != SECTION_REPORT)
		return false;
	for (size_t i = 0; i < registry_count; i++)
		if (registry[i]->in_report && listed(registry[i]->options, name))
			return true;
	return false;
}

static bool output_option(const char *name)
{
	return !strcmp(name, "json") || !strcmp(name, "prom") || !strcmp(name, "html") || !strcmp(name, "svg") ||
	       !strcmp(name, "csv") || !strcmp(name, "archive") || !strcmp(name, "help") || !strcmp(name, "version");
}

TEST(options_every_command_option_pair_is_honoured_or_refused)
{
	unsigned pairs = 0, refused = 0;

	for (size_t c = 0; c < registry_count; c++) {
		const struct section *cmd = registry[c];
		const char *name, *arg, *help;

		if (cmd->report_only || cmd->kind == SECTION_HELP)
			continue;
		for (size_t k = 0; cli_option(k, &name, &arg, &help); k++) {
			char flag[64], err[CLI_ERR_LEN] = "";
			char *argv[12];
			struct options o;
			int argc = 0, rc;
			bool want;

			if (output_option(name) || !strcmp(name, "from"))
				continue;
			argv[argc++] = (char *)"mlpscope";
			argv[argc++] = (char *)cmd->name;
			if (cmd->operands == SECTION_ARGS_MANY) {
				argv[argc++] = (char *)"a.json";
				argv[argc++] = (char *)"b.json";
			} else if (cmd->operands == SECTION_ARGS_ONE) {
				argv[argc++] = (char *)"t.lackey";
			}
			if (cmd->needs_from) {
				argv[argc++] = (char *)"--from";
				argv[argc++] = (char *)"r.json";
			}
			snprintf(flag, sizeof(flag), "--%s", name);
			argv[argc++] = flag;
			if (arg)
				argv[argc++] = (char *)value_of(name, arg);
			argv[argc] = NULL;
			rc = cli_parse(argc, argv, &o, err, sizeof(err));
			want = honours(cmd, name);
			CHECK(want ? rc == 0 || !strstr(err, "takes no such option") : rc == 2,
			      "%s --%s: %s (%s)", cmd->name, name, rc ? err : "accepted", want ? "declared" : "not declared");
			if (!want)
				CHECK(strstr(err, name) && strstr(err, "expected it with"), "%s --%s: %s", cmd->name, name, err);
			pairs++;
			refused += !want;
		}
	}
	CHECK(pairs > 200 && refused > 50, "%u pairs, %u refused", pairs, refused);
	snprintf(tctx->message, sizeof(tctx->message), "%u pairs, %u refused", pairs, refused);
}

/* An option no section declares and no command shares would be taken by
 * every command and read by none of them. */
TEST(options_each_option_has_an_owner)
{
	const char *name, *arg, *help;

	for (size_t k = 0; cli_option(k, &name, &arg, &help); k++) {
		bool owned = is_shared(name);

		for (size_t i = 0; i < registry_count && !owned; i++)
			owned = listed(registry[i]->options, name) || listed(registry[i]->options_alone, name);
		CHECK(owned, "--%s: no section declares it and it is not shared", name);
	}
}

static char *section_source(const char *section, char *path, size_t len)
{
	char needle[64];
	DIR *d = opendir("src/sections");
	struct dirent *e;
	char *found = NULL;

	snprintf(needle, sizeof(needle), ".name = \"%s\"", section);
	while (d && !found && (e = readdir(d))) {
		char *text;

		if (!strstr(e->d_name, ".c"))
			continue;
		snprintf(path, len, "src/sections/%s", e->d_name);
		text = test_read_text(path);
		if (text && strstr(text, needle))
			found = text;
		else
			free(text);
	}
	if (d)
		closedir(d);
	return found;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* "o->field" or "plan->field" (the options or the plan made of them) as a
 * whole read in text: a section's own knob of the same name is not it. */
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

TEST(options_a_section_reads_what_it_declares_and_declares_what_it_reads)
{
	unsigned checked = 0;

	for (size_t c = 0; c < registry_count; c++) {
		const struct section *s = registry[c];
		char path[300], *text;

		if (s->kind == SECTION_HELP || s->kind == SECTION_REPORT || s->report_only)
			continue;
		text = section_source(s->name, path, sizeof(path));
		CHECK(text, "no source declares section %s", s->name);
		for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
			bool declared = listed(s->options, reads[i].option) || listed(s->options_alone, reads[i].option);
			bool read = false;

			for (size_t f = 0; f < 3 && reads[i].fields[f]; f++)
				read |= reads_field(text, reads[i].fields[f]);
			/* The budget is priced through hooks, not read as a field. */
			if (!strcmp(reads[i].option, "budget"))
				read = declared;
			CHECK(declared == read, "%s (%s): --%s is %s but %s", s->name, path, reads[i].option,
			      declared ? "declared" : "not declared", read ? "read" : "never read");
			checked++;
		}
		free(text);
	}
	snprintf(tctx->message, sizeof(tctx->message), "%u (section, option) declarations against their source", checked);
}
