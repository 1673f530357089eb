/*
 * docs/OUTPUT.md's option lists are the ones the declarations produce:
 * the block between its marker lines is what options_doc_write writes now
 * (from the tables `help CMD` prints), byte for byte, so a changed
 * option's help, default or owner shows up as a stale document here, with
 * the command that rewrites it.
 */
#include "../harness.h"

#include "options_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Why doc's block is not want (the first differing line, numbered in
 * doc), or NULL when it is. */
static const char *block_stale(const char *doc, const char *want, char *why, size_t len)
{
	const char *body, *a, *b, *doc_line, *want_line = want;
	size_t body_len, line = 1;

	if (options_doc_find(doc, &body, &body_len)) {
		snprintf(why, len, "no line '%s' followed by a line '%s'", options_doc_begin, options_doc_end);
		return why;
	}
	if (body_len == strlen(want) && !memcmp(body, want, body_len))
		return NULL;
	for (const char *p = doc; p < body; p++)
		line += *p == '\n';
	doc_line = body;
	for (a = body, b = want; a < body + body_len && *b && *a == *b; a++, b++)
		if (*a == '\n') {
			line++;
			doc_line = a + 1;
			want_line = b + 1;
		}
	snprintf(why, len, "line %zu is '%.*s', the declarations give '%.*s'", line, (int)strcspn(doc_line, "\n"),
		 doc_line, (int)strcspn(want_line, "\n"), want_line);
	return why;
}

static char *generated(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	options_doc_write(f);
	fclose(f);
	return text;
}

TEST(output_md_option_lists_are_what_the_declarations_give)
{
	char path[4096], why[600];
	char *doc, *want = generated(), *broken;
	const char *stale, *body;
	size_t body_len;

	snprintf(path, sizeof(path), "%s/../docs/OUTPUT.md", test_bin_dir());
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "docs/OUTPUT.md");
	doc = test_read_text(path);
	CHECK(doc && want, "docs/OUTPUT.md unreadable, or nothing generated");
	stale = block_stale(doc, want, why, sizeof(why));
	CHECK(!stale, "docs/OUTPUT.md's option lists differ from the options' declarations: %s (run `make docs` "
	      "to rewrite them)", why);
	CHECK(strstr(want, "| `--json FILE` |") && strstr(want, "### `mlpscope latency`") &&
	      strstr(want, "| `--lanes "), "the lists lack --json, latency's heading or --lanes");
	/* The check itself: one character changed in the block, or the end
	 * marker gone, is found. */
	CHECK((broken = strdup(doc)) && !options_doc_find(broken, &body, &body_len) && body_len > 10, "no block");
	broken[body - broken + body_len / 2] ^= 1;
	CHECK(block_stale(broken, want, why, sizeof(why)), "a changed block passed");
	broken[body - broken + body_len / 2] ^= 1;
	CHECK(!block_stale(broken, want, why, sizeof(why)), "the block restored failed: %s", why);
	broken[body - broken + body_len] = 'x';
	CHECK(block_stale(broken, want, why, sizeof(why)) && strstr(why, "no line"), "a lost end marker passed");
	free(broken);
	free(doc);
	free(want);
}
