/* test_fdtable.c - a thread's own table of file descriptors
 * SPDX-License-Identifier: MIT
 *
 * A thread that took a table of its own still reads a descriptor opened
 * before (the copy holds it), and what it opens is not in the calling
 * thread's table; where the table was not taken (unshare refused), what
 * it opens is in both, as before. Either way one of the two is checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lib/util/fdtable.h"

struct probe {
	int before;	 /* a pipe's read end, opened by the calling thread */
	int own;	 /* what tg_fdtable_own said */
	int before_read; /* the thread read 1 byte of it */
	int fd;		 /* what the thread opened, left open */
};

static void *
thread(void *arg)
{
	struct probe *p = arg;
	char c;

	p->own = tg_fdtable_own();
	p->before_read = read(p->before, &c, 1) == 1 && c == 'x';
	p->fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return NULL;
}

int
main(void)
{
	struct probe p = {-1, -1, 0, -1};
	pthread_t th;
	int seen, pp[2] = {-1, -1};

	CHECK(pipe(pp) == 0 && write(pp[1], "x", 1) == 1, "pipe: %s",
	      strerror(errno));
	p.before = pp[0];
	CHECK(pthread_create(&th, NULL, thread, &p) == 0, "pthread_create");
	pthread_join(th, NULL);
	CHECK(p.own == 0 || p.own == 1, "tg_fdtable_own said %d", p.own);
	CHECK(p.before_read, "the thread read the descriptor opened before");
	CHECK(p.fd >= 0, "the thread opened /dev/null: %s", strerror(errno));
	/* the thread ended: its own table, and what it left open there,
	 * went with it */
	seen = p.fd >= 0 && fcntl(p.fd, F_GETFD) != -1;
	if (p.own == 1)
		CHECK(!seen && errno == EBADF,
		      "own table: descriptor %d is not the calling thread's",
		      p.fd);
	else
		CHECK(seen,
		      "shared table: descriptor %d is the calling "
		      "thread's too",
		      p.fd);
	printf("test_fdtable: the thread %s\n",
	       p.own == 1 ? "had a table of its own"
			  : "went on with the shared table");
	if (seen)
		close(p.fd);
	close(pp[0]);
	close(pp[1]);
	return check_result("test_fdtable");
}
