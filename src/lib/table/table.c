/* table.c - the API table: loading, schema checks and lookups
 * SPDX-License-Identifier: MIT
 *
 * This module owns the loaded table: read strictly against
 * data/apis.schema.json (every field type-checked, unknown fields
 * rejected, a problem located by line and column), sorted by id for
 * bsearch. The default table is this loader's result written out at
 * build time (src/tools/gentable). What an entry means for a torch
 * version is api.c's; the strict reader under the loader is tload.c's,
 * the exclusion list excluded.c's.
 */
#include "lib/table/table.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pep/version.h"
#include "lib/util/file.h"
#include "lib/util/json.h"
#include "lib/util/scan.h"
#include "lib/util/str.h"
#include "lib/table/tload.h"

/* The built-in table: src/tools/gentable loads data/apis.json with this
 * loader at build time and writes the result as C initializers
 * (apis_table.c, in an archive of its own, libtgtable.a, so that the
 * generator can link the library; it defines an empty placeholder):
 * start-up parses no JSON. Sorted by id; is_static set. */
extern const struct tg_table tg_builtin_table;

static void
event_release(struct tg_event *e)
{
	free(e->version);
	tg_version_release(&e->ver);
	free(e->after);
	tg_version_release(&e->after_ver);
	free(e->note);
	free(e->withdrawn);
	tg_version_release(&e->withdrawn_ver);
	free(e->announced_by);
	tg_version_release(&e->announced_ver);
}

void
tg_table_release(struct tg_table *t)
{
	size_t k;

	for (k = 0; !t->is_static && k < t->n; k++) {
		struct tg_api *a = &t->apis[k];

		free(a->id);
		free(a->kind);
		event_release(&a->introduced);
		event_release(&a->deprecated);
		event_release(&a->removed);
		free(a->repl_id);
		free(a->repl_text);
		free(a->repl_since);
		free(a->fix.to);
		free(a->fix.replace_from);
		free(a->fix.replace_to);
		free(a->fix.insert);
		free(a->fix.note);
		tg_version_release(&a->repl_since_ver);
		free(a->warn_category);
		free(a->warn_message);
		free(a->warn_since);
		tg_version_release(&a->warn_since_ver);
		tg_tload_strings_free(a->files, a->nfiles);
		free(a->presence);
		free(a->deprecation);
		free(a->removal);
		tg_tload_strings_free(a->usage, a->nusage);
		tg_tload_strings_free(a->refs, a->nrefs);
		free(a->notes);
	}
	if (!t->is_static) {
		free(t->apis);
		free(t->description);
		free(t->table_version);
	}
	memset(t, 0, sizeof(*t));
}

static const char *const fact_names[] = {"verified", "inferred", "unverified",
					 NULL};

static int
get_event(struct tg_tload *L, const struct tg_json *entry, const char *key,
	  struct tg_event *ev)
{
	static const char *const allowed[] = {
	    "version", "bound",	    "after",	    "status",
	    "note",    "withdrawn", "announced_by", NULL};
	static const char *const required[] = {"version", "bound", "status",
					       "note", NULL};
	static const char *const bounds[] = {"exact", "at-or-before", "before",
					     "between", NULL};
	const struct tg_json *obj = tg_json_get(entry, key);
	int rc, b = 0, f = 0;

	tg_tload_enter(L, key);
	rc = tg_tload_check_keys(L, obj, allowed, required, key);
	if (!rc)
		rc = tg_tload_get_version(L, obj, "version", &ev->version,
					  &ev->ver);
	if (!rc)
		rc = tg_tload_get_enum(L, obj, "bound", bounds, &b);
	if (!rc && (b == TG_BOUND_BETWEEN) != !!tg_json_get(obj, "after"))
		rc = tg_tload_fail(L, "%s",
				   b == TG_BOUND_BETWEEN
				       ? "bound \"between\" needs \"after\""
				       : "only bound \"between\" may have "
					 "\"after\"");
	if (!rc && b == TG_BOUND_BETWEEN && !ev->version)
		rc = tg_tload_fail(L, "bound \"between\" needs a version");
	if (!rc && b == TG_BOUND_BETWEEN)
		rc = tg_tload_get_version(L, obj, "after", &ev->after,
					  &ev->after_ver);
	if (!rc && b == TG_BOUND_BETWEEN && !ev->after) {
		tg_tload_enter(L, "after");
		rc = tg_tload_fail(L, "expected a string for \"after\"");
		L->depth--;
	}
	if (!rc && ev->after && tg_version_cmp(&ev->after_ver, &ev->ver) >= 0) {
		tg_tload_enter(L, "after");
		rc = tg_tload_fail(L, "after %s is not before version %s",
				   ev->after, ev->version);
		L->depth--;
	}
	if (!rc)
		rc = tg_tload_get_enum(L, obj, "status", fact_names, &f);
	if (!rc)
		rc = tg_tload_get_str(L, obj, "note", 0, &ev->note);
	if (!rc && tg_json_get(obj, "withdrawn"))
		rc = tg_tload_get_version(L, obj, "withdrawn", &ev->withdrawn,
					  &ev->withdrawn_ver);
	if (!rc && tg_json_get(obj, "announced_by"))
		rc =
		    tg_tload_get_version(L, obj, "announced_by",
					 &ev->announced_by, &ev->announced_ver);
	if (!rc && (ev->withdrawn || ev->announced_by) &&
	    strcmp(key, "deprecated") != 0)
		rc = tg_tload_fail(L,
				   "only \"deprecated\" may have withdrawn or "
				   "announced_by");
	ev->bound = (enum tg_bound)b;
	ev->status = (enum tg_fact)f;
	L->depth--;
	return rc;
}

