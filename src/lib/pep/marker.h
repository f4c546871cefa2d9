/* marker.h - PEP 508 environment markers: parse, print, evaluate
 * SPDX-License-Identifier: MIT
 *
 * Parsed and evaluated as pypa/packaging 26.x's Marker: quoted strings
 * are Python string literals (escapes decoded), "extra" values are
 * name-normalised, version-valued variables (python_version,
 * python_full_version, platform_release, implementation_version) are
 * compared as PEP 440 versions when the right side is a valid specifier,
 * everything else as strings. Every comparison in a marker is evaluated,
 * so a missing variable is an error even where "or" has decided.
 */
#ifndef TG_LIB_PEP_MARKER_H
#define TG_LIB_PEP_MARKER_H

#include <stddef.h>

#include "lib/util/arena.h"
#include "lib/util/buf.h"
#include "lib/util/err.h"
#include "lib/pep/pep508.h"

struct tg_marker;

/* One variable of an evaluation environment: a string, or a set of
 * strings for "extras" and "dependency_groups". */
struct tg_marker_var {
	char *name;
	char *value;  /* NULL when a set */
	char **items; /* the set */
	size_t nitems;
};

struct tg_marker_env {
	struct tg_marker_var *vars;
	size_t n, cap;
};

#define TG_MARKER_ENV_INIT                                                     \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

int tg_marker_parse(struct tg_marker **out, const char *s, size_t len,
		    struct tg_err *err);
/* Parse a marker that starts at lx's position (after ';' in a requirement);
 * stops where the marker grammar ends. */
int tg_marker_parse_lex(struct tg_marker **out, struct tg_pep508_lexer *lx,
			struct tg_err *err);
/* tg_marker_parse_lex, with all of the marker taken from a: it then
 * lives as long as a does, and tg_marker_free leaves it. */
int tg_marker_parse_arena(struct tg_marker **out, struct tg_pep508_lexer *lx,
			  struct tg_arena *a, struct tg_err *err);
void tg_marker_free(struct tg_marker *m);

/* As str(Marker): normalised quoting and parentheses. */
int tg_marker_format(const struct tg_marker *m, struct tg_buf *out,
		     struct tg_err *err);

/* *result = 1 or 0; TG_EUNDEF for an undefined comparison or a variable
 * missing from env ("extra" defaults to ""). env is used as given: fill
 * in the default environment first (tg_marker_env_default) where
 * packaging's Marker.evaluate() would. */
int tg_marker_evaluate(const struct tg_marker *m,
		       const struct tg_marker_env *env, int *result,
		       struct tg_err *err);

/* The first variable m names that env does not give, or NULL ("extra"
 * is never missing: it defaults to ""). */
const char *tg_marker_missing(const struct tg_marker *m,
			      const struct tg_marker_env *env);

/* Whether m reads "extra" only in == and != comparisons with a string
 * other than "" (either side): then its value is the same for every
 * extra that is none of those strings (as for ""), and *n counts them
 * (with repeats) and out, when not NULL, gets them (name-normalised,
 * borrowed from m). A marker that does not read "extra" is such a
 * marker with *n 0. */
int tg_marker_extra_literals(const struct tg_marker *m, const char **out,
			     size_t *n);

/* The variable name in env (the last one set), or NULL. */
const struct tg_marker_var *tg_marker_env_get(const struct tg_marker_env *env,
					      const char *name);

/* Add a string (value) or a set (items) to env; copies. */
int tg_marker_env_set(struct tg_marker_env *env, const char *name,
		      const char *value, const char *const *items,
		      size_t nitems);
void tg_marker_env_release(struct tg_marker_env *env);

/* Fill env from a JSON object of marker variables (marker_env.c): each
 * value a string, or for "extras" and "dependency_groups" an array of
 * strings. */
int tg_marker_env_parse_json(struct tg_marker_env *env, const char *text,
			     size_t len, struct tg_err *err);

/* ---- the default environment (marker_env.c) ----
 *
 * packaging's default_environment(), worked out from files and uname(2)
 * instead of from a running interpreter. */

/* Where the default environment takes a variable from. */
enum tg_marker_source {
	TG_MARKER_FROM_NONE,   /* extra, extras, dependency_groups */
	TG_MARKER_FROM_PYTHON, /* the interpreter's files */
	TG_MARKER_FROM_SYSTEM, /* uname(2), and os_name */
};

enum tg_marker_source tg_marker_env_source(const char *name);

/* What the default environment knows of a CPython interpreter:
 * sys.version_info, and platform.python_version() (PY_VERSION) in full;
 * full is "" when the micro version is not known. */
struct tg_marker_python {
	int major, minor, micro;
	char releaselevel; /* 'f'inal, 'a'lpha, 'b'eta, 'c'andidate */
	int serial;
	char full[64];
};

/* What Python's platform module reads from os.uname(). */
struct tg_marker_uname {
	const char *sysname, *release, *version, *machine;
};

/* Add to env the variables of default_environment() that py (NULL: no
 * interpreter) and u (NULL: uname failed) give: python_version,
 * implementation_name, platform_python_implementation from py, and
 * python_full_version and implementation_version when py->full is
 * known; os_name ("posix"), platform_system, platform_release,
 * platform_version, platform_machine from u, and sys_platform when the
 * system is Linux ("linux") or Darwin ("darwin"). "extra" is not added:
 * the evaluator defaults it. */
int tg_marker_env_default(struct tg_marker_env *env,
			  const struct tg_marker_python *py,
			  const struct tg_marker_uname *u, struct tg_err *err);

/* Add to env each variable of from that env does not have, as
 * default_environment().update(env) would; copies. */
int tg_marker_env_fill(struct tg_marker_env *env,
		       const struct tg_marker_env *from, struct tg_err *err);

#endif
