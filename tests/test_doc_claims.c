/*
 * Sentences in the docs that the code (or the validation record) must
 * back, each checked where it is made: a claim the tree cannot back fails
 * here rather than misleading a reader. The examples themselves are run by
 * test_doc_examples.c.
 */
#include "harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the sentence around each occurrence of word in text mentions
 * what (sentences end at ". " or a blank line). */
static bool sentence_with_mentions(const char *text, const char *word, const char *what)
{
	for (const char *at = strstr(text, word); at; at = strstr(at + 1, word)) {
		const char *a = at, *b = at;

		while (a > text && !(a[-1] == ' ' && a[-2] == '.') && !(a[-1] == '\n' && a[-2] == '\n'))
			a--;
		while (*b && !(b[0] == '.' && (b[1] == ' ' || b[1] == '\n')) && !(b[0] == '\n' && b[1] == '\n'))
			b++;
		const char *p = strstr(a, what);

		if (p && p < b)
			return true;
	}
	return false;
}

/* A CPU table of docs/VALIDATION.md ("## " heading) for an AArch64 machine. */
static bool validation_has_aarch64_hardware(const char *validation)
{
	for (const char *h = strstr(validation, "\n## "); h; h = strstr(h + 1, "\n## ")) {
		const char *end = strchr(h + 1, '\n'), *p = strstr(h, "AArch64");

		if (p && (!end || p < end))
			return true;
	}
	return false;
}

TEST(docs_call_aarch64_first_class_only_with_hardware_in_validation)
{
	char *readme = test_read_text("README.md"), *validation = test_read_text("docs/VALIDATION.md");

	CHECK(readme && validation, "README.md or docs/VALIDATION.md unreadable (run from the repository root)");
	CHECK(!sentence_with_mentions(readme, "first-class", "AArch64") || validation_has_aarch64_hardware(validation),
	      "README calls AArch64 first-class, but docs/VALIDATION.md has no AArch64 machine (it has run only "
	      "under emulation)");
	CHECK(strstr(readme, "AArch64") && sentence_with_mentions(readme, "emulation", "AArch64"),
	      "README should say AArch64 has run only under emulation");
	free(readme);
	free(validation);
}

/* The full report runs app bzip2's short form (sections/app.c): the docs
 * that list what the full report runs say so. */
TEST(docs_say_the_full_report_decodes_bzip2_in_its_short_form)
{
	char *output = test_read_text("docs/OUTPUT.md"), *method = test_read_text("docs/METHODOLOGY.md");
	const char *row, *row_end, *para, *para_end;

	CHECK(output && method, "docs unreadable (run from the repository root)");
	row = strstr(output, "\n| `app` |");
	row_end = row ? strchr(row + 1, '\n') : NULL;
	CHECK(row && row_end && strstr(row, "bzip2") && strstr(row, "bzip2") < row_end,
	      "docs/OUTPUT.md's `app` row leaves out app.bzip2's short form in the full report");
	/* METHODOLOGY's first paragraph (after its title) lists what the full report runs */
	para = strstr(method, "\n\n");
	para_end = para ? strstr(para + 2, "\n\n") : NULL;
	CHECK(para_end && strstr(para, "app bzip2") && strstr(para, "app bzip2") < para_end,
	      "docs/METHODOLOGY.md's opening list of the full report leaves out app bzip2's short form");
	free(output);
	free(method);
}
