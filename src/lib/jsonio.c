/* jsonio.c - the JSON edge: the one module that includes cJSON
 * SPDX-License-Identifier: MIT
 *
 * cJSON stays inside this file; callers get our own structs. Input is
 * bounded by the caller; nesting is bounded by cJSON (CJSON_NESTING_LIMIT).
 */
#include "lib/jsonio.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/scan.h"
#include "lib/table.h"
#include "lib/version.h"

int
tg_json_marker_env(struct tg_marker_env *env, const char *text, size_t len,
		   struct tg_err *err)
{
	const char *end = NULL;
	cJSON *root, *it, *el;
	const char **items = NULL;
	size_t n;
	int rc = 0;

	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	while (root && end && end < text + len &&
	       (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
		end++;
	if (root && end != text + len) {
		cJSON_Delete(root);
		root = NULL;
	}
	if (!root)
		return tg_err_set(err, TG_EINVAL,
				  "marker environment is not valid JSON (at "
				  "byte %zu)",
				  end ? (size_t)(end - text) : (size_t)0);
	if (!cJSON_IsObject(root)) {
		rc = tg_err_set(err, TG_EINVAL,
				"marker environment must be a JSON object");
		goto out;
	}
	cJSON_ArrayForEach(it, root) {
		int set = strcmp(it->string, "extras") == 0 ||
			  strcmp(it->string, "dependency_groups") == 0;

		if (cJSON_IsString(it)) {
			rc = tg_marker_env_set(env, it->string, it->valuestring,
					       NULL, 0);
		} else if (cJSON_IsNull(it) &&
			   strcmp(it->string, "extra") == 0) {
			/* packaging reads a None extra as "" */
			rc = tg_marker_env_set(env, it->string, "", NULL, 0);
		} else if (set && cJSON_IsArray(it)) {
			n = 0;
			items = calloc((size_t)cJSON_GetArraySize(it) + 1,
				       sizeof(*items));
			if (!items) {
				rc = TG_ENOMEM;
				break;
			}
			cJSON_ArrayForEach(el, it) {
				if (!cJSON_IsString(el)) {
					rc = tg_err_set(
					    err, TG_EINVAL,
					    "marker environment: '%s' must "
					    "hold only strings",
					    it->string);
					goto out;
				}
				items[n++] = el->valuestring;
			}
			rc = tg_marker_env_set(env, it->string, NULL, items, n);
			free(items);
			items = NULL;
		} else {
			rc = tg_err_set(err, TG_EINVAL,
					"marker environment: '%s' must be a "
					"string%s",
					it->string,
					set ? " or an array of strings" : "");
			goto out;
		}
		if (rc)
			break;
	}
	if (rc == TG_ENOMEM)
		tg_err_set(err, rc, "out of memory");
out:
	free(items);
	cJSON_Delete(root);
	if (rc)
		tg_marker_env_release(env);
	return rc;
}

int
tg_json_direct_url(const char *text, size_t len, const char *file, char **url,
		   char **kind, struct tg_err *err)
{
	cJSON *root, *u, *info;
	const char *k = NULL;
	int rc = 0;

	*url = NULL;
	*kind = NULL;
	root = cJSON_ParseWithLength(text, len);
	if (!root || !cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return tg_err_set(err, TG_EINVAL,
				  "cannot parse '%s': not a JSON object", file);
	}
	u = cJSON_GetObjectItemCaseSensitive(root, "url");
	if (!cJSON_IsString(u)) {
		rc = tg_err_set(err, TG_EINVAL,
				"cannot parse '%s': no \"url\" string", file);
		goto out;
	}
	if ((info = cJSON_GetObjectItemCaseSensitive(root, "dir_info")))
		k = cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(info, "editable"))
			? "editable"
			: "directory";
	else if (cJSON_GetObjectItemCaseSensitive(root, "vcs_info"))
		k = "vcs";
	else if (cJSON_GetObjectItemCaseSensitive(root, "archive_info"))
		k = "archive";
	else
		k = "unknown";
	*url = strdup(u->valuestring);
	*kind = strdup(k);
	if (!*url || !*kind) {
		free(*url);
		free(*kind);
		*url = *kind = NULL;
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	}
out:
	cJSON_Delete(root);
	return rc;
}

/* ---- the API table ----
 *
 * cJSON parses; then every member is checked against the schema
 * (data/apis.schema.json) by hand, and a problem is located in the text
 * by walking the (valid) JSON again along the path to the bad value, so
 * that the message can say line and column.
 */

struct step {
	const char *key; /* NULL: an array index */
	long index;
};

static size_t
j_ws(const char *s, size_t i, size_t n)
{
	while (i < n &&
	       (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

static size_t
j_skip_string(const char *s, size_t i, size_t n)
{
	for (i++; i < n && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i + 1;
}

static size_t
j_skip_value(const char *s, size_t i, size_t n)
{
	int depth = 0;

	if (i < n && s[i] == '"')
		return j_skip_string(s, i, n);
	if (i < n && (s[i] == '{' || s[i] == '[')) {
		for (; i < n; i++) {
			if (s[i] == '"')
				i = j_skip_string(s, i, n) - 1;
			else if (s[i] == '{' || s[i] == '[')
				depth++;
			else if ((s[i] == '}' || s[i] == ']') && --depth == 0)
				return i + 1;
		}
		return n;
	}
	while (i < n && !strchr(",}] \t\r\n", s[i]))
		i++;
	return i;
}

/* Offset of the value at path (depth steps) from the root, or of the
 * innermost container found. */
static size_t
j_locate(const char *s, size_t n, const struct step *path, int depth)
{
	size_t i = j_ws(s, 0, n), found = i;
	int d;

	for (d = 0; d < depth && i < n; d++) {
		long k = 0;

		if (path[d].key && s[i] == '{') {
			size_t kl = strlen(path[d].key);

			for (i = j_ws(s, i + 1, n); i < n && s[i] == '"';) {
				size_t ks = i + 1, ke = j_skip_string(s, i, n);

				i = j_ws(s, ke, n);
				i = j_ws(s, i + 1, n); /* ':' */
				if (ke - 1 - ks == kl &&
				    memcmp(s + ks, path[d].key, kl) == 0)
					break;
				i = j_ws(s, j_skip_value(s, i, n), n);
				if (i < n && s[i] == ',')
					i = j_ws(s, i + 1, n);
			}
			if (i >= n || s[i] == '}')
				return found;
		} else if (!path[d].key && s[i] == '[') {
			for (i = j_ws(s, i + 1, n);
			     i < n && s[i] != ']' && k < path[d].index; k++) {
				i = j_ws(s, j_skip_value(s, i, n), n);
				if (i < n && s[i] == ',')
					i = j_ws(s, i + 1, n);
			}
			if (i >= n || s[i] == ']')
				return found;
		} else {
			return found;
		}
		found = i;
	}
	return found;
}

struct tload {
	const char *text;
	size_t len;
	const char *name;
	struct tg_err *err;
	struct step path[8];
	int depth;
	const char *entry; /* id of the entry being read, for messages */
	int patterns;	   /* compile every pattern to check it */
};

static int tfail(struct tload *L, const char *fmt, ...) TG_PRINTF(2, 3);

static int
tfail(struct tload *L, const char *fmt, ...)
{
	char msg[TG_ERR_MSG_MAX];
	size_t pos = j_locate(L->text, L->len, L->path, L->depth), k;
	size_t line = 1, col = 1;
	va_list ap;

	for (k = 0; k < pos && k < L->len; k++) {
		if (L->text[k] == '\n')
			line++, col = 1;
		else
			col++;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tg_err_set_at(
	    L->err, TG_EINVAL, pos,
	    "cannot parse '%s': line %zu, column %zu: %s%s%s%s", L->name, line,
	    col, L->entry ? "entry '" : "", L->entry ? L->entry : "",
	    L->entry ? "': " : "", msg);
}

static int
is_release_version(const char *v)
{
	int parts = 0;
	const char *p = v;

	for (;;) {
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
		parts++;
		if (*p == '\0')
			return parts >= 2 && parts <= 3;
		if (*p != '.')
			return 0;
		p++;
	}
}

/* Check that obj has only the allowed keys, each once, and the required. */
static int
check_keys(struct tload *L, const cJSON *obj, const char *const *allowed,
	   const char *const *required, const char *what)
{
	const cJSON *it, *jt;
	size_t k;

	if (!cJSON_IsObject(obj))
		return tfail(L, "%s must be an object", what ? what : "it");
	cJSON_ArrayForEach(it, obj) {
		for (k = 0; allowed[k]; k++)
			if (strcmp(it->string, allowed[k]) == 0)
				break;
		L->path[L->depth].key = it->string;
		L->depth++;
		if (!allowed[k])
			return tfail(L, "unknown field \"%s\"%s%s", it->string,
				     what ? " in " : "", what ? what : "");
		for (jt = it->next; jt; jt = jt->next)
			if (strcmp(jt->string, it->string) == 0)
				return tfail(L, "field \"%s\" appears twice",
					     it->string);
		L->depth--;
	}
	for (k = 0; required[k]; k++)
		if (!cJSON_GetObjectItemCaseSensitive(obj, required[k]))
			return tfail(L, "%s%slacks the field \"%s\"",
				     what ? what : "", what ? " " : "",
				     required[k]);
	return 0;
}

static int
enter(struct tload *L, const char *key)
{
	L->path[L->depth].key = key;
	L->depth++;
	return 0;
}

/* A string or (when nullable) null member; *out a new string or NULL. */
static int
get_str(struct tload *L, const cJSON *obj, const char *key, int nullable,
	char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	int rc = 0;

	*out = NULL;
	enter(L, key);
	if (cJSON_IsString(v))
		*out = strdup(v->valuestring);
	else if (!(nullable && cJSON_IsNull(v)))
		rc = tfail(L, "expected a string%s for \"%s\"",
			   nullable ? " or null" : "", key);
	else
		goto done;
	if (!rc && !*out)
		rc = tg_err_set(L->err, TG_ENOMEM, "out of memory");
done:
	L->depth--;
	return rc;
}

static int
get_version(struct tload *L, const cJSON *obj, const char *key, char **out)
{
	int rc = get_str(L, obj, key, 1, out);

	if (!rc && *out && !is_release_version(*out)) {
		enter(L, key);
		rc = tfail(L, "\"%s\" is not a release version X.Y[.Z]", *out);
		L->depth--;
	}
	return rc;
}

static int
get_enum(struct tload *L, const cJSON *obj, const char *key,
	 const char *const *names, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	int k, rc = 0;

	enter(L, key);
	if (!cJSON_IsString(v)) {
		rc = tfail(L, "expected a string for \"%s\"", key);
	} else {
		for (k = 0; names[k]; k++)
			if (strcmp(v->valuestring, names[k]) == 0)
				break;
		if (names[k])
			*out = k;
		else
			rc = tfail(L, "\"%s\" is not a valid %s",
				   v->valuestring, key);
	}
	L->depth--;
	return rc;
}

static int
get_strings(struct tload *L, const cJSON *obj, const char *key, char ***out,
	    size_t *n)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key), *it;
	int rc = 0;

	*out = NULL;
	*n = 0;
	enter(L, key);
	if (!cJSON_IsArray(v)) {
		rc = tfail(L, "expected an array of strings for \"%s\"", key);
		goto out;
	}
	*out = calloc((size_t)cJSON_GetArraySize(v) + 1, sizeof(**out));
	if (!*out) {
		rc = tg_err_set(L->err, TG_ENOMEM, "out of memory");
		goto out;
	}
	cJSON_ArrayForEach(it, v) {
		L->path[L->depth].key = NULL;
		L->path[L->depth].index = (long)*n;
		L->depth++;
		if (!cJSON_IsString(it) || !it->valuestring[0])
			rc = tfail(L, "expected a non-empty string in \"%s\"",
				   key);
		else if (!((*out)[*n] = strdup(it->valuestring)))
			rc = tg_err_set(L->err, TG_ENOMEM, "out of memory");
		L->depth--;
		if (rc)
			break;
		(*n)++;
	}
out:
	L->depth--;
	return rc;
}

static const char *const fact_names[] = {"verified", "inferred", "unverified",
					 NULL};

static int
get_event(struct tload *L, const cJSON *entry, const char *key,
	  struct tg_event *ev)
{
	static const char *const allowed[] = {
	    "version",	 "bound",	 "status", "note",
	    "withdrawn", "announced_by", NULL};
	static const char *const required[] = {"version", "bound", "status",
					       "note", NULL};
	static const char *const bounds[] = {"exact", "at-or-before", "before",
					     NULL};
	const cJSON *obj = cJSON_GetObjectItemCaseSensitive(entry, key);
	int rc, b = 0, f = 0;

	enter(L, key);
	rc = check_keys(L, obj, allowed, required, key);
	if (!rc)
		rc = get_version(L, obj, "version", &ev->version);
	if (!rc)
		rc = get_enum(L, obj, "bound", bounds, &b);
	if (!rc)
		rc = get_enum(L, obj, "status", fact_names, &f);
	if (!rc)
		rc = get_str(L, obj, "note", 0, &ev->note);
	if (!rc && cJSON_GetObjectItemCaseSensitive(obj, "withdrawn"))
		rc = get_version(L, obj, "withdrawn", &ev->withdrawn);
	if (!rc && cJSON_GetObjectItemCaseSensitive(obj, "announced_by"))
		rc = get_version(L, obj, "announced_by", &ev->announced_by);
	if (!rc && (ev->withdrawn || ev->announced_by) &&
	    strcmp(key, "deprecated") != 0)
		rc = tfail(L, "only \"deprecated\" may have withdrawn or "
			      "announced_by");
	ev->bound = (enum tg_bound)b;
	ev->status = (enum tg_fact)f;
	L->depth--;
	return rc;
}

static int
check_id(const char *id)
{
	const char *p = id;

	for (;;) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      *p == '_' || *p == '~'))
			return 0;
		p++;
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		       (*p >= '0' && *p <= '9') || *p == '_')
			p++;
		if (*p == '\0')
			return 1;
		if (*p == '.')
			p++;
		else if (p[0] == ':' && p[1] == ':')
			p += 2;
		else
			return 0;
	}
}

