/* advisory.c - torch's security advisories: loader, matcher, cache
 * SPDX-License-Identifier: MIT
 *
 * Owns the parsed form of data/advisories.json and the questions asked
 * of it: does an advisory affect this torch (env), does a declared floor
 * admit an affected release and which floor excludes it (require). The
 * loader is as strict as the table's: unknown or missing members, a
 * wrong type, an id that is not PYSEC/GHSA/CVE, a version PEP 440 does
 * not read or that carries a local label, a range with both ends, are
 * each a one-line message naming the file and the advisory. Matching
 * drops the local label of the version asked about (2.5.1+cu124 is
 * 2.5.1) and otherwise orders versions as PEP 440 does: a pre-release
 * or dev build comes before its release (1.13.0a0 < 1.13.0 < 1.13.1).
 * Limits: the file is at most TG_ADVISORY_MAX bytes; the cost of a
 * question is linear in the ranges.
 */
#include "lib/table/advisory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/table/table.h"
#include "lib/util/file.h"
#include "lib/util/json.h"

extern const char tg_advisories_json[];
extern const size_t tg_advisories_json_len;
extern const char *const tg_advisories_version;

const char *
tg_advisory_builtin_version(void)
{
	return tg_advisories_version;
}

struct aload {
	const char *name;
	size_t index; /* advisory number, from 1; 0: the top level */
	const char *id;
	struct tg_err *err;
};

static int
afail(struct aload *L, const char *what)
{
	if (L->index && L->id)
		return tg_err_set(L->err, TG_EINVAL,
				  "cannot parse '%s': advisory '%s': %s",
				  L->name, L->id, what);
	if (L->index)
		return tg_err_set(L->err, TG_EINVAL,
				  "cannot parse '%s': advisory %zu: %s",
				  L->name, L->index, what);
	return tg_err_set(L->err, TG_EINVAL, "cannot parse '%s': %s", L->name,
			  what);
}

static int
oom(struct aload *L)
{
	return tg_err_set(L->err, TG_ENOMEM, "out of memory reading '%s'",
			  L->name);
}

/* Every member of o is in keys; every key in req is a member. */
static int
check_keys(struct aload *L, const struct tg_json *o, const char *const *keys,
	   const char *const *req, const char *what)
{
	char msg[200];
	const struct tg_json *m;
	size_t k;

	if (!tg_json_is_object(o)) {
		snprintf(msg, sizeof(msg), "%s must be an object", what);
		return afail(L, msg);
	}
	for (m = tg_json_child(o); m; m = tg_json_next(m)) {
		const char *key = tg_json_key(m);

		for (k = 0; keys[k] && strcmp(keys[k], key); k++)
			;
		if (!keys[k]) {
			snprintf(msg, sizeof(msg),
				 "unknown member \"%.60s\" in %s", key, what);
			return afail(L, msg);
		}
	}
	for (k = 0; req[k]; k++)
		if (!tg_json_get(o, req[k])) {
			snprintf(msg, sizeof(msg), "%s has no \"%s\"", what,
				 req[k]);
			return afail(L, msg);
		}
	return 0;
}

/* A string member: required non-empty (nullable 0) or a string or null
 * (nullable 1, *out NULL for null). */
static int
get_str(struct aload *L, const struct tg_json *o, const char *key, int nullable,
	char **out)
{
	char msg[120];
	const struct tg_json *v = tg_json_get(o, key);

	*out = NULL;
	if (nullable && tg_json_is_null(v))
		return 0;
	if (!tg_json_is_string(v) || !*tg_json_string(v)) {
		snprintf(msg, sizeof(msg),
			 "\"%s\" must be a non-empty string%s", key,
			 nullable ? " or null" : "");
		return afail(L, msg);
	}
	*out = strdup(tg_json_string(v));
	return *out ? 0 : oom(L);
}

/* n digits or more at s (exactly n when exact); the end, or NULL. */
static const char *
digits(const char *s, size_t n, int exact)
{
	size_t k = strspn(s, "0123456789");

	return k < n || (exact && k != n) ? NULL : s + k;
}

