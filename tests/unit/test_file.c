/* test_file.c - unit tests for lib/file: bounded reads, os.path rules
 * SPDX-License-Identifier: MIT
 *
 * Path results are Python 3.11's os.path.abspath / os.path.join /
 * os.path.dirname for the same input, with "/cwd/d" as the directory.
 * Reads checked against a root (tg_file_read_inside), also while a
 * thread swaps a link in and out under the reader. Writes: begin,
 * commit, release, and the policy for links.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/util/file.h"
#include "lib/util/str.h"
#include "lib/util/path.h"

static void
paths(void)
{
	static const struct {
		const char *in, *want;
	} abs[] = {
	    {"/a/b/../c", "/a/c"},
	    {"//a/b", "//a/b"},
	    {"///a", "/a"},
	    {"a/../..", "/cwd"},
	    {"../a/./b/", "/cwd/a/b"},
	    {"/..", "/"},
	    {"/a/..", "/"},
	    {"a//b/", "/cwd/d/a/b"},
	    {".", "/cwd/d"},
	    {"", "/cwd/d"},
	    {"./", "/cwd/d"},
	    {"/a/b/c/../../d", "/a/d"},
	    {"a/b/../../..", "/cwd"},
	    {"..//..", "/"},
	    {"/x/../../y", "/y"},
	    {"..a/b", "/cwd/d/..a/b"},
	};
	size_t k;
	char *p;

	for (k = 0; k < sizeof(abs) / sizeof(abs[0]); k++) {
		p = tg_path_abs(abs[k].in, "/cwd/d");
		CHECK(p && strcmp(p, abs[k].want) == 0, "abspath('%s') = '%s'",
		      abs[k].in, p ? p : "(null)");
		free(p);
	}
	p = tg_path_join("/a/", "b");
	CHECK_STR(p, "/a/b", "join");
	free(p);
	p = tg_path_join("/a", "/b");
	CHECK_STR(p, "/b", "join absolute");
	free(p);
	p = tg_path_dirname("/a/b//c");
	CHECK_STR(p, "/a/b", "dirname");
	free(p);
	p = tg_path_dirname("/a");
	CHECK_STR(p, "/", "dirname of a root child");
	free(p);
	CHECK_STR(tg_path_basename("/a/b.py"), "b.py", "basename");
}

static void
utf8(void)
{
	size_t bad = 99;

	CHECK(tg_str_utf8_valid("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10,
				&bad),
	      "valid");
	CHECK(!tg_str_utf8_valid("ab\xc0\xaf", 4, &bad) && bad == 2,
	      "overlong");
	CHECK(!tg_str_utf8_valid("\xed\xa0\x80", 3, &bad) && bad == 0,
	      "surrogate");
	CHECK(!tg_str_utf8_valid("x\xe2\x82", 3, &bad) && bad == 1,
	      "truncated");
	CHECK(!tg_str_utf8_valid("\xf4\x90\x80\x80", 4, &bad),
	      "above U+10FFFF");
}

static void
reads(void)
{
	char dir[] = "/tmp/tg-test-file-XXXXXX", path[64];
	struct tg_err err = TG_ERR_INIT;
	char *data = NULL;
	size_t len = 0;
	int absent = 0, trunc = 0;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	fputs("0123456789", f);
	fclose(f);
	CHECK(tg_file_read(path, 10, &data, &len, NULL, &err) == 0 &&
		  len == 10 && strcmp(data, "0123456789") == 0,
	      "exactly the maximum");
	free(data);
	CHECK(tg_file_read(path, 9, &data, &len, NULL, &err) == TG_ELIMIT,
	      "one byte over");
	CHECK(strstr(err.msg, "larger than 9 bytes") != NULL, "%s", err.msg);
	CHECK(tg_file_read_head(path, 4, &data, &len, &trunc, NULL, &err) ==
		      0 &&
		  len == 4 && trunc && strcmp(data, "0123") == 0,
	      "head");
	free(data);
	CHECK(tg_file_read(dir, 10, &data, &len, NULL, &err) == TG_EIO,
	      "a directory");
	CHECK(strstr(err.msg, "Is a directory") != NULL, "%s", err.msg);
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK(tg_file_read(path, 10, &data, &len, &absent, &err) == 0 &&
		  absent && data == NULL,
	      "absent");
	CHECK(tg_file_read(path, 10, &data, &len, NULL, &err) == TG_EIO,
	      "absent is an error without *absent");
	CHECK(tg_file_read("/dev/null", 10, &data, &len, NULL, &err) == TG_EIO,
	      "a device is refused");
	CHECK(strstr(err.msg, "not a regular file") != NULL, "%s", err.msg);
	/* opened as found a regular file a moment ago: what is not one is
	 * still refused, with the same message, by the fstat after */
	{
		int fd = -1;
		size_t n = 0;
		struct tg_err e2 = TG_ERR_INIT;

		CHECK(tg_file_open("/dev/null", 10, NULL, &fd, &n, NULL,
				   &err) == TG_EIO &&
			  tg_file_open_walked("/dev/null", 10, NULL, &fd, &n,
					      &e2) == TG_EIO &&
			  fd == -1 && strcmp(err.msg, e2.msg) == 0,
		      "walked: a device: '%s', '%s'", err.msg, e2.msg);
		CHECK(tg_file_open_walked(dir, 10, NULL, &fd, &n, &e2) ==
			      TG_EIO &&
			  strstr(e2.msg, "Is a directory") != NULL,
		      "walked: a directory: %s", e2.msg);
		snprintf(path, sizeof(path), "%s/f", dir);
		CHECK(tg_file_open_walked(path, 9, "a test", &fd, &n, &e2) ==
			      TG_ELIMIT &&
			  strstr(e2.msg, "limit for a test") != NULL,
		      "walked: over the limit: %s", e2.msg);
		CHECK(tg_file_open_walked(path, 10, NULL, &fd, &n, &e2) == 0 &&
			  fd >= 0 && n == 10,
		      "walked: a regular file");
		if (fd >= 0)
			close(fd);
	}
	/* relative to the open directory: the same bytes and size as by
	 * the path, the messages naming the path given; AT_FDCWD or no
	 * name: the path itself */
	{
		int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		uint64_t size = 7;

		snprintf(path, sizeof(path), "%s/f", dir);
		CHECK(dfd >= 0 &&
			  tg_file_read_walked_at(dfd, "f", "shown/f", 10, &data,
						 &len, &size, &err) == 0 &&
			  len == 10 && size == 10 &&
			  strcmp(data, "0123456789") == 0,
		      "walked at a directory");
		free(data);
		CHECK(tg_file_read_walked_at(dfd, "f", "shown/f", 9, &data,
					     &len, &size, &err) == TG_ELIMIT &&
			  size == 10 && strstr(err.msg, "'shown/f'") != NULL,
		      "walked at: over the limit: %s", err.msg);
		CHECK(tg_file_read_walked_at(dfd, "none", "shown/none", 10,
					     &data, &len, &size,
					     &err) == TG_EIO &&
			  size == 0 && data == NULL &&
			  strstr(err.msg, "cannot read 'shown/none'") != NULL,
		      "walked at: absent: %s", err.msg);
		CHECK(tg_file_read_walked_at(dfd, NULL, path, 10, &data, &len,
					     &size, &err) == 0 &&
			  len == 10,
		      "walked at: no name, the path");
		free(data);
		CHECK(tg_file_read_walked_at(AT_FDCWD, path, "shown", 10, &data,
					     &len, &size, &err) == 0 &&
			  len == 10,
		      "walked at: AT_FDCWD");
		free(data);
		if (dfd >= 0)
			close(dfd);
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	unlink(path);
	rmdir(dir);
}

