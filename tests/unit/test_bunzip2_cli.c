/*
 * mlpbunzip2 as a user runs it, in a scratch folder, each case a shell
 * line and what it must leave: FILE.bz2 -> FILE with the input removed,
 * -k, -c, -t, standard input, -f against an existing output, several
 * files with one corrupt, corrupt and truncated inputs and a block that
 * uses an oversubscribed code table (exit 2, one line, no output and no
 * temporary left), bad arguments (exit 1, one line), a
 * closed pipe (quiet) and an interrupt (the partial output removed). The
 * inputs come from libbz2 through the test fixture, so the expected bytes
 * are the ones compressed.
 */
#include "../harness.h"
#include "bzip2_fixture.h"

#include "exp/app/textgen.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Runs line in dir (the binary as $B): its exit status, output in out. */
static int sh(const char *dir, const char *line, char *out, size_t len)
{
	char cmd[8192], bin[PATH_MAX];
	size_t n = 0;
	FILE *p;
	int st;

	/* The case runs in dir: the binary by its absolute path. */
	if (!realpath(test_bin_dir(), bin))
		return -1;
	snprintf(cmd, sizeof(cmd), "cd '%s' && B='%s/mlpbunzip2' && { %s ; } 2>&1", dir, bin, line);
	if (!(p = popen(cmd, "r")))
		return -1;
	while (n + 1 < len && !feof(p)) {
		size_t got = fread(out + n, 1, len - 1 - n, p);

		if (!got)
			break;
		n += got;
	}
	out[n] = 0;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int put_file(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[512];
	FILE *f;
	size_t w;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "wb")))
		return -1;
	w = fwrite(p, 1, n, f);
	return fclose(f) || w != n ? -1 : 0;
}

/* text.bz2 (several blocks at level 1) and its plain text as want. */
static int make_inputs(const char *dir, size_t n)
{
	uint8_t *t = malloc(n), *z;
	size_t len;
	int rc = -1;

	if (!t)
		return -1;
	textgen_fill(t, n, TEXTGEN_MARKOV, 77);
	if ((z = bzip2_fixture_compress(t, n, 1, &len))) {
		rc = put_file(dir, "want", t, n) || put_file(dir, "text.bz2", z, len) ||
		     put_file(dir, "cut.bz2", z, len / 2) ? -1 : 0;
		free(z);
	}
	free(t);
	return rc;
}

