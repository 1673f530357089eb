/*
 * The strict JSON reader: a valid document read back by path, every prefix
 * of a document refused as truncated with a line and column, a table of
 * malformed inputs, random byte damage (never a crash, never a silent
 * partial tree), and nesting far past the limit without using the C stack.
 */
#include "../harness.h"

#include "util/jsonr.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char sample[] =
	"{\n"
	"  \"tool\": \"mlpscope\",\n"
	"  \"schema_version\": 1,\n"
	"  \"text\": \"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00\",\n"
	"  \"utf8\": \"\xc3\xa9\",\n"
	"  \"nums\": [0, -0.5e3, 1E+2, 12.25, -7],\n"
	"  \"flags\": {\"on\": true, \"off\": false, \"none\": null},\n"
	"  \"mlp\": {\"small\": {\"sweep\": [{\"lanes\": 1, \"ns\": 150.5}, {\"lanes\": 2, \"ns\": 75.25}]}},\n"
	"  \"empty\": {\"a\": [], \"o\": {}}\n"
	"}";

TEST(jsonr_reads_a_valid_document_by_path)
{
	struct jsonr_doc doc;
	char err[160];
	double v;
	bool b;

	CHECK(jsonr_parse(sample, strlen(sample), 0, &doc, err, sizeof(err)) == 0, "parse: %s", err);
	CHECK(!strcmp(jsonr_get_string(doc.root, "tool"), "mlpscope"), "tool");
	CHECK(jsonr_get_number(doc.root, "schema_version", &v) && v == 1, "schema");
	CHECK(!strcmp(jsonr_get_string(doc.root, "text"), "a\"b\\c/d\n\xc3\xa9\xf0\x9f\x98\x80"), "escapes decoded");
	CHECK(!strcmp(jsonr_get_string(doc.root, "utf8"), "\xc3\xa9"), "raw UTF-8 kept");
	CHECK(jsonr_get_count(doc.root, "nums") == 5, "array count");
	CHECK(jsonr_get_number(doc.root, "nums[1]", &v) && v == -500, "-0.5e3 = %g", v);
	CHECK(jsonr_get_number(doc.root, "nums[2]", &v) && v == 100, "1E+2");
	CHECK(jsonr_get_number(doc.root, "nums[3]", &v) && v == 12.25, "12.25");
	CHECK(!jsonr_get(doc.root, "nums[5]"), "past the end");
	CHECK(jsonr_get_bool(doc.root, "flags.on", &b) && b, "true");
	CHECK(jsonr_get_bool(doc.root, "flags.off", &b) && !b, "false");
	CHECK(jsonr_get(doc.root, "flags.none")->type == JSONR_NULL, "null");
	CHECK(!jsonr_get_bool(doc.root, "flags.none", &b), "null is not a bool");
	CHECK(jsonr_get_number(doc.root, "mlp.small.sweep[1].ns", &v) && v == 75.25, "deep path");
	CHECK(!jsonr_get(doc.root, "mlp.huge.sweep"), "absent member");
	CHECK(!jsonr_get(doc.root, "mlp.small.sweep[x]"), "bad index");
	CHECK(!jsonr_get_string(doc.root, "schema_version"), "wrong type");
	CHECK(jsonr_get_count(doc.root, "empty.a") == 0 && jsonr_get(doc.root, "empty.o")->type == JSONR_OBJECT, "empties");
	CHECK(jsonr_member(doc.root, "mlp") == jsonr_get(doc.root, "mlp"), "member");
	CHECK(jsonr_get(doc.root, "") == doc.root, "empty path");
	jsonr_free(&doc);
	CHECK(!doc.root && !doc.blocks, "freed");
}

TEST(jsonr_every_prefix_is_refused_as_truncated)
{
	size_t len = strlen(sample);

	for (size_t n = 0; n < len; n++) {
		struct jsonr_doc doc;
		char err[160];
		int rc = jsonr_parse(sample, n, 0, &doc, err, sizeof(err));

		CHECK(rc == -EBADMSG, "prefix %zu accepted", n);
		CHECK(!doc.root, "prefix %zu left a tree", n);
		CHECK(!strncmp(err, "line ", 5) && strstr(err, ", column "), "prefix %zu: '%s'", n, err);
		CHECK(strstr(err, "truncated"), "prefix %zu: not called truncated: '%s'", n, err);
	}
	{
		struct jsonr_doc doc;
		char err[160];
		const char *t = "{\n  \"a\": [1, 2";

		jsonr_parse(t, strlen(t), 0, &doc, err, sizeof(err));
		CHECK(!strcmp(err, "line 2, column 13: unexpected end of input, expected ',' or ']' (truncated?)"), "'%s'",
		      err);
	}
}

