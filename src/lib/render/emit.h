/* emit.h - the generated files: a C/C++ guard header, a Python module
 * SPDX-License-Identifier: MIT
 *
 * Both are pure functions of struct tg_emit: no time, no host, no
 * absolute path, so the same torch and the same API list give the same
 * bytes. Macro names are <PREFIX>_<FACT> and, per API,
 * <PREFIX>_HAS_<STEM>, <PREFIX>_DEPRECATED_<STEM>, <PREFIX>_REMOVED_<STEM>
 * with STEM = tg_api_macro_name(id). Both carry one fingerprint of
 * their inputs, so that a header and a module of different runs can be
 * told apart (the module's check_runtime() does).
 */
#ifndef TG_LIB_RENDER_EMIT_H
#define TG_LIB_RENDER_EMIT_H

#include <stddef.h>

#include "lib/util/buf.h"
#include "lib/util/err.h"
#include "lib/table/table.h"
#include "lib/pep/version.h"

struct tg_emit_api {
	const struct tg_api *api;
	enum tg_api_status status;
	char *stem; /* owned */
};

struct tg_emit {
	const char *prefix;		/* a C identifier */
	const struct tg_version *torch; /* the version compared */
	const char *version_text;	/* as reported */
	int from_install;		/* 0: --torch-version only */
	const char *cuda, *hip;		/* NULL: none (or unknown) */
	int cxx11_abi;			/* 1, 0, -1 unknown */
	int cxx_standard;		/* 0 unknown */
	struct tg_emit_api *apis;
	size_t napis;
	/* the header written with the module, as a path relative to the
	 * module's directory, for its check_runtime(); NULL: none */
	const char *header_path;
};

/* The fingerprint both files carry: FNV-1a 64 of everything they are
 * made from (prefix, facts, APIs and their statuses; not header_path),
 * as 16 lower-case hex digits and a NUL. */
#define TG_EMIT_FINGERPRINT_LEN 16
void tg_emit_fingerprint(const struct tg_emit *e,
			 char out[TG_EMIT_FINGERPRINT_LEN + 1]);

/* 1 when s is a C identifier ([A-Za-z_][A-Za-z0-9_]*). */
int tg_emit_is_identifier(const char *s);

/* Fill e->apis from ids (looked up in table): TG_EINVAL naming an id not
 * in the table, or two ids with the same macro stem. */
int tg_emit_add_apis(struct tg_emit *e, const struct tg_table *table,
		     const char *const *ids, size_t n, struct tg_err *err);
void tg_emit_release(struct tg_emit *e);

/* TG_ELIMIT when a release number is above 255 (the header's hex packs
 * 8 bits each); TG_ENOMEM. */
int tg_emit_header(const struct tg_emit *e, struct tg_buf *out,
		   struct tg_err *err);
int tg_emit_module(const struct tg_emit *e, struct tg_buf *out,
		   struct tg_err *err);

#endif