static int
get_regex(struct tg_tload *L, const struct tg_json *obj, const char *key,
	  char **out)
{
	char msg[256];
	size_t off;
	int rc = tg_tload_get_str(L, obj, key, 1, out), r = 0;

	if (!rc && *out && L->strict &&
	    (r = tg_scan_pattern_check(*out, &off, msg, sizeof(msg))) ==
		TG_ENOMEM) {
		rc = tg_err_set(L->err, r, "out of memory reading '%s'",
				L->name);
	} else if (!rc && *out && L->strict && r) {
		tg_tload_enter(L, key);
		rc =
		    tg_tload_fail(L, "bad pattern for \"%s\" at offset %zu: %s",
				  key, off, msg);
		L->depth--;
	}
	return rc;
}

/* 1 when path has a ".." segment */
static int
has_dotdot(const char *path)
{
	const char *p = path;

	while ((p = strstr(p, ".."))) {
		if ((p == path || p[-1] == '/') && (p[2] == '/' || !p[2]))
			return 1;
		p += 2;
	}
	return 0;
}

/* A small non-negative integer member or null (*out -1). */
static int
get_count(struct tg_tload *L, const struct tg_json *obj, const char *key,
	  long *out)
{
	const struct tg_json *v = tg_json_get(obj, key);
	double d = tg_json_number(v);
	int rc = 0;

	*out = -1;
	tg_tload_enter(L, key);
	if (tg_json_is_number(v) && d >= 0 && d <= 255 && d == (double)(long)d)
		*out = (long)d;
	else if (!tg_json_is_null(v))
		rc = tg_tload_fail(
		    L, "expected an integer from 0 to 255 or null for \"%s\"",
		    key);
	L->depth--;
	return rc;
}

static int
ident_byte(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Whether s is a keyword argument: a name, '=', not "==". */
static int
is_keyword_arg(const char *s)
{
	const char *p = s;

	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
	      *p == '_'))
		return 0;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
	       (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	return p[0] == '=' && p[1] != '=' && p[1] != '\0';
}

/* A member that is one non-empty line of text, into *out. */
static int
get_line(struct tg_tload *L, const struct tg_json *obj, const char *key,
	 char **out)
{
	int rc = tg_tload_get_str(L, obj, key, 0, out);

	if (!rc && (!**out || strpbrk(*out, "\r\n"))) {
		tg_tload_enter(L, key);
		rc = tg_tload_fail(L, "\"%s\" must be one non-empty line", key);
		L->depth--;
	}
	return rc;
}

/* The length of the Python literal at s (a string in single or double
 * quotes without a backslash or its own quote inside, a decimal number,
 * True, False, None), or 0. */
static size_t
py_literal(const char *s)
{
	static const char *const words[] = {"True", "False", "None", NULL};
	size_t k, n;

	if (*s == '"' || *s == '\'') {
		for (k = 1; s[k] && s[k] != *s && s[k] != '\\'; k++)
			;
		return s[k] == *s ? k + 1 : 0;
	}
	k = *s == '-';
	if (s[k] >= '0' && s[k] <= '9') {
		while ((s[k] >= '0' && s[k] <= '9') || s[k] == '.' ||
		       s[k] == '_')
			k++;
		return k;
	}
	for (k = 0; words[k]; k++) {
		n = strlen(words[k]);
		if (strncmp(s, words[k], n) == 0 && !ident_byte(s[n]))
			return n;
	}
	return 0;
}

/* Whether a Python entry's inserted text is a literal, or keyword
 * arguments name=literal separated by ", " (one or more): the fix
 * inserts data, never code of the table's choosing. */
static int
py_insert_ok(const char *s)
{
	size_t n;

	if (!is_keyword_arg(s)) {
		n = py_literal(s);
		return n && s[n] == '\0';
	}
	for (;;) {
		if (!is_keyword_arg(s))
			return 0;
		s = strchr(s, '=') + 1;
		if (!(n = py_literal(s)))
			return 0;
		s += n;
		if (*s == '\0')
			return 1;
		if (s[0] != ',' || s[1] != ' ')
			return 0;
		s += 2;
	}
}

