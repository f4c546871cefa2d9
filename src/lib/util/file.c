/* file.c - bounded file reads and lexical path handling
 * SPDX-License-Identifier: MIT
 *
 * Reads open with O_NONBLOCK so that opening a FIFO cannot hang, then
 * fstat() the descriptor and refuse anything that is not a regular file.
 * A read stops one byte past the maximum, so a 1 GiB file costs at most
 * max + 1 bytes of memory and I/O.
 */
#include "lib/util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAD 64

static const char *kind_of(mode_t m);

/* A limit for messages: "64 MiB", "1 KiB", else "N bytes". */
static void
limit_text(char *out, size_t cap, size_t max)
{
	if (max >= 1048576 && max % 1048576 == 0)
		snprintf(out, cap, "%zu MiB", max / 1048576);
	else if (max >= 1024 && max % 1024 == 0)
		snprintf(out, cap, "%zu KiB", max / 1024);
	else
		snprintf(out, cap, "%zu bytes", max);
}

static int
too_large(const char *path, size_t max, const char *what, struct tg_err *err)
{
	char lim[32];

	limit_text(lim, sizeof(lim), max);
	if (what)
		return tg_err_set(err, TG_ELIMIT,
				  "cannot read '%s': larger than the %s limit "
				  "for %s",
				  path, lim, what);
	return tg_err_set(err, TG_ELIMIT, "cannot read '%s': larger than %s",
			  path, lim);
}

int
tg_file_open(const char *path, size_t max, const char *what, int *fd,
	     size_t *size, int *absent, struct tg_err *err)
{
	struct stat st;
	int f, flags, rc = 0;

	*fd = -1;
	*size = 0;
	if (absent)
		*absent = 0;
	/* O_NONBLOCK: opening a FIFO with no writer would block for ever */
	f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (f < 0) {
		if (absent && (errno == ENOENT || errno == ENOTDIR)) {
			*absent = 1;
			return 0;
		}
		return tg_err_set(err, TG_EIO, "cannot read '%s': %s", path,
				  strerror(errno));
	}
	if (fstat(f, &st) != 0) {
		rc = tg_err_set(err, TG_EIO, "cannot read '%s': %s", path,
				strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		rc = tg_err_set(err, TG_EIO, "cannot read '%s': %s", path,
				strerror(EISDIR));
	} else if (!S_ISREG(st.st_mode)) {
		rc =
		    tg_err_set(err, TG_EIO,
			       "cannot read '%s': it is %s, not a regular file",
			       path, kind_of(st.st_mode));
	} else if ((uintmax_t)st.st_size > max) {
		rc = too_large(path, max, what, err);
	} else if ((flags = fcntl(f, F_GETFL)) < 0 ||
		   fcntl(f, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		rc = tg_err_set(err, TG_EIO, "cannot read '%s': %s", path,
				strerror(errno));
	}
	if (rc) {
		close(f);
		return rc;
	}
	*fd = f;
	*size = (size_t)st.st_size;
	return 0;
}

static int
read_bounded(const char *path, size_t max, const char *what, char **out,
	     size_t *len, int *truncated, int *absent, int allow_trunc,
	     struct tg_err *err)
{
	int fd = -1, rc = 0;
	char *data = NULL;
	size_t cap, n = 0, size;

	*out = NULL;
	*len = 0;
	if (truncated)
		*truncated = 0;
	if (max > SIZE_MAX - 2)
		max = SIZE_MAX - 2;
	/* a head read takes any size; a whole read is refused before it
	 * reads a byte when the file is already too large */
	rc = tg_file_open(path, allow_trunc ? SIZE_MAX : max, what, &fd, &size,
			  absent, err);
	if (rc || fd < 0)
		return rc;
	/* the size may change while it is read (a file being written): the
	 * loop below holds the bound whatever fstat said */
	cap = (size > 0 && size < max) ? size + 1
				       : (max < 65536 ? max + 1 : 65536);
	data = malloc(cap + 1 + PAD);
	if (!data) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory reading '%s'",
				path);
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			size_t ncap;
			char *p;

			if (n > max)
				break;
			ncap = cap > max / 2 ? max + 1 : cap * 2;
			p = realloc(data, ncap + 1 + PAD);
			if (!p) {
				rc = tg_err_set(err, TG_ENOMEM,
						"out of memory reading '%s'",
						path);
				goto out;
			}
			data = p;
			cap = ncap;
		}
		r = read(fd, data + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = tg_err_set(err, TG_EIO, "cannot read '%s': %s",
					path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		if (!allow_trunc) {
			rc = too_large(path, max, what, err);
			goto out;
		}
		n = max;
		*truncated = 1;
	}
	/* the NUL, and zeroed padding that vector code (PCRE2's JIT) may
	 * read past the end without touching undefined bytes */
	memset(data + n, 0, PAD + 1);
	*out = data;
	*len = n;
	data = NULL;
out:
	free(data);
	if (fd >= 0)
		close(fd);
	return rc;
}

int
tg_file_read(const char *path, size_t max, char **out, size_t *len, int *absent,
	     struct tg_err *err)
{
	return read_bounded(path, max, NULL, out, len, NULL, absent, 0, err);
}

int
tg_file_read_as(const char *path, size_t max, const char *what, char **out,
		size_t *len, int *absent, struct tg_err *err)
{
	return read_bounded(path, max, what, out, len, NULL, absent, 0, err);
}

int
tg_file_read_head(const char *path, size_t max, char **out, size_t *len,
		  int *truncated, int *absent, struct tg_err *err)
{
	return read_bounded(path, max, NULL, out, len, truncated, absent, 1,
			    err);
}

int
tg_file_map(const char *path, size_t max, const char **data, size_t *len,
	    int *absent, struct tg_err *err)
{
	int fd, rc;
	size_t size;
	void *p;

	*data = NULL;
	*len = 0;
	rc = tg_file_open(path, max, NULL, &fd, &size, absent, err);
	if (rc || fd < 0)
		return rc;
	if (size > 0) {
		p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			rc = tg_err_set(err, TG_EIO, "cannot map '%s': %s",
					path, strerror(errno));
		} else {
			*data = p;
			*len = size;
		}
	}
	close(fd);
	return rc;
}

