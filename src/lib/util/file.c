/* file.c - bounded file reads and atomic writes
 * SPDX-License-Identifier: MIT
 *
 * Reads open with O_NONBLOCK so that opening a FIFO cannot hang, then
 * fstat() the descriptor and refuse anything that is not a regular file.
 * A read stops one byte past the maximum, so a 1 GiB file costs at most
 * max + 1 bytes of memory and I/O.
 *
 * Writes go to a temporary file beside the target, fsynced, then renamed
 * over it: a reader sees the old file or the new. Only a regular file
 * (or a link to one) is replaced; the checks happen before anything is
 * created, and a target swapped by someone else between the check and
 * the rename is not detected (the directory's owner can do worse). The
 * temporary name lives in a fixed array with an armed flag so that a
 * signal handler can remove it; after SIGKILL the next write of the same
 * target removes it once it is a minute old.
 */
#include "lib/util/file.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util/path.h"
#include "lib/util/str.h"

#define PAD TG_STR_PAD

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

/* What a reader accepts: a regular file within max bytes. */
static int
check_mode(const char *path, const struct stat *st, size_t max,
	   const char *what, struct tg_err *err)
{
	if (S_ISDIR(st->st_mode))
		return tg_err_set(err, TG_EIO, "cannot read '%s': %s", path,
				  strerror(EISDIR));
	if (!S_ISREG(st->st_mode))
		return tg_err_set(err, TG_EIO,
				  "cannot read '%s': it is %s, not a regular "
				  "file",
				  path, kind_of(st->st_mode));
	if ((uintmax_t)st->st_size > max)
		return too_large(path, max, what, err);
	return 0;
}

/* A file a directory walk found: where it is opened (name relative to
 * the open directory dfd; name NULL: the path), and the size fstat gave
 * (0 until then). */
struct walked {
	int dfd;
	const char *name;
	uint64_t size;
};

/* tg_file_open; walked not NULL: the caller found path a regular file
 * a moment ago, so no stat before the open; walked->size gets the size fstat
 * gave, also when that is over max. O_NONBLOCK stays on the descriptor:
 * the file is a regular one, whose reads (and preads, and maps) ignore
 * it, so clearing it would be two system calls for nothing (read_bounded
 * still clears it should a read say EAGAIN). */
static int
open_checked(const char *path, size_t max, const char *what, int *fd,
	     size_t *size, int *absent, struct walked *walked,
	     struct tg_err *err)
{
	struct stat st;
	int f, rc;

	*fd = -1;
	*size = 0;
	if (absent)
		*absent = 0;
	/* stat first: opening a device can itself do something (a tape
	 * rewinds); fstat after, on what was opened, in case the path was
	 * swapped in between */
	if (!walked && stat(path, &st) != 0) {
		if (absent && (errno == ENOENT || errno == ENOTDIR)) {
			*absent = 1;
			return 0;
		}
		return tg_err_set(err, TG_EIO, "cannot read '%s': %s", path,
				  strerror(errno));
	}
	if (!walked && (rc = check_mode(path, &st, max, what, err)))
		return rc;
	/* O_NONBLOCK: opening a FIFO with no writer would block for ever */
	f = walked && walked->name
		? openat(walked->dfd, walked->name,
			 O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
		: open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
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
	} else {
		if (walked && S_ISREG(st.st_mode))
			walked->size = (uint64_t)st.st_size;
		rc = check_mode(path, &st, max, what, err);
	}
	if (rc) {
		close(f);
		return rc;
	}
	*fd = f;
	*size = (size_t)st.st_size;
	return 0;
}

int
tg_file_open(const char *path, size_t max, const char *what, int *fd,
	     size_t *size, int *absent, struct tg_err *err)
{
	return open_checked(path, max, what, fd, size, absent, NULL, err);
}

int
tg_file_open_walked(const char *path, size_t max, const char *what, int *fd,
		    size_t *size, struct tg_err *err)
{
	struct walked walked = {AT_FDCWD, NULL, 0};

	return open_checked(path, max, what, fd, size, NULL, &walked, err);
}

/* walked: see open_checked; the read also stops at the size fstat gave
 * (a snapshot of a file being written) instead of reading on to EOF.
 * inside: the real directory what is opened must lie in (NULL: any). */
static int
read_bounded(const char *path, size_t max, const char *what, char **out,
	     size_t *len, int *truncated, int *absent, int allow_trunc,
	     struct walked *walked, const char *inside, struct tg_err *err)
{
	int fd = -1, rc = 0;
	char *data = NULL;
	size_t cap, n = 0, size;

