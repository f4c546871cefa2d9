/* main.c - torchgate-fetch: the HTTP transfer of torchgate's network
 * commands
 * SPDX-License-Identifier: MIT
 *
 * torchgate never links libcurl (its start-up would pay for 33 shared
 * libraries); `torchgate update` and `torchgate releases` run this
 * helper instead (posix_spawn, no shell), as git runs git-remote-http.
 * It does one GET (lib/net/http.c) and nothing else: the body to
 * standard output (or --output FILE), the response's ETag and
 * Last-Modified as "etag: V" and "last-modified: V" lines to the
 * descriptor --meta-fd N, and a one-line message naming the URL and the
 * cause on standard error. --sha256 HEX is checked here, with OpenSSL's
 * EVP (libcrypto, which libcurl loads anyway), before any byte is
 * written; the body's SHA-256 goes to --meta-fd too ("sha256: HEX"),
 * which torchgate keeps with the validators. --cached FILE
 * --cached-sha256 HEX name the copy the validators describe: they are
 * sent only while FILE still has that SHA-256, and a 304 to a request
 * with --sha256 is accepted only when FILE matches it (exit 4 otherwise:
 * a server cannot keep another table in place by answering 304). What the body means is torchgate's business: it validates it
 * with the same loader as the built-in data.
 *
 * Exit status: 0 the body was written, 1 not modified (a 304 to a
 * conditional GET: nothing written), 2 usage, 4 the body (or the cached
 * copy, after a 304) does not match --sha256, 5 the transfer failed (network, TLS, HTTP status, timeout,
 * a body over --max-size, a redirect refused) or the body could not be
 * written.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/net/http.h"
#include "lib/util/file.h"
#include "lib/util/str.h"

#define FETCH_MAX_SIZE_DEFAULT ((size_t)32 * 1024 * 1024)

static const char *who = "torchgate-fetch";

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The longest message, in bytes before escaping; a longer one is cut
 * there with "..." (as the CLI's messages, cli/cli.c). */
#define SAY_MAX 32768

/* "torchgate: WHO: message" on stderr, one line: both escaped
 * with the CLI's escaper (tg_str_escape: a control byte, a newline or
 * invalid UTF-8 as \e, \n, \xNN), so that a URL or a server's text
 * cannot retitle the terminal or forge a second line. */
static void
say(const char *fmt, ...)
{
	static char raw[SAY_MAX + 1], out[SAY_MAX * 4 + 8];
	size_t at = 0;
	va_list ap;
	int n, cut;

	/* who is the caller's --who, of any length: what does not fit
	 * after it is cut, and said with "..." as a long message is */
	cut = tg_str_escape(out, sizeof(out), &at, who, strlen(who));
	cut |= tg_str_escape(out, sizeof(out), &at, ": ", 2);
	va_start(ap, fmt);
	n = vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	cut |= tg_str_escape(out, sizeof(out), &at, raw,
			     (size_t)n < SAY_MAX ? (size_t)n : SAY_MAX);
	fprintf(stderr, "torchgate: %s%s\n", out,
		cut || (size_t)n > SAY_MAX ? "..." : "");
}

static int
usage(const char *why)
{
	fprintf(stderr,
		"torchgate-fetch: %s\n"
		"usage: torchgate-fetch [--who NAME] [--max-size BYTES] "
		"[--timeout S]\n"
		"         [--connect-timeout S] [--retries N] [--backoff-ms "
		"MS]\n"
		"         [--etag V] [--last-modified V] [--accept TYPE] "
		"[--cacert FILE]\n"
		"         [--insecure] [--sha256 HEX] [--meta-fd N] [--output "
		"FILE]\n"
		"         [--cached FILE --cached-sha256 HEX] URL\n",
		why);
	return 2;
}

static int
number(const char *s, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && !*end && *out >= lo && *out <= hi;
}

static int
write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The body's SHA-256 in lower-case hex into hex (65 bytes); 0 or -1. */
static int
sha256_hex(const char *p, size_t n, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0, k;

	if (!EVP_Digest(p, n, md, &len, EVP_sha256(), NULL) || len != 32)
		return -1;
	for (k = 0; k < len; k++)
		snprintf(hex + 2 * k, 3, "%02x", md[k]);
	return 0;
}

/* The SHA-256 of the regular file path (at most max bytes) into hex;
 * 0, or -1 when it cannot be read. */
