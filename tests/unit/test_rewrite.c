/* test_rewrite.c - fix/rewrite: replaced atomically, or left alone
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/fix/rewrite.h"

static char dir[] = "/tmp/test_rewrite.XXXXXX";

static const char *
at(const char *name)
{
	static char p[2][128];
	static int k;

	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void
put(const char *name, const char *s, mode_t mode)
{
	FILE *f = fopen(at(name), "wb");

	CHECK(f && fputs(s, f) >= 0 && fclose(f) == 0, "write %s", name);
	CHECK(chmod(at(name), mode) == 0, "chmod %s", name);
}

static int
holds(const char *name, const char *s)
{
	char got[64] = "";
	FILE *f = fopen(at(name), "rb");
	size_t n = f ? fread(got, 1, sizeof(got) - 1, f) : 0;

	if (f)
		fclose(f);
	got[n] = '\0';
	return strcmp(got, s) == 0;
}

static int
entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.' || strncmp(e->d_name, ".f", 2) == 0;
	if (d)
		closedir(d);
	return n;
}

int
main(void)
{
	struct tg_err err = TG_ERR_INIT;
	struct stat st;
	char cmd[64];

	if (!mkdtemp(dir))
		return 1;
	put("f.py", "old\n", 0751);
	CHECK(tg_rewrite_file(at("f.py"), "old\n", 4, "new\n", 4, NULL, &err) ==
		  0,
	      "rewrite: %s", err.msg);
	CHECK(holds("f.py", "new\n"), "new text");
	CHECK(stat(at("f.py"), &st) == 0 && (st.st_mode & 07777) == 0751,
	      "mode kept: %o", (unsigned)st.st_mode);

	/* changed since read: refused, left as it is, no temporary file */
	put("f.py", "theirs\n", 0644);
	CHECK(tg_rewrite_file(at("f.py"), "new\n", 4, "fixed\n", 6, NULL,
			      &err) == TG_EIO,
	      "changed");
	CHECK(strstr(err.msg,
		     "f.py' changed since it was read: left as it is") != NULL,
	      "message: %s", err.msg);
	CHECK(holds("f.py", "theirs\n"), "theirs kept");
	CHECK(entries() == 1, "no temporary file left: %d", entries());
	/* a longer file that starts with what was read is changed too */
	put("f.py", "theirs\nmore\n", 0644);
	CHECK(tg_rewrite_file(at("f.py"), "theirs\n", 7, "x\n", 2, NULL,
			      &err) == TG_EIO,
	      "grown");

	/* through a symbolic link: the link stays, its file is replaced */
	put("g.py", "a\n", 0644);
	CHECK(symlink("g.py", at("l.py")) == 0, "symlink");
	CHECK(tg_rewrite_file(at("l.py"), "a\n", 2, "b\n", 2, NULL, &err) == 0,
	      "link: %s", err.msg);
	CHECK(lstat(at("l.py"), &st) == 0 && S_ISLNK(st.st_mode),
	      "still a link");
	CHECK(holds("g.py", "b\n"), "target rewritten");

	/* a FIFO is refused */
	CHECK(mkfifo(at("p.py"), 0644) == 0, "mkfifo");
	CHECK(tg_rewrite_file(at("p.py"), "", 0, "x", 1, NULL, &err) == TG_EIO,
	      "fifo");

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "cleanup");
	return check_result("test_rewrite");
}