/* PYSEC-YYYY-N, CVE-YYYY-NNNN..., GHSA-xxxx-xxxx-xxxx. */
static int
valid_id(const char *s)
{
	const char *p;
	size_t k;

	if (strncmp(s, "PYSEC-", 6) == 0 || strncmp(s, "CVE-", 4) == 0) {
		int cve = s[0] == 'C';

		p = digits(s + (cve ? 4 : 6), 4, 1);
		if (!p || *p != '-')
			return 0;
		p = digits(p + 1, cve ? 4 : 1, 0);
		return p && !*p;
	}
	if (strncmp(s, "GHSA-", 5) != 0)
		return 0;
	for (p = s + 5, k = 0; k < 3; k++, p += 5)
		if (strspn(p, "23456789cfghjmpqrvwx") != 4 ||
		    p[4] != (k < 2 ? '-' : '\0'))
			return 0;
	return 1;
}

/* An array of strings; ids 1: each an advisory id. */
static int
get_strs(struct aload *L, const struct tg_json *o, const char *key, int ids,
	 char ***out, size_t *n)
{
	char msg[160];
	const struct tg_json *a = tg_json_get(o, key), *it;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (!tg_json_is_array(a)) {
		snprintf(msg, sizeof(msg), "\"%s\" must be an array", key);
		return afail(L, msg);
	}
	if (!(*out = calloc(tg_json_size(a) + 1, sizeof(char *))))
		return oom(L);
	for (it = tg_json_child(a); it; it = tg_json_next(it)) {
		const char *s = tg_json_string(it);

		if (!s || !*s || (ids && !valid_id(s))) {
			snprintf(msg, sizeof(msg), "\"%s\" must hold %s", key,
				 ids ? "PYSEC, GHSA or CVE ids"
				     : "non-empty strings");
			return afail(L, msg);
		}
		if (!((*out)[k] = strdup(s)))
			return oom(L);
		*n = ++k;
	}
	return 0;
}

/* A public version (no local label) into v; zero: "0" allowed too. */
static int
get_version(struct aload *L, const char *key, const char *s,
	    struct tg_version *v)
{
	char msg[200];
	int rc = tg_version_parse(v, s, strlen(s), NULL);

	if (rc == TG_ENOMEM)
		return oom(L);
	if (rc || v->nlocal || strcmp(v->str, s) != 0) {
		if (!rc)
			tg_version_release(v);
		snprintf(msg, sizeof(msg),
			 "\"%s\" must be a public PEP 440 version in canonical "
			 "form, not '%.60s'",
			 key, s);
		return afail(L, msg);
	}
	return 0;
}

static int
parse_range(struct aload *L, const struct tg_json *o,
	    struct tg_advisory_range *r)
{
	static const char *const keys[] = {"introduced", "fixed",
					   "last_affected", NULL};
	static const char *const req[] = {"introduced", NULL};
	const struct tg_json *fx, *la, *in;
	int rc;

	if ((rc = check_keys(L, o, keys, req, "a range")))
		return rc;
	in = tg_json_get(o, "introduced");
	fx = tg_json_get(o, "fixed");
	la = tg_json_get(o, "last_affected");
	if (!tg_json_is_string(in) || (fx && !tg_json_is_string(fx)) ||
	    (la && !tg_json_is_string(la)))
		return afail(L, "a range's events must be strings");
	if (fx && la)
		return afail(L, "a range has \"fixed\" and \"last_affected\": "
				"give one");
	if ((rc = get_version(L, "introduced", tg_json_string(in),
			      &r->introduced)))
		return rc;
	r->kind = fx   ? TG_ADVISORY_FIXED
		  : la ? TG_ADVISORY_LAST
		       : TG_ADVISORY_OPEN;
	if (fx || la) {
		rc = get_version(L, fx ? "fixed" : "last_affected",
				 tg_json_string(fx ? fx : la), &r->end);
		if (!rc && tg_version_cmp(&r->end, &r->introduced) < 0)
			rc = afail(L, "a range ends before it starts");
	}
	return rc;
}

