/*
 * Temp file + rename. The temp name is made with mkstemp in the target's own
 * directory: rename across file systems is not atomic (it fails with EXDEV).
 */
#include "report/atomic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_open(struct atomic_file *a, const char *path)
{
	int fd;

	memset(a, 0, sizeof(*a));
	if (snprintf(a->path, sizeof(a->path), "%s", path) >= (int)sizeof(a->path) ||
	    snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(a->tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		a->tmp[0] = 0;
		return -errno;
	}
	/* mkstemp makes the file 0600; the result should get the mode any
	 * other file the user writes gets (0666 less the umask). */
	mode_t mask = umask(0);

	umask(mask);
	fchmod(fd, 0666 & ~mask);
	a->f = fdopen(fd, "w");
	if (!a->f) {
		int e = errno;

		close(fd);
		unlink(a->tmp);
		a->tmp[0] = 0;
		return -e;
	}
	return 0;
}

int atomic_commit(struct atomic_file *a)
{
	int rc = 0;

	if (!a->f)
		return -EBADF;
	if (fflush(a->f) || ferror(a->f) || fsync(fileno(a->f)))
		rc = -(errno ? errno : EIO);
	if (fclose(a->f) && !rc)
		rc = -errno;
	a->f = NULL;
	if (!rc && rename(a->tmp, a->path))
		rc = -errno;
	if (rc)
		unlink(a->tmp);
	a->tmp[0] = 0;
	return rc;
}

void atomic_abort(struct atomic_file *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->tmp[0])
		unlink(a->tmp);
	a->tmp[0] = 0;
}
