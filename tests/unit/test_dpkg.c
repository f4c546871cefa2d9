/* test_dpkg.c - pyenv/dpkg: the installed stanza found wherever it lies
 * SPDX-License-Identifier: MIT
 *
 * The status file and the .list are searched in 16 KiB windows (WINDOW
 * in pyenv/dpkg.c), each read with the byte before it; a line
 * that starts just before, on or after a window's edge, or at the file's
 * start, must be found, and lines that only look alike must not. The
 * status file is bisected first, as dpkg sorts it: the stanza must be
 * found wherever it lies in a sorted file of 1 MiB (first, last, around
 * a bisection's probe), behind a stanza of the same name not installed,
 * and in a file that is not sorted; and not found when it is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/pyenv/dpkg.h"

/* pyenv/dpkg.c's window */
#define WINDOW ((size_t)16384)
#define FILE_ASKED "/usr/lib/python3/dist-packages/torch/version.py"

static char dir[] = "/tmp/test_dpkg.XXXXXX";

static void
put(const char *name, const char *s, size_t len)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "wb");
	if (f) {
		fwrite(s, 1, len, f);
		fclose(f);
	}
}

/* The version tg_dpkg_version_of finds for python3-torch ("" for none,
 * "error" for an error), into out. */
static void
look_up(char *out, size_t cap)
{
	struct tg_err err = TG_ERR_INIT;
	char *v = NULL;

	if (tg_dpkg_version_of(dir, "python3-torch", FILE_ASKED, &v, &err))
		snprintf(out, cap, "error");
	else
		snprintf(out, cap, "%s", v ? v : "");
	free(v);
}

/* pad bytes of filler stanzas (and look-alikes), then the real one */
static char *
status_at(size_t pad, size_t *len)
{
	static const char real[] = "Package: python3-torch\n"
				   "Status: install ok installed\n"
				   "Version: 1.13.1+dfsg-4\n\n";
	static const char alike[] = "Package: python3-torchvision\n"
				    "Status: install ok installed\n"
				    "Version: 9\n"
				    "Description: x\n"
				    " Package: python3-torch\n\n";
	char *s = malloc(pad + sizeof(real) + sizeof(alike));
	size_t n = 0;

	if (!s)
		return NULL;
	if (pad >= sizeof(alike) + 2) {
		memcpy(s, alike, sizeof(alike) - 1);
		n = sizeof(alike) - 1;
	}
	/* a filler field up to pad, ending in a blank line */
	if (pad > n) {
		memset(s + n, 'x', pad - n);
		if (pad - n >= 2)
			s[pad - 2] = '\n';
		s[pad - 1] = '\n';
		n = pad;
	}
	memcpy(s + n, real, sizeof(real) - 1);
	*len = n + sizeof(real) - 1;
	return s;
}

/* A status file of n sorted stanzas of about 500 bytes, python3-torch
 * (installed, version 2.0) among them at place at (n: absent), after a
 * copy of it that is not installed when dup; torch_first: its stanza
 * first instead, the others (all before it) still sorted: a file not
 * sorted. */
static void
put_sorted(size_t n, size_t at, int dup, int torch_first)
{
	static const char torch[] = "Package: python3-torch\n"
				    "Status: install ok installed\n"
				    "Version: 2.0\n\n";
	static const char gone[] = "Package: python3-torch\n"
				   "Status: deinstall ok config-files\n"
				   "Version: 1.0\n\n";
	char *s = malloc(n * 600 + 256), line[640];
	size_t len = 0, k;

	if (!s)
		exit(1);
	if (torch_first) {
		memcpy(s, torch, sizeof(torch) - 1);
		len = sizeof(torch) - 1;
	}
	for (k = 0; k <= n; k++) {
		if (k == at && at < n && !torch_first) {
			if (dup) {
				memcpy(s + len, gone, sizeof(gone) - 1);
				len += sizeof(gone) - 1;
			}
			memcpy(s + len, torch, sizeof(torch) - 1);
			len += sizeof(torch) - 1;
		}
		if (k == n)
			break;
		/* names before "python3-torch" (python3-0..., python3-t0...)
		 * before at, after it (python3-x...) from there on */
		snprintf(line, sizeof(line),
			 "Package: python3-%s%05zu\n"
			 "Status: install ok installed\n"
			 "Version: 1\n"
			 "Description: %0400zu\n"
			 " Package: python3-torch\n\n",
			 k < at / 2 ? ""
			 : k < at   ? "t"
				    : "x",
			 k, k);
		memcpy(s + len, line, strlen(line));
		len += strlen(line);
	}
	put("status", s, len);
	free(s);
}