	*out = NULL;
	*len = 0;
	if (truncated)
		*truncated = 0;
	if (max > SIZE_MAX - 2 - PAD)
		max = SIZE_MAX - 2 - PAD;
	/* a head read takes any size; a whole read is refused before it
	 * reads a byte when the file is already too large */
	rc = open_checked(path, allow_trunc ? SIZE_MAX : max, what, &fd, &size,
			  absent, walked, err);
	if (rc || fd < 0)
		return rc;
	if (inside) {
		char *name = NULL;

		rc = tg_path_fd_inside(fd, inside, &name);
		if (rc == 0)
			rc = tg_err_set(err, TG_EIO,
					"cannot read '%s': it changed while it "
					"was read, to '%s', outside '%s'",
					path, name ? name : "a removed file",
					inside);
		else if (rc == 1)
			rc = 0;
		else
			rc = tg_err_set(err, rc, "out of memory reading '%s'",
					path);
		free(name);
		if (rc)
			goto out;
	}
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
		if (walked && size > 0 && n == size)
			break;
		r = read(fd, data + n, cap - n);
		if (r < 0) {
			int flags;

			if (errno == EINTR)
				continue;
			/* once: a read that says EAGAIN while blocking is
			 * an error */
			if (errno == EAGAIN &&
			    (flags = fcntl(fd, F_GETFL)) >= 0 &&
			    (flags & O_NONBLOCK) &&
			    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0)
				continue;
			rc = tg_err_set(err, TG_EIO, "cannot read '%s': %s",
					path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		/* a short read that ends at the size fstat gave: the file's
		 * end, so no read more just to see 0 (a file read whole
		 * takes one read) */
		if (n == size && n < cap)
			break;
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
	return read_bounded(path, max, NULL, out, len, NULL, absent, 0, NULL,
			    NULL, err);
}

int
tg_file_read_inside(const char *path, const char *root, size_t max, char **out,
		    size_t *len, int *absent, struct tg_err *err)
{
	char *real = tg_path_realpath(root);
	int rc;

	*out = NULL;
	*len = 0;
	if (!real)
		return errno == ENOMEM
			   ? tg_err_set(err, TG_ENOMEM, "out of memory")
			   : tg_err_set(err, TG_EIO,
					"cannot read '%s': cannot resolve "
					"'%s': %s",
					path, root, strerror(errno));
	rc = read_bounded(path, max, NULL, out, len, NULL, absent, 0, NULL,
			  real, err);
	free(real);
	return rc;
}

int
tg_file_read_walked_at(int dfd, const char *name, const char *path, size_t max,
		       char **out, size_t *len, uint64_t *size,
		       struct tg_err *err)
{
	struct walked walked = {dfd, name, 0};
	int rc = read_bounded(path, max, NULL, out, len, NULL, NULL, 0, &walked,
			      NULL, err);

	*size = walked.size;
	return rc;
}

int
tg_file_read_as(const char *path, size_t max, const char *what, char **out,
		size_t *len, int *absent, struct tg_err *err)
{
	return read_bounded(path, max, what, out, len, NULL, absent, 0, NULL,
			    NULL, err);
}

int
tg_file_read_head(const char *path, size_t max, char **out, size_t *len,
		  int *truncated, int *absent, struct tg_err *err)
{
	return read_bounded(path, max, NULL, out, len, truncated, absent, 1,
			    NULL, NULL, err);
}

int
tg_file_read_head_walked(const char *path, size_t max, char **out, size_t *len,
			 int *truncated, struct tg_err *err)
{
	struct walked walked = {AT_FDCWD, NULL, 0};

	return read_bounded(path, max, NULL, out, len, truncated, NULL, 1,
			    &walked, NULL, err);
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

/* The directory part of p ("." for a bare name) in out. */
static int
dir_of(const char *p, char *out, size_t size)
{
	const char *slash = strrchr(p, '/');
	size_t n;

	if (!slash)
		return snprintf(out, size, ".") >= (int)size ? -1 : 0;
	n = slash == p ? 1 : (size_t)(slash - p);
	if (n >= size)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

/* Why the temporary file beside path (in dir) could not be created. */
static int
create_error(const char *path, const char *dir, int e, struct tg_err *err)
{
	if (e == ENOENT)
		return tg_err_set(err, TG_EIO,
				  "cannot write '%s': its directory '%s' does "
				  "not exist",
				  path, dir);
	if (e == ENOTDIR)
		return tg_err_set(err, TG_EIO,
				  "cannot write '%s': '%s' is not a directory",
				  path, dir);
	if (e == EACCES)
		return tg_err_set(err, TG_EIO,
				  "cannot write '%s': no permission to create "
				  "files in '%s'",
				  path, dir);
	return tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
			  strerror(e));
}

/* Refuse to replace path: what is there is not a regular file. */
static int
refuse(const char *path, const struct stat *st, struct tg_err *err)
{
	return tg_err_set(err, TG_EIO,
			  "cannot write '%s': it is %s, not a regular file",
			  path, kind_of(st->st_mode));
}

/* Where the content of path goes: *where (owned) is path itself, or the
 * regular file a chain of symbolic links ends at. *exists is 1 (and *st
 * its status) when that file exists. */
static int
resolve(const char *path, char **where, int *exists, struct stat *st,
	struct tg_err *err)
{
	struct stat lst;

	*where = NULL;
	*exists = 0;
	if (lstat(path, &lst) != 0) {
		char dir[TG_FILE_TMP_MAX];
		int e = errno;

		if (dir_of(path, dir, sizeof(dir)))
			return tg_err_set(err, TG_EIO, "cannot write '%s': %s",
					  path, strerror(e));
		if (e != ENOENT)
			return create_error(path, dir, e, err);
		*where = strdup(path);
		goto done;
	}
	if (!S_ISLNK(lst.st_mode)) {
		if (!S_ISREG(lst.st_mode))
			return refuse(path, &lst, err);
		*st = lst;
		*exists = 1;
		*where = strdup(path);
		goto done;
	}
	/* a link: never followed to create a file somewhere else (as root,
	 * a planted dangling link would let anyone create any file) */
	if (stat(path, st) != 0) {
		char to[1024];
		ssize_t n;

		if (errno == ELOOP)
			return tg_err_set(err, TG_EIO,
					  "cannot write '%s': it is a loop of "
					  "symbolic links",
					  path);
		if (errno != ENOENT)
			return tg_err_set(err, TG_EIO,
					  "cannot write '%s': cannot follow "
					  "its symbolic link: %s",
					  path, strerror(errno));
		n = readlink(path, to, sizeof(to) - 1);
		to[n > 0 ? n : 0] = '\0';
		return tg_err_set(
		    err, TG_EIO,
		    "cannot write '%s': it is a dangling symbolic "
		    "link to '%s'; remove it or create '%s' first",
		    path, to, to);
	}
	if (!S_ISREG(st->st_mode))
		return refuse(path, st, err);
	/* a link to /proc/self/fd/N has no name to resolve */
	*where = realpath(path, NULL);
	if (!*where && errno == ENOMEM)
		return tg_err_set(err, TG_ENOMEM,
				  "out of memory resolving '%s'", path);
	if (!*where)
		return tg_err_set(err, TG_EIO,
				  "cannot write '%s': cannot resolve its "
				  "symbolic link: %s",
				  path, strerror(errno));
	*exists = 1;
	return 0;
done:
	return *where ? 0 : tg_err_set(err, TG_ENOMEM, "out of memory");
}

/* Remove the temporary files of target's name older than TG_FILE_STALE_S
 * (a run killed by SIGKILL left them). Best effort: a directory we cannot
 * list is left alone, and at most 65536 entries are looked at; only out
 * of memory (TG_ENOMEM) is an error, as everywhere. */
static int
remove_stale(const char *target)
{
	char dir[TG_FILE_TMP_MAX], pre[TG_FILE_TMP_MAX];
	const char *base = strrchr(target, '/');
	size_t npre, seen = 0;
	struct dirent *de;
	time_t now = time(NULL);
	DIR *d;

	base = base ? base + 1 : target;
	if (dir_of(target, dir, sizeof(dir)) ||
	    snprintf(pre, sizeof(pre), ".%s.torchgate-", base) >=
		(int)sizeof(pre))
		return 0;
	npre = strlen(pre);
	d = opendir(dir);
	if (!d)
		return errno == ENOMEM ? TG_ENOMEM : 0;
	while ((de = readdir(d)) && seen++ < 65536) {
		struct stat st;

		if (strncmp(de->d_name, pre, npre) != 0 ||
		    strlen(de->d_name) != npre + 6)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
			0 &&
		    S_ISREG(st.st_mode) && st.st_mtime + TG_FILE_STALE_S < now)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
	return 0;
}

/* Six letters or digits, not guessable by another user. */
static void
random_suffix(char *s)
{
	static const char abc[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long long counter;
	unsigned char r[6];
	struct timespec ts;
	size_t k;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		unsigned long long x;

		clock_gettime(CLOCK_REALTIME, &ts);
		x = (unsigned long long)ts.tv_nsec ^
		    ((unsigned long long)ts.tv_sec << 20) ^
		    ((unsigned long long)getpid() << 40) ^ ++counter * 7919;
		for (k = 0; k < sizeof(r); k++, x >>= 7)
			r[k] = (unsigned char)(x ^ (x >> 29));
	}
	for (k = 0; k < sizeof(r); k++)
		s[k] = abc[r[k] % (sizeof(abc) - 1)];
	s[6] = '\0';
}

int
tg_file_out_begin(struct tg_file_out *o, const char *path, const char *data,
		  size_t len, struct tg_err *err)
{
	char *old = NULL, dir[TG_FILE_TMP_MAX];
	const char *base;
	size_t olen = 0, off = 0, n;
	int trunc = 0, absent = 0, exists = 0, fd = -1, rc, tries;
	struct stat st;
	mode_t mask, mode;

	assert(!o->pending && !o->path);
	o->changed = 0;
	rc = resolve(path, &o->path, &exists, &st, err);
	if (rc)
		return rc;
	if (exists &&
	    tg_file_read_head(o->path, len + 1, &old, &olen, &trunc, &absent,
			      NULL) == 0 &&
	    !absent && olen == len && memcmp(old, data, len) == 0) {
		free(old);
		return 0;
	}
	free(old);
	base = strrchr(o->path, '/');
	base = base ? base + 1 : o->path;
	if (dir_of(o->path, dir, sizeof(dir)) ||
	    (n = (size_t)snprintf(o->tmp, sizeof(o->tmp),
				  "%s/.%s.torchgate-XXXXXX", dir, base)) >=
		sizeof(o->tmp))
		return tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
				  strerror(ENAMETOOLONG));
	if (remove_stale(o->path))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	for (tries = 0; fd < 0; tries++) {
		random_suffix(o->tmp + n - 6);
		/* armed before the file exists: a signal between open()
		 * and the next line would leave it otherwise; the fence
		 * keeps the new name's stores before the arming, so the
		 * handler never unlinks the name another run owns */
		atomic_signal_fence(memory_order_seq_cst);
		o->armed = 1;
		fd = open(o->tmp,
			  O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			  0600);
		if (fd >= 0)
			break;
		o->armed = 0;
		if (errno != EEXIST || tries == 100)
			return create_error(path, dir, errno, err);
	}
	o->pending = 1;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EFBIG) {
			rc = tg_err_set(err, TG_EIO,
					"cannot write '%s': larger than the "
					"file-size limit (ulimit -f)",
					path);
			goto out;
		}
		if (w <= 0) {
			rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s",
					path, strerror(w < 0 ? errno : EIO));
			goto out;
		}
		off += (size_t)w;
	}
	mask = umask(0);
	umask(mask);
	mode = exists ? st.st_mode & 07777 : 0666 & ~mask;
	/* as sed -i: the owner and group stay when we may set them (root,
	 * or our own file); set-id bits only with them */
	if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    fchown(fd, st.st_uid, st.st_gid) != 0)
		mode &= 0777;
	/* a file system without modes (vfat) refuses fchmod: the file is
	 * written all the same */
	if (fchmod(fd, mode) != 0 && errno != EPERM) {
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
				strerror(errno));
		goto out;
	}
	if (fsync(fd) != 0 && errno != EINVAL) {
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
				strerror(errno));
		goto out;
	}
	rc = close(fd);
	fd = -1;
	if (rc != 0)
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", path,
				strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	if (rc)
		tg_file_out_release(o);
	return rc;
}

