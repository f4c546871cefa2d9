/* tload.c - the strict JSON reader the table's loaders share
 * SPDX-License-Identifier: MIT
 *
 * util/json parses; then every member is checked against the schema
 * (data/apis.schema.json, data/apis-excluded.schema.json) by hand, by
 * the loaders of the table (table.c) and of the exclusion list
 * (excluded.c) through the getters here, and a problem is located in the
 * text by walking the (valid) JSON again along the path to the bad
 * value, so that the message can say line and column. The path is at
 * most TG_TLOAD_DEPTH steps deep (the table needs 5); locating a
 * problem walks the text once.
 */
#include "lib/table/tload.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
j_locate(const char *s, size_t n, const struct tg_tload_step *path, int depth)
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

int
tg_tload_fail(struct tg_tload *L, const char *fmt, ...)
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

int
tg_tload_is_release_version(const char *v)
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
int
tg_tload_check_keys(struct tg_tload *L, const struct tg_json *obj,
		    const char *const *allowed, const char *const *required,
		    const char *what)
{
	const struct tg_json *it;
	unsigned long long seen = 0; /* which allowed keys were met */
	size_t k;

	if (!tg_json_is_object(obj))
		return tg_tload_fail(L, "%s must be an object",
				     what ? what : "it");
	if (!L->strict)
		return 0;
	for (it = tg_json_child(obj); it; it = tg_json_next(it)) {
		const char *key = tg_json_key(it);

		for (k = 0; allowed[k]; k++)
			if (strcmp(key, allowed[k]) == 0)
				break;
		assert(k < 64);
		L->path[L->depth].key = key;
		L->depth++;
		if (!allowed[k])
			return tg_tload_fail(L, "unknown field \"%s\"%s%s", key,
					     what ? " in " : "",
					     what ? what : "");
		/* cJSON keeps both members of a repeated key; the position
		 * reported is the key's first member */
		if (seen & (1ULL << k))
			return tg_tload_fail(L, "field \"%s\" appears twice",
					     key);
		seen |= 1ULL << k;
		L->depth--;
	}
	for (k = 0; required[k]; k++)
		if (!tg_json_get(obj, required[k]))
			return tg_tload_fail(L, "%s%slacks the field \"%s\"",
					     what ? what : "", what ? " " : "",
					     required[k]);
	return 0;
}

int
tg_tload_enter(struct tg_tload *L, const char *key)
{
	L->path[L->depth].key = key;
	L->depth++;
	return 0;
}

/* A string or (when nullable) null member; *out a new string or NULL. */
int
tg_tload_get_str(struct tg_tload *L, const struct tg_json *obj, const char *key,
		 int nullable, char **out)
{
	const struct tg_json *v = tg_json_get(obj, key);
	int rc = 0;

	*out = NULL;
	tg_tload_enter(L, key);
	if (tg_json_is_string(v))
		*out = strdup(tg_json_string(v));
	else if (!(nullable && tg_json_is_null(v)))
		rc = tg_tload_fail(L, "expected a string%s for \"%s\"",
				   nullable ? " or null" : "", key);
	else
		goto done;
	if (!rc && !*out)
		rc = tg_err_set(L->err, TG_ENOMEM, "out of memory");
done:
	L->depth--;
	return rc;
}

int
tg_tload_get_version(struct tg_tload *L, const struct tg_json *obj,
		     const char *key, char **out, struct tg_version *ver)
{
	int rc = tg_tload_get_str(L, obj, key, 1, out);

	if (!rc && *out && !tg_tload_is_release_version(*out)) {
		tg_tload_enter(L, key);
		rc = tg_tload_fail(L, "\"%s\" is not a release version X.Y[.Z]",
				   *out);
		L->depth--;
	}
	/* X.Y[.Z] always parses: only memory can fail here */
	if (!rc && *out && tg_version_parse(ver, *out, strlen(*out), NULL))
		rc = tg_err_set(L->err, TG_ENOMEM, "out of memory");
	return rc;
}

int
tg_tload_get_enum(struct tg_tload *L, const struct tg_json *obj,
		  const char *key, const char *const *names, int *out)
{
	const struct tg_json *v = tg_json_get(obj, key);
	int k, rc = 0;

	tg_tload_enter(L, key);
	if (!tg_json_is_string(v)) {
		rc = tg_tload_fail(L, "expected a string for \"%s\"", key);
	} else {
		for (k = 0; names[k]; k++)
			if (strcmp(tg_json_string(v), names[k]) == 0)
				break;
		if (names[k])
			*out = k;
		else
			rc = tg_tload_fail(L, "\"%s\" is not a valid %s",
					   tg_json_string(v), key);
	}
	L->depth--;
	return rc;
}

int
tg_tload_get_strings(struct tg_tload *L, const struct tg_json *obj,
		     const char *key, char ***out, size_t *n)
{
	const struct tg_json *v = tg_json_get(obj, key), *it;
	int rc = 0;

	*out = NULL;
	*n = 0;
	tg_tload_enter(L, key);
	if (!tg_json_is_array(v)) {
		rc = tg_tload_fail(L, "expected an array of strings for \"%s\"",
				   key);
		goto out;
	}
	*out = calloc((size_t)tg_json_size(v) + 1, sizeof(**out));
	if (!*out) {
		rc = tg_err_set(L->err, TG_ENOMEM, "out of memory");
		goto out;
	}
	for (it = tg_json_child(v); it; it = tg_json_next(it)) {
		L->path[L->depth].key = NULL;
		L->path[L->depth].index = (long)*n;
		L->depth++;
		if (!tg_json_is_string(it) || !tg_json_string(it)[0])
			rc = tg_tload_fail(
			    L, "expected a non-empty string in \"%s\"", key);
		else if (!((*out)[*n] = strdup(tg_json_string(it))))
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

int
tg_tload_check_id(const char *id)
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

void
tg_tload_strings_free(char **v, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		free(v[k]);
	free(v);
}
