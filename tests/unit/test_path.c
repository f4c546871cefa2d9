/* test_path.c - unit tests for tg_path_fmt (a path is built or refused)
 * and tg_path_inside/tg_path_beneath (the bound of what is read)
 * SPDX-License-Identifier: MIT
 *
 * A path that fits comes out as snprintf would write it; one that does
 * not is never cut: TG_ELIMIT, an empty buffer, and a message naming the
 * start of the path, its length and the limit. tg_path_beneath on a
 * real tree in a temporary directory: links inside, links out (relative,
 * absolute, to '/', through '..'), the link named the first prefix that
 * leaves, absent and dangling paths, a root that is itself a link.
 * tg_path_fd_inside on descriptors opened inside, through a link out,
 * and of a file removed since.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "check.h"
#include "lib/util/err.h"
#include "lib/util/path.h"

static void
fits(void)
{
	static const struct {
		size_t size;
		const char *dir, *want;
	} t[] = {
	    {64, "/usr", "/usr/lib/python3.11"},
	    {20, "/usr", "/usr/lib/python3.11"}, /* exactly: 19 + NUL */
	    {64, "", "/lib/python3.11"},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char out[64];
		struct tg_err e = TG_ERR_INIT;
		int rc = tg_path_fmt(out, t[i].size, &e, "%s/lib/python%d.%d",
				     t[i].dir, 3, 11);

		CHECK(rc == 0, "case %zu: rc %d (%s)", i, rc, e.msg);
		CHECK_STR(out, t[i].want, "fits");
		CHECK(e.code == 0 && e.msg[0] == '\0', "case %zu: err set", i);
	}
}

static void
too_long(void)
{
	char out[20], *dir = malloc(5001), want[512];
	struct tg_err e = TG_ERR_INIT;
	int rc;

	/* one byte over: 20 bytes of path in a buffer of 20 */
	rc = tg_path_fmt(out, sizeof(out), &e, "%s/lib/python%d.%d", "/usr", 3,
			 110);
	CHECK(rc == TG_ELIMIT && e.code == TG_ELIMIT, "rc %d", rc);
	CHECK_STR(out, "", "nothing half-built");
	CHECK_STR(e.msg,
		  "path too long: '/usr/lib/python3.110...' (20 bytes, at "
		  "most 19)",
		  "message");

	/* 5000 characters into 4096: the message names the first 64 */
	if (!dir) {
		CHECK(0, "out of memory");
		return;
	}
	memset(dir, 'a', 5000);
	dir[0] = '/';
	dir[5000] = '\0';
	{
		char big[4096];

		e = (struct tg_err)TG_ERR_INIT;
		rc = tg_path_fmt(big, sizeof(big), &e, "%s/info/%s.list", dir,
				 "python3-torch");
		CHECK(rc == TG_ELIMIT, "rc %d", rc);
		CHECK_STR(big, "", "5000: nothing half-built");
	}
	snprintf(want, sizeof(want),
		 "path too long: '%.64s...' (5024 bytes, at most 4095)", dir);
	CHECK_STR(e.msg, want, "5000: message");

	/* no err: the code alone */
	rc = tg_path_fmt(out, sizeof(out), NULL, "%s", dir);
	CHECK(rc == TG_ELIMIT && out[0] == '\0', "NULL err: rc %d", rc);
	free(dir);
}

static void
inside(void)
{
	CHECK(tg_path_inside("/a/b", "/a"), "child");
	CHECK(tg_path_inside("/a", "/a"), "itself");
	CHECK(tg_path_inside("/etc/passwd", "/"), "/ holds all");
	CHECK(!tg_path_inside("/ab", "/a"), "a sibling sharing a prefix");
	CHECK(!tg_path_inside("/", "/a"), "the parent");
}

static void
mkfile(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f)
		fclose(f);
	CHECK(f != NULL, "cannot create %s", path);
}