static int
get_regex(struct tload *L, const cJSON *obj, const char *key, char **out)
{
	char msg[256];
	size_t off;
	int rc = get_str(L, obj, key, 1, out);

	if (!rc && *out && L->patterns &&
	    tg_scan_pattern_check(*out, &off, msg, sizeof(msg))) {
		enter(L, key);
		rc = tfail(L, "bad pattern for \"%s\" at offset %zu: %s", key,
			   off, msg);
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

static int
load_entry(struct tload *L, const cJSON *e, struct tg_api *a)
{
	static const char *const allowed[] = {
	    "id",	  "language",	"kind",	       "private", "introduced",
	    "deprecated", "removed",	"replacement", "warning", "evidence",
	    "usage",	  "references", "notes",       NULL};
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
	static const char *const langs[] = {"python", "c++", NULL};
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
	const cJSON *o, *v;
	int rc, lang = 0, kind = 0, f = 0, cat;
	size_t k;

	v = cJSON_GetObjectItemCaseSensitive(e, "id");
	L->entry = cJSON_IsString(v) ? v->valuestring : NULL;
	rc = check_keys(L, e, allowed, allowed, L->entry ? NULL : "an entry");
	if (!rc)
		rc = get_str(L, e, "id", 0, &a->id);
	if (!rc && !check_id(a->id)) {
		enter(L, "id");
		rc = tfail(L, "\"%s\" is not a valid id", a->id);
		L->depth--;
	}
	if (!rc)
		rc = get_enum(L, e, "language", langs, &lang);
	if (!rc)
		rc = get_enum(L, e, "kind", kinds, &kind);
	if (!rc) {
		a->cxx = lang;
		a->kind = strdup(kinds[kind]);
		v = cJSON_GetObjectItemCaseSensitive(e, "private");
		enter(L, "private");
		if (!cJSON_IsBool(v))
			rc = tfail(L, "expected true or false for \"private\"");
		a->is_private = cJSON_IsTrue(v);
		L->depth--;
	}
	if (!rc)
		rc = get_event(L, e, "introduced", &a->introduced);
	if (!rc)
		rc = get_event(L, e, "deprecated", &a->deprecated);
	if (!rc)
		rc = get_event(L, e, "removed", &a->removed);
	if (!rc) {
		o = cJSON_GetObjectItemCaseSensitive(e, "replacement");
		enter(L, "replacement");
		rc = check_keys(L, o, repl_keys, repl_keys, "replacement");
		if (!rc)
			rc = get_str(L, o, "id", 1, &a->repl_id);
		if (!rc)
			rc = get_str(L, o, "text", 1, &a->repl_text);
		if (!rc)
			rc = get_version(L, o, "since", &a->repl_since);
		if (!rc)
			rc = get_enum(L, o, "status", fact_names, &f);
		a->repl_status = (enum tg_fact)f;
		L->depth--;
	}
	if (!rc) {
		o = cJSON_GetObjectItemCaseSensitive(e, "warning");
		enter(L, "warning");
		rc = check_keys(L, o, warn_keys, warn_keys, "warning");
		v = cJSON_GetObjectItemCaseSensitive(o, "category");
		if (!rc && !cJSON_IsNull(v))
			rc = get_enum(L, o, "category", warn_cats, &cat);
		if (!rc && !cJSON_IsNull(v))
			a->warn_category = strdup(warn_cats[cat]);
		if (!rc)
			rc = get_str(L, o, "message", 1, &a->warn_message);
		if (!rc)
			rc = get_version(L, o, "since", &a->warn_since);
		if (!rc)
			rc = get_enum(L, o, "status", fact_names, &f);
		a->warn_status = (enum tg_fact)f;
		L->depth--;
	}
	if (!rc) {
		o = cJSON_GetObjectItemCaseSensitive(e, "evidence");
		enter(L, "evidence");
		rc = check_keys(L, o, ev_keys, ev_keys, "evidence");
		if (!rc)
			rc = get_strings(L, o, "files", &a->files, &a->nfiles);
		for (k = 0; !rc && k < a->nfiles; k++)
			if (strncmp(a->files[k], "torch/", 6) != 0 ||
			    has_dotdot(a->files[k]) ||
			    strpbrk(a->files[k], " \t\n\r\f\v")) {
				enter(L, "files");
				rc = tfail(L,
					   "\"%s\" is not a path under torch/",
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
		rc = get_strings(L, e, "usage", &a->usage, &a->nusage);
	for (k = 0; !rc && L->patterns && k < a->nusage; k++) {
		char msg[256];
		size_t off;

		if (tg_scan_pattern_check(a->usage[k], &off, msg,
					  sizeof(msg))) {
			enter(L, "usage");
			rc = tfail(L,
				   "bad pattern in \"usage\" at offset %zu: %s",
				   off, msg);
			L->depth--;
		}
	}
	if (!rc)
		rc = get_strings(L, e, "references", &a->refs, &a->nrefs);
	if (!rc)
		rc = get_str(L, e, "notes", 0, &a->notes);
	return rc;
}

static int
at_entry(struct tload *L, const struct tg_table *t, size_t i, const char *k1,
	 const char *k2)
{
	L->entry = t->apis[i].id;
	L->depth = 0;
	enter(L, "entries");
	L->path[L->depth].key = NULL;
	L->path[L->depth].index = (long)i;
	L->depth++;
	enter(L, k1);
	if (k2)
		enter(L, k2);
	return 0;
}

static int
vcmp(const char *a, const char *b)
{
	struct tg_version x = TG_VERSION_INIT, y = TG_VERSION_INIT;
	int c = 0;

	if (tg_version_parse(&x, a, strlen(a), NULL) == 0 &&
	    tg_version_parse(&y, b, strlen(b), NULL) == 0)
		c = tg_version_cmp(&x, &y);
	tg_version_release(&x);
	tg_version_release(&y);
	return c;
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
cross_check(struct tload *L, const struct tg_table *t)
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
			rc = tfail(L, "duplicate id \"%s\"", sorted[i]->id);
		}
	for (i = 0; i < t->n && !rc; i++) {
		const struct tg_api *a = &t->apis[i], key = {.id = a->repl_id},
				    *kp = &key;

		if (a->repl_id &&
		    !bsearch(&kp, sorted, t->n, sizeof(*sorted), by_id_ptr)) {
			at_entry(L, t, i, "replacement", "id");
			rc = tfail(L, "replacement \"%s\" is not in the table",
				   a->repl_id);
		} else if (a->introduced.version && a->deprecated.version &&
			   vcmp(a->deprecated.version, a->introduced.version) <
			       0) {
			at_entry(L, t, i, "deprecated", "version");
			rc =
			    tfail(L, "deprecated %s before introduced %s",
				  a->deprecated.version, a->introduced.version);
		} else if (a->deprecated.withdrawn &&
			   (!a->deprecated.version ||
			    vcmp(a->deprecated.withdrawn,
				 a->deprecated.version) < 0)) {
			at_entry(L, t, i, "deprecated", "withdrawn");
			rc = tfail(L, "withdrawn %s before deprecated",
				   a->deprecated.withdrawn);
		} else if (a->removed.version &&
			   ((a->introduced.version &&
			     vcmp(a->removed.version, a->introduced.version) <
				 0) ||
			    (a->deprecated.version &&
			     vcmp(a->removed.version, a->deprecated.version) <
				 0))) {
			at_entry(L, t, i, "removed", "version");
			rc = tfail(L,
				   "removed %s before it was introduced or "
				   "deprecated",
				   a->removed.version);
		}
	}
	free(sorted);
	return rc;
}

int
tg_json_table(struct tg_table *t, const char *text, size_t len,
	      const char *name, int patterns, struct tg_err *err)
{
	static const char *const top[] = {"schema_version", "description",
					  "entries", NULL};
	static const char *const top_req[] = {"schema_version", "entries",
					      NULL};
	struct tload L = {text, len, name, err, {{NULL, 0}}, 0, NULL, patterns};
	const char *end = NULL;
	cJSON *root, *it, *v;
	int rc = 0;
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (root) {
		size_t e = (size_t)(end - text);

		while (e < len && strchr(" \t\r\n", text[e]))
			e++;
		if (e != len) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	if (!root) {
		size_t pos = end ? (size_t)(end - text) : 0, k, line = 1,
		       col = 1;

		for (k = 0; k < pos && k < len; k++) {
			if (text[k] == '\n')
				line++, col = 1;
			else
				col++;
		}
		return tg_err_set_at(err, TG_EINVAL, pos,
				     "cannot parse '%s': line %zu, column "
				     "%zu: not valid JSON",
				     name, line, col);
	}
	rc = check_keys(&L, root, top, top_req, "the table");
	v = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
	if (!rc && !(cJSON_IsNumber(v) && v->valuedouble == 1)) {
		enter(&L, "schema_version");
		rc = tfail(&L, "schema_version must be 1");
		L.depth--;
	}
	v = cJSON_GetObjectItemCaseSensitive(root, "description");
	if (!rc && v)
		rc = get_str(&L, root, "description", 0, &t->description);
	v = cJSON_GetObjectItemCaseSensitive(root, "entries");
	if (!rc && (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)) {
		enter(&L, "entries");
		rc = tfail(&L, "\"entries\" must be a non-empty array");
		L.depth--;
	}
	if (!rc) {
		t->apis =
		    calloc((size_t)cJSON_GetArraySize(v), sizeof(*t->apis));
		if (!t->apis)
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	enter(&L, "entries");
	cJSON_ArrayForEach(it, v) {
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
	cJSON_Delete(root);
	if (rc)
		tg_table_release(t);
	return rc;
}
