/* Writers: SHA-256, the JSON emitter and whole-or-nothing files. */
#include "../harness.h"

#include "util/atomic.h"
#include "util/jsonw.h"
#include "util/sha256.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void hash_of(const char *s, char hex[65])
{
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, s, strlen(s));
	sha256_final_hex(&h, hex);
}

TEST(sha256_matches_fips_vectors)
{
	char hex[65];

	hash_of("", hex);
	CHECK(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "empty: %s", hex);
	hash_of("abc", hex);
	CHECK(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "abc: %s", hex);
	hash_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", hex);
	CHECK(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"), "448-bit: %s", hex);
}

TEST(json_writer_escapes_and_nulls_non_finite)
{
	char buf[1024] = {0};
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	struct jsonw w;

	CHECK(f, "fmemopen");
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "s", "a\"b\\c\n\x01");
	jsonw_double(&w, "nan", 0.0 / 0.0);
	jsonw_array_begin(&w, "empty");
	jsonw_array_end(&w);
	jsonw_array_begin(&w, "xs");
	jsonw_int(&w, NULL, -3);
	jsonw_bool(&w, NULL, true);
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	jsonw_finish(&w);
	fclose(f);
	CHECK(strstr(buf, "\"a\\\"b\\\\c\\n\\u0001\""), "escaping: %s", buf);
	CHECK(strstr(buf, "\"nan\": null"), "NaN must be null: %s", buf);
	CHECK(strstr(buf, "\"empty\": []"), "empty array: %s", buf);
	CHECK(strstr(buf, "-3,\n    true"), "array items: %s", buf);
}

/* Every width and kind a table row takes, at odd offsets. */
struct fields_sample {
	char c;
	uint8_t u8;
	uint16_t u16;
	unsigned u32;
	size_t u64;
	int8_t i8;
	int i32;
	int64_t i64;
	double d;
	bool b;
	const char *s;
	const char *null_s;
	char text[12];
	uint64_t hash;
	struct { unsigned inner; } nested;
};

#define SAMPLE_FIELD(kind, key, member) JSONW_FIELD(kind, key, struct fields_sample, member)
static const struct jsonw_field sample_fields[] = {
	SAMPLE_FIELD(UINT, "u8", u8), SAMPLE_FIELD(UINT, "u16", u16), SAMPLE_FIELD(UINT, "u32", u32),
	SAMPLE_FIELD(UINT, "u64", u64), SAMPLE_FIELD(INT, "i8", i8), SAMPLE_FIELD(INT, "i32", i32),
	SAMPLE_FIELD(INT, "i64", i64), SAMPLE_FIELD(DOUBLE, "d", d), SAMPLE_FIELD(BOOL, "b", b),
	SAMPLE_FIELD(STRING, "s", s), SAMPLE_FIELD(STRING, "null_s", null_s), SAMPLE_FIELD(TEXT, "text", text),
	SAMPLE_FIELD(HEX64, "hash", hash), SAMPLE_FIELD(UINT, "inner", nested.inner),
};
#undef SAMPLE_FIELD

/* The sample written key by key with the calls a table row stands for. */
static void sample_by_calls(struct jsonw *w, const struct fields_sample *x)
{
	jsonw_object_begin(w, NULL);
	jsonw_uint(w, "u8", x->u8);
	jsonw_uint(w, "u16", x->u16);
	jsonw_uint(w, "u32", x->u32);
	jsonw_uint(w, "u64", x->u64);
	jsonw_int(w, "i8", x->i8);
	jsonw_int(w, "i32", x->i32);
	jsonw_int(w, "i64", x->i64);
	jsonw_double(w, "d", x->d);
	jsonw_bool(w, "b", x->b);
	jsonw_string(w, "s", x->s);
	jsonw_string(w, "null_s", x->null_s);
	jsonw_string(w, "text", x->text);
	jsonw_hex64(w, "hash", x->hash);
	jsonw_uint(w, "inner", x->nested.inner);
	jsonw_object_end(w);
}

/* One element's members for jsonw_object_array_each: the table's rows. */
static void sample_members(struct jsonw *w, const void *e)
{
	JSONW_FIELDS(w, e, sample_fields);
}

TEST(json_writer_fields_match_the_calls)
{
	static const struct fields_sample xs[2] = {
		{ 'a', 200, 65000, 4000000000u, (size_t)1 << 40, -100, -2000000000, INT64_MIN, 1.5e-300, true, "q\"s",
		  NULL, "eleven char", 0xfedcba9876543210ull, { 7 } },
		{ 'b', 0, 1, 2, 3, 4, 5, 6, 0.0 / 0.0, false, "", "x", "", 0, { 0 } },
	};
	char by_calls[4096] = {0}, by_table[4096] = {0}, by_each[4096] = {0};
	FILE *f = fmemopen(by_calls, sizeof(by_calls) - 1, "w");
	struct jsonw w;

	CHECK(f, "fmemopen");
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	jsonw_array_begin(&w, "xs");
	sample_by_calls(&w, &xs[0]);
	sample_by_calls(&w, &xs[1]);
	jsonw_array_end(&w);
	jsonw_object_begin(&w, "one");
	sample_by_calls(&w, &xs[0]);
	jsonw_object_end(&w);
	jsonw_object_end(&w);
	fclose(f);
	f = fmemopen(by_table, sizeof(by_table) - 1, "w");
	CHECK(f, "fmemopen");
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	JSONW_OBJECT_ARRAY(&w, "xs", xs, 2, sample_fields);
	jsonw_object_begin(&w, "one");
	JSONW_FIELDS_OBJECT(&w, NULL, &xs[0], sample_fields);
	jsonw_object_end(&w);
	jsonw_object_end(&w);
	fclose(f);
	/* The loop with a function per element writes what the table's loop
	 * writes, braces and all. */
	f = fmemopen(by_each, sizeof(by_each) - 1, "w");
	CHECK(f, "fmemopen");
	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	JSONW_OBJECT_ARRAY_EACH(&w, "xs", xs, 2, sample_members);
	jsonw_object_begin(&w, "one");
	JSONW_FIELDS_OBJECT(&w, NULL, &xs[0], sample_fields);
	jsonw_object_end(&w);
	jsonw_object_end(&w);
	fclose(f);
	CHECK(!strcmp(by_each, by_table), "the per-element loop wrote other bytes:\n%s\n---\n%s", by_each, by_table);
	CHECK(strstr(by_calls, "\"i64\": -9223372036854775808"), "sample lacks i64: %s", by_calls);
	CHECK(!strcmp(by_calls, by_table), "a table wrote other bytes than the calls:\n%s\n---\n%s", by_calls, by_table);
}

TEST(atomic_file_is_whole_or_absent)
{
	char dir[] = "/tmp/mlpscope-test-XXXXXX", path[256];
	struct atomic_file a;
	struct stat st;

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/out.json", dir);
	CHECK(atomic_open(&a, path) == 0, "open");
	fputs("partial", a.f);
	CHECK(stat(path, &st) != 0, "destination exists before commit");
	atomic_abort(&a);
	CHECK(stat(path, &st) != 0, "abort left a destination");
	CHECK(atomic_open(&a, path) == 0, "reopen");
	fputs("whole", a.f);
	CHECK(atomic_commit(&a) == 0, "commit");
	CHECK(stat(path, &st) == 0 && st.st_size == 5, "committed size");
	unlink(path);
	CHECK(rmdir(dir) == 0, "temp files left behind in %s", dir);
	CHECK(atomic_open(&a, "/nonexistent-dir/x.json") < 0, "unwritable path accepted");
}
