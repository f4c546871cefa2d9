/* dpkg.c - the Debian package version of an installed file
 * SPDX-License-Identifier: MIT
 *
 * Reads <admindir>/info/<pkg>.list (or <pkg>:<arch>.list for
 * Multi-Arch: same packages, whichever exists) and <admindir>/status.
 * The .list is searched in 16 KiB windows with pread() and memmem(), so
 * time is one pass and memory stays flat however long it is. The status
 * file is searched for the stanza whose Package field is pkg and whose
 * Status word is "installed"; a stanza is read up to 64 KiB. dpkg writes
 * its stanzas sorted by name (strcmp), so the search first bisects the
 * file, reading 8 KiB at a few offsets (6 for Debian's 1 MiB status
 * file), to the last stanza before pkg's, and scans in windows from
 * there; what a sorted file promises is only a shortcut: when no
 * installed stanza of pkg follows that point the part before it is
 * scanned too, so a status file in any order gives the answer a whole
 * scan gives (the first installed stanza in it; Multi-Arch: same copies
 * of a package, the only other kind, share one version). Both files
 * must be regular (a FIFO or /dev/zero there would be read for ever)
 * within their limits: 64 MiB for a file list, 256 MiB for the status
 * file, so the worst case is one pass over 320 MiB.
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

/* a window a system call: 16 KiB. A larger one saves calls but costs
 * more in page faults than it saves (256 KiB: 48 more faults for 12 fewer
 * preads on Debian's 1 MiB status file, and slower; since the status
 * file is bisected, the scans read little and 16 KiB costs 12 faults
 * fewer than 64 KiB did) */
#define WINDOW 16384
/* what a bisection step reads, and the range it stops at */
#define PROBE 8192
#define BISECT_MIN ((off_t)WINDOW)
/* a stanza is read 4 KiB first (python3-torch's is 1.5 KiB), then up to
 * 64 KiB when longer */
#define STANZA_FIRST 4096
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

/* Value of field name in the stanza s[0..len) into *out, a new string
 * (NULL: no such field): 0, or TG_ENOMEM. */
static int
stanza_field(const char *s, size_t len, const char *name, char **out)
{
	size_t n = strlen(name), i = 0;

	*out = NULL;
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
			*out = tg_str_ndup(s + v, e - v);
			return *out ? 0 : TG_ENOMEM;
		}
		i = e + 1;
	}
	return 0;
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

/* The first stanza that starts in [from, end) of the status file
 * ("Package: " at a line's start): 1 and where it starts (*at) and how
 * its name compares with pkg (*cmp, strcmp's sign), or 0 for none (or
 * a read error: the scan that follows reads for itself). Reads PROBE
 * bytes a time, with the byte before them. */
static int
stanza_after(int fd, off_t end, off_t from, const char *pkg, off_t *at,
	     int *cmp)
{
	static const char key[] = "\nPackage: ";
	const size_t klen = sizeof(key) - 1, plen = strlen(pkg);
	char buf[PROBE + 1];
	off_t base = from;

	for (;;) {
		size_t lead = base > 0 ? 1 : 0, nlen, k;
		const char *p, *name, *nl;
		ssize_t r;
		int c;

		if (base >= end)
			return 0;
		r = pread(fd, buf + 1 - lead, PROBE + lead, base - (off_t)lead);
		if (r <= (ssize_t)lead)
			return 0;
		r -= (ssize_t)lead;
		if (!lead)
			buf[0] = '\n';
		/* buf[i] is the byte at base - 1 + i */
		p = memmem(buf, (size_t)r + 1, key, klen);
		if (!p) {
			if ((size_t)r < klen)
				return 0;
			base += r - (ssize_t)(klen - 1);
			continue;
		}
		*at = base + (p - buf);
		if (*at >= end)
			return 0;
		name = p + klen;
		nl = memchr(name, '\n', (size_t)(buf + r + 1 - name));
		if (!nl && r == PROBE && *at != base) {
			base = *at; /* the name is cut: read it whole */
			continue;
		}
		nlen = nl ? (size_t)(nl - name) : (size_t)(buf + r + 1 - name);
		k = nlen < plen ? nlen : plen;
		c = memcmp(name, pkg, k);
		*cmp = c ? c : (nlen > plen) - (nlen < plen);
		return 1;
	}
}

/* The stanza at at, into s (STANZA_MAX + 1 bytes), cut at its blank
 * line: its length, or -1. */
static ssize_t
read_stanza(int fd, off_t size, off_t at, char *s)
{
	size_t want = STANZA_FIRST;
	ssize_t r;
	char *end;

	for (;;) {
		if ((off_t)want > size - at)
			want = (size_t)(size - at);
		r = pread(fd, s, want, at);
		if (r <= 0)
			return -1;
		s[r] = '\0';
		end = strstr(s, "\n\n");
		if (end || (size_t)r < want || want == STANZA_MAX ||
		    (off_t)want == size - at)
			break;
		want = STANZA_MAX;
	}
	if (end)
		*end = '\0';
	return (ssize_t)strlen(s);
}

/* The Version of the first stanza of pkg (want: "Package: pkg\n") that
 * is installed, starting at from and before until: 1 and *version (NULL
 * when it has no Version field), 0 for none, or TG_ENOMEM. */
static int
installed(int fd, off_t size, off_t from, off_t until, const char *want,
	  char *stanza, char **version)
{
	off_t at;

	for (at = from; (at = find_line(fd, size, at, want)) >= 0 && at < until;
	     at++) {
		ssize_t len = read_stanza(fd, size, at, stanza);
		char *st;

		if (len < 0)
			break;
		/* "want flag status": the status word must be "installed",
		 * not half-installed, not-installed, config-files, ... */
		if (stanza_field(stanza, (size_t)len, "Status", &st))
			return TG_ENOMEM;
		if (st && strlen(st) >= 10 &&
		    strcmp(st + strlen(st) - 10, " installed") == 0) {
			free(st);
			if (stanza_field(stanza, (size_t)len, "Version",
					 version))
				return TG_ENOMEM;
			return 1;
		}
		free(st);
	}
	return 0;
}

int
tg_dpkg_version_of(const char *admindir, const char *pkg, const char *file,
		   char **version, struct tg_err *err)
{
	char path[4096], want[4200], *stanza = NULL;
	int lfd = -1, sfd = -1, absent = 0, cmp, rc = 0;
	struct tg_err e2 = TG_ERR_INIT;
	off_t lsize = 0, ssize = 0, lo = 0, hi, at;

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
	/* bisect to the last stanza before pkg's, if the file is sorted:
	 * every stanza before lo names a package before pkg */
	for (hi = ssize; hi - lo > BISECT_MIN;) {
		off_t mid = lo + (hi - lo) / 2;

		if (stanza_after(sfd, hi, mid, pkg, &at, &cmp) && cmp < 0)
			lo = at;
		else
			hi = mid;
	}
	/* pkg is the caller's constant package name, far below the limit */
	snprintf(want, sizeof(want), "Package: %s\n", pkg);
	rc = installed(sfd, ssize, lo, ssize, want, stanza, version);
	if (!rc && lo > 0) /* not sorted after all? the rest */
		rc = installed(sfd, ssize, 0, lo, want, stanza, version);
	if (rc == TG_ENOMEM)
		tg_err_set(err, TG_ENOMEM, "out of memory");
out:
	free(stanza);
	if (lfd >= 0)
		close(lfd);
	if (sfd >= 0)
		close(sfd);
	return rc < 0 ? rc : 0;
}
