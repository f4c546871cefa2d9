/* test_dpkg.c - pyenv/dpkg: the installed stanza found wherever it lies
 * SPDX-License-Identifier: MIT
 *
 * The status file and the .list are searched in 64 KiB windows (WINDOW
 * in pyenv/dpkg.c), each read with the byte before it; a line
 * that starts just before, on or after a window's edge, or at the file's
 * start, must be found, and lines that only look alike must not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/pyenv/dpkg.h"

/* pyenv/dpkg.c's window */
#define WINDOW ((size_t)65536)
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