TEST(jsonr_refuses_malformed_input_with_a_position)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"", "line 1, column 1: unexpected end of input, expected a value"},
		{"[1,]", "line 1, column 4: expected a value"},
		{"{\"a\":1,}", "line 1, column 8: expected a string key"},
		{"[01]", "line 1, column 3: leading zero"},
		{"[NaN]", "expected a value"},
		{"[1.]", "expected a digit after '.'"},
		{"[1e]", "expected exponent digits"},
		{"[-]", "expected a digit"},
		{"{'a': 1}", "expected a string key"},
		{"[1] // c", "unexpected text after the document"},
		{"[1] [2]", "line 1, column 5: unexpected text after the document"},
		{"{\"a\" 1}", "expected ':'"},
		{"[\"a\tb\"]", "raw control character 0x09"},
		{"[\"\\x\"]", "unknown escape"},
		{"[\"\\ud800\"]", "without its low half"},
		{"[\"\\udc00\"]", "lone low surrogate"},
		{"[\"\\u12g4\"]", "four hex digits"},
		{"[\"\xc3\x28\"]", "invalid UTF-8"},
		{"[\"\xc0\xaf\"]", "invalid UTF-8"},
		{"[\"\xed\xa0\x80\"]", "invalid UTF-8"},
		{"[tru]", "expected a value"},
		{"[1e999]", "number out of range"},
		{"[1 2]", "expected ',' or ']'"},
		{"{\"a\":1 \"b\":2}", "expected ',' or '}'"},
		{"[1}", "expected ',' or ']'"},
		{"\n\n   x", "line 3, column 4: expected a value"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jsonr_doc doc;
		char err[160];
		int rc = jsonr_parse(cases[i].text, strlen(cases[i].text), 0, &doc, err, sizeof(err));

		CHECK(rc == -EBADMSG, "case %zu '%s' accepted", i, cases[i].text);
		CHECK(strstr(err, cases[i].want) && !strncmp(err, "line ", 5), "case %zu: '%s', want '%s'", i, err,
		      cases[i].want);
	}
	{
		struct jsonr_doc doc;
		char err[160];
		const char nul[] = "[1,\0 2]";

		CHECK(jsonr_parse(nul, sizeof(nul) - 1, 0, &doc, err, sizeof(err)) == -EBADMSG, "embedded NUL accepted");
	}
}

TEST(jsonr_survives_random_damage)
{
	size_t len = strlen(sample);
	char *buf = malloc(len);
	uint64_t x = 99;
	int ok = 0, refused = 0;

	CHECK(buf, "malloc");
	for (int i = 0; i < 20000; i++) {
		struct jsonr_doc doc;
		char err[160];
		int rc, flips;

		memcpy(buf, sample, len);
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		flips = 1 + (int)(x % 3);
		for (int f = 0; f < flips; f++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[(x >> 8) % len] = (char)(x >> 40);
		}
		rc = jsonr_parse(buf, len - (x >> 50) % 4, 0, &doc, err, sizeof(err));
		if (rc) {
			if (rc != -EBADMSG || doc.root != NULL || strncmp(err, "line ", 5)) {
				free(buf);
				CHECK(0, "damage %d: rc %d root %p err '%s'", i, rc, (void *)doc.root, err);
			}
			refused++;
		} else {
			CHECK(doc.root, "accepted without a root");
			ok++;
		}
		jsonr_free(&doc);
	}
	free(buf);
	CHECK(refused > 10000, "refused %d, accepted %d", refused, ok);
}

TEST(jsonr_depth_limit_holds_without_the_c_stack)
{
	size_t deep = 1000000;
	char *buf = malloc(2 * deep);
	struct jsonr_doc doc;
	char err[160];
	int rc;

	CHECK(buf, "malloc");
	for (size_t i = 0; i < deep; i++) {
		buf[i] = '[';
		buf[2 * deep - 1 - i] = ']';
	}
	rc = jsonr_parse(buf, 2 * deep, 0, &doc, err, sizeof(err));
	CHECK(rc == -EBADMSG && strstr(err, "nesting deeper than 64 levels") && strstr(err, "column 65"),
	      "a million levels: rc %d '%s'", rc, err);
	/* exactly at the limit is fine, one more is not */
	rc = jsonr_parse(buf + deep - 64, 128, 0, &doc, err, sizeof(err));
	CHECK(rc == 0 && doc.root && doc.root->type == JSONR_ARRAY, "64 levels: rc %d '%s'", rc, err);
	jsonr_free(&doc);
	rc = jsonr_parse(buf + deep - 65, 130, 0, &doc, err, sizeof(err));
	CHECK(rc == -EBADMSG, "65 levels accepted");
	/* the caller's own limit; deep enough for a million-level document,
	 * which a recursive parser would not survive on an 8 MiB stack */
	rc = jsonr_parse(buf, 2 * deep, (unsigned)deep, &doc, err, sizeof(err));
	CHECK(rc == 0, "a million levels with the limit raised: '%s'", err);
	jsonr_free(&doc);
	free(buf);
}