TEST(bunzip2_cli_files_as_bzip2_leaves_them, NEEDS_BINARY | NEEDS_PROGRAMS | NEEDS_LIBBZ2)
{
	static const struct {
		const char *line;
		int status;
		const char *says;        /* in the output, or "" */
	} cases[] = {
		/* FILE.bz2 -> FILE, the input removed; the output's mode is the input's. */
		{"cp text.bz2 a.bz2 && chmod 640 a.bz2 && $B a.bz2 && cmp a want && test ! -e a.bz2 && "
		 "test \"$(stat -c %a a)\" = 640", 0, ""},
		{"cp text.bz2 k.tbz2 && $B -k -n 2 k.tbz2 && cmp k.tar want && test -e k.tbz2", 0, ""},
		{"cp text.bz2 odd && $B -k odd && cmp odd.out want", 0, "Can't guess original name for odd"},
		{"$B -c -n 1 text.bz2 | cmp - want && $B -c -n 3 text.bz2 | cmp - want", 0, ""},
		{"$B < text.bz2 | cmp - want && $B -n 2 - < text.bz2 | cmp - want && test -e text.bz2", 0, ""},
		{"cat text.bz2 text.bz2 > two.bz2 && cat want want > want2 && $B -c two.bz2 | cmp - want2", 0, ""},
		{"$B -t text.bz2 && $B -tv -n 2 text.bz2", 0, "text.bz2: ok"},
		/* An existing output is kept without -f and replaced with it. */
		{"cp text.bz2 e.bz2 && echo mine > e && $B e.bz2; s=$?; test \"$(cat e)\" = mine && test -e e.bz2 && "
		 "exit $s", 1, "Output file e already exists"},
		{"cp text.bz2 g.bz2 && echo mine > g && $B -f g.bz2 && cmp g want", 0, ""},
		/* Corrupt and truncated: exit 2, one line naming file, block and
		 * byte; no output, no temporary, the input kept. */
		{"$B -n 2 cut.bz2; s=$?; test ! -e cut && test -e cut.bz2 && test -z \"$(ls | grep mlpbunzip2-)\" && exit $s",
		 2, "cut.bz2: block "},
		{"$B -n 1 cut.bz2; s=$?; test ! -e cut && exit $s", 2, "truncated: the input ends"},
		{"$B -t cut.bz2", 2, "cut.bz2: block "},
		/* A block that uses an oversubscribed code table: bzip2 decodes
		 * it to undefined bytes and fails its CRC; refused here at the
		 * table. Both exit 2 and leave no output. */
		{"cp huff.bz2 h.bz2 && $B h.bz2; s=$?; test ! -e h && test -e h.bz2 && "
		 "test -z \"$(ls | grep mlpbunzip2-)\" && test -z \"$($B -c h.bz2 2>/dev/null)\" && exit $s",
		 2, "h.bz2: block 1 at byte 25: bad Huffman table"},
		{"printf 'not bzip2' > n.bz2 && $B n.bz2; s=$?; test ! -e n && exit $s", 2,
		 "n.bz2: stream 1 at byte 0: bad magic"},
		/* Several files: each tried, the worst status returned. */
		{"cp text.bz2 m1.bz2 && cp text.bz2 m3.bz2 && $B -k m1.bz2 cut.bz2 m3.bz2; s=$?; cmp m1 want && "
		 "cmp m3 want && exit $s", 2, "cut.bz2: block"},
		{"$B missing.bz2", 1, "Can't open input file missing.bz2"},
		{"cat text.bz2 | $B -c text.bz2 - | cmp - want2", 0, ""},
		/* Trailing garbage: a warning, success; -q silences it. */
		{"cat text.bz2 > tg.bz2 && echo junk >> tg.bz2 && $B -c tg.bz2 | cmp - want", 0,
		 "trailing garbage after EOF ignored"},
		{"$B -x text.bz2", 1, "-x: unknown option (accepted: "},
		{"$B -z text.bz2", 1, "compression is not supported"},
		{"$B -n zero text.bz2", 1, "'zero' is not a thread count"},
		/* A closed pipe ends it quietly (SIGPIPE, as bzip2). */
		{"$B -c -n 2 text.bz2 | head -c 10 > /dev/null", 0, ""},
	};
	char dir[256], out[8192], huff[PATH_MAX], line[PATH_MAX + 32];

	test_scratch_make(dir, sizeof(dir), "bunzip2");
	CHECK(dir[0], "mkdtemp");
	CHECK(!make_inputs(dir, 700000), "libbz2 could not make the inputs");
	CHECK(sh(dir, "cat want want > want2", out, sizeof(out)) == 0, "setup: %s", out);
	CHECK(realpath("tests/data/bzip2/bad_huffman_used.bz2", huff), "tests/data/bzip2/bad_huffman_used.bz2");
	snprintf(line, sizeof(line), "cp '%s' huff.bz2", huff);
	CHECK(sh(dir, line, out, sizeof(out)) == 0, "setup: %s", out);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int st = sh(dir, cases[i].line, out, sizeof(out));
		const char *nl = strchr(out, '\n');

		CHECK(st == cases[i].status && strstr(out, cases[i].says), "case %zu (%s): status %d, said:\n%s", i,
		      cases[i].line, st, out);
		/* An error is one line. */
		CHECK(!cases[i].status || (nl && !strchr(nl + 1, '\n')) || cases[i].says[0] == 0 ||
			      strstr(cases[i].line, "m1.bz2"), "case %zu: more than one line:\n%s", i, out);
		CHECK(cases[i].says[0] || !out[0], "case %zu said something:\n%s", i, out);
	}
	test_scratch_remove(dir, "bunzip2");
}

/* SIGINT while the output is being written: the temporary is removed and
 * no output appears. The input is a FIFO that stalls half way (taken with
 * -f, as bzip2 takes a special file). */
TEST(bunzip2_cli_interrupt_removes_the_partial_output, NEEDS_BINARY | NEEDS_PROGRAMS | NEEDS_LIBBZ2)
{
	char dir[256], out[4096];
	int st;

	test_scratch_make(dir, sizeof(dir), "bunzip2int");
	CHECK(dir[0], "mkdtemp");
	CHECK(!make_inputs(dir, 700000), "libbz2 could not make the inputs");
	st = sh(dir,
		"mkfifo f.bz2 || exit 9; timeout 10 sh -c '{ head -c 60000 text.bz2; sleep 3; } > f.bz2' & "
		"$B -f -n 2 f.bz2 & pid=$!; "
		"for i in $(seq 50); do ls | grep -q mlpbunzip2- && break; sleep 0.1; done; "
		"ls | grep -q mlpbunzip2- || echo 'no temporary seen'; "
		"kill -INT $pid; wait $pid; s=$?; wait; ls | grep -q mlpbunzip2- && echo 'temporary left'; "
		"test -e f && echo 'output left'; exit $s",
		out, sizeof(out));
	CHECK(st == 1 && strstr(out, "caught a signal") && !strstr(out, "left") && !strstr(out, "no temporary"),
	      "status %d:\n%s", st, out);
	test_scratch_remove(dir, "bunzip2int");
}
