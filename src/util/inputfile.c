/*
 * Opened with O_NONBLOCK so that a FIFO with no writer returns at once and
 * fstat can refuse it; the flag is cleared before the caller reads, since a
 * regular file never blocks and a caller's read loop should not see EAGAIN.
 */
#include "util/inputfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int inputfile_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), rc;

	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		snprintf(err, errlen, "%s: %s (expected a file)", path, strerror(EISDIR));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: %s, not a regular file (refused: reading it could block or never end)",
			 path, kind_of(st.st_mode));
		goto fail;
	}
	if (fcntl(fd, F_SETFL, O_RDONLY) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return rc;
}

int inputfile_read_all(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err,
		       size_t errlen)
{
	struct stat st;
	size_t got = 0;
	int fd = inputfile_open(path, err, errlen), rc = 0;

	*data = NULL;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out;
	}
	*len = (size_t)st.st_size;
	if (!*len) {
		rc = -ENODATA;
		goto out;
	}
	if (*len > max_bytes) {
		rc = -EFBIG;
		goto out;
	}
	if (!(*data = malloc(*len))) {
		rc = -ENOMEM;
		goto out;
	}
	while (got < *len) {
		ssize_t n = read(fd, *data + got, *len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got != *len) {
		rc = -EIO;
		free(*data);
		*data = NULL;
	}
out:
	close(fd);
	return rc;
}

int inputfile_usage_error(int rc)
{
	return rc == -EISDIR || rc == -EINVAL;
}