int
tg_file_out_commit(struct tg_file_out *o, struct tg_err *err)
{
	int rc = 0;

	if (!o->pending)
		return 0;
	if (rename(o->tmp, o->path) != 0) {
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", o->path,
				strerror(errno));
		unlink(o->tmp);
	} else {
		o->changed = 1;
	}
	o->armed = 0;
	o->pending = 0;
	return rc;
}

int
tg_file_out_sync(const struct tg_file_out *o, struct tg_err *err)
{
	char dir[TG_FILE_TMP_MAX];
	int fd, rc = 0;

	if (!o->changed || dir_of(o->path, dir, sizeof(dir)))
		return 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* a directory we may write but not read */
	/* some file systems cannot sync a directory (EINVAL) */
	if (fsync(fd) != 0 && errno != EINVAL)
		rc = tg_err_set(err, TG_EIO, "cannot write '%s': %s", o->path,
				strerror(errno));
	close(fd);
	return rc;
}

void
tg_file_out_release(struct tg_file_out *o)
{
	if (o->pending)
		unlink(o->tmp);
	o->armed = 0;
	o->pending = 0;
	free(o->path);
	o->path = NULL;
}

int
tg_file_write_atomic(const char *path, const char *data, size_t len,
		     int *changed, struct tg_err *err)
{
	struct tg_file_out o = TG_FILE_OUT_INIT;
	int rc = tg_file_out_begin(&o, path, data, len, err);

	if (!rc)
		rc = tg_file_out_commit(&o, err);
	if (!rc)
		rc = tg_file_out_sync(&o, err);
	*changed = o.changed;
	tg_file_out_release(&o);
	return rc;
}

ssize_t
tg_file_pread(int fd, void *buf, size_t len, uint64_t off)
{
	size_t n = 0;

	while (n < len) {
		ssize_t r =
		    pread(fd, (char *)buf + n, len - n, (off_t)(off + n));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}