int
main(void)
{
	static const char list[] = "/.\n/usr\n" FILE_ASKED "\n";
	char got[64], sub[160];
	size_t pad, len;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(sub, sizeof(sub), "%s/info", dir);
	mkdir(sub, 0700);
	put("info/python3-torch.list", list, sizeof(list) - 1);

	/* at the file's start, then around the first window's edge (WINDOW)
	 * and the second's (the next window starts 23 bytes back: the
	 * length of the line looked for) */
	for (pad = 0; pad < 2 * WINDOW + 200; pad++) {
		char *s;

		if (pad > 0 && pad < WINDOW - 100)
			pad = WINDOW - 100;
		if (pad > WINDOW + 100 && pad < 2 * WINDOW - 200)
			pad = 2 * WINDOW - 200;
		s = status_at(pad, &len);
		if (!s)
			return 1;
		put("status", s, len);
		free(s);
		look_up(got, sizeof(got));
		CHECK(strcmp(got, "1.13.1+dfsg-4") == 0,
		      "stanza after %zu bytes: got '%s'", pad, got);
	}

	/* a sorted status file of about 1 MiB: the stanza wherever it is */
	{
		static const size_t places[] = {0,    1,    499,  500,
						501,  999,  1000, 1001,
						1499, 1998, 1999, 2000};
		size_t k;

		for (k = 0; k < sizeof(places) / sizeof(places[0]); k++) {
			put_sorted(2000, places[k], 0, 0);
			look_up(got, sizeof(got));
			CHECK(strcmp(got, places[k] < 2000 ? "2.0" : "") == 0,
			      "sorted, at stanza %zu of 2000: got '%s'",
			      places[k], got);
			put_sorted(2000, places[k], 1, 0);
			look_up(got, sizeof(got));
			CHECK(strcmp(got, places[k] < 2000 ? "2.0" : "") == 0,
			      "sorted, after a config-files stanza, at %zu: "
			      "got '%s'",
			      places[k], got);
		}
		/* every other stanza sorts before python3-torch: the bisection
		 * ends near the end, and the stanza is at the start */
		put_sorted(2000, 2000, 0, 1);
		look_up(got, sizeof(got));
		CHECK_STR(got, "2.0", "not sorted: the stanza first");
	}

	/* installed, but no Version field: no version, no error */
	put("status",
	    "Package: python3-torch\nStatus: install ok installed\n\n",
	    strlen("Package: python3-torch\nStatus: install ok installed\n\n"));
	look_up(got, sizeof(got));
	CHECK_STR(got, "", "an installed stanza without a Version");

	/* only look-alikes: no version */
	put("status",
	    "Package: python3-torchaudio\nStatus: install ok installed\n"
	    "Version: 1\n\nXPackage: python3-torch\nVersion: 2\n\n",
	    strlen("Package: python3-torchaudio\nStatus: install ok "
		   "installed\nVersion: 1\n\nXPackage: python3-torch\n"
		   "Version: 2\n\n"));
	look_up(got, sizeof(got));
	CHECK_STR(got, "", "look-alikes only");

	/* the file not in the .list: no version */
	{
		char *st = status_at(0, &len);

		if (!st)
			return 1;
		put("status", st, len);
		free(st);
	}
	put("info/python3-torch.list", "/.\n/usr/x" FILE_ASKED "\n",
	    strlen("/.\n/usr/x" FILE_ASKED "\n"));
	look_up(got, sizeof(got));
	CHECK_STR(got, "", "file only as a suffix of a listed line");

	snprintf(sub, sizeof(sub), "rm -rf %s", dir);
	if (system(sub) != 0)
		return 1;
	return check_result("test_dpkg");
}