static void
beneath(void)
{
	static const struct {
		const char *rel;
		int want;
		const char *link;   /* relative to the tree, or NULL */
		const char *target; /* relative to the directory, or "/" */
	} t[] = {
	    {"f", 1, NULL, NULL},
	    {"sub/g", 1, NULL, NULL},
	    {"in", 1, NULL, NULL},	/* -> sub/g */
	    {"insub/g", 1, NULL, NULL}, /* -> sub */
	    {"absent", 1, NULL, NULL},
	    {"sub/absent/x", 1, NULL, NULL},
	    {"dangling", 1, NULL, NULL},
	    {"sub/../f", 1, NULL, NULL},
	    {"", 1, NULL, NULL},
	    {"out", 0, "tree/out", "secret"},		/* -> ../secret */
	    {"abs/x", 0, "tree/abs", "outdir"},		/* -> /abs/outdir */
	    {"abs/nothing/x", 0, "tree/abs", "outdir"}, /* absent beyond */
	    {"root/etc/passwd", 0, "tree/root", "/"},
	    {"sub/up/secret", 0, "tree/sub/up", ""}, /* -> ../.. */
	    {"../secret", 0, "tree/..", ""},
	};
	char dir[] = "/tmp/test_path_XXXXXX", p[4200], q[4200];
	char *real = NULL;
	size_t i;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	real = realpath(dir, NULL);
	snprintf(p, sizeof(p), "%s/tree", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/tree/sub", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/outdir", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/tree/f", dir);
	mkfile(p);
	snprintf(p, sizeof(p), "%s/tree/sub/g", dir);
	mkfile(p);
	snprintf(p, sizeof(p), "%s/secret", dir);
	mkfile(p);
#define LINK(to, at)                                                           \
	do {                                                                   \
		snprintf(p, sizeof(p), "%s/tree/%s", dir, at);                 \
		CHECK(symlink(to, p) == 0, "symlink %s", at);                  \
	} while (0)
	LINK("sub/g", "in");
	LINK("sub", "insub");
	LINK("nowhere", "dangling");
	LINK("../secret", "out");
	LINK("/", "root");
	LINK("../..", "sub/up");
	snprintf(q, sizeof(q), "%s/outdir", real);
	LINK(q, "abs");
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *link = NULL, *target = NULL, want[4200];
		struct tg_err e = TG_ERR_INIT;
		int rc;

		snprintf(p, sizeof(p), "%s/tree", dir);
		rc = tg_path_beneath(p, t[i].rel, &link, &target, &e);
		CHECK(rc == t[i].want, "'%s': rc %d, want %d", t[i].rel, rc,
		      t[i].want);
		if (!t[i].link) {
			CHECK(!link && !target, "'%s': no link", t[i].rel);
		} else {
			snprintf(want, sizeof(want), "%s/%s", dir, t[i].link);
			CHECK(link && strcmp(link, want) == 0,
			      "'%s': link '%s', want '%s'", t[i].rel,
			      link ? link : "(null)", want);
			if (strcmp(t[i].target, "/") == 0)
				snprintf(want, sizeof(want), "/");
			else if (!*t[i].target)
				snprintf(want, sizeof(want), "%s", real);
			else
				snprintf(want, sizeof(want), "%s/%s", real,
					 t[i].target);
			CHECK(target && strcmp(target, want) == 0,
			      "'%s': target '%s', want '%s'", t[i].rel,
			      target ? target : "(null)", want);
		}
		free(link);
		free(target);
	}
	/* tg_path_realpath is realpath(3): the same name, or the same
	 * failure, for links in and out, loops, a FIFO, a trailing slash
	 * on a file, what is absent, a relative path */
	{
		static const char *const rp[] = {
		    "tree/f",	      "tree/in",	 "tree/insub/g",
		    "tree/out",	      "tree/abs/",	 "tree/root/etc",
		    "tree/sub/up",    "tree/dangling",	 "tree/absent",
		    "tree/f/",	      "tree/loop",	 "tree/fifo",
		    "tree/sub/../in", "tree//insub/./g", "."};
		char cwd[4200];

		LINK("loop", "loop");
		snprintf(p, sizeof(p), "%s/tree/fifo", dir);
		CHECK(mkfifo(p, 0644) == 0, "mkfifo");
		CHECK(getcwd(cwd, sizeof(cwd)) && chdir(dir) == 0, "chdir");
		/* each relative (realpath(3) answers) and absolute (the
		 * kernel's name answers) */
		for (i = 0; i < 2 * (sizeof(rp) / sizeof(rp[0])); i++) {
			const char *r = rp[i / 2];
			char *a, *b;
			int ea, eb;

			if (i % 2) {
				snprintf(q, sizeof(q), "%s/%s", dir, r);
				r = q;
			}
			errno = 0;
			a = realpath(r, NULL);
			ea = errno;
			errno = 0;
			b = tg_path_realpath(r);
			eb = errno;
			CHECK((!a && !b && ea == eb) ||
				  (a && b && strcmp(a, b) == 0),
			      "realpath '%s': '%s' (%d), want '%s' (%d)", r,
			      b ? b : "(null)", eb, a ? a : "(null)", ea);
			free(a);
			free(b);
		}
		CHECK(chdir(cwd) == 0, "chdir back");
	}
	/* the root as given may itself be a link: its target is the bound */
	snprintf(p, sizeof(p), "%s/tree/insub", dir);
	CHECK(tg_path_beneath(p, "g", NULL, NULL, NULL) == 1, "root a link");
	snprintf(p, sizeof(p), "%s/tree/insub", dir);
	CHECK(tg_path_beneath(p, "../f", NULL, NULL, NULL) == 0,
	      "root a link: its parent is outside");
	/* a root that does not exist bounds nothing it could hold */
	snprintf(p, sizeof(p), "%s/none", dir);
	CHECK(tg_path_beneath(p, "x", NULL, NULL, NULL) == 1, "no root");
	/* the cheap proof: 1 only with no link on the way, whatever the
	 * order of the entries (the directory remembered must not prove a
	 * link met later), 0 for what tg_path_beneath must judge */
	{
		static const struct {
			const char *rel;
			int want;
		} u[] = {
		    {"sub/g", 1},
		    {"f", 1},
		    {"sub/g", 1},
		    {"insub/g", 0},
		    {"sub/up/secret", 0},
		    {"sub/g", 1},
		    {"in", 0},
		    {"out", 0},
		    {"abs/x", 0},
		    {"absent", 0},
		    {"sub/absent/x", 0},
		    {"sub/../f", 0},
		    {"./f", 0},
		    {"sub//g", 0},
		    {"", 0},
		    {"/etc/passwd", 0},
		    {"f/x", 0},
		    {"sub", 1},
		};
		struct tg_path_plain pp = TG_PATH_PLAIN_INIT;

		snprintf(p, sizeof(p), "%s/tree", dir);
		for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
			CHECK(tg_path_plain(&pp, p, u[i].rel) == u[i].want,
			      "plain '%s': want %d", u[i].rel, u[i].want);
		CHECK(tg_path_plain(&pp, p, "sub/g") == 1 && pp.regular,
		      "plain: a regular file");
		CHECK(tg_path_plain(&pp, p, "sub") == 1 && !pp.regular,
		      "plain: a directory");
		/* another root: what was proved under the first is not kept */
		snprintf(q, sizeof(q), "%s/tree/insub", dir);
		CHECK(tg_path_plain(&pp, q, "g") == 1, "plain, new root");
		CHECK(tg_path_plain(&pp, p, "sub/up/secret") == 0,
		      "plain, the first root again");
		tg_path_plain_release(&pp);
	}
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CHECK(system(p) == 0, "cleanup");
	free(real);
}