/* Whether a C++ entry's inserted text is a literal: true, false,
 * nullptr, a decimal number, or a string or character literal without a
 * backslash or its own quote inside (what TORCH_CHECK(false, ...)
 * needs): the fix inserts data, never code of the table's choosing. */
static int
cxx_insert_ok(const char *s)
{
	static const char *const words[] = {"true", "false", "nullptr", NULL};
	size_t k;

	for (k = 0; words[k]; k++)
		if (strcmp(s, words[k]) == 0)
			return 1;
	if (*s == '"' || *s == '\'') {
		for (k = 1; s[k] && s[k] != *s && s[k] != '\\'; k++)
			;
		return s[k] == *s && s[k + 1] == '\0';
	}
	k = *s == '-';
	if (!(s[k] >= '0' && s[k] <= '9'))
		return 0;
	while ((s[k] >= '0' && s[k] <= '9') || s[k] == '.')
		k++;
	return s[k] == '\0';
}

/* How many empty calls "()" a C++ replace text holds, when it is a
 * chain of names: NAME ('::' NAME | '.' NAME | '()')*, nothing else (no
 * blank, no argument, no operator); -1 when it is not one. */
static int
cxx_chain_calls(const char *s)
{
	int calls = 0, name = 1;

	while (*s) {
		if (name) {
			if (!((*s >= 'A' && *s <= 'Z') ||
			      (*s >= 'a' && *s <= 'z') || *s == '_'))
				return -1;
			while (ident_byte(*s))
				s++;
			name = 0;
		} else if (s[0] == '(' && s[1] == ')') {
			s += 2;
			calls++;
		} else if (s[0] == ':' && s[1] == ':') {
			s += 2;
			name = 1;
		} else if (s[0] == '.') {
			s++;
			name = 1;
		} else
			return -1;
	}
	return name ? -1 : calls;
}

/* Whether a C++ entry's replace is a rename: from and to chains of
 * names (cxx_chain_calls), to calling no more than from does
 * (scalarType() -> scalar_type(), data -> data_ptr), so that a table
 * cannot write a call of its choosing. */
static int
cxx_replace_ok(const char *from, const char *to)
{
	int f = cxx_chain_calls(from), t = cxx_chain_calls(to);

	return f >= 0 && t >= 0 && t <= f;
}

/* The entry's "fix": null, or how audit --fix rewrites a use. The rules
 * across members (to, replace or insert; a note for unsafe; bare "call"
 * only with insert; at null exactly for a keyword) and across languages
 * (replace for C++ only; bare "call" and keywords for Python only; a C++
 * "to" written as a name must be one) are checked here, "to" naming an
 * entry of the table in cross_check. */
