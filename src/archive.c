/*
 * Copies the running executable next to a result. The copy is named by the
 * build id, so one directory can hold the binaries of many runs, and one
 * binary's runs share one copy; whether a copy of that name already holds
 * the same bytes is decided by the SHA-256 provenance already took, never
 * by the name alone (a build id is the linker's claim, not a hash of the
 * file). The directory is checked before the run, the copy made after it,
 * so an interrupted run leaves nothing there.
 */
#include "archive.h"

#include "util/atomic.h"
#include "util/sha256.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(const char *dir, int rc, char *err, size_t errlen)
{
	snprintf(err, errlen, "--archive: cannot use '%s' as a directory: %s (expected --archive DIR, a writable "
		 "directory)", dir, strerror(-rc));
	return rc;
}

int archive_check_dir(const char *dir, char *err, size_t errlen)
{
	char parent[PATH_MAX];
	struct stat st;

	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return refuse(dir, -ENOTDIR, err, errlen);
		return access(dir, W_OK | X_OK) ? refuse(dir, -errno, err, errlen) : 0;
	}
	if (errno != ENOENT)
		return refuse(dir, -errno, err, errlen);
	if (snprintf(parent, sizeof(parent), "%s", dir) >= (int)sizeof(parent))
		return refuse(dir, -ENAMETOOLONG, err, errlen);
	return access(dirname(parent), W_OK | X_OK) ? refuse(dir, -errno, err, errlen) : 0;
}

void archive_name(const struct provenance *p, char *name, size_t len)
{
	snprintf(name, len, "mlpscope-%s", p->build_id[0] ? p->build_id : p->binary_sha256);
}

static int copy_file(FILE *to, const char *from)
{
	char buf[1 << 16];
	FILE *in = fopen(from, "rb");
	size_t n;
	int rc = 0;

	if (!in)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, to) != n) {
			rc = -(errno ? errno : EIO);
			break;
		}
	if (!rc && ferror(in))
		rc = -EIO;
	fclose(in);
	return rc;
}

/* Whether path already holds the bytes whose hash is sha256. */
static bool same_copy(const char *path, const char *sha256)
{
	char hex[65];

	return !sha256_file_hex(path, hex) && !strcmp(hex, sha256);
}

static int write_copy(const char *path, const char *exe)
{
	struct atomic_file a;
	int rc = atomic_open(&a, path);

	if (rc)
		return rc;
	/* Executable as the original: the copy is there to be run again (the
	 * temporary is a stream of its own, with no descriptor to fchmod). */
	if ((rc = copy_file(a.f, exe)) || (chmod(a.tmp, 0755) && (rc = -errno))) {
		atomic_abort(&a);
		return rc;
	}
	return atomic_commit(&a);
}

int archive_binary(const char *dir, const char *exe, struct provenance *p, char *err, size_t errlen)
{
	char real[PATH_MAX], name[160], path[PROVENANCE_PATH_LEN];
	int rc;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return refuse(dir, -errno, err, errlen);
	if (!realpath(dir, real))
		return refuse(dir, -errno, err, errlen);
	archive_name(p, name, sizeof(name));
	if (snprintf(path, sizeof(path), "%s/%s", real, name) >= (int)sizeof(path))
		return refuse(dir, -ENAMETOOLONG, err, errlen);
	if (!same_copy(path, p->binary_sha256) && (rc = write_copy(path, exe))) {
		snprintf(err, errlen, "--archive: copying the executable to '%s' failed: %s", path, strerror(-rc));
		return rc;
	}
	snprintf(p->archived_binary, sizeof(p->archived_binary), "%s", path);
	return 0;
}
