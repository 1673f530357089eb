/*
 * docs/OUTPUT.md's option lists (options_doc.h): one Markdown table of the
 * shared options (each led by the commands that take it where some do
 * not), then one per command of its own options, each cell the text
 * `help CMD` prints for it (a line per declaring section, joined by
 * <br>). Markdown's table syntax owns '|', so a '|' of the help text is
 * escaped; nothing else is changed.
 */
#include "options_doc.h"

#include "cli.h"
#include "frame/registry.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

const char options_doc_begin[] = "<!-- options: written by `make docs` from the commands' option declarations "
				 "(what `mlpscope help CMD` prints); edit those, not this -->";
const char options_doc_end[] = "<!-- end of options -->";

/* One cell: the help's lines joined by <br>, '|' escaped. */
static void put_cell(FILE *f, const char *text)
{
	for (const char *p = text; *p; p++)
		if (*p == '\n')
			fputs("<br>", f);
		else if (*p == '|')
			fputs("\\|", f);
		else
			fputc(*p, f);
}

/* The options of command c (NULL: as --help lists them) that are shared
 * (or, when not shared, its own) as one table; how many rows. */
static size_t put_table(FILE *f, const struct section *c, bool shared)
{
	static struct cli_option_line line;
	size_t rows = 0;

	for (size_t i = 0; cli_command_option(c, i, &line); i++) {
		if (line.shared != shared)
			continue;
		if (!rows++)
			fputs("| option | meaning |\n| --- | --- |\n", f);
		fprintf(f, "| `--%s%s%s` | ", line.name, line.arg ? " " : "", line.arg ? line.arg : "");
		put_cell(f, line.help);
		fputs(" |\n", f);
	}
	return rows;
}

void options_doc_write(FILE *f)
{
	fputs("### Shared options\n", f);
	put_table(f, NULL, true);
	for (size_t i = 0; i < registry_count; i++) {
		const struct section *c = registry[i];

		if (c->report_only)
			continue;
		if (c->usage)
			fprintf(f, "\n### `%s`\n%s.\n\n", c->usage, c->summary);
		else
			fprintf(f, "\n### `mlpscope %s`\n%s.\n\n", c->name, c->summary);
		if (!put_table(f, c, false))
			fputs("No options of its own.\n", f);
	}
}

int options_doc_find(const char *doc, const char **body, size_t *len)
{
	const char *a = strstr(doc, options_doc_begin), *b;

	if (!a || (a != doc && a[-1] != '\n'))
		return -ENOENT;
	a += strlen(options_doc_begin);
	if (*a++ != '\n' || !(b = strstr(a, options_doc_end)) || b[-1] != '\n')
		return -ENOENT;
	*body = a;
	*len = (size_t)(b - a);
	return 0;
}