static int
get_fix(struct tg_tload *L, const struct tg_json *e, struct tg_api *a)
{
	static const char *const keys[] = {
	    "applicability", "to", "replace", "insert", "bare", "note", NULL};
	static const char *const ins_keys[] = {"at", "text", "max_positional",
					       NULL};
	static const char *const rep_keys[] = {"from", "to", NULL};
	static const char *const apps[] = {"safe", "unsafe", NULL};
	static const char *const bares[] = {"call", NULL};
	const struct tg_json *o = tg_json_get(e, "fix"), *ins, *rep;
	struct tg_api_fix *x = &a->fix;
	int rc, app = 0, bare = 0;

	if (tg_json_is_null(o))
		return 0;
	tg_tload_enter(L, "fix");
	rc = tg_tload_check_keys(L, o, keys, keys, "fix");
	if (!rc)
		rc = tg_tload_get_enum(L, o, "applicability", apps, &app);
	if (!rc)
		rc = tg_tload_get_str(L, o, "to", 1, &x->to);
	rep = tg_json_get(o, "replace");
	/* with replace, "to" only names the entry that decides the floor,
	 * written nowhere: any id, C++ names included */
	if (!rc && x->to &&
	    (!tg_tload_check_id(x->to) ||
	     (strstr(x->to, "::") && tg_json_is_null(rep)))) {
		tg_tload_enter(L, "to");
		rc = tg_tload_fail(L, "\"%s\" is not a dotted name", x->to);
		L->depth--;
	}
	if (!rc && !tg_json_is_null(rep)) {
		tg_tload_enter(L, "replace");
		rc = tg_tload_check_keys(L, rep, rep_keys, rep_keys, "replace");
		if (!rc)
			rc = get_line(L, rep, "from", &x->replace_from);
		if (!rc)
			rc = get_line(L, rep, "to", &x->replace_to);
		if (!rc && a->lang == TG_LANG_CXX &&
		    !cxx_replace_ok(x->replace_from, x->replace_to))
			rc = tg_tload_fail(
			    L, "\"from\" and \"to\" must be C++ names joined "
			       "by '::' or '.', each maybe followed by '()', "
			       "\"to\" with no more '()' than \"from\"");
		L->depth--;
	}
	x->at = x->max_positional = -1;
	ins = tg_json_get(o, "insert");
	if (!rc && !tg_json_is_null(ins)) {
		tg_tload_enter(L, "insert");
		rc = tg_tload_check_keys(L, ins, ins_keys, ins_keys, "insert");
		if (!rc)
			rc = get_line(L, ins, "text", &x->insert);
		if (!rc && a->lang == TG_LANG_PYTHON &&
		    !py_insert_ok(x->insert)) {
			tg_tload_enter(L, "text");
			rc = tg_tload_fail(L,
					   "\"text\" must be a Python literal "
					   "(a string without backslashes, a "
					   "number, True, False, None) or "
					   "NAME=literal, ...");
			L->depth--;
		}
		if (!rc && a->lang == TG_LANG_CXX &&
		    !cxx_insert_ok(x->insert)) {
			tg_tload_enter(L, "text");
			rc = tg_tload_fail(L,
					   "\"text\" must be a C++ literal "
					   "(true, false, nullptr, a number, a "
					   "string without backslashes)");
			L->depth--;
		}
		if (!rc)
			rc = get_count(L, ins, "at", &x->at);
		if (!rc)
			rc = get_count(L, ins, "max_positional",
				       &x->max_positional);
		if (!rc) {
			x->insert_kw = is_keyword_arg(x->insert);
			if (x->insert_kw != (x->at < 0)) {
				tg_tload_enter(L, "at");
				rc = tg_tload_fail(
				    L, "%s",
				    x->insert_kw
					? "\"at\" must be null for a keyword "
					  "argument"
					: "\"at\" must be an integer for a "
					  "positional argument");
				L->depth--;
			}
		}
		L->depth--;
	}
	if (!rc && !tg_json_is_null(tg_json_get(o, "bare")))
		rc = tg_tload_get_enum(L, o, "bare", bares, &bare);
	if (!rc)
		rc = tg_tload_get_str(L, o, "note", 1, &x->note);
	if (!rc && x->note && !*x->note) {
		tg_tload_enter(L, "note");
		rc = tg_tload_fail(L, "\"note\" must not be empty");
		L->depth--;
	}
	if (!rc) {
		x->unsafe = app == 1;
		x->bare_call = !tg_json_is_null(tg_json_get(o, "bare"));
		if (!x->to && !x->insert && !x->replace_from)
			rc = tg_tload_fail(L, "a fix needs \"to\", \"replace\" "
					      "or \"insert\"");
		else if (x->unsafe && !x->note)
			rc = tg_tload_fail(L, "an unsafe fix needs a \"note\"");
		else if (x->bare_call && !x->insert)
			rc = tg_tload_fail(L, "bare \"call\" needs \"insert\"");
		else if (x->to && strcmp(x->to, a->id) == 0)
			rc = tg_tload_fail(L, "\"to\" is the entry itself");
		else if (a->lang == TG_LANG_PYTHON && x->replace_from)
			rc = tg_tload_fail(L, "\"replace\" is for C++ entries "
					      "only");
		else if (a->lang == TG_LANG_CXX && x->bare_call)
			rc = tg_tload_fail(L, "bare \"call\" is for Python "
					      "entries only");
		else if (a->lang == TG_LANG_CXX && x->insert_kw)
			rc = tg_tload_fail(L, "a C++ call has no keyword "
					      "arguments: \"at\" must be an "
					      "integer");
		else if (a->lang == TG_LANG_CXX && x->to && !x->replace_from &&
			 strchr(x->to, '.'))
			rc = tg_tload_fail(L, "\"to\" is written in place of "
					      "the entry's name: without "
					      "\"replace\" it must be a "
					      "C++ name");
	}
	x->has = !rc;
	L->depth--;
	return rc;
}