/* tg_file_read_inside: what the open reached is checked against the
 * root, whatever the path's check said before (a link swapped in
 * between is this very case: a path that leads out, read without
 * tg_path_beneath). Without procfs the open is not checked. */
static void
reads_inside(void)
{
	char dir[] = "/tmp/tg-test-fin-XXXXXX", in[64], p[512];
	struct tg_err err = TG_ERR_INIT;
	char *data = NULL;
	size_t len = 0;
	int absent = 0, proc = access("/proc/self/fd/0", F_OK) == 0, rc;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(in, sizeof(in), "%s/in", dir);
	snprintf(p, sizeof(p),
		 "mkdir %s/in %s/out && printf a >%s/in/f && "
		 "printf b >%s/out/g && ln -s ../out/g %s/in/l && "
		 "ln -s f %s/in/k",
		 dir, dir, dir, dir, dir, dir);
	CHECK(system(p) == 0, "tree");
	snprintf(p, sizeof(p), "%s/in/f", dir);
	CHECK(tg_file_read_inside(p, in, 10, &data, &len, NULL, &err) == 0 &&
		  len == 1 && strcmp(data, "a") == 0,
	      "a file inside: %s", err.msg);
	free(data);
	snprintf(p, sizeof(p), "%s/in/k", dir);
	CHECK(tg_file_read_inside(p, in, 10, &data, &len, NULL, &err) == 0 &&
		  len == 1 && strcmp(data, "a") == 0,
	      "a link inside: %s", err.msg);
	free(data);
	snprintf(p, sizeof(p), "%s/in/l", dir);
	rc = tg_file_read_inside(p, in, 10, &data, &len, NULL, &err);
	if (proc) {
		CHECK(rc == TG_EIO && !data && !len &&
			  strstr(err.msg, "changed while it was read") &&
			  strstr(err.msg, "/out/g', outside '"),
		      "what the open reached leads out: %s", err.msg);
	} else {
		CHECK(rc == 0 && data && strcmp(data, "b") == 0,
		      "no procfs: the open is not checked");
		free(data);
	}
	snprintf(p, sizeof(p), "%s/in/none", dir);
	CHECK(tg_file_read_inside(p, in, 10, &data, &len, &absent, &err) == 0 &&
		  absent && !data,
	      "absent");
	snprintf(p, sizeof(p), "%s/none/f", dir);
	CHECK(tg_file_read_inside(p, p, 10, &data, &len, &absent, &err) ==
		      TG_EIO &&
		  strstr(err.msg, "cannot resolve"),
	      "a root that does not resolve: %s", err.msg);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CHECK(system(p) == 0, "cleanup");
}

