/*
 * Temp file + rename. The temp name is made with mkstemp in the target's own
 * directory: rename across file systems is not atomic (it fails with EXDEV).
 * The list of open temporaries is written with SIGINT and SIGTERM blocked,
 * so a handler never sees half a path, and a temporary exists only while it
 * is listed. Each temporary holds an flock until it is renamed or removed:
 * the lock dies with its process (SIGKILL included), which is how a later
 * writer tells a stale temporary from a live one.
 */
#include "util/atomic.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static char pending[ATOMIC_MAX_PENDING][PATH_MAX];

/* Each output's FILE writes through a sink that keeps the errno of its
 * first failed write: glibc drops the rest of a buffer whose write failed,
 * so flushing again later cannot be relied on to say why. */
struct sink {
	FILE *f;
	int fd;
	int err;          /* first failed write's errno, 0 if none */
	bool keep_open;   /* fd 1 for "-" */
};
static struct sink *sinks[ATOMIC_MAX_PENDING + 1];
/* The directory atomic_dir_begin made, removed again on failure. */
static char made_dir[PATH_MAX];

/* Commits held back inside atomic_dir_begin/end: a temporary to rename
 * (tmp set, f open so its lock holds) or a path to remove (tmp empty). */
struct deferred {
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	FILE *f;
};
static struct deferred *deferred;
static size_t ndeferred;
static bool deferring;

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

static void unlink_pending(const char *tmp)
{
	sigset_t old;

	block_signals(&old);
	unlink(tmp);
	pending_drop(tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void atomic_remove_pending(void)
{
	for (size_t i = 0; i < ATOMIC_MAX_PENDING; i++)
		if (pending[i][0])
			unlink(pending[i]);
	if (made_dir[0])
		rmdir(made_dir);
}

bool atomic_is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
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
	       rc == -ENOLINK ? "it is a symbolic link to nothing (a link is written through to its target, "
				"which must resolve)" :
	       strerror(-rc);
}

static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	struct sink *s = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(s->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!s->err)
				s->err = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)len;
}

static int sink_close(void *cookie)
{
	struct sink *s = cookie;
	int rc = s->keep_open ? 0 : close(s->fd);

	for (size_t i = 0; i < sizeof(sinks) / sizeof(sinks[0]); i++)
		if (sinks[i] == s)
			sinks[i] = NULL;
	free(s);
	return rc;
}

/* A FILE writing to fd through a sink; NULL with errno on failure (fd is
 * then still the caller's). */
static FILE *sink_open(int fd, bool keep_open)
{
	cookie_io_functions_t io = {.write = sink_write, .close = sink_close};
	struct sink *s = calloc(1, sizeof(*s));
	size_t slot;

	for (slot = 0; slot < sizeof(sinks) / sizeof(sinks[0]) && sinks[slot]; slot++)
		;
	if (!s || slot == sizeof(sinks) / sizeof(sinks[0])) {
		free(s);
		errno = s ? EMFILE : ENOMEM;
		return NULL;
	}
	s->fd = fd;
	s->keep_open = keep_open;
	if (!(s->f = fopencookie(s, "w", io))) {
		free(s);
		return NULL;
	}
	sinks[slot] = s;
	return s->f;
}

static struct sink *sink_of(FILE *f)
{
	for (size_t i = 0; i < sizeof(sinks) / sizeof(sinks[0]); i++)
		if (sinks[i] && sinks[i]->f == f)
			return sinks[i];
	return NULL;
}

int atomic_stream_error(FILE *f)
{
	struct sink *s = sink_of(f);

	if (s) {
		fflush(f);
		return s->err ? -s->err : ferror(f) ? -EIO : 0;
	}
	if (!ferror(f))
		return 0;
	errno = 0;
	return fflush(f) && errno ? -errno : -EIO;
}

static ssize_t discard(void *cookie, const char *buf, size_t len)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)len;
}

FILE *atomic_discard_stream(void)
{
	static FILE *sink;
	cookie_io_functions_t io = {.write = discard};

	if (!sink)
		sink = fopencookie(NULL, "w", io);
	return sink;
}

/* mkstemp's six characters are letters and digits. */
static bool is_our_suffix(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isalnum((unsigned char)s[n]))
			return false;
	return n == 6;
}

/* Remove PATH.tmp.XXXXXX files in path's directory whose writer is gone:
 * one we can lock has no live owner (atomic_open locks its temporary at
 * once, and gives a name up when a sweeper locked it first). */
static void sweep_stale(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t blen = strlen(base);
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	if (!blen || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		struct stat st;
		int fd;

		if (strncmp(e->d_name, base, blen) || strncmp(e->d_name + blen, ".tmp.", 5) ||
		    !is_our_suffix(e->d_name + blen + 5))
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && !flock(fd, LOCK_EX | LOCK_NB))
			unlinkat(dirfd(d), e->d_name, 0);
		close(fd);
	}
	closedir(d);
}