static int
load_entry(struct tg_tload *L, const struct tg_json *e, struct tg_api *a)
{
	static const char *const allowed[] = {
	    "id",	  "language", "kind",	     "private", "introduced",
	    "deprecated", "removed",  "replacement", "fix",	"warning",
	    "evidence",	  "usage",    "references",  "notes",	NULL};
	static const char *const kinds[] = {"module",
					    "class",
					    "function",
					    "method",
					    "attribute",
					    "decorator",
					    "context-manager",
					    "parameter",
					    "macro",
					    "header",
					    "type",
					    "enum",
					    "constant",
					    "behavior",
					    "build",
					    NULL};
	static const char *const langs[] = {
	    [TG_LANG_PYTHON] = "python", [TG_LANG_CXX] = "c++", NULL};
	static const char *const repl_keys[] = {"id", "text", "since", "status",
						NULL};
	static const char *const warn_keys[] = {"category", "message", "since",
						"status", NULL};
	static const char *const warn_cats[] = {
	    "FutureWarning",	  "DeprecationWarning",
	    "UserWarning",	  "RuntimeWarning",
	    "TORCH_WARN",	  "TORCH_WARN_DEPRECATION",
	    "C++ [[deprecated]]", "C10_DEPRECATED_MESSAGE",
	    "compile error",	  NULL};
	static const char *const ev_keys[] = {"files", "presence",
					      "deprecation", "removal", NULL};
	const struct tg_json *o, *v;
	int rc, lang = 0, kind = 0, f = 0, cat;
	size_t k;

	v = tg_json_get(e, "id");
	L->entry = tg_json_is_string(v) ? tg_json_string(v) : NULL;
	rc = tg_tload_check_keys(L, e, allowed, allowed,
				 L->entry ? NULL : "an entry");
	if (!rc)
		rc = tg_tload_get_str(L, e, "id", 0, &a->id);
	if (!rc && !tg_tload_check_id(a->id)) {
		tg_tload_enter(L, "id");
		rc = tg_tload_fail(L, "\"%s\" is not a valid id", a->id);
		L->depth--;
	}
	if (!rc)
		rc = tg_tload_get_enum(L, e, "language", langs, &lang);
	if (!rc)
		rc = tg_tload_get_enum(L, e, "kind", kinds, &kind);
	if (!rc) {
		a->lang = (enum tg_lang_id)lang;
		a->kind = strdup(kinds[kind]);
		if (!a->kind)
			rc = tg_err_set(L->err, TG_ENOMEM, "out of memory");
		v = tg_json_get(e, "private");
		tg_tload_enter(L, "private");
		if (!rc && !tg_json_is_bool(v))
			rc = tg_tload_fail(
			    L, "expected true or false for \"private\"");
		a->is_private = tg_json_is_true(v);
		L->depth--;
	}
	if (!rc)
		rc = get_event(L, e, "introduced", &a->introduced);
	if (!rc)
		rc = get_event(L, e, "deprecated", &a->deprecated);
	if (!rc)
		rc = get_event(L, e, "removed", &a->removed);
	if (!rc) {
		o = tg_json_get(e, "replacement");
		tg_tload_enter(L, "replacement");
		rc = tg_tload_check_keys(L, o, repl_keys, repl_keys,
					 "replacement");
		if (!rc)
			rc = tg_tload_get_str(L, o, "id", 1, &a->repl_id);
		if (!rc)
			rc = tg_tload_get_str(L, o, "text", 1, &a->repl_text);
		if (!rc)
			rc = tg_tload_get_version(L, o, "since", &a->repl_since,
						  &a->repl_since_ver);
		if (!rc)
			rc = tg_tload_get_enum(L, o, "status", fact_names, &f);
		a->repl_status = (enum tg_fact)f;
		L->depth--;
	}
	if (!rc)
		rc = get_fix(L, e, a);
	if (!rc) {
		o = tg_json_get(e, "warning");
		tg_tload_enter(L, "warning");
		rc = tg_tload_check_keys(L, o, warn_keys, warn_keys, "warning");
		v = tg_json_get(o, "category");
		if (!rc && !tg_json_is_null(v))
			rc = tg_tload_get_enum(L, o, "category", warn_cats,
					       &cat);
		if (!rc && !tg_json_is_null(v) &&
		    !(a->warn_category = strdup(warn_cats[cat])))
			rc = tg_err_set(L->err, TG_ENOMEM, "out of memory");
		if (!rc)
			rc = tg_tload_get_str(L, o, "message", 1,
					      &a->warn_message);
		if (!rc)
			rc = tg_tload_get_version(L, o, "since", &a->warn_since,
						  &a->warn_since_ver);
		if (!rc)
			rc = tg_tload_get_enum(L, o, "status", fact_names, &f);
		a->warn_status = (enum tg_fact)f;
		L->depth--;
	}
	if (!rc) {
		o = tg_json_get(e, "evidence");
		tg_tload_enter(L, "evidence");
		rc = tg_tload_check_keys(L, o, ev_keys, ev_keys, "evidence");
		if (!rc)
			rc = tg_tload_get_strings(L, o, "files", &a->files,
						  &a->nfiles);
		for (k = 0; !rc && k < a->nfiles; k++)
			if (strncmp(a->files[k], "torch/", 6) != 0 ||
			    has_dotdot(a->files[k]) ||
			    strpbrk(a->files[k], " \t\n\r\f\v")) {
				tg_tload_enter(L, "files");
				rc = tg_tload_fail(
				    L, "\"%s\" is not a path under torch/",
				    a->files[k]);
				L->depth--;
			}
		if (!rc)
			rc = get_regex(L, o, "presence", &a->presence);
		if (!rc)
			rc = get_regex(L, o, "deprecation", &a->deprecation);
		if (!rc)
			rc = get_regex(L, o, "removal", &a->removal);
		L->depth--;
	}
	if (!rc)
		rc = tg_tload_get_strings(L, e, "usage", &a->usage, &a->nusage);
	for (k = 0; !rc && L->strict && k < a->nusage; k++) {
		char msg[256];
		size_t off;
		int r =
		    tg_scan_pattern_check(a->usage[k], &off, msg, sizeof(msg));

		if (r == TG_ENOMEM) {
			rc = tg_err_set(L->err, r, "out of memory reading '%s'",
					L->name);
		} else if (r) {
			tg_tload_enter(L, "usage");
			rc = tg_tload_fail(
			    L, "bad pattern in \"usage\" at offset %zu: %s",
			    off, msg);
			L->depth--;
		}
	}
	if (!rc)
		rc = tg_tload_get_strings(L, e, "references", &a->refs,
					  &a->nrefs);
	if (!rc)
		rc = tg_tload_get_str(L, e, "notes", 0, &a->notes);
	return rc;
}

