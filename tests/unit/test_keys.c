/*
 * A section's JSON keys spelled once: the latency writer and view name each
 * key (and each headline figure) through report/latency_keys.h, and the
 * machine caches they read through report/machine_keys.h, so a key spelled
 * by hand again in either file, a string that is a defined key or a path
 * "latency.KEY...", is drift waiting to happen and fails here. Read as source text: comments are
 * skipped, a string opening a brace initializer is a column's shown title
 * ({ "pages", LATENCY_POINT_KEY_PAGES, F_TEXT }), and the strings a
 * printf-family call or HTML_ROWS is given are shown text ("trials" in the
 * text table's header, the caption "fillers"). The window section's
 * writer and view are held to report/window_keys.h the same way.
 */
#include "../harness.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_KEYS 256

/* The values a keys header defines. */
struct keys {
	char value[MAX_KEYS][64];
	size_t n;
};

static void repo_path(char *out, size_t len, const char *rel)
{
	snprintf(out, len, "%s/../%s", test_bin_dir(), rel);
	if (access(out, R_OK))
		snprintf(out, len, "%s", rel);
}

static char *repo_text(const char *rel)
{
	char path[PATH_MAX];

	repo_path(path, sizeof(path), rel);
	return test_read_text(path);
}

/* Each line `#define NAME "value"` of text adds value; the count added. */
static size_t keys_read(struct keys *k, const char *text)
{
	size_t added = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p, *end;

		if (strncmp(q, "#define ", 8))
			continue;
		q += 8;
		while (*q && *q != ' ' && *q != '\t' && *q != '\n')
			q++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '"' || !(end = strchr(q + 1, '"')) || end - q - 1 >= 64 || k->n >= MAX_KEYS)
			continue;
		memcpy(k->value[k->n], q + 1, (size_t)(end - q - 1));
		k->value[k->n++][end - q - 1] = '\0';
		added++;
	}
	return added;
}

static bool keys_has(const struct keys *k, const char *s, size_t len)
{
	for (size_t i = 0; i < k->n; i++)
		if (strlen(k->value[i]) == len && !strncmp(k->value[i], s, len))
			return true;
	return false;
}

/* Whether the string s (len bytes, no quotes) spells a key by hand: a
 * path "SECTION.KEY..." whose first key is defined, or, where it is no
 * shown text, a defined key itself. */
static bool spelled(const struct keys *k, const char *section, const char *s, size_t len, bool shown)
{
	size_t n = strlen(section), c;

	if (len > n && !strncmp(s, section, n) && s[n] == '.') {
		for (c = n + 1; c < len && s[c] != '.' && s[c] != '['; c++)
			;
		if (keys_has(k, s + n + 1, c - n - 1))
			return true;
	}
	return !shown && keys_has(k, s, len);
}

/* Whether the "(" at p opens a call whose own strings are shown text: a
 * printf-family call, or HTML_ROWS (its caption). */
static bool opens_shown(const char *text, const char *p)
{
	const char *b = p;

	while (b > text && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') || (b[-1] >= 'A' && b[-1] <= 'Z') ||
			    (b[-1] >= '0' && b[-1] <= '9')))
		b--;
	return (p - b >= 6 && !strncmp(p - 6, "printf", 6)) || (p - b == 9 && !strncmp(b, "HTML_ROWS", 9));
}