static int
file_sha256(const char *path, size_t max, char hex[65])
{
	char *text = NULL;
	size_t len = 0;
	int rc = tg_file_read(path, max, &text, &len, NULL, NULL);

	if (!rc)
		rc = sha256_hex(text, len, hex);
	free(text);
	return rc ? -1 : 0;
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = {
	    {"who", required_argument, NULL, 'w'},
	    {"max-size", required_argument, NULL, 'm'},
	    {"timeout", required_argument, NULL, 't'},
	    {"connect-timeout", required_argument, NULL, 'c'},
	    {"retries", required_argument, NULL, 'r'},
	    {"backoff-ms", required_argument, NULL, 'b'},
	    {"etag", required_argument, NULL, 'e'},
	    {"last-modified", required_argument, NULL, 'l'},
	    {"accept", required_argument, NULL, 'a'},
	    {"cacert", required_argument, NULL, 'C'},
	    {"insecure", no_argument, NULL, 'k'},
	    {"sha256", required_argument, NULL, 's'},
	    {"meta-fd", required_argument, NULL, 'M'},
	    {"output", required_argument, NULL, 'o'},
	    {"cached", required_argument, NULL, 'f'},
	    {"cached-sha256", required_argument, NULL, 'F'},
	    {NULL, 0, NULL, 0},
	};
	struct tg_http_req q = {0};
	struct tg_http_res r = {TG_BUF_INIT, 0, 0, 0, "", ""};
	struct tg_err err = TG_ERR_INIT;
	const char *sha = NULL, *output = NULL, *cached = NULL, *csha = NULL;
	char hex[65], chex[65] = "";
	long v, meta_fd = -1;
	int o, fd = 1, status = 5;

	q.max = FETCH_MAX_SIZE_DEFAULT;
	q.timeout_s = 30;
	q.connect_timeout_s = 10;
	q.retries = 2;
	q.backoff_ms = 500;
	q.user_agent = "torchgate/" PACKAGE_VERSION;
	while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (o) {
		case 'w':
			who = optarg;
			break;
		case 'm':
			if (!number(optarg, 1, LONG_MAX, &v))
				return usage("--max-size: a positive number");
			q.max = (size_t)v;
			break;
		case 't':
			if (!number(optarg, 1, 3600, &q.timeout_s))
				return usage("--timeout: 1 to 3600 seconds");
			break;
		case 'c':
			if (!number(optarg, 1, 3600, &q.connect_timeout_s))
				return usage("--connect-timeout: 1 to 3600 "
					     "seconds");
			break;
		case 'r':
			if (!number(optarg, 0, 10, &v))
				return usage("--retries: 0 to 10");
			q.retries = (int)v;
			break;
		case 'b':
			if (!number(optarg, 0, 60000, &v))
				return usage("--backoff-ms: 0 to 60000");
			q.backoff_ms = (unsigned)v;
			break;
		case 'e':
			q.etag = optarg;
			break;
		case 'l':
			q.last_modified = optarg;
			break;
		case 'a':
			q.accept = optarg;
			break;
		case 'C':
			q.cacert = optarg;
			break;
		case 'k':
			q.insecure = 1;
			break;
		case 's':
			if (strlen(optarg) != 64 ||
			    strspn(optarg, "0123456789abcdefABCDEF") != 64)
				return usage("--sha256: 64 hexadecimal digits");
			sha = optarg;
			break;
		case 'M':
			if (!number(optarg, 3, 1000, &meta_fd))
				return usage("--meta-fd: 3 to 1000");
			break;
		case 'o':
			output = optarg;
			break;
		case 'f':
			cached = optarg;
			break;
		case 'F':
			if (strlen(optarg) != 64 ||
			    strspn(optarg, "0123456789abcdefABCDEF") != 64)
				return usage("--cached-sha256: 64 hexadecimal "
					     "digits");
			csha = optarg;
			break;
		default:
			return usage("unknown option");
		}
	}
	if (optind != argc - 1)
		return usage("one URL expected");
	q.url = argv[optind];
	if (!cached != !csha)
		return usage("--cached and --cached-sha256 go together");
	/* the validators describe the cached file: sent only while it is
	 * still the file they came with (a crash between the renames of a
	 * file and its meta, or an edit, leaves another one) */
	if (cached &&
	    (file_sha256(cached, q.max, chex) || strcasecmp(chex, csha) != 0)) {
		q.etag = q.last_modified = NULL;
		chex[0] = '\0';
	}
	tg_buf_init(&r.body, q.max);
	if (q.connect_timeout_s > q.timeout_s)
		q.connect_timeout_s = q.timeout_s;
	if (tg_http_get(&q, &r, &err)) {
		say("%s", err.msg);
		goto out;
	}
	if (meta_fd >= 0) {
		FILE *m = fdopen((int)meta_fd, "w");

		if (!m) {
			say("cannot write the validators: %s", strerror(errno));
			goto out;
		}
		if (r.etag[0])
			fprintf(m, "etag: %s\n", r.etag);
		if (r.last_modified[0])
			fprintf(m, "last-modified: %s\n", r.last_modified);
		if (!r.not_modified &&
		    !sha256_hex(r.body.data ? r.body.data : "", r.body.len,
				hex))
			fprintf(m, "sha256: %s\n", hex);
		if (fclose(m) != 0) {
			say("cannot write the validators: %s", strerror(errno));
			goto out;
		}
	}
	if (r.not_modified && sha && !chex[0]) {
		say("cannot check --sha256: '%s' is not modified and there is "
		    "no cached copy to check (--cached)",
		    q.url);
		status = 4;
		goto out;
	}
	if (r.not_modified && sha && strcasecmp(chex, sha) != 0) {
		say("'%s' is not modified, but the cached '%s' does not match "
		    "--sha256: its SHA-256 is %s",
		    q.url, cached, chex);
		status = 4;
		goto out;
	}
	if (r.not_modified) {
		status = 1;
		goto out;
	}
	if (sha) {
		if (sha256_hex(r.body.data ? r.body.data : "", r.body.len,
			       hex)) {
			say("cannot compute the SHA-256 of '%s'", q.url);
			goto out;
		}
		if (strcasecmp(hex, sha) != 0) {
			say("'%s' does not match --sha256: its SHA-256 is %s",
			    q.url, hex);
			status = 4;
			goto out;
		}
	}
	if (output && (fd = creat(output, 0666)) < 0) {
		say("cannot write '%s': %s", output, strerror(errno));
		goto out;
	}
	if (write_all(fd, r.body.data ? r.body.data : "", r.body.len) ||
	    (output && close(fd) != 0)) {
		say("cannot write '%s': %s", output ? output : "(stdout)",
		    strerror(errno));
		goto out;
	}
	status = 0;
out:
	tg_buf_release(&r.body);
	return status;
}