static int
at_entry(struct tg_tload *L, const struct tg_table *t, size_t i, const char *k1,
	 const char *k2)
{
	L->entry = t->apis[i].id;
	L->depth = 0;
	tg_tload_enter(L, "entries");
	L->path[L->depth].key = NULL;
	L->path[L->depth].index = (long)i;
	L->depth++;
	tg_tload_enter(L, k1);
	if (k2)
		tg_tload_enter(L, k2);
	return 0;
}

static int
by_id_ptr(const void *a, const void *b)
{
	return strcmp((*(const struct tg_api *const *)a)->id,
		      (*(const struct tg_api *const *)b)->id);
}

/* What one entry alone cannot tell: unique ids, known replacement ids,
 * introduced <= deprecated <= removed, a withdrawal after its
 * deprecation. Ids are looked up in a sorted copy: n log n. */
static int
cross_check(struct tg_tload *L, const struct tg_table *t)
{
	const struct tg_api **sorted = malloc(t->n * sizeof(*sorted));
	size_t i;
	int rc = 0;

	if (!sorted)
		return tg_err_set(L->err, TG_ENOMEM, "out of memory");
	for (i = 0; i < t->n; i++)
		sorted[i] = &t->apis[i];
	qsort(sorted, t->n, sizeof(*sorted), by_id_ptr);
	for (i = 1; i < t->n && !rc; i++)
		if (strcmp(sorted[i - 1]->id, sorted[i]->id) == 0) {
			size_t later = (size_t)(sorted[i] > sorted[i - 1]
						    ? sorted[i] - t->apis
						    : sorted[i - 1] - t->apis);

			at_entry(L, t, later, "id", NULL);
			rc = tg_tload_fail(L, "duplicate id \"%s\"",
					   sorted[i]->id);
		}
	for (i = 0; i < t->n && !rc; i++) {
		const struct tg_api *a = &t->apis[i], key = {.id = a->repl_id},
				    *kp = &key;
		const struct tg_api fkey = {.id = a->fix.to}, *fkp = &fkey;

		if (a->repl_id &&
		    !bsearch(&kp, sorted, t->n, sizeof(*sorted), by_id_ptr)) {
			at_entry(L, t, i, "replacement", "id");
			rc = tg_tload_fail(
			    L, "replacement \"%s\" is not in the table",
			    a->repl_id);
		} else if (a->fix.to && !bsearch(&fkp, sorted, t->n,
						 sizeof(*sorted), by_id_ptr)) {
			at_entry(L, t, i, "fix", "to");
			rc = tg_tload_fail(L, "fix \"%s\" is not in the table",
					   a->fix.to);
		} else if (a->introduced.version && a->deprecated.version &&
			   tg_version_cmp(&a->deprecated.ver,
					  &a->introduced.ver) < 0) {
			at_entry(L, t, i, "deprecated", "version");
			rc = tg_tload_fail(
			    L, "deprecated %s before introduced %s",
			    a->deprecated.version, a->introduced.version);
		} else if (a->deprecated.withdrawn &&
			   (!a->deprecated.version ||
			    tg_version_cmp(&a->deprecated.withdrawn_ver,
					   &a->deprecated.ver) < 0)) {
			at_entry(L, t, i, "deprecated", "withdrawn");
			rc = tg_tload_fail(L, "withdrawn %s before deprecated",
					   a->deprecated.withdrawn);
		} else if (a->removed.version &&
			   ((a->introduced.version &&
			     tg_version_cmp(&a->removed.ver,
					    &a->introduced.ver) < 0) ||
			    (a->deprecated.version &&
			     tg_version_cmp(&a->removed.ver,
					    &a->deprecated.ver) < 0))) {
			at_entry(L, t, i, "removed", "version");
			rc = tg_tload_fail(
			    L,
			    "removed %s before it was introduced or "
			    "deprecated",
			    a->removed.version);
		}
	}
	free(sorted);
	return rc;
}