/* The race itself: a thread swaps in/x between a file inside and a
 * link out (rename, so x is always one or the other) while the reader
 * checks the path (tg_path_beneath) and then reads it. The read by name
 * (tg_file_read) is led out now and then; the read that checks what it
 * opened (tg_file_read_inside) never may. How often each was led out is
 * printed: the first count shows the race was run, not asserted (it
 * depends on the scheduler). */
struct swapper {
	char a[96], b[96], x[96];
	atomic_int stop;
};

static void *
swap_loop(void *arg)
{
	struct swapper *w = arg;

	/* x and .a trade places: .b a second name of x (link() does not
	 * follow a symbolic link), .a renamed over x, .b over .a */
	while (!atomic_load(&w->stop))
		if (link(w->x, w->b) != 0 || rename(w->a, w->x) != 0 ||
		    rename(w->b, w->a) != 0)
			break;
	return NULL;
}

static void
race(void)
{
	char dir[] = "/tmp/tg-test-race-XXXXXX", in[64], p[512];
	struct swapper w;
	pthread_t th;
	struct tg_err err = TG_ERR_INIT;
	char *data;
	size_t len, k, by_name = 0, inside = 0, tried = 0;
	int proc = access("/proc/self/fd/0", F_OK) == 0;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(in, sizeof(in), "%s/in", dir);
	snprintf(p, sizeof(p),
		 "mkdir %s/in %s/out && printf inside >%s/in/x && "
		 "printf secret >%s/out/s && ln -s ../out/s %s/in/.a",
		 dir, dir, dir, dir, dir);
	CHECK(system(p) == 0, "tree");
	snprintf(w.a, sizeof(w.a), "%s/in/.a", dir);
	snprintf(w.b, sizeof(w.b), "%s/in/.b", dir);
	snprintf(w.x, sizeof(w.x), "%s/in/x", dir);
	atomic_init(&w.stop, 0);
	if (pthread_create(&th, NULL, swap_loop, &w) != 0) {
		CHECK(0, "pthread_create");
		return;
	}
	for (k = 0; k < 20000; k++) {
		if (tg_path_beneath(in, "x", NULL, NULL, NULL) != 1)
			continue;
		tried++;
		if (tg_file_read(w.x, 64, &data, &len, NULL, &err) == 0) {
			by_name += strcmp(data, "secret") == 0;
			free(data);
		}
		if (tg_file_read_inside(w.x, in, 64, &data, &len, NULL, &err) ==
		    0) {
			inside += strcmp(data, "secret") == 0;
			free(data);
		}
	}
	atomic_store(&w.stop, 1);
	pthread_join(th, NULL);
	printf("race: %zu reads after the check said inside; led out: %zu "
	       "by name, %zu checked\n",
	       tried, by_name, inside);
	CHECK(!proc || inside == 0, "the checked read was led out %zu times",
	      inside);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CHECK(system(p) == 0, "cleanup");
}

static int
exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