void
tg_file_unmap(const char *data, size_t len)
{
	if (data)
		munmap((void *)data, len);
}

/* What a file that is not a regular one is, for messages. */
static const char *
kind_of(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a file";
}

int
tg_file_write_atomic(const char *path, const char *data, size_t len,
		     int *changed, struct tg_err *err)
{
	char *old = NULL, *tmp = NULL;
	size_t olen = 0, off = 0;
	int trunc = 0, absent = 0, fd = -1, rc = 0;
	mode_t mask;

	struct stat st;
	char *real = NULL;
	mode_t mode = 0;

	*changed = 0;
	/* a symlink is written through (its target replaced), a file keeps
	 * its permissions */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	    (real = realpath(path, NULL)))
		path = real;
	/* only a regular file may be replaced: renaming over a device, a
	 * FIFO or a socket would put a file in its place (/dev/null,
	 * /dev/stdout as root) */
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			rc = tg_err_set(err, TG_EIO,
					"cannot write '%s': it is %s, not a "
					"regular file",
					path, kind_of(st.st_mode));
			free(real);
			return rc;
		}
		mode = st.st_mode & 07777;
	}
	if (tg_file_read_head(path, len + 1, &old, &olen, &trunc, &absent,
			      NULL) == 0 &&
	    !absent && olen == len && memcmp(old, data, len) == 0) {
		free(old);
		free(real);
		return 0;
	}
	free(old);
	tmp = malloc(strlen(path) + 16);
	if (!tmp) {
		free(real);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	sprintf(tmp, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
				strerror(errno));
		free(tmp);
		free(real);
		return rc;
	}
	mask = umask(0);
	umask(mask);
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s",
					path, strerror(w < 0 ? errno : EIO));
			goto out;
		}
		off += (size_t)w;
	}
	/* a file system without modes (vfat) refuses fchmod: the file is
	 * written all the same */
	if (fchmod(fd, mode ? mode : 0666 & ~mask) != 0 && errno != EPERM) {
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
				strerror(errno));
		goto out;
	}
	rc = close(fd);
	fd = -1;
	if (rc != 0) {
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
				strerror(errno));
		goto out;
	}
	if (rename(tmp, path) != 0) {
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
				strerror(errno));
		goto out;
	}
	*changed = 1;
out:
	if (fd >= 0)
		close(fd);
	if (rc)
		unlink(tmp);
	free(tmp);
	free(real);
	return rc;
}
