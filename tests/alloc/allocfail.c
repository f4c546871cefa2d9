/* allocfail.c - allocation-failure injection for the test build
 * SPDX-License-Identifier: MIT
 *
 * Linked into torchgate only by ./configure --enable-alloc-faults, with
 * -Wl,--wrap for each allocating function our code calls (Makefile.am):
 * every such call in our objects comes here, counts, and the call whose
 * number is $TORCHGATE_FAIL_ALLOC fails as the real one would when memory
 * runs out (NULL, errno ENOMEM); the others go to the real function.
 * Only that one call fails (curl's torture tests do the same): what
 * follows runs normally, so a failure that is swallowed shows up as a
 * wrong output, not as a cascade.
 *
 * cJSON and PCRE2 allocate through hooks that our modules point at
 * malloc and free (util/json.c, util/scan.c), so their allocations are
 * counted too. Allocations inside libc (fopen's buffer, opendir's)
 * are not, except opendir itself, which is wrapped.
 *
 * $TORCHGATE_ALLOC_LOG names a file to which each process appends one
 * line when main returns: "<status> <calls> <failed> <argv...>" (failed
 * is 1 when the injected failure happened). tests/tools/alloc-faults.sh
 * reads it to know how many calls there are and which process failed.
 * A process that dies or exits elsewhere writes no line.
 *
 * With $TORCHGATE_ALLOC_TRACE set, the failing call prints its stack on
 * stderr (in a sanitizer build, which has the symbolizer): where to
 * look when a run fails.
 *
 * audit analyzes files on worker threads, so the count is atomic: each
 * call gets its own number and exactly one call fails (which thread's
 * call that is may vary from run to run; the outcome must not).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
char *__real_realpath(const char *path, char *resolved);
DIR *__real_opendir(const char *path);
int __real_main(int argc, char **argv);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
char *__wrap_realpath(const char *path, char *resolved);
DIR *__wrap_opendir(const char *path);
int __wrap_main(int argc, char **argv);

static atomic_ulong calls;
static unsigned long fail_at;
static atomic_int failed;
static int trace;

/* the sanitizers' runtime, when linked in */
void __sanitizer_print_stack_trace(void) __attribute__((weak));

static int
fail(void)
{
	if (atomic_fetch_add(&calls, 1) + 1 != fail_at)
		return 0;
	atomic_store(&failed, 1);
	if (trace && __sanitizer_print_stack_trace)
		__sanitizer_print_stack_trace();
	errno = ENOMEM;
	return 1;
}

void *
__wrap_malloc(size_t n)
{
	return fail() ? NULL : __real_malloc(n);
}

void *
__wrap_calloc(size_t n, size_t m)
{
	return fail() ? NULL : __real_calloc(n, m);
}

void *
__wrap_realloc(void *p, size_t n)
{
	return fail() ? NULL : __real_realloc(p, n);
}

char *
__wrap_strdup(const char *s)
{
	return fail() ? NULL : __real_strdup(s);
}

char *
__wrap_strndup(const char *s, size_t n)
{
	return fail() ? NULL : __real_strndup(s, n);
}

char *
__wrap_realpath(const char *path, char *resolved)
{
	/* only the form that allocates its result */
	if (!resolved && fail())
		return NULL;
	return __real_realpath(path, resolved);
}

DIR *
__wrap_opendir(const char *path)
{
	return fail() ? NULL : __real_opendir(path);
}

static void
log_exit(const char *path, int status, int argc, char **argv)
{
	char line[4096];
	size_t len;
	int n, k, fd;

	n = snprintf(line, sizeof(line), "%d %lu %d", status,
		     atomic_load(&calls), atomic_load(&failed));
	len = n > 0 && (size_t)n < sizeof(line) ? (size_t)n : 0;
	for (k = 1; k < argc && len < sizeof(line) - 1; k++) {
		n = snprintf(line + len, sizeof(line) - len, " %s", argv[k]);
		len = n > 0 && (size_t)n < sizeof(line) - len
			  ? len + (size_t)n
			  : sizeof(line) - 1;
	}
	/* one line per process, newlines in operands flattened */
	for (k = 0; (size_t)k < len; k++)
		if (line[k] == '\n')
			line[k] = ' ';
	line[len++] = '\n';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, line, len) < 0)
			perror("allocfail");
		close(fd);
	}
}

int
__wrap_main(int argc, char **argv)
{
	const char *at = getenv("TORCHGATE_FAIL_ALLOC");
	const char *log = getenv("TORCHGATE_ALLOC_LOG");
	int status;

	fail_at = at ? strtoul(at, NULL, 10) : 0;
	trace = getenv("TORCHGATE_ALLOC_TRACE") != NULL;
	status = __real_main(argc, argv);
	if (log)
		log_exit(log, status, argc, argv);
	return status;
}
