/* path.c - lexical path handling, as Python's os.path does it on POSIX
 * SPDX-License-Identifier: MIT
 *
 * join, abspath, normpath, dirname and basename work on the text alone;
 * the stat(), access() and realpath() wrappers and the PATH look-up
 * are the only calls that touch the file system. realpath() of an
 * absolute path is the kernel's: the path opened with O_PATH (which
 * opens no device and reads nothing) and its name read back from
 * /proc/self/fd (procfs, checked once), three system calls where glibc's
 * realpath(3) makes one readlink per component; realpath(3) itself for a
 * relative path and where that cannot answer. A file system that folds
 * case names a file as it stores it, which realpath(3) does not.
 */
#include "lib/util/path.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/util/str.h"

/* How much of a path too long to build the message names. */
#define PATH_FMT_SHOWN 64

int
tg_path_fmt(char *out, size_t size, struct tg_err *err, const char *fmt, ...)
{
	char start[PATH_FMT_SHOWN + 1];
	va_list ap;
	int n;

	assert(size > 0);
	va_start(ap, fmt);
	n = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < size)
		return 0;
	out[0] = '\0';
	if (n < 0)
		return tg_err_set(err, TG_EINVAL, "cannot format a path");
	/* vsnprintf wrote the start of the path: name it, not the whole */
	va_start(ap, fmt);
	vsnprintf(start, sizeof(start), fmt, ap);
	va_end(ap);
	return tg_err_set(err, TG_ELIMIT,
			  "path too long: '%s...' (%d bytes, at most %zu)",
			  start, n, size - 1);
}

char *
tg_path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p;

	if (b[0] == '/' || la == 0)
		return tg_str_ndup(b, lb);
	p = malloc(la + lb + 2);
	if (!p)
		return NULL;
	memcpy(p, a, la);
	if (a[la - 1] != '/')
		p[la++] = '/';
	memcpy(p + la, b, lb + 1);
	return p;
}

/* os.path.normpath on POSIX: drop "" and "." components, let ".." pop
 * the previous component (or stay, in a relative path with nothing to
 * pop), keep exactly two leading slashes, as POSIX allows. */
static char *
normpath(const char *path)
{
	size_t len = strlen(path), n, lead = 0, i = 0, depth = 0;
	char *out = malloc(len + 2);
	size_t *starts = malloc((len / 2 + 2) * sizeof(*starts));

	if (!out || !starts) {
		free(out);
		free(starts);
		return NULL;
	}
	if (path[0] == '/')
		lead = (path[1] == '/' && path[2] != '/') ? 2 : 1;
	for (n = 0; n < lead; n++)
		out[n] = '/';
	while (i < len) {
		size_t j = i;
		int dotdot;

		while (j < len && path[j] != '/')
			j++;
		dotdot = j - i == 2 && path[i] == '.' && path[i + 1] == '.';
		if (j == i || (j - i == 1 && path[i] == '.')) {
			/* empty or "." */
		} else if (dotdot && depth > 0 &&
			   !(n - starts[depth - 1] == 2 &&
			     out[starts[depth - 1]] == '.' &&
			     out[starts[depth - 1] + 1] == '.')) {
			n = starts[--depth];
			if (depth > 0)
				n--; /* the separator before it */
		} else if (dotdot && depth == 0 && lead) {
			/* ".." at the root stays at the root */
		} else {
			if (depth > 0)
				out[n++] = '/';
			starts[depth++] = n;
			memcpy(out + n, path + i, j - i);
			n += j - i;
		}
		i = j + 1;
	}
	if (n == 0)
		out[n++] = '.';
	out[n] = '\0';
	free(starts);
	return out;
}

char *
tg_path_abs(const char *p, const char *cwd)
{
	char *joined, *norm;

	if (p[0] == '/')
		return normpath(p);
	joined = tg_path_join(cwd, p);
	if (!joined)
		return NULL;
	norm = normpath(joined);
	free(joined);
	return norm;
}

char *
tg_path_dirname(const char *p)
{
	const char *slash = strrchr(p, '/');
	size_t n;

	if (!slash)
		return tg_str_ndup("", 0);
	n = (size_t)(slash - p) + 1;
	/* strip trailing slashes unless the head is all slashes */
	while (n > 1 && p[n - 1] == '/')
		n--;
	if (n == 1 && p[0] == '/')
		return tg_str_ndup(p, 1);
	return tg_str_ndup(p, n);
}

