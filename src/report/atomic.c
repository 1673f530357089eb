/*
 * Temp file + rename. The temp name is made with mkstemp in the target's own
 * directory: rename across file systems is not atomic (it fails with EXDEV).
 * The list of open temporaries is written with SIGINT and SIGTERM blocked,
 * so a handler never sees half a path, and a temporary exists only while it
 * is listed.
 */
#include "report/atomic.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char pending[ATOMIC_MAX_PENDING][PATH_MAX];

static void block_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, old);
}

static void pending_drop(const char *tmp)
{
	for (size_t i = 0; i < ATOMIC_MAX_PENDING; i++)
		if (pending[i][0] && !strcmp(pending[i], tmp))
			pending[i][0] = 0;
}

void atomic_remove_pending(void)
{
	for (size_t i = 0; i < ATOMIC_MAX_PENDING; i++)
		if (pending[i][0])
			unlink(pending[i]);
}

int atomic_check_target(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return S_ISREG(st.st_mode) ? 0 : -EEXIST;
}

const char *atomic_strerror(int rc)
{
	return rc == -EEXIST ? "it exists and is not a regular file (a device, FIFO or socket is never replaced)" :
	       strerror(-rc);
}

int atomic_open(struct atomic_file *a, const char *path)
{
	sigset_t old;
	size_t slot;
	int fd, rc;

	memset(a, 0, sizeof(*a));
	if (snprintf(a->path, sizeof(a->path), "%s", path) >= (int)sizeof(a->path) ||
	    snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(a->tmp)) {
		a->tmp[0] = 0;
		return -ENAMETOOLONG;
	}
	if ((rc = atomic_check_target(path))) {
		a->tmp[0] = 0;
		return rc;
	}
	block_signals(&old);
	for (slot = 0; slot < ATOMIC_MAX_PENDING && pending[slot][0]; slot++)
		;
	fd = slot == ATOMIC_MAX_PENDING ? (errno = EMFILE, -1) : mkstemp(a->tmp);
	if (fd >= 0)
		memcpy(pending[slot], a->tmp, sizeof(a->tmp));
	rc = -errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		a->tmp[0] = 0;
		return rc;
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
		atomic_abort(a);
		return -e;
	}
	return 0;
}

int atomic_commit(struct atomic_file *a)
{
	sigset_t old;
	int rc = 0;

	if (!a->f)
		return -EBADF;
	if (fflush(a->f) || ferror(a->f) || fsync(fileno(a->f)))
		rc = -(errno ? errno : EIO);
	if (fclose(a->f) && !rc)
		rc = -errno;
	a->f = NULL;
	/* Checked again: the target may have been replaced since the open. */
	if (!rc)
		rc = atomic_check_target(a->path);
	block_signals(&old);
	if (!rc && rename(a->tmp, a->path))
		rc = -errno;
	if (rc)
		unlink(a->tmp);
	pending_drop(a->tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	a->tmp[0] = 0;
	return rc;
}

void atomic_abort(struct atomic_file *a)
{
	sigset_t old;

	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->tmp[0]) {
		block_signals(&old);
		unlink(a->tmp);
		pending_drop(a->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	a->tmp[0] = 0;
}
