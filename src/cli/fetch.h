/* fetch.h - running torchgate-fetch, the helper that links libcurl
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_CLI_FETCH_H
#define TG_CLI_FETCH_H

#include <stddef.h>

#include "lib/table/cache.h"
#include "lib/util/buf.h"

struct cli_fetch {
	const char *url;
	const char *timeout; /* seconds, checked by the caller, or NULL */
	const char *sha256;  /* 64 hex digits, or NULL */
	const char *etag, *last_modified; /* conditional GET, or NULL */
	/* the cached file the validators describe and its SHA-256 when
	 * they were kept: they are sent only while it still has it, and a
	 * 304 to a request with sha256 is checked against it */
	const char *cached, *cached_sha256;
	const char *accept;
	const char *cacert;
	int insecure;
	size_t max; /* the largest body */
};

/* Run the helper for f: the body into body (at most f->max bytes), the
 * response's validators and the body's SHA-256 into got ("" when
 * absent). Returns CLI_OK with *not_modified set for a 304, or the exit
 * status after the helper's one-line message (CLI_IO for a failed
 * transfer, CLI_BAD_INPUT for a --sha256 mismatch, also of the cached
 * file after a 304) or ours (the helper missing, not built). */
int cli_fetch_run(const char *cmd, const struct cli_fetch *f,
		  struct tg_buf *body, struct tg_cache_validators *got,
		  int *not_modified);

/* Check --timeout S (1 to 600); CLI_OK or the usage error. */
int cli_fetch_timeout(const char *cmd, const char *s);

#endif
