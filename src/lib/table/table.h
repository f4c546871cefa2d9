/* table.h - the API table: torch APIs and their lifecycle
 * SPDX-License-Identifier: MIT
 *
 * The table (data/apis.json, schema data/apis.schema.json) is loaded
 * strictly: every field type-checked, unknown fields rejected, versions
 * X.Y[.Z], regexes compiled, ids unique, replacement ids known. Errors
 * name the line and column of the problem. The build loads
 * data/apis.json and embeds the result as the default table (static
 * data, builtin.h).
 */
#ifndef TG_LIB_TABLE_TABLE_H
#define TG_LIB_TABLE_TABLE_H

#include <stddef.h>

#include "lib/util/err.h"
#include "lib/pep/version.h"

/* Largest table file read. */
#define TG_TABLE_MAX ((size_t)32 * 1024 * 1024)

enum tg_fact { TG_FACT_VERIFIED, TG_FACT_INFERRED, TG_FACT_UNVERIFIED };
/* between: after the release "after" (which lacks it), at or before
 * version; it counts as at-or-before version everywhere. */
enum tg_bound {
	TG_BOUND_EXACT,
	TG_BOUND_AT_OR_BEFORE,
	TG_BOUND_BEFORE,
	TG_BOUND_BETWEEN,
};

/* Each version string of an entry comes with its parse, made when the
 * table loads (a *_ver is zeroed, str NULL, where its string is NULL),
 * so that comparing against a torch version allocates nothing and
 * cannot fail. */
struct tg_event {
	char *version; /* NULL: did not happen (introduced: before 1.0) */
	struct tg_version ver;
	enum tg_bound bound;
	char *after; /* between: the last release known without it */
	struct tg_version after_ver;
	enum tg_fact status;
	char *note;
	char *withdrawn; /* deprecated: taken back in this release */
	struct tg_version withdrawn_ver;
	char *announced_by; /* deprecated: a removal announced, not done */
	struct tg_version announced_ver;
};

/* The language of an entry, the table's "language": one enumerator per
 * language, and one row of audit/lang.c's registry naming it. */
enum tg_lang_id {
	TG_LANG_PYTHON, /* "python" */
	TG_LANG_CXX,	/* "c++": C, C++ and CUDA */
};

/* How audit --fix rewrites a use of an entry (its "fix" member;
 * torchgate-apis(5)); has 0 when it does not. */
struct tg_api_fix {
	int has;
	int unsafe; /* applicability "unsafe": only with --unsafe-fixes */
	char *to;   /* the replacing entry's id, or NULL: the name is kept */
	/* replace (C++): the tokens from the use's start that spell
	 * replace_from become replace_to, and to (NULL: the entry itself)
	 * only decides the floor; both NULL when the member is null */
	char *replace_from, *replace_to;
	/* insert: the argument added to a call, or NULL; insert_kw when it
	 * is keyword arguments "name=value" or "name=value, name=value"
	 * (added after the last positional one), else it becomes the at-th
	 * positional argument */
	char *insert;
	int insert_kw;
	long at;	     /* -1 for a keyword */
	long max_positional; /* a call passing more is not fixed; -1: any */
	int bare_call;	     /* bare "call": a bare use becomes NAME(TEXT) */
	char *note;	     /* what the fix changes, or NULL (safe only) */
};

struct tg_api {
	char *id;
	enum tg_lang_id lang;
	char *kind;
	int is_private;
	struct tg_event introduced, deprecated, removed;
	char *repl_id, *repl_text, *repl_since;
	struct tg_version repl_since_ver;
	enum tg_fact repl_status;
	struct tg_api_fix fix;
	char *warn_category, *warn_message, *warn_since;
	struct tg_version warn_since_ver;
	enum tg_fact warn_status;
	char **files;
	size_t nfiles;
	char *presence, *deprecation, *removal; /* PCRE2 or NULL */
	char **usage;
	size_t nusage;
	char **refs;
	size_t nrefs;
	char *notes;
};

struct tg_table {
	struct tg_api *apis; /* sorted by id */
	size_t n;
	char *description;
	char *table_version; /* YYYY.MM.DD[.N], NULL when the file has none */
	/* the built-in table's static storage (builtin.h), never written:
	 * tg_table_release frees nothing of it */
	int is_static;
};

#define TG_TABLE_INIT                                                          \
	{                                                                      \
		NULL, 0, NULL, NULL, 0                                         \
	}

/* Whether s is a table version: YYYY.MM.DD[.N] (a month 01-12, a day
 * 01-31, N a number without leading zeros). */
int tg_table_version_valid(const char *s);
/* Compare two valid table versions by their numbers (a missing .N is
 * .0); NULL is older than any version. */
int tg_table_version_cmp(const char *a, const char *b);

/* Parse a table document; name is used in messages ("cannot parse
 * 'NAME': line L, column C: ..."). */
int tg_table_parse(struct tg_table *t, const char *text, size_t len,
		   const char *name, struct tg_err *err);
/* Read and parse the file path (at most TG_TABLE_MAX bytes). */
int tg_table_load(struct tg_table *t, const char *path, struct tg_err *err);
/* The table built into the binary: static data, nothing parsed or
 * allocated (it cannot fail). */
int tg_table_default(struct tg_table *t, struct tg_err *err);
void tg_table_release(struct tg_table *t);

const struct tg_api *tg_table_find(const struct tg_table *t, const char *id);

const char *tg_api_fact_name(enum tg_fact f);

/* The newest torch version any event of the table names (introduced,
 * deprecated, withdrawn, removed, a replacement's or a warning's since):
 * what the table knows about; NULL for a table without versions. */
const char *tg_table_newest(const struct tg_table *t);
/* The same version parsed into *v (the caller releases it); TG_ENOENT
 * when the table names none. */
int tg_table_newest_version(const struct tg_table *t, struct tg_version *v,
			    struct tg_err *err);

/* Whether v is past what the table knows: its release, cut to as many
 * segments as newest has, is greater (9.0 and 2.12.0.dev past 2.11;
 * 2.11.1 not). */
int tg_table_is_past(const struct tg_table *t, const struct tg_version *v);

/* Up to max ids of the table near id, for "did you mean": first those
 * whose last component (after the last '.' or "::") is id's last
 * component, then, when there are none, those a few edits away.
 * Returns how many were put in out (borrowed pointers). */
size_t tg_table_suggest(const struct tg_table *t, const char *id,
			const char **out, size_t max);

/* The lifecycle status of an API in a torch version (compared by
 * release: 2.4.0a0 counts as 2.4): not-yet before introduced (unless
 * introduced "before" a version), removed from removed on, deprecated
 * from deprecated on unless withdrawn, else available. */
enum tg_api_status {
	TG_API_AVAILABLE,
	TG_API_DEPRECATED,
	TG_API_REMOVED,
	TG_API_NOT_YET,
};

enum tg_api_status tg_api_status(const struct tg_api *a,
				 const struct tg_version *torch);
const char *tg_api_status_name(enum tg_api_status s);

/* Whether the replacement of a exists in torch (its since <= torch). */
int tg_api_replacement_exists(const struct tg_api *a,
			      const struct tg_version *torch);

/* The C macro stem of an id, a new string: letters upper-cased, digits
 * kept, each "." or "::" one '_', a component's leading underscores "P_"
 * (private), no "__": "torch.cuda.amp.custom_fwd" ->
 * "TORCH_CUDA_AMP_CUSTOM_FWD", "torch.distributed._tensor" ->
 * "TORCH_DISTRIBUTED_P_TENSOR". */
char *tg_api_macro_name(const char *id);

#endif
