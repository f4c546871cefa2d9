/* http.c - one bounded HTTP(S) GET, with libcurl
 * SPDX-License-Identifier: MIT
 *
 * The one module that includes libcurl; only the fetch helper
 * (src/fetch/main.c, torchgate-fetch) links it, never torchgate, whose
 * start-up would pay for libcurl's 33 libraries. A transfer: TLS
 * verified (unless insecure), connect and total timeouts, the body
 * capped at q->max (refused before it is read when Content-Length says
 * so, cut off when it grows past), at most TG_HTTP_REDIRS redirects and
 * only to http or https (file://, ftp:// and the rest refused, also as
 * the first URL), a conditional GET when validators are given (a
 * header value holding a control character is refused, a received
 * validator holding one is not kept: a bare CR would let a server
 * choose a header we send back), and
 * retries with a doubling backoff after a 5xx or a timeout only. Worst
 * case: (retries + 1) * timeout_s plus the backoffs.
 */
#include "lib/net/http.h"

#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct sink {
	struct tg_http_res *r;
	size_t max;
	int over;
};

static size_t
on_body(char *p, size_t size, size_t n, void *ud)
{
	struct sink *s = ud;

	n *= size;
	if (s->r->body.len + n > s->max) {
		s->over = 1;
		return 0;
	}
	return tg_buf_add(&s->r->body, p, n) ? 0 : n;
}

/* A control character (HTAB aside): in a header value, a CR or LF ends
 * the line and starts another header. */
static int
has_ctl(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (((unsigned char)p[i] < 0x20 && p[i] != '\t') ||
		    p[i] == 0x7f)
			return 1;
	return 0;
}

/* "Name: value\r\n": value into out when the name is name; a value
 * holding a control character (a bare CR, which libcurl leaves in the
 * line) is not kept: sent back, it would be a header of the server's
 * choosing. */
static void
header(const char *p, size_t n, const char *name, char *out, size_t cap)
{
	size_t k = strlen(name), e;

	if (n <= k || strncasecmp(p, name, k) != 0 || p[k] != ':')
		return;
	p += k + 1;
	n -= k + 1;
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	for (e = n; e && (p[e - 1] == '\r' || p[e - 1] == '\n' ||
			  p[e - 1] == ' ' || p[e - 1] == '\t');
	     e--)
		;
	if (has_ctl(p, e))
		out[0] = '\0';
	else if (e < cap) {
		memcpy(out, p, e);
		out[e] = '\0';
	}
}

/* "Name: value" into h, or TG_EINVAL when value holds a control
 * character (a CR or LF would end the header and start another). */
static int
add_header(struct curl_slist **h, const char *name, const char *value,
	   const char *url, struct tg_err *err)
{
	char line[TG_HTTP_VALIDATOR_MAX + 32];
	struct curl_slist *h2;

	if (has_ctl(value, strlen(value)))
		return tg_err_set(err, TG_EINVAL,
				  "cannot fetch '%s': the %s value holds a "
				  "control character",
				  url, name);
	if ((size_t)snprintf(line, sizeof(line), "%s: %s", name, value) >=
	    sizeof(line))
		return tg_err_set(err, TG_ELIMIT,
				  "cannot fetch '%s': the %s value is longer "
				  "than %d bytes",
				  url, name, TG_HTTP_VALIDATOR_MAX);
	if (!(h2 = curl_slist_append(*h, line)))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	*h = h2;
	return 0;
}

static size_t
on_header(char *p, size_t size, size_t n, void *ud)
{
	struct tg_http_res *r = ud;

	n *= size;
	/* a new response (after a redirect or a retry) starts over */
	if (n > 5 && strncmp(p, "HTTP/", 5) == 0)
		r->etag[0] = r->last_modified[0] = '\0';
	header(p, n, "ETag", r->etag, sizeof(r->etag));
	header(p, n, "Last-Modified", r->last_modified,
	       sizeof(r->last_modified));
	return n;
}

static void
pause_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* One attempt; 1 when it may be retried. */
static int
attempt(CURL *c, const struct tg_http_req *q, struct tg_http_res *r, int *rc,
	struct tg_err *err)
{
	char ebuf[CURL_ERROR_SIZE] = "";
	struct sink s = {r, q->max, 0};
	CURLcode cc;