const char *
tg_path_basename(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? slash + 1 : p;
}

int
tg_path_is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int
tg_path_is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int
tg_path_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* Whether /proc is the kernel's procfs, asked once a process (0 not
 * yet, 1 yes, 2 no): a sandbox's stand-in would name anything. */
static int
proc_is_procfs(void)
{
	static atomic_int known;
	struct statfs fs;
	int k = atomic_load(&known);

	if (!k) {
		k = statfs("/proc/self/fd", &fs) == 0 &&
			    fs.f_type == PROC_SUPER_MAGIC
			? 1
			: 2;
		atomic_store(&known, k);
	}
	return k == 1;
}

/* The kernel's name of what fd has open (/proc/self/fd, procfs checked
 * by the caller): a new string; NULL when it has none that is a path
 * (removed, or outside the process's root), errno ENOMEM when out of
 * memory. */
static char *
fd_name(int fd)
{
	static const char deleted[] = " (deleted)";
	char link[32], buf[PATH_MAX];
	ssize_t n;
	char *r;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf));
	if (n <= 0 || (size_t)n >= sizeof(buf) || buf[0] != '/' ||
	    ((size_t)n >= sizeof(deleted) - 1 &&
	     memcmp(buf + n - (sizeof(deleted) - 1), deleted,
		    sizeof(deleted) - 1) == 0)) {
		errno = ENOENT;
		return NULL;
	}
	if (!(r = tg_str_ndup(buf, (size_t)n)))
		errno = ENOMEM;
	return r;
}

char *
tg_path_realpath(const char *p)
{
	char *r = NULL;
	int fd, e;

	/* a relative path is the cwd's, which the kernel may name
	 * otherwise than realpath(3) does (a cwd removed or outside a
	 * chroot): realpath(3) itself */
	if (p[0] != '/' || !proc_is_procfs())
		return realpath(p, NULL);
	fd = open(p, O_PATH | O_CLOEXEC);
	if (fd >= 0) {
		r = fd_name(fd);
		e = errno;
		close(fd);
		if (r || e == ENOMEM) {
			errno = e;
			return r;
		}
	}
	return realpath(p, NULL);
}

int
tg_path_fd_inside(int fd, const char *root, char **name)
{
	char *r;

	*name = NULL;
	if (!proc_is_procfs())
		return 1;
	if (!(r = fd_name(fd)))
		return errno == ENOMEM ? TG_ENOMEM : 0;
	if (tg_path_inside(r, root)) {
		free(r);
		return 1;
	}
	*name = r;
	return 0;
}

char *
tg_path_real(const char *p, struct tg_err *err)
{
	char *r = tg_path_realpath(p);

	if (!r && errno == ENOMEM)
		tg_err_set(err, TG_ENOMEM, "out of memory resolving '%s'", p);
	else if (!r)
		tg_err_set(err, TG_EIO, "cannot resolve '%s': %s", p,
			   strerror(errno));
	return r;
}

