/*
 * Provenance's build id and --archive: the note reader on synthetic notes
 * (the layout the linker writes, and ones it must refuse), the archive's
 * directory check and its copy into a scratch folder.
 */
#include "../harness.h"

#include "archive.h"
#include "util/build_id.h"
#include "util/sha256.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One note: header, name padded to align, descriptor padded to align. */
static size_t put_note(unsigned char *at, unsigned type, const char *name, const void *desc, size_t descsz,
		       size_t align)
{
	ElfW(Nhdr) h = { .n_namesz = (ElfW(Word))(strlen(name) + 1), .n_descsz = (ElfW(Word))descsz, .n_type = type };
	size_t name_pad = (h.n_namesz + align - 1) & ~(align - 1), desc_pad = (descsz + align - 1) & ~(align - 1);

	memcpy(at, &h, sizeof(h));
	memcpy(at + sizeof(h), name, h.n_namesz);
	memcpy(at + sizeof(h) + name_pad, desc, descsz);
	return sizeof(h) + name_pad + desc_pad;
}

TEST(provenance_build_id_read_from_notes)
{
	static const unsigned char id[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
					      15, 0xff };
	unsigned char buf[256] = { 0 };
	char hex[BUILD_ID_HEX_LEN];
	size_t n = 0;

	/* A property note before it, as GNU ld places .note.gnu.property first. */
	n += put_note(buf + n, 5, "GNU", "\0\0\0\0\0\0\0\0", 8, 8);
	n += put_note(buf + n, NT_GNU_BUILD_ID, "GNU", id, sizeof(id), 8);
	CHECK(build_id_from_notes(buf, n, 8, hex, sizeof(hex)) == 0, "8-aligned notes");
	CHECK(!strcmp(hex, "deadbeef0102030405060708090a0b0c0d0e0fff"), "read %s", hex);
	n = put_note(buf, NT_GNU_BUILD_ID, "GNU", id, 8, 4);
	CHECK(build_id_from_notes(buf, n, 4, hex, sizeof(hex)) == 0 && !strcmp(hex, "deadbeef01020304"), "%s", hex);
	/* Another vendor's note of type 3 is not a build id. */
	n = put_note(buf, NT_GNU_BUILD_ID, "Go", id, 8, 4);
	CHECK(build_id_from_notes(buf, n, 4, hex, sizeof(hex)) == -ENOENT, "a Go note taken");
	/* A descriptor that claims more than the segment holds is refused. */
	n = put_note(buf, NT_GNU_BUILD_ID, "GNU", id, 8, 4);
	CHECK(build_id_from_notes(buf, n - 4, 4, hex, sizeof(hex)) == -EINVAL, "a cut note read");
}

/* The Makefile links with --build-id: the test binary, linked the same way,
 * carries one, and the reader finds it in its own loaded headers. */
TEST(provenance_build_id_of_this_binary)
{
	char hex[BUILD_ID_HEX_LEN];

	CHECK(build_id_self(hex, sizeof(hex)) == 0, "no build id note in the loaded program");
	CHECK(strlen(hex) >= 16 && strspn(hex, "0123456789abcdef") == strlen(hex), "'%s'", hex);
}

TEST(provenance_archive_refuses_an_unusable_dir)
{
	char dir[128], path[256], err[256];

	test_scratch_make(dir, sizeof(dir), "archive");
	CHECK(dir[0], "mkdtemp");
	snprintf(path, sizeof(path), "%s/file", dir);
	CHECK(!test_write_text(path, "x"), "write %s", path);
	CHECK(archive_check_dir(path, err, sizeof(err)) == -ENOTDIR, "a file taken as a directory");
	CHECK(strstr(err, "--archive: cannot use") && strstr(err, path) && strstr(err, "expected --archive DIR"),
	      "%s", err);
	snprintf(path, sizeof(path), "%s/no/such", dir);
	CHECK(archive_check_dir(path, err, sizeof(err)) == -ENOENT, "a directory two levels down taken");
	snprintf(path, sizeof(path), "%s/new", dir);
	CHECK(archive_check_dir(path, err, sizeof(err)) == 0, "%s", err);
	CHECK(test_count_entries(dir) == 1, "the check created something");
	test_scratch_remove(dir, "archive");
}

/* The copy lands in a directory made for it, executable, under the build
 * id; a copy of that name holding other bytes is replaced, and without a
 * build id the hash names it. */
TEST(provenance_archive_copies_by_build_id)
{
	struct provenance p = { .build_id = "00ff" };
	char dir[128], out[192], exe[192], want[320], err[256];
	struct stat st;
	char *text;

	test_scratch_make(dir, sizeof(dir), "archive");
	CHECK(dir[0], "mkdtemp");
	snprintf(exe, sizeof(exe), "%s/exe", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	CHECK(!test_write_text(exe, "the binary") && !sha256_file_hex(exe, p.binary_sha256), "write");
	CHECK(archive_binary(out, exe, &p, err, sizeof(err)) == 0, "%s", err);
	snprintf(want, sizeof(want), "/out/mlpscope-00ff");
	CHECK(strstr(p.archived_binary, want) && p.archived_binary[0] == '/', "archived as '%s'", p.archived_binary);
	CHECK(!stat(p.archived_binary, &st) && (st.st_mode & 0777) == 0755, "mode %o", (unsigned)st.st_mode);
	text = test_read_text(p.archived_binary);
	CHECK(text && !strcmp(text, "the binary"), "copy holds '%s'", text ? text : "(nothing)");
	free(text);
	CHECK(!test_write_text(exe, "a rebuilt binary") && !sha256_file_hex(exe, p.binary_sha256), "rewrite");
	CHECK(archive_binary(out, exe, &p, err, sizeof(err)) == 0, "%s", err);
	text = test_read_text(p.archived_binary);
	CHECK(text && !strcmp(text, "a rebuilt binary"), "stale copy kept: '%s'", text ? text : "(nothing)");
	free(text);
	p.build_id[0] = 0;
	CHECK(archive_binary(out, exe, &p, err, sizeof(err)) == 0, "%s", err);
	snprintf(want, sizeof(want), "/out/mlpscope-%s", p.binary_sha256);
	CHECK(strstr(p.archived_binary, want), "archived as '%s'", p.archived_binary);
	CHECK(test_count_entries(out) == 2, "%d files in the archive", test_count_entries(out));
	test_scratch_remove(dir, "archive");
}
