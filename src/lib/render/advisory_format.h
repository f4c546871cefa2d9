/* advisory_format.h - the advisories that affect a torch: text and JSON
 * SPDX-License-Identifier: MIT
 *
 * Renders what torchgate env found in the advisories for the installed
 * torch (table/advisory): each advisory with its ids, summary and first
 * fixed version. Output depends on the input only.
 */
#ifndef TG_LIB_OUT_ADVISORY_FORMAT_H
#define TG_LIB_OUT_ADVISORY_FORMAT_H

#include "lib/table/advisory.h"
#include "lib/util/buf.h"
#include "lib/util/jsonw.h"

struct tg_advisory_report {
	const char *torch;   /* the torch's version as found */
	const char *matched; /* the public version matched */
	const char *source;  /* "built-in", "cache", "file" */
	const char *from;    /* the file, NULL when built in */
	const char *version; /* advisories_version */
	/* the Debian package's version when its upstream part is newer
	 * than matched (Debian's 1.13.1+dfsg says 1.13.0a0), else NULL */
	const char *dpkg;
	const struct tg_advisory_matches *m;
};

/* "advisories": {...} as a member of the object w is in. */
void tg_advisory_format_json(struct tg_jsonw *w,
			     const struct tg_advisory_report *r);
/* The text section (a blank line, then "advisories for torch V:" and
 * one paragraph an advisory). */
void tg_advisory_format_text(struct tg_buf *out,
			     const struct tg_advisory_report *r);

#endif