TEST(jsonr_reads_files_and_names_them_in_errors)
{
	char path[] = "/tmp/mlpscope-jsonr-XXXXXX", err[300];
	int fd = mkstemp(path);
	struct jsonr_doc doc;
	double v;

	CHECK(fd >= 0, "mkstemp");
	CHECK(write(fd, sample, strlen(sample)) == (ssize_t)strlen(sample), "write");
	close(fd);
	CHECK(jsonr_parse_file(path, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	CHECK(jsonr_get_number(doc.root, "mlp.small.sweep[0].ns", &v) && v == 150.5, "value from file");
	jsonr_free(&doc);
	CHECK(truncate(path, 40) == 0, "truncate");
	CHECK(jsonr_parse_file(path, 0, &doc, err, sizeof(err)) == -EBADMSG, "truncated file");
	CHECK(!strncmp(err, path, strlen(path)) && strstr(err, "line 3, column"), "'%s'", err);
	unlink(path);
	CHECK(jsonr_parse_file(path, 0, &doc, err, sizeof(err)) == -ENOENT, "missing file");
	CHECK(strstr(err, path), "names the file: '%s'", err);
}

/* Numbers are converted without strtod where one multiply or divide is
 * exact (util/jsonr.c): every conversion must still equal strtod's bit for
 * bit, on the forms results hold and on the edges of that path (2^53, 10^22,
 * signed zeros, digits past what a double holds, exponents far out). */
TEST(jsonr_numbers_equal_strtod_bit_for_bit)
{
	static const char *const edges[] = {
		"0", "-0", "-0.0", "0e5", "-0E-7", "1", "-1", "9007199254740992", "9007199254740993",
		"9007199254740991.5", "1e22", "1e23", "9e22", "1e-22", "1e-23", "4.35e-22", "123456789012345678901234",
		"0.1", "0.2", "0.3", "2.5e-3", "157.3", "268435456", "1.7976931348623157e308", "2.2250738585072014e-308",
		"4.9e-324", "5e-324", "1e-400", "1.00000000000000000000000001", "0.000000000000000000000000000001",
		"3.141592653589793", "2.718281828459045e+00", "1e0", "12345.678e-3", "99999999999999999",
	};
	char text[96], err[128];
	uint64_t x = 0x9e3779b97f4a7c15u;

	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]) + 200000; i++) {
		struct jsonr_doc doc;
		double want, got;

		if (i < sizeof(edges) / sizeof(edges[0])) {
			snprintf(text, sizeof(text), "%s", edges[i]);
		} else {
			/* Random decimals: up to 17 significant digits, a point
			 * anywhere, sometimes an exponent. */
			char digits[24];
			int nd, point, ex;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			nd = 1 + (int)(x % 17);
			for (int d = 0; d < nd; d++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				digits[d] = (char)('0' + x % 10);
			}
			digits[0] = nd > 1 && digits[0] == '0' ? '7' : digits[0];
			digits[nd] = 0;
			point = (int)((x >> 20) % (unsigned)(nd + 1));
			ex = (int)((x >> 30) % 61) - 30;
			snprintf(text, sizeof(text), "%s%.*s%s%s", (x >> 40) & 1 ? "-" : "", point ? point : nd, digits,
				 point && point < nd ? "." : "", point && point < nd ? digits + point : "");
			if ((x >> 41) & 1)
				snprintf(text + strlen(text), sizeof(text) - strlen(text), "e%d", ex);
		}
		want = strtod(text, NULL);
		CHECK(jsonr_parse(text, strlen(text), 0, &doc, err, sizeof(err)) == 0 ||
			      (!isfinite(want) && strstr(err, "out of range")),
		      "'%s' refused: %s", text, err);
		if (!isfinite(want))
			continue;
		got = doc.root->u.number;
		jsonr_free(&doc);
		CHECK(memcmp(&got, &want, sizeof(got)) == 0, "'%s' read as %.17g, strtod says %.17g", text, got, want);
	}
}