static void
writes(void)
{
	char dir[] = "/tmp/tg-test-write-XXXXXX", p[128], q[128], t[128];
	struct tg_err err = TG_ERR_INIT;
	struct tg_file_out o = TG_FILE_OUT_INIT;
	struct stat st;
	char *data = NULL;
	size_t len = 0;
	int changed = -1;
	DIR *d;
	struct dirent *de;
	size_t n = 0;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(p, sizeof(p), "%s/f.h", dir);
	CHECK(tg_file_write_atomic(p, "one", 3, &changed, &err) == 0 &&
		  changed == 1,
	      "new file: %s", err.msg);
	CHECK(tg_file_write_atomic(p, "one", 3, &changed, &err) == 0 &&
		  changed == 0,
	      "same content: unchanged");
	/* begin writes a temporary file, armed; commit renames it */
	CHECK(tg_file_out_begin(&o, p, "two", 3, &err) == 0 && o.armed &&
		  o.pending && exists(o.tmp),
	      "begin: %s", err.msg);
	CHECK(strstr(o.tmp, "/.f.h.torchgate-") != NULL, "tmp name %s", o.tmp);
	snprintf(t, sizeof(t), "%s", o.tmp);
	CHECK(tg_file_out_commit(&o, &err) == 0 && !o.armed && o.changed &&
		  !exists(t),
	      "commit");
	tg_file_out_release(&o);
	CHECK(tg_file_read(p, 10, &data, &len, NULL, &err) == 0 &&
		  strcmp(data, "two") == 0,
	      "committed content");
	free(data);
	/* released before commit: the old file stays, no temporary file */
	CHECK(tg_file_out_begin(&o, p, "three", 5, &err) == 0, "begin again");
	snprintf(t, sizeof(t), "%s", o.tmp);
	tg_file_out_release(&o);
	CHECK(!exists(t) && !o.armed && !o.path, "release removes the tmp");
	CHECK(tg_file_read(p, 10, &data, &len, NULL, &err) == 0 &&
		  strcmp(data, "two") == 0,
	      "old content kept");
	free(data);
	/* a link to a file: written through, mode kept */
	chmod(p, 0640);
	snprintf(q, sizeof(q), "%s/link.h", dir);
	CHECK(symlink("f.h", q) == 0, "symlink");
	CHECK(tg_file_write_atomic(q, "four", 4, &changed, &err) == 0 &&
		  changed,
	      "through a link: %s", err.msg);
	CHECK(lstat(q, &st) == 0 && S_ISLNK(st.st_mode), "the link stays");
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0640,
	      "mode kept: %o", (unsigned)(st.st_mode & 07777));
	unlink(q);
	/* dangling: refused, nothing created */
	CHECK(symlink("none/x.h", q) == 0, "symlink");
	CHECK(tg_file_write_atomic(q, "x", 1, &changed, &err) == TG_EIO &&
		  strstr(err.msg, "dangling symbolic link to 'none/x.h'"),
	      "%s", err.msg);
	unlink(q);
	/* a loop */
	CHECK(symlink("link.h", q) == 0, "symlink");
	CHECK(tg_file_write_atomic(q, "x", 1, &changed, &err) == TG_EIO &&
		  strstr(err.msg, "loop of symbolic links"),
	      "%s", err.msg);
	unlink(q);
	/* the directory holds only f.h */
	d = opendir(dir);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' || strlen(de->d_name) > 2)
			n++;
	if (d)
		closedir(d);
	CHECK(n == 1, "%zu entries left", n);
	unlink(p);
	rmdir(dir);
}

/* tg_file_pread: the bytes at an offset, fewer at the end, -1 on a
 * descriptor that cannot be read. */
static void
preads(void)
{
	char path[] = "/tmp/tg-test-pread.XXXXXX", buf[16];
	int fd = mkstemp(path);

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	CHECK(write(fd, "0123456789", 10) == 10, "write %s", path);
	memset(buf, 0, sizeof(buf));
	CHECK(tg_file_pread(fd, buf, 4, 3) == 4 && memcmp(buf, "3456", 4) == 0,
	      "pread at 3: '%s'", buf);
	memset(buf, 0, sizeof(buf));
	CHECK(tg_file_pread(fd, buf, 8, 6) == 4 && strcmp(buf, "6789") == 0,
	      "pread past the end: '%s'", buf);
	CHECK(tg_file_pread(fd, buf, 4, 10) == 0, "pread at the end");
	close(fd);
	unlink(path);
	CHECK(tg_file_pread(fd, buf, 4, 0) == -1,
	      "pread of a closed descriptor");
}

int
main(void)
{
	preads();
	paths();
	utf8();
	reads();
	reads_inside();
	race();
	writes();
	return check_result("test_file");
}
