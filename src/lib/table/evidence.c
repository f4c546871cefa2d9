/* evidence.c - confirm a table entry against an installed torch's files
 * SPDX-License-Identifier: MIT
 *
 * Paths: "torch/include/X" is looked up in the copy's include directory,
 * "torch/share/cmake/Torch/X" in its CMake directory (Debian keeps both
 * outside the package), anything else under the copy's directory. A
 * pattern matches when it matches in any listed file that exists.
 *
 * Expected from the status: the API is present when available or
 * deprecated; the deprecation pattern matches when deprecated; the
 * removal pattern when removed. The verdict is "confirmed" when every
 * look agrees, "contradicted" when one disagrees (the detail says
 * which), "unverifiable" when there was nothing to look at.
 */
#include "lib/table/evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/path.h"
#include "lib/util/scan.h"

const char *
tg_evidence_name(enum tg_evidence_verdict v)
{
	return v == TG_EVIDENCE_CONFIRMED      ? "confirmed"
	       : v == TG_EVIDENCE_CONTRADICTED ? "contradicted"
					       : "unverifiable";
}

char *
tg_evidence_path(const struct tg_torch *t, const char *rel)
{
	static const char inc[] = "torch/include/";
	static const char cmk[] = "torch/share/cmake/Torch/";

	if (strncmp(rel, inc, sizeof(inc) - 1) == 0 && t->include_dir)
		return tg_path_join(t->include_dir, rel + sizeof(inc) - 1);
	if (strncmp(rel, cmk, sizeof(cmk) - 1) == 0 && t->cmake_dir)
		return tg_path_join(t->cmake_dir, rel + sizeof(cmk) - 1);
	if (strncmp(rel, "torch/", 6) == 0)
		return tg_path_join(t->dir, rel + 6);
	return tg_path_join(t->dir, rel);
}

/* Search pattern in every existing file: *hit 1/0; *seen files found. */
static int
search(const struct tg_api *a, const struct tg_torch *t, const char *pattern,
       int *hit, size_t *seen, struct tg_evidence *out, struct tg_err *err)
{
	size_t k;

	*hit = 0;
	*seen = 0;
	for (k = 0; k < a->nfiles && !*hit; k++) {
		struct tg_err e = TG_ERR_INIT;
		char *path = tg_evidence_path(t, a->files[k]);
		int absent = 0, m = 0, rc;

		if (!path)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		if (pattern)
			rc = tg_scan_file(pattern, path, &m, &absent, &e);
		else {
			absent = !tg_path_is_file(path);
			m = !absent;
			rc = 0;
		}
		free(path);
		if (rc == TG_ENOMEM)
			return tg_err_set(err, rc, "out of memory");
		if (rc) {
			out->verdict = TG_EVIDENCE_UNVERIFIABLE;
			snprintf(out->detail, sizeof(out->detail), "%s", e.msg);
			return 1;
		}
		if (!absent)
			(*seen)++;
		*hit = m;
	}
	return 0;
}

int
tg_evidence_check(const struct tg_api *a, const struct tg_torch *t,
		  enum tg_api_status status, struct tg_evidence *out,
		  struct tg_err *err)
{
	int want_present =
	    status == TG_API_AVAILABLE || status == TG_API_DEPRECATED;
	size_t seen = 0, seen2, k;
	int hit, rc;

	out->verdict = TG_EVIDENCE_CONFIRMED;
	out->present = out->deprecated = out->removed = -1;
	out->detail[0] = '\0';
	if (a->nfiles == 0) {
		out->verdict = TG_EVIDENCE_UNVERIFIABLE;
		snprintf(out->detail, sizeof(out->detail),
			 "the table names no file to look in");
		return 0;
	}
	for (k = 0; k < a->nfiles; k++) {
		const char *why = NULL;

		if (strncmp(a->files[k], "torch/include/", 14) == 0 &&
		    !t->include_dir)
			why = "this torch has no headers";
		else if (strncmp(a->files[k], "torch/share/cmake/", 18) == 0 &&
			 !t->cmake_dir)
			why = "this torch has no CMake files";
		if (why) {
			out->verdict = TG_EVIDENCE_UNVERIFIABLE;
			snprintf(out->detail, sizeof(out->detail), "%s", why);
			return 0;
		}
	}
	rc = search(a, t, a->presence, &hit, &seen, out, err);
	if (rc)
		return rc < 0 ? rc : 0;
	out->present = hit;
	if (seen == 0 && want_present) {
		out->verdict = TG_EVIDENCE_CONTRADICTED;
		snprintf(out->detail, sizeof(out->detail),
			 "the table says it exists, but '%s' is not there",
			 a->files[0]);
		return 0;
	}
	if (hit != want_present) {
		out->verdict = TG_EVIDENCE_CONTRADICTED;
		snprintf(out->detail, sizeof(out->detail),
			 want_present ? "the table says it exists, but its "
					"pattern does not match in %s"
				      : "the table says it is %s, but its "
					"pattern matches in the files",
			 want_present ? a->files[0]
				      : tg_api_status_name(status));
		return 0;
	}
	if (a->deprecation && (want_present || seen)) {
		rc = search(a, t, a->deprecation, &hit, &seen2, out, err);
		if (rc)
			return rc < 0 ? rc : 0;
		out->deprecated = hit;
		if (want_present && hit != (status == TG_API_DEPRECATED)) {
			out->verdict = TG_EVIDENCE_CONTRADICTED;
			snprintf(out->detail, sizeof(out->detail),
				 hit ? "the files declare it deprecated, the "
				       "table does not for this version"
				     : "the table says deprecated since %s, "
				       "but the files carry no deprecation",
				 a->deprecated.version ? a->deprecated.version
						       : "?");
			return 0;
		}
	}
	if (a->removal && seen) {
		rc = search(a, t, a->removal, &hit, &seen2, out, err);
		if (rc)
			return rc < 0 ? rc : 0;
		out->removed = hit;
		if (hit != (status == TG_API_REMOVED)) {
			out->verdict = TG_EVIDENCE_CONTRADICTED;
			snprintf(out->detail, sizeof(out->detail),
				 hit ? "the files hold its removal stub, the "
				       "table does not say removed"
				     : "the table says removed since %s, but "
				       "no removal stub is in the files",
				 a->removed.version ? a->removed.version : "?");
			return 0;
		}
	}
	if (!want_present && seen == 0)
		snprintf(out->detail, sizeof(out->detail),
			 "none of its files is there");
	return 0;
}
