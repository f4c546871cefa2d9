/* test_walk.c - unit tests for lib/util/walk: the bounded directory walk
 * SPDX-License-Identifier: MIT
 *
 * Real trees in a temporary directory: sorted order, symlink loops, a
 * link to '/', a link to a sibling outside the root, links inside the
 * root, file links in and out, TG_WALK_ROOT_LINKS, an unreadable
 * directory, the depth, entry and byte limits, files handed out without
 * a stat (TG_WALK_LAZY_FILES), and the errors.
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "lib/util/walk.h"

/* What a walk saw, one line each: "F rel" for a file, "S rel why msg"
 * for a skip; at most 64 lines. */
struct seen {
	char line[64][256];
	size_t n;
	int stop_on; /* a why that makes skipped return TG_EIO */
};

static int
on_file(void *ctx, const struct tg_walk_entry *e)
{
	struct seen *s = ctx;

	if (s->n < 64)
		snprintf(s->line[s->n++], 256, "F %s", e->rel);
	return 0;
}

/* As on_file, "L rel" for a file handed out unread (st NULL). */
static int
on_file_lazy(void *ctx, const struct tg_walk_entry *e)
{
	struct seen *s = ctx;

	if (s->n < 64)
		snprintf(s->line[s->n++], 256, "%c %s", e->st ? 'F' : 'L',
			 e->rel);
	return 0;
}

static int
on_skip(void *ctx, const struct tg_walk_entry *e, enum tg_walk_why why,
	const char *msg)
{
	struct seen *s = ctx;

	if (s->n < 64)
		snprintf(s->line[s->n++], 256, "S %s %d %s", e->rel, (int)why,
			 msg);
	return s->stop_on && (int)why == s->stop_on ? -3 : 0;
}

static int
no_pycache(void *ctx, const struct tg_walk_entry *e)
{
	(void)ctx;
	return strcmp(e->name, "__pycache__") != 0;
}