/* YYYY.MM.DD[.N]: a real month and day, N without leading zeros. */
int
tg_table_version_valid(const char *s)
{
	int y, m, d;

	if (strspn(s, "0123456789") != 4 || s[4] != '.' ||
	    strspn(s + 5, "0123456789") != 2 || s[7] != '.' ||
	    strspn(s + 8, "0123456789") != 2)
		return 0;
	y = atoi(s);
	m = atoi(s + 5);
	d = atoi(s + 8);
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > 31)
		return 0;
	s += 10;
	if (!*s)
		return 1;
	if (*s != '.' || !s[1] || (s[1] == '0' && s[2]) ||
	    strspn(s + 1, "0123456789") != strlen(s + 1) || strlen(s + 1) > 9)
		return 0;
	return 1;
}

int
tg_table_version_cmp(const char *a, const char *b)
{
	int k;

	if (!a || !b)
		return !a && !b ? 0 : a ? 1 : -1;
	for (k = 0; k < 4; k++) {
		long x = strtol(a, NULL, 10), y = strtol(b, NULL, 10);

		if (x != y)
			return x < y ? -1 : 1;
		a += strspn(a, "0123456789");
		b += strspn(b, "0123456789");
		a += *a == '.';
		b += *b == '.';
	}
	return 0;
}