static int
valid_date(const char *s)
{
	static const char form[] = "dddd-dd-dd";
	size_t k;

	for (k = 0; form[k]; k++)
		if (!s[k] || (form[k] == 'd' ? (s[k] < '0' || s[k] > '9')
					     : s[k] != form[k]))
			return 0;
	return s[k] == '\0' || s[k] == 'T';
}

static int
parse_one(struct aload *L, const struct tg_json *o, struct tg_advisory *a)
{
	static const char *const keys[] = {
	    "id",	 "aliases",  "summary", "apis",	      "severity",
	    "cvss",	 "ranges",   "fixed",	"published",  "modified",
	    "withdrawn", "disputed", "notes",	"references", NULL};
	static const char *const dates[] = {"published", "modified",
					    "withdrawn"};
	const struct tg_json *v, *it;
	char **d[3];
	size_t k;
	int rc;

	if ((rc = check_keys(L, o, keys, keys, "an advisory")))
		return rc;
	if ((rc = get_str(L, o, "id", 0, &a->id)))
		return rc;
	if (!valid_id(a->id))
		return afail(L, "\"id\" must be a PYSEC, GHSA or CVE id");
	L->id = a->id;
	if ((rc = get_strs(L, o, "aliases", 1, &a->aliases, &a->naliases)) ||
	    (rc = get_str(L, o, "summary", 0, &a->summary)) ||
	    (rc = get_strs(L, o, "apis", 0, &a->apis, &a->napis)) ||
	    (rc = get_str(L, o, "severity", 1, &a->severity)) ||
	    (rc = get_str(L, o, "fixed", 1, &a->fixed)) ||
	    (rc = get_strs(L, o, "references", 0, &a->refs, &a->nrefs)))
		return rc;
	if (a->severity && strcmp(a->severity, "critical") &&
	    strcmp(a->severity, "high") && strcmp(a->severity, "moderate") &&
	    strcmp(a->severity, "low"))
		return afail(L,
			     "\"severity\" must be critical, high, moderate, "
			     "low or null");
	if (a->fixed) {
		struct tg_version fv = TG_VERSION_INIT;

		if ((rc = get_version(L, "fixed", a->fixed, &fv)))
			return rc;
		tg_version_release(&fv);
	}
	d[0] = &a->published;
	d[1] = &a->modified;
	d[2] = &a->withdrawn;
	for (k = 0; k < 3; k++) {
		if ((rc = get_str(L, o, dates[k], 1, d[k])))
			return rc;
		if (*d[k] && !valid_date(*d[k]))
			return afail(L, "a date must read YYYY-MM-DD");
	}
	v = tg_json_get(o, "disputed");
	if (!tg_json_is_bool(v))
		return afail(L, "\"disputed\" must be true or false");
	a->disputed = tg_json_is_true(v);
	v = tg_json_get(o, "notes");
	if (!tg_json_is_string(v))
		return afail(L, "\"notes\" must be a string");
	if (!a->nrefs)
		return afail(L, "\"references\" must name a source");
	v = tg_json_get(o, "cvss");
	a->cvss = -1;
	if (!tg_json_is_null(v)) {
		static const char *const ck[] = {"score", "version", "source",
						 NULL};
		const struct tg_json *s;

		if ((rc = check_keys(L, v, ck, ck, "\"cvss\"")))
			return rc;
		s = tg_json_get(v, "score");
		if (!tg_json_is_number(s) || tg_json_number(s) < 0 ||
		    tg_json_number(s) > 10)
			return afail(L, "a CVSS score must be a number from 0 "
					"to 10");
		a->cvss = tg_json_number(s);
	}
	for (k = 0; k < a->naliases; k++) {
		size_t j;

		for (j = k + 1; j < a->naliases; j++)
			if (strcmp(a->aliases[k], a->aliases[j]) == 0)
				return afail(L, "an alias is given twice");
		if (strcmp(a->aliases[k], a->id) == 0)
			return afail(L, "an alias is the id itself");
	}
	v = tg_json_get(o, "ranges");
	if (!tg_json_is_array(v) || !tg_json_size(v))
		return afail(L, "\"ranges\" must be a non-empty array");
	if (!(a->ranges = calloc(tg_json_size(v), sizeof(*a->ranges))))
		return oom(L);
	for (it = tg_json_child(v); it; it = tg_json_next(it)) {
		rc = parse_range(L, it, &a->ranges[a->nranges]);
		a->nranges++;
		if (rc)
			return rc;
	}
	/* "fixed" is the highest fixed end, as the ranges say */
	{
		const struct tg_version *hi = NULL;

		for (k = 0; k < a->nranges; k++)
			if (a->ranges[k].kind == TG_ADVISORY_FIXED &&
			    (!hi || tg_version_cmp(&a->ranges[k].end, hi) > 0))
				hi = &a->ranges[k].end;
		if (hi ? !a->fixed || strcmp(a->fixed, hi->str) != 0
		       : a->fixed != NULL)
			return afail(L,
				     "\"fixed\" must be the highest fixed "
				     "version of the ranges (null when none)");
	}
	return 0;
}