static bool still_named(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* mkstemp beside the target, listed and locked; -errno on failure. A name
 * a sweeper locked first is given up (the sweeper removes it). */
static int make_temporary(struct atomic_file *a)
{
	for (int tries = 0; tries < 16; tries++) {
		sigset_t old;
		size_t slot;
		int fd, rc;

		snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.XXXXXX", a->path);
		block_signals(&old);
		for (slot = 0; slot < ATOMIC_MAX_PENDING && pending[slot][0]; slot++)
			;
		fd = slot == ATOMIC_MAX_PENDING ? (errno = EMFILE, -1) : mkstemp(a->tmp);
		if (fd >= 0)
			memcpy(pending[slot], a->tmp, sizeof(a->tmp));
		rc = -errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (fd < 0)
			return rc;
		/* A file system without flock: no sweeper can lock it either.
		 * Locked, the name must still be this file: a sweeper may have
		 * locked, removed and let go of it since mkstemp. */
		if (flock(fd, LOCK_EX | LOCK_NB) ? errno != EWOULDBLOCK : still_named(fd, a->tmp))
			return fd;
		block_signals(&old);
		pending_drop(a->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fd);
	}
	return -EAGAIN;
}

int atomic_open(struct atomic_file *a, const char *path)
{
	struct stat st;
	int fd, rc;

	memset(a, 0, sizeof(*a));
	if (atomic_is_stdout(path)) {
		/* Whatever stdio holds for stdout goes first. */
		fflush(stdout);
		a->is_stdout = true;
		return (a->f = sink_open(STDOUT_FILENO, true)) ? 0 : -errno;
	}
	if (snprintf(a->path, sizeof(a->path), "%s", path) >= (int)sizeof(a->path) ||
	    snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(a->tmp)) {
		a->tmp[0] = 0;
		return -ENAMETOOLONG;
	}
	a->tmp[0] = 0;
	/* Through a link to its target: renaming over the link would leave
	 * the file the user pointed at unwritten. */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && !realpath(path, a->path))
		return errno == ENOENT ? -ENOLINK : -errno;
	if (strlen(a->path) + sizeof(".tmp.XXXXXX") > sizeof(a->tmp))
		return -ENAMETOOLONG;
	if ((rc = atomic_check_target(a->path)))
		return rc;
	sweep_stale(a->path);
	if ((fd = make_temporary(a)) < 0) {
		a->tmp[0] = 0;
		return fd;
	}
	/* mkstemp makes the file 0600; the result should get the mode any
	 * other file the user writes gets (0666 less the umask). */
	mode_t mask = umask(0);

	umask(mask);
	fchmod(fd, 0666 & ~mask);
	a->f = sink_open(fd, false);
	if (!a->f) {
		int e = errno;

		close(fd);
		atomic_abort(a);
		return -e;
	}
	return 0;
}

/* Every byte written and on disk, the temporary still open (locked). */
static int finish(struct atomic_file *a)
{
	int rc = atomic_stream_error(a->f);

	if (!rc && fsync(sink_of(a->f)->fd))
		rc = -errno;
	return rc;
}

/* Rename tmp over path (checked again: the target may have been replaced
 * since the open), then close f, which drops the lock; the temporary is
 * removed on failure. */
static int put_in_place(const char *tmp, const char *path, FILE *f)
{
	sigset_t old;
	int rc = atomic_check_target(path);

	block_signals(&old);
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	pending_drop(tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (f && fclose(f) && !rc)
		rc = -errno;
	return rc;
}

static int defer(const char *path, const char *tmp, FILE *f)
{
	struct deferred *d;

	if (!(d = realloc(deferred, (ndeferred + 1) * sizeof(*d))))
		return -ENOMEM;
	deferred = d;
	d += ndeferred++;
	snprintf(d->path, sizeof(d->path), "%s", path);
	snprintf(d->tmp, sizeof(d->tmp), "%s", tmp);
	d->f = f;
	return 0;
}

int atomic_commit(struct atomic_file *a)
{
	int rc;

	if (!a->f)
		return -EBADF;
	if (a->is_stdout) {
		rc = atomic_stream_error(a->f);
		fclose(a->f);
		a->f = NULL;
		return rc;
	}
	rc = finish(a);
	if (!rc && deferring && !(rc = defer(a->path, a->tmp, a->f))) {
		a->f = NULL;
		a->tmp[0] = 0;
		return 0;
	}
	if (rc) {
		atomic_abort(a);
		return rc;
	}
	rc = put_in_place(a->tmp, a->path, a->f);
	a->f = NULL;
	a->tmp[0] = 0;
	return rc;
}

void atomic_abort(struct atomic_file *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->tmp[0])
		unlink_pending(a->tmp);
	a->tmp[0] = 0;
}

int atomic_remove(const char *path)
{
	if (deferring)
		return defer(path, "", NULL);
	return unlink(path) == 0 || errno == ENOENT ? 0 : -errno;
}

int atomic_dir_begin(const char *dir)
{
	struct stat st;
	sigset_t old;

	ndeferred = 0;
	if (mkdir(dir, 0777) == 0) {
		block_signals(&old);
		snprintf(made_dir, sizeof(made_dir), "%s", dir);
		sigprocmask(SIG_SETMASK, &old, NULL);
	} else if (errno != EEXIST) {
		return -errno;
	} else if (stat(dir, &st)) {
		return -errno;
	} else if (!S_ISDIR(st.st_mode)) {
		return -ENOTDIR;
	}
	deferring = true;
	return 0;
}

int atomic_dir_end(int rc)
{
	sigset_t old;

	deferring = false;
	for (size_t i = 0; i < ndeferred; i++) {
		struct deferred *d = &deferred[i];

		if (!d->tmp[0]) {
			if (!rc && unlink(d->path) && errno != ENOENT)
				rc = -errno;
		} else if (!rc) {
			rc = put_in_place(d->tmp, d->path, d->f);
		} else {
			fclose(d->f);
			unlink_pending(d->tmp);
		}
	}
	ndeferred = 0;
	free(deferred);
	deferred = NULL;
	block_signals(&old);
	if (rc && made_dir[0])
		rmdir(made_dir);
	made_dir[0] = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}
