/* dpkg.c - the Debian package version of an installed file
 * SPDX-License-Identifier: MIT
 *
 * Reads <admindir>/info/<pkg>.list (or <pkg>:<arch>.list for
 * Multi-Arch: same packages, whichever exists) and <admindir>/status.
 * Both are searched in 64 KiB windows with pread() and memmem(), so
 * time is one pass and memory stays flat however many packages the system
 * has (a status file of many MiB is common). The status file is searched
 * for the stanza whose Package field is pkg and whose Status word is
 * "installed"; a stanza is read up to 64 KiB. Both must be regular
 * files (a FIFO or /dev/zero there would be read for ever) within their
 * limits: 64 MiB for a file list, 256 MiB for the status file, so the
 * worst case is one pass over 320 MiB.
 */
#include "lib/pyenv/dpkg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"

/* a window a system call: 64 KiB. A larger one saves calls but costs
 * more in page faults than it saves (256 KiB: 48 more faults for 12 fewer
 * preads on Debian's 1 MiB status file, and slower) */
#define WINDOW 65536
#define STANZA_MAX 65536
#define LIST_MAX ((size_t)64 << 20)
#define STATUS_MAX ((size_t)256 << 20)

/* The offset of the first line of fd at or after from that starts with
 * line (which ends in '\n'), or -1. A match at offset 0 counts. Reads
 * no further than size, what fstat said when the file was opened: a
 * file that grows meanwhile is not followed. Each window is searched
 * once for "\n" followed by line (memmem), the byte before the window
 * standing in front of it (a newline at the file's start): a status
 * file of 1 MiB costs about a third of the instructions a search for
 * each newline and a compare there did. */
static off_t
find_line(int fd, off_t size, off_t from, const char *line)
{
	static char buf[WINDOW + 1024];
	char needle[1002];
	size_t n = strlen(line);
	off_t base = from;

	if (n == 0 || n > 1000)
		return -1;
	needle[0] = '\n';
	memcpy(needle + 1, line, n);
	for (;;) {
		size_t want = WINDOW + n;
		/* the byte before the window comes with it, in the same
		 * pread: one system call a window, not two */
		size_t lead = base > 0 ? 1 : 0;
		ssize_t r;
		const char *p;

		if (base >= size)
			return -1;
		if ((off_t)want > size - base)
			want = (size_t)(size - base);
		r = pread(fd, buf + 1 - lead, want + lead, base - (off_t)lead);
		if (r <= (ssize_t)lead)
			return -1;
		r -= (ssize_t)lead;
		/* the byte before the window: a newline at the file start */
		if (!lead)
			buf[0] = '\n';
		p = memmem(buf, (size_t)r + 1, needle, n + 1);
		if (p)
			return base + (p - buf);
		if ((size_t)r <= n)
			return -1;
		base += r - (ssize_t)n;
	}
}

static int
open_ro(const char *path, size_t max, const char *what, off_t *size,
	int *absent, struct tg_err *err)
{
	int fd;
	size_t n = 0;

	if (tg_file_open(path, max, what, &fd, &n, absent, err))
		return -1;
	*size = (off_t)n;
	return fd;
}

/* Value of field name in the stanza s[0..len), a new string, or NULL. */
static char *
stanza_field(const char *s, size_t len, const char *name)
{
	size_t n = strlen(name), i = 0;

	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len;

		if (e - i > n && memcmp(s + i, name, n) == 0 &&
		    s[i + n] == ':') {
			size_t v = i + n + 1;

			while (v < e && (s[v] == ' ' || s[v] == '\t'))
				v++;
			while (e > v && (s[e - 1] == ' ' || s[e - 1] == '\r'))
				e--;
			return tg_str_ndup(s + v, e - v);
		}
		i = e + 1;
	}
	return NULL;
}

/* Open the .list of pkg: "<pkg>.list", else the first "<pkg>:*.list". */
static int
open_list(const char *admindir, const char *pkg, off_t *size,
	  struct tg_err *err)
{
	char path[4096];
	int absent = 0, fd;
	DIR *d;
	struct dirent *de;
	size_t n = strlen(pkg);

	if (tg_path_fmt(path, sizeof(path), err, "%s/info/%s.list", admindir,
			pkg))
		return -1;
	fd = open_ro(path, LIST_MAX, "a dpkg file list", size, &absent, err);
	if (fd >= 0 || !absent)
		return fd;
	if (tg_path_fmt(path, sizeof(path), err, "%s/info", admindir))
		return -1;
	d = opendir(path);
	if (!d) {
		if (errno == ENOMEM)
			tg_err_set(err, TG_ENOMEM, "out of memory");
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > n + 6 && strncmp(de->d_name, pkg, n) == 0 &&
		    de->d_name[n] == ':' &&
		    strcmp(de->d_name + l - 5, ".list") == 0) {
			if (tg_path_fmt(path, sizeof(path), err, "%s/info/%s",
					admindir, de->d_name) == 0)
				fd = open_ro(path, LIST_MAX, "a dpkg file list",
					     size, NULL, err);
			break;
		}
	}
	closedir(d);
	return fd;
}

int
tg_dpkg_version_of(const char *admindir, const char *pkg, const char *file,
		   char **version, struct tg_err *err)
{
	char path[4096], want[4200], *stanza = NULL;
	int lfd = -1, sfd = -1, absent = 0;
	struct tg_err e2 = TG_ERR_INIT;
	off_t at, lsize = 0, ssize = 0;

	*version = NULL;
	lfd = open_list(admindir, pkg, &lsize, &e2);
	if (lfd < 0) {
		if (e2.code && err)
			*err = e2;
		return e2.code;
	}
	if (tg_path_fmt(want, sizeof(want), &e2, "%s\n", file) ||
	    tg_path_fmt(path, sizeof(path), &e2, "%s/status", admindir)) {
		if (err)
			*err = e2;
		close(lfd);
		return e2.code;
	}
	if (find_line(lfd, lsize, 0, want) < 0)
		goto out;
	sfd = open_ro(path, STATUS_MAX, "a dpkg status file", &ssize, &absent,
		      &e2);
	if (sfd < 0) {
		if (e2.code && err)
			*err = e2;
		close(lfd);
		return e2.code;
	}
	stanza = malloc(STANZA_MAX + 1);
	if (!stanza) {
		close(lfd);
		close(sfd);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	/* pkg is the caller's constant package name, far below the limit */
	snprintf(want, sizeof(want), "Package: %s\n", pkg);
	for (at = 0; (at = find_line(sfd, ssize, at, want)) >= 0; at++) {
		ssize_t r = pread(sfd, stanza,
				  ssize - at < STANZA_MAX ? (size_t)(ssize - at)
							  : STANZA_MAX,
				  at);
		char *end, *st;

		if (r <= 0)
			break;
		stanza[r] = '\0';
		end = strstr(stanza, "\n\n");
		if (end)
			*end = '\0';
		/* "want flag status": the status word must be "installed",
		 * not half-installed, not-installed, config-files, ... */
		st = stanza_field(stanza, strlen(stanza), "Status");
		if (st && strlen(st) >= 10 &&
		    strcmp(st + strlen(st) - 10, " installed") == 0) {
			free(st);
			*version =
			    stanza_field(stanza, strlen(stanza), "Version");
			break;
		}
		free(st);
	}
out:
	free(stanza);
	if (lfd >= 0)
		close(lfd);
	if (sfd >= 0)
		close(sfd);
	return 0;
}
