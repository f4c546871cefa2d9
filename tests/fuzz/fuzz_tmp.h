/* fuzz_tmp.h - a scratch directory for the harnesses of readers that take
 * a path
 * SPDX-License-Identifier: MIT
 *
 * Some readers open their file by name (pyvenv.cfg, .pth files, dpkg's
 * status, an editable finder): their harness writes each input to a file
 * in one directory made at the first call, under /dev/shm when it exists
 * (a write there costs no disk), removed at exit. Slower than a buffer
 * entry point (a few syscalls an input), but it runs the reader exactly
 * as torchgate does, open, fstat and all.
 */
#ifndef TG_FUZZ_TMP_H
#define TG_FUZZ_TMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_tmp_root[256];

static inline void
fuzz_tmp_cleanup(void)
{
	char cmd[300];

	if (!fuzz_tmp_root[0])
		return;
	/* the root is our own mkdtemp name: no quoting needed */
	snprintf(cmd, sizeof(cmd), "rm -rf %s", fuzz_tmp_root);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: cannot remove %s\n", fuzz_tmp_root);
}

/* The scratch directory, made once; aborts when it cannot be made (the
 * harness would test nothing). */
static inline const char *
fuzz_tmp_dir(void)
{
	if (!fuzz_tmp_root[0]) {
		struct stat st;
		const char *base =
		    stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
			    access("/dev/shm", W_OK) == 0
			? "/dev/shm"
			: (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");

		snprintf(fuzz_tmp_root, sizeof(fuzz_tmp_root),
			 "%s/tg-fuzz.XXXXXX", base);
		if (!mkdtemp(fuzz_tmp_root)) {
			perror(fuzz_tmp_root);
			abort();
		}
		atexit(fuzz_tmp_cleanup);
	}
	return fuzz_tmp_root;
}

/* dir/rel as a path in out (size PATH_BUF); aborts when too long. */
#define FUZZ_PATH_MAX 512
static inline void
fuzz_tmp_path(char *out, const char *rel)
{
	if ((size_t)snprintf(out, FUZZ_PATH_MAX, "%s/%s", fuzz_tmp_dir(),
			     rel) >= FUZZ_PATH_MAX)
		abort();
}

/* Make the directory dir/rel (and no parents). */
static inline void
fuzz_tmp_mkdir(const char *rel)
{
	char p[FUZZ_PATH_MAX];

	fuzz_tmp_path(p, rel);
	if (mkdir(p, 0755) != 0 && access(p, F_OK) != 0) {
		perror(p);
		abort();
	}
}

/* Write data to dir/rel, replacing it; the path in out when not NULL. */
static inline void
fuzz_tmp_write(const char *rel, const uint8_t *data, size_t size, char *out)
{
	char p[FUZZ_PATH_MAX];
	FILE *f;

	fuzz_tmp_path(p, rel);
	f = fopen(p, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
		perror(p);
		abort();
	}
	if (out)
		memcpy(out, p, strlen(p) + 1);
}

#endif