/* Whether /proc/self/fd is procfs here, as path.c asks. */
static int
have_procfs(void)
{
	struct statfs fs;

	return statfs("/proc/self/fd", &fs) == 0 &&
	       fs.f_type == PROC_SUPER_MAGIC;
}

/* tg_path_fd_inside: the file a descriptor has open, inside a root or
 * not, whatever the path it was opened by (a link out, a file removed
 * since). Without procfs it cannot tell, and says 1. */
static void
fd_inside(void)
{
	char dir[] = "/tmp/tg-test-fdin-XXXXXX", in[64], p[512], *name, *real;
	int fd, proc = have_procfs();

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	real = realpath(dir, NULL);
	snprintf(in, sizeof(in), "%s/in", real);
	snprintf(p, sizeof(p),
		 "mkdir %s/in %s/out && echo a >%s/in/f && "
		 "echo b >%s/out/g && ln -s ../out/g %s/in/l",
		 dir, dir, dir, dir, dir);
	CHECK(system(p) == 0, "tree");
	snprintf(p, sizeof(p), "%s/in/f", dir);
	fd = open(p, O_RDONLY);
	CHECK(fd >= 0 && tg_path_fd_inside(fd, in, &name) == 1 && !name,
	      "a file inside");
	unlink(p);
	if (fd >= 0)
		CHECK(tg_path_fd_inside(fd, in, &name) == !proc && !name,
		      "a file removed since it was opened: %d", proc);
	close(fd);
	snprintf(p, sizeof(p), "%s/in/l", dir);
	fd = open(p, O_RDONLY);
	if (proc) {
		char want[128];

		snprintf(want, sizeof(want), "%s/out/g", real);
		CHECK(fd >= 0 && tg_path_fd_inside(fd, in, &name) == 0 &&
			  name && strcmp(name, want) == 0,
		      "opened through a link out: %s", name ? name : "?");
		free(name);
		CHECK(tg_path_fd_inside(fd, real, &name) == 1 && !name,
		      "inside the directory above");
	} else {
		CHECK(tg_path_fd_inside(fd, in, &name) == 1 && !name,
		      "no procfs: not told");
	}
	close(fd);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CHECK(system(p) == 0, "cleanup");
	free(real);
}

int
main(void)
{
	fits();
	too_long();
	inside();
	beneath();
	fd_inside();
	return check_result("test_path");
}
