/* fetch.c - running torchgate-fetch, the helper that links libcurl
 * SPDX-License-Identifier: MIT
 *
 * torchgate itself never loads libcurl (33 shared libraries and about
 * 4 ms at start-up, more than a whole probe); update and releases run the
 * helper torchgate-fetch with posix_spawn (no shell), the body coming
 * back on a pipe (bounded), the validators and the body's SHA-256 on
 * descriptor 3 (the cached file's path and SHA-256 go with validators:
 * the helper sends them only while that file is unchanged). The
 * helper is found as git finds git-remote-http: $TORCHGATE_FETCH when
 * set (tests, unusual layouts), else torchgate-fetch beside the running
 * torchgate (the build tree), else the configured
 * $(pkglibexecdir)/torchgate-fetch (an install). Its messages go
 * straight to our stderr, already in our form ("torchgate: CMD: ...").
 */
#include "cli/fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"

extern char **environ;

#ifndef TG_PKGLIBEXECDIR
#define TG_PKGLIBEXECDIR "/usr/local/libexec/torchgate"
#endif

int
cli_fetch_timeout(const char *cmd, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 600)
		return cli_usage_error(cmd,
				       "--timeout must be 1 to 600 seconds, "
				       "not '%s'",
				       s);
	return CLI_OK;
}

#ifdef HAVE_LIBCURL
/* The helper's path into out; 0, or -1 when there is none. */
static int
helper(char *out, size_t cap)
{
	const char *e = getenv("TORCHGATE_FETCH");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (e && *e) {
		snprintf(out, cap, "%s", e);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if ((size_t)snprintf(out, cap, "%s/torchgate-fetch",
					     self) < cap &&
			    access(out, X_OK) == 0)
				return 0;
		}
	}
	snprintf(out, cap, "%s/torchgate-fetch", TG_PKGLIBEXECDIR);
	return access(out, X_OK) == 0 ? 0 : -1;
}

/* Read fd to its end into b (at most b->max); 0, or -1 with errno. */
static int
drain(int fd, struct tg_buf *b, int *over)
{
	char chunk[65536];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		if (*over)
			continue;
		if (b->len + (size_t)n > b->max)
			*over = 1;
		else if (tg_buf_add(b, chunk, (size_t)n))
			return errno = ENOMEM, -1;
	}
}

/* "name: value" of the meta lines into out. */
static void
meta_value(const char *meta, const char *name, char *out, size_t cap)
{
	size_t k = strlen(name);
	const char *p = meta, *e;

	out[0] = '\0';
	while (p && *p) {
		e = strchr(p, '\n');
		if (!e)
			break;
		if (strncmp(p, name, k) == 0 && p[k] == ':' &&
		    p[k + 1] == ' ' && (size_t)(e - p - k - 2) < cap) {
			memcpy(out, p + k + 2, (size_t)(e - p - k - 2));
			out[e - p - k - 2] = '\0';
		}
		p = e + 1;
	}
}

int
cli_fetch_run(const char *cmd, const struct cli_fetch *f, struct tg_buf *body,
	      struct tg_cache_validators *got, int *not_modified)
{
	char path[PATH_MAX + 32], max[32];
	const char *argv[32];
	struct tg_buf meta = TG_BUF_INIT;
	posix_spawn_file_actions_t fa;
	int out[2] = {-1, -1}, mp[2] = {-1, -1}, st, over = 0, mover = 0;
	int status = CLI_IO, rc;
	size_t n = 0;
	pid_t pid;

