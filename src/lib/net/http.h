/* http.h - one bounded HTTP(S) GET, with libcurl
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_NET_HTTP_H
#define TG_LIB_NET_HTTP_H

#include <stddef.h>

#include "lib/util/buf.h"
#include "lib/util/err.h"

/* Longest ETag or Last-Modified value kept. */
#define TG_HTTP_VALIDATOR_MAX 1024

struct tg_http_req {
	const char *url;
	size_t max;		/* the largest body accepted */
	long timeout_s;		/* the whole transfer, each attempt */
	long connect_timeout_s; /* connecting, each attempt */
	int retries;		/* after a 5xx or a timeout */
	unsigned backoff_ms;	/* before the first retry; doubled each time */
	const char *etag;	/* If-None-Match, or NULL */
	const char *last_modified; /* If-Modified-Since, or NULL */
	const char *accept;	   /* Accept, or NULL */
	const char *cacert;	   /* CA bundle, or NULL: the system's */
	int insecure;		   /* no TLS verification */
	const char *user_agent;
};

struct tg_http_res {
	struct tg_buf body;
	long status;	  /* the last HTTP status */
	int not_modified; /* 304: body empty */
	int attempts;
	char etag[TG_HTTP_VALIDATOR_MAX];
	char last_modified[TG_HTTP_VALIDATOR_MAX];
};

/* GET q->url into r (r->body must be released by the caller, also after
 * a failure). Redirects are followed, at most TG_HTTP_REDIRS of them, to
 * http and https only; the proxy environment (http_proxy, https_proxy,
 * no_proxy) is honoured by libcurl. 0 for a 200 or a 304
 * (r->not_modified), else TG_EIO ("cannot fetch 'URL': cause": the curl
 * error, or "HTTP status N"), TG_ELIMIT for a body over q->max or a
 * header value over TG_HTTP_VALIDATOR_MAX, TG_EINVAL for a header value
 * (q->etag, q->last_modified, q->accept, q->user_agent) holding a
 * control character, TG_ENOMEM. r->etag and r->last_modified stay ""
 * when the server's value holds a control character. */
#define TG_HTTP_REDIRS 5
int tg_http_get(const struct tg_http_req *q, struct tg_http_res *r,
		struct tg_err *err);

#endif