static int
load_table(struct tg_table *t, const char *text, size_t len, const char *name,
	   int strict, struct tg_err *err)
{
	static const char *const top[] = {"schema_version", "table_version",
					  "description", "entries", NULL};
	static const char *const top_req[] = {"schema_version", "entries",
					      NULL};
	struct tg_tload L = {text,	  len, name, err,
			     {{NULL, 0}}, 0,   NULL, strict};
	struct tg_json *root = NULL;
	const struct tg_json *it, *v;
	int rc = 0;
	size_t n = 0, pos = 0, line, col;

	memset(t, 0, sizeof(*t));
	if ((rc = tg_json_parse(&root, text, len, &pos))) {
		if (rc == TG_ENOMEM)
			return tg_err_set(err, rc, "out of memory reading '%s'",
					  name);
		tg_json_line_col(text, len, pos, &line, &col);
		return tg_err_set_at(err, TG_EINVAL, pos,
				     "cannot parse '%s': line %zu, column "
				     "%zu: not valid JSON",
				     name, line, col);
	}
	rc = tg_tload_check_keys(&L, root, top, top_req, "the table");
	v = tg_json_get(root, "schema_version");
	if (!rc && !(tg_json_is_number(v) && tg_json_number(v) == 1)) {
		tg_tload_enter(&L, "schema_version");
		rc = tg_tload_fail(&L, "schema_version must be 1");
		L.depth--;
	}
	v = tg_json_get(root, "table_version");
	if (!rc && v)
		rc = tg_tload_get_str(&L, root, "table_version", 0,
				      &t->table_version);
	if (!rc && t->table_version &&
	    !tg_table_version_valid(t->table_version)) {
		tg_tload_enter(&L, "table_version");
		rc = tg_tload_fail(
		    &L, "\"%s\" is not a table version YYYY.MM.DD[.N]",
		    t->table_version);
		L.depth--;
	}
	v = tg_json_get(root, "description");
	if (!rc && v)
		rc = tg_tload_get_str(&L, root, "description", 0,
				      &t->description);
	v = tg_json_get(root, "entries");
	if (!rc && (!tg_json_is_array(v) || tg_json_size(v) == 0)) {
		tg_tload_enter(&L, "entries");
		rc = tg_tload_fail(&L, "\"entries\" must be a non-empty array");
		L.depth--;
	}
	if (!rc) {
		t->apis = calloc((size_t)tg_json_size(v), sizeof(*t->apis));
		if (!t->apis)
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	tg_tload_enter(&L, "entries");
	for (it = tg_json_child(v); it; it = tg_json_next(it)) {
		if (rc)
			break;
		L.path[L.depth].key = NULL;
		L.path[L.depth].index = (long)n;
		L.depth++;
		rc = load_entry(&L, it, &t->apis[n]);
		if (!rc)
			L.entry = NULL;
		t->n = ++n;
		L.depth--;
	}
	L.depth--;
	if (!rc)
		rc = cross_check(&L, t);
	tg_json_free(root);
	if (rc)
		tg_table_release(t);
	return rc;
}

static int
by_id(const void *a, const void *b)
{
	return strcmp(((const struct tg_api *)a)->id,
		      ((const struct tg_api *)b)->id);
}

static int
parse(struct tg_table *t, const char *text, size_t len, const char *name,
      int strict, struct tg_err *err)
{
	int rc = load_table(t, text, len, name, strict, err);

	if (!rc && t->n > 1)
		qsort(t->apis, t->n, sizeof(*t->apis), by_id);
	return rc;
}

int
tg_table_parse(struct tg_table *t, const char *text, size_t len,
	       const char *name, struct tg_err *err)
{
	return parse(t, text, len, name, 1, err);
}

int
tg_table_load(struct tg_table *t, const char *path, struct tg_err *err)
{
	char *text = NULL;
	size_t len;
	int rc;

	memset(t, 0, sizeof(*t));
	rc = tg_file_read(path, TG_TABLE_MAX, &text, &len, NULL, err);
	if (rc)
		return rc;
	rc = tg_table_parse(t, text, len, path, err);
	free(text);
	return rc;
}

int
tg_table_default(struct tg_table *t, struct tg_err *err)
{
	(void)err;
	/* data/apis.json as the strict loader read it at build time (its
	 * patterns and keys checked there): one struct copied, nothing
	 * parsed or allocated; make check compares it with the JSON loaded
	 * at run time, every member (tests/unit/test_builtin.c) */
	*t = tg_builtin_table;
	return 0;
}

const struct tg_api *
tg_table_find(const struct tg_table *t, const char *id)
{
	struct tg_api key;

	if (!t->n)
		return NULL;
	key.id = (char *)id;
	return bsearch(&key, t->apis, t->n, sizeof(*t->apis), by_id);
}

/* The newer of *best and (s, v); s NULL: none. */
static void
newer(const char **best, const struct tg_version **bestv, const char *s,
      const struct tg_version *v)
{
	if (s && (!*best || tg_version_cmp(v, *bestv) > 0)) {
		*best = s;
		*bestv = v;
	}
}

static const char *
newest(const struct tg_table *t, const struct tg_version **bestv)
{
	const char *best = NULL;
	size_t k;

	*bestv = NULL;
	for (k = 0; k < t->n; k++) {
		const struct tg_api *a = &t->apis[k];

		newer(&best, bestv, a->introduced.version, &a->introduced.ver);
		newer(&best, bestv, a->deprecated.version, &a->deprecated.ver);
		newer(&best, bestv, a->deprecated.withdrawn,
		      &a->deprecated.withdrawn_ver);
		newer(&best, bestv, a->removed.version, &a->removed.ver);
		newer(&best, bestv, a->repl_since, &a->repl_since_ver);
		newer(&best, bestv, a->warn_since, &a->warn_since_ver);
	}
	return best;
}

const char *
tg_table_newest(const struct tg_table *t)
{
	const struct tg_version *v;

	return newest(t, &v);
}

int
tg_table_newest_version(const struct tg_table *t, struct tg_version *v,
			struct tg_err *err)
{
	const struct tg_version *nv;
	const char *s = newest(t, &nv);

	if (!s)
		return tg_err_set(err, TG_ENOENT,
				  "the table names no torch version");
	/* the loader parsed it: only memory can fail */
	if (tg_version_parse(v, s, strlen(s), NULL))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	return 0;
}

int
tg_table_is_past(const struct tg_table *t, const struct tg_version *v)
{
	const struct tg_version *np;
	struct tg_version n, cut;
	size_t k;
	int past = 0;

	if (!newest(t, &np))
		return 0;
	n = *np;
	cut = *v;
	cut.pre = TG_PRE_NONE;
	cut.has_post = cut.has_dev = 0;
	cut.nlocal = 0;
	if (cut.nrelease > n.nrelease)
		cut.nrelease = n.nrelease;
	/* compared as releases: the number of segments cut, nothing else */
	past = tg_version_num_cmp(cut.epoch, n.epoch) > 0;
	if (tg_version_num_cmp(cut.epoch, n.epoch) == 0) {
		for (k = 0; k < n.nrelease; k++) {
			static const struct tg_num zero = {"0", 1};
			struct tg_num x =
			    k < cut.nrelease ? cut.release[k] : zero;
			int c = tg_version_num_cmp(x, n.release[k]);

			if (c) {
				past = c > 0;
				break;
			}
		}
	}
	return past;
}

/* The last component of an id: after its last '.' or "::". */
static const char *
last_component(const char *id)
{
	const char *p, *last = id;

	for (p = id; *p; p++)
		if (*p == '.' || (*p == ':' && p[1] == ':'))
			last = p + (*p == '.' ? 1 : 2);
	return last;
}

size_t
tg_table_suggest(const struct tg_table *t, const char *id, const char **out,
		 size_t max)
{
	const char *last = last_component(id);
	size_t k, n = 0, limit, d, bestd;

	for (k = 0; k < t->n && n < max; k++)
		if (*last && strcmp(last_component(t->apis[k].id), last) == 0)
			out[n++] = t->apis[k].id;
	if (n)
		return n;
	/* close spellings: the smallest distance within a third of the
	 * id's length, every id at that distance (up to max) */
	limit = (strlen(id) + 2) / 3;
	bestd = SIZE_MAX;
	for (k = 0; k < t->n; k++) {
		d = tg_str_distance(id, t->apis[k].id, limit);
		if (d != SIZE_MAX && d <= limit && d < bestd)
			bestd = d;
	}
	if (bestd == SIZE_MAX || bestd == 0)
		return 0;
	for (k = 0; k < t->n && n < max; k++)
		if (tg_str_distance(id, t->apis[k].id, limit) == bestd)
			out[n++] = t->apis[k].id;
	return n;
}