int
tg_path_inside(const char *p, const char *b)
{
	size_t n = strlen(b);

	if (n == 1 && b[0] == '/')
		return 1;
	return strncmp(p, b, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/* realpath(p): 0 with *out, 1 when p does not resolve, TG_ENOMEM. */
static int
real_or_none(const char *p, char **out)
{
	*out = tg_path_realpath(p);
	if (*out)
		return 0;
	return errno == ENOMEM ? TG_ENOMEM : 1;
}

int
tg_path_beneath(const char *root, const char *rel, char **link, char **target,
		struct tg_err *err)
{
	char *rroot = NULL, *full = NULL, *real = NULL;
	size_t k, base, n = strlen(rel);
	int rc;

	if (link)
		*link = NULL;
	if (target)
		*target = NULL;
	full = tg_path_join(root, rel);
	if (!full || (rc = real_or_none(root, &rroot)) < 0)
		goto oom;
	if (rc || ((rc = real_or_none(full, &real)) == 0 &&
		   tg_path_inside(real, rroot))) {
		rc = 1;
		goto out;
	}
	if (rc < 0)
		goto oom;
	/* it leads out, or is absent (maybe through a link out): the first
	 * of root/rel's prefixes that resolves outside */
	base = strlen(full) - n;
	for (k = 1; k <= n; k++) {
		char c = full[base + k];

		if (k < n && rel[k] != '/')
			continue;
		full[base + k] = '\0';
		free(real);
		real = NULL;
		if ((rc = real_or_none(full, &real)) < 0)
			goto oom;
		if (!rc && !tg_path_inside(real, rroot))
			break;
		full[base + k] = c;
	}
	if (k > n) {
		rc = 1; /* absent, and no prefix leads out */
		goto out;
	}
	rc = 0;
	if (link) {
		*link = full;
		full = NULL;
	}
	if (target) {
		*target = real;
		real = NULL;
	}
	goto out;
oom:
	rc = tg_err_set(err, TG_ENOMEM, "out of memory");
out:
	free(real);
	free(full);
	free(rroot);
	return rc;
}

/* The proved prefix of rel: the longest rel[0..k) ending at a component
 * boundary that is pp->dir or one of its ancestors (all proved). */
static size_t
proved(const struct tg_path_plain *pp, const char *rel)
{
	size_t k = 0;

	if (!pp->dir)
		return 0;
	while (k < pp->len && rel[k] && rel[k] == pp->dir[k])
		k++;
	while (k > 0 && !(rel[k] == '/' && (k == pp->len || pp->dir[k] == '/')))
		k--;
	return k;
}

int
tg_path_plain(struct tg_path_plain *pp, const char *root, const char *rel)
{
	size_t rl = strlen(root), n = strlen(rel), k, start, last = 0;
	struct stat st;

	if (!rl || !n || rel[0] == '/')
		return 0;
	for (k = start = 0; k <= n; k++) {
		if (k < n && rel[k] != '/')
			continue;
		if (k == start || (k - start == 1 && rel[start] == '.') ||
		    (k - start == 2 && rel[start] == '.' &&
		     rel[start + 1] == '.'))
			return 0;
		if (k < n)
			last = k;
		start = k + 1;
	}
	if (!pp->root || strcmp(pp->root, root) != 0) {
		char *r = tg_str_ndup(root, rl);

		if (!r)
			return TG_ENOMEM;
		tg_path_plain_release(pp);
		pp->root = r;
	}
	if (rl + n + 2 > pp->cap) {
		char *b = realloc(pp->buf, rl + n + 2);

		if (!b)
			return TG_ENOMEM;
		pp->buf = b;
		pp->cap = rl + n + 2;
	}
	memcpy(pp->buf, root, rl);
	pp->buf[rl] = '/';
	memcpy(pp->buf + rl + 1, rel, n + 1);
	/* each prefix past the proved directory, then rel itself */
	k = proved(pp, rel);
	for (k = k ? k + 1 : 0; k <= n; k++) {
		int bad;

		if (k < n && rel[k] != '/')
			continue;
		pp->buf[rl + 1 + k] = '\0';
		bad = lstat(pp->buf, &st) != 0 || S_ISLNK(st.st_mode);
		pp->buf[rl + 1 + k] = rel[k];
		if (bad)
			return 0;
	}
	pp->regular = S_ISREG(st.st_mode);
	if (last &&
	    (last != pp->len || !pp->dir || memcmp(pp->dir, rel, last) != 0)) {
		char *d = tg_str_ndup(rel, last);

		if (!d)
			return TG_ENOMEM;
		free(pp->dir);
		pp->dir = d;
		pp->len = last;
	}
	return 1;
}

void
tg_path_plain_release(struct tg_path_plain *pp)
{
	free(pp->root);
	free(pp->dir);
	free(pp->buf);
	memset(pp, 0, sizeof(*pp));
}

int
tg_path_is_executable(const char *p)
{
	return tg_path_is_file(p) && access(p, X_OK) == 0;
}

char *
tg_path_which(const char *name, const char *pathvar, const char *cwd,
	      const char *skip)
{
	const char *p = pathvar ? pathvar : "/usr/local/bin:/usr/bin:/bin";

	for (;;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *dir =
		    n ? tg_str_ndup(p, n) : tg_str_ndup(cwd, strlen(cwd));
		char *abs = dir ? tg_path_abs(dir, cwd) : NULL;
		char *cand = abs ? tg_path_join(abs, name) : NULL;

		if (!cand) {
			free(dir);
			free(abs);
			errno = ENOMEM;
			return NULL;
		}
		if (!(skip && strcmp(abs, skip) == 0) &&
		    tg_path_is_executable(cand)) {
			free(dir);
			free(abs);
			return cand;
		}
		free(dir);
		free(abs);
		free(cand);
		if (!colon) {
			errno = 0;
			return NULL;
		}
		p = colon + 1;
	}
}