static void
ln(const char *dir, const char *target, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	CHECK(symlink(target, path) == 0, "symlink %s", rel);
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		chmod(path, 0755);
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* Whether s holds a line starting with want. */
static int
has(const struct seen *s, const char *want)
{
	size_t k, n = strlen(want);

	for (k = 0; k < s->n; k++)
		if (strncmp(s->line[k], want, n) == 0)
			return 1;
	return 0;
}

static void
dump(const struct seen *s, const char *name)
{
	size_t k;

	printf("%s:\n", name);
	for (k = 0; k < s->n; k++)
		printf("  %s\n", s->line[k]);
}

int
main(void)
{
	char dir[] = "/tmp/tg-test-walk-XXXXXX", root[256], path[4096];
	struct tg_walk_opts o;
	struct tg_err err = TG_ERR_INIT;
	struct seen s;
	int rc;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return check_result("test_walk");
	}
	snprintf(root, sizeof(root), "%s/root", dir);
	check_put(dir, "root/b.py", "b\n");
	check_put(dir, "root/a/z.py", "z\n");
	check_put(dir, "root/a/y.py", "yy\n");
	check_put(dir, "root/C.py", "C\n");
	check_put(dir, "root/__pycache__/c.py", "c\n");
	check_put(dir, "root/sub/deep/f.py", "f\n");
	check_put(dir, "outside/secret.py", "s\n");
	check_put(dir, "outside/dir/o.py", "o\n");
	ln(dir, "/", "root/slash");	       /* the whole file system */
	ln(dir, "../outside/dir", "root/sib"); /* a sibling outside */
	ln(dir, "../outside/secret.py", "root/s.py"); /* a file outside */
	ln(dir, "sub/deep", "root/in");		      /* inside: walked once */
	ln(dir, "../b.py", "root/a/b2.py");	      /* a file link inside */
	ln(dir, "..", "root/a/up");		      /* a loop */
	ln(dir, "nowhere", "root/gone.py");	      /* dangling */

	/* Everything, sorted, never out of the root. */
	memset(&o, 0, sizeof(o));
	memset(&s, 0, sizeof(s));
	o.want = no_pycache;
	o.file = on_file;
	o.skipped = on_skip;
	o.ctx = &s;
	rc = tg_walk(root, &o, &err);
	dump(&s, "walk");
	CHECK(rc == 0, "walk: %d %s", rc, err.msg);
	CHECK(s.n == 12, "%zu lines, want 12", s.n);
	if (s.n == 12) {
		CHECK_STR(s.line[0], "F C.py", "uppercase sorts first");
		CHECK_STR(s.line[1], "F a/b2.py", "file link inside");
		CHECK(strncmp(s.line[2], "S a/up 2 a symlink loop", 23) == 0,
		      "loop: %s", s.line[2]);
		CHECK_STR(s.line[3], "F a/y.py", "sorted in a");
		CHECK_STR(s.line[4], "F a/z.py", "sorted in a");
		CHECK_STR(s.line[5], "F b.py", "b");
		CHECK_STR(s.line[6], "S gone.py 4 No such file or directory",
			  "dangling");
		CHECK_STR(s.line[7], "F in/f.py", "a link inside is followed");
		CHECK(strncmp(s.line[8], "S s.py 1 a symlink to '", 23) == 0 &&
			  strstr(s.line[8], "/outside/secret.py', outside '"),
		      "file link outside: %s", s.line[8]);
		CHECK(strncmp(s.line[9], "S sib 1 a symlink to '", 22) == 0 &&
			  strstr(s.line[9], "/outside/dir', outside '"),
		      "sibling outside: %s", s.line[9]);
		CHECK(strncmp(s.line[10],
			      "S slash 1 a symlink to '/', outside '", 37) == 0,
		      "link to /: %s", s.line[10]);
		CHECK_STR(s.line[11], "S sub/deep 3 walked already",
			  "reached twice, walked once");
	}

	/* Links directly in the root may leave it with ROOT_LINKS, and
	 * their targets bound what lies below; '/' still may not. */
	memset(&s, 0, sizeof(s));
	o.flags = TG_WALK_ROOT_LINKS;
	rc = tg_walk(root, &o, &err);
	dump(&s, "root links");
	CHECK(rc == 0, "root links: %d %s", rc, err.msg);
	CHECK(has(&s, "F s.py") && has(&s, "F sib/o.py"),
	      "top-level links out are followed");
	CHECK(has(&s, "S slash 1 a symlink to '/'"), "never to /");
	CHECK(has(&s, "F a/b2.py"), "inner links as before");
	o.flags = 0;

	/* Depth: 1 keeps to the root and the first level. */
	memset(&s, 0, sizeof(s));
	o.max_depth = 1;
	rc = tg_walk(root, &o, &err);
	CHECK(rc == 0, "depth: %d", rc);
	CHECK(has(&s, "S sub/deep 7 deeper than 1 directories"), "depth note");
	CHECK(!has(&s, "F sub/deep/f.py"), "not below the limit");
	o.max_depth = 0;

	/* The depth limit without a skipped callback is an error. */
	o.skipped = NULL;
	o.max_depth = 1;
	memset(&s, 0, sizeof(s));
	check_put(dir, "plain/x/y/z.py", "z\n");
	snprintf(path, sizeof(path), "%s/plain", dir);
	rc = tg_walk(path, &o, &err);
	CHECK(rc == TG_ELIMIT && strstr(err.msg, "deeper than 1 directories") &&
		  strstr(err.msg, "/plain/x/y'"),
	      "depth error: %d %s", rc, err.msg);
	o.max_depth = 0;
	/* ... and so is a link out of the root. */
	check_put(dir, "out2/f.py", "f\n");
	ln(dir, "/", "out2/l");
	snprintf(path, sizeof(path), "%s/out2", dir);
	rc = tg_walk(path, &o, &err);
	CHECK(rc == TG_EIO && strstr(err.msg, "skipped '") &&
		  strstr(err.msg, "a symlink to '"),
	      "outside error: %d %s", rc, err.msg);
	o.skipped = on_skip;

	/* Entries: the limit stops the walk, naming it and the directory. */
	memset(&s, 0, sizeof(s));
	o.max_entries = 3;
	rc = tg_walk(root, &o, &err);
	CHECK(rc == TG_ELIMIT && strstr(err.msg, "more than 3 files under '") &&
		  strstr(err.msg, "/root'"),
	      "entries: %d %s", rc, err.msg);
	CHECK(has(&s, "S  8 more than 3 files"), "entries reported");
	o.max_entries = 0;

	/* Bytes of the files handed out. */
	memset(&s, 0, sizeof(s));
	o.max_bytes = 4;
	rc = tg_walk(root, &o, &err);
	CHECK(rc == TG_ELIMIT && strstr(err.msg, "more than 4 bytes of files"),
	      "bytes: %d %s", rc, err.msg);
	CHECK(has(&s, "S a/y.py 9 more than 4 bytes"), "bytes reported");
	o.max_bytes = 0;

	/* LAZY_FILES: a plain file is handed out without a stat, a link
	 * to one after its stat as before; the bytes are the caller's to
	 * bound; what want_name leaves out is still left out. */
	memset(&s, 0, sizeof(s));
	o.flags = TG_WALK_LAZY_FILES;
	o.max_bytes = 4;
	o.file = on_file_lazy;
	o.want_name = no_pycache;
	check_put(dir, "root/sub/__pycache__",
		  "p\n"); /* a file want_name refuses */
	rc = tg_walk(root, &o, &err);
	dump(&s, "lazy");
	CHECK(rc == 0, "lazy: %d %s", rc, err.msg);
	CHECK(has(&s, "L a/y.py") && has(&s, "L C.py") && has(&s, "L in/f.py"),
	      "plain files unread");
	CHECK(has(&s, "F a/b2.py"), "a file link is read");
	CHECK(has(&s, "S gone.py 4 No such file"), "dangling as before");
	CHECK(has(&s, "L in/f.py") && !has(&s, "L sub/__pycache__"),
	      "want_name still asked");
	snprintf(path, sizeof(path), "%s/root/sub/__pycache__", dir);
	unlink(path);
	o.flags = 0;
	o.max_bytes = 0;
	o.file = on_file;
	o.want_name = NULL;

	/* A callback's error stops the walk and is returned. */
	memset(&s, 0, sizeof(s));
	s.stop_on = TG_WALK_LOOP;
	rc = tg_walk(root, &o, &err);
	CHECK(rc == -3 && !has(&s, "F a/y.py"), "callback stops: %d", rc);
	s.stop_on = 0;

	/* An unreadable directory is reported, not skipped silently. */
	if (geteuid() != 0) {
		snprintf(path, sizeof(path), "%s/a", root);
		chmod(path, 0);
		memset(&s, 0, sizeof(s));
		rc = tg_walk(root, &o, &err);
		CHECK(rc == 0 && has(&s, "S a 5 Permission denied"),
		      "unreadable: %d", rc);
		chmod(path, 0755);
	}

	/* The root itself. */
	snprintf(path, sizeof(path), "%s/none", dir);
	rc = tg_walk(path, &o, &err);
	CHECK(rc == TG_EIO && strstr(err.msg, "cannot read '") &&
		  strstr(err.msg, "No such file or directory"),
	      "missing root: %s", err.msg);
	snprintf(path, sizeof(path), "%s/b.py", root);
	rc = tg_walk(path, &o, &err);
	CHECK(rc == TG_EIO && strstr(err.msg, "Not a directory"), "a file: %s",
	      err.msg);
	/* A root that is a symlink is the caller's choice: walked. */
	ln(dir, "root/sub", "via");
	snprintf(path, sizeof(path), "%s/via", dir);
	memset(&s, 0, sizeof(s));
	rc = tg_walk(path, &o, &err);
	CHECK(rc == 0 && s.n == 1 && has(&s, "F deep/f.py"),
	      "root through a link: %d %zu", rc, s.n);

	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return check_result("test_walk");
}
