/* Writers: SHA-256, the JSON emitter and whole-or-nothing files. */
#include "../harness.h"

#include "util/atomic.h"
#include "util/jsonw.h"
#include "util/sha256.h"

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