	tg_buf_clear(&r->body);
	r->etag[0] = r->last_modified[0] = '\0';
	r->status = 0;
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
	r->attempts++;
	cc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	if (s.over || cc == CURLE_FILESIZE_EXCEEDED) {
		if (q->max % (1024 * 1024) == 0)
			*rc = tg_err_set(err, TG_ELIMIT,
					 "cannot fetch '%s': the body is "
					 "larger than the %zu MiB limit",
					 q->url, q->max / (1024 * 1024));
		else
			*rc = tg_err_set(err, TG_ELIMIT,
					 "cannot fetch '%s': the body is "
					 "larger than the %zu-byte limit",
					 q->url, q->max);
		return 0;
	}
	if (tg_buf_error(&r->body)) {
		*rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		return 0;
	}
	/* libcurl's own words, but not its timings ("after 1001 ms"),
	 * which would make the message differ from run to run */
	if (cc == CURLE_OPERATION_TIMEDOUT) {
		*rc = tg_err_set(err, TG_EIO,
				 "cannot fetch '%s': timed out after %ld s",
				 q->url, q->timeout_s);
		return 1;
	}
	if (cc == CURLE_COULDNT_CONNECT) {
		*rc = tg_err_set(err, TG_EIO, "cannot fetch '%s': %s", q->url,
				 curl_easy_strerror(cc));
		return 0;
	}
	if (cc != CURLE_OK) {
		*rc = tg_err_set(err, TG_EIO, "cannot fetch '%s': %s", q->url,
				 ebuf[0] ? ebuf : curl_easy_strerror(cc));
		return 0;
	}
	*rc = 0;
	if (r->status == 200)
		return 0;
	if (r->status == 304 && (q->etag || q->last_modified)) {
		r->not_modified = 1;
		tg_buf_clear(&r->body);
		return 0;
	}
	*rc = tg_err_set(err, TG_EIO, "cannot fetch '%s': HTTP status %ld",
			 q->url, r->status);
	return r->status >= 500 && r->status <= 599;
}

int
tg_http_get(const struct tg_http_req *q, struct tg_http_res *r,
	    struct tg_err *err)
{
	struct curl_slist *h = NULL;
	unsigned wait = q->backoff_ms;
	CURL *c = NULL;
	int k, again, rc = 0, global;

	r->not_modified = 0;
	r->attempts = 0;
	global = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
	if (!global || !(c = curl_easy_init())) {
		rc = tg_err_set(err, TG_ENOMEM, "cannot start libcurl");
		goto out;
	}
	if ((q->etag &&
	     (rc = add_header(&h, "If-None-Match", q->etag, q->url, err))) ||
	    (q->last_modified &&
	     (rc = add_header(&h, "If-Modified-Since", q->last_modified, q->url,
			      err))) ||
	    (q->accept &&
	     (rc = add_header(&h, "Accept", q->accept, q->url, err))))
		goto out;
	if (has_ctl(q->user_agent, strlen(q->user_agent))) {
		rc = tg_err_set(err, TG_EINVAL,
				"cannot fetch '%s': the User-Agent value holds "
				"a control character",
				q->url);
		goto out;
	}
	curl_easy_setopt(c, CURLOPT_URL, q->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, (long)TG_HTTP_REDIRS);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, q->timeout_s);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, q->connect_timeout_s);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)q->max);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_USERAGENT, q->user_agent);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	if (q->cacert)
		curl_easy_setopt(c, CURLOPT_CAINFO, q->cacert);
	if (q->insecure) {
		curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	for (k = 0;; k++) {
		again = attempt(c, q, r, &rc, err);
		if (!again || k >= q->retries)
			break;
		pause_ms(wait);
		wait *= 2;
	}
	if (rc && r->attempts > 1 && err) {
		size_t n = strlen(err->msg);

		snprintf(err->msg + n, sizeof(err->msg) - n, " (%d attempts)",
			 r->attempts);
	}
out:
	curl_slist_free_all(h);
	if (c)
		curl_easy_cleanup(c);
	if (global)
		curl_global_cleanup();
	return rc;
}