static void
free_strs(char **v, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		free(v[k]);
	free(v);
}

static void
advisory_release(struct tg_advisory *a)
{
	size_t k;

	free(a->id);
	free_strs(a->aliases, a->naliases);
	free(a->summary);
	free_strs(a->apis, a->napis);
	free(a->severity);
	for (k = 0; k < a->nranges; k++) {
		tg_version_release(&a->ranges[k].introduced);
		tg_version_release(&a->ranges[k].end);
	}
	free(a->ranges);
	free(a->fixed);
	free(a->published);
	free(a->modified);
	free(a->withdrawn);
	free_strs(a->refs, a->nrefs);
}

void
tg_advisory_release(struct tg_advisories *a)
{
	size_t k;

	for (k = 0; k < a->n; k++)
		advisory_release(&a->v[k]);
	free(a->v);
	free(a->version);
	memset(a, 0, sizeof(*a));
}

int
tg_advisory_parse(struct tg_advisories *a, const char *text, size_t len,
		  const char *name, struct tg_err *err)
{
	static const char *const top[] = {
	    "schema_version", "advisories_version", "package",
	    "description",    "advisories",	    NULL};
	static const char *const req[] = {"schema_version",
					  "advisories_version", "package",
					  "advisories", NULL};
	struct aload L = {name, 0, NULL, err};
	struct tg_json *root = NULL;
	const struct tg_json *v, *it;
	size_t pos = 0, line, col, k, j;
	int rc;

	memset(a, 0, sizeof(*a));
	if ((rc = tg_json_parse(&root, text, len, &pos))) {
		if (rc == TG_ENOMEM)
			return oom(&L);
		tg_json_line_col(text, len, pos, &line, &col);
		return tg_err_set_at(err, TG_EINVAL, pos,
				     "cannot parse '%s': line %zu, column "
				     "%zu: not valid JSON",
				     name, line, col);
	}
	if ((rc = check_keys(&L, root, top, req, "the advisories file")))
		goto out;
	v = tg_json_get(root, "schema_version");
	if (!(tg_json_is_number(v) && tg_json_number(v) == 1)) {
		rc = afail(&L, "schema_version must be 1");
		goto out;
	}
	v = tg_json_get(root, "package");
	if (!tg_json_is_string(v) || strcmp(tg_json_string(v), "torch")) {
		rc = afail(&L, "\"package\" must be \"torch\"");
		goto out;
	}
	if ((rc = get_str(&L, root, "advisories_version", 0, &a->version)))
		goto out;
	if (a->version[0] < '0' || a->version[0] > '9' ||
	    strspn(a->version, "0123456789.") != strlen(a->version)) {
		rc = afail(&L, "\"advisories_version\" must read YYYY.MM.DD");
		goto out;
	}
	v = tg_json_get(root, "advisories");
	if (!tg_json_is_array(v)) {
		rc = afail(&L, "\"advisories\" must be an array");
		goto out;
	}
	if (!(a->v = calloc(tg_json_size(v) + 1, sizeof(*a->v)))) {
		rc = oom(&L);
		goto out;
	}
	for (it = tg_json_child(v); it; it = tg_json_next(it)) {
		L.index = a->n + 1;
		L.id = NULL;
		rc = parse_one(&L, it, &a->v[a->n]);
		a->n++;
		if (rc)
			goto out;
	}
	/* ids and aliases name one advisory each */
	for (k = 0; k < a->n && !rc; k++)
		for (j = k + 1; j < a->n && !rc; j++) {
			size_t m;

			if (tg_advisory_has_id(&a->v[j], a->v[k].id))
				rc = tg_err_set(err, TG_EINVAL,
						"cannot parse '%s': '%s' names "
						"two advisories",
						name, a->v[k].id);
			for (m = 0; !rc && m < a->v[k].naliases; m++)
				if (tg_advisory_has_id(&a->v[j],
						       a->v[k].aliases[m]))
					rc = tg_err_set(
					    err, TG_EINVAL,
					    "cannot parse '%s': '%s' names "
					    "two advisories",
					    name, a->v[k].aliases[m]);
		}
out:
	tg_json_free(root);
	if (rc)
		tg_advisory_release(a);
	return rc;
}