	*not_modified = 0;
	got->etag[0] = got->last_modified[0] = got->sha256[0] = '\0';
	if (helper(path, sizeof(path))) {
		cli_error(cmd,
			  "cannot run the fetch helper: no '%s', and none "
			  "beside torchgate (set TORCHGATE_FETCH)",
			  path);
		return CLI_IO;
	}
	snprintf(max, sizeof(max), "%zu", f->max);
	argv[n++] = path;
	argv[n++] = "--who";
	argv[n++] = cmd;
	argv[n++] = "--max-size";
	argv[n++] = max;
	argv[n++] = "--meta-fd";
	argv[n++] = "3";
	if (f->timeout) {
		argv[n++] = "--timeout";
		argv[n++] = f->timeout;
	}
	if (f->sha256) {
		argv[n++] = "--sha256";
		argv[n++] = f->sha256;
	}
	if (f->etag) {
		argv[n++] = "--etag";
		argv[n++] = f->etag;
	}
	if (f->last_modified) {
		argv[n++] = "--last-modified";
		argv[n++] = f->last_modified;
	}
	if (f->cached && f->cached_sha256 && (f->etag || f->last_modified)) {
		argv[n++] = "--cached";
		argv[n++] = f->cached;
		argv[n++] = "--cached-sha256";
		argv[n++] = f->cached_sha256;
	}
	if (f->accept) {
		argv[n++] = "--accept";
		argv[n++] = f->accept;
	}
	if (f->cacert) {
		argv[n++] = "--cacert";
		argv[n++] = f->cacert;
	}
	if (f->insecure)
		argv[n++] = "--insecure";
	argv[n++] = "--";
	argv[n++] = f->url;
	argv[n] = NULL;
	tg_buf_init(&meta, 2 * TG_CACHE_VALIDATOR_MAX + 256);
	/* close-on-exec: the helper gets only the two dup2 copies */
	if (pipe2(out, O_CLOEXEC) || pipe2(mp, O_CLOEXEC)) {
		cli_error(cmd, "cannot run '%s': %s", path, strerror(errno));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, mp[1], 3);
	rc = posix_spawn(&pid, path, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	close(mp[1]);
	out[1] = mp[1] = -1;
	if (rc) {
		cli_error(cmd, "cannot run '%s': %s", path, strerror(rc));
		goto out;
	}
	/* the helper writes its few validator lines before the body */
	rc = drain(out[0], body, &over);
	if (!rc)
		rc = drain(mp[0], &meta, &mover);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (rc) {
		cli_error(cmd, "cannot read from '%s': %s", path,
			  strerror(errno));
		goto out;
	}
	if (!WIFEXITED(st)) {
		cli_error(cmd, "'%s' was killed by signal %d", path,
			  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		goto out;
	}
	switch (WEXITSTATUS(st)) {
	case 0:
		if (over) { /* the helper enforces the same cap */
			cli_error(cmd,
				  "cannot fetch '%s': the body is larger "
				  "than the %zu-byte limit",
				  f->url, f->max);
			goto out;
		}
		status = CLI_OK;
		break;
	case 1:
		*not_modified = 1;
		status = CLI_OK;
		break;
	case 4:
		status = CLI_BAD_INPUT;
		goto out;
	case 5:
		goto out;
	default:
		cli_error(cmd, "'%s' failed with status %d", path,
			  WEXITSTATUS(st));
		goto out;
	}
	if (tg_buf_addc(&meta, '\0') == 0 && !mover) {
		meta_value(meta.data, "etag", got->etag, sizeof(got->etag));
		meta_value(meta.data, "last-modified", got->last_modified,
			   sizeof(got->last_modified));
		meta_value(meta.data, "sha256", got->sha256,
			   sizeof(got->sha256));
	}
out:
	if (out[0] >= 0)
		close(out[0]);
	if (mp[0] >= 0)
		close(mp[0]);
	if (out[1] >= 0)
		close(out[1]);
	if (mp[1] >= 0)
		close(mp[1]);
	tg_buf_release(&meta);
	return status;
}
#else
int
cli_fetch_run(const char *cmd, const struct cli_fetch *f, struct tg_buf *body,
	      struct tg_cache_validators *got, int *not_modified)
{
	(void)f;
	(void)body;
	*not_modified = 0;
	got->etag[0] = got->last_modified[0] = got->sha256[0] = '\0';
	cli_error(cmd,
		  "the network commands are not built (%s): configure "
		  "--with-libcurl",
		  TG_NETWORK_WHY);
	return CLI_IO;
}
#endif
