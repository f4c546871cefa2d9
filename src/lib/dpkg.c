/* dpkg.c - the Debian package version of an installed file
 * SPDX-License-Identifier: MIT
 *
 * Reads <admindir>/info/<pkg>.list (or <pkg>:<arch>.list for
 * Multi-Arch: same packages, whichever exists) and <admindir>/status,
 * both bounded. The status file is scanned for the stanza whose Package
 * field is pkg and whose Status ends in "installed".
 */
#include "lib/dpkg.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/file.h"

#define LIST_MAX ((size_t)64 * 1024 * 1024)
#define STATUS_MAX ((size_t)256 * 1024 * 1024)

/* 1 when the text holds the line want exactly. */
static int
has_line(const char *text, size_t len, const char *want)
{
	size_t n = strlen(want);
	const char *p = text, *e = text + len;

	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(e - p);

		if (l == n && memcmp(p, want, n) == 0)
			return 1;
		p += l + 1;
	}
	return 0;
}

/* Read the .list of pkg: "<pkg>.list", else the first "<pkg>:*.list". */
static int
read_list(const char *admindir, const char *pkg, char **text, size_t *len,
	  struct tg_err *err)
{
	char path[4096];
	int absent = 0, rc;
	DIR *d;
	struct dirent *de;
	size_t n = strlen(pkg);

	snprintf(path, sizeof(path), "%s/info/%s.list", admindir, pkg);
	rc = tg_file_read(path, LIST_MAX, text, len, &absent, err);
	if (rc || !absent)
		return rc;
	snprintf(path, sizeof(path), "%s/info", admindir);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > n + 6 && strncmp(de->d_name, pkg, n) == 0 &&
		    de->d_name[n] == ':' &&
		    strcmp(de->d_name + l - 5, ".list") == 0) {
			snprintf(path, sizeof(path), "%s/info/%s", admindir,
				 de->d_name);
			rc = tg_file_read(path, LIST_MAX, text, len, &absent,
					  err);
			break;
		}
	}
	closedir(d);
	return rc;
}

/* Value of field name in the stanza s[0..len), a new string, or NULL. */
static char *
stanza_field(const char *s, size_t len, const char *name)
{
	size_t n = strlen(name), i = 0;

	while (i < len) {
		size_t e = i;

		while (e < len && s[e] != '\n')
			e++;
		if (e - i > n && memcmp(s + i, name, n) == 0 &&
		    s[i + n] == ':') {
			size_t v = i + n + 1;

			while (v < e && (s[v] == ' ' || s[v] == '\t'))
				v++;
			while (e > v && (s[e - 1] == ' ' || s[e - 1] == '\r'))
				e--;
			return tg_strndup(s + v, e - v);
		}
		i = e + 1;
	}
	return NULL;
}

int
tg_dpkg_version_of(const char *admindir, const char *pkg, const char *file,
		   char **version, struct tg_err *err)
{
	char *list = NULL, *status = NULL, path[4096], want[512];
	size_t llen = 0, slen = 0;
	int rc, absent = 0;
	const char *p;

	*version = NULL;
	rc = read_list(admindir, pkg, &list, &llen, err);
	if (rc || !list || !has_line(list, llen, file))
		goto out;
	snprintf(path, sizeof(path), "%s/status", admindir);
	rc = tg_file_read(path, STATUS_MAX, &status, &slen, &absent, err);
	if (rc || !status)
		goto out;
	snprintf(want, sizeof(want), "Package: %s\n", pkg);
	for (p = status; (p = strstr(p, want)); p++) {
		const char *end;
		char *st;

		if (p != status && p[-1] != '\n')
			continue;
		end = strstr(p, "\n\n");
		if (!end)
			end = status + slen;
		st = stanza_field(p, (size_t)(end - p), "Status");
		/* "want flag status": the status word must be "installed",
		 * not half-installed, not-installed, config-files, ... */
		if (st && strlen(st) >= 10 &&
		    strcmp(st + strlen(st) - 10, " installed") == 0) {
			free(st);
			*version =
			    stanza_field(p, (size_t)(end - p), "Version");
			break;
		}
		free(st);
	}
out:
	free(list);
	free(status);
	return rc;
}