/* Whether the string opening at p is the first thing in a brace (a title). */
static bool opens_brace(const char *text, const char *p)
{
	while (p > text && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n'))
		p--;
	return p > text && p[-1] == '{';
}

/* The first string of text (code, not comments) that spells a key by
 * hand, as "line N: \"...\"" in out; false when none does. */
static bool hand_spelled(const struct keys *k, const char *section, const char *text, char *out, size_t len)
{
	int depth = 0, shown_at = -1, line = 1;

	for (const char *p = text; *p; p++) {
		const char *end;

		line += *p == '\n';
		if (!strncmp(p, "/*", 2) || !strncmp(p, "//", 2)) {
			/* On to the comment's last character: the closing '/', or
			 * the one before the newline, which the loop then counts. */
			if (!(end = p[1] == '*' ? strstr(p + 2, "*/") : strchr(p, '\n')))
				break;
			for (end += p[1] == '*' ? 1 : -1; p < end; p++)
				line += p[1] == '\n' && p + 1 < end;
			continue;
		}
		if (*p == '\'') {
			for (p++; *p && *p != '\''; p++)
				p += *p == '\\' && p[1];
			if (!*p)
				break;
			continue;
		}
		if (*p == '(') {
			if (shown_at < 0 && opens_shown(text, p))
				shown_at = depth;
			depth++;
		} else if (*p == ')' && --depth == shown_at) {
			shown_at = -1;
		}
		if (*p != '"')
			continue;
		for (end = p + 1; *end && *end != '"'; end++)
			end += *end == '\\' && end[1];
		/* Only the shown call's own arguments: a lookup nested in it is code. */
		if (spelled(k, section, p + 1, (size_t)(end - p - 1),
			    (shown_at >= 0 && depth == shown_at + 1) || opens_brace(text, p))) {
			snprintf(out, len, "line %d: %.*s", line, (int)(end - p + 1), p);
			return true;
		}
		if (!*(p = end))
			break;
	}
	return false;
}

static size_t keys_from(struct keys *k, const char *header)
{
	char *text = repo_text(header);
	size_t n = text ? keys_read(k, text) : 0;

	free(text);
	return n;
}

/* The first of files that spells one of k's keys (section's) by hand, as
 * "FILE: line N: \"...\"" in out; false when none does or a file is unread. */
static bool section_spelled(const struct keys *k, const char *section, const char *const *files, size_t nfiles,
			    char *out, size_t len)
{
	char why[200];

	for (size_t i = 0; i < nfiles; i++) {
		char *text = repo_text(files[i]);
		bool found = !text || hand_spelled(k, section, text, why, sizeof(why));

		free(text);
		if (found) {
			snprintf(out, len, "%s: %s", files[i], text ? why : "not read");
			return true;
		}
	}
	return false;
}

TEST(latency_writer_and_view_spell_no_key_by_hand)
{
	static const char *const files[] = { "src/report/latency_out.c", "src/report/latency_view.c" };
	static struct keys k, m;
	char why[300];

	k.n = m.n = 0;
	CHECK(keys_from(&k, "src/report/latency_keys.h") >= 50, "src/report/latency_keys.h: only %zu keys read", k.n);
	CHECK(keys_from(&m, "src/report/machine_keys.h") >= 3, "src/report/machine_keys.h: only %zu keys read", m.n);
	CHECK(!section_spelled(&k, "latency", files, 2, why, sizeof(why)),
	      "a latency key spelled by hand (name it from report/latency_keys.h): %s", why);
	CHECK(!section_spelled(&m, "machine", files, 2, why, sizeof(why)),
	      "a machine cache key spelled by hand (name it from report/machine_keys.h): %s", why);
}

TEST(window_writer_and_view_spell_no_key_by_hand)
{
	static const char *const files[] = { "src/report/window_out.c", "src/report/window_view.c" };
	static struct keys k;
	char why[300];

	k.n = 0;
	CHECK(keys_from(&k, "src/report/window_keys.h") >= 50, "src/report/window_keys.h: only %zu keys read", k.n);
	CHECK(!section_spelled(&k, "window", files, 2, why, sizeof(why)),
	      "a window key spelled by hand (name it from report/window_keys.h): %s", why);
}

/* The first key name (PREFIX..._KEY_...) header defines that writer never
 * uses, in out; false when every one is used. *checked: how many. */
static bool unwritten_key(const char *header, const char *prefix, const char *writer, char *out, size_t len,
			  size_t *checked)
{
	char *h = repo_text(header), *w = repo_text(writer), def[48];
	bool unused = !h || !w;

	snprintf(def, sizeof(def), "\n#define %s", prefix);
	snprintf(out, len, "%s or %s not read", header, writer);
	*checked = 0;
	for (const char *p = unused ? NULL : strstr(h, def); p && !unused; p = strstr(p + 1, def)) {
		const char *q = p + 9, *at;
		size_t n = strcspn(q, " \t\n");
		bool used = false;

		/* Only the keys: a headline figure's name is the view's own. */
		if (!memchr(q, '"', strcspn(q, "\n")) || n >= len || !memmem(q, n, "_KEY_", 5))
			continue;
		snprintf(out, len, "%.*s", (int)n, q);
		for (at = strstr(w, out); at && !used; at = strstr(at + 1, out))
			used = !(at[n] == '_' || (at[n] >= 'A' && at[n] <= 'Z'));
		++*checked;
		unused = !used;
	}
	free(h);
	free(w);
	return unused;
}

/* Every key a keys header defines (..._KEY_...) is one the writer writes
 * through it: a constant the writer stopped using names a key no result
 * holds. */
TEST(every_defined_key_is_written_through_its_name)
{
	char why[100];
	size_t n;

	CHECK(!unwritten_key("src/report/latency_keys.h", "LATENCY_", "src/report/latency_out.c", why, sizeof(why), &n),
	      "%s: defined in latency_keys.h, written nowhere in latency_out.c", why);
	CHECK(n >= 50, "only %zu key names read from latency_keys.h", n);
	CHECK(!unwritten_key("src/report/window_keys.h", "WINDOW_", "src/report/window_out.c", why, sizeof(why), &n),
	      "%s: defined in window_keys.h, written nowhere in window_out.c", why);
	CHECK(n >= 50, "only %zu key names read from window_keys.h", n);
}

/* The check itself: planted hand-spelled keys fire; titles, shown text,
 * comments and composed paths pass. */
TEST(hand_spelled_key_check_fires_on_a_planted_key)
{
	struct keys k = { .n = 0 };
	char why[200];

	keys_read(&k, "#define LATENCY_POINT_KEY_CHASE_NS \"chase_ns\"\n#define LATENCY_KEY_POINTS \"points\"\n"
		      "#define LATENCY_POINT_KEY_TRIALS \"trials\"\n");
	CHECK(k.n == 3, "%zu keys read from a planted header", k.n);
	CHECK(hand_spelled(&k, "latency", "x = summary_number(e, \"chase_ns\");", why, sizeof(why)),
	      "a lookup by a literal key passed");
	CHECK(hand_spelled(&k, "latency", "x = jsonr_get(doc, \"latency.points\");", why, sizeof(why)),
	      "a literal path passed");
	CHECK(hand_spelled(&k, "latency", "snprintf(f, n, \"latency.points[%zu].chase_ns\", i);", why, sizeof(why)),
	      "a literal path inside a printf passed");
	CHECK(hand_spelled(&k, "latency", "{ \"chase (ns)\", \"chase_ns\", 3 },", why, sizeof(why)),
	      "a column's literal key passed");
	CHECK(!hand_spelled(&k, "latency", "{ \"trials\", LATENCY_POINT_KEY_TRIALS, F_TEXT },", why, sizeof(why)),
	      "a column's title fired: %s", why);
	CHECK(!hand_spelled(&k, "latency", "fprintf(f, \"%s %s\\n\", \"pages\",\n\t\"trials\");", why, sizeof(why)),
	      "shown text fired: %s", why);
	CHECK(hand_spelled(&k, "latency", "fprintf(f, \"%g\", summary_number(e, \"chase_ns\"));", why, sizeof(why)),
	      "a literal key looked up inside a printf passed");
	CHECK(hand_spelled(&k, "latency", "HTML_ROWS(f, jsonr_get(v, \"points\"), cols, \"points\");", why, sizeof(why)),
	      "a literal key looked up inside HTML_ROWS passed");
	CHECK(!hand_spelled(&k, "latency", "HTML_ROWS(f, v, cols, \"points\");", why, sizeof(why)),
	      "a caption fired: %s", why);
	CHECK(!hand_spelled(&k, "latency", "/* \"chase_ns\" */ x = '\"'; // \"points\"\n", why, sizeof(why)),
	      "a comment fired: %s", why);
	CHECK(!hand_spelled(&k, "latency", "x = jsonr_get(doc, \"latency.\" LATENCY_KEY_POINTS);", why, sizeof(why)),
	      "a composed path fired: %s", why);
	CHECK(!hand_spelled(&k, "latency", "x = jsonr_get(doc, \"loaded.points\");", why, sizeof(why)),
	      "another section's path fired: %s", why);
}
