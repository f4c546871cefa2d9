/* evidence.h - confirm a table entry against an installed torch's files
 * SPDX-License-Identifier: MIT
 *
 * The table says what a torch version should hold (the status); the
 * entry's evidence says where to look (files under torch/) and what to
 * look for (presence, deprecation and removal patterns). This module
 * looks, and says whether the files agree with the table.
 */
#ifndef TG_LIB_TABLE_EVIDENCE_H
#define TG_LIB_TABLE_EVIDENCE_H

#include "lib/torch/probe.h"
#include "lib/table/table.h"

enum tg_evidence_verdict {
	TG_EVIDENCE_CONFIRMED,
	TG_EVIDENCE_CONTRADICTED,
	TG_EVIDENCE_UNVERIFIABLE,
};

struct tg_evidence {
	enum tg_evidence_verdict verdict;
	int present;	/* -1 not looked at, 0, 1 */
	int deprecated; /* -1 no pattern, 0, 1 */
	int removed;	/* -1 no pattern, 0, 1 */
	char detail[512];
};

/* At most this many bytes of evidence files are read per run (each file
 * at most TG_SCAN_FILE_MAX), and at most TG_EVIDENCE_SEARCH_MAX bytes
 * searched (the sum, over every distinct pattern and file, of the
 * file's length): past either, the entries left are unverifiable. */
#define TG_EVIDENCE_READ_MAX ((size_t)128 * 1024 * 1024)
#define TG_EVIDENCE_SEARCH_MAX ((size_t)2048 * 1024 * 1024)

struct tg_evidence_file;

/* What a run has read: each evidence file once (by its resolved path),
 * each pattern searched once per file; the bytes read and searched so
 * far, against the limits above. */
struct tg_evidence_cache {
	struct tg_evidence_file *files;
	size_t n, cap;
	size_t read, searched;
};

#define TG_EVIDENCE_CACHE_INIT                                                 \
	{                                                                      \
		NULL, 0, 0, 0, 0                                               \
	}

void tg_evidence_cache_release(struct tg_evidence_cache *c);

/* Look for a's evidence in the files of t, given the status the table
 * gives a for t's version. cache: shared by the calls of one run (NULL:
 * one for this call). Only out-of-memory is an error; unreadable files
 * make the verdict unverifiable, with the reason in detail. */
int tg_evidence_check(const struct tg_api *a, const struct tg_torch *t,
		      enum tg_api_status status,
		      struct tg_evidence_cache *cache, struct tg_evidence *out,
		      struct tg_err *err);

const char *tg_evidence_name(enum tg_evidence_verdict v);

/* The installed path of a table path "torch/..." for copy t (headers and
 * CMake files where t has them), a new string. */
char *tg_evidence_path(const struct tg_torch *t, const char *rel);

#endif