int
tg_advisory_load(struct tg_advisories *a, const char *path, struct tg_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(a, 0, sizeof(*a));
	rc = tg_file_read_as(path, TG_ADVISORY_MAX, "an advisories file", &text,
			     &len, NULL, err);
	if (!rc)
		rc = tg_advisory_parse(a, text, len, path, err);
	free(text);
	return rc;
}

int
tg_advisory_default(struct tg_advisories *a, struct tg_err *err)
{
	return tg_advisory_parse(a, tg_advisories_json, tg_advisories_json_len,
				 "(built-in advisories)", err);
}

int
tg_advisory_cached(struct tg_advisories *a, const char *path,
		   enum tg_cache_source *src, char **from, struct tg_err *warn,
		   struct tg_err *err)
{
	struct tg_err e = TG_ERR_INIT;
	char *dir = NULL, *file = NULL, *text = NULL;
	size_t len = 0;
	int rc, absent = 0;

	*from = NULL;
	if (path) {
		*src = TG_CACHE_FILE;
		rc = tg_advisory_load(a, path, err);
		if (!rc && !(*from = strdup(path))) {
			tg_advisory_release(a);
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		}
		return rc;
	}
	*src = TG_CACHE_BUILTIN;
	rc = tg_cache_dir(&dir, &e);
	if (rc == TG_ENOMEM)
		return tg_err_set(err, rc, "out of memory");
	if (rc == 0 && !(file = tg_cache_file(dir, TG_CACHE_ADVISORIES))) {
		free(dir);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	free(dir);
	if (file) {
		rc =
		    tg_file_read_as(file, TG_ADVISORY_MAX, "an advisories file",
				    &text, &len, &absent, &e);
		if (!rc && !absent)
			rc = tg_advisory_parse(a, text, len, file, &e);
		free(text);
		if (rc == TG_ENOMEM) {
			free(file);
			return tg_err_set(err, rc, "out of memory");
		}
		if (rc)
			tg_err_set(warn, rc,
				   "%s; the built-in advisories are used",
				   e.msg);
		else if (!absent &&
			 tg_table_version_cmp(a->version,
					      tg_advisories_version) > 0) {
			*src = TG_CACHE_CACHED;
			*from = file;
			return 0;
		} else if (!absent)
			tg_advisory_release(a);
		free(file);
	}
	return tg_advisory_default(a, err);
}

/* v without its local label (a shallow copy for comparisons). */
static struct tg_version
public_of(const struct tg_version *v)
{
	struct tg_version p = *v;

	p.local = NULL;
	p.nlocal = 0;
	return p;
}

/* Whether x lies in r. */
static int
in_range(const struct tg_advisory_range *r, const struct tg_version *x)
{
	if (tg_version_cmp(x, &r->introduced) < 0)
		return 0;
	switch (r->kind) {
	case TG_ADVISORY_FIXED:
		return tg_version_cmp(x, &r->end) < 0;
	case TG_ADVISORY_LAST:
		return tg_version_cmp(x, &r->end) <= 0;
	case TG_ADVISORY_OPEN:
		break;
	}
	return 1;
}

int
tg_advisory_affects(const struct tg_advisory *adv, const struct tg_version *v)
{
	struct tg_version p = public_of(v);
	size_t k;

	if (adv->withdrawn)
		return 0;
	for (k = 0; k < adv->nranges; k++)
		if (in_range(&adv->ranges[k], &p))
			return 1;
	return 0;
}

int
tg_advisory_admits(const struct tg_advisory *adv,
		   const struct tg_version *floor,
		   const struct tg_version *ceil)
{
	size_t k;

	if (adv->withdrawn)
		return 0;
	for (k = 0; k < adv->nranges; k++) {
		const struct tg_advisory_range *r = &adv->ranges[k];
		/* the lowest version both admit: max(floor, introduced) */
		const struct tg_version *lo =
		    !floor || tg_version_cmp(floor, &r->introduced) < 0
			? &r->introduced
			: floor;

		if (ceil && tg_version_cmp(lo, ceil) >= 0)
			continue;
		if (in_range(r, lo))
			return 1;
	}
	return 0;
}

int
tg_advisory_floor(const struct tg_advisory *adv, const char **ver, int *strict)
{
	const struct tg_version *best = NULL;
	size_t k;

	*ver = NULL;
	*strict = 0;
	for (k = 0; k < adv->nranges; k++) {
		const struct tg_advisory_range *r = &adv->ranges[k];
		int c;

		if (r->kind == TG_ADVISORY_OPEN)
			return 0;
		c = best ? tg_version_cmp(&r->end, best) : 1;
		if (c > 0 || (c == 0 && r->kind == TG_ADVISORY_LAST)) {
			best = &r->end;
			*strict = r->kind == TG_ADVISORY_LAST;
		}
	}
	if (!best)
		return 0;
	*ver = best->str;
	return 1;
}

int
tg_advisory_has_id(const struct tg_advisory *adv, const char *id)
{
	size_t k;

	if (strcasecmp(adv->id, id) == 0)
		return 1;
	for (k = 0; k < adv->naliases; k++)
		if (strcasecmp(adv->aliases[k], id) == 0)
			return 1;
	return 0;
}

int
tg_advisory_is_severe(const struct tg_advisory *adv)
{
	return adv->severity && strcmp(adv->severity, "critical") == 0 &&
	       !adv->disputed;
}

int
tg_advisory_has_api(const struct tg_advisory *adv, const char *api)
{
	size_t k;

	for (k = 0; k < adv->napis; k++)
		if (strcmp(adv->apis[k], api) == 0)
			return 1;
	return 0;
}

int
tg_advisory_known(const struct tg_advisories *a, const char *id)
{
	size_t k;

	for (k = 0; k < a->n; k++)
		if (tg_advisory_has_id(&a->v[k], id))
			return 1;
	return 0;
}

int
tg_advisory_match(struct tg_advisory_matches *m, const struct tg_advisories *a,
		  const struct tg_version *v, const char *const *ignore,
		  size_t nignore, struct tg_err *err)
{
	size_t k, j;

	memset(m, 0, sizeof(*m));
	m->hits = calloc(a->n + 1, sizeof(*m->hits));
	m->ignored = calloc(a->n + 1, sizeof(*m->ignored));
	if (!m->hits || !m->ignored) {
		tg_advisory_matches_release(m);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	for (k = 0; k < a->n; k++) {
		const struct tg_advisory *adv = &a->v[k];

		if (!tg_advisory_affects(adv, v))
			continue;
		for (j = 0; j < nignore; j++)
			if (tg_advisory_has_id(adv, ignore[j]))
				break;
		if (j < nignore)
			m->ignored[m->nignored++] = adv;
		else
			m->hits[m->nhits++] = adv;
	}
	return 0;
}

void
tg_advisory_matches_release(struct tg_advisory_matches *m)
{
	free(m->hits);
	free(m->ignored);
	memset(m, 0, sizeof(*m));
}
